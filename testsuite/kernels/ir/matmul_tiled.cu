// CUDA-samples matrixMul style: template on the tile size, two shared tiles
// filled from global memory inside a loop over the K dimension.
#include <cuda_runtime.h>

template <int BLOCK_SIZE>
__global__ void matrixMulCUDA(float *C, float *A, float *B, int wA, int wB)
{
    int bx = blockIdx.x;
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int aBegin = wA * BLOCK_SIZE * by;
    int aEnd = aBegin + wA - 1;
    int aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx;
    int bStep = BLOCK_SIZE * wB;
    float Csub = 0;
    // EXPECT-LOOP: 19 var=a trip=(wA + 31) / 32
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        // EXPECT-ACCESS: 23 load A global 4 loops=a index=a + wA * threadIdx.y + threadIdx.x
        As[ty][tx] = A[a + wA * ty + tx];
        // EXPECT-ACCESS: 23 store As shared 4 loops=a mapping=A index=threadIdx.y * 32 + threadIdx.x
        // EXPECT-ACCESS: 26 load B global 4 loops=a index=b + wB * threadIdx.y + threadIdx.x
        Bs[ty][tx] = B[b + wB * ty + tx];
        // EXPECT-ACCESS: 26 store Bs shared 4 mapping=B index=threadIdx.y * 32 + threadIdx.x
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k) {
            // EXPECT-ACCESS: 33 load As shared 4 loops=a,k index=threadIdx.y * 32 + k
            // EXPECT-ACCESS: 33 load Bs shared 4 loops=a,k index=k * 32 + threadIdx.x
            Csub += As[ty][k] * Bs[k][tx];
        }
        // EXPECT-LOOP: 30 var=k trip=32
        __syncthreads();
    }
    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    // EXPECT-ACCESS: 40 store C global 4 loops= index=wB * 32 * blockIdx.y + 32 * blockIdx.x + wB * threadIdx.y + threadIdx.x
    C[c + wB * ty + tx] = Csub;
    // EXPECT-ARRAY: As shared float[32][32] 4B read written
    // EXPECT-MAPPING: As <- A
    // EXPECT-MAPPING: Bs <- B
    // grid: dimsB.x / 32 = 640 / 32 = 20, dimsA.y / 32 = 320 / 32 = 10
    // EXPECT-LAUNCH: grid=(20,10,1) block=(32,32,1) source=host-call
    // EXPECT-PARAM: wA int = 320 (host-call)
    // EXPECT-PARAM: wB int = 640 (host-call)
    // EXPECT-NO-LIMIT
}

int main()
{
    const int block_size = 32;
    dim3 dimsA(5 * 2 * block_size, 5 * 2 * block_size, 1);
    dim3 dimsB(5 * 4 * block_size, 5 * 2 * block_size, 1);
    float *d_A, *d_B, *d_C;
    dim3 threads(block_size, block_size);
    dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);
    matrixMulCUDA<32><<<grid, threads>>>(d_C, d_A, d_B, 320, 640);
    return 0;
}
