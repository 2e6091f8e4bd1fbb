// Cooperative groups (newer CUDA samples): thread_block rank and sync,
// a 32-wide tile's rank, grid-wide rank in a grid-stride loop.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void cg_sum(const float *in, float *partial, int n)
{
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    __shared__ float s[256];
    s[cta.thread_rank()] = in[blockIdx.x * blockDim.x + cta.thread_rank()];
    // EXPECT-ACCESS: -1 store s shared 4 mapping=in index=(threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x
    cg::sync(cta);
    // EXPECT-LINE: -1 sync
    if (tile.thread_rank() == 0)
        partial[blockIdx.x * (blockDim.x / 32) + tile.meta_group_rank()] = s[cta.thread_rank()];
    // EXPECT-LINE: -2 if (laneid == 0)
    cta.sync();
    // EXPECT-LINE: -1 sync
    // the block is 1D in the launch: only x counts for the default
    // EXPECT-LAUNCH: grid=(256,1,1) block=(256,1,1) source=default
}

__global__ void cg_grid(float *a, int n)
{
    cg::grid_group grid = cg::this_grid();
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        a[i] *= 2.0f;
    // EXPECT-ACCESS: -1 store a global 4 loops=i index=i
}
