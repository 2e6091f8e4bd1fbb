/* Cache / TLB geometry from fine-grained P-chase runs (Mei & Chu, seeds/002
 * Sec. 3-4). Each run says, per offset, in how many measured passes it
 * missed; everything below reads those sets of missing offsets. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/infer.h"

#define DEFAULT_PASSES 8
/* LRU: a line of the one overflowing set misses in every pass; allow a few
 * passes lost to noise. Any non-LRU order saves some of them. */
#define LRU_MISS_FRACTION 0.95
#define MAX_LINE_STEPS 24 /* line search: elem_bytes * 2^24 at most */

typedef struct {
    hms_pchase_fn fn;
    void *ctx;
    const hms_infer_cache_opts *o;
    unsigned passes, min_miss;
    unsigned runs;
} prober;

/* One run's reading: missing offsets (ascending) and the latencies split at
 * the threshold. */
typedef struct {
    uint64_t *miss; /* offsets that missed in >= min_miss passes */
    size_t nmiss;
    double miss_frac; /* misses / (nmiss * measured passes), over those offsets */
    double hit_med, miss_med;
} reading;

static void reading_free(reading *r)
{
    free(r->miss);
    r->miss = NULL;
    r->nmiss = 0;
}

static bool run(prober *p, uint64_t bytes, uint64_t stride, reading *r, char *err, size_t errlen)
{
    *r = (reading){0};
    size_t n = (size_t)((bytes + stride - 1) / stride);
    size_t m = p->passes - 1;
    double *lat = malloc(n * m * sizeof *lat);
    unsigned *count = calloc(n, sizeof *count);
    double *hit = malloc(n * m * sizeof *hit), *mis = malloc(n * m * sizeof *mis);
    bool ok = lat && count && hit && mis;
    if (!ok)
        snprintf(err, errlen, "out of memory for a %llu-byte P-chase", (unsigned long long)bytes);
    else if (!(ok = p->fn(p->ctx, bytes, stride, p->passes, lat)))
        snprintf(err, errlen, "P-chase of %llu bytes at stride %llu failed",
                 (unsigned long long)bytes, (unsigned long long)stride);
    p->runs++;
    size_t nh = 0, nm = 0;
    const double cut = p->o->outlier > 0 ? p->o->outlier : INFINITY;
    for (size_t k = 0; ok && k < n * m; k++) {
        if (lat[k] > cut)
            continue;
        if (lat[k] > p->o->threshold)
            count[k % n]++;
        else
            hit[nh++] = lat[k];
    }
    if (ok) {
        /* the miss latency only from offsets that really miss */
        for (size_t k = 0; k < n * m; k++)
            if (lat[k] <= cut && lat[k] > p->o->threshold && count[k % n] >= p->min_miss)
                mis[nm++] = lat[k];
        r->hit_med = hms_infer_median(hit, nh);
        r->miss_med = hms_infer_median(mis, nm);
        size_t c = 0;
        for (size_t i = 0; i < n; i++)
            c += count[i] >= p->min_miss;
        r->miss = malloc((c ? c : 1) * sizeof *r->miss);
        ok = r->miss != NULL;
        double missed = 0;
        for (size_t i = 0; ok && i < n; i++)
            if (count[i] >= p->min_miss) {
                r->miss[r->nmiss++] = (uint64_t)i * stride;
                missed += count[i];
            }
        r->miss_frac = r->nmiss ? missed / ((double)r->nmiss * (double)m) : 0;
    }
    free(lat);
    free(count);
    free(hit);
    free(mis);
    if (!ok)
        reading_free(r);
    return ok;
}

/* Number of missing offsets of a walk of `bytes` at the finest stride; -1 on failure. */
static long long missing(prober *p, uint64_t bytes, char *err, size_t errlen)
{
    reading r;
    if (!run(p, bytes, p->o->elem_bytes, &r, err, errlen))
        return -1;
    long long n = (long long)r.nmiss;
    reading_free(&r);
    return n;
}

static unsigned log2u(uint64_t x)
{
    unsigned b = 0;
    while (x > 1) {
        x >>= 1;
        b++;
    }
    return b;
}

bool hms_infer_cache(hms_pchase_fn fn, void *ctx, const hms_infer_cache_opts *o,
                     hms_infer_cache_result *out, char *err, size_t errlen)
{
    *out = (hms_infer_cache_result){0};
    const uint64_t e = o->elem_bytes;
    if (e == 0 || o->max_bytes < 2 * e || !(o->threshold > 0)) {
        snprintf(err, errlen, "need elem_bytes > 0, max_bytes >= 2 x elem_bytes, threshold > 0");
        return false;
    }
    prober p = {fn, ctx, o, o->passes ? o->passes : DEFAULT_PASSES, 0, 0};
    if (p.passes < 3) {
        snprintf(err, errlen, "need at least 3 passes, got %u", p.passes);
        return false;
    }
    p.min_miss = o->min_miss_passes ? o->min_miss_passes : 1;
    if (p.min_miss > p.passes - 1)
        p.min_miss = p.passes - 1;

    /* Capacity: bisection between a walk that fits (one element) and one that
     * does not (max_bytes), in whole elements. */
    long long m_lo = missing(&p, e, err, errlen),
              m_hi = missing(&p, o->max_bytes / e * e, err, errlen);
    if (m_lo < 0 || m_hi < 0)
        return false;
    if (m_lo > 0) {
        snprintf(err, errlen, "a one-element walk misses: threshold %.1f is below the hit latency",
                 o->threshold);
        return false;
    }
    if (m_hi == 0) {
        snprintf(err, errlen,
                 "no miss up to %llu bytes: raise max_bytes or the threshold is "
                 "above the miss latency",
                 (unsigned long long)o->max_bytes);
        return false;
    }
    uint64_t lo = 1, hi = o->max_bytes / e; /* in elements: lo fits, hi does not */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        long long m = missing(&p, mid * e, err, errlen);
        if (m < 0)
            return false;
        if (m == 0)
            lo = mid;
        else
            hi = mid;
    }
    const uint64_t C = lo * e;

    /* One element over capacity: exactly one set overflows by one line. */
    reading one;
    if (!run(&p, C + e, e, &one, err, errlen))
        return false;
    /* Line: the number of missing offsets stays put while the walk grows
     * within that one extra line, and rises at the first byte of the next. */
    uint64_t line = 0;
    for (unsigned s = 1; s <= MAX_LINE_STEPS && !line; s++) {
        uint64_t k = (uint64_t)1 << s;
        long long m = missing(&p, C + k * e, err, errlen);
        if (m < 0) {
            reading_free(&one);
            return false;
        }
        if ((size_t)m > one.nmiss)
            line = (k / 2) * e;
    }
    bool ok = true;
    if (!line || one.nmiss < 2) {
        snprintf(err, errlen, "no line size found above %llu bytes (capacity %llu)",
                 (unsigned long long)e, (unsigned long long)C);
        ok = false;
    }
    uint64_t ways = one.nmiss - 1;
    if (ok && (C % (line * ways) != 0)) {
        snprintf(err, errlen,
                 "capacity %llu is not a whole number of %llu-byte lines x %llu ways: noisy "
                 "trace or unequal sets",
                 (unsigned long long)C, (unsigned long long)line, (unsigned long long)ways);
        ok = false;
    }
    if (ok) {
        out->size_bytes = C;
        out->line_bytes = (uint32_t)line;
        out->ways = (uint32_t)ways;
        out->sets = (uint32_t)(C / (line * ways));
        /* Set bits: the lowest bit above the line offset that every line of
         * the overflowing set shares. */
        unsigned lb = log2u(line), bit = lb;
        if (out->sets > 1) {
            for (; bit < 63; bit++) {
                uint64_t v = (one.miss[0] >> bit) & 1;
                bool same = true;
                for (size_t i = 1; i < one.nmiss && same; i++)
                    same = ((one.miss[i] >> bit) & 1) == v;
                if (same)
                    break;
            }
        }
        out->set_bit_low = bit == lb ? 0 : bit;
        out->replacement = one.miss_frac >= LRU_MISS_FRACTION ? HMS_REPL_LRU : HMS_REPL_RANDOM;
        out->hit_latency = one.hit_med;
        out->miss_latency = one.miss_med;
        out->runs = p.runs;
    }
    reading_free(&one);
    return ok;
}
