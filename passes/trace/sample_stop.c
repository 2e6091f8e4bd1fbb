/* Sequential sampling's stopping rule (see sample_stop.h). */
#include "passes/trace/sample_stop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/banks.h"
#include "runtime/coalesce.h"

bool hms_group_figures_init(hms_group_figures *g, size_t nfig)
{
    memset(g, 0, sizeof *g);
    g->nfig = nfig;
    return nfig > 0;
}

void hms_group_figures_free(hms_group_figures *g)
{
    free(g->x);
    memset(g, 0, sizeof *g);
}

bool hms_group_figures_add(hms_group_figures *g, const double *per_block)
{
    double *x = realloc(g->x, (g->ngroups + 1) * g->nfig * sizeof *x);
    if (!x)
        return false;
    g->x = x;
    memcpy(x + g->ngroups * g->nfig, per_block, g->nfig * sizeof *x);
    g->ngroups++;
    return true;
}

double hms_group_figures_rse(const hms_group_figures *g, size_t *which)
{
    if (which)
        *which = 0;
    size_t n = g->ngroups;
    if (n < 2)
        return INFINITY;
    double worst = 0;
    for (size_t f = 0; f < g->nfig; f++) {
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += g->x[i * g->nfig + f];
        double mean = sum / (double)n;
        if (mean == 0) /* figures are counts (>= 0): 0 in every group */
            continue;
        double ss = 0;
        for (size_t i = 0; i < n; i++) {
            double d = g->x[i * g->nfig + f] - mean;
            ss += d * d;
        }
        /* standard error of the mean of n group values, relative */
        double rse = sqrt(ss / (double)(n - 1) / (double)n) / fabs(mean);
        if (rse > worst) {
            worst = rse;
            if (which)
                *which = f;
        }
    }
    return worst;
}

bool hms_group_figures_converged(const hms_group_figures *g, double tolerance)
{
    return tolerance > 0 && g->ngroups >= HMS_STOP_MIN_GROUPS &&
           hms_group_figures_rse(g, NULL) <= tolerance;
}

void hms_line_set_free(hms_line_set *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

static size_t slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 33; /* mix (MurmurHash3's finaliser): line numbers are dense runs */
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

/* Adds line; true when it was not there yet. *ok false on allocation failure. */
static bool line_set_add(hms_line_set *s, uint64_t line, bool *ok)
{
    if (2 * (s->n + 1) > s->cap) { /* keep the load at most one half */
        size_t cap = s->cap ? 2 * s->cap : 1024;
        uint64_t *v = calloc(cap, sizeof *v);
        if (!v) {
            *ok = false;
            return false;
        }
        for (size_t i = 0; i < s->cap; i++)
            if (s->v[i]) {
                size_t j = slot_of(s->v[i], cap);
                while (v[j])
                    j = (j + 1) & (cap - 1);
                v[j] = s->v[i];
            }
        free(s->v);
        s->v = v;
        s->cap = cap;
    }
    uint64_t key = line + 1;
    size_t j = slot_of(key, s->cap);
    while (s->v[j]) {
        if (s->v[j] == key)
            return false;
        j = (j + 1) & (s->cap - 1);
    }
    s->v[j] = key;
    s->n++;
    return true;
}

static bool off_chip(uint8_t space)
{
    return space == HMS_SPACE_GLOBAL || space == HMS_SPACE_LOCAL || space == HMS_SPACE_TEXTURE ||
           space == HMS_SPACE_READONLY;
}

bool hms_group_figures_of(const hms_kernel_trace *t, const ir_kernel *k, size_t first, size_t end,
                          const hms_arch *arch, hms_line_set *seen, double *out)
{
    size_t nfig = HMS_STOP_FIG_SITES + t->nsites;
    for (size_t f = 0; f < nfig; f++)
        out[f] = 0;
    if (end <= first)
        return true;
    bool ok = true;
    uint64_t units[HMS_WARP_UNITS_MAX];
    for (size_t b = first; b < end; b++) {
        const hms_traced_block *B = &t->blocks[b];
        out[HMS_STOP_FIG_LINES] += (double)B->lines;
        out[HMS_STOP_FIG_INSTS] += B->insts;
        for (size_t i = B->first; i < B->first + B->count; i++) {
            const hms_warp_access *r = &t->stream.v[i];
            double reps = hms_record_reps(r);
            out[HMS_STOP_FIG_REQUESTS] += reps;
            if (r->site < t->nsites)
                out[HMS_STOP_FIG_SITES + r->site] += reps;
            hms_bank_result br;
            if (arch && r->space == HMS_SPACE_SHARED && r->mask && hms_banks_warp(arch, r, &br))
                out[HMS_STOP_FIG_BANK_PASSES] += reps * (double)br.wavefronts;
            if (off_chip(r->space) && r->mask && hms_access_check(r, NULL, 0)) {
                /* during tracing addresses are relative to the array's base
                 * (trace_layout.c places arrays after): key by array and line */
                uint64_t array = 0;
                if (k && r->site < k->nsites && k->sites[r->site] && k->sites[r->site]->array >= 0)
                    array = (uint64_t)k->sites[r->site]->array & 0xfff;
                size_t n = hms_warp_units(r, HMS_TRACE_LINE_BYTES, units);
                for (size_t u = 0; u < n && ok; u++)
                    out[HMS_STOP_FIG_NEW_LINES] += line_set_add(seen, units[u] << 12 | array, &ok);
            }
        }
    }
    for (size_t f = 0; f < nfig; f++)
        out[f] /= (double)(end - first);
    return ok;
}

/* ---- the trace order ---------------------------------------------------------------- */

uint32_t hms_sample_count_groups(const hms_block_sample *s, bool spread_only)
{
    uint32_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += (!spread_only || s->v[i].group > 0) && (i == 0 || s->v[i].group != s->v[i - 1].group);
    return n;
}

bool hms_sample_last_group_second(hms_block_sample *s)
{
    size_t first = 0;
    while (first < s->n && s->v[first].group == 0)
        first++;
    if (first == s->n)
        return true;
    uint32_t g1 = s->v[first].group, gl = s->v[s->n - 1].group;
    if (gl <= g1 + 1)
        return true; /* at most two spread groups: already in that order */
    hms_sampled_block *v = malloc(s->n * sizeof *v);
    if (!v)
        return false;
    size_t n = 0;
    for (int pass = 0; pass < 4; pass++)
        for (size_t i = 0; i < s->n; i++) {
            uint32_t g = s->v[i].group;
            bool take = pass == 0   ? g == 0
                        : pass == 1 ? g == g1
                        : pass == 2 ? g == gl
                                    : g != 0 && g != g1 && g != gl;
            if (take)
                v[n++] = s->v[i];
        }
    free(s->v);
    s->v = v;
    return true;
}

static int cmp_block_id(const void *pa, const void *pb)
{
    const hms_traced_block *a = pa, *b = pb;
    return (a->id > b->id) - (a->id < b->id);
}

bool hms_trace_order_by_id(hms_kernel_trace *o)
{
    bool sorted = true;
    for (size_t b = 1; b < o->nblocks && sorted; b++)
        sorted = o->blocks[b - 1].id < o->blocks[b].id;
    if (sorted)
        return true;
    /* src[k]: the record that goes to position k; the records move in
     * place (a second stream would double the trace's memory) */
    size_t *src = malloc((o->stream.n ? o->stream.n : 1) * sizeof *src);
    if (!src)
        return false;
    qsort(o->blocks, o->nblocks, sizeof *o->blocks, cmp_block_id);
    size_t n = 0;
    for (size_t b = 0; b < o->nblocks; b++) {
        hms_traced_block *B = &o->blocks[b];
        for (size_t j = 0; j < B->count; j++)
            src[n + j] = B->first + j;
        B->first = n;
        n += B->count;
    }
    hms_stream_permute(o->stream.v, n, src);
    free(src);
    return true;
}
