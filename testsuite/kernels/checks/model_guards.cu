// A WMMA tile of fewer 16-byte pieces than lanes (16 x 16 bytes: 16
// pieces) is loaded warp-wide by the hardware; the model header spreads it
// over the first 16 lanes with a guard of its own, which is no branch of
// the user's code. In the style of immaTensorCoreGemm's simple kernel.
// For hms-lint's check tests (expectation syntax: see transpose.cu).
// EXPECT-ARCHES: h100
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

__global__ void simpleWmmaI8(const signed char *a, const signed char *b, int *c, int m_ld, int n_ld, int k_ld)
{
    int lda = k_ld, ldb = k_ld, ldc = n_ld;
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;
    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, signed char, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, signed char, wmma::col_major> b_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, int> acc_frag;
    wmma::fill_fragment(acc_frag, 0);
    for (int i = 0; i < k_ld; i += WMMA_K) {
        int aRow = warpM * WMMA_M, bRow = warpN * WMMA_N;
        if (aRow < m_ld && i < k_ld && bRow < n_ld) {
            wmma::load_matrix_sync(a_frag, a + i + aRow * lda, lda); // EXPECT-NO: hms-divergent-access
            wmma::load_matrix_sync(b_frag, b + i + bRow * ldb, ldb); // EXPECT-NO: hms-divergent-access
            wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
        }
    }
    int cRow = warpM * WMMA_M, cCol = warpN * WMMA_N;
    if (cRow < m_ld && cCol < n_ld)
        wmma::store_matrix_sync(c + cCol + cRow * ldc, acc_frag, ldc, wmma::mem_row_major);
}

void runModelGuards(const signed char *a, const signed char *b, int *c)
{
    dim3 block(128, 4), grid(4096 / (WMMA_M * 128 / 32), 4096 / (WMMA_N * 4));
    simpleWmmaI8<<<grid, block>>>(a, b, c, 4096, 4096, 4096);
}
