// hms-probe: microbenchmarks that measure one GPU and write an architecture
// file for hms-lint --arch=. The CUDA side here only times accesses; every
// inference (traces -> parameters) is the plain C of runtime/infer.h, unit-
// tested on the model core's simulators. See docs/probe.md.
#ifndef HMS_PROBE_H
#define HMS_PROBE_H

#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

extern "C" {
#include "runtime/arch.h"
#include "runtime/arch_patch.h"
#include "runtime/infer.h"
}

// The probe's output format (the probe: section); hms-lint refuses newer ones.
#define HMS_PROBE_VERSION "1"

// Exits with "hms-probe: error: <what>: <CUDA reason>" on a CUDA failure.
#define CUDA_OK(call) hms_probe_cuda_check((call), #call, __FILE__, __LINE__)
void hms_probe_cuda_check(cudaError_t e, const char *what, const char *file, int line);

// Which path a P-chase reads through.
enum probe_space {
    PROBE_L1 = 0,   // ld.global.ca: L1 (and L2 behind it)
    PROBE_L2,       // ld.global.cg: L2 only (misses go to DRAM); also the TLB walk
    PROBE_READONLY, // __ldg
    PROBE_TEXTURE,  // tex1Dfetch
    PROBE_CONSTANT, // __constant__ memory (at most 64 KB)
    PROBE_SPACES
};

// State of the GPU-side P-chase: a buffer, a texture over it, and the
// threshold the kernel sorts latencies by (latencies above it are kept
// individually, the rest only as a histogram: a run records every miss but
// needs no per-access storage for hits).
struct probe_pchase {
    probe_space space;
    unsigned *buf; // device buffer, bytes_cap long
    size_t bytes_cap;
    cudaTextureObject_t tex;
    double threshold; // set before each hms_infer_cache call
    unsigned launches;
};

bool probe_pchase_init(probe_pchase *p, probe_space s, size_t bytes_cap);
void probe_pchase_free(probe_pchase *p);
// hms_pchase_fn over the GPU: ctx is a probe_pchase.
extern "C" bool probe_pchase_run(void *ctx, uint64_t bytes, uint64_t stride, unsigned passes,
                                 double *lat);
// Median latency of a walk with every access below `threshold` (pass
// INFINITY to get the plain median of everything).
double probe_pchase_median(probe_pchase *p, uint64_t bytes, uint64_t stride);

// hms_pair_fn over the GPU (Algorithm 1): ctx is a probe_dram.
struct probe_dram {
    unsigned *buf; // zero-filled: the loaded value feeds the next address
    size_t bytes;
    unsigned *flush; // streamed before each pair so that both loads miss the L2
    size_t flush_bytes;
    unsigned *out;
};
bool probe_dram_init(probe_dram *d, size_t bytes, size_t l2_bytes);
void probe_dram_free(probe_dram *d);
extern "C" bool probe_dram_pair(void *ctx, uint64_t first, uint64_t second, double *lat);

// Bandwidths and rates (figures, not latencies).
double probe_dram_read_gbs(size_t bytes); // GB/s
double probe_l2_bytes_per_clock(size_t l2_bytes, double clock_ghz);
double probe_shared_bytes_per_clock_sm(int sms, double clock_ghz);
double probe_issue_rate_sm(int sms, double clock_ghz); // warp instructions / cycle / SM
// Cycles per L2-missing warp load whose lanes are `stride_bytes` apart.
double probe_global_pattern_latency(unsigned stride_bytes);
// Cycles per shared access with a `ways`-way bank conflict (one warp).
double probe_shared_latency(int ways);

#endif
