// A __device__ helper shared by several kernels: reads a column of a
// row-major matrix, so neighbouring threads touch addresses `cols` apart.
#pragma once

__device__ inline float column_load(const float *m, int row, int cols, int col)
{
    return m[row * cols + col];
}
