// Warp-level reductions with shuffles, __reduce_*_sync, match and vote;
// math intrinsics; layered surface writes; clocks and sleeps.
#include <cuda_runtime.h>
#include <surface_functions.h>

// hms-lint: launch grid(128) block(256)
__global__ void warp_stats(const unsigned *keys, const float *vals, unsigned *out, float *fout)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned mask = __activemask();
    unsigned k = keys[i];
    float v = vals[i];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(mask, v, off);
    unsigned total = __reduce_add_sync(mask, k);
    unsigned lo = __reduce_min_sync(mask, k), hi = __reduce_max_sync(mask, k);
    unsigned same = __match_any_sync(mask, k);
    unsigned vote = __ballot_sync(mask, k > 100u);
    __syncwarp(mask);
    if ((threadIdx.x & 31) == 0) {
        out[i / 32] = total + umin(lo, hi) + __popc(same) + __popc(vote);
        fout[i / 32] = __fsqrt_rd(fabsf(v)) + __fmul_rz(v, 0.5f) + __saturatef(v) + __frcp_rn(v);
    }
    long long t0 = clock64();
    __nanosleep(100);
    if (clock64() - t0 < 0)
        __trap();
}

// hms-lint: launch grid(8,8,4) block(16,16)
__global__ void write_layers(cudaSurfaceObject_t surf, const float *src, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int layer = blockIdx.z;
    if (x < w && y < h) {
        float v = src[(layer * h + y) * w + x];
        surf2DLayeredwrite(v * 2.0f, surf, x * (int)sizeof(float), y, layer);
        float back;
        surf2DLayeredread(&back, surf, x * (int)sizeof(float), y, layer);
        surf1DLayeredwrite(back, surf, x * (int)sizeof(float), layer);
    }
}
