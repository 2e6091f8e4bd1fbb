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

// Tiles narrower than a warp: a 16-thread tile's rank is the lane id's low
// four bits, its meta_group_rank the linear thread index / 16, and there are
// ceil(threads / 16) of them in the block.
__global__ void cg_tile16(float *out, const float *in)
{
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cg::this_thread_block());
    int row = blockIdx.x * t16.meta_group_size() + t16.meta_group_rank();
    out[row * 16 + t16.thread_rank()] = in[row * t16.size() + t16.thread_rank()];
    // EXPECT-ACCESS: -1 load in global 4 index=(blockIdx.x * ((blockDim.x * (blockDim.y * blockDim.z) + 15) / 16) + ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) / 16) * 16 + laneid % 16
}

// grid_group ranks: the block's rank x fastest, the grid's blocks.
__global__ void cg_grid_ranks(float *per_block, float *last)
{
    cg::grid_group grid = cg::this_grid();
    per_block[grid.block_rank()] = 0.0f;
    // EXPECT-ACCESS: -1 store per_block global 4 index=(blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x
    last[grid.num_blocks() - 1] = 1.0f;
    // EXPECT-ACCESS: -1 store last global 4 index=gridDim.x * (gridDim.y * gridDim.z) - 1
}

// Warp per row in the style of llm.c's layernorm: meta_group_size rows per
// block, a strided walk of the row by the tile's lanes and cg::reduce, which
// moves values between registers only (no access).
#include <cooperative_groups/reduce.h>
__global__ void cg_row_sum(float *sums, const float *x, int N, int C)
{
    // hms-lint: launch grid(128) block(256)
    // hms-lint: param N=1024 C=768
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (row >= N)
        return;
    const float *xr = x + row * C;
    float s = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size())
        s += xr[i];
    // EXPECT-ACCESS: -1 load x global 4 loops=i index=(blockIdx.x * ((blockDim.x * (blockDim.y * blockDim.z) + 31) / 32) + ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) / 32) * C + i
    s = cg::reduce(warp, s, cg::plus<float>());
    if (warp.thread_rank() == 0)
        sums[row] = s;
    // EXPECT-ACCESS: -1 store sums global 4 guard={laneid == 0} index=blockIdx.x * ((blockDim.x * (blockDim.y * blockDim.z) + 31) / 32) + ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) / 32
    // EXPECT-NO-LIMIT:
}

// Tiles wider than a warp (with the block_tile_memory scratch CUDA 11+
// wants for them): rank = linear thread index % 64, meta_group_rank = / 64.
__global__ void cg_wide_tiles(float *out, const float *in)
{
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block cta = cg::this_thread_block(scratch);
    cg::thread_block_tile<64> wide = cg::tiled_partition<64>(cta);
    out[wide.meta_group_rank() * 64 + wide.thread_rank()] = in[cta.thread_rank()];
    // EXPECT-ACCESS: -1 store out global 4 index=((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) / 64 * 64 + ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % 64
}
