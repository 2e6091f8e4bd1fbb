// An SGEMM tile pipeline in the style of hand-tuned public kernels: the
// shared tile is filled by cp.async in inline assembly, which the analysis
// does not see, then read by the compute loop. The array looks "read-only"
// and its fill costs nothing, so a verdict on where it should live would rest
// on half the picture: none is made. For hms-lint's check tests (expectation
// syntax: see transpose.cu).
// EXPECT-ARCHES: h100
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define CP_ASYNC_CG(dst, src, bytes)                                                               \
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n" ::"r"(dst), "l"(src),      \
                 "n"(bytes))
#define CP_ASYNC_WAIT_ALL() asm volatile("cp.async.wait_all;\n" ::)

__global__ void sgemmAsyncTile(float *a, float *b, float *c, int M, int N, int K)
{
    __shared__ float s_b[BK][BN]; // EXPECT-NO: hms-placement
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int load_b_k = threadIdx.x / 16, load_b_n = (threadIdx.x % 16) * 4;
    float acc[4] = {0, 0, 0, 0};
    for (int bk = 0; bk < K / BK; bk++) {
        unsigned int dst = (unsigned int)__cvta_generic_to_shared(&s_b[load_b_k][load_b_n]);
        CP_ASYNC_CG(dst, &b[(bk * BK + load_b_k) * N + blockIdx.x * BN + load_b_n], 16);
        CP_ASYNC_WAIT_ALL();
        __syncthreads();
        for (int k = 0; k < BK; k++) {
            float4 bv = reinterpret_cast<float4 *>(&s_b[k][tx * 4])[0];
            float av = a[(blockIdx.y * BM + ty) * K + bk * BK + k];
            acc[0] += av * bv.x;
            acc[1] += av * bv.y;
            acc[2] += av * bv.z;
            acc[3] += av * bv.w;
        }
        __syncthreads();
    }
    for (int n = 0; n < 4; n++)
        c[(blockIdx.y * BM + ty) * N + blockIdx.x * BN + tx * 4 + n] = acc[n];
}

int main()
{
    float *a, *b, *c;
    int M = 2048, N = 2048, K = 2048;
    cudaMalloc(&a, M * K * sizeof(float));
    cudaMalloc(&b, K * N * sizeof(float));
    cudaMalloc(&c, M * N * sizeof(float));
    sgemmAsyncTile<<<dim3(N / BN, M / BM), 256>>>(a, b, c, M, N, K);
    return 0;
}
