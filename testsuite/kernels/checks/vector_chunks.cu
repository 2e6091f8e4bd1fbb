// Epilogues of hand-tuned GEMM and attention kernels, in the style of
// public HGEMM/SGEMM/flash-attention repositories: each lane already moves
// the widest vector (16 bytes) per access, and a short unrolled loop steps
// it to its next consecutive vector, so one request leaves half of every
// sector to the next iteration, which fills it (L2 merges the partial
// writes). No wider access exists: quiet. The controls move a lane's single
// vector with lanes 32 bytes apart (half of each sector wasted for good),
// and walk a long row per lane. For hms-lint's check tests (expectation
// syntax: see transpose.cu).
// EXPECT-ARCHES: h100
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define FLOAT4(value) (reinterpret_cast<float4 *>(&(value))[0])
#define LDST128BITS(value) (reinterpret_cast<float4 *>(&(value))[0])
#define BM 128
#define BN 128
#define TM 8
#define TN 8

// 16 x 16 threads, each holding an 8 x 8 tile of C in registers, written as
// two float4 per row: 32 contiguous bytes per lane and row.
__global__ void sgemmTileStore(float *c, int N)
{
    float r_c[TM][TN];
    for (int m = 0; m < TM; m++)
        for (int n = 0; n < TN; n++)
            r_c[m][n] = (float)(m * TN + n);
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
#pragma unroll
    for (int m = 0; m < TM; ++m) {
        int row = blockIdx.y * BM + ty * TM + m;
#pragma unroll
        for (int n = 0; n < TN; n += 4) {
            int col = blockIdx.x * BN + tx * TN + n;
            FLOAT4(c[row * N + col]) = FLOAT4(r_c[m][n]); // EXPECT-NO: hms-uncoalesced-access
        }
    }
}

// A warp's m16n8 accumulators, regrouped by shuffles so that every fourth
// lane stores 8 halves of its row; the loop over the head dimension walks
// the row 16 bytes at a time (d = 64: 128 bytes per lane).
template <int kHeadDim>
__global__ void attentionOutputStore(half *O, int seqlen)
{
    int lane_id = threadIdx.x % 32, warp_id = threadIdx.x / 32;
    half regs[8];
    for (int i = 0; i < 8; i++)
        regs[i] = __float2half(0.5f * i);
#pragma unroll
    for (int j = 0; j < kHeadDim / 8; ++j) {
        if (lane_id % 4 == 0) {
            int row = blockIdx.x * 64 + warp_id * 16 + lane_id / 4;
            int addr = (blockIdx.y * seqlen + row) * kHeadDim + j * 8;
            LDST128BITS(O[addr]) = LDST128BITS(regs[0]); // EXPECT-NO: hms-uncoalesced-access
        }
    }
}
template __global__ void attentionOutputStore<64>(half *, int);

// Control: one float4 per lane, lanes 32 bytes apart, nothing fills the
// other half of each sector.
__global__ void sparseFloat4Store(float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
    if (i * 8 < n)
        // EXPECT-WARNING: @+1 hms-uncoalesced-access 32 sectors per request where 16 would do
        FLOAT4(c[i * 8]) = v;
}

// Control: a lane per row reading 2 KB of it, 16 bytes at a time: the lanes
// of a request sit on 32 different rows, and L1 does not keep a warp's 64 KB
// of lines between iterations. The copy's stores, the same walk, write whole
// sectors over the loop, which L2 merges (quiet).
__global__ void rowPerLaneCopy(float *in, float *out, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
#pragma unroll 4
        for (int k = 0; k < 512; k += 4)
            // EXPECT-WARNING: @+1 hms-uncoalesced-access load of 'in'
            FLOAT4(out[r * 512 + k]) = FLOAT4(in[r * 512 + k]);
    }
}
