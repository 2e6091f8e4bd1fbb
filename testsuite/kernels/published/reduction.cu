// The seven reduction kernels of Mark Harris, "Optimizing Parallel Reduction
// in CUDA" (NVIDIA, 2007; times for 4M ints on a G80, 8800 GTX), written
// afresh for hms-lint's published-results tests. One pass over 2^22 ints with
// 128 threads per block; the kernels from 4 on add two elements while
// loading, so they launch half the blocks, and kernel 7 loops over the input
// with 64 blocks.
#include <cuda_runtime.h>

#define THREADS 128
#define N (1 << 22)

// 1: interleaved addressing, divergent branch (tid % (2s)).
__global__ void reduce1(int *out, const int *in)
{
    __shared__ int s[THREADS];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned d = 1; d < blockDim.x; d *= 2) {
        if (tid % (2 * d) == 0)
            s[tid] += s[tid + d];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

// 2: interleaved addressing, contiguous active threads, strided (conflicting) index.
__global__ void reduce2(int *out, const int *in)
{
    __shared__ int s[THREADS];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned d = 1; d < blockDim.x; d *= 2) {
        unsigned k = 2 * d * tid;
        if (k < blockDim.x)
            s[k] += s[k + d];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

// 3: sequential addressing.
__global__ void reduce3(int *out, const int *in)
{
    __shared__ int s[THREADS];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
        if (tid < d)
            s[tid] += s[tid + d];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

// 4: first add during the global load.
__global__ void reduce4(int *out, const int *in)
{
    __shared__ int s[THREADS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (2 * blockDim.x) + tid;
    s[tid] = in[i] + in[i + blockDim.x];
    __syncthreads();
    for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
        if (tid < d)
            s[tid] += s[tid + d];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

// 5: as 4, the last warp unrolled without barriers.
__global__ void reduce5(int *out, const int *in)
{
    __shared__ int s[THREADS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (2 * blockDim.x) + tid;
    s[tid] = in[i] + in[i + blockDim.x];
    __syncthreads();
    for (unsigned d = blockDim.x / 2; d > 32; d >>= 1) {
        if (tid < d)
            s[tid] += s[tid + d];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *v = s;
        v[tid] += v[tid + 32];
        v[tid] += v[tid + 16];
        v[tid] += v[tid + 8];
        v[tid] += v[tid + 4];
        v[tid] += v[tid + 2];
        v[tid] += v[tid + 1];
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

// 6: completely unrolled for the block size.
__global__ void reduce6(int *out, const int *in)
{
    __shared__ int s[THREADS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (2 * THREADS) + tid;
    s[tid] = in[i] + in[i + THREADS];
    __syncthreads();
    if (tid < 64)
        s[tid] += s[tid + 64];
    __syncthreads();
    if (tid < 32) {
        volatile int *v = s;
        v[tid] += v[tid + 32];
        v[tid] += v[tid + 16];
        v[tid] += v[tid + 8];
        v[tid] += v[tid + 4];
        v[tid] += v[tid + 2];
        v[tid] += v[tid + 1];
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

// 7: as 6, each thread first sums many elements (grid-stride loop).
__global__ void reduce7(int *out, const int *in)
{
    __shared__ int s[THREADS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (2 * THREADS) + tid;
    unsigned step = 2 * THREADS * gridDim.x;
    int sum = 0;
    while (i < N) {
        sum += in[i] + in[i + THREADS];
        i += step;
    }
    s[tid] = sum;
    __syncthreads();
    if (tid < 64)
        s[tid] += s[tid + 64];
    __syncthreads();
    if (tid < 32) {
        volatile int *v = s;
        v[tid] += v[tid + 32];
        v[tid] += v[tid + 16];
        v[tid] += v[tid + 8];
        v[tid] += v[tid + 4];
        v[tid] += v[tid + 2];
        v[tid] += v[tid + 1];
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, N * sizeof(int));
    cudaMalloc(&out, N / THREADS * sizeof(int));
    reduce1<<<N / THREADS, THREADS>>>(out, in);
    reduce2<<<N / THREADS, THREADS>>>(out, in);
    reduce3<<<N / THREADS, THREADS>>>(out, in);
    reduce4<<<N / (2 * THREADS), THREADS>>>(out, in);
    reduce5<<<N / (2 * THREADS), THREADS>>>(out, in);
    reduce6<<<N / (2 * THREADS), THREADS>>>(out, in);
    reduce7<<<64, THREADS>>>(out, in);
    return 0;
}
