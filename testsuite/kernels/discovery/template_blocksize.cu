// Templates on block size (CUDA samples' reduction): the launch names the
// instantiation, kernel<256><<<g, b>>>, chosen by a switch on the thread
// count; a second template takes a type and a bool.
#include <cuda_runtime.h>

template <unsigned int blockSize>
__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[blockSize];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + tid;
    sdata[tid] = (i < n ? g_idata[i] : 0) + (i + blockSize < n ? g_idata[i + blockSize] : 0);
    __syncthreads();
    for (unsigned int s = blockSize / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile float *v = sdata;
        if (blockSize >= 64) v[tid] += v[tid + 32];
        if (blockSize >= 32) v[tid] += v[tid + 16];
        if (blockSize >= 16) v[tid] += v[tid + 8];
        if (blockSize >= 8) v[tid] += v[tid + 4];
        if (blockSize >= 4) v[tid] += v[tid + 2];
        if (blockSize >= 2) v[tid] += v[tid + 1];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

template <typename T, bool Accumulate>
__global__ void axpy_t(T *y, const T *x, T a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = Accumulate ? y[i] + a * x[i] : a * x[i];
}

void launch_reduce(int threads, int blocks, const float *in, float *out, unsigned int n)
{
    switch (threads) {
    case 512: reduce<512><<<blocks, 512>>>(in, out, n); break;
    case 256: reduce<256><<<blocks, 256>>>(in, out, n); break;
    case 128: reduce<128><<<blocks, 128>>>(in, out, n); break;
    }
}

int main()
{
    const unsigned int n = 1 << 22;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    // each block reduces 2 * 256 elements: 4194304 / 512 = 8192 blocks
    dim3 g(n / (256 * 2)), b(256);
    reduce<256><<<g, b>>>(in, out, n);
    launch_reduce(128, 64, in, out, n);
    axpy_t<float, true><<<n / 256, 256>>>(out, in, 2.0f, n);
    axpy_t<double, false><<<n / 512, 512>>>((double *)out, (const double *)in, 3.0, n / 2);
    return 0;
}

// EXPECT-KERNEL: reduce line=7 template=<unsigned int blockSize> instantiations=reduce<512>; reduce<256>; reduce<128> params=const float *g_idata, float *g_odata, unsigned int n
// EXPECT-SHARED: sdata float[blockSize] in=reduce line=9
// EXPECT-KERNEL: axpy_t line=33 template=<typename T, bool Accumulate> instantiations=axpy_t<float, true>; axpy_t<double, false> params=T *y, const T *x, T a, int n
// inside launch_reduce, blocks is a parameter: main's one call,
// launch_reduce(128, 64, ...), reaches only case 128, which gets grid 64;
// the other cases are not reached from any call: only the block size folds
// EXPECT-LAUNCH: reduce<512> line=43 grid=?(blocks) block=(512,1,1) shared=0 args=in, out, n
// EXPECT-LAUNCH: reduce<256> line=44 grid=?(blocks) block=(256,1,1)
// EXPECT-LAUNCH: reduce<128> line=45 grid=(64,1,1) block=(128,1,1) shared=0 args=in, out, n=4194304 via=launch_reduce(threads=128, blocks=64, n=4194304) called at template_blocksize.cu:58
// EXPECT-LAUNCH: reduce<256> line=57 grid=(8192,1,1) block=(256,1,1) shared=0 args=in, out, n=4194304
// 4194304 / 256 = 16384; 4194304 / 512 = 8192; n / 2 = 2097152
// EXPECT-LAUNCH: axpy_t<float, true> line=59 grid=(16384,1,1) block=(256,1,1) shared=0 args=out, in, 2.0f, n=4194304
// EXPECT-LAUNCH: axpy_t<double, false> line=60 grid=(8192,1,1) block=(512,1,1) shared=0 args=(double *)out, (const double *)in, 3.0, n / 2=2097152
