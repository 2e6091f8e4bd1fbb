/* The warp interpreter: runs the kernel IR for the 32 lanes of one warp at
 * once under an active mask, emitting one record per access execution.
 * Semantics and the time cost model are documented in stream_gen.h. */
#include <stdlib.h>
#include <string.h>

#include "passes/trace/loop_period.h"
#include "passes/trace/trace_internal.h"
#include "runtime/coalesce.h"

static void exec_stmt(tracer *t, trace_warp *w, const ir_stmt *s);

/* Stand-ins for loaded values are below this: a plausible row number, so
 * that `ix * C` and the rows of a few groups stay inside an array. */
#define STANDIN_RANGE 4096
/* Opaque addresses that leave their array move back by a multiple of this. */
#define REBASE_UNIT 128

static uint64_t mix64(uint64_t x)
{
    /* splitmix64 finaliser: a cheap, well-spread deterministic hash */
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The value of load site `site` on the lanes of its last execution in this
 * warp, if those lanes read few distinct addresses: an opaque stand-in per
 * address (lanes that read the same address share it), unknown elsewhere.
 * False when no lane has one. */
static void standin_of(const trace_load *L, hms_lanes *out)
{
    hms_lanes_set_unknown(out);
    for (int l = 0; l < HMS_WARP_LANES; l++)
        if (L->lanes >> l & 1u)
            out->v[l] = (int64_t)(mix64(L->key[l]) % STANDIN_RANGE);
    out->unknown = ~L->lanes;
    out->opaque = L->lanes;
}

/* Whether load site `site` has a stand-in in this warp run (load_standin). */
static bool load_standin_live(const tracer *t, const trace_warp *w, int site)
{
    if (site < 0 || (size_t)site >= t->k->nsites || t->k->sites[site]->kind != HMS_ACCESS_LOAD)
        return false;
    const trace_load *L = &t->loads[site];
    return L->run == w->run && L->lanes;
}

static bool load_standin(const tracer *t, const trace_warp *w, int site, hms_lanes *out)
{
    if (!load_standin_live(t, w, site))
        return false;
    standin_of(&t->loads[site], out);
    return true;
}

/* ---- expressions ----------------------------------------------------------- */

static void note_param_default(tracer *t, int var)
{
    const ir_var *v = &t->k->vars[var];
    if (t->var_noted[var] || v->kind != IR_VAR_PARAM || !t->var_init[var].approx)
        return;
    t->var_noted[var] = true;
    trace_note(t,
               "parameter '%s' has no value: assumed %lld (figures that depend on it are "
               "estimates; set it with --param or -D)",
               v->name ? v->name : "?", (long long)t->var_init[var].v[0]);
}

/* Instructions an operation of the warp issues. A value the warp already
 * computed from the same operands costs nothing: the compiler computes a
 * common subexpression or loop-invariant value once and keeps it in a
 * register, where the IR substitutes a local's expression into every use
 * (docs/model.md "Instruction count"). Integer division and modulo by a
 * run-time value "compile to up to 20 instructions" (CUDA C Programming
 * Guide, Performance Guidelines, "Arithmetic Instructions"); by a literal
 * the compiler uses a shift, a mask or a multiply (one, like any other
 * operation here). */
/* Inlined into op_insts, the tracer's hottest path, as when it had no
 * other caller (block_derive.c recomputes keys through trace_op_key). */
static inline __attribute__((always_inline)) uint64_t op_key(uint32_t active, const ir_expr *e,
                                                             const hms_lanes *pa,
                                                             const hms_lanes *pb,
                                                             const hms_lanes *pc)
{
    const uint64_t prime = 1099511628211ull;
    uint64_t key = 1469598103934665603ull; /* FNV-1a */
    key = (key ^ (uint64_t)e->kind) * prime;
    key = (key ^ (uint64_t)e->op) * prime;
    key = (key ^ (uint64_t)active) * prime;
    /* The operands' own shape, one level deep: equal values from different
     * variables (k * 16 in an inner loop, t * 16 outside) are not one
     * computation to a compiler. */
    const ir_expr *ops[3] = {e->a, e->b, e->c};
    for (int i = 0; i < 3; i++) {
        const ir_expr *o = ops[i];
        if (!o)
            continue;
        key = (key ^ (uint64_t)o->kind) * prime;
        key = (key ^ (uint64_t)o->op) * prime;
        key = (key ^ (uint64_t)(int64_t)o->var) * prime;
        key = (key ^ (uint64_t)o->sym) * prime;
        key = (key ^ (uint64_t)o->site) * prime;
    }
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        if (!(active >> l & 1))
            continue;
        key = (key ^ (uint64_t)pa->v[l]) * prime;
        if (pb)
            key = (key ^ (uint64_t)pb->v[l]) * prime;
        if (pc)
            key = (key ^ (uint64_t)pc->v[l]) * prime;
    }
    return key;
}

uint64_t trace_op_key(uint32_t active, const ir_expr *e, const hms_lanes *pa, const hms_lanes *pb,
                      const hms_lanes *pc)
{
    return op_key(active, e, pa, pb, pc);
}

/* m: the node's memo entry (trace_memo.h); its key is reused when the
 * operands carry the stamps and active mask it was hashed under, else the
 * operands' values are made (eval_value) and hashed. */
static const hms_lanes *eval_value(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes *scratch);
static void operand_values(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes buf[3],
                           const hms_lanes *p[3], trace_interned *pin[3]);
static void unpin_operands(trace_interned *pin[3]);
static void compute_op(const ir_expr *e, const hms_lanes *const p[3], hms_lanes *out);

static uint64_t op_insts(tracer *t, trace_warp *w, const ir_expr *e, trace_memo *m)
{
    if (w->untimed) /* bookkeeping: no time, nothing hashed (the probe never comes here) */
        return 1;
    uint64_t key;
    if (m->keyed && m->active == w->active) {
        key = m->key;
#ifdef HMS_TRACE_VERIFY_MEMO
        hms_lanes buf[3];
        const hms_lanes *p[3];
        trace_interned *pin[3];
        operand_values(t, w, e, buf, p, pin);
        if (key != op_key(w->active, e, p[0], p[1], p[2]))
            abort();
        unpin_operands(pin);
#endif
    } else {
        /* A new evaluation: hash its operands, and keep its value for the
         * parent, which is new too and will hash it. */
        hms_lanes buf[3], r;
        const hms_lanes *p[3];
        trace_interned *pin[3];
        operand_values(t, w, e, buf, p, pin);
        key = op_key(w->active, e, p[0], p[1], p[2]);
        compute_op(e, p, &r);
        unpin_operands(pin);
        trace_result_put(&t->stamps, m->result, &r);
        trace_memo_set_key(&t->stamps, m, key);
    }
    uint64_t insts = e->kind == IR_BINARY && (e->op == IR_OP_DIV || e->op == IR_OP_MOD) &&
                             !(e->b && e->b->kind == IR_CONST)
                         ? HMS_TRACE_INT_DIV_INSTS
                         : 1;
    uint32_t run = (uint32_t)w->run;
#ifndef HMS_TRACE_VERIFY_MEMO
    if (m->probed_run == run && run) /* looked up before in this run: the answer holds */
        return m->absent ? insts : 0;
#endif
    trace_value_outcome got = trace_value_probe(w->values, w->run, key);
    bool found = got == TRACE_VALUE_FOUND, inserted = got == TRACE_VALUE_INSERTED;
#ifdef HMS_TRACE_VERIFY_MEMO
    if (m->probed_run == run && run && (inserted || found == m->absent))
        abort();
#endif
    /* stable for the run: nothing leaves the table, and a key left out
       because the table was full stays out (it stays full) */
    m->probed_run = run;
    m->absent = got == TRACE_VALUE_FULL;
    if (t->derive_log) /* the representative of derived blocks logs its probes (block_derive.h) */
        trace_derive_probe(t, w, e, key, got);
    if (found)
        return 0;
    if (inserted)
        w->inserted += insts;
    return insts;
}

/* The stamp of a warp-uniform launch symbol's value (its value in *value). */
static bool uniform_sym(const tracer *t, ir_sym sym, int64_t *value)
{
    switch (sym) {
    case IR_SYM_BID_X:
    case IR_SYM_BID_Y:
    case IR_SYM_BID_Z:
        *value = t->bid[sym - IR_SYM_BID_X];
        return true;
    case IR_SYM_BDIM_X:
    case IR_SYM_BDIM_Y:
    case IR_SYM_BDIM_Z:
        *value = t->bdim[sym - IR_SYM_BDIM_X];
        return true;
    case IR_SYM_GDIM_X:
    case IR_SYM_GDIM_Y:
    case IR_SYM_GDIM_Z:
        *value = t->gdim[sym - IR_SYM_GDIM_X];
        return true;
    case IR_SYM_WARPSIZE:
        *value = HMS_WARP_LANES;
        return true;
    default:
        return false;
    }
}

/* The stamp of leaf e (a constant, symbol, variable or unknown). */
static uint64_t leaf_stamp(tracer *t, const trace_warp *w, const ir_expr *e)
{
    int64_t uniform;
    switch (e->kind) {
    case IR_SYM:
        if (e->sym == IR_SYM_TID_X || e->sym == IR_SYM_TID_Y || e->sym == IR_SYM_TID_Z ||
            e->sym == IR_SYM_LANEID)
            return t->stamps.sym[e->sym];
        if (uniform_sym(t, e->sym, &uniform))
            return trace_stamp_uniform(&t->stamps, e->sym, uniform);
        return TRACE_STAMP_FIXED; /* rejected by trace_validate */
    case IR_VAR:
        return t->stamps.var[e->var];
    case IR_UNKNOWN:
        return load_standin_live(t, w, e->site) ? t->loads[e->site].stamp : TRACE_STAMP_FIXED;
    default:
        return TRACE_STAMP_FIXED;
    }
}

/* Evaluation is in two steps. eval_stamp walks e in operand order and
 * charges every operation's instructions (op_insts: the value table is
 * order-dependent), working on stamps only: an operation whose node cache
 * or memo knows its operands' stamps needs no lanes. eval_value then makes
 * the value of a node eval_stamp just walked: from the result table by its
 * stamp, else from its operands' values. Values that already live somewhere
 * (variables, thread indices, results the result table holds) are returned
 * by pointer instead of copied; anything else is computed into *scratch,
 * which is returned. */
static uint64_t eval_stamp(tracer *t, trace_warp *w, const ir_expr *e)
{
    uint64_t sa, sb, sc;
    trace_memo *m;
    switch (e->kind) {
    case IR_VAR:
        if (w->active)
            note_param_default(t, e->var);
        return leaf_stamp(t, w, e);
    case IR_UNARY:
        sa = eval_stamp(t, w, e->a);
        m = trace_memo_of(&t->stamps, e, w->active, sa, TRACE_STAMP_FIXED, TRACE_STAMP_FIXED);
        break;
    case IR_BINARY:
        sa = eval_stamp(t, w, e->a);
        sb = eval_stamp(t, w, e->b);
        m = trace_memo_of(&t->stamps, e, w->active, sa, sb, TRACE_STAMP_FIXED);
        break;
    case IR_SELECT:
        sc = eval_stamp(t, w, e->a);
        sa = eval_stamp(t, w, e->b);
        sb = eval_stamp(t, w, e->c);
        m = trace_memo_of(&t->stamps, e, w->active, sc, sa, sb);
        break;
    default:
        return leaf_stamp(t, w, e);
    }
    w->time += op_insts(t, w, e, m);
    return m->result;
}

static void compute_op(const ir_expr *e, const hms_lanes *const p[3], hms_lanes *out)
{
    if (e->kind == IR_UNARY)
        hms_lanes_unary(e->op, p[0], out);
    else if (e->kind == IR_BINARY)
        hms_lanes_binary(e->op, p[0], p[1], out);
    else
        hms_lanes_select(p[0], p[1], p[2], out);
}

/* The values of operation e's operands (e->a, e->b, e->c; NULL where absent),
 * each pinned while the next is made (trace_result_pin). */
static void operand_values(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes buf[3],
                           const hms_lanes *p[3], trace_interned *pin[3])
{
    const ir_expr *ops[3];
    ir_expr_operands(e, ops);
    for (int i = 0; i < 3; i++) {
        p[i] = ops[i] ? eval_value(t, w, ops[i], &buf[i]) : NULL;
        pin[i] = p[i] ? trace_result_pin(&t->stamps, p[i]) : NULL;
    }
}

static void unpin_operands(trace_interned *pin[3])
{
    for (int i = 0; i < 3; i++)
        trace_result_unpin(pin[i]);
}

static const hms_lanes *eval_value(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes *scratch)
{
    int64_t uniform;
    switch (e->kind) {
    case IR_CONST:
        hms_lanes_splat(scratch, e->value);
        return scratch;
    case IR_SYM:
        if (e->sym == IR_SYM_TID_X || e->sym == IR_SYM_TID_Y || e->sym == IR_SYM_TID_Z)
            return &w->tid[e->sym - IR_SYM_TID_X];
        if (e->sym == IR_SYM_LANEID)
            return &w->laneid;
        if (uniform_sym(t, e->sym, &uniform)) {
            hms_lanes_splat(scratch, uniform);
            return scratch;
        }
        break;
    case IR_VAR:
        return &w->vars[e->var];
    case IR_UNARY:
    case IR_BINARY:
    case IR_SELECT: {
        /* eval_stamp left this node's latest evaluation in the node cache,
         * unless another node of the same expression took the slot: then
         * its value is made again and not kept (no stamp names it). */
        const trace_memo *n = trace_memo_last(&t->stamps, e);
        const hms_lanes *r = n ? trace_result_find(&t->stamps, n->result) : NULL;
#ifndef HMS_TRACE_VERIFY_MEMO
        if (r)
            return r;
#else /* the kept value checked against making it again */
        trace_interned *pin_r = r ? trace_result_pin(&t->stamps, r) : NULL;
#endif
        hms_lanes buf[3];
        const hms_lanes *p[3];
        trace_interned *pin[3];
        operand_values(t, w, e, buf, p, pin);
        compute_op(e, p, scratch);
        unpin_operands(pin);
#ifdef HMS_TRACE_VERIFY_MEMO
        trace_result_unpin(pin_r);
        if (r) {
            if (!trace_same_value(scratch, r))
                abort();
            return r;
        }
#endif
        if (n)
            trace_result_put(&t->stamps, n->result, scratch);
        return scratch;
    }
    case IR_UNKNOWN:
        if (load_standin(t, w, e->site, scratch))
            return scratch;
        break;
    }
    hms_lanes_set_unknown(scratch);
    return scratch;
}

static const hms_lanes *eval_pure(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes *scratch);

typedef const hms_lanes *(*lanes_eval_fn)(tracer *t, trace_warp *w, const ir_expr *e,
                                          hms_lanes *scratch);

/* e's operation on its operands, each made by ev (no stamps, no time). */
static const hms_lanes *compute_by(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes *scratch,
                                   lanes_eval_fn ev)
{
    hms_lanes buf[3];
    const hms_lanes *p[3] = {NULL, NULL, NULL};
    const ir_expr *ops[3];
    ir_expr_operands(e, ops);
    for (int i = 0; i < 3; i++)
        if (ops[i])
            p[i] = ev(t, w, ops[i], &buf[i]);
    compute_op(e, p, scratch);
    return scratch;
}

/* The reach probe's evaluation (no instruction times): eval_pure with the
 * values of subtrees whose leaves did not change kept (trace_subtree.h). */
static const hms_lanes *eval_probe(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes *scratch)
{
    if (e->kind != IR_UNARY && e->kind != IR_BINARY && e->kind != IR_SELECT)
        return eval_pure(t, w, e, scratch); /* a leaf */
    trace_subtree *x = trace_subtree_of(&t->subtrees, e);
    if (x && x->nleaves && x->valid) {
        bool same = true;
        for (unsigned i = 0; i < x->nleaves && same; i++)
            same = leaf_stamp(t, w, x->leaf[i]) == x->stamp[i];
#ifdef HMS_TRACE_VERIFY_MEMO
        if (same && !trace_same_value(eval_pure(t, w, e, scratch), x->value))
            abort();
#endif
        if (same)
            return x->value;
    }
    compute_by(t, w, e, scratch, eval_probe);
    x = trace_subtree_of(&t->subtrees, e); /* the operands' lookups may have moved it */
    if (x && x->nleaves) {
        if (!x->value)
            x->value = malloc(sizeof *x->value);
        if (x->value) {
            *x->value = *scratch;
            for (unsigned i = 0; i < x->nleaves; i++)
                x->stamp[i] = leaf_stamp(t, w, x->leaf[i]);
            x->valid = true;
        }
    }
    return scratch;
}

/* *st receives the value's stamp (trace_memo.h). */
static const hms_lanes *eval_ref(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes *scratch,
                                 uint64_t *st)
{
    if (t->opt.reach_probe) { /* values only: no stamp names it */
        *st = TRACE_STAMP_NONE;
        return eval_probe(t, w, e, scratch);
    }
    *st = eval_stamp(t, w, e);
    return eval_value(t, w, e, scratch);
}

/* Evaluates e into *out (a copy when e is a leaf). */
static void eval(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes *out)
{
    uint64_t st;
    const hms_lanes *r = eval_ref(t, w, e, out, &st);
    if (r != out)
        *out = *r;
}

/* The value of e for bookkeeping (w->untimed: a trip count, a loop summary's
 * search), made lane by lane with no stamps: such evaluations charge no
 * instructions and look at values the warp mostly never computes, so the
 * memo would only lose entries to them. */
static const hms_lanes *eval_pure(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes *scratch)
{
    if (e->kind != IR_UNARY && e->kind != IR_BINARY && e->kind != IR_SELECT) {
        if (e->kind == IR_VAR && w->active)
            note_param_default(t, e->var);
        return eval_value(t, w, e, scratch); /* a leaf */
    }
    return compute_by(t, w, e, scratch, eval_pure);
}

void trace_eval(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes *out)
{
    const hms_lanes *r = w->untimed ? eval_pure(t, w, e, out) : NULL;
    if (!r)
        eval(t, w, e, out);
    else if (r != out)
        *out = *r;
}

typedef struct {
    uint32_t t, f;    /* known true / false lanes (approximate ones included) */
    uint32_t unknown; /* no value: both ways */
    uint32_t approx;  /* value rests on an estimate */
} cond_split;

static cond_split eval_cond(tracer *t, trace_warp *w, const ir_expr *e, uint32_t mask)
{
    hms_lanes scratch;
    uint64_t st;
    const hms_lanes *c = eval_ref(t, w, e, &scratch, &st);
    cond_split s;
    uint32_t nonzero = trace_result_nonzero(&t->stamps, st, c); /* one pass serves both sides */
    s.unknown = (c->unknown | c->opaque) & mask; /* an opaque value decides nothing */
    s.t = nonzero & mask;
    s.f = ~nonzero & mask & ~s.unknown;
    s.approx = c->approx & mask & ~s.unknown;
    return s;
}

/* ---- budgets and inexactness ------------------------------------------------ */

static void mark_loop_inexact(trace_warp *w, trace_loop *l)
{
    if (l && !l->inexact) {
        l->inexact = true;
        w->inexact_depth++;
    }
}

static bool in_inexact_context(const trace_warp *w)
{
    return w->inexact_depth > 0 || w->sticky_inexact;
}

/* The warp stops for a budget (what = "iteration budget (steps per warp)"
 * or the like). Inside a loop it only unwinds to the outermost loop, which
 * resumes after itself (resume_after_cut). */
static void stop_for_budget(tracer *t, trace_warp *w, const char *what)
{
    w->stopped = true;
    t->out->budget_exhausted = true;
    /* How far it got: (iteration + 1) / trips of the outermost loop of known length. */
    w->progress = 1;
    for (const trace_loop *l = w->loop; l; l = l->outer)
        if (l->trips > 0) {
            double p = (double)(l->iter + 1) / (double)l->trips;
            w->progress = p < 1 ? p : 1;
        }
    if (w->loop) {
        w->cutting = true;
        w->cut_why = what;
    }
}

/* Counts one step; true (and the warp stops) when a budget is exhausted. */
static bool budget_tick(tracer *t, trace_warp *w, const ir_stmt *s)
{
    if (w->draining) { /* after a kernel-wide cut: a small allowance per outermost loop */
        if (++w->steps <= HMS_TRACE_DRAIN_STEPS || !w->loop)
            return false;
        stop_for_budget(t, w, "steps allowed after the kernel's budget");
        return true;
    }
    w->steps++;
    t->total_steps++;
    bool warp_over = w->steps > t->opt.max_steps_per_warp;
    bool kernel_over = t->total_steps > t->opt.max_steps;
    if (!warp_over && !kernel_over)
        return false;
    if (kernel_over)
        t->kernel_budget_hit = true;
    const char *what = warp_over ? "steps per warp" : "steps per kernel";
    stop_for_budget(t, w, what);
    if (!w->cutting) {
        char where[300];
        trace_note(t,
                   "iteration budget exhausted at %s (%s): tracing of that warp stopped, figures "
                   "are lower bounds",
                   trace_loc_str(t, s->loc, where, sizeof where), what);
    }
    return true;
}

/* ---- accesses --------------------------------------------------------------- */

/* A deterministic pseudo-random index in [0, n) for an unknown lane. */
static int64_t spread_index(const tracer *t, const trace_warp *w, int site, int lane, int dim,
                            int64_t n)
{
    if (n <= 0)
        return 0;
    uint64_t h = mix64((uint64_t)site * 0x100000001b3ull ^ mix64(t->block));
    h = mix64(h ^ ((uint64_t)w->warp << 40) ^ (w->seq << 8) ^ (uint64_t)(lane * 2 + dim));
    return (int64_t)(h % (uint64_t)n);
}

static hms_space record_space(const ir_array *arr, const ir_access *a)
{
    /* The read-only path: __ldg at the site, or a load through a
     * const __restrict__ pointer, which nvcc compiles to ld.global.nc on
     * cc >= 3.5. */
    if (arr->space == HMS_SPACE_GLOBAL && a->kind == HMS_ACCESS_LOAD &&
        (a->via_ldg || (arr->is_const && arr->is_restrict)))
        return HMS_SPACE_READONLY;
    /* a surface write goes to L2 like a global store (no texture-cache lookup) */
    if (arr->space == HMS_SPACE_TEXTURE && a->kind != HMS_ACCESS_LOAD)
        return HMS_SPACE_GLOBAL;
    return arr->space;
}

static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

static int64_t wrap_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

static bool push_epoch(tracer *t, size_t i, uint32_t epoch)
{
    if (i >= t->capepoch) {
        size_t cap = t->capepoch ? t->capepoch * 2 : 1024;
        while (cap <= i)
            cap *= 2;
        uint32_t *v = realloc(t->epoch, cap * sizeof *v);
        if (!v)
            return false;
        t->epoch = v;
        t->capepoch = cap;
    }
    t->epoch[i] = epoch;
    return true;
}

/* A zeroed record in the stream's next slot, filled where it lies (a record
 * is 300 bytes), or NULL (out of memory: the warp stops). commit_record
 * appends it; nothing may push in between. */
static hms_warp_access *reserve_record(tracer *t, trace_warp *w)
{
    hms_stream *st = &t->out->stream;
    if (!hms_stream_grow(st)) {
        t->oom = true;
        w->stopped = true;
        return NULL;
    }
    hms_warp_access *r = &st->v[st->n];
    memset(r, 0, sizeof *r);
    return r;
}

static bool commit_record(tracer *t, trace_warp *w)
{
    hms_stream *st = &t->out->stream;
    if (!push_epoch(t, st->n - t->block_first, (uint32_t)w->narrivals)) {
        t->oom = true;
        w->stopped = true;
        return false;
    }
    st->n++;
    return true;
}

bool trace_push_record(tracer *t, trace_warp *w, const hms_warp_access *r)
{
    hms_warp_access *slot = reserve_record(t, w);
    if (!slot)
        return false;
    *slot = *r;
    return commit_record(t, w);
}

/* Opaque lanes' offsets (lanes.h) rest on stand-in bases: those outside the
 * array are wrapped into it modulo a multiple of REBASE_UNIT bytes (the
 * extent rounded down), which keeps the sectors, lines and banks a warp's
 * lanes touch, as a run split at a multiple of 128 bytes covers the same
 * ones. */
static void rebase_opaque(int64_t *off, uint32_t lanes, int64_t extent)
{
    int64_t unit = extent / REBASE_UNIT * REBASE_UNIT;
    if (unit < REBASE_UNIT)
        unit = REBASE_UNIT;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        if ((lanes >> l & 1u) && (off[l] < 0 || off[l] >= unit)) {
            int64_t r = off[l] % unit;
            off[l] = r < 0 ? r + unit : r;
        }
}

/* After a load: whether its active lanes read at most TRACE_STANDIN_GROUPS
 * distinct addresses (each then the key of the stand-in its readers get,
 * load_standin); a scattered load's value stays unknown. */
static void remember_load(tracer *t, const trace_warp *w, const ir_access *a, const int64_t *off,
                          uint32_t known, uint32_t m)
{
    if (a->kind != HMS_ACCESS_LOAD)
        return;
    trace_load *L = &t->loads[a->id];
    L->run = w->run;
    L->lanes = 0;
    if (!m || known != m)
        return;
    int64_t seen[TRACE_STANDIN_GROUPS];
    int n = 0;
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        if (!(m >> l & 1u))
            continue;
        int g = 0;
        while (g < n && seen[g] != off[l])
            g++;
        if (g == n) {
            if (n == TRACE_STANDIN_GROUPS)
                return;
            seen[n++] = off[l];
        }
        L->key[l] = mix64((uint64_t)a->array) ^ (uint64_t)off[l];
    }
    L->lanes = m;
    hms_lanes v;
    standin_of(L, &v);
    L->stamp = trace_stamp_of(&t->stamps, &v);
}

static void exec_access(tracer *t, trace_warp *w, const ir_stmt *s)
{
    const ir_kernel *k = t->k;
    const ir_access *a = &s->access;
    const ir_array *arr = &k->arrays[a->array];
    hms_lanes idx, idx2;
    eval(t, w, a->index, &idx);
    if (a->index2)
        eval(t, w, a->index2, &idx2);
    else /* only its masks are read */
        idx2.unknown = idx2.approx = idx2.opaque = 0;

    uint32_t m = w->active;
    hms_warp_access *r = reserve_record(t, w);
    if (!r)
        return;
    r->site = (uint32_t)a->id;
    r->array = (uint32_t)a->array;
    r->space = (uint8_t)record_space(arr, a);
    r->kind = (uint8_t)a->kind;
    r->width = (uint8_t)a->width;
    r->mask = m;
    r->block = (uint32_t)t->block; /* wraps for grids beyond 2^32 blocks (see report) */
    r->warp = w->warp;
    r->time = w->time;
    w->time++;

    int64_t stride = a->elem_stride > 0 ? a->elem_stride : arr->elem_bytes;
    bool tex2d = a->index2 != NULL;
    int64_t pitch = tex2d ? t->pitch_bytes[a->array] : 0;
    int64_t extent = t->extent_bytes[a->array];
    int64_t n1 = tex2d ? pitch / (stride > 0 ? stride : 1) : extent / (stride > 0 ? stride : 1);
    int64_t n2 = tex2d && pitch > 0 ? extent / pitch : 0;
    if (tex2d) { /* no opaque 2D coordinates: spread them */
        idx.unknown |= idx.opaque, idx.opaque = 0;
        idx2.unknown |= idx2.opaque, idx2.opaque = 0;
    }
    uint32_t unknown = (idx.unknown | (tex2d ? idx2.unknown : 0)) & m;
    uint32_t approx = (idx.approx | (tex2d ? idx2.approx : 0)) & m;
    uint32_t opaque = idx.opaque & m;

    int64_t off[HMS_WARP_LANES] = {0};
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        uint32_t bit = 1u << l;
        if (!(m & bit))
            continue;
        int64_t i = (idx.unknown & bit) ? spread_index(t, w, a->id, l, 0, n1) : idx.v[l];
        off[l] = (int64_t)((uint64_t)wrap_mul(i, stride) + (uint64_t)a->field_offset);
        if (tex2d) {
            int64_t j = (idx2.unknown & bit) ? spread_index(t, w, a->id, l, 1, n2) : idx2.v[l];
            off[l] = (int64_t)((uint64_t)off[l] + (uint64_t)wrap_mul(j, pitch));
        }
    }
    if (opaque)
        rebase_opaque(off, opaque, extent);
    remember_load(t, w, a, off, m & ~unknown, m);
    int64_t lo = t->touched_lo[a->array], hi = t->touched_hi[a->array];
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        if (!(m >> l & 1u))
            continue;
        int64_t o = off[l];
        if (arr->space == HMS_SPACE_LOCAL)
            o = trace_local_offset(t, a->array, w->warp, l, o);
        if (o < lo)
            lo = o;
        int64_t end = sat_add(o, a->width);
        if (end > hi)
            hi = end;
        r->addr[l] = (uint64_t)o; /* the base is added at the end (stream_gen.c finish_records) */
    }
    t->touched_lo[a->array] = lo;
    t->touched_hi[a->array] = hi;

    r->exact = !unknown && !opaque && !approx && !in_inexact_context(w) &&
               !(tex2d && !t->pitch_known[a->array]);
    if (opaque) {
        char where[300];
        trace_note(t,
                   "access %s at %s: index rests on a value loaded from a warp-uniform address "
                   "(or from a few, each shared by a group of lanes): the lanes keep their exact "
                   "pattern around an unknown base in '%s'",
                   a->text ? a->text : "?", trace_loc_str(t, a->loc, where, sizeof where),
                   arr->name ? arr->name : "?");
    }
    if (unknown) {
        char where[300];
        r->spread = true;
        trace_note(t,
                   "access %s at %s: index depends on a value the analysis cannot know; "
                   "modelled as spread over '%s'",
                   a->text ? a->text : "?", trace_loc_str(t, a->loc, where, sizeof where),
                   arr->name ? arr->name : "?");
    }
    if (tex2d && !t->pitch_known[a->array])
        trace_note(t, "2D texture '%s' has no known width: row pitch assumed %lld bytes",
                   arr->name ? arr->name : "?", (long long)pitch);

    hms_stream *st = &t->out->stream;
    if (!commit_record(t, w))
        return;
    if (t->opt.reach_probe) { /* an access ran: all the probe asks */
        w->stopped = true;
        t->kernel_budget_hit = true;
        return;
    }
    w->seq++;
    if (r->mask) {
        uint64_t units[HMS_WARP_UNITS_MAX];
        t->total_lines += hms_warp_units(r, HMS_TRACE_LINE_BYTES, units);
    }
    bool lines_over = t->total_lines >= t->opt.max_lines;
    if ((st->n >= t->opt.max_records || lines_over) && !w->draining) {
        if (!t->kernel_budget_hit && lines_over)
            trace_note(
                t,
                "work budget (%llu cache lines touched) exhausted after %zu warp accesses: "
                "no further warps traced (the loop it was in is cut, code after it still runs), "
                "figures are estimates from what was traced; bound "
                "unknown loops and parameters with --param=<kernel>.<name>=<value> or "
                "// hms-lint: param <name>=<value>",
                (unsigned long long)t->opt.max_lines, st->n);
        else if (!t->kernel_budget_hit)
            trace_note(t,
                       "record budget (%zu warp accesses) exhausted: figures are lower "
                       "bounds",
                       t->opt.max_records);
        t->kernel_budget_hit = true;
        if (!w->draining)
            stop_for_budget(t, w, lines_over ? "cache lines touched" : "warp accesses");
    }
}

/* ---- statements --------------------------------------------------------------- */

static void exec_assign(tracer *t, trace_warp *w, const ir_stmt *s)
{
    hms_lanes v;
    eval(t, w, s->value, &v);
    if (in_inexact_context(w))
        v.approx |= w->active & ~v.unknown; /* the value a lane ends with is uncertain */
    hms_lanes *x = &w->vars[s->var];
    hms_lanes was = *x;
    hms_lanes_assign(x, &v, w->active);
    /* A loop that assigns a variable the value it holds (an invariant
     * recomputed each iteration) keeps its stamp: what uses it repeats. */
    if (!trace_same_value(&was, x))
        t->stamps.var[s->var] = trace_stamp_of(&t->stamps, x);
}

/* The variables statement s assigns become unknown on `lanes` (none: 0)
 * and take the stamps of their current values again. Also after a branch
 * on an unknown condition: code there may put variables back (the return
 * flags of inlined functions) by writing w->vars directly, and a stamp
 * must never outlive its value. */
static void restamp_assigned(tracer *t, trace_warp *w, const ir_stmt *s, uint32_t lanes)
{
    bool *mark = calloc(t->k->nvars ? t->k->nvars : 1, sizeof *mark);
    if (!mark) {
        t->oom = true;
        w->stopped = true;
        return;
    }
    hms_stmt_assigned_vars(s, mark);
    for (size_t v = 0; v < t->k->nvars; v++)
        if (mark[v]) {
            w->vars[v].unknown |= lanes;
            t->stamps.var[v] = trace_stamp_of(&t->stamps, &w->vars[v]);
        }
    free(mark);
}

/* The return flags of inlined functions (ir_var.return_flag) around a
 * branch on a condition the analysis cannot know, whose lanes run both
 * arms: each arm starts from the flags as they were, and a lane's flag
 * stays set only when both arms set it (the function returns either way,
 * nw's `if (k <= c) return c; else return k;`); set by one arm only, it is
 * put back and the lane goes on through the rest of the function, like a
 * kernel-level `if (unknown) return;`, inexact only there. */
typedef struct {
    int n;
    int *var;
    hms_lanes *before;
    uint32_t *by_then; /* per flag: lanes the then-arm set */
} return_flags;

static void save_return_flags(tracer *t, trace_warp *w, return_flags *f)
{
    memset(f, 0, sizeof *f);
    int n = 0;
    for (size_t v = 0; v < t->k->nvars; v++)
        n += t->k->vars[v].return_flag;
    if (!n)
        return;
    f->var = malloc((size_t)n * sizeof *f->var);
    f->before = malloc((size_t)n * sizeof *f->before);
    f->by_then = calloc((size_t)n, sizeof *f->by_then);
    if (!f->var || !f->before || !f->by_then) {
        t->oom = true;
        return;
    }
    for (size_t v = 0; v < t->k->nvars; v++)
        if (t->k->vars[v].return_flag) {
            f->var[f->n] = (int)v;
            f->before[f->n++] = w->vars[v];
        }
}

static void free_return_flags(return_flags *f)
{
    free(f->var);
    free(f->before);
    free(f->by_then);
}

/* Lanes of `lanes` whose flag i was a known 0 before the branch and is set
 * (or unknown) now. */
static uint32_t flag_set_since(const trace_warp *w, const return_flags *f, int i, uint32_t lanes)
{
    const hms_lanes *now = &w->vars[f->var[i]], *was = &f->before[i];
    uint32_t set = 0;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        if ((lanes >> l & 1u) && !(was->unknown >> l & 1u) && was->v[l] == 0 &&
            (now->unknown >> l & 1u || now->v[l] != 0))
            set |= 1u << l;
    return set;
}

/* After the then-arm: the flags it set on `unknown` lanes are put back for
 * the else-arm (and the break that left a loop with the return); returns
 * those lanes. */
static uint32_t return_flags_after_then(trace_warp *w, return_flags *f, uint32_t unknown,
                                        uint32_t brk0)
{
    uint32_t any = 0;
    for (int i = 0; i < f->n; i++) {
        f->by_then[i] = flag_set_since(w, f, i, unknown);
        if (f->by_then[i])
            hms_lanes_assign(&w->vars[f->var[i]], &f->before[i], f->by_then[i]);
        any |= f->by_then[i];
    }
    w->brk &= ~(any & ~brk0);
    return any;
}

/* After the else-arm: flags set by one arm only are put back, marked an
 * estimate (those lanes go on, maybe having returned: the rest of the
 * function, under its `done == 0` guards, is inexact for them, what
 * follows the call is not); returns them. Set by both, they stay (as the
 * else-arm left them). */
static uint32_t return_flags_after_else(trace_warp *w, const return_flags *f, uint32_t unknown,
                                        uint32_t brk0)
{
    uint32_t revived = 0;
    for (int i = 0; i < f->n; i++) {
        uint32_t by_else = flag_set_since(w, f, i, unknown);
        uint32_t only_else = by_else & ~f->by_then[i];
        if (only_else) {
            hms_lanes_assign(&w->vars[f->var[i]], &f->before[i], only_else);
            w->brk &= ~(only_else & ~brk0);
        }
        uint32_t lanes = only_else | (f->by_then[i] & ~by_else);
        w->vars[f->var[i]].approx |= lanes & ~w->vars[f->var[i]].unknown;
        revived |= lanes;
    }
    return revived;
}

static void exec_if(tracer *t, trace_warp *w, const ir_stmt *s)
{
    uint32_t m = w->active;
    cond_split c = eval_cond(t, w, s->cond, m);
    w->time++;
    bool uncertain = (c.unknown | c.approx) != 0;
    if (c.unknown) {
        char where[300];
        trace_note(t,
                   "condition at %s depends on a value the analysis cannot know: both "
                   "sides traced for those lanes",
                   trace_loc_str(t, s->loc, where, sizeof where));
    }
    if (uncertain)
        w->inexact_depth++;
    uint32_t then_m = c.t | c.unknown, else_m = c.f | c.unknown;
    uint32_t ret0 = w->ret, brk0 = w->brk;
    return_flags flags = {0};
    if (c.unknown)
        save_return_flags(t, w, &flags);
    if (then_m && s->then) {
        w->active = then_m;
        exec_stmt(t, w, s->then);
    }
    if (flags.n)
        return_flags_after_then(w, &flags, c.unknown, brk0);
    /* A lane that returned on a condition the analysis cannot know goes on
     * (inexact from here): `if (unknown) return;` would otherwise end every
     * lane of every warp and leave nothing to model. */
    uint32_t revived = w->ret & ~ret0 & c.unknown;
    if (revived) {
        char where[300];
        w->ret &= ~revived;
        w->sticky_inexact = true;
        trace_note(t,
                   "return at %s under a condition the analysis cannot know: those lanes are "
                   "assumed to go on",
                   trace_loc_str(t, s->loc, where, sizeof where));
    }
    uint32_t gone = w->ret | w->brk | w->cont;
    if (s->els && (else_m & ~gone)) {
        w->active = else_m & ~gone;
        if (c.unknown)
            restamp_assigned(t, w, s, 0);
        exec_stmt(t, w, s->els);
    }
    uint32_t flag_revived = flags.n ? return_flags_after_else(w, &flags, c.unknown, brk0) : 0;
    free_return_flags(&flags);
    if (flag_revived) {
        char where[300];
        trace_note(t,
                   "return from an inlined function at %s under a condition the analysis cannot "
                   "know, on one side only: those lanes are assumed to go on through the rest "
                   "of the function (inexact there)",
                   trace_loc_str(t, s->loc, where, sizeof where));
    }
    if (uncertain)
        w->inexact_depth--;
    if (c.unknown)
        restamp_assigned(t, w, s, 0);
    w->active = m & ~(w->ret | w->brk | w->cont);
}

/* Loop s will not run (further): every variable it assigns becomes unknown
 * on `lanes`, and what follows is inexact. */
static void forget_loop(tracer *t, trace_warp *w, const ir_stmt *s, uint32_t lanes)
{
    restamp_assigned(t, w, s, lanes);
    w->sticky_inexact = true;
}

/* A budget ran out inside outermost loop s: the loop is cut there and the
 * warp goes on after it with what the loop assigns unknown. After its own
 * step budget it gets a fresh allowance; after a kernel-wide budget it
 * drains: each later outermost loop gets HMS_TRACE_DRAIN_STEPS steps (an
 * epilogue's store loop), straight-line code is not limited. */
static void resume_after_cut(tracer *t, trace_warp *w, const ir_stmt *s, uint32_t lanes)
{
    char where[300];
    trace_note(t,
               "iteration budget exhausted at %s (%s): the rest of that loop was cut, its figures "
               "are lower bounds; tracing goes on after it with the variables it assigns unknown",
               trace_loc_str(t, s->loc, where, sizeof where), w->cut_why ? w->cut_why : "?");
    w->stopped = false;
    w->cutting = false;
    w->cut = true;
    w->steps = 0;
    w->draining = t->kernel_budget_hit;
    forget_loop(t, w, s, lanes);
}

static void exec_loop(tracer *t, trace_warp *w, const ir_stmt *s)
{
    uint32_t saved_brk = w->brk, saved_cont = w->cont;
    uint32_t m0 = w->active;
    trace_loop frame = {s, false, w->loop, 0, 0};
    w->brk = w->cont = 0;
    if (s->init)
        exec_stmt(t, w, s->init);
    uint32_t live = w->active;
    w->loop = &frame;
    /* Iterations for lanes whose condition is unknown: the front end's trip
     * expression per lane when it evaluates, else trip_count, else the
     * default. Evaluating it is bookkeeping, not an instruction. */
    uint64_t fixed = s->trip_count >= 0 ? (uint64_t)s->trip_count : t->opt.unknown_trip_count;
    hms_lanes trips;
    hms_lanes_set_unknown(&trips);
    if (s->trip) {
        uint64_t time = w->time;
        w->untimed++;
        trace_eval(t, w, s->trip, &trips);
        w->untimed--;
        trips.unknown |= trips.opaque; /* a stand-in is no iteration count */
        w->time = time;
    }
    uint64_t lim[HMS_WARP_LANES]; /* per lane, for an unknown condition */
    for (int l = 0; l < HMS_WARP_LANES; l++)
        lim[l] = !(trips.unknown >> l & 1) ? (trips.v[l] > 0 ? (uint64_t)trips.v[l] : 0) : fixed;
    trace_summary sum;
    trace_summary_init(&sum);
    if (!(trips.unknown & live)) /* every lane's trip count known: no summary of short loops */
        for (int l = 0; l < HMS_WARP_LANES; l++)
            if ((live >> l & 1) && (sum.bound == UINT64_MAX || lim[l] > sum.bound))
                sum.bound = lim[l];
    frame.trips = s->trip_count >= 0 ? (uint64_t)s->trip_count : 0;
    for (int l = 0; !frame.trips && l < HMS_WARP_LANES; l++)
        if ((live >> l & 1) && !(trips.unknown >> l & 1) && trips.v[l] > 0 &&
            (uint64_t)trips.v[l] > frame.trips)
            frame.trips = (uint64_t)trips.v[l];
    bool noted = false;
    for (uint64_t iter = 0; live && !w->stopped; iter++) {
        w->active = live;
        iter += trace_summary_top(t, w, s, &sum, iter, live);
        frame.iter = iter;
        if (s->cond && (s->test_first || iter > 0)) {
            w->active = live;
            cond_split c = eval_cond(t, w, s->cond, live);
            w->time++;
            if (c.unknown | c.approx)
                mark_loop_inexact(w, &frame);
            uint32_t more = 0, by_trip = 0;
            for (uint32_t u = c.unknown; u; u &= u - 1) { /* lanes the condition cannot decide */
                int l = __builtin_ctz(u);
                uint32_t bit = 1u << l;
                by_trip |= !(trips.unknown & bit) ? bit : 0;
                if (iter < lim[l])
                    more |= bit;
            }
            if ((c.unknown & ~by_trip) && !noted) {
                char where[300];
                noted = true;
                trace_note(t,
                           "loop at %s: condition depends on a value the analysis cannot "
                           "know: ran %llu iterations",
                           trace_loc_str(t, s->loc, where, sizeof where),
                           (unsigned long long)fixed);
            }
            live &= c.t | more;
            if (!live)
                break;
        }
        if (budget_tick(t, w, s))
            break;
        w->active = live;
        w->cont = 0;
        exec_stmt(t, w, s->body);
        live &= ~(w->brk | w->ret);
        w->cont = 0;
        if (s->step && live && !w->stopped) {
            w->active = live;
            exec_stmt(t, w, s->step);
        }
    }
    trace_summary_free(&sum);
    if (w->cutting && !frame.outer)
        resume_after_cut(t, w, s, m0 & ~w->ret);
    if (frame.inexact)
        w->inexact_depth--;
    w->loop = frame.outer;
    w->active = m0 & ~w->ret;
    w->brk = saved_brk;
    w->cont = saved_cont;
}

/* An access-free loop the warp already ran on the same inputs is replayed
 * (trace_replay.h); any other run of it is recorded. */
static void exec_loop_or_replay(tracer *t, trace_warp *w, const ir_stmt *s)
{
    trace_replay_loop *L = t->opt.no_loop_replay ? NULL : trace_replay_of(&t->replay, s);
    if (!L) {
        exec_loop(t, w, s);
        return;
    }
    trace_replay_mark m;
    if (trace_replay_apply(t, w, L, &m))
        return;
    trace_replay_begin(t, w, L, &m);
    exec_loop(t, w, s);
    trace_replay_end(t, w, L, &m);
}

static void exec_sync(tracer *t, trace_warp *w)
{
    w->time++;
    if (w->narrivals == w->caparrivals) {
        size_t cap = w->caparrivals ? w->caparrivals * 2 : 16;
        uint64_t *v = realloc(w->arrivals, cap * sizeof *v);
        if (!v) {
            t->oom = true;
            w->stopped = true;
            return;
        }
        w->arrivals = v;
        w->caparrivals = cap;
    }
    w->arrivals[w->narrivals++] = w->time;
}

static void exec_stmt(tracer *t, trace_warp *w, const ir_stmt *s)
{
    if (!s || !w->active || w->stopped)
        return;
    if (budget_tick(t, w, s))
        return;
    switch (s->kind) {
    case IR_S_BLOCK:
        if (s->fp_ops) { /* float arithmetic: counted for the roofline, not timed */
            w->flops += (uint64_t)s->fp_flops * (uint64_t)hms_popcount32(w->active);
            w->fp_insts += s->fp_ops;
        }
        for (size_t i = 0; i < s->items.n && w->active && !w->stopped; i++)
            exec_stmt(t, w, s->items.v[i]);
        return;
    case IR_S_ACCESS:
        exec_access(t, w, s);
        return;
    case IR_S_ASSIGN:
        exec_assign(t, w, s);
        return;
    case IR_S_IF:
        exec_if(t, w, s);
        return;
    case IR_S_LOOP:
        exec_loop_or_replay(t, w, s);
        return;
    case IR_S_SYNC:
        exec_sync(t, w);
        return;
    case IR_S_BREAK:
    case IR_S_CONTINUE:
        w->time++;
        if (in_inexact_context(w))
            mark_loop_inexact(w, w->loop); /* the loop's later lane masks are uncertain */
        if (s->kind == IR_S_BREAK)
            w->brk |= w->active;
        else
            w->cont |= w->active;
        w->active = 0;
        return;
    case IR_S_RETURN:
        w->time++;
        if (in_inexact_context(w))
            w->sticky_inexact = true;
        w->ret |= w->active;
        w->active = 0;
        return;
    }
}

/* ---- warps ---------------------------------------------------------------------- */

void trace_warp_reset(tracer *t, trace_warp *w, uint32_t warp)
{
    w->warp = warp;
    w->run = ++t->runs;
    w->present = 0;
    for (int i = 0; i < 3; i++)
        hms_lanes_splat(&w->tid[i], 0);
    hms_lanes_splat(&w->laneid, 0);
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        uint64_t lin = (uint64_t)warp * HMS_WARP_LANES + (uint64_t)l;
        w->laneid.v[l] = l;
        if (lin >= t->tpb)
            continue;
        w->present |= 1u << l;
        w->tid[0].v[l] = (int64_t)(lin % t->bdim[0]);
        w->tid[1].v[l] = (int64_t)((lin / t->bdim[0]) % t->bdim[1]);
        w->tid[2].v[l] = (int64_t)(lin / ((uint64_t)t->bdim[0] * t->bdim[1]));
    }
    if (t->k->nvars) {
        memcpy(w->vars, t->var_init, t->k->nvars * sizeof *w->vars);
        memcpy(t->stamps.var, t->stamps.var_init, t->k->nvars * sizeof *t->stamps.var);
    }
    for (int i = 0; i < 3; i++)
        t->stamps.sym[IR_SYM_TID_X + i] = trace_stamp_of(&t->stamps, &w->tid[i]);
    t->stamps.sym[IR_SYM_LANEID] = trace_stamp_of(&t->stamps, &w->laneid);
    w->active = w->present;
    w->ret = w->brk = w->cont = 0;
    w->inexact_depth = 0;
    w->sticky_inexact = false;
    w->stopped = false;
    w->loop = NULL;
    w->time = 0;
    w->steps = 0;
    w->flops = w->fp_insts = 0;
    w->untimed = 0;
    w->inserted = 0;
    w->summaries = 0;
    w->progress = 1;
    w->seq = 0;
    w->narrivals = 0;
}

void trace_run_warp(tracer *t, trace_warp *w)
{
    exec_stmt(t, w, t->k->body);
}
