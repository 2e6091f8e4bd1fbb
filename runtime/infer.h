/* Inference of hardware parameters from microbenchmark traces: the plain-C
 * half of hms-probe (runtime/probe/). The CUDA side only times accesses; every
 * decision about what the times mean is made here, so it is unit-tested on
 * traces from the model core's own cache, TLB and DRAM simulators.
 *
 * Sources: Mei & Chu, seeds/002 (fine-grained P-chase: the latency of every
 * access is recorded, so which addresses miss is known, not only how many);
 * Huang & Li, seeds/000 Algorithm 1 (row/column/bank bits from pairs of
 * uncached loads that differ in one address bit). Procedures and tolerances:
 * docs/probe.md. */
#ifndef HMS_RUNTIME_INFER_H
#define HMS_RUNTIME_INFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/arch.h"

/* ---- robust statistics ----------------------------------------------------- */

/* Median of n values (n > 0; the input is not changed). NAN for n == 0. */
double hms_infer_median(const double *v, size_t n);

/* Hit/miss boundary between two latency populations: the midpoint of their
 * medians. Medians make one outlier in a thousand harmless. */
double hms_infer_threshold(const double *lo, size_t nlo, const double *hi, size_t nhi);

/* ---- caches and TLBs (fine-grained P-chase) ------------------------------- */

/* Runs one fine-grained P-chase: an array of `bytes` at the probe's base
 * address, read at offsets 0, stride, 2*stride, ... (< bytes), the whole walk
 * repeated `passes` times. Writes the latency (cycles) of every access of
 * passes 2..passes into lat, pass by pass: (passes - 1) * ceil(bytes / stride)
 * values (the first pass only warms the cache). False on failure. */
typedef bool (*hms_pchase_fn)(void *ctx, uint64_t bytes, uint64_t stride, unsigned passes,
                              double *lat);

typedef struct {
    uint64_t elem_bytes;      /* finest stride: the size search's unit (e.g. 4, or a page
                                 fraction for a TLB) */
    uint64_t max_bytes;       /* upper end of the size search: must overflow the cache */
    double threshold;         /* latencies above it are misses of this level */
    unsigned passes;          /* walks per run (>= 3; default 8 when 0) */
    unsigned min_miss_passes; /* an offset "misses" when it missed in at least this many
                                 measured passes (default 1; 2-3 make moderate spikes of a
                                 hit harmless under LRU, see docs/probe.md) */
    double outlier;           /* latencies above it are discarded as timing spikes
                                 (neither hit nor miss); 0 = keep all */
} hms_infer_cache_opts;

typedef struct {
    uint64_t size_bytes; /* capacity: the largest array walked with no miss */
    uint32_t line_bytes;
    uint32_t ways;
    uint32_t sets;
    uint32_t set_bit_low; /* 0 = set index right above the line offset, as in hms_cache_geom */
    hms_replacement replacement;      /* HMS_REPL_LRU, or HMS_REPL_RANDOM for any non-LRU order */
    double hit_latency, miss_latency; /* medians (cycles) */
    unsigned runs;                    /* P-chase runs it took */
} hms_infer_cache_result;

/* Size by bisection over multiples of elem_bytes (capacity is the largest
 * walk with no missing offset); line size as the step at which the number of
 * missing offsets of a just-overflowing walk grows; ways as the number of
 * lines of the one overflowing set minus one; set bits as the lowest address
 * bit above the line offset that all of that set's lines share; LRU when
 * every line of that set misses in (nearly) every pass. Equal sets only.
 * False with a reason in err (no miss at max_bytes, a runner failure, an
 * inconsistent geometry). */
bool hms_infer_cache(hms_pchase_fn fn, void *ctx, const hms_infer_cache_opts *o,
                     hms_infer_cache_result *out, char *err, size_t errlen);

/* ---- DRAM address mapping (Huang & Li Algorithm 1) ------------------------ */

/* Latency (cycles) of an uncached load of `second` issued right after one of
 * `first`, both with every row buffer closed beforehand. False on failure. */
typedef bool (*hms_pair_fn)(void *ctx, uint64_t first, uint64_t second, double *lat);

typedef struct {
    unsigned low_bit, high_bit; /* bits tested: low_bit .. high_bit inclusive (<= 62) */
    const uint64_t *bases;      /* base addresses each bit is tested from (>= 1) */
    size_t nbases;
} hms_infer_dram_opts;

typedef struct {
    uint64_t row_bits, column_bits, bank_bits; /* masks over the tested bits */
    double hit, miss, conflict;                /* median latencies (cycles) */
} hms_infer_dram_result;

/* For each tested bit, the median latency over the bases of the pair (base,
 * base ^ bit): the lowest of three latency groups is a row hit (the bit is a
 * column bit), the highest a row conflict (a row bit), the middle a first
 * access to another bank (a bank bit). Groups are split at the two largest
 * gaps between sorted medians. False with a reason when fewer than three
 * groups show up (the range must hold all three kinds of bit). */
bool hms_infer_dram(hms_pair_fn fn, void *ctx, const hms_infer_dram_opts *o,
                    hms_infer_dram_result *out, char *err, size_t errlen);

#endif
