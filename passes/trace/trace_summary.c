/* Periodic-loop summary: a long loop whose iteration k+1 is iteration k
 * shifted (passes/trace/loop_period.h) is traced for a few iterations, the rest
 * are accounted for by repeat counts on the traced records (record.extra)
 * and the warp jumps to the loop's state after them, so the loop's last
 * iterations and the code after it are traced as usual.
 *
 * At the top of iteration H (H >= 3) the tracer has the variables at the
 * tops of H-2, H-1 and H. If their differences over both iterations agree,
 * the instruction time, barriers, live lanes and record layout of both
 * iterations agree, and the loop is statically shift-periodic, every
 * variable is affine in the iteration number: the state at the top of H+j is
 * x(H) + j*d. The loop condition is monotone per lane, so the iterations
 * every live lane still runs are found by a search on j; a loop shorter than
 * opt.loop_summary_after in all is traced in full. Skipped iteration H+j
 * repeats traced iteration h = H-P..H-1 with * h = H+j mod P, where P is the smallest period after
 * which every record's lane addresses are shifted uniformly by a multiple of 128 bytes (a cache
 * line, and 32 four-byte banks): their sectors, lines and bank wavefronts
 * are then exactly those of h. A record whose shift is not uniform across
 * its lanes, or needs a period longer than HMS_TRACE_SUMMARY_MAX_PERIOD,
 * stands for iterations whose coalescing may differ: it is marked inexact.
 * Cache and DRAM outcomes of skipped iterations are those of the traced
 * ones, scaled: an estimate. */
#include <stdlib.h>
#include <string.h>

#include "passes/trace/loop_period.h"
#include "passes/trace/trace_internal.h"

#define ALIGN_PERIOD_BYTES 128
#define MAX_SKIP ((uint64_t)1 << 31)
#define MAX_SYNTH_ARRIVALS ((uint64_t)1 << 22)

void trace_summary_init(trace_summary *s)
{
    memset(s, 0, sizeof *s);
    s->bound = UINT64_MAX;
}

void trace_summary_free(trace_summary *s)
{
    free(s->snap);
    free(s->snap_stamp);
    free(s->carried);
    s->snap = NULL;
    s->snap_stamp = NULL;
    s->carried = NULL;
}

/* Iterations traced before the first attempt: two differences to compare. */
#define MIN_HEAD 3

/* Iterations after which record b's lanes (b: a one iteration later) repeat
 * a's pattern shifted by a multiple of the alignment period, with the
 * per-iteration shift in *shift; 0 when the lanes shift by different
 * amounts. */
static uint64_t record_period(const hms_warp_access *a, const hms_warp_access *b, int64_t *shift)
{
    int64_t d = 0;
    *shift = 0;
    bool first = true;
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        if (!(a->mask >> l & 1))
            continue;
        int64_t dl = (int64_t)(b->addr[l] - a->addr[l]);
        if (!first && dl != d)
            return 0;
        d = dl;
        first = false;
    }
    *shift = d;
    uint64_t m = (uint64_t)(d % ALIGN_PERIOD_BYTES + ALIGN_PERIOD_BYTES) % ALIGN_PERIOD_BYTES;
    return ALIGN_PERIOD_BYTES / hms_gcd64(m, ALIGN_PERIOD_BYTES);
}

/* Ring slot of the top of iteration `iter`. */
static size_t slot(uint64_t iter)
{
    return (size_t)(iter % HMS_TRACE_SUMMARY_RING);
}

static hms_lanes *snap_of(tracer *t, trace_summary *s, uint64_t iter)
{
    return s->snap + (size_t)(iter % 3) * t->k->nvars;
}

static uint64_t *snap_stamp_of(tracer *t, trace_summary *s, uint64_t iter)
{
    return s->snap_stamp + (size_t)(iter % 3) * t->k->nvars;
}

/* The carried variables j iterations after the top of iteration H, in closed
 * form from their change between the tops of H - 1 and H (known lanes only).
 * `keep`: their values go into the value table (the warp goes on with
 * them); else they get fresh stamps (a search looks at them once). */
static void advance_carried(tracer *t, trace_warp *w, trace_summary *s, uint64_t H, uint64_t j,
                            bool keep)
{
    const hms_lanes *x = snap_of(t, s, H), *p = snap_of(t, s, H - 1);
    for (size_t v = 0; v < t->k->nvars; v++) {
        if (!s->carried[v])
            continue;
        for (int l = 0; l < HMS_WARP_LANES; l++)
            if (!(x[v].unknown >> l & 1))
                w->vars[v].v[l] =
                    (int64_t)((uint64_t)x[v].v[l] + j * (uint64_t)(x[v].v[l] - p[v].v[l]));
        t->stamps.var[v] =
            keep ? trace_stamp_of(&t->stamps, &w->vars[v]) : trace_stamp_fresh(&t->stamps);
    }
}

/* Evaluates the loop condition with every variable moved j iterations on. */
static bool all_live_at(tracer *t, trace_warp *w, const ir_stmt *loop, trace_summary *s, uint64_t H,
                        uint64_t j, uint32_t live)
{
    advance_carried(t, w, s, H, j, false);
    hms_lanes c;
    uint64_t time = w->time;
    uint32_t active = w->active;
    w->active = live;
    w->untimed++;
    trace_eval(t, w, loop->cond, &c);
    w->untimed--;
    w->time = time;
    w->active = active;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        if ((live >> l & 1) && ((c.unknown >> l & 1) || !c.v[l]))
            return false; /* an unknown condition runs a guessed count: not summarised */
    return true;
}

/* Iterations from H on that every live lane runs (at most MAX_SKIP): the
 * condition is monotone per lane, so the first failing j is searched. */
static uint64_t iterations_left(tracer *t, trace_warp *w, const ir_stmt *loop, trace_summary *s,
                                uint64_t H, uint32_t live)
{
    if (!all_live_at(t, w, loop, s, H, 0, live))
        return 0;
    uint64_t lo = 0, hi = 1; /* ok(lo) */
    while (all_live_at(t, w, loop, s, H, hi, live)) {
        lo = hi;
        if (hi >= MAX_SKIP)
            return MAX_SKIP;
        hi *= 2;
    }
    while (hi - lo > 1) { /* ok(lo), !ok(hi) */
        uint64_t mid = lo + (hi - lo) / 2;
        if (all_live_at(t, w, loop, s, H, mid, live))
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* Variables' differences over the last two iterations agree (lanes that are
 * unknown stay unknown); fills s->carried. */
static bool deltas_agree(tracer *t, trace_summary *s, uint64_t H, bool *any)
{
    const hms_lanes *a = snap_of(t, s, H - 2), *b = snap_of(t, s, H - 1), *c = snap_of(t, s, H);
    *any = false;
    for (size_t v = 0; v < t->k->nvars; v++) {
        s->carried[v] = false;
        if (a[v].unknown != b[v].unknown || b[v].unknown != c[v].unknown)
            return false;
        for (int l = 0; l < HMS_WARP_LANES; l++) {
            if (c[v].unknown >> l & 1)
                continue;
            uint64_t d1 = (uint64_t)b[v].v[l] - (uint64_t)a[v].v[l];
            uint64_t d2 = (uint64_t)c[v].v[l] - (uint64_t)b[v].v[l];
            if (d1 != d2)
                return false;
            if (d2)
                s->carried[v] = true;
        }
        *any |= s->carried[v];
    }
    return true;
}

static uint32_t times_extra(uint32_t extra, uint64_t reps)
{
    /* (1 + extra) * (1 + reps) - 1, saturating */
    unsigned __int128 r = (unsigned __int128)(1 + (uint64_t)extra) * (1 + reps) - 1;
    return r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
}

/* Sorts n values ascending (insertion sort: n <= 32 and usually in order). */
static void sort_small(uint64_t *u, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = u[i];
        int j = i;
        for (; j > 0 && u[j - 1] > x; j--)
            u[j] = u[j - 1];
        u[j] = x;
    }
}

/* Distinct values of u[i] >> 5, >> 6 and >> 7 among n sorted values, in
 * one pass: neighbours differ above bit k exactly when their xor is at
 * least 2^k. */
static void distinct_units(const uint64_t *u, int n, uint64_t out[3])
{
    uint64_t d5 = n > 0, d6 = n > 0, d7 = n > 0;
    for (int i = 1; i < n; i++) {
        uint64_t x = u[i] ^ u[i - 1];
        d5 += x >= 32;
        d6 += x >= 64;
        d7 += x >= 128;
    }
    out[0] = d5;
    out[1] = d6;
    out[2] = d7;
}

/* r's active lanes' addresses, sorted; returns how many. */
static int sorted_lanes(const hms_warp_access *r, uint64_t u[HMS_WARP_LANES])
{
    int n = 0;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        if (r->mask >> l & 1)
            u[n++] = r->addr[l];
    sort_small(u, n); /* one sort serves every unit size and every shift */
    return n;
}

/* What a record in `space` with the n sorted lane addresses `sorted`
 * depends on, with its lanes shifted by `shift` bytes: off-chip, its
 * distinct 32-, 64- and 128-byte units (sectors, segments, lines); shared,
 * the most distinct 4-byte words in one of 32 banks; constant, nothing a
 * uniform shift changes (distinct addresses). */
static void signature(uint8_t space, const uint64_t *sorted, int n, uint64_t shift, uint64_t out[3])
{
    uint64_t u[HMS_WARP_LANES];
    memset(out, 0, 3 * sizeof *out);
    if (space == HMS_SPACE_CONSTANT)
        return;
    bool in_order = true; /* a uniform shift keeps the order unless a lane wraps */
    for (int i = 0; i < n; i++) {
        u[i] = sorted[i] + shift;
        in_order = in_order && (i == 0 || u[i] >= u[i - 1]);
    }
    if (!in_order)
        sort_small(u, n);
    if (space != HMS_SPACE_SHARED) {
        distinct_units(u, n, out);
        return;
    }
    uint64_t per_bank[32] = {0};
    for (int i = 0; i < n; i++) {
        uint64_t word = u[i] / 4;
        if (i == 0 || word != u[i - 1] / 4) /* a distinct word */
            per_bank[word % 32]++;
    }
    for (int b = 0; b < 32; b++)
        out[0] = per_bank[b] > out[0] ? per_bank[b] : out[0];
}

/* r's figures are the same at every alignment a uniform shift of d bytes
 * per iteration takes it to. */
static bool shift_invariant(const hms_warp_access *r, int64_t d, uint64_t p)
{
    uint64_t base[3], other[3], u[HMS_WARP_LANES];
    int n = sorted_lanes(r, u);
    signature(r->space, u, n, 0, base);
    for (uint64_t j = 1; j < p; j++) {
        signature(r->space, u, n, (uint64_t)d * j % ALIGN_PERIOD_BYTES, other);
        if (memcmp(base, other, sizeof base) != 0)
            return false;
    }
    return true;
}

/* The period of the last iterations' records, marking records that do not
 * repeat exactly; 0 when the iterations are not laid out alike. */
static uint64_t records_period(tracer *t, trace_summary *s, uint64_t H)
{
    hms_warp_access *v = t->out->stream.v;
    size_t r0 = s->rec[slot(H - 2)], r1 = s->rec[slot(H - 1)], r2 = s->rec[slot(H)];
    if (r1 - r0 != r2 - r1)
        return 0;
    size_t n = r2 - r1;
    uint64_t P = 1;
    /* per record position: 0 not uniform, 1 any alignment, else its period */
    uint64_t *need = malloc((n ? n : 1) * sizeof *need);
    if (!need)
        return 0;
    for (size_t i = 0; i < n; i++) {
        const hms_warp_access *x = &v[r0 + i], *y = &v[r1 + i];
        if (x->site != y->site || x->mask != y->mask) {
            free(need);
            return 0;
        }
        int64_t d;
        uint64_t p = record_period(x, y, &d);
        if (p > 1 && shift_invariant(y, d, p))
            p = 1;
        need[i] = p;
        if (p && P / hms_gcd64(P, p) * p <= HMS_TRACE_SUMMARY_MAX_PERIOD)
            P = P / hms_gcd64(P, p) * p;
    }
    if (P > H) { /* not traced enough iterations yet to cover the period */
        free(need);
        return 0;
    }
    /* the representatives must all be laid out like the last iteration */
    for (uint64_t h = H - P; h < H; h++)
        if (s->rec[slot(h + 1)] - s->rec[slot(h)] != n) {
            free(need);
            return 0;
        }
    /* records whose shift the period does not cover do not repeat exactly */
    for (size_t i = 0; i < n; i++) {
        if (need[i] && P % need[i] == 0)
            continue;
        for (uint64_t h = H - P; h < H; h++)
            v[s->rec[slot(h)] + i].exact = false;
    }
    free(need);
    return P;
}

static bool add_arrivals(tracer *t, trace_warp *w, trace_summary *s, uint64_t H, uint64_t S,
                         uint64_t dt)
{
    size_t a0 = s->arr[slot(H - 1)], a1 = s->arr[slot(H)];
    size_t per = a1 - a0, add = (size_t)(S * per);
    if (!per)
        return true;
    if (w->narrivals + add > w->caparrivals) {
        size_t cap = w->narrivals + add;
        uint64_t *nv = realloc(w->arrivals, cap * sizeof *nv);
        if (!nv) {
            t->oom = true;
            w->stopped = true;
            return false;
        }
        w->arrivals = nv;
        w->caparrivals = cap;
    }
    for (uint64_t j = 1; j <= S; j++)
        for (size_t a = a0; a < a1; a++)
            w->arrivals[w->narrivals++] = w->arrivals[a] + j * dt;
    return true;
}

/* hms_loop_is_periodic for the carried variables s->carried, remembered per
 * loop and carried set (warps of a block and blocks ask the same). */
static bool loop_is_periodic(tracer *t, const ir_stmt *loop, trace_summary *s)
{
    size_t nv = t->k->nvars;
    for (size_t i = 0; i < t->nperiodic; i++) {
        const trace_periodic *p = &t->periodic[i];
        if (p->loop == loop && memcmp(p->carried, s->carried, nv * sizeof *s->carried) == 0)
            return p->periodic;
    }
    char why[200];
    bool periodic = hms_loop_is_periodic(t->k, loop, s->carried, s->tainted, why, sizeof why);
    bool *carried = malloc((nv ? nv : 1) * sizeof *carried);
    if (!carried)
        return periodic;
    memcpy(carried, s->carried, nv * sizeof *carried);
    trace_periodic *p =
        &t->periodic[t->nperiodic < TRACE_PERIODIC_MEMO ? t->nperiodic++
                                                        : (size_t)(t->runs % TRACE_PERIODIC_MEMO)];
    free(p->carried);
    *p = (trace_periodic){loop, carried, periodic};
    return periodic;
}

void trace_periodic_free(tracer *t)
{
    for (size_t i = 0; i < t->nperiodic; i++)
        free(t->periodic[i].carried);
    t->nperiodic = 0;
}

/* Tries the jump at the top of iteration H; returns the iterations skipped. */
static uint64_t try_jump(tracer *t, trace_warp *w, const ir_stmt *loop, trace_summary *s,
                         uint64_t H, uint32_t live)
{
    size_t a = slot(H - 2), b = slot(H - 1), c = slot(H);
    if (s->live[a] != live || s->live[b] != live ||
        s->time[c] - s->time[b] != s->time[b] - s->time[a] ||
        s->arr[c] - s->arr[b] != s->arr[b] - s->arr[a])
        return 0;
    hms_lanes c0;
    uint64_t time = w->time;
    uint32_t active = w->active;
    w->active = live;
    w->untimed++;
    trace_eval(t, w, loop->cond, &c0);
    w->untimed--;
    w->time = time;
    w->active = active;
    if (c0.unknown & live) {
        s->off = true; /* the trip count would be a guess: traced (or cut) as before */
        return 0;
    }
    bool any;
    if (!deltas_agree(t, s, H, &any) || !any)
        return 0;
    if (!loop_is_periodic(t, loop, s)) {
        s->off = true; /* a property of the code and which variables move: it will not change */
        return 0;
    }
    uint64_t S = iterations_left(t, w, loop, s, H, live);
    const hms_lanes *x = snap_of(t, s, H);
    memcpy(w->vars, x, t->k->nvars * sizeof *w->vars); /* the search moved them */
    memcpy(t->stamps.var, snap_stamp_of(t, s, H), t->k->nvars * sizeof *t->stamps.var);
    if (H + S < t->opt.loop_summary_after) {
        s->off = true; /* a short loop: traced in full */
        return 0;
    }
    uint64_t per_arr = s->arr[c] - s->arr[b];
    if (per_arr && S > MAX_SYNTH_ARRIVALS / per_arr)
        S = MAX_SYNTH_ARRIVALS / per_arr;
    if (S < 1)
        return 0;
    uint64_t P = records_period(t, s, H);
    if (!P)
        return 0; /* retried later (once the traced iterations cover the period) */
    uint64_t dt = s->time[c] - s->time[b];
    if (!add_arrivals(t, w, s, H, S, dt))
        return 0;
    hms_warp_access *v = t->out->stream.v;
    for (uint64_t h = H - P; h < H; h++) {
        uint64_t r = (h + P - H % P) % P; /* skipped j with (H + j) % P == h % P: j = r mod P */
        uint64_t reps = S > r ? (S - r - 1) / P + 1 : 0;
        for (size_t i = s->rec[slot(h)]; i < s->rec[slot(h + 1)]; i++)
            v[i].extra = times_extra(v[i].extra, reps);
    }
    advance_carried(t, w, s, H, S, true);
    w->time += S * dt;
    /* the skipped iterations' FP work, for the roofline: the last iteration's, S times */
    w->flops += S * (s->flops[c] - s->flops[b]);
    w->fp_insts += S * (s->fp_insts[c] - s->fp_insts[b]);
    char where[300];
    trace_note(t,
               "loop at %s: iterations after the first %llu summarised from the last %llu traced "
               "(affine indices, periodic pattern): their requests and coalescing are counted "
               "from those; their cache and DRAM behaviour is an estimate",
               trace_loc_str(t, loop->loc, where, sizeof where), (unsigned long long)H,
               (unsigned long long)P);
    t->out->loops_summarised = true;
    return S;
}

uint64_t trace_summary_top(tracer *t, trace_warp *w, const ir_stmt *loop, trace_summary *s,
                           uint64_t iter, uint32_t live)
{
    if (s->off || t->opt.loop_summary_after == UINT32_MAX || !loop->cond || w->stopped)
        return 0;
    if (s->bound < t->opt.loop_summary_after) { /* a short loop: traced in full */
        s->off = true;
        return 0;
    }
    w->summaries++; /* what follows looks at time: a replay would not repeat it */
    s->time[slot(iter)] = w->time;
    s->rec[slot(iter)] = t->out->stream.n;
    s->arr[slot(iter)] = w->narrivals;
    s->flops[slot(iter)] = w->flops;
    s->fp_insts[slot(iter)] = w->fp_insts;
    s->live[slot(iter)] = live;
    uint64_t next = s->retry_at > MIN_HEAD ? s->retry_at : MIN_HEAD;
    if (iter + 2 < next) /* the variables are needed at the last three tops only */
        return 0;
    size_t nv = t->k->nvars;
    if (!s->snap) {
        s->snap = malloc(3 * (nv ? nv : 1) * sizeof *s->snap);
        s->snap_stamp = malloc(3 * (nv ? nv : 1) * sizeof *s->snap_stamp);
        s->carried = calloc(2 * (nv ? nv : 1), sizeof *s->carried);
        if (!s->snap || !s->snap_stamp || !s->carried) {
            s->off = true;
            return 0;
        }
        s->tainted = s->carried + (nv ? nv : 1);
    }
    memcpy(snap_of(t, s, iter), w->vars, nv * sizeof *w->vars);
    memcpy(snap_stamp_of(t, s, iter), t->stamps.var, nv * sizeof *t->stamps.var);
    if (iter < next)
        return 0;
    uint64_t S = try_jump(t, w, loop, s, iter, live);
    /* after a jump the ring must refill with iterations after it */
    s->retry_at = iter + S + HMS_TRACE_SUMMARY_RING;
    return S;
}
