// The kernels of the CUDA SDK whitepaper "Optimizing Matrix Transpose in CUDA"
// (Ruetsch & Micikevicius, June 2010; the PDF ships with cuda-samples,
// Samples/6_Performance/transpose/doc/MatrixTranspose.pdf), written afresh for
// hms-lint's published-results tests: 2048 x 2048 floats, 32 x 32 tiles,
// 32 x 8 threads per block. Its tables give effective bandwidth on a GTX 280
// (gt200), an M2090 (fermi) and a K20X (kepler).
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8
#define N 2048

__global__ void copy(float *odata, const float *idata)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int i = 0; i < TILE; i += ROWS)
        odata[(y + i) * N + x] = idata[(y + i) * N + x];
}

__global__ void copySharedMem(float *odata, const float *idata)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int i = 0; i < TILE; i += ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[(y + i) * N + x];
    __syncthreads();
    for (int i = 0; i < TILE; i += ROWS)
        odata[(y + i) * N + x] = tile[threadIdx.y + i][threadIdx.x];
}

__global__ void transposeNaive(float *odata, const float *idata)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int i = 0; i < TILE; i += ROWS)
        odata[x * N + y + i] = idata[(y + i) * N + x];
}

__global__ void transposeCoalesced(float *odata, const float *idata)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int i = 0; i < TILE; i += ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[(y + i) * N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int i = 0; i < TILE; i += ROWS)
        odata[(y + i) * N + x] = tile[threadIdx.x][threadIdx.y + i];
}

__global__ void transposeNoBankConflicts(float *odata, const float *idata)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int i = 0; i < TILE; i += ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[(y + i) * N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int i = 0; i < TILE; i += ROWS)
        odata[(y + i) * N + x] = tile[threadIdx.x][threadIdx.y + i];
}

// Blocks walk the tiles along diagonals, so concurrent blocks spread their
// writes over the partitions.
__global__ void transposeDiagonal(float *odata, const float *idata)
{
    __shared__ float tile[TILE][TILE + 1];
    int by = blockIdx.x;
    int bx = (blockIdx.x + blockIdx.y) % gridDim.x;
    int x = bx * TILE + threadIdx.x;
    int y = by * TILE + threadIdx.y;
    for (int i = 0; i < TILE; i += ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[(y + i) * N + x];
    __syncthreads();
    x = by * TILE + threadIdx.x;
    y = bx * TILE + threadIdx.y;
    for (int i = 0; i < TILE; i += ROWS)
        odata[(y + i) * N + x] = tile[threadIdx.x][threadIdx.y + i];
}

// The last CuMAPz transpose step (Sec. 6) and the whitepaper's summary: the
// diagonal order with the padding removed again, so bank conflicts return.
__global__ void transposeDiagonalConflicts(float *odata, const float *idata)
{
    __shared__ float tile[TILE][TILE];
    int by = blockIdx.x;
    int bx = (blockIdx.x + blockIdx.y) % gridDim.x;
    int x = bx * TILE + threadIdx.x;
    int y = by * TILE + threadIdx.y;
    for (int i = 0; i < TILE; i += ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[(y + i) * N + x];
    __syncthreads();
    x = by * TILE + threadIdx.x;
    y = bx * TILE + threadIdx.y;
    for (int i = 0; i < TILE; i += ROWS)
        odata[(y + i) * N + x] = tile[threadIdx.x][threadIdx.y + i];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, N * N * sizeof(float));
    cudaMalloc(&out, N * N * sizeof(float));
    dim3 grid(N / TILE, N / TILE), block(TILE, ROWS);
    copy<<<grid, block>>>(out, in);
    copySharedMem<<<grid, block>>>(out, in);
    transposeNaive<<<grid, block>>>(out, in);
    transposeCoalesced<<<grid, block>>>(out, in);
    transposeNoBankConflicts<<<grid, block>>>(out, in);
    transposeDiagonal<<<grid, block>>>(out, in);
    transposeDiagonalConflicts<<<grid, block>>>(out, in);
    return 0;
}
