// Column sums in the llm.c bias-gradient style, for hms-lint's check tests
// (expectation syntax: see transpose.cu): each block sums its share of the
// rows with 16-byte loads, 4 columns per thread (the kernel's traffic), then
// writes its partial sums column-major, one request per block with lanes
// far apart. Those epilogue stores are a few sectors beside the rows read:
// no rewrite of them would pay. A column walk that is the kernel's main
// traffic is still reported.
// EXPECT-ARCHES: h100
#include <cuda_runtime.h>

#define GROUPS 8 // column groups of 4 floats per block (one per threadIdx.x)

// hms-lint: launch grid(128,8) block(8,32)
// hms-lint: param rows=4096 cols=4096
__global__ void biasGradPartials(float *partial, const float *dout, int rows, int cols)
{
    int col0 = (blockIdx.x * GROUPS + threadIdx.x) * 4;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += gridDim.y * blockDim.y) {
        float4 v = *reinterpret_cast<const float4 *>(dout + r * cols + col0); // EXPECT-NO: hms-uncoalesced-access
        acc.x += v.x;
        acc.y += v.y;
        acc.z += v.z;
        acc.w += v.w;
    }
    __shared__ float4 part[32][GROUPS];
    part[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y < 4) {
        float s = 0.0f;
        for (int y = 0; y < 32; y++) {
            float4 p = part[y][threadIdx.x];
            s += threadIdx.y == 0 ? p.x : threadIdx.y == 1 ? p.y : threadIdx.y == 2 ? p.z : p.w;
        }
        partial[(col0 + threadIdx.y) * gridDim.y + blockIdx.y] = s; // EXPECT-NO: hms-uncoalesced-access
    }
}

// One thread per column walking all rows: the column walk is the traffic.
// hms-lint: launch grid(16) block(256)
// hms-lint: param rows=512 cols=4096
__global__ void columnSumsNaive(float *sums, const float *m, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int r = 0; r < rows; r++)
        s += m[c * rows + r]; // EXPECT-WARNING: hms-uncoalesced-access stride of rows = 512 floats between lanes
    sums[c] = s;
}
