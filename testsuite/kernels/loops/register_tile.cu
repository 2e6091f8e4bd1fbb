// Kernels whose inner loops make no access (testsuite/unit/test_loop_replay.c):
// the tracer replays such a loop when a warp runs it again on the same
// inputs. Sizes come from --param / --launch in the tests.
#define BM 32
#define BN 32
#define BK 8
#define TM 4
#define TN 4

// Register-tiled SGEMM: each of the 64 threads keeps a 4x4 tile of C in
// registers; the FMA loops over the tile touch registers only.
__global__ void sgemmRegisterTile(int M, int N, int K, const float *A, const float *B, float *C)
{
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    int tr = threadIdx.x / (BN / TN), tc = threadIdx.x % (BN / TN);
    A += blockIdx.y * BM * K;
    B += blockIdx.x * BN;
    C += blockIdx.y * BM * N + blockIdx.x * BN;
    float acc[TM * TN] = {0.0f};
    float rm[TM], rn[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = threadIdx.x; i < BM * BK; i += blockDim.x)
            As[i] = A[(i / BK) * K + i % BK];
        for (int i = threadIdx.x; i < BK * BN; i += blockDim.x)
            Bs[i] = B[(i / BN) * N + i % BN];
        __syncthreads();
        A += BK;
        B += BK * N;
        for (int d = 0; d < BK; ++d) {
            for (int m = 0; m < TM; ++m)
                rm[m] = As[(tr * TM + m) * BK + d];
            for (int n = 0; n < TN; ++n)
                rn[n] = Bs[d * BN + tc * TN + n];
            for (int m = 0; m < TM; ++m)
                for (int n = 0; n < TN; ++n)
                    acc[m * TN + n] += rm[m] * rn[n];
        }
        __syncthreads();
    }
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
            C[(tr * TM + m) * N + tc * TN + n] = acc[m * TN + n];
}

// An access-free loop entered on the same values every round: a branch that
// splits the warp, a division by a run-time value, a value loaded once per
// block; its result feeds the store's index.
__global__ void branchyOffsets(const int *in, float *out, int n, int q)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int base = in[blockIdx.x];
    for (int r = 0; r < 6; ++r) {
        int s = 0;
        int j = 0;
        while (j < 5) {
            if (threadIdx.x & 1)
                s += j / q;
            else
                s += base % 7 + j;
            j++;
        }
        out[(t + s + r * 32) % n] = 1.0f;
    }
}
