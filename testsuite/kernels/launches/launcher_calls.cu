// Launcher functions in the style of llm.c's dev/cuda: the <<<>>> arguments
// depend on the launcher's parameters, given by main as literals, #defines
// and a loop over an array of block sizes.
#include <cuda_runtime.h>
#define NUM_ROWS 4096
#define DEFAULT_BLOCK 256

template <class T> __host__ __device__ T div_up(T a, T b) { return (a + b - 1) / b; }

__global__ void rows_kernel(float *out, const float *in, int n, int c)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n) {
        float s = 0.0f;
        for (int i = 0; i < c; i++)
            s += in[row * c + i];
        out[row] = s;
    }
}

__global__ void warp_rows_kernel(float *out, const float *in, int n, int c)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp < n) {
        float s = 0.0f;
        for (int i = lane; i < c; i += 32)
            s += in[warp * c + i];
        if (lane == 0)
            out[warp] = s;
    }
}

void rows_forward(float *out, const float *in, int B, int T, int C, int block_size)
{
    const int N = B * T;
    const int grid = div_up(N, block_size);
    rows_kernel<<<grid, block_size>>>(out, in, N, C);
}

void warp_rows_forward(float *out, const float *in, int N, int C, const int block_size)
{
    warp_rows_kernel<<<div_up(N * 32, block_size), block_size>>>(out, in, N, C);
}

int main()
{
    int B = 8, T = 512, C = 768;
    float *out, *in;
    cudaMalloc(&out, B * T * sizeof(float));
    cudaMalloc(&in, B * T * C * sizeof(float));
    int block_sizes[] = {64, 128, 256, 512};
    for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
        int block_size = block_sizes[j];
        rows_forward(out, in, B, T, C, block_size);
    }
    warp_rows_forward(out, in, NUM_ROWS, C, DEFAULT_BLOCK);
    warp_rows_forward(out, in, 2048, 256, 128);
    return 0;
}
