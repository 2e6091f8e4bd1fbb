// A multi-warp cooperative-groups reduction, in the style of the CUDA
// samples' reduction: the block hands its block_tile_memory scratch to
// this_thread_block() (a reference: nothing is read), and the runtime uses
// it for tiles wider than a warp. It is the runtime's scratch, never an
// input to place: no placement verdict. For hms-lint's check tests
// (expectation syntax: see transpose.cu).
// EXPECT-ARCHES: h100
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

template <size_t BlockSize, size_t GroupSize>
__global__ void multiWarpSum(const float *in, float *out, unsigned int n)
{
    __shared__ cg::block_tile_memory<BlockSize> scratch; // EXPECT-NO: hms-placement
    auto cta = cg::this_thread_block(scratch);
    auto group = cg::tiled_partition<32>(cta);
    unsigned int i = blockIdx.x * BlockSize + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    v = cg::reduce(group, v, cg::plus<float>());
    if (group.thread_rank() == 0)
        atomicAdd(out, v);
}

int main()
{
    float *in, *out;
    unsigned int n = 1 << 22;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    multiWarpSum<256, 64><<<n / 256, 256>>>(in, out, n);
    return 0;
}
