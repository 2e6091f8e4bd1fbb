#include <cuda_runtime.h>
#include "demo.h"

__global__ void strided(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[(i * DEMO_STRIDE) % DEMO_N];
}
