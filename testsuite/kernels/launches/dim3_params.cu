// Launchers that take the configuration as dim3 parameters (by value and by
// const reference), called from main with dim3 locals and temporaries, as
// GEMM runners and sample helpers do.
#include <cuda_runtime.h>
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

__global__ void sgemm_naive(int M, int N, int K, const float *A, const float *B, float *C)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < M && y < N) {
        float tmp = 0.0f;
        for (int i = 0; i < K; ++i)
            tmp += A[x * K + i] * B[i * N + y];
        C[x * N + y] = tmp;
    }
}

__global__ void scale_rows(float *a, int cols)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    a[r * cols + c] *= 2.0f;
}

void run_sgemm_naive(int M, int N, int K, const float *A, const float *B, float *C, dim3 gridDim,
                     dim3 blockDim)
{
    sgemm_naive<<<gridDim, blockDim>>>(M, N, K, A, B, C);
}

void run_scale(float *a, int cols, const dim3 &grid, const dim3 &block)
{
    scale_rows<<<grid, block>>>(a, cols);
}

int main()
{
    const int M = 64, N = 64, K = 32;
    float *A, *B, *C;
    cudaMalloc(&A, M * K * sizeof(float));
    cudaMalloc(&B, K * N * sizeof(float));
    cudaMalloc(&C, M * N * sizeof(float));
    dim3 gridDim(CEIL_DIV(M, 32), CEIL_DIV(N, 32));
    dim3 blockDim(32, 32);
    run_sgemm_naive(M, N, K, A, B, C, gridDim, blockDim);
    run_scale(C, N, dim3(N / 32, M / 8), dim3(32, 8));
    return 0;
}
