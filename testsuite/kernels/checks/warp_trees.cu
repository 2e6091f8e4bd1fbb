// Per-warp tree reductions in shared memory (cuda-samples MonteCarlo
// sumReduce style), for hms-lint's check tests (expectation syntax: see
// transpose.cu). Each warp halves its own 32 partial sums with its first
// lanes (`lane < i`): the active lanes are already packed at the start of
// every warp, and packing several warps' halves into one would take an
// exchange between warps. Shuffles, not a re-indexing, are the better code;
// the divergence check stays quiet. A block-wide interleaved tree
// (reduction.cu) is still reported.
// EXPECT-ARCHES: h100
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// hms-lint: launch grid(256) block(256)
__global__ void warpTreeSums(float *out, const float *in)
{
    __shared__ float sum[256];
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    int tid = threadIdx.x;
    float beta = in[blockIdx.x * blockDim.x + tid];
    sum[tid] = beta;
    cg::sync(tile);
    for (int i = 16; i > 0; i >>= 1) {
        if (tile.thread_rank() < i) {
            beta += sum[tid + i]; // EXPECT-NO: hms-divergent-access
            sum[tid] = beta;      // EXPECT-NO: hms-divergent-access
        }
        cg::sync(tile);
    }
    if (tile.thread_rank() == 0)
        out[blockIdx.x * 8 + tid / 32] = beta;
}
