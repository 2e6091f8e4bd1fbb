// Parboil style (stencil, spmv JDS, sgemm): Index3D macros, register-tiled
// stencil with a 2D shared slice, JDS sparse format with a legacy texture
// and __constant__ offsets, sgemm with a shared B tile and TILE_N columns.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>

#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))
#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)
#define CHECK_ERROR(errorMessage)                                                                 \
    {                                                                                             \
        cudaError_t err = cudaGetLastError();                                                     \
        if (cudaSuccess != err) {                                                                 \
            fprintf(stderr, "Cuda error: %s in file '%s' in line %i : %s.\n", errorMessage,       \
                    __FILE__, __LINE__, cudaGetErrorString(err));                                 \
            exit(EXIT_FAILURE);                                                                   \
        }                                                                                         \
    }

__global__ void block2D_hybrid_coarsen_x(float c0, float c1, float *A0, float *Anext, int nx, int ny,
                                         int nz)
{
    const int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    const int i2 = blockIdx.x * blockDim.x * 2 + threadIdx.x + blockDim.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    const int sh_id = threadIdx.x + threadIdx.y * blockDim.x * 2;
    const int sh_id2 = threadIdx.x + blockDim.x + threadIdx.y * blockDim.x * 2;
    extern __shared__ float sh_A0[];
    sh_A0[sh_id] = 0.0f;
    sh_A0[sh_id2] = 0.0f;
    __syncthreads();
    const bool w_region = i > 0 && j > 0 && (i < nx - 1) && (j < ny - 1);
    const bool w_region2 = j > 0 && (i2 < nx - 1) && (j < ny - 1);
    const bool x_l_bound = (threadIdx.x == 0);
    const bool x_h_bound = ((threadIdx.x + blockDim.x) == (blockDim.x * 2 - 1));
    const bool y_l_bound = (threadIdx.y == 0);
    const bool y_h_bound = (threadIdx.y == (blockDim.y - 1));
    float bottom = 0.0f, bottom2 = 0.0f, top = 0.0f, top2 = 0.0f;
    if ((i < nx) && (j < ny)) {
        bottom = A0[Index3D(nx, ny, i, j, 0)];
        sh_A0[sh_id] = A0[Index3D(nx, ny, i, j, 1)];
    }
    if ((i2 < nx) && (j < ny)) {
        bottom2 = A0[Index3D(nx, ny, i2, j, 0)];
        sh_A0[sh_id2] = A0[Index3D(nx, ny, i2, j, 1)];
    }
    __syncthreads();
    for (int k = 1; k < nz - 1; k++) {
        float a_left_right, a_up, a_down;
        if ((i < nx) && (j < ny))
            top = A0[Index3D(nx, ny, i, j, k + 1)];
        if (w_region) {
            a_up = y_h_bound ? A0[Index3D(nx, ny, i, j + 1, k)] : sh_A0[sh_id + 2 * blockDim.x];
            a_down = y_l_bound ? A0[Index3D(nx, ny, i, j - 1, k)] : sh_A0[sh_id - 2 * blockDim.x];
            a_left_right = x_l_bound ? A0[Index3D(nx, ny, i - 1, j, k)] : sh_A0[sh_id - 1];
            Anext[Index3D(nx, ny, i, j, k)] =
                (top + bottom + a_up + a_down + sh_A0[sh_id + 1] + a_left_right) * c1 - sh_A0[sh_id] * c0;
        }
        if ((i2 < nx) && (j < ny))
            top2 = A0[Index3D(nx, ny, i2, j, k + 1)];
        if (w_region2) {
            a_up = y_h_bound ? A0[Index3D(nx, ny, i2, j + 1, k)] : sh_A0[sh_id2 + 2 * blockDim.x];
            a_down = y_l_bound ? A0[Index3D(nx, ny, i2, j - 1, k)] : sh_A0[sh_id2 - 2 * blockDim.x];
            a_left_right = x_h_bound ? A0[Index3D(nx, ny, i2 + 1, j, k)] : sh_A0[sh_id2 + 1];
            Anext[Index3D(nx, ny, i2, j, k)] =
                (top2 + bottom2 + a_up + a_down + sh_A0[sh_id2 - 1] + a_left_right) * c1 - sh_A0[sh_id2] * c0;
        }
        __syncthreads();
        bottom = sh_A0[sh_id];
        sh_A0[sh_id] = top;
        bottom2 = sh_A0[sh_id2];
        sh_A0[sh_id2] = top2;
        __syncthreads();
    }
}

texture<float, 1> tex_x_float;
__constant__ int jds_ptr_int[5000];
__constant__ int sh_zcnt_int[5000];

__global__ void spmv_jds(float *dst_vector, const float *d_data, const int *d_index, const int *d_perm,
                         const float *x_vec, const int *d_nzcnt, const int dim)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int warp_id = ix >> 5;
    if (ix < dim) {
        float sum = 0.0f;
        int bound = sh_zcnt_int[warp_id];
        int j = jds_ptr_int[0] + ix;
        float d = d_data[j];
        int i = d_index[j];
        float t = tex1Dfetch(tex_x_float, i);
        if (0 < bound) {
            sum += d * t;
            for (int k = 1; k < bound; k++) {
                j = jds_ptr_int[k] + ix;
                d = d_data[j];
                i = d_index[j];
                t = tex1Dfetch(tex_x_float, i);
                sum += d * t;
            }
        }
        dst_vector[d_perm[ix]] = sum;
    }
}

__global__ void mysgemmNT(const float *A, int lda, const float *B, int ldb, float *C, int ldc, int k,
                          float alpha, float beta)
{
    float c[TILE_N];
    for (int i = 0; i < TILE_N; i++)
        c[i] = 0.0f;
    int mid = threadIdx.y * blockDim.x + threadIdx.x;
    int m = blockIdx.x * TILE_M + mid;
    int n = blockIdx.y * TILE_N + threadIdx.x;
    __shared__ float b_s[TILE_TB_HEIGHT][TILE_N];
    for (int i = 0; i < k; i += TILE_TB_HEIGHT) {
        float a;
        b_s[threadIdx.y][threadIdx.x] = B[n + (i + threadIdx.y) * ldb];
        __syncthreads();
        for (int j = 0; j < TILE_TB_HEIGHT; j++) {
            a = A[m + (i + j) * lda];
            for (int kk = 0; kk < TILE_N; kk++)
                c[kk] += a * b_s[j][kk];
        }
        __syncthreads();
    }
    int t = ldc * blockIdx.y * TILE_N + m;
    for (int i = 0; i < TILE_N; i++)
        C[t + i * ldc] = C[t + i * ldc] * beta + alpha * c[i];
}

void regtileSgemm(char transa, char transb, int m, int n, int k, float alpha, const float *A, int lda,
                  const float *B, int ldb, float beta, float *C, int ldc)
{
    if ((m % TILE_M) || (n % TILE_N)) {
        fprintf(stderr, "unsupported size of matrix. m should be multiple of %d; n should be multiple of %d\n",
                TILE_M, TILE_N);
        return;
    }
    dim3 grid(m / TILE_M, n / TILE_N), threads(TILE_N, TILE_TB_HEIGHT);
    mysgemmNT<<<grid, threads>>>(A, lda, B, ldb, C, ldc, k, alpha, beta);
    CHECK_ERROR("mySgemm");
}

int main(int argc, char **argv)
{
    int nx = 128, ny = 128, nz = 32, tx = 32, ty = 4;
    float *d_A0, *d_Anext;
    cudaMalloc((void **)&d_A0, nx * ny * nz * sizeof(float));
    cudaMalloc((void **)&d_Anext, nx * ny * nz * sizeof(float));
    dim3 block(tx, ty, 1);
    dim3 grid((nx + tx * 2 - 1) / (tx * 2), (ny + ty - 1) / ty, 1);
    int sh_size = tx * 2 * ty * sizeof(float);
    block2D_hybrid_coarsen_x<<<grid, block, sh_size>>>(1.0f / 6.0f, 1.0f, d_A0, d_Anext, nx, ny, nz);
    int h_ptr[64] = {0};
    cudaMemcpyToSymbol(jds_ptr_int, h_ptr, sizeof(h_ptr));
    size_t offset;
    cudaBindTexture(&offset, tex_x_float, d_A0, nx * sizeof(float));
    spmv_jds<<<(nx + 191) / 192, 192>>>(d_Anext, d_A0, NULL, NULL, d_A0, NULL, nx);
    regtileSgemm('N', 'T', 1024, 1024, 1024, 1.0f, d_A0, 1024, d_Anext, 1024, 0.0f, d_A0, 1024);
    cudaFree(d_A0);
    cudaFree(d_Anext);
    return 0;
}
