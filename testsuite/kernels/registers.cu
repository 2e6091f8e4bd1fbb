// Register estimates and __launch_bounds__ (testsuite/unit/test_registers.c).
#define TILE_THREADS 128

// A 2D register tile: acc[8][8] (64 words), a[8] and b[8] (8 each).
// hms-lint: launch grid(64) block(256)
__global__ void registerTile(float *out, const float *A, const float *B, int K)
{
    float acc[8][8] = {};
    float a[8], b[8];
    for (int k = 0; k < 64; k++) {
        for (int m = 0; m < 8; m++)
            a[m] = A[(k * 8 + m) * 256 + threadIdx.x];
        for (int n = 0; n < 8; n++)
            b[n] = B[(k * 8 + n) * 256 + threadIdx.x];
        for (int m = 0; m < 8; m++)
            for (int n = 0; n < 8; n++)
                acc[m][n] += a[m] * b[n];
    }
    for (int m = 0; m < 8; m++)
        for (int n = 0; n < 8; n++)
            out[(m * 8 + n) * 16384 + blockIdx.x * 256 + threadIdx.x] = acc[m][n];
}

// The same tile under __launch_bounds__(1024, 2): nvcc must fit 2 blocks
// of 1024 threads, 32 registers each on a 64K register file.
// hms-lint: launch grid(64) block(1024)
__global__ void __launch_bounds__(1024, 2) boundedTile(float *out, const float *A)
{
    float acc[8][8] = {};
    for (int k = 0; k < 16; k++)
        for (int m = 0; m < 8; m++)
            for (int n = 0; n < 8; n++)
                acc[m][n] += A[k * 1024 + threadIdx.x] * (float)(m + n);
    for (int m = 0; m < 8; m++)
        for (int n = 0; n < 8; n++)
            out[(m * 8 + n) * 65536 + blockIdx.x * 1024 + threadIdx.x] = acc[m][n];
}

// Bounds through a macro and through template arguments.
__global__ void __launch_bounds__(TILE_THREADS) macroBounds(float *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

template <int BM, int BN>
__global__ void __launch_bounds__((BM * BN) / 64, 1 + 1) templateBounds(float *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f;
}

// No register array: the typical count is assumed.
__global__ void plainCopy(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

void host(float *out, const float *A, const float *B)
{
    macroBounds<<<64, 128>>>(out);
    templateBounds<128, 64><<<64, 128>>>(out);
    plainCopy<<<64, 128>>>(out, A);
    (void)B;
}
