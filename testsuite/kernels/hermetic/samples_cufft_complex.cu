// CUDA-samples simpleCUFFT style: a pointwise complex multiply and scale
// between two cuFFT transforms, on cufftComplex (float2) data, with the
// cuComplex helpers; the FFTs themselves are library calls.
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>

static __device__ __host__ inline cufftComplex ComplexScale(cufftComplex a, float s)
{
    cufftComplex c;
    c.x = s * a.x;
    c.y = s * a.y;
    return c;
}

static __global__ void ComplexPointwiseMulAndScale(cufftComplex *a, const cufftComplex *b,
                                                   int size, float scale)
{
    const int numThreads = blockDim.x * gridDim.x;
    const int threadID = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = threadID; i < size; i += numThreads)
        a[i] = ComplexScale(cuCmulf(a[i], b[i]), scale);
}

static __global__ void magnitudes(float *out, const cufftDoubleComplex *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (float)(cuCreal(in[i]) * cuCreal(in[i]) + cuCimag(in[i]) * cuCimag(in[i]));
}

int main()
{
    const int N = 8192;
    cufftComplex *d_signal, *d_filter;
    cudaMalloc(&d_signal, N * sizeof(cufftComplex));
    cudaMalloc(&d_filter, N * sizeof(cufftComplex));
    cufftHandle plan;
    cufftPlan1d(&plan, N, CUFFT_C2C, 1);
    cufftExecC2C(plan, d_signal, d_signal, CUFFT_FORWARD);
    ComplexPointwiseMulAndScale<<<32, 256>>>(d_signal, d_filter, N, 1.0f / N);
    cufftExecC2C(plan, d_signal, d_signal, CUFFT_INVERSE);
    cufftDestroy(plan);
    float *d_mag;
    cufftDoubleComplex *d_z;
    cudaMalloc(&d_mag, N * sizeof(float));
    cudaMalloc(&d_z, N * sizeof(cufftDoubleComplex));
    magnitudes<<<N / 256, 256>>>(d_mag, d_z, N);
    return 0;
}
