// Floating-point work the front end counts for the roofline (ir.h fp_ops):
// an FMA is one instruction and two FLOPs, a lone divide one of each.
#include <cuda_runtime.h>

// hms-lint: launch grid(4) block(64)
__global__ void dot16(float *out, const float *a, const float *b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int j = 0; j < 16; j++)
        acc += a[i * 16 + j] * b[j]; // FMA: 16 x 2 FLOPs
    float s = acc * 0.5f - 1.0f;     // FMA: 2 FLOPs
    out[i] = s / 3.0f;               // 1 FLOP
}
