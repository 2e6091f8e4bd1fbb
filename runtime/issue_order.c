#include "runtime/issue_order.h"

#include <stdlib.h>
#include <string.h>

static int by_time(const void *pa, const void *pb)
{
    const hms_timed *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static bool before(const hms_timed *a, const hms_timed *b)
{
    return a->time < b->time || (a->time == b->time && a->index < b->index);
}

/* Merges the sorted runs src[lo, mid) and src[mid, hi) into dst[lo, hi). */
static void merge_runs(const hms_timed *src, hms_timed *dst, size_t lo, size_t mid, size_t hi)
{
    size_t i = lo, j = mid, o = lo;
    while (i < mid && j < hi)
        dst[o++] = before(&src[j], &src[i]) ? src[j++] : src[i++];
    while (i < mid)
        dst[o++] = src[i++];
    while (j < hi)
        dst[o++] = src[j++];
}

/* A stream is a concatenation of warps whose records are already in time
 * order, so a natural merge sort (merge the sorted runs pairwise) takes
 * log2(runs) passes instead of a comparison sort's log2(n). The order is
 * by_time's, a total order, so the result is the one qsort gave. */
void hms_timed_sort(hms_timed *v, size_t n)
{
    size_t nruns = 1;
    for (size_t i = 1; i < n; i++)
        nruns += before(&v[i], &v[i - 1]);
    if (nruns == 1) /* already in order */
        return;
    size_t *start = malloc((nruns + 1) * sizeof *start);
    hms_timed *tmp = malloc(n * sizeof *tmp);
    if (!start || !tmp) { /* no room for the merge: sort in place */
        free(start);
        free(tmp);
        qsort(v, n, sizeof *v, by_time);
        return;
    }
    size_t r = 0;
    start[r++] = 0;
    for (size_t i = 1; i < n; i++)
        if (before(&v[i], &v[i - 1]))
            start[r++] = i;
    start[r] = n;
    hms_timed *src = v, *dst = tmp;
    while (nruns > 1) {
        size_t out = 0;
        for (size_t k = 0; k < nruns; k += 2) {
            size_t lo = start[k], hi = start[k + 2 <= nruns ? k + 2 : nruns];
            size_t mid = k + 1 < nruns ? start[k + 1] : hi;
            merge_runs(src, dst, lo, mid, hi);
            start[out++] = lo;
        }
        start[out] = n;
        nruns = out;
        hms_timed *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
    free(start);
    free(tmp);
}

typedef struct {
    uint64_t key; /* block << 32 | warp */
    size_t index;
} warp_key;

static int by_warp(const void *pa, const void *pb)
{
    const warp_key *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

double *hms_stream_warp_times(const hms_stream *s)
{
    double *t = malloc((s->n ? s->n : 1) * sizeof *t);
    if (!t)
        return NULL;
    int any = 0;
    for (size_t i = 0; i < s->n; i++) {
        t[i] = (double)s->v[i].time;
        any |= s->v[i].time != 0;
    }
    if (any || s->n == 0)
        return t;
    warp_key *k = malloc(s->n * sizeof *k);
    if (!k) {
        free(t);
        return NULL;
    }
    for (size_t i = 0; i < s->n; i++)
        k[i] = (warp_key){(uint64_t)s->v[i].block << 32 | s->v[i].warp, i};
    if (s->n > 1)
        qsort(k, s->n, sizeof *k, by_warp);
    double ord = 0;
    for (size_t i = 0; i < s->n; i++) {
        ord = (i > 0 && k[i].key == k[i - 1].key) ? ord + 1 : 0;
        t[k[i].index] = ord;
    }
    free(k);
    return t;
}

hms_timed *hms_stream_issue_order(const hms_stream *s, uint64_t blocks_per_wave,
                                  double warps_per_sm, double cpi)
{
    hms_timed *order = malloc((s->n ? s->n : 1) * sizeof *order);
    uint32_t *wave = malloc((s->n ? s->n : 1) * sizeof *wave); /* block / blocks_per_wave */
    if (!order || !wave) {
        free(order);
        free(wave);
        return NULL;
    }
    if (blocks_per_wave == 0)
        blocks_per_wave = 1;
    /* One pass over the records: each one's warp time (its `time` field,
     * as hms_stream_warp_times gives it when any record has a time) and
     * wave, parked in order[] until the span is known. */
    int any = 0;
    for (size_t i = 0; i < s->n; i++) {
        order[i] = (hms_timed){(double)s->v[i].time, i};
        any |= s->v[i].time != 0;
        wave[i] = (uint32_t)(s->v[i].block / blocks_per_wave);
    }
    if (!any && s->n > 0) { /* no times at all: positions within each warp */
        double *wt = hms_stream_warp_times(s);
        if (!wt) {
            free(order);
            free(wave);
            return NULL;
        }
        for (size_t i = 0; i < s->n; i++)
            order[i].time = wt[i];
        free(wt);
    }
    double span = 1; /* instructions of the longest warp */
    for (size_t i = 0; i < s->n; i++)
        span = order[i].time + 1 > span ? order[i].time + 1 : span;
    for (size_t i = 0; i < s->n; i++)
        order[i].time = ((double)wave[i] * span + order[i].time) * warps_per_sm * cpi;
    hms_timed_sort(order, s->n);
    free(wave);
    return order;
}
