/* Derived blocks: a sampled block made from one of the traced
 * representatives by moving its addresses (what is checked and why: block_derive.h). */
#include "passes/trace/block_derive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/trace/block_translate.h"

#define ALIGN_BYTES 128 /* a line and the 32 four-byte banks: what a uniform move must keep */
/* Blocks in a row no representative derived, after which no further block
 * is tried (nor made a representative): a kernel whose blocks cost
 * differently pays the check only this often. */
#define GIVE_UP_AFTER 8
/* Representatives kept at once: a sample whose blocks fall into a few
 * classes (edge and inner blocks of a stencil, rows at two alignments)
 * derives each class from its own. */
#define MAX_REPS 8
/* Representatives made in a row that derived no block, after which no
 * further one is made: a kernel whose every block is its own class pays the
 * log this often. */
#define FRUITLESS_REPS 4
/* Sampled blocks that must be left after a block for it to be made a
 * further representative: its log costs more than tracing it (llm.c's
 * layernorm_forward_kernel6: 41k logged probes), which a few derived
 * blocks do not pay back. */
#define REP_LEFT 8
/* Most bytes the representatives' logs may take together (about 70k logged operations
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

/* A traced block later blocks may be derived from, and its log. */
typedef struct {
    bool usable;
    bool broken; /* its log met an operand it cannot translate, or memory ran short */
    hms_traced_block rep;
    int64_t rep_bid[3];
    uint64_t rep_steps, rep_replays;
    uint64_t last_use; /* when it was made or last derived a block (replacement) */
    derive_probe *probes;
    size_t nprobes, capprobes;
    derive_dep *deps;
    size_t ndeps, capdeps;
    bool *site_seen;            /* per site: its records touch it ... */
    int64_t *site_lo, *site_hi; /* ... over these byte offsets (hi exclusive) */
} derive_rep;

struct trace_derive {
    hms_block_translation bt;
    int64_t (*unit)[3]; /* per site: byte offset per unit of blockIdx.{x,y,z} */
    derive_rep reps[MAX_REPS];
    size_t nreps;       /* slots in use */
    derive_rep *log;    /* the one being traced and logged */
    size_t log_bytes;   /* all representatives' logs */
    uint32_t misses;    /* blocks in a row no representative derived (GIVE_UP_AFTER) */
    uint32_t fruitless; /* representatives made in a row that derived nothing */
    bool want_rep;      /* the checks refused the last block asked: trace it as a representative */
    uint64_t clock;     /* blocks asked about so far (last_use) */
    int64_t *saved_lo, *saved_hi; /* touched ranges before a later representative */
    derive_node *nodes;           /* open addressing by node address */
    size_t nnodes, capnodes;
    int64_t *off;                 /* per site: the move of the block being derived */
    const derive_rep *verify_rep; /* the one the last derived block came from */
    /* one warp's value table, simulated (trace_exec.c op_insts); runs
       numbered by gen */
    trace_value_table table;
    uint64_t gen;
    /* while logging: the run's unmoving keys logged (stamped by warp run,
       and runs are numbered across representatives: one table serves all) */
    trace_value_table seen;
    bool *moves; /* per dep of the representative being asked: an operand moves */
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
    size_t na = k->narrays ? k->narrays : 1;
    d->unit = calloc(ns, sizeof *d->unit);
    d->off = calloc(ns, sizeof *d->off);
    d->saved_lo = calloc(na, sizeof *d->saved_lo);
    d->saved_hi = calloc(na, sizeof *d->saved_hi);
    t->derive = d;
    if (!d->unit || !d->off || !d->saved_lo || !d->saved_hi)
        return false;
    for (size_t r = 0; r < MAX_REPS; r++) {
        derive_rep *R = &d->reps[r];
        R->site_seen = calloc(ns, sizeof *R->site_seen);
        R->site_lo = calloc(ns, sizeof *R->site_lo);
        R->site_hi = calloc(ns, sizeof *R->site_hi);
        if (!R->site_seen || !R->site_lo || !R->site_hi)
            return false;
    }
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
    for (size_t r = 0; r < MAX_REPS; r++) {
        free(d->reps[r].probes);
        free(d->reps[r].deps);
        free(d->reps[r].site_seen);
        free(d->reps[r].site_lo);
        free(d->reps[r].site_hi);
    }
    free(d->moves);
    free(d->nodes);
    free(d->off);
    free(d->saved_lo);
    free(d->saved_hi);
    free(d);
    t->derive = NULL;
}

static size_t rep_bytes(const derive_rep *R)
{
    return R->nprobes * sizeof *R->probes + R->ndeps * sizeof *R->deps;
}

bool trace_derive_wants_rep(const tracer *t, size_t left)
{
    const trace_derive *d = t->derive;
    return d && d->want_rep && d->fruitless < FRUITLESS_REPS && left >= REP_LEFT && !t->oom &&
           !t->kernel_budget_hit;
}

void trace_derive_begin(tracer *t, bool first)
{
    trace_derive *d = t->derive;
    if (!d)
        return;
    if (first) { /* a new sample, or the sample again after it was fitted to the budgets */
        for (size_t r = 0; r < MAX_REPS; r++)
            d->reps[r].nprobes = d->reps[r].ndeps = 0;
        d->nreps = 0;
        d->log_bytes = 0;
        d->misses = d->fruitless = 0;
    }
    /* a free slot, else the one unused longest */
    derive_rep *R = &d->reps[0];
    if (d->nreps < MAX_REPS)
        R = &d->reps[d->nreps++];
    else
        for (size_t r = 1; r < MAX_REPS; r++)
            R = d->reps[r].last_use < R->last_use ? &d->reps[r] : R;
    d->log_bytes -= rep_bytes(R);
    R->usable = R->broken = false;
    R->nprobes = R->ndeps = 0;
    R->last_use = d->clock;
    d->log = R;
    d->want_rep = false;
    if (!first)
        d->fruitless++;
    /* the representative's touched ranges on their own (site_ranges) */
    const ir_kernel *k = t->k;
    memcpy(d->saved_lo, t->touched_lo, k->narrays * sizeof *d->saved_lo);
    memcpy(d->saved_hi, t->touched_hi, k->narrays * sizeof *d->saved_hi);
    for (size_t a = 0; a < k->narrays; a++) {
        t->touched_lo[a] = INT64_MAX;
        t->touched_hi[a] = INT64_MIN;
    }
    t->derive_log = true;
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
    derive_rep *R = d ? d->log : NULL;
    if (!R || R->broken)
        return;
    if (d->log_bytes + rep_bytes(R) > HMS_DERIVE_LOG_BYTES) {
        R->broken = true; /* no block derived: the log would cost more than tracing saves */
        return;
    }
    if (R->nprobes == R->capprobes) {
        size_t cap = R->capprobes ? 2 * R->capprobes : 1024;
        derive_probe *v = realloc(R->probes, cap * sizeof *v);
        if (!v) {
            R->broken = true;
            return;
        }
        R->probes = v;
        R->capprobes = cap;
    }
    const ir_expr *ops[3];
    ir_expr_operands(e, ops);
    const derive_node *n = node_of(t, d, e, ops);
    if (!n) {
        R->broken = true;
        return;
    }
    /* An unmoving key the run already logged from an unmoving operation
     * shares that probe's fate in every block (held if it was found or
     * inserted; else the table was full, and stays full), and a probe that
     * finds or is left out changes no table: it is not logged. Keys of
     * operations on moved values never enter `seen`. */
    if (!n->dep && trace_value_probe(&d->seen, w->run, key) == TRACE_VALUE_FOUND)
        return;
    derive_probe *p = &R->probes[R->nprobes++];
    *p = (derive_probe){key, w->warp, 0, (uint8_t)outcome};
    const hms_bid_deriv *od = n->d;
    if (!n->dep)
        return;
    if (R->ndeps == R->capdeps) {
        size_t cap = R->capdeps ? 2 * R->capdeps : 64;
        derive_dep *v = realloc(R->deps, cap * sizeof *v);
        if (!v) {
            R->broken = true;
            return;
        }
        R->deps = v;
        R->capdeps = cap;
    }
    derive_dep *q = &R->deps[R->ndeps];
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
            R->broken = true;
    }
    w->untimed--;
    p->dep = (uint32_t)++R->ndeps;
}

/* Lowest and highest byte offset (hi exclusive) each site's records reach,
 * and whether they add up to the arrays' touched ranges. */
static bool site_ranges(tracer *t, derive_rep *d)
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
    if (!d || !d->log)
        return;
    derive_rep *R = d->log;
    d->log = NULL;
    R->rep = *rep;
    for (int c = 0; c < 3; c++)
        R->rep_bid[c] = t->bid[c];
    R->rep_steps = t->total_steps - steps_before;
    R->rep_replays = t->replay.replays - replays_before;
    bool spread = false;
    for (size_t i = rep->first; i < rep->first + rep->count && !spread; i++)
        spread = t->out->stream.v[i].spread; /* spread lanes hash the block id */
    R->usable =
        complete && !spread && !R->broken && !t->oom && !t->kernel_budget_hit && site_ranges(t, R);
    if (!R->usable) /* nothing derives from it: its log must not hold the cap for later ones */
        R->nprobes = R->ndeps = 0;
    d->log_bytes += rep_bytes(R);
    for (size_t a = 0; a < t->k->narrays; a++) { /* the kernel's ranges again */
        t->touched_lo[a] = d->saved_lo[a] < t->touched_lo[a] ? d->saved_lo[a] : t->touched_lo[a];
        t->touched_hi[a] = d->saved_hi[a] > t->touched_hi[a] ? d->saved_hi[a] : t->touched_hi[a];
    }
}

/* Byte offset of site s's addresses in the block moved by delta. */
static int64_t site_offset(const trace_derive *d, size_t s, const int64_t delta[3])
{
    uint64_t off = 0;
    for (int c = 0; c < 3; c++)
        off += (uint64_t)delta[c] * (uint64_t)d->unit[s][c];
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
static bool guards_hold(const derive_rep *d, const int64_t delta[3])
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

/* Every probe R logged has its logged outcome with the keys of a block
 * moved by delta: each warp's table simulated as op_insts probes it.
 * Outcomes depend only on which keys of a run are equal (value_table.h), so
 * a warp run none of whose keys moves keeps them all and is not simulated. */
static bool same_table_outcomes(trace_derive *d, const derive_rep *R, const int64_t delta[3])
{
    if (R->ndeps > d->capmoves) {
        bool *v = realloc(d->moves, R->ndeps * sizeof *v);
        if (!v)
            return false;
        d->moves = v;
        d->capmoves = R->ndeps;
    }
    for (size_t j = 0; j < R->ndeps; j++)
        d->moves[j] = dep_moves(&R->deps[j], delta);
    for (size_t i = 0, end; i < R->nprobes; i = end) {
        uint32_t warp = R->probes[i].warp;
        bool moved = false;
        for (end = i; end < R->nprobes && R->probes[end].warp == warp; end++)
            moved |= R->probes[end].dep && d->moves[R->probes[end].dep - 1];
        if (!moved)
            continue;
        d->gen++; /* a new warp run: an empty table */
        for (size_t j = i; j < end; j++) {
            const derive_probe *p = &R->probes[j];
            uint64_t key =
                p->dep && d->moves[p->dep - 1] ? moved_key(&R->deps[p->dep - 1], delta) : p->key;
            if (trace_value_probe(&d->table, d->gen, key) != (trace_value_outcome)p->outcome)
                return false;
        }
    }
    return true;
}

/* What representative R says about the block with blockIdx bid. */
typedef enum { FITS, NO_BUDGET, REFUSED } rep_answer;

static rep_answer ask_rep(tracer *t, trace_derive *d, const derive_rep *R, const int64_t bid[3])
{
    const ir_kernel *k = t->k;
    int64_t delta[3];
    for (int c = 0; c < 3; c++)
        delta[c] = bid[c] - R->rep_bid[c];
    /* budgets: the traced block would reach none of them */
    const hms_traced_block *B = &R->rep;
    if (B->count && (t->out->stream.n + B->count >= t->opt.max_records ||
                     t->total_lines + B->lines >= t->opt.max_lines))
        return NO_BUDGET;
    if (t->total_steps + R->rep_steps > t->opt.max_steps)
        return NO_BUDGET;
    /* alignment, and the touched ranges it moves */
    for (size_t s = 0; s < k->nsites; s++) {
        if (!R->site_seen[s])
            continue;
        int64_t off = d->off[s] = site_offset(d, s, delta), lo, hi;
        if ((uint64_t)off % ALIGN_BYTES || __builtin_add_overflow(R->site_lo[s], off, &lo) ||
            __builtin_add_overflow(R->site_hi[s], off, &hi))
            return REFUSED;
    }
    return guards_hold(R, delta) && same_table_outcomes(d, R, delta) ? FITS : REFUSED;
}

bool trace_derive_block(tracer *t, uint64_t id, hms_traced_block *out)
{
    trace_derive *d = t->derive;
    if (!d || t->oom || t->kernel_budget_hit)
        return false;
    d->clock++;
    d->want_rep = false;
    if (d->misses >= GIVE_UP_AFTER)
        return false;
    const ir_kernel *k = t->k;
    hms_kernel_trace *o = t->out;
    int64_t bid[3] = {(int64_t)(id % t->gdim[0]), (int64_t)((id / t->gdim[0]) % t->gdim[1]),
                      (int64_t)(id / ((uint64_t)t->gdim[0] * t->gdim[1]))};
    /* the most recently useful representative first */
    derive_rep *R = NULL;
    bool asked = false;
    bool tried[MAX_REPS] = {false};
    for (size_t n = 0; n < d->nreps && !R; n++) {
        size_t best = MAX_REPS;
        for (size_t r = 0; r < d->nreps; r++)
            if (!tried[r] && d->reps[r].usable &&
                (best == MAX_REPS || d->reps[r].last_use > d->reps[best].last_use))
                best = r;
        if (best == MAX_REPS)
            break;
        tried[best] = true;
        rep_answer a = ask_rep(t, d, &d->reps[best], bid);
        if (a == NO_BUDGET)
            return false; /* traced, and cut where the budget says */
        asked = true;
        if (a == FITS)
            R = &d->reps[best];
    }
    if (!R) {
        /* another class of blocks (a stencil's edge, a row at another
           alignment, block 0's equal values: the value table, a guard or an
           alignment refused it): trace this one as its representative */
        d->want_rep = asked && ++d->misses < GIVE_UP_AFTER;
        return false;
    }
    d->misses = d->fruitless = 0;
    R->last_use = d->clock;
    const hms_traced_block *B = &R->rep;
    size_t first = o->stream.n;
    if (!hms_stream_reserve(&o->stream, first + B->count)) {
        t->oom = true;
        return false;
    }
    const int64_t *off = d->off; /* sites the representative touched: set by ask_rep */
    for (size_t s = 0; s < k->nsites; s++) {
        if (!R->site_seen[s])
            continue;
        int a = k->sites[s]->array;
        int64_t lo = R->site_lo[s] + off[s], hi = R->site_hi[s] + off[s];
        t->touched_lo[a] = lo < t->touched_lo[a] ? lo : t->touched_lo[a];
        t->touched_hi[a] = hi > t->touched_hi[a] ? hi : t->touched_hi[a];
    }
    hms_warp_access *v = o->stream.v;
    for (size_t i = 0; i < B->count; i++) {
        hms_warp_access *r = &v[first + i];
        *r = v[B->first + i];
        r->block = (uint32_t)id;
        uint64_t m = (uint64_t)off[r->site];
        for (int l = 0; l < HMS_WARP_LANES; l++)
            r->addr[l] += m & (0 - (uint64_t)(r->mask >> l & 1u));
    }
    o->stream.n = first + B->count;
    *out = *B;
    out->id = id;
    out->first = first;
    t->total_steps += R->rep_steps;
    t->total_lines += B->lines;
    t->replay.replays += R->rep_replays;
    t->runs += t->wpb; /* warp runs stay numbered as if traced */
    o->blocks_derived++;
    d->verify_rep = R;
    return true;
}

#ifdef HMS_TRACE_VERIFY_BLOCKS
static void differ(const tracer *t, const hms_traced_block *d, const char *what, size_t i)
{
    fprintf(stderr,
            "hms-lint: HMS_TRACE_VERIFY_BLOCKS: kernel '%s' block %llu derived from block %llu "
            "differs from its trace: %s (record %zu)\n",
            t->k->name ? t->k->name : "?", (unsigned long long)d->id,
            (unsigned long long)t->derive->verify_rep->rep.id, what, i);
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
