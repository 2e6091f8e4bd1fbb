/* Stream generation driver: options, block sampling and budgets, block by
 * block tracing with barrier alignment, per-site counters, notes. The warp
 * interpreter is trace_exec.c, array addresses trace_layout.c. */
#include "passes/trace/stream_gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/trace/block_derive.h"
#include "passes/trace/sample.h"
#include "passes/trace/sample_stop.h"
#include "passes/trace/trace_internal.h"
#include "runtime/issue_order.h"

/* ---- notes -------------------------------------------------------------------- */

void trace_note(tracer *t, const char *fmt, ...)
{
    hms_kernel_trace *o = t->out;
    char buf[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < o->nnotes; i++)
        if (strcmp(o->notes[i], buf) == 0)
            return;
    if (o->nnotes >= HMS_TRACE_MAX_NOTES)
        return;
    if (o->nnotes == HMS_TRACE_MAX_NOTES - 1)
        snprintf(buf, sizeof buf, "further notes omitted");
    char **v = realloc(o->notes, (o->nnotes + 1) * sizeof *v);
    if (!v)
        return; /* a lost note is not worth failing the trace */
    o->notes = v;
    if ((v[o->nnotes] = strdup(buf)) != NULL)
        o->nnotes++;
}

const char *trace_loc_str(const tracer *t, ir_loc loc, char *buf, size_t len)
{
    const char *file = loc.file ? loc.file : t->k->loc.file;
    if (file)
        snprintf(buf, len, "%s:%u:%u", file, loc.line, loc.col);
    else
        snprintf(buf, len, "line %u:%u", loc.line, loc.col);
    return buf;
}

/* ---- options and variables -------------------------------------------------------- */

static hms_trace_options resolve_options(const hms_trace_options *in)
{
    hms_trace_options o = {0};
    if (in)
        o = *in;
    if (!o.max_blocks)
        o.max_blocks = HMS_SAMPLE_DEFAULT_BUDGET;
    if (!o.max_steps_per_warp)
        o.max_steps_per_warp = HMS_TRACE_DEFAULT_STEPS_PER_WARP;
    if (!o.max_steps)
        o.max_steps = HMS_TRACE_DEFAULT_STEPS;
    if (!o.max_records)
        o.max_records = HMS_TRACE_DEFAULT_RECORDS;
    if (!o.max_lines) /* a caller that raised max_records raises this with it */
        o.max_lines = (uint64_t)o.max_records * HMS_TRACE_LINES_PER_RECORD > HMS_TRACE_DEFAULT_LINES
                          ? (uint64_t)o.max_records * HMS_TRACE_LINES_PER_RECORD
                          : HMS_TRACE_DEFAULT_LINES;
    if (!o.default_param)
        o.default_param = HMS_TRACE_DEFAULT_PARAM;
    if (!o.unknown_trip_count)
        o.unknown_trip_count = HMS_TRACE_DEFAULT_TRIP_COUNT;
    if (!o.loop_summary_after)
        o.loop_summary_after = HMS_TRACE_DEFAULT_SUMMARY_AFTER;
    if (!o.default_array_bytes)
        o.default_array_bytes = HMS_TRACE_DEFAULT_ARRAY_BYTES;
    if (o.reach_probe) {                   /* the whole sample; loop summaries look at time */
        o.stop_tolerance = 0;              /* (skipping iterations only lowers the steps, so */
        o.loop_summary_after = UINT32_MAX; /* a probe within budget bounds the real trace) */
        /* A derived block's guards are checked against the representative's
         * logged evaluations, which the probe's untimed evaluation does not
         * make (block_derive.c): every block is traced. */
        o.no_block_derive = true;
    }
    return o;
}

bool hms_trace_param_value(const ir_kernel *k, const hms_trace_options *opt, int var,
                           int64_t *value, bool *approx)
{
    if (!k || var < 0 || (size_t)var >= k->nvars || k->vars[var].kind != IR_VAR_PARAM)
        return false;
    const ir_var *v = &k->vars[var];
    bool front_default = v->has_value && v->value_source && !strcmp(v->value_source, "default");
    *approx = true;
    if (v->has_value && !front_default) {
        *value = v->value;
        *approx = false;
        return true;
    }
    for (size_t i = 0; opt && i < opt->nparam_values; i++) {
        const char *name = opt->param_values[i].name;
        if (name && v->name && !strcmp(name, v->name)) {
            *value = opt->param_values[i].value;
            return true;
        }
    }
    if (front_default)
        *value = v->value;
    else
        *value = opt && opt->default_param ? opt->default_param : HMS_TRACE_DEFAULT_PARAM;
    return true;
}

static bool setup_vars(tracer *t)
{
    const ir_kernel *k = t->k;
    size_t n = k->nvars ? k->nvars : 1;
    t->var_init = malloc(n * sizeof *t->var_init);
    t->var_noted = calloc(n, sizeof *t->var_noted);
    t->loads = calloc(k->nsites ? k->nsites : 1, sizeof *t->loads);
    if (!t->var_init || !t->var_noted || !t->loads)
        return false;
    for (size_t i = 0; i < k->nvars; i++) {
        int64_t value;
        bool approx;
        if (hms_trace_param_value(k, &t->opt, (int)i, &value, &approx)) {
            hms_lanes_splat(&t->var_init[i], value);
            t->var_init[i].approx = approx ? HMS_ALL_LANES : 0;
        } else {
            hms_lanes_set_unknown(&t->var_init[i]); /* a local read before assignment */
        }
    }
    return trace_stamps_init(&t->stamps, k->nvars, t->var_init) && trace_replay_init(&t->replay, k);
}

/* ---- one block ------------------------------------------------------------------------ */

static int cmp_time_warp(const void *pa, const void *pb)
{
    const hms_warp_access *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return (a->warp > b->warp) - (a->warp < b->warp);
}

/* qsort(v, n, cmp_time_warp) done faster: a block's records come warp by
 * warp, each warp's in time order, so a natural merge sort of (time, the
 * record's rank by warp) takes log2(warps) passes, and the 300-byte records
 * are moved once, in place (cycle by cycle of the permutation). The rank
 * keeps records of one warp in their order, as the stable qsort does with
 * equal keys. False (v untouched) when a time is too large for a double, a
 * warp is out of range or memory is short. */
static bool sort_time_warp(hms_warp_access *v, size_t n, uint32_t wpb)
{
    size_t *first = calloc((size_t)wpb + 1, sizeof *first); /* rank of each warp's first */
    size_t *of_rank = malloc(n * sizeof *of_rank);          /* rank -> record */
    hms_timed *order = malloc(n * sizeof *order);
    bool ok = first && of_rank && order;
    for (size_t i = 0; ok && i < n; i++) {
        ok = v[i].warp < wpb && v[i].time <= ((uint64_t)1 << 53);
        if (ok)
            first[v[i].warp + 1]++;
    }
    for (uint32_t w = 0; ok && w < wpb; w++)
        first[w + 1] += first[w];
    for (size_t i = 0; ok && i < n; i++) {
        size_t rank = first[v[i].warp]++;
        of_rank[rank] = i;
        order[i] = (hms_timed){(double)v[i].time, rank};
    }
    if (ok) {
        hms_timed_sort(order, n);
        size_t *src = of_rank; /* src[k]: the record that goes to position k */
        for (size_t k = 0; k < n; k++)
            order[k].index = of_rank[order[k].index];
        for (size_t k = 0; k < n; k++)
            src[k] = order[k].index;
        hms_stream_permute(v, n, src);
    }
    free(first);
    free(of_rank);
    free(order);
    return ok;
}

/* A warp leaves barrier k when the block's last warp reaches it: shift each
 * record's time by the waiting its warp did, then order the block's records
 * by (time, warp). Within a warp every record has its own time, so the order
 * is total. Returns the number of barriers the block passed. */
static uint64_t align_barriers(tracer *t, trace_warp *warps)
{
    hms_stream *s = &t->out->stream;
    hms_warp_access *v = s->v ? s->v + t->block_first : NULL; /* NULL + 0 is UB */
    size_t n = s->n - t->block_first;
    size_t kmax = 0;
    for (uint32_t w = 0; w < t->wpb; w++)
        if (warps[w].narrivals > kmax)
            kmax = warps[w].narrivals;
    if (kmax > 0) {
        uint64_t *release = malloc(kmax * sizeof *release);
        if (!release) {
            t->oom = true;
            return kmax;
        }
        for (size_t k = 0; k < kmax; k++) {
            uint64_t prev = k ? release[k - 1] : 0, rel = prev;
            for (uint32_t w = 0; w < t->wpb; w++) {
                const trace_warp *W = &warps[w];
                if (W->narrivals <= k)
                    continue;
                uint64_t adj = prev + W->arrivals[k] - (k ? W->arrivals[k - 1] : 0);
                if (adj > rel)
                    rel = adj;
            }
            release[k] = rel;
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t e = t->epoch[i];
            if (e == 0)
                continue;
            const trace_warp *W = &warps[v[i].warp];
            v[i].time = release[e - 1] + (v[i].time - W->arrivals[e - 1]);
        }
        free(release);
    }
    if (n > 1 && !sort_time_warp(v, n, t->wpb)) /* v may be NULL when no accesses were made */
        qsort(v, n, sizeof *v, cmp_time_warp);
    return kmax;
}

/* Traces block id into *out (not its weight); true when every warp ran to
 * its end (no budget stopped or cut one). */
static bool trace_block(tracer *t, trace_warp *warps, uint64_t id, hms_traced_block *out)
{
    bool complete = true;
    out->flops = out->fp_insts = out->insts = 0;
    out->warps_run = 0;
    t->block = id;
    t->bid[0] = (int64_t)(id % t->gdim[0]);
    t->bid[1] = (int64_t)((id / t->gdim[0]) % t->gdim[1]);
    t->bid[2] = (int64_t)(id / ((uint64_t)t->gdim[0] * t->gdim[1]));
    t->block_first = t->out->stream.n;
    uint64_t lines0 = t->total_lines;
    for (uint32_t w = 0; w < t->wpb && !t->oom && !t->kernel_budget_hit; w++) {
        trace_warp *W = &warps[w];
        size_t first = t->out->stream.n;
        trace_warp_reset(t, W, w);
        trace_run_warp(t, W);
        out->warps_run += (W->stopped || W->cut) ? W->progress : 1;
        out->flops += (double)W->flops;
        out->fp_insts += (double)W->fp_insts;
        out->insts += (double)W->time; /* before barrier alignment: no waiting counted */
        if (W->stopped || W->cut) {    /* budget: what it emitted undercounts the warp's accesses */
            complete = false;
            for (size_t i = first; i < t->out->stream.n; i++)
                t->out->stream.v[i].exact = false;
        }
    }
    out->id = id;
    out->first = t->block_first;
    out->count = t->out->stream.n - t->block_first;
    out->lines = t->total_lines - lines0;
    out->barriers = t->oom ? 0 : align_barriers(t, warps);
    return complete && !t->oom && !t->kernel_budget_hit;
}

#ifdef HMS_TRACE_VERIFY_BLOCKS
/* Debug builds: derived block d is traced anyway (after its records, from
 * the state before it: touched ranges lo0/hi0, steps0), compared with it
 * (abort on a difference), and the derived state put back. */
static void verify_derived(tracer *t, trace_warp *warps, const hms_traced_block *d,
                           const int64_t *lo0, const int64_t *hi0, uint64_t steps0)
{
    hms_kernel_trace *o = t->out;
    size_t na = t->k->narrays ? t->k->narrays : 1;
    int64_t *lo1 = malloc(na * sizeof *lo1), *hi1 = malloc(na * sizeof *hi1);
    if (!lo1 || !hi1)
        abort();
    memcpy(lo1, t->touched_lo, t->k->narrays * sizeof *lo1);
    memcpy(hi1, t->touched_hi, t->k->narrays * sizeof *hi1);
    memcpy(t->touched_lo, lo0, t->k->narrays * sizeof *lo1);
    memcpy(t->touched_hi, hi0, t->k->narrays * sizeof *hi1);
    size_t n = o->stream.n, nnotes = o->nnotes;
    uint64_t steps = t->total_steps, lines = t->total_lines;
    bool exhausted = o->budget_exhausted;
    t->total_steps = steps0;
    t->total_lines = lines - d->lines;
    hms_traced_block r;
    /* the derived records are still in the stream: the record budget (and
     * the loop replays' fit to it) must not count them twice */
    size_t max_records = t->opt.max_records;
    t->opt.max_records += d->count;
    bool complete = trace_block(t, warps, d->id, &r);
    t->opt.max_records = max_records;
    if (!complete || t->total_steps != steps || t->total_lines != lines ||
        o->budget_exhausted != exhausted || o->nnotes != nnotes ||
        memcmp(lo1, t->touched_lo, t->k->narrays * sizeof *lo1) ||
        memcmp(hi1, t->touched_hi, t->k->narrays * sizeof *hi1)) {
        fprintf(stderr,
                "hms-lint: HMS_TRACE_VERIFY_BLOCKS: kernel '%s' block %llu: derived steps, "
                "lines, budgets, notes or touched ranges differ from its trace\n",
                t->k->name ? t->k->name : "?", (unsigned long long)d->id);
        abort();
    }
    trace_derive_verify(t, d, &r);
    o->stream.n = n;
    free(lo1);
    free(hi1);
}
#endif

/* The first block of a sample is traced as a representative later blocks
 * may be derived from (block_derive.h), logged only when there are later
 * blocks (`left`: how many); the others are derived when they can be, else
 * traced, as a further representative when the checks ask for one. */
static void trace_or_derive(tracer *t, trace_warp *warps, uint64_t id, bool first, size_t left,
                            hms_traced_block *out)
{
#ifdef HMS_TRACE_VERIFY_BLOCKS
    size_t na = t->k->narrays ? t->k->narrays : 1;
    int64_t *lo0 = malloc(na * sizeof *lo0), *hi0 = malloc(na * sizeof *hi0);
    uint64_t steps0 = t->total_steps;
    if (!lo0 || !hi0)
        abort();
    memcpy(lo0, t->touched_lo, t->k->narrays * sizeof *lo0);
    memcpy(hi0, t->touched_hi, t->k->narrays * sizeof *hi0);
    bool derived = !first && trace_derive_block(t, id, out);
    if (derived)
        verify_derived(t, warps, out, lo0, hi0, steps0);
    free(lo0);
    free(hi0);
    if (derived)
        return;
#else
    if (!first && trace_derive_block(t, id, out))
        return;
#endif
    uint64_t steps = t->total_steps, replays = t->replay.replays;
    /* the first block, or one the checks just refused: later ones may be
       translations of it where they were not of the earlier ones */
    bool log = first ? left > 0 : trace_derive_wants_rep(t, left);
    if (log)
        trace_derive_begin(t, first);
    bool complete = trace_block(t, warps, id, out);
    if (log)
        trace_derive_end(t, out, complete, steps, replays);
}

/* ---- the launch ------------------------------------------------------------------------- */

static void reset_touched(tracer *t)
{
    for (size_t i = 0; i < t->k->narrays; i++) {
        t->touched_lo[i] = INT64_MAX;
        t->touched_hi[i] = INT64_MIN;
    }
}

static bool sample(const tracer *t, uint64_t total, uint64_t budget, hms_block_sample *s)
{
    hms_residency r = {t->opt.sm_count, t->opt.blocks_per_sm};
    return hms_sample_blocks_resident(total, t->opt.first_wave_blocks, &r, budget, s);
}

/* Whether the stopping rule applies to sample s: a tolerance, a sampled
 * grid and at least three groups in the spread (with fewer, the rule waits
 * for the last group and nothing is left to skip). */
static bool stop_rule_on(const tracer *t, const hms_block_sample *s)
{
    return t->opt.stop_tolerance > 0 && s->sampled && hms_sample_count_groups(s, true) >= 3;
}

/* Sequential sampling (sample_stop.h): called when traced blocks [first, b)
 * complete one of the sample's groups; true when the groups traced so far
 * agree well enough that the rest of the sample is not traced. */
static bool group_done(tracer *t, hms_group_figures *g, hms_line_set *seen,
                       const hms_block_sample *s, size_t first, size_t b)
{
    hms_kernel_trace *o = t->out;
    if (!stop_rule_on(t, s) || g->nfig == 0 || b >= s->n) /* the last group: nothing left to skip */
        return false;
    double *x = malloc(g->nfig * sizeof *x);
    bool added = x != NULL;
    if (added) {
        added = hms_group_figures_of(o, t->k, first, b, t->opt.arch, seen, x) &&
                hms_group_figures_add(g, x);
    }
    free(x);
    if (!added) { /* short of memory: no early stop, the whole sample is traced */
        g->nfig = 0;
        return false;
    }
    uint32_t last = 0; /* the spread's last group (the highest number) */
    for (size_t i = 0; i < s->n; i++)
        last = s->v[i].group > last ? s->v[i].group : last;
    bool last_traced = false; /* hms_sample_last_group_second: the rule waits for it */
    for (size_t i = 0; i < b && !last_traced; i++)
        last_traced = s->v[i].group == last;
    if (!last_traced || !hms_group_figures_converged(g, t->opt.stop_tolerance))
        return false;
    o->stop_rse = hms_group_figures_rse(g, NULL);
    return true;
}

/* The trace stopped after blocks [0, b) of sample s: the traced blocks of
 * the spread (group > 0) stand for all of it; the first-wave stratum's
 * blocks still stand for themselves. */
static void stand_for_spread(tracer *t, const hms_block_sample *s, size_t b)
{
    hms_kernel_trace *o = t->out;
    double all = 0, traced = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].group > 0)
            all += s->v[i].weight;
    for (size_t i = 0; i < b; i++)
        if (s->v[i].group > 0)
            traced += s->v[i].weight;
    for (size_t i = 0; i < b; i++)
        if (s->v[i].group > 0 && traced > 0)
            o->blocks[i].weight *= all / traced;
    /* reported once, in the analysis's "sampled" limit (passes/analyze.c) */
    o->stopped_early = true;
}

static bool trace_sample(tracer *t, trace_warp *warps, uint64_t total)
{
    hms_kernel_trace *o = t->out;
    hms_block_sample s;
    if (!sample(t, total, t->opt.max_blocks, &s))
        return false;
    o->blocks = calloc(s.n, sizeof *o->blocks);
    hms_group_figures g;
    hms_group_figures_init(&g, HMS_STOP_FIG_SITES + o->nsites);
    hms_line_set seen = {0};
    if (!o->blocks) {
        hms_block_sample_free(&s);
        return false;
    }
    bool resampled = false, stopped = false;
    size_t b = 0, group_first = 0;
    o->groups_sampled = hms_sample_count_groups(&s, false);
    if (stop_rule_on(t, &s) && !hms_sample_last_group_second(&s))
        t->oom = true;
    while (b < s.n && !t->oom) {
        trace_or_derive(t, warps, s.v[b].id, b == 0, s.n - b - 1, &o->blocks[b]);
        o->blocks[b].weight = s.v[b].weight;
        b++;
        if (b == 1 && !resampled && s.n > 1) {
            /* Fit the sample to the budgets from what one block costs. */
            uint64_t recs = o->blocks[0].count ? o->blocks[0].count : 1;
            uint64_t steps = t->total_steps ? t->total_steps : 1;
            uint64_t lines = t->total_lines ? t->total_lines : 1;
            uint64_t fit_r = t->opt.max_records / recs, fit_s = t->opt.max_steps / steps;
            uint64_t fit_l = t->opt.max_lines / lines;
            uint64_t fit = fit_r < fit_s ? fit_r : fit_s;
            if (fit_l < fit)
                fit = fit_l;
            if (fit < 1)
                fit = 1;
            if (fit < s.n && t->opt.reach_probe) { /* the sample depends on the cost */
                o->budget_exhausted = true;
                break;
            }
            if (fit < s.n) {
                trace_note(t,
                           "block sample reduced from %zu to %llu blocks to fit the "
                           "analysis budget (one block issues %llu warp accesses; "
                           "--analysis-budget=<x> gives x times the work)",
                           s.n, (unsigned long long)fit, (unsigned long long)recs);
                hms_block_sample_free(&s);
                if (!sample(t, total, fit, &s)) {
                    hms_group_figures_free(&g);
                    hms_line_set_free(&seen);
                    return false;
                }
                o->groups_sampled = hms_sample_count_groups(&s, false);
                if (stop_rule_on(t, &s) && !hms_sample_last_group_second(&s))
                    t->oom = true;
                resampled = true;
                o->stream.n = 0;
                t->total_steps = 0;
                t->total_lines = 0;
                t->kernel_budget_hit = false;
                o->budget_exhausted = false;
                reset_touched(t);
                b = 0;
            }
        }
        if (t->kernel_budget_hit)
            break;
        if (b > 0 && (b == s.n || s.v[b].group != s.v[b - 1].group)) {
            o->groups_traced++;
            stopped = group_done(t, &g, &seen, &s, group_first, b);
            group_first = b;
            if (stopped)
                break;
        }
    }
    hms_group_figures_free(&g);
    hms_line_set_free(&seen);
    o->nblocks = b;
    for (size_t i = 0; s.sampled && i < b; i++)
        o->stratum_blocks += s.v[i].group == 0;
    if (stopped && !t->oom) {
        stand_for_spread(t, &s, b);
    } else if (b < s.n && !t->oom) {
        /* cut short: the traced blocks stand for the whole grid */
        double all = 0, traced = 0;
        for (size_t i = 0; i < s.n; i++)
            all += s.v[i].weight;
        for (size_t i = 0; i < b; i++)
            traced += o->blocks[i].weight;
        for (size_t i = 0; i < b; i++)
            o->blocks[i].weight *= traced > 0 ? all / traced : 1;
        trace_note(t, "analysis budget reached after %zu of %zu sampled blocks", b, s.n);
    }
    hms_block_sample_free(&s);
    if (!t->oom && !hms_trace_order_by_id(o))
        t->oom = true;
    return !t->oom;
}

/* The records' last pass: each active lane's address gets its array's base
 * (trace_layout_finish chose them; inactive lanes stay 0), and the sites'
 * counts are taken. */
static void finish_records(tracer *t)
{
    hms_kernel_trace *o = t->out;
    bool exact = !o->budget_exhausted;
    for (size_t b = 0; b < o->nblocks; b++) {
        const hms_traced_block *B = &o->blocks[b];
        for (size_t i = B->first; i < B->first + B->count; i++) {
            hms_warp_access *r = &o->stream.v[i];
            uint64_t base = o->arrays[r->array].base;
            for (int l = 0; l < HMS_WARP_LANES; l++)
                r->addr[l] += base & (0 - (uint64_t)(r->mask >> l & 1u));
            hms_site_trace *S = &o->sites[r->site];
            uint64_t reps = 1 + (uint64_t)r->extra; /* summarised loop iterations */
            S->requests += reps;
            S->lanes += reps * (uint64_t)hms_popcount32(r->mask);
            uint64_t first_thread = (uint64_t)r->warp * HMS_WARP_LANES;
            uint64_t threads = o->threads_per_block - first_thread;
            uint32_t present = threads >= HMS_WARP_LANES ? HMS_ALL_LANES : (1u << threads) - 1;
            if (r->mask != present)
                S->partial += reps;
            S->weighted_requests += B->weight * (double)reps;
            if (r->spread)
                S->spread += reps;
            if (!r->exact) {
                S->inexact += reps;
                exact = false;
            }
        }
    }
    o->exact = exact;
    o->flops = o->fp_insts = 0;
    double run = 0, all = 0;
    for (size_t b = 0; b < o->nblocks; b++) {
        const hms_traced_block *B = &o->blocks[b];
        o->flops += B->weight * B->flops;
        o->fp_insts += B->weight * B->fp_insts;
        run += B->weight * B->warps_run;
        all += B->weight * o->warps_per_block;
    }
    o->warp_coverage = all > 0 && run > 0 && run < all ? run / all : 1;
}

static bool run(tracer *t)
{
    const ir_kernel *k = t->k;
    hms_kernel_trace *o = t->out;
    for (int i = 0; i < 3; i++) {
        t->bdim[i] = k->launch.block[i];
        t->gdim[i] = k->launch.grid[i];
    }
    t->tpb = t->bdim[0] * t->bdim[1] * t->bdim[2];
    t->wpb = (t->tpb + HMS_WARP_LANES - 1) / HMS_WARP_LANES;
    o->threads_per_block = t->tpb;
    o->warps_per_block = t->wpb;
    uint64_t total = (uint64_t)t->gdim[0] * t->gdim[1] * t->gdim[2];
    o->blocks_total = total;
    if (total > UINT32_MAX)
        trace_note(t, "grid of %llu blocks: record block ids are kept modulo 2^32",
                   (unsigned long long)total);

    o->nsites = k->nsites;
    o->narrays = k->narrays;
    o->sites = calloc(k->nsites ? k->nsites : 1, sizeof *o->sites);
    o->arrays = calloc(k->narrays ? k->narrays : 1, sizeof *o->arrays);
    trace_warp *warps = calloc(t->wpb, sizeof *warps);
    hms_lanes *vars = malloc((k->nvars ? k->nvars : 1) * sizeof *vars);
    trace_value_table *values = calloc(1, sizeof *values);
    bool ok = o->sites && o->arrays && warps && vars && values && setup_vars(t) &&
              trace_layout_prepare(t) && trace_derive_setup(t);
    if (ok) {
        for (uint32_t w = 0; w < t->wpb; w++) {
            warps[w].vars = vars;     /* warps run one after another: one set of variables */
            warps[w].values = values; /* and one value table (run stamps) */
        }
        ok = trace_sample(t, warps, total) && trace_layout_finish(t);
    }
    if (warps)
        for (uint32_t w = 0; w < t->wpb; w++)
            free(warps[w].arrivals);
    free(warps);
    free(vars);
    free(values);
    if (!ok) {
        snprintf(o->error, sizeof o->error, "%s: kernel '%s': out of memory while tracing",
                 k->loc.file ? k->loc.file : "<unknown file>", k->name ? k->name : "?");
        return false;
    }
    o->blocks_simulated = o->nblocks;
    o->sampled = o->nblocks < total;
    o->scale = o->nblocks ? (double)total / (double)o->nblocks : 0;
    o->loop_replays = t->replay.replays;
    finish_records(t);
    return true;
}

static void tracer_free(tracer *t)
{
    free(t->var_init);
    free(t->var_noted);
    free(t->loads);
    trace_stamps_free(&t->stamps);
    trace_subtrees_free(&t->subtrees);
    trace_replay_free(&t->replay);
    trace_periodic_free(t);
    free(t->touched_lo);
    free(t->touched_hi);
    free(t->extent_bytes);
    free(t->size_known);
    free(t->local_bytes);
    free(t->pitch_known);
    free(t->pitch_bytes);
    free(t->epoch);
    trace_derive_free(t);
}

bool hms_trace_kernel(const ir_kernel *k, const hms_trace_options *opt, hms_kernel_trace *out)
{
    memset(out, 0, sizeof *out);
    hms_stream_init(&out->stream);
    if (!k) {
        snprintf(out->error, sizeof out->error, "no kernel to trace");
        return false;
    }
    tracer t;
    memset(&t, 0, sizeof t);
    t.k = k;
    t.out = out;
    t.opt = resolve_options(opt);
    bool ok = trace_validate(&t) && run(&t);
    tracer_free(&t);
    return ok;
}

void hms_kernel_trace_free(hms_kernel_trace *t)
{
    if (!t)
        return;
    hms_stream_free(&t->stream);
    free(t->blocks);
    free(t->sites);
    free(t->arrays);
    for (size_t i = 0; i < t->nnotes; i++)
        free(t->notes[i]);
    free(t->notes);
    memset(t, 0, sizeof *t);
}

const hms_traced_block *hms_trace_record_block(const hms_kernel_trace *t, size_t i)
{
    size_t lo = 0, hi = t->nblocks;
    while (lo < hi) { /* last block whose first record is <= i */
        size_t mid = lo + (hi - lo) / 2;
        if (t->blocks[mid].first <= i)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const hms_traced_block *b = &t->blocks[lo - 1];
    return i < b->first + b->count ? b : NULL;
}

double hms_trace_record_weight(const hms_kernel_trace *t, size_t i)
{
    const hms_traced_block *b = hms_trace_record_block(t, i);
    return b ? b->weight : 0;
}
