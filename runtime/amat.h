/* Average memory access latency, Huang & Li eq. 5
 * (seeds/000_2b7270bf81dd448e.txt, Section III-C; the OCR reads "DARM"):
 *   AMAT = DRAM_lat * miss_ratio + hit_lat + shmem_lat * shmem_ratio
 * with one change: hit_lat is weighed by the off-chip share (1 -
 * shmem_ratio), since a shared-memory request looks up no cache; the
 * paper's form charges it to shared requests too, which made a kernel that
 * stages its reads in shared memory pay a cache hit on every shared load.
 * One cache-hit latency (the L2's) stands for every cache, as in the paper.
 * Second change: a miss costs DRAM_lat, not DRAM_lat + hit_lat. The DRAM
 * latencies are load-to-use figures (Mei & Chu's P-chase; Huang & Li's own
 * Algorithm 1 times "ld.global.cs" loads from a thread), which already
 * include the L2 lookup; adding hit_lat counted it twice. So
 *   AMAT = max(DRAM_lat, hit_lat) * miss_ratio
 *        + hit_lat * (1 - miss_ratio - shmem_ratio) + shmem_lat * shmem_ratio. */
#ifndef HMS_RUNTIME_AMAT_H
#define HMS_RUNTIME_AMAT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    double dram_latency;  /* cycles: DRAM_lat, eq. 7 (runtime/dram.h) */
    double miss_ratio;    /* off-chip (global/constant/texture) requests that miss L2,
                             as a fraction of ALL memory requests, 0..1 */
    double hit_latency;   /* cycles: the L2 hit latency used for every cache */
    double shmem_latency; /* cycles: conflict-free shared-memory latency */
    double shmem_ratio;   /* shared-memory requests as a fraction of all requests, 0..1 */
} hms_amat_inputs;

/* Eq. 5 as above. Inputs are not checked; see hms_amat_check. */
double hms_amat(const hms_amat_inputs *in);

/* Inputs from counts over one launch: `requests` memory requests in all,
 * `dram_requests` of them served by DRAM (missed L2), `shared_requests` of
 * them to shared memory. False with a reason when the counts are
 * inconsistent (negative, dram + shared > requests). With no requests at all
 * both ratios are 0. */
bool hms_amat_from_counts(double requests, double dram_requests, double shared_requests,
                          double dram_latency, double hit_latency, double shmem_latency,
                          hms_amat_inputs *out, char *err, size_t errlen);

/* False with a reason when a latency is negative/NaN or a ratio is outside
 * [0, 1] or the two ratios sum above 1. */
bool hms_amat_check(const hms_amat_inputs *in, char *err, size_t errlen);

#endif
