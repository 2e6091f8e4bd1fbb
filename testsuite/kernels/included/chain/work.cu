// Included by main.cu; includes the kernel file and launches it. Uses
// `real` and STEP_THREADS that main.cu defines before including it.
#include "step_kernel.cu"

void work(int cells, real *d_y, real *d_dy, real h)
{
    int blocks = (cells + STEP_THREADS - 1) / STEP_THREADS;
    stepCells<<<blocks, STEP_THREADS>>>(cells, d_y, d_dy, h);
    cudaDeviceSynchronize();
}
