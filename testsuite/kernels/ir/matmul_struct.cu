// CUDA programming guide matrix multiply with a Matrix struct passed by
// value: its pointer field is an array, its int fields are scalar values.
#include <cuda_runtime.h>

typedef struct {
    int width;
    int height;
    float *elements;
} Matrix;

#define BLOCK_SIZE 16

__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C)
{
    float Cvalue = 0;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    for (int e = 0; e < A.width; ++e)
        Cvalue += A.elements[row * A.width + e] * B.elements[e * B.width + col];
    // EXPECT-LOOP: -2 var=e trip=A.width
    // EXPECT-ACCESS: -2 load A.elements global 4 loops=e index=(blockIdx.y * blockDim.y + threadIdx.y) * A.width + e
    // EXPECT-ACCESS: -3 load B.elements global 4 loops=e index=e * B.width + (blockIdx.x * blockDim.x + threadIdx.x)
    C.elements[row * C.width + col] = Cvalue;
    // EXPECT-ACCESS: -1 store C.elements global 4 index=(blockIdx.y * blockDim.y + threadIdx.y) * C.width + (blockIdx.x * blockDim.x + threadIdx.x)
    // EXPECT-ARRAY: A.elements global float 4B param read
    // EXPECT-PARAM: A.width = 1024 (cli)
    // EXPECT-PARAM: B.width = 64 (default)
    // EXPECT-LAUNCH: grid=(16,16,1) block=(16,16,1) source=default
}
// RUN-ARGS: --param=MatMulKernel.A.width=1024
