// Rodinia hotspot / SHOC stencil2d style: 2D 5-point stencil over a shared
// tile with a one-element halo on each side, halos guarded by conditions,
// the result written only inside the domain.
#include <cuda_runtime.h>

#define BX 16
#define BY 16

__global__ void stencil5(const float *__restrict__ src, float *__restrict__ dst, int nx, int ny)
{
    __shared__ float tile[BY + 2][BX + 2];
    int x = blockIdx.x * BX + threadIdx.x;
    int y = blockIdx.y * BY + threadIdx.y;
    int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    if (x < nx && y < ny) {
        // EXPECT-ACCESS: +2 load src global 4 guard={blockIdx.x * 16 + threadIdx.x < nx && blockIdx.y * 16 + threadIdx.y < ny} index=(blockIdx.y * 16 + threadIdx.y) * nx + (blockIdx.x * 16 + threadIdx.x)
        // EXPECT-ACCESS: +1 store tile shared 4 mapping=src index=(threadIdx.y + 1) * 18 + threadIdx.x + 1
        tile[ty][tx] = src[y * nx + x];
        if (threadIdx.x == 0 && x > 0)
            tile[ty][0] = src[y * nx + x - 1];
        // EXPECT-ACCESS: -1 load src global 4 guard={threadIdx.x == 0 && blockIdx.x * 16 + threadIdx.x > 0} index=(blockIdx.y * 16 + threadIdx.y) * nx + (blockIdx.x * 16 + threadIdx.x) - 1
        if (threadIdx.x == BX - 1 && x < nx - 1)
            tile[ty][BX + 1] = src[y * nx + x + 1];
        // EXPECT-ACCESS: -1 store tile shared 4 mapping=src index=(threadIdx.y + 1) * 18 + 17
        if (threadIdx.y == 0 && y > 0)
            tile[0][tx] = src[(y - 1) * nx + x];
        // EXPECT-ACCESS: -1 load src global 4 index=(blockIdx.y * 16 + threadIdx.y - 1) * nx + (blockIdx.x * 16 + threadIdx.x)
        if (threadIdx.y == BY - 1 && y < ny - 1)
            tile[BY + 1][tx] = src[(y + 1) * nx + x];
        // EXPECT-ACCESS: -1 store tile shared 4 mapping=src index=threadIdx.x + 307
    }
    __syncthreads();
    if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
        float v = tile[ty][tx] * 0.5f +
                  0.125f * (tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1]);
        // EXPECT-ORDER: -2 load tile, -1 load tile, -1 load tile, -1 load tile, -1 load tile
        // EXPECT-ACCESS: -2 load tile shared 4 index=threadIdx.y * 18 + threadIdx.x + 1
        // EXPECT-ACCESS: -3 load tile shared 4 index=(threadIdx.y + 2) * 18 + threadIdx.x + 1
        // EXPECT-ACCESS: -4 load tile shared 4 index=(threadIdx.y + 1) * 18 + threadIdx.x
        dst[y * nx + x] = v;
    }
    // EXPECT-ARRAY: src global float 4B param const restrict read
    // EXPECT-ARRAY: tile shared float[18][18] 4B
    // EXPECT-LAUNCH: grid=(64,64,1) block=(16,16,1) source=annotation
    // EXPECT-PARAM: nx int = 1024 (annotation)
    // EXPECT-PARAM: ny int = 1024 (default)
}
// hms-lint: launch kernel=stencil5 grid(64,64) block(16,16)
// hms-lint: param kernel=stencil5 nx=1024
