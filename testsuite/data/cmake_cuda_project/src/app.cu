#include <cuda_runtime.h>
#include "demo.h"

__global__ void scale(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i % DEMO_N];
}

int main()
{
    float *a, *b;
    cudaMalloc(&a, DEMO_N * sizeof(float));
    cudaMalloc(&b, DEMO_N * sizeof(float));
    scale<<<DEMO_N / 256, 256>>>(a, b);
    return 0;
}
