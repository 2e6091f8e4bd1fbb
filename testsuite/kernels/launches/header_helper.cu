// Three kernels (one a template with two instantiations) reach the same
// uncoalesced load in a header helper: the text report prints it once with a
// note naming every kernel it came from.
#include <cuda_runtime.h>
#include "strided_helper.cuh"

#define COLS 1024

__global__ void scale_columns(const float *m, float *out, float s)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = s * column_load(m, t, COLS, 3);
}

__global__ void shift_columns(const float *m, float *out, float s)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = s + column_load(m, t, COLS, 5);
}

template <int K>
__global__ void pick_column(const float *m, float *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = column_load(m, t, COLS, K);
}

int main()
{
    float *m, *out;
    cudaMalloc(&m, COLS * COLS * sizeof(float));
    cudaMalloc(&out, COLS * sizeof(float));
    scale_columns<<<COLS / 256, 256>>>(m, out, 2.0f);
    shift_columns<<<COLS / 256, 256>>>(m, out, 1.0f);
    pick_column<1><<<COLS / 256, 256>>>(m, out);
    pick_column<7><<<COLS / 256, 256>>>(m, out);
    return 0;
}
