// The program that #includes its kernel files after defining what they use.
#include <stdio.h>
#include <stdlib.h>

#include "define.h"
#include "log_kernel.cu"
#include "rows_kernel.cu"

int main(int argc, char **argv)
{
    long Nr = 64, Nc = 512, Ne = Nr * Nc;
    fp *d_I, *d_T;
    cudaMalloc((void **)&d_I, sizeof(fp) * Ne);
    cudaMalloc((void **)&d_T, sizeof(fp) * Ne);
    int blocks_x = Ne / NUMBER_THREADS;
    if (Ne % NUMBER_THREADS != 0)
        blocks_x = blocks_x + 1;
    dim3 threads(NUMBER_THREADS);
    dim3 blocks(blocks_x);
    logCompress<<<blocks, threads>>>(Ne, d_I);
    transposeRows<<<Nc / NUMBER_THREADS, threads>>>(Nr, Nc, d_I, d_T);
    cudaDeviceSynchronize();
    cudaFree(d_I);
    cudaFree(d_T);
    return 0;
}
