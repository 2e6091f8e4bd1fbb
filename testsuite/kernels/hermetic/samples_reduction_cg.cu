// CUDA-samples style: reduction with cooperative groups, templates on block
// size, dynamic shared memory through a SharedMemory<T> helper struct.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

template <class T> struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
    __device__ inline operator const T *() const
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce6(const T *__restrict__ g_idata, T *__restrict__ g_odata, unsigned int n)
{
    cg::thread_block cta = cg::this_thread_block();
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int gridSize = blockSize * gridDim.x;
    T mySum = 0;
    if (nIsPow2) {
        unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
        gridSize = gridSize << 1;
        while (i < n) {
            mySum += g_idata[i];
            if ((i + blockSize) < n)
                mySum += g_idata[i + blockSize];
            i += gridSize;
        }
    } else {
        unsigned int i = blockIdx.x * blockSize + threadIdx.x;
        while (i < n) {
            mySum += g_idata[i];
            i += gridSize;
        }
    }
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    mySum = cg::reduce(tile32, mySum, cg::plus<T>());
    if (cta.thread_rank() % 32 == 0)
        sdata[tid / 32] = mySum;
    cg::sync(cta);
    if (tid < 32) {
        mySum = tid < blockSize / 32 ? sdata[tid] : 0;
#pragma unroll
        for (int offset = 16; offset > 0; offset /= 2)
            mySum += tile32.shfl_down(mySum, offset);
    }
    if (cta.thread_rank() == 0)
        g_odata[blockIdx.x] = mySum;
}

template <class T>
__global__ void reduce_warp_sync(const T *in, T *out, unsigned int n)
{
    __shared__ T warpSums[32];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    T v = i < n ? in[i] : T(0);
    unsigned mask = __ballot_sync(0xffffffff, i < n);
    for (int o = warpSize / 2; o > 0; o >>= 1)
        v += __shfl_down_sync(mask, v, o);
    if ((threadIdx.x & 31) == 0)
        warpSums[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        T s = 0;
        for (int w = 0; w < blockDim.x / 32; w++)
            s += warpSums[w];
        atomicAdd(out, s);
    }
}

int main(int argc, char **argv)
{
    int size = 1 << 24, threads = 256, blocks = 64;
    float *h = (float *)malloc(size * sizeof(float));
    for (int i = 0; i < size; i++)
        h[i] = (rand() & 0xFF) / (float)RAND_MAX;
    float *d_in = NULL, *d_out = NULL;
    cudaMalloc((void **)&d_in, size * sizeof(float));
    cudaMalloc((void **)&d_out, blocks * sizeof(float));
    cudaMemcpy(d_in, h, size * sizeof(float), cudaMemcpyHostToDevice);
    int smemSize = ((threads / 32) + 1) * sizeof(float);
    reduce6<float, 256, true><<<blocks, threads, smemSize>>>(d_in, d_out, size);
    reduce_warp_sync<float><<<blocks, threads>>>(d_in, d_out, size);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "failed: %s\n", cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
    cudaDeviceSynchronize();
    cudaFree(d_in);
    cudaFree(d_out);
    free(h);
    return 0;
}
