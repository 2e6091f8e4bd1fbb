// Tensor-core tiles and shared indices the model cannot know, for hms-lint's
// check tests (expectation syntax: see transpose.cu). A warp multiplies
// 16 x 16 half tiles staged in shared memory with WMMA (cuda-samples GEMM
// style): fragments, arrays of them too, are registers; load_matrix_sync
// reads each 8-row phase as ldmatrix does, so rows 128 bytes apart collide
// in banks and 8 halves of padding make the loads conflict-free.
// EXPECT-ARCHES: h100 a100
// On both, addresses are hashed across DRAM channels (dram.address_hashed):
// hms-partition-camping is not judged (transpose.cu keeps it on GT200).
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define TILE 16
#define TILES_K 4
#define WARPS 4
#define ROW (TILE * TILES_K)
#define PAD_HALVES 8

// Rows of 64 halves (128 bytes): every row of a phase on the same banks.
// hms-lint: launch grid(256) block(128)
// EXPECT-NOTE: @+1 hms-analysis-limit hms-partition-camping not judged: this architecture hashes addresses across DRAM channels
__global__ void wmmaUnpadded(const half *a, const half *b, float *c, float alpha)
{
    __shared__ half sa[WARPS][TILE][ROW];
    __shared__ half sb[WARPS][TILE][ROW];
    const int warp = threadIdx.x / 32;
    const half *ga = a + blockIdx.x * WARPS * TILE * ROW;
    const half *gb = b + blockIdx.x * WARPS * TILE * ROW;
    for (int i = threadIdx.x; i < WARPS * TILE * ROW; i += blockDim.x) {
        // rows of every block on few channels by the modulo map, but both
        // arches hash addresses across channels: no partition camping
        sa[i / (TILE * ROW)][(i / ROW) % TILE][i % ROW] = ga[i]; // EXPECT-NO: hms-partition-camping
        sb[i / (TILE * ROW)][(i / ROW) % TILE][i % ROW] = gb[i]; // EXPECT-NO: hms-partition-camping
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, TILE, TILE, TILE, half, wmma::row_major> fa[TILES_K];
    wmma::fragment<wmma::matrix_b, TILE, TILE, TILE, half, wmma::col_major> fb[TILES_K];
    wmma::fragment<wmma::accumulator, TILE, TILE, TILE, float> acc[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k = 0; k < TILES_K; k++) {
        // EXPECT-WARNING: @+1 hms-shared-bank-conflict 8-way bank conflict
        wmma::load_matrix_sync(fa[k], &sa[warp][0][k * TILE], ROW);
        // EXPECT-WARNING: @+1 hms-shared-bank-conflict 8-way bank conflict
        wmma::load_matrix_sync(fb[k], &sb[warp][0][k * TILE], ROW);
        wmma::mma_sync(acc[k / 2][k % 2], fa[k], fb[k], acc[k / 2][k % 2]);
    }
    // a fragment array walked element by element: registers, no memory access
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int t = 0; t < acc[i][j].num_elements; t++)
                acc[i][j].x[t] *= alpha; // EXPECT-NO: hms-uncoalesced-access
    wmma::store_matrix_sync(c + (blockIdx.x * WARPS + warp) * TILE * TILE, acc[1][1], TILE,
                            wmma::mem_row_major);
}

// The same with rows padded by 8 halves (144 bytes apart): 8 rows of a phase
// on 8 different 16-byte bank groups.
// hms-lint: launch grid(256) block(128)
__global__ void wmmaPadded(const half *a, const half *b, float *c, float alpha)
{
    __shared__ half sa[WARPS][TILE][ROW + PAD_HALVES];
    __shared__ half sb[WARPS][TILE][ROW + PAD_HALVES];
    const int warp = threadIdx.x / 32;
    const half *ga = a + blockIdx.x * WARPS * TILE * ROW;
    const half *gb = b + blockIdx.x * WARPS * TILE * ROW;
    for (int i = threadIdx.x; i < WARPS * TILE * ROW; i += blockDim.x) {
        sa[i / (TILE * ROW)][(i / ROW) % TILE][i % ROW] = ga[i];
        sb[i / (TILE * ROW)][(i / ROW) % TILE][i % ROW] = gb[i];
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, TILE, TILE, TILE, half, wmma::row_major> fa[TILES_K];
    wmma::fragment<wmma::matrix_b, TILE, TILE, TILE, half, wmma::col_major> fb[TILES_K];
    wmma::fragment<wmma::accumulator, TILE, TILE, TILE, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < TILES_K; k++) {
        wmma::load_matrix_sync(fa[k], &sa[warp][0][k * TILE], ROW + PAD_HALVES); // EXPECT-NO: hms-shared-bank-conflict
        wmma::load_matrix_sync(fb[k], &sb[warp][0][k * TILE], ROW + PAD_HALVES); // EXPECT-NO: hms-shared-bank-conflict
        wmma::mma_sync(acc, fa[k], fb[k], acc);
    }
    for (int t = 0; t < acc.num_elements; t++)
        acc.x[t] *= alpha; // EXPECT-NO: hms-uncoalesced-access
    wmma::store_matrix_sync(c + (blockIdx.x * WARPS + warp) * TILE * TILE, acc, TILE,
                            wmma::mem_row_major);
}

// A shared index built from a value the model cannot evaluate (__powf, as
// in rodinia's backprop): the conflict degree would be the stand-in's, so no
// warning; the column read of a tile with a known stride still is one.
// hms-lint: launch grid(512) block(16, 16)
__global__ void layerReduce(float *out, const float *in, int hid)
{
    __shared__ float node[16][16];
    __shared__ float col[16][16];
    const int tx = threadIdx.x, ty = threadIdx.y;
    node[ty][tx] = in[(blockIdx.x * 16 + ty) * 16 + tx];
    col[ty][tx] = node[ty][tx];
    __syncthreads();
    for (int i = 1; i <= 4; i++) {
        int step = (int)__powf(2, i);
        if (ty % step == 0)
            node[ty][tx] += node[ty + step / 2][tx]; // EXPECT-NO: hms-shared-bank-conflict
        __syncthreads();
    }
    // EXPECT-WARNING: @+1 hms-shared-bank-conflict 8-way bank conflict
    out[blockIdx.x * 256 + ty * 16 + tx] = node[0][tx] + col[tx][ty];
}

// Each warp reduces its 4 columns over 8 lanes with shuffles (llm.c matmul
// backward-bias style); lanes 0-3 write the warp's 4 sums. A per-warp
// write-back: the sums live in those lanes' registers, packing them into
// fewer warps would take another exchange, so no divergence warning.
// hms-lint: launch grid(1024) block(256)
__global__ void columnSums(float *partial, const float *in)
{
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int row = blockIdx.x * 64 + warp * 8 + lane / 4;
    float v = in[row * 4 + lane % 4];
    v += __shfl_down_sync(0xffffffff, v, 4);
    v += __shfl_down_sync(0xffffffff, v, 8);
    v += __shfl_down_sync(0xffffffff, v, 16);
    if (lane < 4)
        partial[(blockIdx.x * 8 + warp) * 4 + lane] = v; // EXPECT-NO: hms-divergent-access
}

// Block sum in two stages (llm.c blockReduce style): each warp's lane 0
// stores its warp's sum, then every warp reads the per-warp sums back into
// its first lanes. Every warp needs them in its own lanes: no divergence
// warning for that read either.
// hms-lint: launch grid(2048) block(512)
__global__ void blockSums(float *out, const float *in)
{
    __shared__ float warpSum[32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int warps = blockDim.x / 32;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor_sync(0xffffffff, v, o);
    if (lane == 0)
        warpSum[warp] = v;
    __syncthreads();
    float w = 0.0f;
    if (lane < warps)
        w = warpSum[lane]; // EXPECT-NO: hms-divergent-access
    for (int o = 16; o > 0; o /= 2)
        w += __shfl_xor_sync(0xffffffff, w, o);
    if (threadIdx.x == 0)
        out[blockIdx.x] = w;
}
