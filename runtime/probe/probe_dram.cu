// DRAM: Huang & Li's Algorithm 1 (seeds/000 Sec. III-C2) pair loads, and
// the peak read bandwidth. The pair kernel times the second of two L2-missing
// loads; the second address depends on the first load's value (the buffer
// is all zeros), so the two are served one after the other.
#include <cstdio>
#include <cstring>

#include "runtime/probe/probe.h"

__global__ void pair_kernel(const unsigned *a, unsigned long long first, unsigned long long second,
                            unsigned *out)
{
    __shared__ unsigned s_dep[2];
    unsigned v = __ldcg(a + first / 4);
    s_dep[0] = v;
    unsigned t1 = (unsigned)clock();
    unsigned w = __ldcg(a + second / 4 + v);
    s_dep[1] = w;
    unsigned t2 = (unsigned)clock();
    out[0] = t2 - t1;
    out[1] = s_dep[0] + s_dep[1];
}

// Streams a buffer larger than the L2 so that the pair's lines are evicted.
__global__ void flush_kernel(const uint4 *a, size_t n, unsigned *sink)
{
    unsigned acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = __ldcg(a + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x12345678u)
        sink[0] = acc;
}

bool probe_dram_init(probe_dram *d, size_t bytes, size_t l2_bytes)
{
    memset(d, 0, sizeof *d);
    d->bytes = bytes;
    d->flush_bytes = 4 * l2_bytes;
    if (cudaMalloc(&d->buf, bytes) != cudaSuccess || cudaMalloc(&d->flush, d->flush_bytes) ||
        cudaMalloc(&d->out, 2 * sizeof(unsigned)))
        return false;
    CUDA_OK(cudaMemset(d->buf, 0, bytes));
    CUDA_OK(cudaMemset(d->flush, 0, d->flush_bytes));
    return true;
}

void probe_dram_free(probe_dram *d)
{
    cudaFree(d->buf);
    cudaFree(d->flush);
    cudaFree(d->out);
    memset(d, 0, sizeof *d);
}

extern "C" bool probe_dram_pair(void *ctx, uint64_t first, uint64_t second, double *lat)
{
    probe_dram *d = (probe_dram *)ctx;
    if (first + 4 > d->bytes || second + 4 > d->bytes)
        return false;
    flush_kernel<<<1024, 256>>>((const uint4 *)d->flush, d->flush_bytes / sizeof(uint4), d->out);
    pair_kernel<<<1, 1>>>(d->buf, first & ~3ull, second & ~3ull, d->out);
    CUDA_OK(cudaGetLastError());
    unsigned h[2];
    CUDA_OK(cudaMemcpy(h, d->out, sizeof h, cudaMemcpyDeviceToHost));
    *lat = h[0];
    return true;
}

__global__ void read_kernel(const uint4 *a, size_t n, unsigned *sink)
{
    unsigned acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = __ldcg(a + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x12345678u)
        sink[0] = acc;
}

// Best of five timed passes over `bytes` (read only).
static double read_gbs(const uint4 *buf, size_t bytes, int reps, unsigned *sink)
{
    int sms = 0;
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaEvent_t e0, e1;
    CUDA_OK(cudaEventCreate(&e0));
    CUDA_OK(cudaEventCreate(&e1));
    double best = 0;
    for (int t = 0; t < 5; t++) {
        CUDA_OK(cudaEventRecord(e0));
        for (int r = 0; r < reps; r++)
            read_kernel<<<sms * 8, 512>>>(buf, bytes / sizeof(uint4), sink);
        CUDA_OK(cudaEventRecord(e1));
        CUDA_OK(cudaEventSynchronize(e1));
        float ms = 0;
        CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
        double gbs = (double)bytes * reps / (ms * 1e-3) / 1e9;
        best = gbs > best ? gbs : best;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return best;
}

double probe_dram_read_gbs(size_t bytes)
{
    uint4 *buf;
    unsigned *sink;
    CUDA_OK(cudaMalloc(&buf, bytes));
    CUDA_OK(cudaMalloc(&sink, sizeof *sink));
    CUDA_OK(cudaMemset(buf, 1, bytes));
    double gbs = read_gbs(buf, bytes, 1, sink);
    cudaFree(buf);
    cudaFree(sink);
    return gbs;
}

double probe_l2_bytes_per_clock(size_t l2_bytes, double clock_ghz)
{
    // a quarter of the L2, read over and over: after the first pass it hits
    size_t bytes = l2_bytes / 4 / sizeof(uint4) * sizeof(uint4);
    uint4 *buf;
    unsigned *sink;
    CUDA_OK(cudaMalloc(&buf, bytes));
    CUDA_OK(cudaMalloc(&sink, sizeof *sink));
    CUDA_OK(cudaMemset(buf, 1, bytes));
    double gbs = read_gbs(buf, bytes, 20, sink);
    cudaFree(buf);
    cudaFree(sink);
    return gbs / clock_ghz; // GB/s / (Gcycles/s) = bytes per cycle
}
