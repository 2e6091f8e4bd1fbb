/* C-AMAT figures from an access timeline: seeds/003_b03420075c499a6c.txt,
 * Section 2.2 and its Figure 3 example. One sweep over the start/end events
 * splits time into segments of constant activity; each segment is a hit
 * segment (some access in its hit phase), a pure-miss segment (only misses
 * waiting) or idle. */
#include "runtime/camat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/merge_sort.h"

typedef struct {
    uint64_t t;
    int d_hit, d_miss; /* change in accesses in hit / miss phase */
} event;

static int cmp_event(const void *pa, const void *pb)
{
    const event *a = pa, *b = pb;
    return (a->t > b->t) - (a->t < b->t);
}

/* Events at one time are summed, so their order among themselves does not
 * matter. */
static inline bool event_before(const event *a, const event *b)
{
    return a->t < b->t;
}

HMS_DEFINE_MERGE_SORT(sort_events, event, event_before)

/* Pure-miss cycles in [0, t): `bounds` are the segment starts (sorted) and
 * `cum[i]` the pure cycles before bounds[i]. t is always an event time, so
 * it is one of the bounds. */
static uint64_t pure_before(const uint64_t *bounds, const uint64_t *cum, size_t nb, uint64_t t)
{
    size_t lo = 0, hi = nb;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (bounds[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return cum[lo < nb ? lo : nb - 1];
}

bool hms_camat_evaluate(const hms_camat_access *acc, size_t n, hms_camat_result *out,
                        uint64_t *pure_per_access, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return true;
    for (size_t i = 0; i < n; i++) {
        if (acc[i].hit_cycles == 0) {
            snprintf(err, errlen, "camat: access %zu has no hit phase (hit_cycles 0)", i);
            return false;
        }
    }
    size_t ne = 0;
    event *ev = malloc(3 * n * sizeof *ev);
    /* Segment bounds and the pure cycles before each, for per-access lookups. */
    uint64_t *bounds = malloc((3 * n + 1) * sizeof *bounds);
    uint64_t *cum = malloc((3 * n + 1) * sizeof *cum);
    if (!ev || !bounds || !cum) {
        free(ev);
        free(bounds);
        free(cum);
        snprintf(err, errlen, "camat: out of memory for %zu accesses", n);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t s = acc[i].start, h = s + acc[i].hit_cycles;
        ev[ne++] = (event){s, +1, 0};
        if (acc[i].miss_cycles) {
            ev[ne++] = (event){h, -1, +1};
            ev[ne++] = (event){h + acc[i].miss_cycles, 0, -1};
            out->misses++;
        } else {
            ev[ne++] = (event){h, -1, 0};
            out->hits++;
        }
        out->hit_access_cycles += acc[i].hit_cycles;
    }
    if (ne > 1 && !sort_events(ev, ne))
        qsort(ev, ne, sizeof *ev, cmp_event);

    long hits = 0, misses = 0;
    size_t nb = 0;
    uint64_t pure_so_far = 0;
    for (size_t i = 0; i < ne;) {
        uint64_t t = ev[i].t;
        for (; i < ne && ev[i].t == t; i++) {
            hits += ev[i].d_hit;
            misses += ev[i].d_miss;
        }
        bounds[nb] = t;
        cum[nb++] = pure_so_far;
        if (i == ne)
            break;
        uint64_t len = ev[i].t - t;
        if (hits > 0) {
            out->mem_cycles += len;
            out->hit_cycles += len;
        } else if (misses > 0) {
            out->mem_cycles += len;
            out->pure_cycles += len;
            out->pure_access_cycles += (uint64_t)misses * len;
            pure_so_far += len;
        }
    }
    /* Each miss's pure cycles: the pure cycles inside its miss phase. */
    for (size_t i = 0; i < n; i++) {
        uint64_t pure = 0;
        if (acc[i].miss_cycles) {
            uint64_t from = acc[i].start + acc[i].hit_cycles, to = from + acc[i].miss_cycles;
            pure = pure_before(bounds, cum, nb, to) - pure_before(bounds, cum, nb, from);
        }
        out->pure_misses += pure > 0;
        if (pure_per_access)
            pure_per_access[i] = pure;
    }
    free(ev);
    free(bounds);
    free(cum);

    double a = (double)n;
    out->accesses = n;
    out->h = (double)out->hit_access_cycles / a;
    out->c_h = out->hit_cycles ? (double)out->hit_access_cycles / (double)out->hit_cycles : 0;
    out->pmr = (double)out->pure_misses / a;
    out->pamp = out->pure_misses ? (double)out->pure_access_cycles / (double)out->pure_misses : 0;
    out->c_m = out->pure_cycles ? (double)out->pure_access_cycles / (double)out->pure_cycles : 0;
    out->camat = (double)out->mem_cycles / a;
    /* Eq. 2. With uneven hit times H is the mean hit time, which keeps the two
     * forms equal: H/C_H = hit_cycles/n and pMR*pAMP/C_M = pure_cycles/n. */
    out->camat5 = (out->c_h > 0 ? out->h / out->c_h : 0) +
                  (out->c_m > 0 ? out->pmr * out->pamp / out->c_m : 0);
    return true;
}
