// FP8 quantisation in the style of inference kernels: a per-tensor scale,
// saturating conversions to e4m3/e5m2 storage and back.
#include <cuda_fp8.h>
#include <cuda_runtime.h>

// hms-lint: launch grid(256) block(256)
__global__ void quantize_e4m3(__nv_fp8_e4m3 *q, const float *x, const float *scale, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        q[i] = __nv_fp8_e4m3(x[i] / scale[0]);
}

// hms-lint: launch grid(256) block(256)
__global__ void dequantize_raw(float *y, const __nv_fp8_storage_t *q, __nv_fp8x2_storage_t *q2,
                               int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half_raw h = __nv_cvt_fp8_to_halfraw(q[i], __NV_E5M2);
        y[i] = __half2float(__half(h));
        q2[i] = __nv_cvt_float2_to_fp8x2(make_float2(y[i], 0.0f), __NV_SATFINITE, __NV_E4M3);
    }
}

// hms-lint: launch grid(64) block(256)
__global__ void pack4(__nv_fp8x4_e5m2 *out, const float4 *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __nv_fp8x4_e5m2(in[i]);
}
