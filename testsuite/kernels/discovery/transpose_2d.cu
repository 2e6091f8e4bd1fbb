// 2D blocks and shared tiles: the classic transpose, plain and padded,
// with sizes from macros and dim3 built in three ways.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8
#define N 2048

__global__ void transpose_tiled(float *out, const float *in, int n)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float *out, const float *in, int n)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main()
{
    float *d_in, *d_out;
    cudaMalloc(&d_in, N * N * sizeof(float));
    cudaMalloc(&d_out, N * N * sizeof(float));
    dim3 grid(N / TILE_DIM, N / TILE_DIM);      // 2048 / 32 = 64
    dim3 block{TILE_DIM, BLOCK_ROWS};            // brace init
    transpose_tiled<<<grid, block>>>(d_out, d_in, N);
    dim3 grid2 = dim3(N / TILE_DIM, N / TILE_DIM, 1);
    dim3 block2 = {TILE_DIM, BLOCK_ROWS, 1};
    transpose_padded<<<grid2, block2>>>(d_out, d_in, N);
    return 0;
}

// EXPECT-KERNEL: transpose_tiled line=9 params=float *out, const float *in, int n
// EXPECT-KERNEL: transpose_padded line=23 params=float *out, const float *in, int n
// 32 * 32 floats = 4096 bytes; 32 * 33 floats = 4224 bytes
// EXPECT-SHARED: tile float[32][32] in=transpose_tiled line=11 bytes=4096
// EXPECT-SHARED: tile float[32][33] in=transpose_padded line=25 bytes=4224
// EXPECT-LAUNCH: transpose_tiled line=44 grid=(64,64,1) block=(32,8,1) shared=0 args=d_out, d_in, N=2048
// EXPECT-LAUNCH: transpose_padded line=47 grid=(64,64,1) block=(32,8,1) shared=0
