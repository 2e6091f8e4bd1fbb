// A CUDA-samples program whose helper headers are not on the include path:
// each missing header is one warning, the host code that uses them is
// tolerated, and the kernels are listed as usual.
#include <helper_cuda.h>
#include <helper_functions.h>
#include "common/book.h"
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void increment_kernel(int *g_data, int inc_value)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    g_data[idx] = g_data[idx] + inc_value;
}

__global__ void scale_kernel(float *v, float s)
{
    __shared__ float cache[BLOCK];
    cache[threadIdx.x] = v[blockIdx.x * BLOCK + threadIdx.x] * s;
    __syncthreads();
    v[blockIdx.x * BLOCK + threadIdx.x] = cache[BLOCK - 1 - threadIdx.x];
}

int main(int argc, char *argv[])
{
    int devID = findCudaDevice(argc, (const char **)argv);
    int n = 16 * 1024 * 1024;
    int *d_a = 0;
    checkCudaErrors(cudaMalloc((void **)&d_a, n * sizeof(int)));
    StopWatchInterface *timer = NULL;
    sdkCreateTimer(&timer);
    sdkStartTimer(&timer);
    dim3 threads = dim3(512, 1);
    dim3 blocks = dim3(n / threads.x, 1);
    increment_kernel<<<blocks, threads, 0, 0>>>(d_a, 26);
    scale_kernel<<<n / BLOCK, BLOCK>>>((float *)d_a, 0.5f);
    HANDLE_ERROR(cudaDeviceSynchronize());
    sdkStopTimer(&timer);
    return devID;
}

// EXPECT-STDERR: missing_headers.cu:4: warning: 'helper_cuda.h' not found; analysing without it
// EXPECT-STDERR: missing_headers.cu:5: warning: 'helper_functions.h' not found; analysing without it
// EXPECT-STDERR: missing_headers.cu:6: warning: 'common/book.h' not found; analysing without it
// EXPECT-STATUS: 0
// EXPECT-KERNEL: increment_kernel line=11 params=int *g_data, int inc_value
// EXPECT-KERNEL: scale_kernel line=17 params=float *v, float s
// EXPECT-SHARED: cache float[128] in=scale_kernel line=19 bytes=512
// 16 Mi / 512 = 32768 blocks; 16 Mi / 128 = 131072
// EXPECT-LAUNCH: increment_kernel line=36 grid=(32768,1,1) block=(512,1,1) shared=0 stream=0 args=d_a, 26
// EXPECT-LAUNCH: scale_kernel line=37 grid=(131072,1,1) block=(128,1,1) shared=0 args=(float *)d_a, 0.5f
