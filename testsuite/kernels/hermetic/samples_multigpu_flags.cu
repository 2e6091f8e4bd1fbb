// CUDA samples multi-device conjugate gradient style: a block announces its
// arrival with a release store written in inline PTX whose two input operands
// have no comma between them ("r"(v) "l"(p)), which nvcc accepts and clang
// rejects; hms-lint adds the comma in the text it parses. The axpy around it
// is ordinary global traffic.
#include <cuda_runtime.h>

#define THREADS_PER_BLOCK 256

struct arrival_flags {
    unsigned char *arrived;

    __device__ void store_arrived(unsigned char *slot, unsigned char val) const
    {
#if __CUDA_ARCH__ < 700
        *(volatile unsigned char *)slot = val;
#else
        unsigned int reg_val = val;
        asm volatile("st.release.sys.global.u8 [%1], %0;" ::"r"(reg_val) "l"(slot) : "memory");
        (void)(reg_val = reg_val);
#endif
    }
};

__global__ void gpuSaxpyAndArrive(const float *x, float *y, float a, int n, arrival_flags flags)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
    if (threadIdx.x == 0)
        flags.store_arrived(flags.arrived + blockIdx.x, 1);
}

int main()
{
    const int n = 1 << 14, blocks = 16;
    float *x, *y;
    arrival_flags flags;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&flags.arrived, blocks);
    gpuSaxpyAndArrive<<<blocks, THREADS_PER_BLOCK>>>(x, y, 2.0f, n, flags);
    cudaDeviceSynchronize();
    return 0;
}
