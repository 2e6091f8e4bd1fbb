// CUDA-samples style tensor-core GEMM: one warp per 16x16 output tile,
// half inputs, float accumulators, and a bf16 variant staging tiles in
// shared memory with a skew.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define WM 16
#define WN 16
#define WK 16

// hms-lint: launch grid(16,16) block(128,4)
// hms-lint: param M=1024 N=1024 K=1024
__global__ void wmma_gemm(const half *a, const half *b, float *c, int M, int N, int K)
{
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;
    wmma::fragment<wmma::matrix_a, WM, WN, WK, half, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, WM, WN, WK, half, wmma::col_major> b_frag;
    wmma::fragment<wmma::accumulator, WM, WN, WK, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += WK) {
        int aRow = warpM * WM, bCol = warpN * WN;
        if (aRow < M && bCol < N) {
            wmma::load_matrix_sync(a_frag, a + k + aRow * K, K);
            wmma::load_matrix_sync(b_frag, b + k + bCol * K, K);
            wmma::mma_sync(acc, a_frag, b_frag, acc);
        }
    }
    int cRow = warpM * WM, cCol = warpN * WN;
    if (cRow < M && cCol < N) {
        for (int i = 0; i < acc.num_elements; i++)
            acc.x[i] *= 2.0f;
        wmma::store_matrix_sync(c + cCol + cRow * N, acc, N, wmma::mem_row_major);
    }
}

#define SKEW 8
// hms-lint: launch grid(64) block(32)
// hms-lint: param K=512
__global__ void wmma_bf16_staged(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int K)
{
    __shared__ __nv_bfloat16 tileA[WM][WK + SKEW];
    __shared__ __nv_bfloat16 tileB[WK][WN + SKEW];
    wmma::fragment<wmma::matrix_a, WM, WN, WK, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, WM, WN, WK, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, WM, WN, WK, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int k = 0; k < K; k += WK) {
        for (int e = threadIdx.x; e < WM * WK; e += 32) {
            tileA[e / WK][e % WK] = A[(blockIdx.x * WM + e / WK) * K + k + e % WK];
            tileB[e / WN][e % WN] = B[(k + e / WN) * WN + e % WN];
        }
        __syncwarp();
        wmma::load_matrix_sync(fa, &tileA[0][0], WK + SKEW);
        wmma::load_matrix_sync(fb, &tileB[0][0], WN + SKEW);
        wmma::mma_sync(fc, fa, fb, fc);
        __syncwarp();
    }
    wmma::store_matrix_sync(C + blockIdx.x * WM * WN, fc, WN, wmma::mem_row_major);
}
