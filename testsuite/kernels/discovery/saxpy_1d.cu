// 1D blocks: a grid-stride loop and a guarded kernel, launched with the
// usual (n + 255) / 256 rounding. Expected values worked out by hand.
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__global__ void scale_stride(float *v, float s, size_t n)
{
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        v[i] *= s;
}

int main(int argc, char **argv)
{
    int n = 1 << 20;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    // (1048576 + 255) / 256 = 4096 blocks
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    int m = argc > 1 ? atoi(argv[1]) : 1000;
    // m depends on argv: the grid cannot be folded, its text is kept
    scale_stride<<<(m + 127) / 128, 128>>>(y, 0.5f, m);
    cudaFree(x);
    cudaFree(y);
    return 0;
}

// EXPECT-KERNEL: saxpy line=6 params=int n, float a, const float *x, float *y
// EXPECT-KERNEL: scale_stride line=13 params=float *v, float s, size_t n
// EXPECT-LAUNCH: saxpy line=26 grid=(4096,1,1) block=(256,1,1) shared=0 args=n=1048576, 2.0f, x, y
// EXPECT-LAUNCH: scale_stride line=29 grid=?((m + 127) / 128) block=(128,1,1) shared=0 args=y, 0.5f, m
// EXPECT-SUMMARY: 2 kernels, 0 variables, 2 launch sites
