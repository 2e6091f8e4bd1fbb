/* Derived blocks: a sampled block made from the traced representative by
 * moving its addresses (what is checked and why: block_derive.h). */
#include "passes/trace/block_derive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/trace/block_translate.h"

#define ALIGN_BYTES 128 /* a line and the 32 four-byte banks: what a uniform move must keep */
/* Blocks in a row whose warps the value table or a guard would run
 * differently, after which no further block is tried: a kernel whose
 * blocks cost differently pays the check only this often. */
#define GIVE_UP_AFTER 8
/* Most bytes the representative's log may take (about 70k logged operations
 * on moved values at ~930 bytes each): a long loop of guarded steps would
 * otherwise log gigabytes for blocks the budget then never derives. */
#define HMS_DERIVE_LOG_BYTES ((size_t)64 << 20)

/* One probe of a warp's value table while the representative ran. */
typedef struct {
    uint64_t key;
    uint32_t warp;
    uint32_t dep; /* 1 + index into deps when an operand depends on blockIdx, else 0 */
    uint8_t outcome;
} derive_probe;

/* An operation on blockIdx-dependent operands: what its key is made from. */
typedef struct {
    const ir_expr *e;
    uint32_t active;
    hms_lanes op[3];
    bool has[3];
    hms_bid_deriv d[3];
    bool guard; /* a comparison whose sides move apart (block_translate.h) */
} derive_dep;

/* An operation's operand derivatives, worked out once per node. */
typedef struct {
    const ir_expr *e; /* NULL: empty slot */
    hms_bid_deriv d[3];
    bool dep;
} derive_node;

struct trace_derive {
    hms_block_translation bt;
    int64_t (*unit)[3]; /* per site: byte offset per unit of blockIdx.{x,y,z} */
    /* the representative */
    bool usable;
    bool broken;     /* its log met an operand it cannot translate, or memory ran short */
    uint32_t misses; /* blocks in a row the checks refused (GIVE_UP_AFTER) */
    bool relog;      /* the last block asked was refused by them: trace it as the representative */
    /* while a later representative is traced: the touched ranges before it
       (its own are compared with its records, then the two merged) */
    int64_t *held_lo, *held_hi;
    hms_traced_block rep;
    int64_t rep_bid[3];
    uint64_t rep_steps, rep_replays;
    derive_probe *probes;
    size_t nprobes, capprobes;
    derive_dep *deps;
    size_t ndeps, capdeps;
    derive_node *nodes; /* open addressing by node address */
    size_t nnodes, capnodes;
    bool *site_seen;            /* per site: the representative's records touch it ... */
    int64_t *site_lo, *site_hi; /* ... over these byte offsets (hi exclusive) */
    int64_t *off;               /* per site: the move of the block being derived */
    /* one warp's value table, simulated (trace_exec.c op_insts); runs
       numbered by gen */
    trace_value_table table;
    uint64_t gen;
    trace_value_table seen; /* while logging: the run's unmoving keys logged */
    bool *moves;            /* per dep: an operand moves in the block being checked */
    size_t capmoves;
};

bool trace_derive_setup(tracer *t)
{
    t->derive = NULL;
    t->derive_log = false;
    if (t->opt.no_block_derive)
        return true;
    trace_derive *d = calloc(1, sizeof *d);
    if (!d)
        return false;
    const ir_kernel *k = t->k;
    size_t ns = k->nsites ? k->nsites : 1;
    if (!hms_block_translation_of(k, &t->opt, &d->bt)) {
        free(d);
        return false;
    }
    if (!d->bt.translates) {
        hms_block_translation_free(&d->bt);
        free(d);
        return true;
    }
    d->unit = calloc(ns, sizeof *d->unit);
    d->site_seen = calloc(ns, sizeof *d->site_seen);
    d->site_lo = calloc(ns, sizeof *d->site_lo);
    d->site_hi = calloc(ns, sizeof *d->site_hi);
    d->off = calloc(ns, sizeof *d->off);
    size_t na = k->narrays ? k->narrays : 1;
    d->held_lo = malloc(na * sizeof *d->held_lo);
    d->held_hi = malloc(na * sizeof *d->held_hi);
    t->derive = d;
    if (!d->unit || !d->site_seen || !d->site_lo || !d->site_hi || !d->off || !d->held_lo ||
        !d->held_hi)
        return false;
    for (size_t s = 0; s < k->nsites; s++) {
        const ir_access *a = k->sites[s];
        const ir_array *arr = &k->arrays[a->array];
        uint64_t stride = (uint64_t)(a->elem_stride > 0 ? a->elem_stride : arr->elem_bytes);
        uint64_t pitch = a->index2 ? (uint64_t)t->pitch_bytes[a->array] : 0;
        for (int c = 0; c < 3; c++)
            d->unit[s][c] = (int64_t)((uint64_t)d->bt.index[s].d[c] * stride +
                                      (uint64_t)d->bt.index2[s].d[c] * pitch);
    }
    return true;
}

void trace_derive_free(tracer *t)
{
    trace_derive *d = t->derive;
    if (!d)
        return;
    hms_block_translation_free(&d->bt);
    free(d->unit);
    free(d->probes);
    free(d->deps);
    free(d->moves);
    free(d->nodes);
    free(d->site_seen);
    free(d->site_lo);
    free(d->site_hi);
    free(d->off);
    free(d->held_lo);
    free(d->held_hi);
    free(d);
    t->derive = NULL;
}

void trace_derive_begin(tracer *t)
{
    trace_derive *d = t->derive;
    if (!d)
        return;
    d->usable = d->broken = false;
    if (!d->relog) /* a new representative after refusals: they still count */
        d->misses = 0;
    d->relog = false;
    d->nprobes = d->ndeps = 0;
    /* the block's own touched ranges, for site_ranges (only min/max fold
       into them, so merging afterwards gives what tracing on would) */
    for (size_t a = 0; a < t->k->narrays; a++) {
        d->held_lo[a] = t->touched_lo[a];
        d->held_hi[a] = t->touched_hi[a];
        t->touched_lo[a] = INT64_MAX;
        t->touched_hi[a] = INT64_MIN;
    }
    t->derive_log = true;
}

bool trace_derive_relog(const tracer *t)
{
    return t->derive && t->derive->relog;
}

static size_t node_slot(const ir_expr *e, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)e;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (cap - 1);
}

/* The operand derivatives of operation e (ops: its operands), from the
 * node table, worked out on first sight; NULL when memory is short or an
 * operand has none (it cannot happen when the kernel translates). */
static const derive_node *node_of(const tracer *t, trace_derive *d, const ir_expr *e,
                                  const ir_expr *const ops[3])
{
    if (2 * (d->nnodes + 1) > d->capnodes) { /* keep it at most half full */
        size_t cap = d->capnodes ? 2 * d->capnodes : 1024;
        derive_node *v = calloc(cap, sizeof *v);
        if (!v)
            return NULL;
        for (size_t i = 0; i < d->capnodes; i++) {
            if (!d->nodes[i].e)
                continue;
            size_t j = node_slot(d->nodes[i].e, cap);
            while (v[j].e)
                j = (j + 1) & (cap - 1);
            v[j] = d->nodes[i];
        }
        free(d->nodes);
        d->nodes = v;
        d->capnodes = cap;
    }
    size_t j = node_slot(e, d->capnodes);
    while (d->nodes[j].e && d->nodes[j].e != e)
        j = (j + 1) & (d->capnodes - 1);
    derive_node *n = &d->nodes[j];
    if (n->e)
        return n;
    n->dep = false;
    for (int i = 0; i < 3; i++) {
        n->d[i] = (hms_bid_deriv){{0, 0, 0}, false, false};
        if (ops[i])
            n->d[i] = hms_block_expr_deriv(&d->bt, t->k, &t->opt, ops[i]);
        if (n->d[i].top)
            return NULL;
        n->dep |= !hms_bid_deriv_zero(n->d[i]);
    }
    n->e = e;
    d->nnodes++;
    return n;
}

void trace_derive_probe(tracer *t, trace_warp *w, const ir_expr *e, uint64_t key,
                        trace_value_outcome outcome)
{
    trace_derive *d = t->derive;
    if (!d || d->broken)
        return;
    if (d->nprobes * sizeof *d->probes + d->ndeps * sizeof *d->deps > HMS_DERIVE_LOG_BYTES) {
        d->broken = true; /* no block derived: the log would cost more than tracing saves */
        return;
    }
    if (d->nprobes == d->capprobes) {
        size_t cap = d->capprobes ? 2 * d->capprobes : 1024;
        derive_probe *v = realloc(d->probes, cap * sizeof *v);
        if (!v) {
            d->broken = true;
            return;
        }
        d->probes = v;
        d->capprobes = cap;
    }
    const ir_expr *ops[3];
    ir_expr_operands(e, ops);
    const derive_node *n = node_of(t, d, e, ops);
    if (!n) {
        d->broken = true;
        return;
    }
    /* An unmoving key the run already logged from an unmoving operation
     * shares that probe's fate in every block (held if it was found or
     * inserted; else the table was full, and stays full), and a probe that
     * finds or is left out changes no table: it is not logged. Keys of
     * operations on moved values never enter `seen`. */
    if (!n->dep && trace_value_probe(&d->seen, w->run, key) == TRACE_VALUE_FOUND)
        return;
    derive_probe *p = &d->probes[d->nprobes++];
    *p = (derive_probe){key, w->warp, 0, (uint8_t)outcome};
    const hms_bid_deriv *od = n->d;
    if (!n->dep)
        return;
    if (d->ndeps == d->capdeps) {
        size_t cap = d->capdeps ? 2 * d->capdeps : 64;
        derive_dep *v = realloc(d->deps, cap * sizeof *v);
        if (!v) {
            d->broken = true;
            return;
        }
        d->deps = v;
        d->capdeps = cap;
    }
    derive_dep *q = &d->deps[d->ndeps];
    q->e = e;
    q->active = w->active;
    /* Every comparison on moved values, and every min/max's choice, is
     * checked per block, also when both sides move alike: the rules take
     * values as unbounded integers, and a move that wraps one side around
     * 2^64 would flip it. */
    q->guard =
        e->kind == IR_BINARY && (ir_op_compares(e->op) || e->op == IR_OP_MIN || e->op == IR_OP_MAX);
    w->untimed++; /* the operands' values, made again without touching time or table */
    for (int i = 0; i < 3; i++) {
        q->has[i] = ops[i] != NULL;
        q->d[i] = od[i];
        if (!ops[i])
            continue;
        trace_eval(t, w, ops[i], &q->op[i]);
        /* a lane with no value is hashed by whatever number it holds: it
           moves with no translation the rules know */
        if (!hms_bid_deriv_zero(od[i]) && ((q->op[i].unknown | q->op[i].opaque) & w->active))
            d->broken = true;
    }
    w->untimed--;
    p->dep = (uint32_t)++d->ndeps;
}

/* Lowest and highest byte offset (hi exclusive) each site's records reach,
 * and whether they add up to the arrays' touched ranges. */
static bool site_ranges(tracer *t, trace_derive *d)
{
    const ir_kernel *k = t->k;
    const hms_stream *st = &t->out->stream;
    for (size_t s = 0; s < k->nsites; s++) {
        d->site_seen[s] = false;
        d->site_lo[s] = INT64_MAX;
        d->site_hi[s] = INT64_MIN;
    }
    for (size_t i = d->rep.first; i < d->rep.first + d->rep.count; i++) {
        const hms_warp_access *r = &st->v[i];
        if (r->site >= k->nsites)
            return false;
        for (int l = 0; l < HMS_WARP_LANES; l++) {
            if (!(r->mask >> l & 1u))
                continue;
            int64_t o = (int64_t)r->addr[l], end;
            if (__builtin_add_overflow(o, (int64_t)r->width, &end))
                return false;
            d->site_seen[r->site] = true;
            d->site_lo[r->site] = o < d->site_lo[r->site] ? o : d->site_lo[r->site];
            d->site_hi[r->site] = end > d->site_hi[r->site] ? end : d->site_hi[r->site];
        }
    }
    for (size_t a = 0; a < k->narrays; a++) {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (size_t s = 0; s < k->nsites; s++)
            if (d->site_seen[s] && k->sites[s]->array == (int)a) {
                lo = d->site_lo[s] < lo ? d->site_lo[s] : lo;
                hi = d->site_hi[s] > hi ? d->site_hi[s] : hi;
            }
        if (lo != t->touched_lo[a] || hi != t->touched_hi[a])
            return false;
    }
    return true;
}

void trace_derive_end(tracer *t, const hms_traced_block *rep, bool complete, uint64_t steps_before,
                      uint64_t replays_before)
{
    trace_derive *d = t->derive;
    t->derive_log = false;
    if (!d)
        return;
    d->rep = *rep;
    for (int c = 0; c < 3; c++)
        d->rep_bid[c] = t->bid[c];
    d->rep_steps = t->total_steps - steps_before;
    d->rep_replays = t->replay.replays - replays_before;
    bool spread = false;
    for (size_t i = rep->first; i < rep->first + rep->count && !spread; i++)
        spread = t->out->stream.v[i].spread; /* spread lanes hash the block id */
    d->usable =
        complete && !spread && !d->broken && !t->oom && !t->kernel_budget_hit && site_ranges(t, d);
    for (size_t a = 0; a < t->k->narrays; a++) {
        t->touched_lo[a] = d->held_lo[a] < t->touched_lo[a] ? d->held_lo[a] : t->touched_lo[a];
        t->touched_hi[a] = d->held_hi[a] > t->touched_hi[a] ? d->held_hi[a] : t->touched_hi[a];
    }
}

/* Byte offset of site s's addresses in the block with blockIdx bid. */
static int64_t site_offset(const trace_derive *d, size_t s, const int64_t bid[3])
{
    uint64_t off = 0;
    for (int c = 0; c < 3; c++)
        off += (uint64_t)(bid[c] - d->rep_bid[c]) * (uint64_t)d->unit[s][c];
    return (int64_t)off;
}

/* Lane values of logged operand i moved by delta. */
static void moved_operand(const derive_dep *q, int i, const int64_t delta[3], hms_lanes *out)
{
    *out = q->op[i];
    uint64_t shift = 0;
    for (int c = 0; c < 3; c++)
        shift += (uint64_t)delta[c] * (uint64_t)q->d[i].d[c];
    for (int l = 0; l < HMS_WARP_LANES; l++)
        if (q->active >> l & 1u)
            out->v[l] = (int64_t)((uint64_t)out->v[l] + shift);
}

/* The key of a logged dependent operation in a block moved by delta. */
static uint64_t moved_key(const derive_dep *q, const int64_t delta[3])
{
    hms_lanes op[3];
    for (int i = 0; i < 3; i++)
        if (q->has[i])
            moved_operand(q, i, delta, &op[i]);
    return trace_op_key(q->active, q->e, q->has[0] ? &op[0] : NULL, q->has[1] ? &op[1] : NULL,
                        q->has[2] ? &op[2] : NULL);
}

/* Every guard the representative evaluated decides the same on every
 * active lane with its sides moved by delta: then so does every branch,
 * and the block runs the representative's control flow. */
static bool guards_hold(const trace_derive *d, const int64_t delta[3])
{
    for (size_t i = 0; i < d->ndeps; i++) {
        const derive_dep *q = &d->deps[i];
        if (!q->guard)
            continue;
        hms_lanes a, b;
        moved_operand(q, 0, delta, &a);
        moved_operand(q, 1, delta, &b);
        /* a min or max decides by which side is lower */
        ir_op op = q->e->op == IR_OP_MIN || q->e->op == IR_OP_MAX ? IR_OP_LE : q->e->op;
        for (int l = 0; l < HMS_WARP_LANES; l++) {
            int64_t was, now;
            if (!(q->active >> l & 1u))
                continue;
            if (!hms_scalar_binary(op, q->op[0].v[l], q->op[1].v[l], &was) ||
                !hms_scalar_binary(op, a.v[l], b.v[l], &now) || was != now)
                return false;
        }
    }
    return true;
}

/* Whether some operand of logged operation q moves by delta (if none, its
 * key is the logged one). */
static bool dep_moves(const derive_dep *q, const int64_t delta[3])
{
    for (int i = 0; i < 3; i++) {
        uint64_t shift = 0;
        for (int c = 0; c < 3; c++)
            shift += (uint64_t)delta[c] * (uint64_t)q->d[i].d[c];
        if (q->has[i] && shift)
            return true;
    }
    return false;
}

/* Every logged probe has its logged outcome with the keys of a block moved
 * by delta: each warp's table simulated as op_insts probes it. Outcomes
 * depend only on which keys of a run are equal (value_table.h), so a warp
 * run none of whose keys moves keeps them all and is not simulated. */
static bool same_table_outcomes(trace_derive *d, const int64_t delta[3])
{
    if (d->ndeps > d->capmoves) {
        bool *v = realloc(d->moves, d->ndeps * sizeof *v);
        if (!v)
            return false;
        d->moves = v;
        d->capmoves = d->ndeps;
    }
    for (size_t j = 0; j < d->ndeps; j++)
        d->moves[j] = dep_moves(&d->deps[j], delta);
    for (size_t i = 0, end; i < d->nprobes; i = end) {
        uint32_t warp = d->probes[i].warp;
        bool moved = false;
        for (end = i; end < d->nprobes && d->probes[end].warp == warp; end++)
            moved |= d->probes[end].dep && d->moves[d->probes[end].dep - 1];
        if (!moved)
            continue;
        d->gen++; /* a new warp run: an empty table */
        for (size_t j = i; j < end; j++) {
            const derive_probe *p = &d->probes[j];
            uint64_t key =
                p->dep && d->moves[p->dep - 1] ? moved_key(&d->deps[p->dep - 1], delta) : p->key;
            if (trace_value_probe(&d->table, d->gen, key) != (trace_value_outcome)p->outcome)
                return false;
        }
    }
    return true;
}

bool trace_derive_block(tracer *t, uint64_t id, hms_traced_block *out)
{
    trace_derive *d = t->derive;
    if (d)
        d->relog = false;
    if (!d || !d->usable || t->oom || t->kernel_budget_hit || d->misses >= GIVE_UP_AFTER)
        return false;
    const ir_kernel *k = t->k;
    hms_kernel_trace *o = t->out;
    int64_t bid[3] = {(int64_t)(id % t->gdim[0]), (int64_t)((id / t->gdim[0]) % t->gdim[1]),
                      (int64_t)(id / ((uint64_t)t->gdim[0] * t->gdim[1]))};
    int64_t delta[3];
    for (int c = 0; c < 3; c++)
        delta[c] = bid[c] - d->rep_bid[c];
    /* budgets: the traced block would reach none of them */
    const hms_traced_block *R = &d->rep;
    if (R->count && (o->stream.n + R->count >= t->opt.max_records ||
                     t->total_lines + R->lines >= t->opt.max_lines))
        return false;
    if (t->total_steps + d->rep_steps > t->opt.max_steps)
        return false;
    /* alignment, and the touched ranges it moves */
    for (size_t s = 0; s < k->nsites; s++) {
        if (!d->site_seen[s])
            continue;
        int64_t off = d->off[s] = site_offset(d, s, bid), lo, hi;
        if ((uint64_t)off % ALIGN_BYTES || __builtin_add_overflow(d->site_lo[s], off, &lo) ||
            __builtin_add_overflow(d->site_hi[s], off, &hi))
            return false;
    }
    if (!guards_hold(d, delta) || !same_table_outcomes(d, delta)) {
        d->relog = ++d->misses < GIVE_UP_AFTER;
        return false;
    }
    d->misses = 0;
    size_t first = o->stream.n;
    if (!hms_stream_reserve(&o->stream, first + R->count)) {
        t->oom = true;
        return false;
    }
    const int64_t *off = d->off; /* sites the representative touched: set above */
    for (size_t s = 0; s < k->nsites; s++) {
        if (!d->site_seen[s])
            continue;
        int a = k->sites[s]->array;
        int64_t lo = d->site_lo[s] + off[s], hi = d->site_hi[s] + off[s];
        t->touched_lo[a] = lo < t->touched_lo[a] ? lo : t->touched_lo[a];
        t->touched_hi[a] = hi > t->touched_hi[a] ? hi : t->touched_hi[a];
    }
    hms_warp_access *v = o->stream.v;
    for (size_t i = 0; i < R->count; i++) {
        hms_warp_access *r = &v[first + i];
        *r = v[R->first + i];
        r->block = (uint32_t)id;
        uint64_t m = (uint64_t)off[r->site];
        for (int l = 0; l < HMS_WARP_LANES; l++)
            r->addr[l] += m & (0 - (uint64_t)(r->mask >> l & 1u));
    }
    o->stream.n = first + R->count;
    *out = *R;
    out->id = id;
    out->first = first;
    t->total_steps += d->rep_steps;
    t->total_lines += R->lines;
    t->replay.replays += d->rep_replays;
    t->runs += t->wpb; /* warp runs stay numbered as if traced */
    o->blocks_derived++;
    return true;
}

#ifdef HMS_TRACE_VERIFY_BLOCKS
static void differ(const tracer *t, const hms_traced_block *d, const char *what, size_t i)
{
    fprintf(stderr,
            "hms-lint: HMS_TRACE_VERIFY_BLOCKS: kernel '%s' block %llu derived from block %llu "
            "differs from its trace: %s (record %zu)\n",
            t->k->name ? t->k->name : "?", (unsigned long long)d->id,
            (unsigned long long)t->derive->rep.id, what, i);
    abort();
}

void trace_derive_verify(const tracer *t, const hms_traced_block *d, const hms_traced_block *r)
{
    if (d->count != r->count)
        differ(t, d, "record count", 0);
    if (d->lines != r->lines || d->barriers != r->barriers || d->flops != r->flops ||
        d->fp_insts != r->fp_insts || d->insts != r->insts || d->warps_run != r->warps_run)
        differ(t, d, "block figures (lines, barriers, flops, instructions, warps)", 0);
    const hms_warp_access *v = t->out->stream.v;
    for (size_t i = 0; i < d->count; i++) {
        const hms_warp_access *x = &v[d->first + i], *y = &v[r->first + i];
        if (x->site != y->site || x->array != y->array || x->space != y->space ||
            x->kind != y->kind || x->width != y->width)
            differ(t, d, "site", i);
        if (x->warp != y->warp || x->block != y->block)
            differ(t, d, "warp", i);
        if (x->time != y->time)
            differ(t, d, "time", i);
        if (x->mask != y->mask)
            differ(t, d, "mask", i);
        if (x->exact != y->exact || x->spread != y->spread || x->extra != y->extra)
            differ(t, d, "exact/spread flags or extra", i);
        for (int l = 0; l < HMS_WARP_LANES; l++)
            if (x->addr[l] != y->addr[l])
                differ(t, d, "lane address", i);
    }
}
#endif
