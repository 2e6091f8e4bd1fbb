// Rodinia hotspot style: a pyramid step whose block stride is
// BLOCK_SIZE - iteration * 2, with iteration, the borders and the grid size
// read from the command line on the host (unknown here). Under the default
// for iteration (64) every block's step is negative and no thread passes
// the guards; the kernel is analysed again with the small defaults at 1.
#include <cstdlib>
#include <cuda_runtime.h>
#define BLOCK_SIZE 16
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

__global__ void pyramid_step(int iteration, const float *temp_src, float *temp_dst, int grid_cols,
                             int grid_rows, int border_cols, int border_rows)
{
    __shared__ float tile[BLOCK_SIZE][BLOCK_SIZE];
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int small_block_rows = BLOCK_SIZE - iteration * 2;
    int small_block_cols = BLOCK_SIZE - iteration * 2;
    int blkY = small_block_rows * by - border_rows;
    int blkX = small_block_cols * bx - border_cols;
    int yidx = blkY + ty;
    int xidx = blkX + tx;
    int index = grid_cols * yidx + xidx;
    bool inside = yidx >= 0 && yidx <= grid_rows - 1 && xidx >= 0 && xidx <= grid_cols - 1;
    if (inside)
        tile[ty][tx] = temp_src[index];
    __syncthreads();
    if (inside && tx > 0 && tx < BLOCK_SIZE - 1)
        temp_dst[index] = tile[ty][tx - 1] + tile[ty][tx + 1];
}

int main(int argc, char **argv)
{
    int grid_rows = atoi(argv[1]), grid_cols = grid_rows;
    int pyramid_height = atoi(argv[2]), total_iterations = atoi(argv[3]);
    int borderCols = pyramid_height, borderRows = pyramid_height;
    float *src, *dst;
    cudaMalloc(&src, grid_rows * grid_cols * sizeof(float));
    cudaMalloc(&dst, grid_rows * grid_cols * sizeof(float));
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(4, 4);
    for (int t = 0; t < total_iterations; t += pyramid_height)
        pyramid_step<<<dimGrid, dimBlock>>>(MIN(pyramid_height, total_iterations - t), src, dst,
                                            grid_cols, grid_rows, borderCols, borderRows);
    return 0;
}
