// Matrix transpose, three ways: the bundled example for hms-lint's quick start.
#include <cuda_runtime.h>

#define TILE 32
#define N 4096

// Naive: reads are coalesced, writes stride by N floats between lanes.
__global__ void transpose_naive(float *out, const float *in, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    out[x * n + y] = in[y * n + x];
}

// Shared tile: both global accesses coalesced, but the column read of the
// tile hits one shared-memory bank 32 times.
__global__ void transpose_tiled(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// Padded tile: one extra column spreads the column read over all banks.
__global__ void transpose_padded(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

int main()
{
    float *d_in, *d_out;
    cudaMalloc(&d_in, N * N * sizeof(float));
    cudaMalloc(&d_out, N * N * sizeof(float));
    dim3 grid(N / TILE, N / TILE), block(TILE, TILE);
    transpose_naive<<<grid, block>>>(d_out, d_in, N);
    transpose_tiled<<<grid, block>>>(d_out, d_in, N);
    transpose_padded<<<grid, block>>>(d_out, d_in, N);
    cudaDeviceSynchronize();
    return 0;
}
