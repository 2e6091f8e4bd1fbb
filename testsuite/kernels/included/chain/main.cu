// Rodinia myocyte style: the program defines the precision and the block
// size, then #includes work.cu, which #includes the kernel file. The kernel
// file is two includes away from what it needs.
#include <stdio.h>
#include <stdlib.h>

#define real float
#define STEP_THREADS 64

#include "work.cu"

int main(int argc, char **argv)
{
    int cells = 4096;
    real *d_y, *d_dy;
    cudaMalloc((void **)&d_y, sizeof(real) * cells * 4);
    cudaMalloc((void **)&d_dy, sizeof(real) * cells * 4);
    work(cells, d_y, d_dy, 0.01f);
    cudaFree(d_y);
    cudaFree(d_dy);
    return 0;
}
