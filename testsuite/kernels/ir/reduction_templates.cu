// CUDA-samples reduction: template on block size, SharedMemory<T> helper for
// the dynamic shared buffer, loads of two elements per thread, the tree in
// shared memory, and a volatile warp-synchronous tail.
#include <cuda_runtime.h>

template <class T> struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <class T> __device__ void warpReduce(volatile T *sdata, unsigned int tid)
{
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
}

template <class T, unsigned int blockSize>
__global__ void reduce4(T *g_idata, T *g_odata, unsigned int n)
{
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    // EXPECT-ACCESS: -1 load g_idata global 4 guard={blockIdx.x * 512 + threadIdx.x < n} index=blockIdx.x * 512 + threadIdx.x
    if (i + blockSize < n)
        mySum += g_idata[i + blockSize];
    sdata[tid] = mySum;
    // EXPECT-ACCESS: -1 store sdata shared 4 index=threadIdx.x
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = mySum = mySum + sdata[tid + s];
        // EXPECT-ACCESS: -1 load sdata shared 4 loops=s guard={threadIdx.x < s} index=threadIdx.x + s
        __syncthreads();
    }
    // EXPECT-LOOP: -6 var=s trip=unknown
    if (tid < 32)
        warpReduce<T>(sdata, tid);
    // EXPECT-ACCESS: @reduce4 16 load sdata shared 4 guard={threadIdx.x < 32} index=threadIdx.x + 32
    // EXPECT-ORDER: @reduce4 16 load sdata, 16 load sdata, 16 store sdata, 17 load sdata
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
    // EXPECT-ACCESS: -1 store g_odata global 4 guard={threadIdx.x == 0} index=blockIdx.x
    // EXPECT-ARRAY: __smem shared int[256] 4B extern
    // EXPECT-ARRAY: sdata shared float[256] 4B extern base=__smem+0 read written
    // grid = (1 << 24) / (256 * 2) = 32768; shared = 256 * sizeof(float)
    // EXPECT-LAUNCH: grid=(32768,1,1) block=(256,1,1) shared=1024 source=host-call
}

int main()
{
    int size = 1 << 24;
    int threads = 256;
    int blocks = (size + (threads * 2 - 1)) / (threads * 2);
    int smemSize = threads * sizeof(float);
    float *d_idata, *d_odata;
    reduce4<float, 256><<<blocks, threads, smemSize>>>(d_idata, d_odata, size);
    return 0;
}
