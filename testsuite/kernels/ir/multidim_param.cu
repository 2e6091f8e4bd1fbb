// Multi-dimensional arrays through pointers to arrays: a float (*)[N]
// parameter, a cast of a flat pointer to rows, a 3D shared array, and double
// elements.
#include <cuda_runtime.h>

#define N 64

__global__ void rows(float (*a)[N], double *flat, float *out)
{
    int r = blockIdx.x, c = threadIdx.x;
    out[r * N + c] = a[r][c] + a[c][r];
    // EXPECT-ACCESS: -1 load a global 4 index=blockIdx.x * 64 + threadIdx.x
    // EXPECT-ACCESS: -2 load a global 4 index=threadIdx.x * 64 + blockIdx.x
    double (*d)[N] = (double (*)[N])flat;
    out[c] = (float)d[r + 1][c];
    // EXPECT-ACCESS: -1 load flat global 8 index=(blockIdx.x + 1) * 64 + threadIdx.x
    __shared__ float cube[4][8][16];
    cube[threadIdx.z][threadIdx.y][threadIdx.x] = 1.0f;
    // rows of 8 * 16 floats, then rows of 16
    // EXPECT-ACCESS: -2 store cube shared 4 index=threadIdx.z * 128 + threadIdx.y * 16 + threadIdx.x
    // EXPECT-ARRAY: a global float[][64] 4B param read
    // EXPECT-ARRAY: cube shared float[4][8][16] 4B written
    // EXPECT-LAUNCH: grid=(64,1,1) block=(16,8,4) source=annotation
}
// hms-lint: launch kernel=rows grid(64) block(16,8,4)
