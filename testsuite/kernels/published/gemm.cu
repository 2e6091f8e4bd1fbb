// A single-precision GEMM family, C = A * B for N x N row-major floats,
// written for hms-lint's published-results tests along the steps of Simon
// Boehm's SGEMM worklog (github.com/siboehm/SGEMM_CUDA, README table:
// GFLOP/s on an A6000 at 4096): naive, coalesced, shared tiles, 1D and 2D
// register blocking, vectorised loads, warp tiling. Own code, not theirs.
// N is 4096, the size of the published table.
#include <cuda_runtime.h>

#define N 4096

// 1: consecutive threads walk down a column of C: A is read across lanes
// with a stride of N floats.
__global__ void gemmNaive(float *C, const float *A, const float *B)
{
    int row = blockIdx.x * 32 + threadIdx.x;
    int col = blockIdx.y * 32 + threadIdx.y;
    float acc = 0.0f;
    for (int k = 0; k < N; k++)
        acc += A[row * N + k] * B[k * N + col];
    C[row * N + col] = acc;
}

// 2: consecutive threads walk along a row of C: B and C coalesce, A broadcasts.
__global__ void gemmCoalesced(float *C, const float *A, const float *B)
{
    int row = blockIdx.y * 32 + threadIdx.x / 32;
    int col = blockIdx.x * 32 + threadIdx.x % 32;
    float acc = 0.0f;
    for (int k = 0; k < N; k++)
        acc += A[row * N + k] * B[k * N + col];
    C[row * N + col] = acc;
}

// 3: 32 x 32 tiles of A and B staged through shared memory.
__global__ void gemmSharedTiles(float *C, const float *A, const float *B)
{
    __shared__ float tA[32 * 32];
    __shared__ float tB[32 * 32];
    int ty = threadIdx.x / 32, tx = threadIdx.x % 32;
    int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
    float acc = 0.0f;
    for (int t = 0; t < N; t += 32) {
        tA[ty * 32 + tx] = A[row * N + t + tx];
        tB[ty * 32 + tx] = B[(t + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < 32; k++)
            acc += tA[ty * 32 + k] * tB[k * 32 + tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// 4: 64 x 64 block tile, K step 8, each thread computes 8 rows of one column.
__global__ void gemm1DBlocking(float *C, const float *A, const float *B)
{
    __shared__ float tA[64 * 8];
    __shared__ float tB[8 * 64];
    int tx = threadIdx.x % 64, ty = threadIdx.x / 64; /* 512 threads: ty 0..7 */
    int aRow = threadIdx.x / 8, aCol = threadIdx.x % 8;
    const float *a = A + blockIdx.y * 64 * N;
    const float *b = B + blockIdx.x * 64;
    float acc[8] = {0.0f};
    for (int t = 0; t < N; t += 8) {
        tA[aRow * 8 + aCol] = a[aRow * N + t + aCol];
        tB[ty * 64 + tx] = b[(t + ty) * N + tx];
        __syncthreads();
        for (int k = 0; k < 8; k++) {
            float bv = tB[k * 64 + tx];
            for (int i = 0; i < 8; i++)
                acc[i] += tA[(ty * 8 + i) * 8 + k] * bv;
        }
        __syncthreads();
    }
    for (int i = 0; i < 8; i++)
        C[(blockIdx.y * 64 + ty * 8 + i) * N + blockIdx.x * 64 + tx] = acc[i];
}

// 5: 128 x 128 block tile, K step 8, each of 256 threads computes 8 x 8.
__global__ void gemm2DBlocking(float *C, const float *A, const float *B)
{
    __shared__ float tA[128 * 8];
    __shared__ float tB[8 * 128];
    int tRow = threadIdx.x / 16, tCol = threadIdx.x % 16;
    const float *a = A + blockIdx.y * 128 * N;
    const float *b = B + blockIdx.x * 128;
    float acc[8][8] = {{0.0f}};
    float ra[8], rb[8];
    for (int t = 0; t < N; t += 8) {
        for (int l = 0; l < 4; l++) {
            int ia = threadIdx.x + l * 256;
            tA[(ia / 8) * 8 + ia % 8] = a[(ia / 8) * N + t + ia % 8];
            tB[(ia / 128) * 128 + ia % 128] = b[(t + ia / 128) * N + ia % 128];
        }
        __syncthreads();
        for (int k = 0; k < 8; k++) {
            for (int i = 0; i < 8; i++)
                ra[i] = tA[(tRow * 8 + i) * 8 + k];
            for (int j = 0; j < 8; j++)
                rb[j] = tB[k * 128 + tCol * 8 + j];
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 8; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            C[(blockIdx.y * 128 + tRow * 8 + i) * N + blockIdx.x * 128 + tCol * 8 + j] = acc[i][j];
}

// 6: as 5, with float4 global loads, A stored transposed in shared so the
// inner loop reads both tiles with float4.
__global__ void gemmVectorized(float *C, const float *A, const float *B)
{
    __shared__ float tA[8 * 128];
    __shared__ float tB[8 * 128];
    int tRow = threadIdx.x / 16, tCol = threadIdx.x % 16;
    const float *a = A + blockIdx.y * 128 * N;
    const float *b = B + blockIdx.x * 128;
    float acc[8][8] = {{0.0f}};
    float ra[8], rb[8];
    int aR = threadIdx.x / 2, aC = (threadIdx.x % 2) * 4;
    int bR = threadIdx.x / 32, bC = (threadIdx.x % 32) * 4;
    for (int t = 0; t < N; t += 8) {
        float4 va = *(const float4 *)&a[aR * N + t + aC];
        tA[(aC + 0) * 128 + aR] = va.x;
        tA[(aC + 1) * 128 + aR] = va.y;
        tA[(aC + 2) * 128 + aR] = va.z;
        tA[(aC + 3) * 128 + aR] = va.w;
        *(float4 *)&tB[bR * 128 + bC] = *(const float4 *)&b[(t + bR) * N + bC];
        __syncthreads();
        for (int k = 0; k < 8; k++) {
            float4 a0 = *(const float4 *)&tA[k * 128 + tRow * 8];
            float4 a1 = *(const float4 *)&tA[k * 128 + tRow * 8 + 4];
            float4 b0 = *(const float4 *)&tB[k * 128 + tCol * 8];
            float4 b1 = *(const float4 *)&tB[k * 128 + tCol * 8 + 4];
            ra[0] = a0.x; ra[1] = a0.y; ra[2] = a0.z; ra[3] = a0.w;
            ra[4] = a1.x; ra[5] = a1.y; ra[6] = a1.z; ra[7] = a1.w;
            rb[0] = b0.x; rb[1] = b0.y; rb[2] = b0.z; rb[3] = b0.w;
            rb[4] = b1.x; rb[5] = b1.y; rb[6] = b1.z; rb[7] = b1.w;
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 8; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j += 4) {
            float4 v = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
            *(float4 *)&C[(blockIdx.y * 128 + tRow * 8 + i) * N + blockIdx.x * 128 + tCol * 8 + j] = v;
        }
}

// 7: as 6, with each warp owning a 64 x 32 sub-tile computed in two 32 x 16
// passes of 4 x 4 per thread (128 threads, 128 x 128 block tile, K step 16).
__global__ void gemmWarptiling(float *C, const float *A, const float *B)
{
    __shared__ float tA[16 * 128];
    __shared__ float tB[16 * 128];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wRow = warp / 2, wCol = warp % 2;        /* 2 x 2 warps of 64 x 64 */
    int tRow = lane / 4, tCol = lane % 4;        /* 8 x 4 lanes of 4 x 4 within a 32 x 16 pass */
    const float *a = A + blockIdx.y * 128 * N;
    const float *b = B + blockIdx.x * 128;
    float acc[2][4][4][4] = {{{{0.0f}}}};
    float ra[2][4], rb[4][4];
    for (int t = 0; t < N; t += 16) {
        for (int l = 0; l < 4; l++) {
            int ia = threadIdx.x + l * 128; /* 512 float4 of A: 128 rows x 4 */
            float4 va = *(const float4 *)&a[(ia / 4) * N + t + (ia % 4) * 4];
            tA[((ia % 4) * 4 + 0) * 128 + ia / 4] = va.x;
            tA[((ia % 4) * 4 + 1) * 128 + ia / 4] = va.y;
            tA[((ia % 4) * 4 + 2) * 128 + ia / 4] = va.z;
            tA[((ia % 4) * 4 + 3) * 128 + ia / 4] = va.w;
            *(float4 *)&tB[(ia / 32) * 128 + (ia % 32) * 4] =
                *(const float4 *)&b[(t + ia / 32) * N + (ia % 32) * 4];
        }
        __syncthreads();
        for (int k = 0; k < 16; k++) {
            for (int m = 0; m < 2; m++) {
                float4 v = *(const float4 *)&tA[k * 128 + wRow * 64 + m * 32 + tRow * 4];
                ra[m][0] = v.x; ra[m][1] = v.y; ra[m][2] = v.z; ra[m][3] = v.w;
            }
            for (int n = 0; n < 4; n++) {
                float4 v = *(const float4 *)&tB[k * 128 + wCol * 64 + n * 16 + tCol * 4];
                rb[n][0] = v.x; rb[n][1] = v.y; rb[n][2] = v.z; rb[n][3] = v.w;
            }
            for (int m = 0; m < 2; m++)
                for (int n = 0; n < 4; n++)
                    for (int i = 0; i < 4; i++)
                        for (int j = 0; j < 4; j++)
                            acc[m][n][i][j] += ra[m][i] * rb[n][j];
        }
        __syncthreads();
    }
    for (int m = 0; m < 2; m++)
        for (int n = 0; n < 4; n++)
            for (int i = 0; i < 4; i++) {
                int r = blockIdx.y * 128 + wRow * 64 + m * 32 + tRow * 4 + i;
                int c = blockIdx.x * 128 + wCol * 64 + n * 16 + tCol * 4;
                *(float4 *)&C[r * N + c] =
                    make_float4(acc[m][n][i][0], acc[m][n][i][1], acc[m][n][i][2], acc[m][n][i][3]);
            }
}

int main()
{
    float *a, *b, *c;
    cudaMalloc(&a, N * N * sizeof(float));
    cudaMalloc(&b, N * N * sizeof(float));
    cudaMalloc(&c, N * N * sizeof(float));
    gemmNaive<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(c, a, b);
    gemmCoalesced<<<dim3(N / 32, N / 32), 1024>>>(c, a, b);
    gemmSharedTiles<<<dim3(N / 32, N / 32), 1024>>>(c, a, b);
    gemm1DBlocking<<<dim3(N / 64, N / 64), 512>>>(c, a, b);
    gemm2DBlocking<<<dim3(N / 128, N / 128), 256>>>(c, a, b);
    gemmVectorized<<<dim3(N / 128, N / 128), 256>>>(c, a, b);
    gemmWarptiling<<<dim3(N / 128, N / 128), 128>>>(c, a, b);
    return 0;
}
