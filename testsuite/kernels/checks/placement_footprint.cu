// Placement of pointer parameters, whose size the code does not give: the
// model takes the bytes the simulated launch touched. In the style of naive
// GEMM kernels of public HGEMM/SGEMM repositories, launched from a PyTorch
// binding with sizes only known at run time: a warp's lanes share the row m,
// so 'a' is read at one address per request, and under assumed sizes and
// sampled blocks its footprint looks small enough for __constant__. A GEMM
// operand never fits in 64 KB; that verdict is not made. For hms-lint's
// check tests (expectation syntax: see transpose.cu).
// EXPECT-ARCHES: h100
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// 'b' is read down a column by every thread of a row: a shared tile is the
// classic first step, and that verdict stands.
__global__ void gemmNaiveRows(half *a, // EXPECT-NO: hms-placement
                              half *b, // EXPECT-WARNING: hms-placement is read-only: __shared__ predicted
                              half *c, int M, int N, int K)
{
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    int m = blockIdx.y * blockDim.y + threadIdx.y;
    if (m < M && n < N) {
        half psum = 0.0;
        for (int k = 0; k < K; k++)
            psum += a[m * K + k] * b[k * N + n];
        c[m * N + n] = psum;
    }
}

void gemmNaive(half *a, half *b, half *c, int M, int N, int K)
{
    dim3 block(32, 32);
    dim3 grid((N + 31) / 32, (M + 31) / 32);
    gemmNaiveRows<<<grid, block>>>(a, b, c, M, N, K);
}
