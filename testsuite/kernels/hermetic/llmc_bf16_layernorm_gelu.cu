// llm.c style: bf16 activations (floatX), 128-bit packed loads with cache
// hints, warp-shuffle reductions in a layernorm, tanh-GELU.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

typedef __nv_bfloat16 floatX;
#define WARP 32

template <class E> struct alignas(16) Vec128 {
    static constexpr int size = 16 / sizeof(E);
    E v[size];
};

template <class E> __device__ Vec128<E> load_cs(const E *p)
{
    int4 bits = __ldcs(reinterpret_cast<const int4 *>(p));
    Vec128<E> r;
    memcpy(&r, &bits, sizeof bits);
    return r;
}

template <class E> __device__ void store_cs(E *p, Vec128<E> x)
{
    int4 bits;
    memcpy(&bits, &x, sizeof bits);
    __stcs(reinterpret_cast<int4 *>(p), bits);
}

__device__ float warp_sum(float v)
{
    for (int off = WARP / 2; off > 0; off /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// hms-lint: launch grid(1024) block(256)
// hms-lint: param C=768
__global__ void layernorm_bf16(floatX *out, float *mean, float *rstd, const floatX *inp,
                               const floatX *weight, const floatX *bias, int N, int C)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    int lane = threadIdx.x % WARP;
    if (row >= N)
        return;
    const floatX *x = inp + row * C;
    float sum = 0.0f;
    for (int i = lane; i < C; i += WARP)
        sum += __bfloat162float(x[i]);
    float m = warp_sum(sum) / C;
    float var = 0.0f;
    for (int i = lane; i < C; i += WARP) {
        float d = (float)x[i] - m;
        var += d * d;
    }
    float s = rsqrtf(warp_sum(var) / C + 1e-5f);
    for (int i = lane; i < C; i += WARP) {
        float n = s * ((float)__ldcs(x + i) - m);
        __stcs(out + row * C + i, __float2bfloat16_rn(n * (float)weight[i] + (float)bias[i]));
    }
    if (lane == 0) {
        __stcs(mean + row, m);
        __stcs(rstd + row, s);
    }
}

// hms-lint: launch grid(512) block(128)
__global__ void gelu_bf16(floatX *out, const floatX *inp)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Vec128<floatX>::size;
    Vec128<floatX> in = load_cs(inp + i);
    Vec128<floatX> res;
    for (int k = 0; k < Vec128<floatX>::size; ++k) {
        float xi = (float)in.v[k];
        float cube = 0.044715f * xi * xi * xi;
        res.v[k] = (floatX)(0.5f * xi * (1.0f + tanhf(0.7978845608f * (xi + cube))));
    }
    store_cs(out + i, res);
}

// hms-lint: launch grid(256) block(256)
__global__ void pack_pairs(__nv_bfloat162 *out, const float2 *in, half2 *h)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 f = in[i];
    __nv_bfloat162 p = __floats2bfloat162_rn(f.x, f.y);
    out[i] = __hmul2(p, __halves2bfloat162(__float2bfloat16(2.0f), __ushort_as_bfloat16(0x3f80)));
    h[i] = __floats2half2_rn(__low2float(p), __high2float(p));
}
