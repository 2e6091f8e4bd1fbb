// Kernels whose loops run far longer than the trace budget would allow
// iteration by iteration (testsuite/unit/test_loop_summary.c). Sizes come
// from --param / --launch in the tests.
#define TILE 16

// Shared-memory tiled SGEMM: C = alpha * A * B + beta * C. The K loop is
// K / TILE iterations of the same pattern shifted by TILE columns of A and
// TILE rows of B; the epilogue reads and writes C once per thread.
__global__ void sgemmTiled(int M, int N, int K, float alpha, const float *A, const float *B,
                           float beta, float *C)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = A[row * K + t + tx];
        Bs[ty][tx] = B[(t + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

// Grid-stride SAXPY over n elements, n far larger than the grid.
__global__ void saxpyGridStride(int n, float a, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

// Per-block sum of a row of n values: a long block-stride serial loop, a
// shared-memory tree, and one store per block.
__global__ void rowSum(const float *in, float *out, int n)
{
    __shared__ float partial[128];
    int tid = threadIdx.x;
    float sum = 0.0f;
    for (int i = tid; i < n; i += blockDim.x)
        sum += in[blockIdx.x * n + i];
    partial[tid] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

// A per-thread walk through a table by a linear congruential step: the
// index is not affine in the iteration, so the loop cannot be summarised
// and is cut by the budget; the store after it must still be seen.
__global__ void tableWalk(const int *table, float *out, int n, int steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = i;
    float acc = 0.0f;
    for (int s = 0; s < steps; ++s) {
        j = (j * 5 + 1) % n;
        acc += table[j];
    }
    out[i] = acc;
}

// A sliding window: each iteration moves the warp's 64-byte window by 32
// bytes, so its line count repeats with a period of four iterations
// (offsets 0, 32, 64 in one 128-byte line, 96 across two).
__global__ void slidingWindow(const float *in, float *out, int n)
{
    float acc = 0.0f;
    for (int k = 0; k < n; ++k)
        acc += in[k * 8 + (threadIdx.x & 15)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
