/* The Huang & Li placement model per array (seeds/000_2b7270bf81dd448e.txt,
 * eqs. 1-5, 11-19; runtime/placement.h): the kernel as written, then every
 * legal space of every array re-simulated from the trace (runtime/
 * placement_events.h) and ranked. Also the kernel's predicted time as
 * written (T_comp, T_mem, T_overlap for the model figures).
 *
 * Inputs the paper takes from a profiler, and what we use instead:
 *  - issued instructions per warp: the trace's instruction count per warp
 *    (the last record's issue time + 1, so instructions after the last
 *    access and barrier waits are approximated) plus the replays of the
 *    kernel as written;
 *  - memory instructions per warp: the trace's requests / warps;
 *  - ILP, MLP: 1 (the model's default); W_serial: 0 (same in every
 *    placement, so it does not change the ranking);
 *  - an array whose size the IR does not know (a pointer parameter) is
 *    taken to span the elements the trace saw it touch, and the option's
 *    reason says so. */
#include "passes/analyze.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/analyze_internal.h"
#include "passes/checks/check_thresholds.h"
#include "passes/ir/load_groups.h"
#include "passes/ir/thread_private.h"
#include "passes/figures/shared_direct.h"
#include "passes/figures/thin_groups.h"
#include "passes/trace/sample.h"
#include "runtime/banks.h"
#include "runtime/coalesce.h"
#include "runtime/placement_events.h"
#include "runtime/units_memo.h"

#define HMS_PLACEMENT_LINE_BYTES 32
/* Records the placement model re-simulates per candidate (every legal space
 * of every array re-runs the whole stream through the caches and DRAM): at
 * most the line budget over this (32768 at the default budget); above,
 * fewer blocks are used (whole co-resident groups of a sampled trace) and
 * the counts are scaled to the launch. */
#define HMS_PLACEMENT_LINES_PER_RECORD 8

/* Work budget of one re-simulation, in cache lines the records touch (the
 * unit the caches and DRAM cost; passes/analysis_budget.h): scattered
 * accesses touch up to 32 lines a record, so the record cap alone would let
 * one kernel take many seconds. Above it, blocks are thinned further, and if
 * one block alone is over, its first records up to the budget stand for it. */
static size_t max_lines(const hms_check_ctx *c)
{
    return (size_t)c->budget.placement_lines;
}

typedef struct {
    bool used;
    bool readonly_path; /* records in the read-only space */
    uint64_t lo, hi;    /* touched bytes, space-relative */
    double block_bytes; /* most bytes one block touched */
} array_use;

/* Lines (HMS_PLACEMENT_LINE_BYTES) trace record i touches: its work unit. */
static size_t record_lines(const hms_check_ctx *c, size_t i)
{
    const hms_warp_access *r = &c->trace.stream.v[i];
    return r->mask ? hms_units_count(c->units, i, r, HMS_PLACEMENT_LINE_BYTES) : 0;
}

/* The trace's work lines (record_lines), worked out per block on first
 * use: a long trace is thinned to a share of its blocks, and only those
 * are weighed (hms_work_lines, thin_groups.h). */
typedef struct {
    const hms_check_ctx *c;
    size_t *rec;   /* [records] each record's lines, where its block is known */
    size_t *block; /* [blocks] the sum over the block's records */
    bool *known;   /* [blocks] */
} work_lines;

static const size_t *block_records(void *ctx, size_t b)
{
    work_lines *w = ctx;
    const hms_traced_block *B = &w->c->trace.blocks[b];
    if (!w->known[b]) {
        for (size_t i = B->first; i < B->first + B->count; i++) {
            w->rec[i] = record_lines(w->c, i);
            w->block[b] += w->rec[i];
        }
        w->known[b] = true;
    }
    return w->rec + B->first;
}

static size_t block_lines(work_lines *w, size_t b)
{
    block_records(w, b);
    return w->block[b];
}

/* What the pass needs from every trace record, in one pass over them (each
 * pass over the records is bound by memory): the arrays' uses (u) and the
 * executed instructions per warp, a block-weighted mean (*inst_per_warp). */
static bool scan_trace(const hms_check_ctx *c, array_use *u, double *inst_per_warp)
{
    const hms_kernel_trace *t = &c->trace;
    size_t na = c->k->narrays;
    size_t wpb = t->warps_per_block ? t->warps_per_block : 1;
    uint64_t *blo = malloc((na ? na : 1) * sizeof *blo), *bhi = malloc((na ? na : 1) * sizeof *bhi);
    uint64_t *last = calloc(wpb, sizeof *last);
    bool ok = blo && bhi && last;
    double sum = 0, weight = 0;
    for (size_t a = 0; a < na; a++)
        u[a].lo = UINT64_MAX;
    for (size_t b = 0; ok && b < t->nblocks; b++) {
        const hms_traced_block *B = &t->blocks[b];
        for (size_t a = 0; a < na; a++) {
            blo[a] = UINT64_MAX;
            bhi[a] = 0;
        }
        memset(last, 0, wpb * sizeof *last);
        for (size_t i = B->first; i < B->first + B->count; i++) {
            const hms_warp_access *r = &t->stream.v[i];
            if (r->warp < wpb && r->time + 1 > last[r->warp])
                last[r->warp] = r->time + 1;
            if (r->array >= na || !r->mask)
                continue;
            array_use *x = &u[r->array];
            x->used = true;
            if (r->space == HMS_SPACE_READONLY)
                x->readonly_path = true;
            uint64_t rlo = blo[r->array], rhi = bhi[r->array]; /* in registers over the lanes */
            for (int l = 0; l < HMS_WARP_LANES; l++) {
                if (!(r->mask >> l & 1))
                    continue;
                uint64_t lo = r->addr[l], hi = r->addr[l] + r->width;
                rlo = lo < rlo ? lo : rlo;
                rhi = hi > rhi ? hi : rhi;
            }
            blo[r->array] = rlo;
            bhi[r->array] = rhi;
        }
        for (size_t a = 0; a < na; a++) {
            if (blo[a] == UINT64_MAX)
                continue;
            u[a].lo = blo[a] < u[a].lo ? blo[a] : u[a].lo;
            u[a].hi = bhi[a] > u[a].hi ? bhi[a] : u[a].hi;
            double span = (double)(bhi[a] - blo[a]);
            u[a].block_bytes = span > u[a].block_bytes ? span : u[a].block_bytes;
        }
        /* A warp issues up to its exit, not only up to its last access: the
         * loop tests and barriers it still runs (a reduction's idle warps)
         * take issue slots too. */
        double block = 0;
        for (size_t w = 0; w < wpb; w++)
            block += (double)last[w];
        sum += B->weight * (B->insts > block ? B->insts : block);
        weight += B->weight * (double)wpb;
    }
    free(blo);
    free(bhi);
    free(last);
    *inst_per_warp = weight > 0 ? sum / weight : 0;
    return ok;
}

/* Off-chip loads per memory period, each site weighted by its warp
 * requests over the launch; 1 when it cannot be counted. */
static double load_mlp(const hms_check_ctx *c)
{
    const ir_kernel *k = c->k;
    if (!c->sites || c->nsites < k->nsites || k->nsites == 0)
        return 1;
    int *leader = malloc(k->nsites * sizeof *leader);
    double *count = malloc(k->nsites * sizeof *count);
    double mlp = 1;
    if (leader && count && ir_load_groups(k, leader)) {
        for (size_t s = 0; s < k->nsites; s++)
            count[s] = c->sites[s].requests;
        mlp = ir_load_mlp(k, leader, count);
    }
    free(leader);
    free(count);
    return mlp;
}

static double declared_bytes(const ir_array *a)
{
    if (a->ndims <= 0)
        return 0;
    double n = a->elem_bytes;
    for (int d = 0; d < a->ndims; d++) {
        if (a->dims[d] <= 0)
            return 0;
        n *= (double)a->dims[d];
    }
    return n;
}

static bool current_space(const ir_array *a, const array_use *u, hms_placement_space *out)
{
    if (!hms_placement_from_space(a->space, a->tex_dims > 0 ? a->tex_dims : 1, out))
        return false;
    if (*out == HMS_PLACE_GLOBAL && u->readonly_path)
        *out = HMS_PLACE_READONLY;
    return true;
}

/* Which traced blocks of a full enumeration a stream thinned about m-fold
 * keeps: a sample as the tracer takes one of a grid (passes/trace/sample.h,
 * groups of co-resident neighbours), so the kept blocks meet the cache state
 * their neighbours give them in the launch. (A sampled trace is already in
 * such groups and keeps whole ones, thin_groups.h; only when none fits and
 * its warps differ, every m-th block.) False on allocation failure. */
static bool thin_blocks(const hms_check_ctx *c, size_t m, bool *keep)
{
    const hms_kernel_trace *t = &c->trace;
    size_t nb = t->nblocks;
    for (size_t b = 0; b < nb; b++)
        keep[b] = b % m == 0;
    if (m == 1 || t->sampled || nb < 2)
        return true;
    hms_launch_geom g = hms_ctx_geom(c);
    hms_residency r = {g.sms, g.bps};
    hms_block_sample s;
    if (!hms_sample_blocks_resident(nb, 0, &r, (nb + m - 1) / m, &s))
        return false;
    for (size_t b = 0; b < nb; b++)
        keep[b] = false;
    for (size_t i = 0; i < s.n; i++)
        if (s.v[i].id < nb)
            keep[s.v[i].id] = true;
    hms_block_sample_free(&s);
    return true;
}

/* Which blocks to keep (and every how many warps of them) when the whole
 * trace is over the budgets; false on allocation failure. */
static bool choose_blocks(const hms_check_ctx *c, work_lines *wl, size_t m, size_t max_records,
                          size_t budget, bool *keep, uint32_t *warp_stride)
{
    const hms_kernel_trace *t = &c->trace;
    size_t nb = t->nblocks;
    *warp_stride = 1;
    if (t->sampled && nb >= 2) {
        /* already in co-resident groups: keep whole ones (thin_groups.h) */
        uint64_t round = (uint64_t)c->topt.sm_count * c->topt.blocks_per_sm;
        if (round == 0) {
            hms_launch_geom g = hms_ctx_geom(c);
            round = (uint64_t)g.sms * g.bps;
        }
        hms_work_lines w = {block_records, wl};
        if (!hms_thin_by_groups(t, &w, round, max_records, budget, keep, warp_stride))
            return false;
        if (*warp_stride > 0)
            return true;
        *warp_stride = 1; /* unequal warps: every m-th block below */
    }
    for (;;) { /* thin the blocks until the kept ones fit the line budget */
        if (!thin_blocks(c, m, keep))
            return false;
        size_t work = 0;
        for (size_t b = 0; b < nb; b++)
            work += keep[b] ? block_lines(wl, b) : 0;
        if (work <= budget || m >= nb)
            return true;
        m = m * 2 < nb ? m * 2 : nb;
    }
}

/* The stream the model re-simulates: the trace, or a thinned set of its
 * blocks when it is long (records or lines over the budgets); *blocks
 * gets how many blocks it holds (a block counts the share of its records
 * kept when some of its warps were left out or it was cut short).
 * *warp_stride > 1 when only every that many warps of each kept block are
 * in it. On a cut, *cut_kept / *cut_total say how many of that block's
 * records. A thinned stream's *src gives each record's trace index (NULL
 * when out of memory; the caller frees it). */
static bool model_stream(const hms_check_ctx *c, work_lines *wl, hms_stream *out, bool *own,
                         double *blocks, uint32_t *warp_stride, size_t *cut_kept, size_t *cut_total,
                         size_t **src)
{
    const hms_kernel_trace *t = &c->trace;
    size_t budget = max_lines(c);
    *own = false;
    *blocks = (double)t->nblocks;
    *warp_stride = 1;
    *cut_kept = *cut_total = 0;
    *src = NULL;
    size_t nb = t->nblocks;
    bool *keep = malloc((nb ? nb : 1) * sizeof *keep);
    bool ok = keep != NULL;
    size_t m = 1;
    size_t max_records = budget / HMS_PLACEMENT_LINES_PER_RECORD;
    if (max_records < 1)
        max_records = 1;
    if (t->stream.n > max_records && nb >= 2)
        m = (t->stream.n + max_records - 1) / max_records;
    size_t total = 0; /* every block's lines: only needed when m == 1 */
    for (size_t b = 0; m == 1 && b < nb; b++)
        total += block_lines(wl, b);
    if (ok && m == 1 && total <= budget) {
        free(keep);
        *out = t->stream;
        return true;
    }
    uint32_t stride = 1;
    ok = ok && choose_blocks(c, wl, m, max_records, budget, keep, &stride);
    if (ok) {
        hms_stream_init(out);
        *own = true;
        *blocks = 0;
        *warp_stride = stride;
        *src = malloc((t->stream.n ? t->stream.n : 1) * sizeof **src);
    }
    size_t work = 0;
    for (size_t b = 0; ok && b < nb; b++) {
        if (!keep[b])
            continue;
        const hms_traced_block *B = &t->blocks[b];
        size_t kept = 0;
        bool cut = false;
        /* a block that fits whole needs no per-record count (block_lines is their sum) */
        size_t lines = block_lines(wl, b);
        bool fits = stride == 1 && work + lines <= budget;
        for (size_t i = B->first; ok && i < B->first + B->count; i++) {
            hms_warp_access r = t->stream.v[i];
            if (r.warp % stride)
                continue;
            size_t w = fits ? 0 : wl->rec[i];
            if (work + w > budget && work > 0) {
                cut = true;
                break;
            }
            if (lines > budget || stride > 1)
                r.exact = false;
            ok = hms_stream_push(out, &r);
            if (ok && *src)
                (*src)[out->n - 1] = i;
            work += w;
            kept++;
        }
        if (fits)
            work += lines;
        *blocks += B->count && kept < B->count ? (double)kept / (double)B->count : 1;
        if (cut) { /* the budget ran out inside this block */
            *cut_kept = kept;
            *cut_total = B->count;
            break;
        }
    }
    free(keep);
    return ok;
}

static hms_placement_events_opts events_opts(const hms_check_ctx *c, double blocks)
{
    hms_launch_geom g = hms_ctx_geom(c);
    hms_placement_events_opts o = {0};
    o.active_sms = g.sms;
    o.warps_per_block = g.wpb;
    o.blocks_per_sm = g.bps;
    o.scale = blocks > 0 ? (double)c->trace.blocks_total / blocks : 1;
    return o;
}

static void rank_array(hms_check_ctx *c, const hms_stream *st, size_t id, const array_use *u,
                       const hms_placement_events_opts *eo)
{
    const ir_array *a = &c->k->arrays[id];
    hms_array_placement *p = &c->placements[id];
    char err[256];
    hms_placement_events cands[HMS_PLACE_COUNT];
    size_t n = 0;
    for (int s = 0; s < HMS_PLACE_COUNT; s++) {
        char why[200];
        if (!hms_placement_legal(c->arch, &c->fig.pk, &p->arr, (hms_placement_space)s, why,
                                 sizeof why))
            continue;
        if (!hms_placement_events_compute(st, c->arch, (uint32_t)id, (hms_placement_space)s,
                                          &p->arr, eo, &cands[n], err, sizeof err)) {
            snprintf(p->why, sizeof p->why, "placement events for %s: %.200s",
                     hms_placement_space_name((hms_placement_space)s), err);
            return;
        }
        n++;
    }
    (void)u;
    if (!hms_placement_rank(c->arch, &c->fig.pk, &p->arr, cands, n, &p->rank, err, sizeof err)) {
        snprintf(p->why, sizeof p->why, "%.250s", err);
        return;
    }
    p->ranked = true;
    (void)a;
}

/* Bank results for the shared records of a stream v derived from the
 * trace (a thinned copy, a shared-buffer variant), record j from trace
 * record src[j]: the trace's (c->banks) where the record is that one's
 * lanes unchanged, else computed. NULL when the
 * trace has none or out of memory (then the re-simulation computes them). */
static hms_bank_memo *variant_banks(const hms_check_ctx *c, const hms_stream *v, const size_t *src)
{
    if (!c->banks)
        return NULL;
    hms_bank_memo *b = calloc(v->n ? v->n : 1, sizeof *b);
    for (size_t j = 0; b && j < v->n; j++) {
        const hms_warp_access *r = &v->v[j];
        if (r->space != HMS_SPACE_SHARED || !r->mask)
            continue;
        const hms_warp_access *t = src[j] < c->trace.stream.n ? &c->trace.stream.v[src[j]] : NULL;
        if (t && t->space == HMS_SPACE_SHARED && hms_same_lanes(t, r))
            b[j] = c->banks[src[j]];
        else
            b[j].ok = hms_banks_warp(c->arch, r, &b[j].r);
    }
    return b;
}

/* The kernel with shared buffer sb read from global memory instead
 * (passes/figures/shared_direct.h), predicted by the same model on the same stream
 * as the kernel as written. Instructions per warp move by what the variant
 * drops and changes: each dropped fetch (1 + 2 addressing instructions) and
 * fill store (1 + 1), each buffer read turned global (2 addressing instead
 * of 1), and the replays of the re-simulated stream. */
static void predict_direct(hms_check_ctx *c, const hms_stream *st, bool own, const size_t *st_src,
                           const hms_placement_events_opts *eo, size_t sb)
{
    const ir_kernel *k = c->k;
    hms_array_placement *p = &c->placements[sb];
    const hms_placement_kernel *pk = &c->fig.pk;
    if (!c->fig.time_ok || sb >= c->trace.narrays || !(c->fig.cur.kernel.requests > 0))
        return;
    int ga = -1;
    for (size_t m = 0; m < k->nmappings && ga < 0; m++)
        if (k->mappings[m].shared_array == (int)sb)
            ga = k->mappings[m].global_array;
    if (ga < 0 || (size_t)ga >= k->narrays)
        return;
    hms_placement_space gspace;
    if (!hms_placement_from_space(k->arrays[ga].space, 1, &gspace))
        return;
    hms_stream v;
    size_t *vsrc = NULL;
    hms_direct_counts n;
    char err[256];
    if (!hms_direct_variant(k, st, (int)sb, c->trace.arrays[sb].base, c->trace.arrays[sb].extent,
                            &v, &vsrc, &n, err, sizeof err)) {
        hms_ctx_add_limit(c, "shared buffer '%s' not judged: %s", k->arrays[sb].name, err);
        return;
    }
    /* the variant's shared records copied unchanged read the trace's bank
     * results (each checked against its trace record); st is the trace, or
     * a thinned copy whose st_src gives the trace's records. (Its units are
     * computed: reading the trace's units memo, each record checked
     * against the trace's, saved nothing measurable.) */
    if (own && !st_src) {
        free(vsrc);
        vsrc = NULL;
    }
    for (size_t j = 0; vsrc && own && j < v.n; j++)
        vsrc[j] = st_src[vsrc[j]];
    hms_placement_events_opts o = *eo;
    o.memo = NULL; /* a memo belongs to one stream */
    o.units = NULL;
    hms_bank_memo *vbanks = vsrc ? variant_banks(c, &v, vsrc) : NULL;
    o.banks = vbanks;
    hms_placement_events ev;
    bool ok = v.n > 0 && hms_placement_events_compute(&v, c->arch, (uint32_t)ga, gspace, NULL, &o,
                                                      &ev, err, sizeof err);
    free(vbanks);
    free(vsrc);
    hms_stream_free(&v);
    if (!ok)
        return;
    double scale = eo->scale > 0 ? eo->scale : 1, W = pk->total_warps;
    double moved =
        (double)n.fetches_dropped * (1 + hms_placement_addr_insts_on(c->arch, gspace)) +
        (double)n.stores_dropped * (1 + hms_placement_addr_insts_on(c->arch, HMS_PLACE_SHARED));
    double added =
        (double)n.loads_out * (1 + hms_placement_addr_insts_on(c->arch, HMS_PLACE_GLOBAL)) -
        (double)n.loads_in * (1 + hms_placement_addr_insts_on(c->arch, HMS_PLACE_SHARED));
    hms_placement_kernel pv = *pk;
    pv.inst_issued += ((added - moved) * scale + ev.kernel.replays - c->fig.cur.kernel.replays) / W;
    pv.mem_insts *= ev.kernel.requests / c->fig.cur.kernel.requests;
    if (pv.inst_issued < pv.mem_insts)
        pv.inst_issued = pv.mem_insts;
    p->direct_ok = hms_placement_predict(c->arch, &pv, &ev, &ev, &p->direct, NULL, err, sizeof err);
}

/* Whether staging array id in shared memory could pay (runtime/placement.h
 * hms_staging_use): by the block's reuse of its elements in the model's
 * stream and the coalescing of its load sites. */
static hms_staging_use staging_use(const hms_check_ctx *c, const hms_stream *st, size_t id)
{
    hms_block_reuse r =
        hms_array_block_reuse(st, (uint32_t)id, c->arch->warp_size > 0 ? c->arch->warp_size : 32);
    if (r == HMS_BLOCK_REUSE_OWN_THREAD)
        return HMS_STAGING_OWN_THREAD;
    if (r != HMS_BLOCK_REUSE_NONE)
        return HMS_STAGING_MAY_PAY;
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        if (s->acc->array != (int)id || s->requests <= 0)
            continue;
        if (s->ideal_sectors <= 0 || s->sectors > s->ideal_sectors * HMS_STAGING_COALESCED_MAX)
            return HMS_STAGING_MAY_PAY;
    }
    return HMS_STAGING_READ_ONCE;
}

bool hms_an_placements(hms_check_ctx *c)
{
    const ir_kernel *k = c->k;
    c->narrays = k->narrays;
    c->placements = calloc(k->narrays ? k->narrays : 1, sizeof *c->placements);
    array_use *u = calloc(k->narrays ? k->narrays : 1, sizeof *u);
    if (!c->placements || !u) {
        free(u);
        return false;
    }
    size_t nb = c->trace.nblocks, n = c->trace.stream.n;
    work_lines wl = {c, malloc((n ? n : 1) * sizeof *wl.rec), calloc(nb ? nb : 1, sizeof *wl.block),
                     calloc(nb ? nb : 1, sizeof *wl.known)};
    double ipw = 0;
    bool scanned = wl.rec && wl.block && wl.known && scan_trace(c, u, &ipw);
    hms_launch_geom g = hms_ctx_geom(c);
    hms_stream st;
    bool own = false;
    double blocks = 0;
    size_t cut_kept = 0, cut_total = 0;
    uint32_t warp_stride = 1;
    size_t *src = NULL;
    bool made = scanned &&
                model_stream(c, &wl, &st, &own, &blocks, &warp_stride, &cut_kept, &cut_total, &src);
    free(wl.rec);
    free(wl.block);
    free(wl.known);
    if (!made) {
        if (own)
            hms_stream_free(&st);
        free(src);
        free(u);
        return false;
    }
    if (warp_stride > 1)
        hms_ctx_add_limit(c,
                          "analysis work budget reached: the placement model simulated every "
                          "%u-th warp of each block of one co-resident group (%zu cache lines "
                          "at most), so placement figures are estimates "
                          "(--analysis-budget=<x> gives x times the work)",
                          warp_stride, max_lines(c));
    if (cut_total)
        hms_ctx_add_limit(
            c,
            "analysis work budget reached: the placement model simulated the first "
            "%zu of one block's %zu warp accesses (%zu cache lines at most), so "
            "placement figures are estimates (--analysis-budget=<x> gives x times the "
            "work); bound data-dependent loops and "
            "parameters with --param=%s.<name>=<value> or "
            "// hms-lint: param <name>=<value>",
            cut_kept, cut_total, max_lines(c), c->k->name);
    hms_placement_events_opts eo = events_opts(c, blocks);
    eo.memo = hms_placement_events_memo_new(); /* NULL: each call works alone */
    /* NULL: computed; a thinned stream's records read the trace's rows */
    eo.units = own ? hms_units_memo_new_sub(&st, c->units, src) : c->units;
    hms_bank_memo *sub_banks = own && src ? variant_banks(c, &st, src) : NULL;
    eo.banks = own ? sub_banks : c->banks;

    /* The arrays that can be ranked, and the kernel's bytes in constant and
     * shared memory (what the other arrays leave for a moved one). */
    double const_bytes = 0;
    for (size_t i = 0; i < k->narrays; i++) {
        const ir_array *a = &k->arrays[i];
        hms_array_placement *p = &c->placements[i];
        p->arr.name = a->name;
        p->arr.written = a->written || a->atomic;
        p->arr.bytes = declared_bytes(a);
        if (p->arr.bytes <= 0 && u[i].used && u[i].hi > u[i].lo)
            p->arr.bytes = (double)(u[i].hi - u[i].lo);
        p->arr.shared_bytes_per_block = u[i].block_bytes;
        p->arr.elements = a->elem_bytes > 0 ? p->arr.bytes / a->elem_bytes : 0;
        if (u[i].used && a->space != HMS_SPACE_SHARED)
            p->arr.staging = staging_use(c, &st, i);
        if (a->space == HMS_SPACE_CONSTANT)
            const_bytes += p->arr.bytes > 0 ? p->arr.bytes : 0;
        if (!u[i].used)
            snprintf(p->why, sizeof p->why, "not accessed in the simulated launch");
        else if (!current_space(a, &u[i], &p->arr.current))
            snprintf(p->why, sizeof p->why, "local memory is not a placement choice");
        else
            p->ranked = true; /* provisional: eligible */
    }

    /* The kernel as written: any eligible array's events in its current space
     * carry the whole kernel's traffic and replays. */
    size_t first = k->narrays;
    for (size_t i = 0; i < k->narrays && first == k->narrays; i++)
        if (c->placements[i].ranked)
            first = i;
    c->fig.inst_per_warp = ipw;
    hms_placement_kernel *pk = &c->fig.pk;
    pk->total_warps = g.total_warps;
    pk->active_sms = g.sms;
    pk->warps_per_sm = g.warps_per_sm;
    /* Independent chains of register arrays (passes/figures/registers.h): the
     * unrolled loop that fills or updates one issues its instructions and
     * its loads (`regM[i] = As[...]`) back to back. MLP is also the off-chip
     * loads a warp issues before it needs one (passes/ir/load_groups.h). */
    pk->ilp = c->reg.ilp;
    c->fig.load_mlp = load_mlp(c);
    pk->mlp = c->reg.ilp > c->fig.load_mlp ? c->reg.ilp : c->fig.load_mlp;
    pk->mem_insts = g.total_warps > 0 ? c->fig.requests / g.total_warps : 0;
    pk->dram_channel_factor = c->fig.dram_channel_factor;
    bool ok = first < k->narrays;
    char err[256] = "no array the model can place";
    if (ok) {
        ok = hms_placement_events_compute(
            &st, c->arch, (uint32_t)first, c->placements[first].arr.current,
            &c->placements[first].arr, &eo, &c->fig.cur, err, sizeof err);
    }
    if (ok) {
        /* Issued = executed + replays (the paper's #inst); never below the
         * memory instructions and their addressing and replay instructions. */
        double replays = c->fig.cur.kernel.replays / (g.total_warps > 0 ? g.total_warps : 1);
        double floor_inst = pk->mem_insts * (1 + 2) + replays;
        pk->inst_issued = c->fig.inst_per_warp + replays;
        if (pk->inst_issued < floor_inst)
            pk->inst_issued = floor_inst;
        ok = hms_placement_predict(c->arch, pk, &c->fig.cur, &c->fig.cur, &c->fig.time,
                                   &c->fig.coeffs_default, err, sizeof err);
        c->fig.time_ok = ok;
    }
    if (!ok)
        hms_ctx_add_limit(c, "placement model not evaluated: %s", err);

    for (size_t i = 0; i < k->narrays; i++) {
        hms_array_placement *p = &c->placements[i];
        if (!p->ranked)
            continue;
        p->ranked = false;
        if (!ok) {
            snprintf(p->why, sizeof p->why, "%.250s", err);
            continue;
        }
        double shared_other = k->static_shared_bytes + (double)k->launch.shared_bytes;
        if (k->arrays[i].space == HMS_SPACE_SHARED)
            shared_other -= declared_bytes(&k->arrays[i]);
        pk->shared_bytes_per_block_used = shared_other > 0 ? shared_other : 0;
        double own_const = k->arrays[i].space == HMS_SPACE_CONSTANT ? p->arr.bytes : 0;
        pk->constant_bytes_used = const_bytes - (own_const > 0 ? own_const : 0);
        rank_array(c, &st, i, &u[i], &eo);
    }
    pk->shared_bytes_per_block_used = 0;
    pk->constant_bytes_used = 0;
    for (size_t i = 0; ok && i < k->narrays; i++)
        if (hms_direct_applicable(k, (int)i))
            predict_direct(c, &st, own, src, &eo, i);
    hms_placement_events_memo_free(eo.memo);
    free(sub_banks);
    free(src);
    if (own) {
        hms_units_memo_free(eo.units);
        hms_stream_free(&st);
    }
    free(u);
    return ok;
}
