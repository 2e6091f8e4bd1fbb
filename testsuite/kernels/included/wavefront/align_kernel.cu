// Kernels of a wavefront alignment (Rodinia nw style), in a file of their
// own that align.cu #includes and launches with TILE threads per block. The
// file compiles alone (it includes align.h) but launches nothing: linted on
// its own, hms-lint takes the launches from align.cu's translation unit, not
// a default block that would overrun the TILE x TILE shared tiles.
#include "align.h"

__device__ int best3(int a, int b, int c)
{
    int k = a <= b ? b : a;
    return k <= c ? c : k;
}

// One anti-diagonal of tiles: block bx takes tile (diag - 1 - bx, bx); each
// thread owns a column of its tile and walks the tile's anti-diagonals.
__global__ void alignTiles(const int *score, int *dp, int cols, int gap, int diag)
{
    __shared__ int up[TILE + 1][TILE + 1];
    __shared__ int ref[TILE][TILE];
    int bx = blockIdx.x, tx = threadIdx.x;
    int ty0 = diag - 1 - bx;
    int base = cols * TILE * ty0 + TILE * bx;
    if (tx == 0)
        up[0][0] = dp[base];
    for (int r = 0; r < TILE; r++)
        ref[r][tx] = score[base + cols * (r + 1) + tx + 1];
    up[tx + 1][0] = dp[base + cols * (tx + 1)];
    up[0][tx + 1] = dp[base + tx + 1];
    __syncthreads();
    for (int m = 0; m < TILE; m++) {
        if (tx <= m) {
            int x = tx + 1, y = m - tx + 1;
            up[y][x] = best3(up[y - 1][x - 1] + ref[y - 1][x - 1], up[y][x - 1] - gap,
                             up[y - 1][x] - gap);
        }
        __syncthreads();
    }
    for (int r = 0; r < TILE; r++)
        dp[base + cols * (r + 1) + tx + 1] = up[r + 1][tx + 1];
}

// Each tile's rows copied back by its block (the traceback reads them).
__global__ void copyTiles(const int *dp, int *out, int cols, int diag)
{
    __shared__ int tile[TILE][TILE + 1];
    int bx = blockIdx.x, tx = threadIdx.x;
    int base = cols * TILE * (diag - 1 - bx) + TILE * bx;
    for (int r = 0; r < TILE; r++)
        tile[r][tx] = dp[base + cols * r + tx];
    __syncthreads();
    for (int r = 0; r < TILE; r++)
        out[base + cols * r + tx] = tile[tx][r];
}
