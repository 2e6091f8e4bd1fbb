// C = A * B for 256 x 256 floats, 16 x 16 threads per block, four ways:
// naive, A staged through shared tiles, B staged, both staged. For hms-lint's
// check tests (expectation syntax: see transpose.cu).
#include <cuda_runtime.h>

#define BS 16
#define N 256

__global__ void matmulNaive(float *C, const float *A, const float *B, int n)
{
    int row = blockIdx.y * BS + threadIdx.y;
    int col = blockIdx.x * BS + threadIdx.x;
    float sum = 0;
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col]; // EXPECT-NO: hms-uncoalesced-access
    C[row * n + col] = sum;
}

__global__ void matmulSharedA(float *C, const float *A, const float *B, int n)
{
    __shared__ float As[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * BS + ty;
    int col = blockIdx.x * BS + tx;
    float sum = 0;
    for (int t = 0; t < n / BS; t++) {
        As[ty][tx] = A[row * n + t * BS + tx];
        __syncthreads();
        for (int k = 0; k < BS; k++)
            sum += As[ty][k] * B[(t * BS + k) * n + col]; // EXPECT-NO: hms-shared-bank-conflict
        __syncthreads();
    }
    C[row * n + col] = sum;
}

__global__ void matmulSharedB(float *C, const float *A, const float *B, int n)
{
    __shared__ float Bs[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * BS + ty;
    int col = blockIdx.x * BS + tx;
    float sum = 0;
    for (int t = 0; t < n / BS; t++) {
        Bs[ty][tx] = B[(t * BS + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < BS; k++)
            sum += A[row * n + t * BS + k] * Bs[k][tx]; // EXPECT-NO: hms-shared-bank-conflict
        __syncthreads();
    }
    C[row * n + col] = sum;
}

__global__ void matmulShared(float *C, const float *A, const float *B, int n)
{
    __shared__ float As[BS][BS];
    __shared__ float Bs[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * BS + ty;
    int col = blockIdx.x * BS + tx;
    float sum = 0;
    for (int t = 0; t < n / BS; t++) {
        As[ty][tx] = A[row * n + t * BS + tx];
        Bs[ty][tx] = B[(t * BS + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < BS; k++)
            sum += As[ty][k] * Bs[k][tx]; // EXPECT-NO: hms-shared-bank-conflict
        __syncthreads();
    }
    C[row * n + col] = sum;
}

int main()
{
    float *a, *b, *c;
    cudaMalloc(&a, N * N * sizeof(float));
    cudaMalloc(&b, N * N * sizeof(float));
    cudaMalloc(&c, N * N * sizeof(float));
    dim3 grid(N / BS, N / BS), block(BS, BS);
    matmulNaive<<<grid, block>>>(c, a, b, N);
    matmulSharedA<<<grid, block>>>(c, a, b, N);
    matmulSharedB<<<grid, block>>>(c, a, b, N);
    matmulShared<<<grid, block>>>(c, a, b, N);
    return 0;
}
