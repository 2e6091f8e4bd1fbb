// CUDA-samples transpose variants: naive, coalesced through a shared tile,
// padded tile (no bank conflicts), diagonal block reordering.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeNaive(float *odata, const float *idata, int width, int height)
{
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + width * yIndex;
    int index_out = yIndex + height * xIndex;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
        // EXPECT-ACCESS: +2 load idata global 4 loops=i index=blockIdx.x * 32 + threadIdx.x + width * (blockIdx.y * 32 + threadIdx.y) + i * width
        // EXPECT-ACCESS: +1 store odata global 4 loops=i index=blockIdx.y * 32 + threadIdx.y + height * (blockIdx.x * 32 + threadIdx.x) + i
        odata[index_out + i] = idata[index_in + i * width];
    }
    // EXPECT-LOOP: -5 var=i trip=4
    // EXPECT-ORDER: -3 load idata, -3 store odata
    // EXPECT-LAUNCH: grid=(64,64,1) block=(32,8,1) source=host-call
    // EXPECT-NO-LIMIT
}

__global__ void transposeCoalesced(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + (yIndex)*width;
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    int index_out = xIndex + (yIndex)*height;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
        // EXPECT-ACCESS: +1 store tile shared 4 loops=i mapping=idata index=(threadIdx.y + i) * 32 + threadIdx.x
        tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    }
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
        // EXPECT-ACCESS: +1 load tile shared 4 loops=i index=threadIdx.x * 32 + (threadIdx.y + i)
        odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
    }
    // EXPECT-ACCESS: -2 store odata global 4 loops=i index=blockIdx.y * 32 + threadIdx.x + (blockIdx.x * 32 + threadIdx.y) * height + i * height
    // EXPECT-LINE: -6 sync
    // EXPECT-MAPPING: tile <- idata
    // EXPECT-ARRAY: tile shared float[32][32] 4B read written
}

__global__ void transposeNoBankConflicts(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + (yIndex)*width;
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    int index_out = xIndex + (yIndex)*height;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    // EXPECT-ACCESS: -1 store tile shared 4 mapping=idata index=(threadIdx.y + i) * 33 + threadIdx.x
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
    // EXPECT-ACCESS: -1 load tile shared 4 index=threadIdx.x * 33 + (threadIdx.y + i)
    // EXPECT-ARRAY: tile shared float[32][33] 4B
    }

__global__ void transposeDiagonal(float *odata, float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int blockIdx_x, blockIdx_y;
    if (width == height) {
        blockIdx_y = blockIdx.x;
        blockIdx_x = (blockIdx.x + blockIdx.y) % gridDim.x;
    } else {
        int bid = blockIdx.x + gridDim.x * blockIdx.y;
        blockIdx_y = bid % gridDim.y;
        blockIdx_x = ((bid / gridDim.y) + blockIdx_y) % gridDim.x;
    }
    // Assigned on both arms of the if: the values live in variables after it.
    int xIndex = blockIdx_x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx_y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + (yIndex)*width;
    // EXPECT-ACCESS: +1 load idata global 4 index=blockIdx_x * 32 + threadIdx.x + (blockIdx_y * 32 + threadIdx.y) * width
    tile[threadIdx.y][threadIdx.x] = idata[index_in];
    // EXPECT-LINE: -13 blockIdx_y = blockIdx.x
    // EXPECT-LINE: -13 blockIdx_x = (blockIdx.x + blockIdx.y) % gridDim.x
    // EXPECT-LINE: -11 blockIdx_y = (blockIdx.x + gridDim.x * blockIdx.y) % gridDim.y
    // EXPECT-LINE: -17 if (width == height)
}

int main()
{
    int size_x = 2048, size_y = 2048;
    dim3 grid(size_x / TILE_DIM, size_y / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
    float *d_idata, *d_odata;
    transposeNaive<<<grid, threads>>>(d_odata, d_idata, size_x, size_y);
    transposeCoalesced<<<grid, threads>>>(d_odata, d_idata, size_x, size_y);
    transposeNoBankConflicts<<<grid, threads>>>(d_odata, d_idata, size_x, size_y);
    transposeDiagonal<<<grid, threads>>>(d_odata, d_idata, size_x, size_y);
    return 0;
}
