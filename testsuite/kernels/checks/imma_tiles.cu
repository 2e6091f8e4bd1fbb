// 8-bit integer tensor-core GEMM tiles (cuda-samples immaTensorCoreGemm
// style), for hms-lint's check tests (expectation syntax: see transpose.cu).
// A 16x16 tile of uint8_t is 16 lines of 16 bytes: one 16-byte piece per
// line, so load_matrix_sync takes addresses from 16 of the warp's 32 lanes
// (ldmatrix .x2). That is the instruction's own lane mask, not a branch
// splitting the warp: no divergence warning on the tile loads.
// EXPECT-ARCHES: h100
#include <cuda_runtime.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

// Tiles straight from global memory, packed matrices, a 2D grid of warps.
// hms-lint: launch grid(16, 16) block(128, 4)
// hms-lint: param m_ld=1024 n_ld=1024 k_ld=1024
__global__ void simpleImmaGemm(const uint8_t *a, const uint8_t *b, const int *c, int *d, int m_ld,
                               int n_ld, int k_ld, int alpha, int beta)
{
    int lda = m_ld, ldb = k_ld, ldc = n_ld;
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;
    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, uint8_t, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, uint8_t, wmma::col_major> b_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, int> acc_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, int> c_frag;
    wmma::fill_fragment(acc_frag, 0);
    for (int i = 0; i < k_ld; i += WMMA_K) {
        int aRow = warpM * WMMA_M, bRow = warpN * WMMA_N;
        if (aRow < m_ld && i < k_ld && bRow < k_ld && i < n_ld) {
            wmma::load_matrix_sync(a_frag, a + i + aRow * lda, lda); // EXPECT-NO: hms-divergent-access
            wmma::load_matrix_sync(b_frag, b + i + bRow * ldb, ldb); // EXPECT-NO: hms-divergent-access
            wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
        }
    }
    int cRow = warpM * WMMA_M, cCol = warpN * WMMA_N;
    if (cRow < m_ld && cCol < n_ld) {
        wmma::load_matrix_sync(c_frag, c + cCol + cRow * ldc, ldc, wmma::mem_row_major);
        for (int i = 0; i < c_frag.num_elements; i++)
            c_frag.x[i] = alpha * acc_frag.x[i] + beta * c_frag.x[i];
        wmma::store_matrix_sync(d + cCol + cRow * ldc, c_frag, ldc, wmma::mem_row_major);
    }
}

#define WARPS 4
#define CHUNK_K 4
#define LINE (CHUNK_K * WMMA_K)
#define SKEW_UINT8 16

// Each warp stages its 16 rows of A (64 bytes each) in shared memory and
// multiplies them by B fragments read from global memory. Rows 64 bytes apart:
// the 8 lines of each phase fall on the same banks two by two (4-way).
// hms-lint: launch grid(128) block(128)
// hms-lint: param K=1024
__global__ void stagedImmaUnpadded(const uint8_t *A, const uint8_t *B, int *D, int K)
{
    __shared__ uint8_t tileA[WARPS][WMMA_M][LINE];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const uint8_t *rowsA = A + (blockIdx.x * WARPS + warp) * WMMA_M * K;
    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, uint8_t, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, uint8_t, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, int> acc;
    wmma::fill_fragment(acc, 0);
    for (int k0 = 0; k0 < K; k0 += LINE) {
        // 16 rows x 64 bytes: each lane copies 16-byte pieces, 4 lanes a row
        for (int p = lane; p < WMMA_M * LINE / 16; p += 32)
            *(int4 *)&tileA[warp][p / 4][(p % 4) * 16] =
                *(const int4 *)(rowsA + (p / 4) * K + k0 + (p % 4) * 16);
        __syncwarp();
        for (int kk = 0; kk < CHUNK_K; kk++) {
            // EXPECT-WARNING: @+1 hms-shared-bank-conflict 4-way bank conflict
            wmma::load_matrix_sync(fa, &tileA[warp][0][kk * WMMA_K], LINE); // EXPECT-NO: hms-divergent-access
            wmma::load_matrix_sync(fb, B + (k0 + kk * WMMA_K), K); // EXPECT-NO: hms-divergent-access
            wmma::mma_sync(acc, fa, fb, acc);
        }
        __syncwarp();
    }
    wmma::store_matrix_sync(D + (blockIdx.x * WARPS + warp) * WMMA_M * WMMA_N, acc, WMMA_N,
                            wmma::mem_row_major);
}

// The same with rows skewed by 16 bytes (80 apart): the 8 lines of a phase
// on 8 different 16-byte bank groups, conflict-free.
// hms-lint: launch grid(128) block(128)
// hms-lint: param K=1024
__global__ void stagedImmaSkewed(const uint8_t *A, const uint8_t *B, int *D, int K)
{
    __shared__ uint8_t tileA[WARPS][WMMA_M][LINE + SKEW_UINT8];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const uint8_t *rowsA = A + (blockIdx.x * WARPS + warp) * WMMA_M * K;
    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, uint8_t, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, uint8_t, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, int> acc;
    wmma::fill_fragment(acc, 0);
    for (int k0 = 0; k0 < K; k0 += LINE) {
        // the skew's price: a phase's two 64-byte rows, 80 bytes apart, overlap
        // in 16 bytes of banks
        for (int p = lane; p < WMMA_M * LINE / 16; p += 32)
            // EXPECT-WARNING: @+1 hms-shared-bank-conflict 2-way bank conflict
            *(int4 *)&tileA[warp][p / 4][(p % 4) * 16] =
                *(const int4 *)(rowsA + (p / 4) * K + k0 + (p % 4) * 16);
        __syncwarp();
        for (int kk = 0; kk < CHUNK_K; kk++) {
            // EXPECT-NO: @+1 hms-divergent-access
            wmma::load_matrix_sync(fa, &tileA[warp][0][kk * WMMA_K], LINE + SKEW_UINT8); // EXPECT-NO: hms-shared-bank-conflict
            wmma::load_matrix_sync(fb, B + (k0 + kk * WMMA_K), K); // EXPECT-NO: hms-divergent-access
            wmma::mma_sync(acc, fa, fb, acc);
        }
        __syncwarp();
    }
    wmma::store_matrix_sync(D + (blockIdx.x * WARPS + warp) * WMMA_M * WMMA_N, acc, WMMA_N,
                            wmma::mem_row_major);
}
