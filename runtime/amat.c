/* AMAT, Huang & Li eq. 5 (seeds/000_2b7270bf81dd448e.txt). */
#include "runtime/amat.h"

#include <math.h>
#include <stdio.h>

double hms_amat(const hms_amat_inputs *in)
{
    /* A shared-memory request looks up no cache: hit_lat weighs the
     * off-chip share only (eq. 5 adds it to every request). */
    /* DRAM_lat is a load-to-use latency (Mei & Chu's P-chase, Huang & Li's
     * Algorithm 1 "ld.global.cs" probe): it already includes the trip
     * through L2, so a miss costs DRAM_lat, not DRAM_lat + hit_lat. A miss
     * never costs less than a hit (an estimated row-hit time may be). */
    double miss_lat = fmax(in->dram_latency, in->hit_latency);
    double hit_ratio = fmax(0.0, 1 - in->shmem_ratio - in->miss_ratio);
    return miss_lat * in->miss_ratio + in->hit_latency * hit_ratio +
           in->shmem_latency * in->shmem_ratio;
}

static bool bad_latency(double x)
{
    return !(x >= 0) || isinf(x);
}

static bool bad_ratio(double x)
{
    return !(x >= 0 && x <= 1);
}

bool hms_amat_check(const hms_amat_inputs *in, char *err, size_t errlen)
{
    const char *what = NULL;
    if (bad_latency(in->dram_latency))
        what = "dram_latency must be a finite number of cycles >= 0";
    else if (bad_latency(in->hit_latency))
        what = "hit_latency must be a finite number of cycles >= 0";
    else if (bad_latency(in->shmem_latency))
        what = "shmem_latency must be a finite number of cycles >= 0";
    else if (bad_ratio(in->miss_ratio))
        what = "miss_ratio must be in [0, 1]";
    else if (bad_ratio(in->shmem_ratio))
        what = "shmem_ratio must be in [0, 1]";
    else if (in->miss_ratio + in->shmem_ratio > 1 + 1e-12)
        what = "miss_ratio + shmem_ratio exceeds 1 (a request is either shared or off-chip)";
    if (what) {
        snprintf(err, errlen, "AMAT: %s", what);
        return false;
    }
    return true;
}

bool hms_amat_from_counts(double requests, double dram_requests, double shared_requests,
                          double dram_latency, double hit_latency, double shmem_latency,
                          hms_amat_inputs *out, char *err, size_t errlen)
{
    if (!(requests >= 0) || !(dram_requests >= 0) || !(shared_requests >= 0)) {
        snprintf(err, errlen, "AMAT: request counts must be >= 0");
        return false;
    }
    /* relative slack: counts scaled from a sample by a non-integer factor
     * round, and every request is DRAM, shared or a cache hit */
    if (dram_requests + shared_requests > requests * (1 + 1e-12)) {
        snprintf(err, errlen,
                 "AMAT: %.0f DRAM + %.0f shared requests exceed the %.0f requests in all",
                 dram_requests, shared_requests, requests);
        return false;
    }
    out->dram_latency = dram_latency;
    out->hit_latency = hit_latency;
    out->shmem_latency = shmem_latency;
    out->miss_ratio = requests > 0 ? dram_requests / requests : 0;
    out->shmem_ratio = requests > 0 ? shared_requests / requests : 0;
    return hms_amat_check(out, err, errlen);
}
