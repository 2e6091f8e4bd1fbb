// Cooperative groups beyond the basics: grid-wide sync with a cooperative
// launch, tiles of 4/8/16, coalesced groups, thread_group by value, group
// indices and dims, memcpy_async and scans.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>
#include <stdio.h>

using namespace cooperative_groups;

__device__ int sumReduction(thread_group g, int *x, int val)
{
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        x[lane] = val;
        g.sync();
        if (lane < i)
            val += x[lane + i];
        g.sync();
    }
    return g.thread_rank() == 0 ? val : -1;
}

__global__ void gridSyncKernel(float *data, float *partial, int n)
{
    grid_group grid = this_grid();
    thread_block block = this_thread_block();
    extern __shared__ int workspace[];
    unsigned long long gid = grid.thread_rank();
    float v = gid < (unsigned long long)n ? data[gid] : 0.0f;
    thread_block_tile<16> t16 = tiled_partition<16>(block);
    thread_block_tile<8> t8 = tiled_partition<8>(block);
    thread_block_tile<4> t4 = tiled_partition<4>(block);
    v = reduce(t16, v, plus<float>());
    v += t8.shfl_xor(v, 1) + t4.shfl(v, 0);
    if (t16.thread_rank() == 0)
        partial[block.group_index().x * (block.size() / 16) + t16.meta_group_rank()] = v;
    grid.sync();
    thread_group tile = tiled_partition(block, 32);
    int s = sumReduction(tile, workspace, (int)v);
    coalesced_group active = coalesced_threads();
    if (active.thread_rank() == 0 && s > 0)
        atomicAdd(partial, (float)active.size());
    dim3 bi = block.group_index(), ti = block.thread_index(), bd = block.group_dim();
    if (ti.x + bi.y + bd.z == 0 && grid.group_dim().x > 0)
        data[0] = (float)grid.num_blocks();
}

__global__ void asyncCopyScan(const int *global_in, int *out, size_t elems)
{
    extern __shared__ int shmem[];
    thread_block tb = this_thread_block();
    memcpy_async(tb, shmem, global_in + tb.group_index().x * tb.size(), sizeof(int) * tb.size());
    wait(tb);
    thread_block_tile<32> warp = tiled_partition<32>(tb);
    int x = inclusive_scan(warp, shmem[tb.thread_rank()]);
    int y = exclusive_scan(warp, x, plus<int>());
    if (warp.any(x > 0) && warp.all(y >= 0))
        out[tb.group_index().x * tb.size() + tb.thread_rank()] = x + y + warp.ballot(x > 1);
    sync(tb);
}

int main()
{
    int dev = 0, supportsCoopLaunch = 0, numBlocksPerSm = 0;
    cudaDeviceGetAttribute(&supportsCoopLaunch, cudaDevAttrCooperativeLaunch, dev);
    cudaDeviceProp deviceProp;
    cudaGetDeviceProperties(&deviceProp, dev);
    int numThreads = 128;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&numBlocksPerSm, gridSyncKernel, numThreads,
                                                  numThreads * sizeof(int));
    float *data, *partial;
    int n = 1 << 16;
    cudaMalloc(&data, n * sizeof(float));
    cudaMalloc(&partial, n * sizeof(float));
    void *kernelArgs[] = {(void *)&data, (void *)&partial, (void *)&n};
    dim3 dimBlock(numThreads, 1, 1);
    dim3 dimGrid(deviceProp.multiProcessorCount * numBlocksPerSm, 1, 1);
    cudaLaunchCooperativeKernel((void *)gridSyncKernel, dimGrid, dimBlock, kernelArgs,
                                numThreads * sizeof(int), 0);
    asyncCopyScan<<<n / 256, 256, 256 * sizeof(int)>>>((int *)data, (int *)partial, n);
    cudaDeviceSynchronize();
    return 0;
}
