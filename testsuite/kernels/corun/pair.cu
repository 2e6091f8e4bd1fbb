// Two kernels for hms-lint --corun (test_corun.c): a streaming copy that
// moves 64 MB through DRAM with a handful of instructions per element
// (memory-bound under HSM's classifier) and a polynomial evaluation that
// does 256 dependent FMAs per element it reads (compute-bound).
#include <cuda_runtime.h>

#define N (1 << 24)

__global__ void stream_copy(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void poly_eval(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i], acc = 0.0f;
        for (int k = 0; k < 256; k++)
            acc = acc * x + 1.0f;
        out[i] = acc;
    }
}

int main()
{
    float *a, *b;
    cudaMalloc(&a, N * sizeof(float));
    cudaMalloc(&b, N * sizeof(float));
    stream_copy<<<N / 256, 256>>>(b, a, N);
    poly_eval<<<N / 256, 256>>>(b, a, N);
    return 0;
}
