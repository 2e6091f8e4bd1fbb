// 1D convolution of 1M floats with a 9-tap filter, three ways: the filter in
// __constant__ memory (every lane reads the same tap: a broadcast), the
// filter in global memory (the placement model ranks constant first),
// and a __constant__ table indexed by the thread (lanes read different
// addresses: serialised). For hms-lint's check tests (expectation syntax:
// see transpose.cu).
#include <cuda_runtime.h>

#define RADIUS 4
#define TAPS (2 * RADIUS + 1)
#define LEN (1 << 20)

__constant__ float c_filter[TAPS];
__constant__ float c_table[256];

__global__ void convConstant(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= RADIUS && i < n - RADIUS) {
        float sum = 0;
        for (int j = 0; j < TAPS; j++)
            sum += c_filter[j] * in[i + j - RADIUS]; // EXPECT-NO: hms-constant-divergence
        out[i] = sum;
    }
}

// H100 (one L1 for texture and __ldg): constant ranks first for 'filter' but under 1.1x
// (test_published.c), and a texture buys 'in' nothing. EXPECT-NO: @+1 hms-placement
__global__ void convGlobal(float *out, const float *in, const float *filter, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= RADIUS && i < n - RADIUS) {
        float sum = 0;
        for (int j = 0; j < TAPS; j++)
            sum += filter[j] * in[i + j - RADIUS];
        out[i] = sum;
    }
}

__global__ void scaleByTable(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) // EXPECT-NO: @+1 hms-uncoalesced-access
        out[i] = in[i] * c_table[threadIdx.x]; // EXPECT-WARNING: hms-constant-divergence lanes of a warp read 32 different addresses of __constant__ 'c_table' per request: the read is serialised into 32 passes where 1 would do
}

int main()
{
    float *in, *out, *filter;
    cudaMalloc(&in, LEN * sizeof(float));
    cudaMalloc(&out, LEN * sizeof(float));
    cudaMalloc(&filter, TAPS * sizeof(float));
    convConstant<<<LEN / 256, 256>>>(out, in, LEN);
    convGlobal<<<LEN / 256, 256>>>(out, in, filter, LEN);
    scaleByTable<<<LEN / 256, 256>>>(out, in, LEN);
    return 0;
}
