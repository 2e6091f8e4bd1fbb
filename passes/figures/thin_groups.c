/* Thinning a sampled trace by whole co-resident groups (see thin_groups.h). */
#include "passes/figures/thin_groups.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t first, end;     /* traced blocks [first, end) */
    size_t records, lines; /* their work (lines once lines_known) */
    bool lines_known;
} group;

static uint64_t wave_of(uint64_t id, uint64_t round)
{
    return round ? id / round : id;
}

/* The traced blocks (ascending id) cut into runs of one wave each. */
static size_t split_groups(const hms_kernel_trace *t, uint64_t round, group *g)
{
    size_t n = 0;
    for (size_t b = 0; b < t->nblocks; b++) {
        uint64_t w = wave_of(t->blocks[b].id, round);
        if (n == 0 || w != wave_of(t->blocks[g[n - 1].first].id, round))
            g[n++] = (group){b, b, 0, 0, false};
        g[n - 1].end = b + 1;
        g[n - 1].records += t->blocks[b].count;
    }
    return n;
}

/* The group's lines, asked of w on first use; false when out of memory. */
static bool group_lines(const hms_kernel_trace *t, const hms_work_lines *w, group *g)
{
    for (size_t b = g->first; !g->lines_known && b < g->end; b++) {
        const size_t *rl = w->block_records(w->ctx, b);
        if (!rl)
            return false;
        for (size_t i = 0; i < t->blocks[b].count; i++)
            g->lines += rl[i];
    }
    g->lines_known = true;
    return true;
}

/* Pick j of k over n (k <= n): the middle of the j-th of k equal slices. */
static size_t spread_pick(size_t j, size_t k, size_t n)
{
    return (size_t)((2 * (uint64_t)j + 1) * n / (2 * (uint64_t)k));
}

/* The smallest warp stride s (keep warps 0, s, 2s, ...) at which the
 * blocks of `g` fit; the warps per block when none does. */
static uint32_t fitting_stride(const hms_kernel_trace *t, const hms_work_lines *w, const group *g,
                               size_t max_records, size_t max_lines)
{
    uint32_t wpb = t->warps_per_block ? (uint32_t)t->warps_per_block : 1;
    for (uint32_t st = 2; st < wpb; st++) {
        size_t records = 0, work = 0;
        for (size_t b = g->first; b < g->end; b++) {
            const hms_traced_block *B = &t->blocks[b];
            const size_t *rl = w->block_records(w->ctx, b); /* known: group_lines read it */
            if (!rl)
                return wpb; /* short of memory: as if no stride fitted */
            for (size_t i = B->first; i < B->first + B->count; i++)
                if (t->stream.v[i].warp % st == 0) {
                    records++;
                    work += rl[i - B->first];
                }
        }
        if (records <= max_records && work <= max_lines)
            return st;
    }
    return wpb;
}

/* Whether every warp of every block of `g` issued as many records as the
 * block's others (a GEMM's warps each load their share of the tiles; a
 * tree reduction's do not: warp 0 runs every step). Unequal warps cannot
 * stand for each other. False on allocation failure too. */
static bool warps_alike(const hms_kernel_trace *t, const group *g)
{
    size_t wpb = t->warps_per_block ? t->warps_per_block : 1;
    size_t *n = malloc(wpb * sizeof *n);
    bool alike = n != NULL;
    for (size_t b = g->first; alike && b < g->end; b++) {
        const hms_traced_block *B = &t->blocks[b];
        memset(n, 0, wpb * sizeof *n);
        for (size_t i = B->first; i < B->first + B->count; i++) {
            uint32_t w = t->stream.v[i].warp;
            alike = alike && w < wpb;
            if (w < wpb)
                n[w]++;
        }
        for (size_t w = 1; alike && w < wpb; w++)
            alike = n[w] == n[0];
    }
    free(n);
    return alike;
}

bool hms_thin_by_groups(const hms_kernel_trace *t, const hms_work_lines *w, uint64_t round,
                        size_t max_records, size_t max_lines, bool *keep, uint32_t *warp_stride)
{
    size_t nb = t->nblocks;
    *warp_stride = 1;
    for (size_t b = 0; b < nb; b++)
        keep[b] = false;
    if (nb == 0)
        return true;
    group *g = malloc(nb * sizeof *g);
    if (!g)
        return false;
    size_t n = split_groups(t, round, g);
    for (size_t k = n; k >= 1; k--) { /* the most groups that fit */
        size_t records = 0, work = 0;
        for (size_t j = 0; j < k; j++)
            records += g[spread_pick(j, k, n)].records;
        if (records > max_records)
            continue;
        for (size_t j = 0; j < k; j++) {
            group *x = &g[spread_pick(j, k, n)];
            if (!group_lines(t, w, x)) {
                free(g);
                return false;
            }
            work += x->lines;
        }
        if (work > max_lines)
            continue;
        for (size_t j = 0; j < k; j++) {
            const group *x = &g[spread_pick(j, k, n)];
            for (size_t b = x->first; b < x->end; b++)
                keep[b] = true;
        }
        free(g);
        return true;
    }
    group *mid = &g[spread_pick(0, 1, n)];
    if (warps_alike(t, mid)) {
        for (size_t b = mid->first; b < mid->end; b++)
            keep[b] = true;
        if (!group_lines(t, w, mid)) {
            free(g);
            return false;
        }
        *warp_stride = fitting_stride(t, w, mid, max_records, max_lines);
    } else {
        *warp_stride = 0; /* the caller thins by blocks */
    }
    free(g);
    return true;
}
