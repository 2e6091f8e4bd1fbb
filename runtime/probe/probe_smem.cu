// Shared memory and issue: latency by bank-conflict degree (one warp, a
// dependent chain in which lane l reads word l * ways, so `ways` lanes share
// each bank), the conflict-free shared bandwidth, and the warp-instruction
// issue rate of independent FMAs. Figures in SM cycles.
#include <cstdio>

#include "runtime/probe/probe.h"

#define CHAIN 512
#define SMEM_WORDS 2048

__global__ void smem_latency_kernel(int ways, unsigned *out)
{
    __shared__ unsigned s[SMEM_WORDS];
    unsigned lane = threadIdx.x;
    // every lane's word points back to itself: a dependent chain per lane
    for (unsigned i = lane; i < SMEM_WORDS; i += 32)
        s[i] = i;
    __syncwarp();
    unsigned j = (lane * (unsigned)ways) % SMEM_WORDS;
    unsigned t0 = (unsigned)clock();
    for (int k = 0; k < CHAIN; k++)
        j = s[j];
    __syncwarp();
    unsigned t1 = (unsigned)clock();
    if (lane == 0)
        out[0] = t1 - t0;
    if (j == 0xffffffffu)
        out[1] = j;
}

double probe_shared_latency(int ways)
{
    unsigned *out;
    CUDA_OK(cudaMalloc(&out, 2 * sizeof(unsigned)));
    unsigned best = 0xffffffffu;
    for (int t = 0; t < 5; t++) {
        smem_latency_kernel<<<1, 32>>>(ways, out);
        unsigned h;
        CUDA_OK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
        best = h < best ? h : best;
    }
    cudaFree(out);
    return (double)best / CHAIN;
}

__global__ void smem_bw_kernel(int iters, unsigned *sink)
{
    __shared__ uint4 s[1024];
    s[threadIdx.x] = make_uint4(threadIdx.x, 1, 2, 3);
    __syncthreads();
    unsigned acc = 0;
    for (int k = 0; k < iters; k++) {
        uint4 v = s[(threadIdx.x + k) & 1023]; // consecutive lanes, consecutive 16 B: no conflict
        acc += v.x ^ v.w;
    }
    if (acc == 0x12345678u)
        sink[0] = acc;
}

__global__ void issue_kernel(int iters, float *sink)
{
    float a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3;
    for (int k = 0; k < iters; k++) {
        a = fmaf(a, 1.0001f, 0.5f);
        b = fmaf(b, 1.0001f, 0.5f);
        c = fmaf(c, 1.0001f, 0.5f);
        d = fmaf(d, 1.0001f, 0.5f);
    }
    if (a + b + c + d == 0.123f)
        sink[0] = a;
}

static float time_ms(void (*launch)(int, void *), int arg, void *sink)
{
    cudaEvent_t e0, e1;
    CUDA_OK(cudaEventCreate(&e0));
    CUDA_OK(cudaEventCreate(&e1));
    float best = 1e30f;
    for (int t = 0; t < 5; t++) {
        CUDA_OK(cudaEventRecord(e0));
        launch(arg, sink);
        CUDA_OK(cudaEventRecord(e1));
        CUDA_OK(cudaEventSynchronize(e1));
        float ms;
        CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
        best = ms < best ? ms : best;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return best;
}

static int g_sms;
static void launch_smem(int iters, void *sink)
{
    smem_bw_kernel<<<g_sms * 2, 1024>>>(iters, (unsigned *)sink);
}
static void launch_issue(int iters, void *sink)
{
    issue_kernel<<<g_sms * 4, 512>>>(iters, (float *)sink);
}

double probe_shared_bytes_per_clock_sm(int sms, double clock_ghz)
{
    g_sms = sms;
    const int iters = 4096;
    void *sink;
    CUDA_OK(cudaMalloc(&sink, 16));
    float ms = time_ms(launch_smem, iters, sink);
    cudaFree(sink);
    double bytes = (double)sms * 2 * 1024 * iters * 16;
    return bytes / (ms * 1e-3) / (clock_ghz * 1e9) / sms;
}

double probe_issue_rate_sm(int sms, double clock_ghz)
{
    g_sms = sms;
    const int iters = 8192;
    void *sink;
    CUDA_OK(cudaMalloc(&sink, 16));
    float ms = time_ms(launch_issue, iters, sink);
    cudaFree(sink);
    double warp_insts = (double)sms * 4 * (512 / 32) * iters * 4; // 4 FMAs per iteration
    return warp_insts / (ms * 1e-3) / (clock_ghz * 1e9) / sms;
}
