// The host program of the wavefront alignment: it #includes the kernel file
// and launches one block of TILE threads per tile of each anti-diagonal.
#include <stdio.h>
#include <stdlib.h>

#include "align.h"
#include "align_kernel.cu"

int main(int argc, char **argv)
{
    int n = 128, cols = n + 1, tiles = n / TILE;
    int *d_score, *d_dp, *d_out;
    cudaMalloc((void **)&d_score, sizeof(int) * cols * cols);
    cudaMalloc((void **)&d_dp, sizeof(int) * cols * cols);
    cudaMalloc((void **)&d_out, sizeof(int) * cols * cols);
    dim3 threads(TILE);
    for (int d = 1; d <= tiles; d++) {
        dim3 grid(d);
        alignTiles<<<grid, threads>>>(d_score, d_dp, cols, 10, d);
        copyTiles<<<grid, threads>>>(d_dp, d_out, cols, d);
    }
    cudaDeviceSynchronize();
    cudaFree(d_score);
    cudaFree(d_dp);
    cudaFree(d_out);
    return 0;
}
