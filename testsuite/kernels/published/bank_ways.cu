// Shared-memory reads with 1- to 32-way bank conflicts, one kernel per
// degree, for the end-to-end check of Mei & Chu's Table VIII (shared latency
// by conflict ways; seeds/002_1cb76b36ded3a9f2.txt). Lane l of a warp reads
// word l * W of a 4-byte array: W lanes share each bank of 32. The d*
// kernels read 8-byte words, for Kepler's 8-byte bank mode.
#include <cuda_runtime.h>

#define WAYS_KERNEL(name, W)                                                                       \
    __global__ void name(float *out)                                                               \
    {                                                                                              \
        __shared__ float s[32 * 32];                                                               \
        out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x % 32) * (W)];                  \
    }

#define DWAYS_KERNEL(name, W)                                                                      \
    __global__ void name(double *out)                                                              \
    {                                                                                              \
        __shared__ double s[32 * 32];                                                              \
        out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x % 32) * (W)];                  \
    }

WAYS_KERNEL(ways1, 1)
WAYS_KERNEL(ways2, 2)
WAYS_KERNEL(ways4, 4)
WAYS_KERNEL(ways8, 8)
WAYS_KERNEL(ways16, 16)
WAYS_KERNEL(ways32, 32)
DWAYS_KERNEL(dways1, 1)
DWAYS_KERNEL(dways2, 2)
DWAYS_KERNEL(dways4, 4)
DWAYS_KERNEL(dways8, 8)
DWAYS_KERNEL(dways16, 16)
DWAYS_KERNEL(dways32, 32)

int main()
{
    float *out;
    double *dout;
    cudaMalloc(&out, 64 * 32 * sizeof(float));
    cudaMalloc(&dout, 64 * 32 * sizeof(double));
    ways1<<<64, 32>>>(out);
    ways2<<<64, 32>>>(out);
    ways4<<<64, 32>>>(out);
    ways8<<<64, 32>>>(out);
    ways16<<<64, 32>>>(out);
    ways32<<<64, 32>>>(out);
    dways1<<<64, 32>>>(dout);
    dways2<<<64, 32>>>(dout);
    dways4<<<64, 32>>>(dout);
    dways8<<<64, 32>>>(dout);
    dways16<<<64, 32>>>(dout);
    dways32<<<64, 32>>>(dout);
    return 0;
}
