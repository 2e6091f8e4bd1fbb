// A half-precision GEMM tile, in the style of hand-tuned HGEMM kernels of
// public repositories: 'a' is stored transposed into s_a[BK][BM] one half at
// a time (two lanes of a pair write rows 8 apart: a 2-way conflict), and read
// back 8 halves at a time with 128-bit loads. Padding the rows by a few halves
// would remove the store's conflict but break the 16-byte alignment those
// loads need (a misaligned-address fault), and every aligned pad keeps the
// rows 8 apart in the same banks: no padding is offered. The warning itself
// stands. For hms-lint's check tests (expectation syntax: see transpose.cu).
// EXPECT-ARCHES: h100
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define LDST128BITS(value) (reinterpret_cast<float4 *>(&(value))[0])
#define BM 128
#define BN 128
#define BK 16
#define TM 8

// hms-lint: launch grid(16,16) block(16,16)
__global__ void hgemmTransposedTile(half *a, half *c, int M, int N, int K)
{
    __shared__ half s_a[BK][BM]; // EXPECT-NO: hms-shared-bank-conflict
    int tx = threadIdx.x, ty = threadIdx.y;
    int tid = ty * blockDim.x + tx;
    int load_smem_a_m = tid / 2;
    int load_smem_a_k = (tid % 2) * 8;
    int load_gmem_a_m = blockIdx.y * BM + load_smem_a_m;
    half r_load_a[8];
    half r_comp_a[TM];
    half acc = __float2half(0.0f);
    for (int bk = 0; bk < K / BK; bk++) {
        LDST128BITS(r_load_a[0]) = LDST128BITS(a[load_gmem_a_m * K + bk * BK + load_smem_a_k]);
#pragma unroll
        for (int i = 0; i < 8; ++i)
            // EXPECT-WARNING: @+1 hms-shared-bank-conflict 2-way bank conflict
            s_a[load_smem_a_k + i][load_smem_a_m] = r_load_a[i];
        __syncthreads();
#pragma unroll
        for (int tk = 0; tk < BK; tk++) {
            LDST128BITS(r_comp_a[0]) = LDST128BITS(s_a[tk][ty * TM]);
            for (int m = 0; m < TM; m++)
                acc = __hadd(acc, r_comp_a[m]);
        }
        __syncthreads();
    }
    c[(blockIdx.y * BM + ty * TM) * N + blockIdx.x * BN + tx] = acc;
}
