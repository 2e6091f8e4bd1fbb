// __device__ functions inlined with their arguments: index helpers, a
// pointer parameter, a reference parameter that the callee updates, and a
// callee with early returns (clamping).
#include <cuda_runtime.h>

__device__ __forceinline__ int idx2d(int row, int col, int pitch) { return row * pitch + col; }

__device__ void load_pair(float *dst, const float *src, int i)
{
    dst[0] = src[i];
    dst[1] = src[i + 1];
}

__device__ void advance(int &pos, int step) { pos += step; }

__device__ int clamp_index(int i, int n)
{
    if (i < 0)
        return 0;
    if (i >= n)
        return n - 1;
    return i;
}

__global__ void use_helpers(const float *in, float *out, float *pairs, int width, int n)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    out[idx2d(r, c, width)] = in[idx2d(c, r, width)];
    // EXPECT-ACCESS: -1 store out global 4 index=(blockIdx.y * blockDim.y + threadIdx.y) * width + (blockIdx.x * blockDim.x + threadIdx.x)
    // EXPECT-ACCESS: -2 load in global 4 index=(blockIdx.x * blockDim.x + threadIdx.x) * width + (blockIdx.y * blockDim.y + threadIdx.y)
    load_pair(pairs + 2 * c, in, r * width);
    // EXPECT-ACCESS: @use_helpers 10 store pairs global 4 index=2 * (blockIdx.x * blockDim.x + threadIdx.x)
    // EXPECT-ACCESS: @use_helpers 11 store pairs global 4 index=2 * (blockIdx.x * blockDim.x + threadIdx.x) + 1
    // EXPECT-ACCESS: @use_helpers 11 load in global 4 index=(blockIdx.y * blockDim.y + threadIdx.y) * width + 1
    int p = c;
    advance(p, 32);
    out[p] = 1.0f;
    // p is passed by reference: it lives in a variable the callee updates
    // EXPECT-ACCESS: -2 store out global 4 index=p
    // EXPECT-LINE: -4 p = blockIdx.x * blockDim.x + threadIdx.x
    // EXPECT-LINE: @use_helpers 14 p = p + 32
    int q = clamp_index(c - 1, n);
    out[q] = 2.0f;
    // the clamp has three returns: its result lives in a variable
    // EXPECT-ACCESS: -2 store out global 4 index=clamp_index.ret
    // EXPECT-LINE: @use_helpers 19 clamp_index.ret = 0
    // EXPECT-LINE: @use_helpers 21 clamp_index.ret = n - 1
    // EXPECT-LINE: @use_helpers 22 clamp_index.ret = blockIdx.x * blockDim.x + threadIdx.x - 1
    // EXPECT-LINE: @use_helpers 20 if (clamp_index.done == 0)
}
// hms-lint: launch kernel=use_helpers grid(8,8) block(32,8)
