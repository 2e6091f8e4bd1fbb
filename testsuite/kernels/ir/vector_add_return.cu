// CUDA-samples vectorAdd with an early return for out-of-range threads, and
// a variant that checks with if and writes through a guarded else.
#include <cuda_runtime.h>

__global__ void vectorAdd(const float *A, const float *B, float *C, int numElements)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i >= numElements)
        return;
    // EXPECT-LINE: -2 if (blockDim.x * blockIdx.x + threadIdx.x >= numElements)
    // EXPECT-LINE: -2 return
    C[i] = A[i] + B[i];
    // EXPECT-ORDER: -1 load A, -1 load B, -1 store C
    // EXPECT-ACCESS: -2 store C global 4 unguarded index=blockDim.x * blockIdx.x + threadIdx.x
    // (50000 + 255) / 256 = 196 blocks
    // EXPECT-LAUNCH: grid=(196,1,1) block=(256,1,1) source=host-call
    // EXPECT-PARAM: numElements int = 50000 (host-call)
    // EXPECT-NO-LIMIT
}

__global__ void vectorAddElse(const float *A, float *C, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n)
        C[i] = A[i];
    else
        C[i % n] = 0;
    // EXPECT-ACCESS: -3 load A global 4 guard={blockDim.x * blockIdx.x + threadIdx.x < n} index=blockDim.x * blockIdx.x + threadIdx.x
    // EXPECT-ACCESS: -2 store C global 4 guard={!(blockDim.x * blockIdx.x + threadIdx.x < n)} index=(blockDim.x * blockIdx.x + threadIdx.x) % n
}

int main()
{
    int numElements = 50000;
    int threadsPerBlock = 256;
    int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
    float *d_A, *d_B, *d_C;
    vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, numElements);
    vectorAddElse<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_C, numElements);
    return 0;
}
