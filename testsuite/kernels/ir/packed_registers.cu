// 128-bit packed accesses and per-thread arrays, in the styles of llm.c-like
// elementwise kernels (a 16-byte wrapper with operator[], load/store helpers
// over int4 casts and cache-hint intrinsics) and register-tiled SGEMM
// kernels (float4 tile loads, `float acc[TM * TN]` accumulators).
// A whole 16-byte value is one access of 16 bytes per lane on the array the
// pointer came from; reading its parts (`v[k]`, `.x`) is not an access.
#include <cuda_runtime.h>

template <class T> struct alignas(16) Pack16 {
    static constexpr int count = sizeof(int4) / sizeof(T);
    T vals[count];
    Pack16() = default;
    __device__ explicit Pack16(int4 raw) { memcpy(&vals, &raw, sizeof(raw)); }
    __device__ T &operator[](int i) { return vals[i]; }
    __device__ const T &operator[](int i) const { return vals[i]; }
    __device__ int4 bits() const
    {
        int4 r;
        memcpy(&r, &vals, sizeof(r));
        return r;
    }
};

template <class T> __device__ Pack16<T> load16(const T *p)
{
    return Pack16<T>{*reinterpret_cast<const int4 *>(p)};
}
template <class T> __device__ Pack16<T> load16_stream(const T *p)
{
    return Pack16<T>{__ldcs(reinterpret_cast<const int4 *>(p))};
}
template <class T> __device__ void store16(T *p, Pack16<T> v)
{
    *reinterpret_cast<int4 *>(p) = v.bits();
}
template <class T> __device__ void store16_stream(T *p, Pack16<T> v)
{
    __stcs(reinterpret_cast<int4 *>(p), v.bits());
}

// hms-lint: launch grid(256) block(128)
__global__ void add_residual(float *out, const float *x, const float *res, int n)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Pack16<float>::count;
    if (i < n) {
        // the accesses are made in the helpers, at their lines, on the caller's arrays
        Pack16<float> a = load16_stream(x + i);
        Pack16<float> r = load16(res + i);
        Pack16<float> o;
        for (int k = 0; k < Pack16<float>::count; k++)
            o[k] = a[k] + r[k];
        // EXPECT-LOOP: -2 trip=4
        // EXPECT-NO-ACCESS: -3
        store16_stream(out + i, o);
    }
    // EXPECT-ORDER: 30 load x, 26 load res, 38 store out
    // EXPECT-NO-LIMIT:
}
// EXPECT-ACCESS: @add_residual 30 load x global 16 index=blockIdx.x * blockDim.x + threadIdx.x
// EXPECT-ACCESS: @add_residual 26 load res global 16 index=blockIdx.x * blockDim.x + threadIdx.x
// EXPECT-ACCESS: @add_residual 38 store out global 16 index=blockIdx.x * blockDim.x + threadIdx.x

struct alignas(16) Quad {
    float v[4];
};

// A 16-byte struct copied whole from and to memory, and a float4 through an
// address taken of an element.
// hms-lint: launch grid(64) block(256)
__global__ void scale_quads(float *out, const float *in, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Quad q = *reinterpret_cast<const Quad *>(in + 4 * i);
    // EXPECT-ACCESS: -1 load in global 16 index=blockIdx.x * blockDim.x + threadIdx.x
    for (int k = 0; k < 4; k++)
        q.v[k] *= s;
    // EXPECT-NO-ACCESS: -1
    reinterpret_cast<Quad *>(out)[i] = q;
    // EXPECT-ACCESS: -1 store out global 16 index=blockIdx.x * blockDim.x + threadIdx.x
    float4 w = reinterpret_cast<const float4 *>(&in[4 * i])[0];
    // EXPECT-ACCESS: -1 load in global 16 index=blockIdx.x * blockDim.x + threadIdx.x
    out[i] = w.x + w.w;
    // EXPECT-ORDER: -10 load in, -5 store out, -3 load in, -1 store out
    // EXPECT-NO-LIMIT:
}

// A method called on a struct element in global memory reads that element.
struct Span {
    int lo, hi;
    __device__ int width() const { return hi - lo; }
};

// hms-lint: launch grid(64) block(256)
__global__ void span_widths(int *out, const Span *spans)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = spans[i].width();
    // EXPECT-ORDER: 90 load spans, 90 load spans, -1 store out
    // EXPECT-ARRAY: spans global Span 8B
    // EXPECT-NO-LIMIT:
}
// EXPECT-ACCESS: @span_widths 90 load spans global 4 stride=8 offset=4 index=blockIdx.x * blockDim.x + threadIdx.x
// EXPECT-ACCESS: @span_widths 90 load spans global 4 stride=8 index=blockIdx.x * blockDim.x + threadIdx.x

#define BM 64
#define BK 8
#define TM 4
#define TN 4

// Register tiling: every index of acc, regM and regN is a counter of a loop
// with a constant trip count, so all three are registers (no accesses).
// hms-lint: launch grid(4, 4) block(16, 16)
__global__ void gemm_regtile(const float *A, const float *B, float *C, int K, int N)
{
    __shared__ float As[BK * BM];
    float acc[TM * TN] = {0.0f};
    float regM[TM];
    float regN[TN];
    int tr = threadIdx.y * TM, tc = threadIdx.x * TN;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (threadIdx.y < BM / 4 && threadIdx.x < BK / 4) {
            float4 t = reinterpret_cast<const float4 *>(
                &A[(blockIdx.y * BM + threadIdx.y * 4) * K + k0 + threadIdx.x * 4])[0];
            // EXPECT-ACCESS: -2 load A global 16 stride=1 index=((blockIdx.y * 64 + threadIdx.y * 4) * K + k0 + threadIdx.x * 4) * 4
            As[(threadIdx.x * 4 + 0) * BM + threadIdx.y] = t.x;
            As[(threadIdx.x * 4 + 1) * BM + threadIdx.y] = t.y;
        }
        __syncthreads();
        for (int kk = 0; kk < BK; kk++) {
            for (int m = 0; m < TM; m++)
                regM[m] = As[kk * BM + tr % BM + m];
            for (int c = 0; c < TN; c++)
                regN[c] = B[(k0 + kk) * N + blockIdx.x * 64 + tc + c];
            for (int m = 0; m < TM; m++)
                for (int c = 0; c < TN; c++)
                    acc[m * TN + c] += regM[m] * regN[c];
            // EXPECT-NO-ACCESS: -1
        }
        __syncthreads();
    }
    for (int m = 0; m < TM; m++)
        for (int c = 0; c < TN; c++)
            C[(blockIdx.y * 64 + tr + m) * N + blockIdx.x * 64 + tc + c] = acc[m * TN + c];
    // EXPECT-ORDER: -1 store C
    // EXPECT-ARRAY: acc local float[16] 4B registers
    // EXPECT-ARRAY: regM local float[4] 4B registers
    // EXPECT-ARRAY: regN local float[4] 4B registers
}

// A window whose length is a run-time value: indexed by the counter of a
// loop the compiler cannot unroll fully, it stays in local memory.
// hms-lint: launch grid(32) block(128)
__global__ void window_sum(float *out, const float *in, int len)
{
    float win[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = 0; j < len; j++)
        win[j] = in[j * 4096 + i];
    // EXPECT-ACCESS: -1 store win local 4 index=j
    float s = 0.0f;
    for (int j = 0; j < len; j++)
        s += win[j];
    // EXPECT-ACCESS: -1 load win local 4 index=j
    out[i] = s + win[threadIdx.x % 16];
    // EXPECT-ACCESS: -1 load win local 4 index=threadIdx.x % 16
    // EXPECT-ARRAY: win local float[16] 4B read written
}

// __builtin_assume_aligned returns its argument: the loads stay on 'in'.
// hms-lint: launch grid(64) block(128)
// hms-lint: param T=512
__global__ void aligned_rows(float *out, const float *in, int T)
{
    const float *row = in + blockIdx.x * T;
    const float *al = reinterpret_cast<const float *>(__builtin_assume_aligned(row, 16));
    float4 v = reinterpret_cast<const float4 *>(al)[threadIdx.x];
    // EXPECT-ACCESS: -1 load in global 16 stride=1 index=blockIdx.x * T * 4 + threadIdx.x * 16
    out[blockIdx.x * blockDim.x + threadIdx.x] = v.x;
}

// A method called through a pointer, reading members through an explicit
// this-> and an implicit one: loads of the element the pointer points at.
struct Cell {
    float a, b;
    __device__ float sum() const { return this->a + b; }
};

// hms-lint: launch grid(64) block(128)
__global__ void cell_sums(float *out, const Cell *cells)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const Cell *c = cells + i;
    out[i] = c->sum();
    // EXPECT-ORDER: 185 load cells, 185 load cells, -1 store out
    // EXPECT-ACCESS: 185 load cells global 4 stride=8 index=blockIdx.x * blockDim.x + threadIdx.x
    // EXPECT-ACCESS: 185 load cells global 4 stride=8 offset=4 index=blockIdx.x * blockDim.x + threadIdx.x
    // EXPECT-NO-LIMIT:
}
