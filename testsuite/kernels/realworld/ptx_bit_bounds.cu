// CUDA samples cdpAdvancedQuicksort style: the length is rounded up to a
// power of two with the index of its highest set bit, read by inline PTX
// (bfind), and every loop is bounded by that rounded length. The analysis
// cannot run the assembly: its result is assumed, like a parameter's default
// (a note says so), and the figures are exact under that value.
#include <cuda_runtime.h>

static __device__ __forceinline__ unsigned int highest_bit(unsigned int word)
{
    unsigned int ret;
    asm volatile("bfind.u32 %0, %1;" : "=r"(ret) : "r"(word));
    return ret;
}

static __device__ __forceinline__ void butterfly_sums_body(unsigned *data, unsigned *backbuf,
                                                           unsigned int len)
{
    unsigned int len2 = 1 << (highest_bit(len - 1U) + 1); // len rounded up to a power of 2
    if (threadIdx.x >= len2)
        return;
    for (unsigned int i = len; i < len2; i += blockDim.x) { // pad the tail
        unsigned int index = i + threadIdx.x;
        if (index < len2)
            backbuf[index - len] = 0xffffffffu;
    }
    __syncthreads();
    for (unsigned int k = 2; k <= len2; k *= 2) {      // butterfly size
        for (unsigned int j = k >> 1; j > 0; j >>= 1) { // partner distance
            for (unsigned int i = 0; i < len2; i += blockDim.x) {
                unsigned int index = threadIdx.x + i;
                unsigned int partner = index ^ j;
                if (partner > index && partner < len)
                    data[index] = data[index] + data[partner];
            }
            __syncthreads();
        }
    }
}

__global__ void butterfly_sums(unsigned *data, unsigned *backbuf, unsigned int len)
{
    butterfly_sums_body(data, backbuf, len);
}

int main()
{
    const unsigned int n = 300;
    unsigned *d, *b;
    cudaMalloc(&d, 512 * sizeof(unsigned));
    cudaMalloc(&b, 512 * sizeof(unsigned));
    butterfly_sums<<<1, 128>>>(d, b, n);
    cudaDeviceSynchronize();
    return 0;
}
