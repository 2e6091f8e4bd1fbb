// Matrix transpose four ways (256 x 256 floats, 32 x 32 tiles, 32 x 8 threads
// per block), for hms-lint's check tests (testsuite/unit/test_checks.c).
// Expectations: EXPECT-WARNING / EXPECT-NOTE name a check and a piece of the
// message of a finding on the comment's line (or @+N / @-N lines away);
// EXPECT-NO says the check stays quiet there; a -<ARCH> suffix limits a
// directive to one architecture of EXPECT-ARCHES. Within a kernel, every
// warning of a check a directive names must be expected.
// EXPECT-ARCHES: h100 gt200
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8
#define N 256

// Naive: the read walks a row (coalesced), the write walks a column.
__global__ void transposeNaive(float *odata, const float *idata, int width, int height)
{
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + width * yIndex;
    int index_out = yIndex + height * xIndex;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
        // EXPECT-WARNING: @+2 hms-uncoalesced-access stride of height = 256 floats between lanes: 32 sectors per request where 4 would do (12.5% of fetched bytes used); a coalesced store to 'odata' would move 8x fewer bytes
        // EXPECT-WARNING-GT200: @+1 hms-partition-camping concurrent stores to 'odata' from the first resident blocks fall on 2 of 8 DRAM channels where they could use 8: the busiest channel carries 4x its even share
        odata[index_out + i] = idata[index_in + i * width]; // EXPECT-NO-H100: hms-partition-camping
    }
}

// Through a shared tile: both global accesses coalesced, the column read of
// the tile is a 32-way bank conflict.
__global__ void transposeCoalesced(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + yIndex * width;
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    int index_out = xIndex + yIndex * height;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width]; // EXPECT-NO: hms-uncoalesced-access
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        // EXPECT-WARNING-GT200: @+2 hms-shared-bank-conflict 16-way bank conflict: 32 wavefronts per request where 2 would do (lanes 32 floats apart in 'tile'); 534 cycles per request instead of 54; padding the rows to [32][32 + 1] removes it
        // GT200: stores camp on 2 of 8 channels, but the model finds the bank conflicts hide it
        odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i]; // EXPECT-WARNING-H100: hms-shared-bank-conflict 32-way bank conflict: 32 wavefronts per request where 1 would do (lanes 32 floats apart in 'tile'); 85 cycles per request instead of 23; padding the rows to [32][32 + 1] removes it
}

// Padded tile: one extra column per row spreads the column read over all banks.
__global__ void transposeNoBankConflicts(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + yIndex * width;
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    int index_out = xIndex + yIndex * height;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        // GT200: stores camp on 2 of 8 channels, but the model finds the bank conflicts hide it
        odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i]; // EXPECT-NO: hms-shared-bank-conflict
}

// Diagonal block order (square matrices): consecutive blocks take tiles
// along diagonals so that concurrent blocks spread over the partitions.
__global__ void transposeDiagonal(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int blockIdx_y = blockIdx.x;
    int blockIdx_x = (blockIdx.x + blockIdx.y) % gridDim.x;
    int xIndex = blockIdx_x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx_y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + yIndex * width;
    xIndex = blockIdx_y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx_x * TILE_DIM + threadIdx.y;
    int index_out = xIndex + yIndex * height;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width]; // EXPECT-NO: hms-partition-camping
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        // EXPECT-NO: @+1 hms-partition-camping
        odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i]; // EXPECT-NO: hms-shared-bank-conflict
}

int main()
{
    float *d_in, *d_out;
    cudaMalloc(&d_in, N * N * sizeof(float));
    cudaMalloc(&d_out, N * N * sizeof(float));
    dim3 grid(N / TILE_DIM, N / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
    transposeNaive<<<grid, threads>>>(d_out, d_in, N, N);
    transposeCoalesced<<<grid, threads>>>(d_out, d_in, N, N);
    transposeNoBankConflicts<<<grid, threads>>>(d_out, d_in, N, N);
    transposeDiagonal<<<grid, threads>>>(d_out, d_in, N, N);
    cudaDeviceSynchronize();
    return 0;
}
