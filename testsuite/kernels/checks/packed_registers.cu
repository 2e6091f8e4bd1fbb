// 128-bit packed accesses and per-thread arrays (llm.c-style packed
// elementwise kernels, SGEMM-style float4 tile loads and register tiles),
// for hms-lint's check tests and the brute-force metric comparison
// (expectation syntax: see transpose.cu). A 16-byte load per lane over
// consecutive lanes is coalesced (16 sectors for 512 bytes); arrays the
// compiler keeps in registers make no accesses; a local array indexed at run
// time is in local memory, interleaved so that a uniform index coalesces.
// EXPECT-ARCHES: h100
#include <cuda_runtime.h>

template <class T> struct alignas(16) Vec16 {
    static constexpr int width = sizeof(int4) / sizeof(T);
    T part[width];
    Vec16() = default;
    __device__ explicit Vec16(int4 raw) { memcpy(&part, &raw, sizeof(raw)); }
    __device__ T &operator[](int i) { return part[i]; }
    __device__ int4 raw() const
    {
        int4 r;
        memcpy(&r, &part, sizeof(r));
        return r;
    }
};

template <class T> __device__ Vec16<T> ld16(const T *p)
{
    return Vec16<T>{__ldcs(reinterpret_cast<const int4 *>(p))}; // EXPECT-NO: hms-uncoalesced-access
}
template <class T> __device__ void st16(T *p, Vec16<T> v)
{
    *reinterpret_cast<int4 *>(p) = v.raw(); // EXPECT-NO: hms-uncoalesced-access
}

// hms-lint: launch grid(16) block(128)
// hms-lint: param n=8192
__global__ void gelu_packed(float *out, const float *in, int n)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Vec16<float>::width;
    if (i < n) {
        Vec16<float> x = ld16(in + i);
        Vec16<float> y;
        for (int k = 0; k < Vec16<float>::width; k++)
            y[k] = 0.5f * x[k] * (1.0f + tanhf(0.79788f * x[k]));
        st16(out + i, y);
    }
}

// A float4 tile loader (64 rows x 8 columns per block), then the tile
// written back through float4 stores.
// hms-lint: launch grid(4) block(128)
// hms-lint: param K=512
__global__ void tile_float4(float *out, const float *A, int K)
{
    int row = threadIdx.x / 2, col = (threadIdx.x % 2) * 4;
    float4 t = reinterpret_cast<const float4 *>(&A[(blockIdx.x * 64 + row) * K + col])[0];
    reinterpret_cast<float4 *>(&out[(blockIdx.x * 64 + row) * 8 + col])[0] = t; // EXPECT-NO: hms-uncoalesced-access
}

#define TM 4
#define TN 4

// A register tile: acc, a and b are registers (no local-memory accesses).
// hms-lint: launch grid(2, 2) block(8, 8)
// hms-lint: param K=16
__global__ void regtile(float *C, const float *A, const float *B, int K)
{
    float acc[TM * TN] = {0.0f};
    float a[TM], b[TN];
    int r0 = (blockIdx.y * 8 + threadIdx.y) * TM, c0 = (blockIdx.x * 8 + threadIdx.x) * TN;
    for (int k = 0; k < K; k++) {
        for (int m = 0; m < TM; m++)
            a[m] = A[k * 64 + r0 + m];
        for (int c = 0; c < TN; c++)
            b[c] = B[k * 64 + c0 + c];
        for (int m = 0; m < TM; m++)
            for (int c = 0; c < TN; c++)
                acc[m * TN + c] += a[m] * b[c];
    }
    for (int m = 0; m < TM; m++)
        for (int c = 0; c < TN; c++)
            C[(r0 + m) * 64 + c0 + c] = acc[m * TN + c];
}

// A window of run-time length: local memory. The uniform index coalesces
// (4 sectors per request); a per-lane index scatters: lane l's word j sits
// at (j * 32 + l) * 4 bytes, so win[l % 8] touches 32 sectors.
// hms-lint: launch grid(4) block(64)
// hms-lint: param len=12
__global__ void window_local(float *out, const float *in, int len)
{
    float win[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = 0; j < len; j++)
        win[j] = in[j * 256 + i]; // EXPECT-NO: hms-uncoalesced-access
    float s = 0.0f;
    for (int j = 0; j < len; j++)
        s += win[j]; // EXPECT-NO: hms-uncoalesced-access
    out[i] = s * win[threadIdx.x % 8]; // EXPECT-WARNING: hms-uncoalesced-access 32 sectors per request where 4 would do
}
