#include "runtime/issue_order.h"

#include <stdlib.h>

static int by_time(const void *pa, const void *pb)
{
    const hms_timed *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

bool hms_timed_sorted(const hms_timed *v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (by_time(&v[i - 1], &v[i]) > 0)
            return false;
    return true;
}

void hms_timed_sort(hms_timed *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, by_time);
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
    double *wt = hms_stream_warp_times(s);
    hms_timed *order = malloc((s->n ? s->n : 1) * sizeof *order);
    if (!wt || !order) {
        free(wt);
        free(order);
        return NULL;
    }
    if (blocks_per_wave == 0)
        blocks_per_wave = 1;
    double span = 1; /* instructions of the longest warp */
    for (size_t i = 0; i < s->n; i++)
        span = wt[i] + 1 > span ? wt[i] + 1 : span;
    for (size_t i = 0; i < s->n; i++) {
        double wave = (double)(s->v[i].block / blocks_per_wave);
        order[i] = (hms_timed){(wave * span + wt[i]) * warps_per_sm * cpi, i};
    }
    hms_timed_sort(order, s->n);
    free(wt);
    return order;
}
