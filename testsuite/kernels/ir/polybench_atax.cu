// PolyBench-GPU atax: y = A^T (A x), two kernels with loops bounded by the
// problem-size parameters and row/column traversals of A.
#include <cuda_runtime.h>

#define NX 4096
#define NY 4096
#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

typedef float DATA_TYPE;

__global__ void atax_kernel1(DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NX) {
        int j;
        for (j = 0; j < NY; j++)
            tmp[i] += A[i * NY + j] * x[j];
        // EXPECT-LOOP: -2 var=j trip=4096
        // EXPECT-ACCESS: -2 load A global 4 loops=j guard={blockIdx.x * blockDim.x + threadIdx.x < 4096} index=(blockIdx.x * blockDim.x + threadIdx.x) * 4096 + j
        // EXPECT-ACCESS: -3 load x global 4 loops=j index=j
        // EXPECT-ORDER: -4 load A, -4 load x, -4 load tmp, -4 store tmp
    }
    // EXPECT-LAUNCH: grid=(16,1,1) block=(256,1,1) source=host-call
    // EXPECT-NO-LIMIT
}

__global__ void atax_kernel2(DATA_TYPE *A, DATA_TYPE *y, DATA_TYPE *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < NY) {
        int i;
        for (i = 0; i < NX; i++)
            y[j] += A[i * NY + j] * tmp[i];
        // column traversal: consecutive lanes read consecutive columns
        // EXPECT-ACCESS: -2 load A global 4 loops=i index=i * 4096 + (blockIdx.x * blockDim.x + threadIdx.x)
    }
}

int main()
{
    DATA_TYPE *A, *x, *y, *tmp;
    dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    dim3 grid1((size_t)(ceil(((float)NX) / ((float)block.x))), 1);
    dim3 grid2((size_t)(ceil(((float)NY) / ((float)block.x))), 1);
    atax_kernel1<<<grid1, block>>>(A, x, tmp);
    atax_kernel2<<<grid2, block>>>(A, y, tmp);
    return 0;
}
