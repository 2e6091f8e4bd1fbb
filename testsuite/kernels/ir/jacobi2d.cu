// PolyBench-GPU jacobi2D: interior points only (guards on both sides), a
// second kernel copying back, sizes from a parameter with a default.
#include <cuda_runtime.h>

__global__ void runJacobi2D_kernel1(int n, float *A, float *B)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) {
        B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] +
                               A[(1 + i) * n + j] + A[(i - 1) * n + j]);
        // EXPECT-ACCESS: -2 load A global 4 guard={blockIdx.y * blockDim.y + threadIdx.y >= 1 && blockIdx.y * blockDim.y + threadIdx.y < n - 1 && blockIdx.x * blockDim.x + threadIdx.x >= 1 && blockIdx.x * blockDim.x + threadIdx.x < n - 1} index=(blockIdx.y * blockDim.y + threadIdx.y) * n + (blockIdx.x * blockDim.x + threadIdx.x) - 1
        // EXPECT-ACCESS: -2 load A global 4 index=(blockIdx.y * blockDim.y + threadIdx.y + 1) * n + (blockIdx.x * blockDim.x + threadIdx.x)
        // EXPECT-ACCESS: -3 load A global 4 index=(blockIdx.y * blockDim.y + threadIdx.y - 1) * n + (blockIdx.x * blockDim.x + threadIdx.x)
        // EXPECT-ORDER: -5 load A, -5 load A, -5 load A, -4 load A, -4 load A, -5 store B
    }
    // no value for n anywhere: the default is grid.x * block.x = 8 * 32
    // EXPECT-PARAM: n int = 256 (default)
    // EXPECT-LAUNCH: grid=(8,32,1) block=(32,8,1) source=annotation
}
// hms-lint: launch kernel=runJacobi2D_kernel1 grid(8,32) block(32,8)
