// Fine-grained P-chase (Mei & Chu, seeds/002 Sec. 3): one thread follows a
// chain of indices, timing every load with clock(); the loaded index is
// stored to shared memory before the second clock() so the load has to
// complete inside the timed window. Latencies above the run's threshold are
// kept one by one (access number and cycles); the others go to a histogram,
// so a walk of millions of accesses needs no per-access storage.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "runtime/probe/probe.h"

#define REC_MAX 2048      // misses kept per run
#define HIST_BINS 4096    // cycles 0..4095 (longer ones land in the last bin)
#define CONST_WORDS 16384 // 64 KB of __constant__ memory

__constant__ unsigned c_chain[CONST_WORDS];

struct pchase_out {
    unsigned hist[HIST_BINS];
    unsigned rec_k[REC_MAX], rec_lat[REC_MAX];
    unsigned nrec, above;
};

template <int S>
__device__ __forceinline__ unsigned probe_load(const unsigned *a, unsigned j, cudaTextureObject_t t)
{
    if (S == PROBE_L1)
        return __ldca(a + j);
    if (S == PROBE_L2)
        return __ldcg(a + j);
    if (S == PROBE_READONLY)
        return __ldg(a + j);
    if (S == PROBE_TEXTURE)
        return tex1Dfetch<unsigned>(t, (int)j);
    return c_chain[j];
}

template <int S>
__global__ void pchase_kernel(const unsigned *a, cudaTextureObject_t t, unsigned per_pass,
                              unsigned passes, unsigned threshold, pchase_out *out)
{
    __shared__ unsigned s_hist[HIST_BINS];
    __shared__ unsigned s_k[REC_MAX], s_lat[REC_MAX];
    __shared__ unsigned s_dep[2];
    for (unsigned b = 0; b < HIST_BINS; b++)
        s_hist[b] = 0;
    unsigned nrec = 0, above = 0, j = 0;
    unsigned long long total = (unsigned long long)per_pass * passes;
    for (unsigned long long k = 0; k < total; k++) {
        unsigned t0 = (unsigned)clock();
        j = probe_load<S>(a, j, t);
        s_dep[k & 1] = j;
        unsigned t1 = (unsigned)clock();
        if (k < per_pass)
            continue; // the first pass only warms the cache
        unsigned lat = t1 - t0;
        if (lat > threshold) {
            if (nrec < REC_MAX) {
                s_k[nrec] = (unsigned)(k - per_pass);
                s_lat[nrec] = lat;
                nrec++;
            }
            above++;
        } else
            s_hist[lat < HIST_BINS ? lat : HIST_BINS - 1]++;
    }
    for (unsigned b = 0; b < HIST_BINS; b++)
        out->hist[b] = s_hist[b];
    for (unsigned r = 0; r < nrec; r++) {
        out->rec_k[r] = s_k[r];
        out->rec_lat[r] = s_lat[r];
    }
    out->nrec = nrec;
    out->above = above + (s_dep[0] == 0xffffffffu); // keeps the chain alive
}

// a[i * w] = ((i + 1) % n) * w: the chain visits offsets 0, stride, 2 stride, ...
__global__ void chain_init(unsigned *a, unsigned n, unsigned w)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[(size_t)i * w] = ((i + 1) % n) * w;
}

void hms_probe_cuda_check(cudaError_t e, const char *what, const char *file, int line)
{
    if (e == cudaSuccess)
        return;
    fprintf(stderr, "hms-probe: error: %s (%s:%d): %s\n", what, file, line, cudaGetErrorString(e));
    exit(2);
}

bool probe_pchase_init(probe_pchase *p, probe_space s, size_t bytes_cap)
{
    memset(p, 0, sizeof *p);
    p->space = s;
    if (s == PROBE_CONSTANT) {
        p->bytes_cap = CONST_WORDS * sizeof(unsigned);
        return true;
    }
    p->bytes_cap = bytes_cap;
    if (cudaMalloc(&p->buf, bytes_cap) != cudaSuccess)
        return false;
    if (s == PROBE_TEXTURE) {
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = p->buf;
        rd.res.linear.desc = cudaCreateChannelDesc<unsigned>();
        rd.res.linear.sizeInBytes = bytes_cap;
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        td.readMode = cudaReadModeElementType;
        if (cudaCreateTextureObject(&p->tex, &rd, &td, nullptr) != cudaSuccess)
            return false;
    }
    return true;
}

void probe_pchase_free(probe_pchase *p)
{
    if (p->tex)
        cudaDestroyTextureObject(p->tex);
    cudaFree(p->buf);
    memset(p, 0, sizeof *p);
}

// One launch; returns the kernel's output in host memory.
static bool launch(probe_pchase *p, uint64_t bytes, uint64_t stride, unsigned passes,
                   double threshold, pchase_out *host)
{
    if (stride % 4 || stride == 0 || bytes > p->bytes_cap)
        return false;
    unsigned n = (unsigned)((bytes + stride - 1) / stride), w = (unsigned)(stride / 4);
    if (p->space == PROBE_CONSTANT) {
        std::vector<unsigned> chain(CONST_WORDS, 0);
        for (unsigned i = 0; i < n; i++)
            chain[(size_t)i * w] = ((i + 1) % n) * w;
        CUDA_OK(cudaMemcpyToSymbol(c_chain, chain.data(), CONST_WORDS * sizeof(unsigned)));
    } else {
        chain_init<<<256, 256>>>(p->buf, n, w);
        CUDA_OK(cudaGetLastError());
    }
    pchase_out *dev;
    CUDA_OK(cudaMalloc(&dev, sizeof *dev));
    unsigned thr = std::isfinite(threshold) ? (unsigned)threshold : 0xffffffffu;
    switch (p->space) {
    case PROBE_L1:
        pchase_kernel<PROBE_L1><<<1, 1>>>(p->buf, p->tex, n, passes, thr, dev);
        break;
    case PROBE_L2:
        pchase_kernel<PROBE_L2><<<1, 1>>>(p->buf, p->tex, n, passes, thr, dev);
        break;
    case PROBE_READONLY:
        pchase_kernel<PROBE_READONLY><<<1, 1>>>(p->buf, p->tex, n, passes, thr, dev);
        break;
    case PROBE_TEXTURE:
        pchase_kernel<PROBE_TEXTURE><<<1, 1>>>(p->buf, p->tex, n, passes, thr, dev);
        break;
    default:
        pchase_kernel<PROBE_CONSTANT><<<1, 1>>>(p->buf, p->tex, n, passes, thr, dev);
        break;
    }
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(host, dev, sizeof *host, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaFree(dev));
    p->launches++;
    return true;
}

static double hist_median(const unsigned *hist)
{
    unsigned long long total = 0, seen = 0;
    for (int b = 0; b < HIST_BINS; b++)
        total += hist[b];
    for (int b = 0; b < HIST_BINS; b++) {
        seen += hist[b];
        if (total && 2 * seen >= total)
            return b;
    }
    return NAN;
}

extern "C" bool probe_pchase_run(void *ctx, uint64_t bytes, uint64_t stride, unsigned passes,
                                 double *lat)
{
    probe_pchase *p = (probe_pchase *)ctx;
    pchase_out *h = (pchase_out *)malloc(sizeof *h);
    if (!h || !launch(p, bytes, stride, passes, p->threshold, h)) {
        free(h);
        return false;
    }
    size_t n = (size_t)((bytes + stride - 1) / stride), m = n * (passes - 1);
    double hit = hist_median(h->hist);
    for (size_t k = 0; k < m; k++)
        lat[k] = std::isnan(hit) ? p->threshold : hit;
    if (h->above > h->nrec) {
        // more misses than the record holds: their places are unknown, so
        // every access counts as a miss (only walks far over capacity do this)
        double worst = p->threshold + 1;
        for (unsigned r = 0; r < h->nrec; r++)
            worst = fmax(worst, h->rec_lat[r]);
        for (size_t k = 0; k < m; k++)
            lat[k] = worst;
    } else
        for (unsigned r = 0; r < h->nrec; r++)
            if (h->rec_k[r] < m)
                lat[h->rec_k[r]] = h->rec_lat[r];
    free(h);
    return true;
}

double probe_pchase_median(probe_pchase *p, uint64_t bytes, uint64_t stride)
{
    pchase_out *h = (pchase_out *)malloc(sizeof *h);
    double med = NAN;
    if (h && launch(p, bytes, stride, 3, INFINITY, h))
        med = hist_median(h->hist);
    free(h);
    return med;
}
