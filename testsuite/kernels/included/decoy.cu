// Includes decoy/scale_kernel.cu, not orphan/scale_kernel.cu.
#define fp float
#include "decoy/scale_kernel.cu"

int main()
{
    float *rows;
    cudaMalloc((void **)&rows, 1024 * sizeof(float));
    scaleRows<<<4, 256>>>(rows, 1024);
    return 0;
}
