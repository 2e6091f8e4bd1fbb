// __constant__ tables filled by cudaMemcpyToSymbol: a 3x3 filter, a table
// of int2 offsets and a struct of parameters, read by a convolution.
#include <cuda_runtime.h>

#define FILTER_W 3
#define MAX_OFFSETS 64

struct Params {
    float scale;
    int width, height;
};

__constant__ float c_filter[FILTER_W * FILTER_W];
__constant__ int2 c_offsets[MAX_OFFSETS];
__constant__ Params c_params;

__global__ void convolve3x3(const float *in, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= c_params.width - 1 || y >= c_params.height - 1)
        return;
    float acc = 0.0f;
    for (int k = 0; k < FILTER_W * FILTER_W; k++) {
        int2 o = c_offsets[k];
        acc += c_filter[k] * in[(y + o.y) * c_params.width + (x + o.x)];
    }
    out[y * c_params.width + x] = acc * c_params.scale;
}

int main()
{
    float h_filter[FILTER_W * FILTER_W] = {0, 1, 0, 1, -4, 1, 0, 1, 0};
    int2 h_offsets[MAX_OFFSETS];
    for (int k = 0; k < FILTER_W * FILTER_W; k++)
        h_offsets[k] = make_int2(k % 3 - 1, k / 3 - 1);
    Params p = {1.0f, 1920, 1080};
    cudaMemcpyToSymbol(c_filter, h_filter, sizeof(h_filter));
    cudaMemcpyToSymbol(c_offsets, h_offsets, sizeof(h_offsets), 0, cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(c_params, &p, sizeof(Params));
    float *in, *out;
    cudaMalloc(&in, 1920 * 1080 * sizeof(float));
    cudaMalloc(&out, 1920 * 1080 * sizeof(float));
    dim3 block(16, 16);
    // ceil(1920 / 16) = 120, ceil(1080 / 16) = 68 (67.5 rounded up)
    dim3 grid((1920 + block.x - 1) / block.x, (1080 + block.y - 1) / block.y);
    convolve3x3<<<grid, block>>>(in, out);
    return 0;
}

// 9 floats = 36 bytes; 64 int2 = 512 bytes; Params = float + 2 ints = 12 bytes
// EXPECT-CONSTANT: c_filter float[9] line=13 bytes=36
// EXPECT-CONSTANT: c_offsets int2[64] line=14 bytes=512
// EXPECT-CONSTANT: c_params Params line=15 bytes=12
// EXPECT-KERNEL: convolve3x3 line=17 params=const float *in, float *out
// EXPECT-LAUNCH: convolve3x3 line=47 grid=(120,68,1) block=(16,16,1) shared=0 args=in, out
// EXPECT-SUMMARY: 1 kernel, 3 variables, 1 launch site
