// Template reduction in the style of the CUDA samples: a host function
// template picks the kernel instantiation with a switch over the block size
// and is called with concrete types from main.
#include <cuda_runtime.h>

template <class T, unsigned int blockSize>
__global__ void block_sum(const T *in, T *out, unsigned int n)
{
    __shared__ T partial[blockSize];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockSize * 2 + tid;
    T v = 0;
    if (i < n)
        v = in[i];
    if (i + blockSize < n)
        v += in[i + blockSize];
    partial[tid] = v;
    __syncthreads();
    for (unsigned int s = blockSize / 2; s > 0; s >>= 1) {
        if (tid < s)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

template <class T>
void sum(unsigned int n, int threads, int blocks, const T *in, T *out)
{
    dim3 grid(blocks, 1, 1);
    dim3 block(threads, 1, 1);
    switch (threads) {
    case 512:
        block_sum<T, 512><<<grid, block>>>(in, out, n);
        break;
    case 256:
        block_sum<T, 256><<<grid, block>>>(in, out, n);
        break;
    case 128:
        block_sum<T, 128><<<grid, block>>>(in, out, n);
        break;
    }
}

int main()
{
    const unsigned int n = 1 << 20;
    float *fin, *fout;
    double *din, *dout;
    cudaMalloc(&fin, n * sizeof(float));
    cudaMalloc(&fout, 1024 * sizeof(float));
    cudaMalloc(&din, n * sizeof(double));
    cudaMalloc(&dout, 1024 * sizeof(double));
    // 2^20 / (2 * 256) = 2048 blocks of 256 threads
    sum<float>(n, 256, 2048, fin, fout);
    // 2^20 / (2 * 128) = 4096 blocks of 128 threads
    sum<double>(n, 128, 4096, din, dout);
    return 0;
}
