// Grid-stride loops (the NVIDIA blog idiom) in two spellings, and a
// parameter-bounded loop whose scalar comes from --param on the command line.
// RUN-ARGS: --param n=1000000 --launch=saxpy_while:grid=128:block=512
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
    // EXPECT-LOOP: -2 var=i trip=(n + blockDim.x * gridDim.x - blockIdx.x * blockDim.x - threadIdx.x - 1) / (blockDim.x * gridDim.x)
    // EXPECT-ORDER: -2 load x, -2 load y, -2 store y
    // EXPECT-ACCESS: -3 load x global 4 loops=i index=i
    // EXPECT-PARAM: n int = 1000000 (cli)
    // 4096 blocks of 256 from the host call
    // EXPECT-LAUNCH: grid=(4096,1,1) block=(256,1,1) source=host-call
    // EXPECT-NO-LIMIT
}

__global__ void saxpy_while(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = blockDim.x * gridDim.x;
    while (i < n) {
        y[i] += a * x[i];
        i += stride;
    }
    // EXPECT-LOOP: -4 while (i < n) var=i trip=(n + blockDim.x * gridDim.x - blockIdx.x * blockDim.x - threadIdx.x - 1) / (blockDim.x * gridDim.x)
    // EXPECT-LINE: -5 i = blockIdx.x * blockDim.x + threadIdx.x
    // EXPECT-ACCESS: -5 store y global 4 loops=i index=i
    // EXPECT-LAUNCH: grid=(128,1,1) block=(512,1,1) source=cli
    // EXPECT-PARAM: n int = 1000000 (cli)
}

int main()
{
    int N = 1 << 20;
    float *x, *y;
    saxpy<<<4096, 256>>>(N, 2.0f, x, y);
    saxpy_while<<<4096, 256>>>(N, 2.0f, x, y);
    return 0;
}
