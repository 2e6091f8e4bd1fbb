// extern __shared__ buffers: one carved into several arrays by pointer
// arithmetic, one per template instantiation; dynamic sizes from sizeof and
// constexpr values.
#include <cuda_runtime.h>

constexpr int kThreads = 128;

__global__ void histogram_carved(const unsigned char *in, unsigned int *bins, int n)
{
    extern __shared__ unsigned int smem[];
    unsigned int *local_bins = smem;
    float *weights = (float *)&local_bins[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        local_bins[b] = 0;
        weights[b] = 1.0f;
    }
    __syncthreads();
    if (i < n)
        atomicAdd(&local_bins[in[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        atomicAdd(&bins[b], local_bins[b] * (unsigned int)weights[b]);
}

template <typename T> __global__ void block_sum(const T *in, T *out)
{
    extern __shared__ unsigned char raw[];
    T *buf = reinterpret_cast<T *>(raw);
    buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = buf[0];
}

int main()
{
    const int n = 1 << 16;
    unsigned char *in;
    unsigned int *bins;
    cudaMalloc(&in, n);
    cudaMalloc(&bins, 256 * sizeof(unsigned int));
    // 256 unsigned bins + 256 float weights = 2048 bytes
    size_t smem = 256 * sizeof(unsigned int) + 256 * sizeof(float);
    histogram_carved<<<n / kThreads, kThreads, smem>>>(in, bins, n);
    double *d;
    cudaMalloc(&d, n * sizeof(double));
    block_sum<double><<<n / kThreads, kThreads, kThreads * sizeof(double)>>>(d, d);
    block_sum<int><<<64, 64, 64 * sizeof(int)>>>((int *)d, (int *)d);
    return 0;
}

// EXPECT-KERNEL: histogram_carved line=8 params=const unsigned char *in, unsigned int *bins, int n
// EXPECT-SHARED: smem unsigned int[] extern in=histogram_carved line=10
// EXPECT-KERNEL: block_sum line=26 template=<typename T> instantiations=block_sum<double>; block_sum<int> params=const T *in, T *out
// EXPECT-SHARED: raw unsigned char[] extern in=block_sum line=28
// 65536 / 128 = 512 blocks; 128 doubles = 1024 bytes; 64 ints = 256 bytes
// EXPECT-LAUNCH: histogram_carved line=50 grid=(512,1,1) block=(128,1,1) shared=2048 args=in, bins, n=65536
// EXPECT-LAUNCH: block_sum<double> line=53 grid=(512,1,1) block=(128,1,1) shared=1024
// EXPECT-LAUNCH: block_sum<int> line=54 grid=(64,1,1) block=(64,1,1) shared=256
