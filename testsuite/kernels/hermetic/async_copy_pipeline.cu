// Ampere-style asynchronous copies: a double-buffered tiled matrix multiply
// with cuda::pipeline, a block-wide copy completing on a cuda::barrier, and
// the __pipeline_memcpy_async primitives.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;
#define TILE 16

// hms-lint: launch grid(16,16) block(16,16)
// hms-lint: param wA=256 wB=256
__global__ void matmul_double_buffer(float *C, const float *A, const float *B, int wA, int wB)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const auto one = cuda::aligned_size_t<alignof(float)>(sizeof(float));
    int aBegin = wA * TILE * blockIdx.y, bBegin = TILE * blockIdx.x;
    float acc = 0.0f;
    int stage = 0;
    for (int a = aBegin, b = bBegin; a < aBegin + wA; a += TILE, b += TILE * wB) {
        pipe.producer_acquire();
        cuda::memcpy_async(&As[stage][threadIdx.y][threadIdx.x],
                           &A[a + wA * threadIdx.y + threadIdx.x], one, pipe);
        cuda::memcpy_async(&Bs[stage][threadIdx.y][threadIdx.x],
                           &B[b + wB * threadIdx.y + threadIdx.x], one, pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[stage][threadIdx.y][k] * Bs[stage][k][threadIdx.x];
        pipe.consumer_release();
        __syncthreads();
        stage ^= 1;
    }
    C[(blockIdx.y * TILE + threadIdx.y) * wB + blockIdx.x * TILE + threadIdx.x] = acc;
}

// hms-lint: launch grid(128) block(256)
__global__ void block_copy_barrier(const int4 *in, int *out)
{
    __shared__ int4 tile[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    cg::thread_block block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, tile, in + blockIdx.x * 256, cuda::aligned_size_t<16>(sizeof(tile)),
                       bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 256 + threadIdx.x] = tile[threadIdx.x].x + tile[255 - threadIdx.x].w;
}

// hms-lint: launch grid(64) block(128)
__global__ void primitives_stage(const float4 *in, float4 *out)
{
    __shared__ float4 buf[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __pipeline_memcpy_async(&buf[threadIdx.x], &in[i], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[i] = buf[127 - threadIdx.x];
}
