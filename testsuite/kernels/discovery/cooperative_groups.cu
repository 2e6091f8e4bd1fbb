// Cooperative groups as in the newer CUDA samples: cg::this_thread_block,
// cg::sync, tiled_partition<32> with shfl_down, and cg::reduce.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void dot_product(const float *a, const float *b, float *result, int n)
{
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cta);
    __shared__ float warp_sums[32];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        v += a[i] * b[i];
    for (int offset = warp.size() / 2; offset > 0; offset /= 2)
        v += warp.shfl_down(v, offset);
    if (warp.thread_rank() == 0)
        warp_sums[warp.meta_group_rank()] = v;
    cg::sync(cta);
    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.0f;
        v = cg::reduce(warp, v, cg::plus<float>());
        if (warp.thread_rank() == 0)
            atomicAdd(result, v);
    }
}

int main()
{
    const int n = 1 << 18, threads = 512;
    float *a, *b, *r;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&r, sizeof(float));
    // 262144 / 512 = 512 blocks, capped at 128 by min()
    int blocks = min(n / threads, 128);
    dot_product<<<blocks, threads>>>(a, b, r, n);
    return 0;
}

// EXPECT-KERNEL: dot_product line=9 params=const float *a, const float *b, float *result, int n
// EXPECT-SHARED: warp_sums float[32] in=dot_product line=13 bytes=128
// EXPECT-LAUNCH: dot_product line=39 grid=(128,1,1) block=(512,1,1) shared=0 args=a, b, r, n=262144
// EXPECT-SUMMARY: 1 kernel, 1 variable, 1 launch site
