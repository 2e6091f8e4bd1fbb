// Global-memory latency by access pattern (Mei & Chu Sec. 4.1 style): one
// warp whose lanes read `stride` bytes apart (4: one 128-byte line, 32: one
// sector per lane, 128: one line per lane), each iteration at a fresh place
// 1 MB + 4 KB further on so that it misses the L2, the next address
// depending on the loaded value (the buffer is zero). Cycles per iteration.
#include "runtime/probe/probe.h"

#define STEPS 256
#define STEP_BYTES ((1u << 20) + 4096u)

__global__ void pattern_kernel(const unsigned *a, unsigned stride_words, unsigned *out)
{
    unsigned lane = threadIdx.x, v = 0;
    size_t at = 0;
    unsigned t0 = (unsigned)clock();
    for (int k = 0; k < STEPS; k++) {
        v = __ldcg(a + at / 4 + lane * stride_words + v);
        at += STEP_BYTES;
    }
    __syncwarp();
    unsigned t1 = (unsigned)clock();
    if (lane == 0)
        out[0] = t1 - t0;
    if (v == 0xffffffffu)
        out[1] = v;
}

double probe_global_pattern_latency(unsigned stride_bytes)
{
    size_t bytes = (size_t)STEPS * STEP_BYTES + 32 * 128;
    unsigned *buf, *out;
    CUDA_OK(cudaMalloc(&buf, bytes));
    CUDA_OK(cudaMemset(buf, 0, bytes));
    CUDA_OK(cudaMalloc(&out, 2 * sizeof(unsigned)));
    unsigned best = 0xffffffffu;
    for (int t = 0; t < 3; t++) {
        pattern_kernel<<<1, 32>>>(buf, stride_bytes / 4, out);
        unsigned h;
        CUDA_OK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
        best = h < best ? h : best;
    }
    cudaFree(buf);
    cudaFree(out);
    return (double)best / STEPS;
}
