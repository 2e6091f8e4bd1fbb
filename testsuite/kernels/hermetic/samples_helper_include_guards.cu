// A sample that uses a helper header whose functions are defined only when
// the toolkit's include guards (__DRIVER_TYPES_H__, __CUDA_RUNTIME_H__) are
// set by the runtime headers included first.
#include <cuda_runtime.h>
#include "helpers/check_helper.h"

// hms-lint: launch grid(64) block(256)
__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    checkCuda(cudaSetDevice(pickDevice()));
    float *x, *y;
    checkCuda(cudaMalloc(&x, 16384 * sizeof(float)));
    checkCuda(cudaMalloc(&y, 16384 * sizeof(float)));
    saxpy<<<64, 256>>>(2.0f, x, y, 16384);
    checkCuda(cudaGetLastError());
    checkCuda(cudaDeviceSynchronize());
    return 0;
}
