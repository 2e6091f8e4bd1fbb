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
