// One warp per row with cooperative groups (llm.c layernorm/softmax style),
// for hms-lint's check tests (expectation syntax: see transpose.cu): rows of
// C floats, meta_group_size() warps per block, each lane walking its row
// with the tile's stride and cg::reduce combining the lanes in registers.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// hms-lint: launch grid(8) block(128)
// hms-lint: param N=32 C=256
__global__ void rowNormalize(float *out, const float *inp, int N, int C)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (row >= N)
        return;
    const float *x = inp + row * C;
    float sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size())
        sum += x[i]; // EXPECT-NO: hms-uncoalesced-access
    sum = cg::reduce(warp, sum, cg::plus<float>());
    float mean = sum / C;
    for (int i = warp.thread_rank(); i < C; i += warp.size())
        out[row * C + i] = x[i] - mean;
}

// The same rows read by 16-thread tiles: two rows per warp, each half-warp
// reading 64 contiguous bytes.
// hms-lint: launch grid(8) block(128)
// hms-lint: param N=64 C=256
__global__ void rowSumHalfWarps(float *sums, const float *inp, int N, int C)
{
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    int row = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
    if (row >= N)
        return;
    float s = 0.0f;
    for (int i = tile.thread_rank(); i < C; i += tile.size())
        s += inp[row * C + i]; // EXPECT-NO: hms-uncoalesced-access
    s = cg::reduce(tile, s, cg::plus<float>());
    if (tile.thread_rank() == 0)
        sums[row] = s; // EXPECT-NO: hms-divergent-access
}

// Causal rows (llm.c softmax_autoregressive style): row r holds r % T + 1
// valid floats, read as float4 by the lanes and the last 1-4 floats by as
// many lanes. That remainder is the warp's own contiguous piece, fetched in
// one sector: packing the pieces of other warps' rows into one request would
// save issue slots, not bytes, and each warp needs its values in its lanes.
// hms-lint: launch grid(256) block(256)
// hms-lint: param N=64 T=1024
__global__ void causalRowMax(float *out, const float *inp, int N, int T)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (row >= N * T)
        return;
    int last = row % T;
    int quads = last / 4;
    const float *x = inp + row * T;
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float m = -1e30f;
    for (int i = warp.thread_rank(); i < quads; i += warp.size()) {
        float4 v = x4[i]; // EXPECT-NO: hms-uncoalesced-access
        m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
    }
    if (4 * quads + warp.thread_rank() <= last)
        m = fmaxf(m, x[4 * quads + warp.thread_rank()]); // EXPECT-NO: hms-divergent-access
    m = cg::reduce(warp, m, cg::greater<float>());
    if (warp.thread_rank() == 0)
        out[row] = m;
}
