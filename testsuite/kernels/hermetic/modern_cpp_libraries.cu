// Modern CUDA C++: standard library on the host (<iostream>, <vector>,
// <algorithm>, <memory>, <random>, <chrono>), constexpr sizes, functor
// templates, <cmath> in device code, cuRAND device API, half precision,
// the driver API and unified memory.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <curand_kernel.h>

constexpr int kThreads = 256;
constexpr unsigned kTile = 32;

template <typename T> struct Saxpy {
    T a;
    __host__ __device__ T operator()(T x, T y) const { return a * x + y; }
};

template <typename T, typename Op>
__global__ void transform(const T *x, T *y, std::size_t n, Op op)
{
    std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n)
        y[i] = op(x[i], y[i]);
}

__global__ void cmath_in_device(float *v, double *w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float f = v[i];
    v[i] = std::sqrt(f) + std::exp(f) + std::fabs(f) + std::min(f, 1.0f) + std::max(f, 0.0f) +
           sqrtf(f) + expf(f) + logf(f + 1.0f) + powf(f, 2.0f) + std::floor(f) + ceilf(f) +
           (std::isnan(f) ? 1.0f : 0.0f) + (isinf(f) ? 1.0f : 0.0f);
    double d = w[i];
    w[i] = sqrt(d) + exp(d) + log(d) + pow(d, 3.0) + sin(d) * cos(d) + fabs(d) + fmin(d, 2.0) +
           fmax(d, 1.0) + std::abs(d) + abs(-3) + floor(d) + trunc(d) + round(d);
    printf("thread %d: %f %f\n", i, v[i], w[i]);
}

__global__ void monteCarloPi(unsigned long long seed, unsigned int *hits, int samples)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState state;
    curand_init(seed, id, 0, &state);
    unsigned int local = 0;
    for (int s = 0; s < samples; ++s) {
        float x = curand_uniform(&state);
        float y = curand_uniform(&state);
        local += (x * x + y * y <= 1.0f);
    }
    atomicAdd(hits, local);
    curandStatePhilox4_32_10_t philox;
    curand_init(seed, id, 0, &philox);
    float4 u = curand_uniform4(&philox);
    if (u.x < 0.0f)
        hits[1] = curand(&state);
}

__global__ void haxpy(int n, __half a, const __half *x, __half *y)
{
    int start = threadIdx.x + blockDim.x * blockIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = start; i < n; i += stride)
        y[i] = __hfma(a, x[i], y[i]);
}

__global__ void h2axpy(int n, __half2 a, const __half2 *x, __half2 *y, float *sum)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i < n) {
        __half2 r = __hfma2(a, x[i], y[i]);
        y[i] = r;
        atomicAdd(sum, __low2float(r) + __high2float(r));
        __half h = __float2half(1.5f) + __float2half(2.0f);
        sum[1] = __half2float(h);
    }
}

struct Managed {
    int counter;
    float data[16];
};

__global__ void touchManaged(Managed *m)
{
    atomicAdd(&m->counter, 1);
    m->data[threadIdx.x % 16] += 1.0f;
}

int main()
{
    const std::size_t n = 1 << 20;
    std::vector<float> hx(n), hy(n);
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(0.0f, 1.0f);
    std::generate(hx.begin(), hx.end(), [&] { return dist(rng); });
    std::fill(hy.begin(), hy.end(), 1.0f);
    float *dx = nullptr, *dy = nullptr;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    auto t0 = std::chrono::steady_clock::now();
    const int blocks = static_cast<int>((n + kThreads - 1) / kThreads);
    transform<<<blocks, kThreads>>>(dx, dy, n, Saxpy<float>{2.0f});
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    std::cout << "saxpy took "
              << std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0).count() << " us\n";
    unsigned int *hits;
    cudaMallocManaged(&hits, 2 * sizeof(unsigned int));
    monteCarloPi<<<64, kThreads>>>(1234ULL, hits, 1000);
    Managed *m;
    cudaMallocManaged(&m, sizeof(Managed));
    cudaMemPrefetchAsync(m, sizeof(Managed), 0, 0);
    touchManaged<<<1, kTile>>>(m);
    auto owner = std::unique_ptr<float, std::function<void(float *)>>(dx, [](float *p) { cudaFree(p); });
    std::vector<int> idx(10);
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), std::greater<int>());
    std::cout << std::numeric_limits<float>::epsilon() << " " << std::string("done") << std::endl;
    CUdevice dev;
    cuInit(0);
    cuDeviceGet(&dev, 0);
    char name[128];
    cuDeviceGetName(name, sizeof name, dev);
    cudaFree(dy);
    cudaFree(hits);
    cudaFree(m);
    return 0;
}
