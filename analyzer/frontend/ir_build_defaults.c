/* Role-aware default values for integer kernel parameters that no --param,
 * annotation or folded host argument gives a value (docs/ir.md "Scalar
 * values"). Every value set here stays marked value_source "default".
 *
 * A parameter is an *extent* when it is a positive additive term of the
 * thread-independent side of a comparison whose other side depends on the
 * thread (threadIdx/blockIdx, or a local/loop variable assigned from them):
 * the bound of `if (i < n)`, `if (x >= w - 1 - t) return;` or a grid-stride
 * loop `for (i = tid; i < n; i += stride)`. It takes the number of threads
 * launched along the dimension the index uses (grid * block; the product of
 * them for an index that mixes dimensions, a linearised thread id), so the
 * guard keeps (almost) every thread. A parameter subtracted from such a bound
 * (the `t` of `n - 1 - t`) is an *offset*: it takes a quarter of the
 * threads launched along its dimensions, at most HMS_PARAM_DEFAULT_SMALL, so
 * that on a small launch it cannot cancel the bound and make every thread
 * leave (Rodinia gaussian's Fan2 on a 64-thread grid). The terms of a lower
 * bound (`if (i < first) return;`) take the opposite roles. Any other parameter
 * (loop counts, strides, widths in arithmetic) takes
 * HMS_PARAM_DEFAULT_SMALL. */
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/ir_build_impl.h"

typedef struct {
    ir_kernel *k;
    unsigned *tdep;   /* per var: mask of the dimensions (1 << d) its value follows */
    bool *extent;     /* per var */
    int64_t *ext_val; /* per var: most threads along the indexes it bounds */
    unsigned *off_dm; /* per var: dimensions of the bounds it is subtracted from */
    bool thread_side; /* marking terms beside the thread index: offsets only */
} roles;

static unsigned sym_dims(ir_sym s)
{
    switch (s) {
    case IR_SYM_TID_X:
    case IR_SYM_BID_X:
    case IR_SYM_LANEID:
        return 1u;
    case IR_SYM_TID_Y:
    case IR_SYM_BID_Y:
        return 2u;
    case IR_SYM_TID_Z:
    case IR_SYM_BID_Z:
        return 4u;
    default:
        return 0;
    }
}

/* Thread dimensions an expression's value follows (0: the same for all threads). */
static unsigned expr_dims(const roles *r, const ir_expr *e)
{
    if (!e)
        return 0;
    switch (e->kind) {
    case IR_SYM:
        return sym_dims(e->sym);
    case IR_VAR:
        return e->var >= 0 && (size_t)e->var < r->k->nvars ? r->tdep[e->var] : 0;
    case IR_UNARY:
        return expr_dims(r, e->a);
    case IR_BINARY:
        return expr_dims(r, e->a) | expr_dims(r, e->b);
    case IR_SELECT:
        return expr_dims(r, e->a) | expr_dims(r, e->b) | expr_dims(r, e->c);
    default:
        return 0;
    }
}

typedef struct {
    roles *r;
    bool changed;
} tdep_walk;

/* Widens an assignment's variable to the dimensions of its value. */
static void tdep_assign(const ir_stmt *s, void *ctx)
{
    tdep_walk *w = ctx;
    roles *r = w->r;
    if (s->kind != IR_S_ASSIGN || s->var < 0 || (size_t)s->var >= r->k->nvars)
        return;
    unsigned d = expr_dims(r, s->value) | r->tdep[s->var];
    if (d != r->tdep[s->var])
        r->tdep[s->var] = d, w->changed = true;
}

/* Propagates thread dependence through assignments (loop inits are
 * ASSIGNs); true when a variable's dimensions grew. */
static bool tdep_stmt(roles *r, const ir_stmt *s)
{
    tdep_walk w = {r, false};
    ir_stmt_each(s, tdep_assign, &w);
    return w.changed;
}

/* Threads launched along dimension d (0 = x). */
static int64_t threads_along(const ir_kernel *k, int d)
{
    return (int64_t)k->launch.grid[d] * k->launch.block[d];
}

/* Threads along the dimensions of mask `dims`: an index mixing dimensions is
 * a linearised thread id over all of them. */
static int64_t threads_of(const ir_kernel *k, unsigned dims)
{
    int64_t n = 1;
    for (int d = 0; d < 3; d++)
        if ((dims >> d & 1u) && __builtin_mul_overflow(n, threads_along(k, d), &n))
            return INT64_MAX / 2; /* no launch has that many threads: saturate */
    return n;
}

/* Marks the parameters that are positive additive terms of a bound. */
static void mark_bound(roles *r, const ir_expr *e, int sign, unsigned dims)
{
    if (!e)
        return;
    int64_t c;
    switch (e->kind) {
    case IR_VAR:
        if (e->var < 0 || (size_t)e->var >= r->k->nvars || r->k->vars[e->var].kind != IR_VAR_PARAM)
            return;
        if (sign > 0 && r->thread_side) {
            return; /* `x - b <= hi` shifts the index; it bounds nothing */
        } else if (sign > 0) {
            int64_t n = threads_of(r->k, dims);
            r->extent[e->var] = true;
            if (n > r->ext_val[e->var])
                r->ext_val[e->var] = n;
        } else {
            r->off_dm[e->var] |= dims;
        }
        return;
    case IR_UNARY:
        if (e->op == IR_OP_NEG)
            mark_bound(r, e->a, -sign, dims);
        return;
    case IR_BINARY:
        switch (e->op) {
        case IR_OP_ADD:
            mark_bound(r, e->a, sign, dims);
            mark_bound(r, e->b, sign, dims);
            return;
        case IR_OP_SUB:
            mark_bound(r, e->a, sign, dims);
            mark_bound(r, e->b, -sign, dims);
            return;
        case IR_OP_MUL: /* n * 2, 2 * n: a constant scale keeps the role */
            if (irb_eval_const(e->b, &c) && c != 0)
                mark_bound(r, e->a, c > 0 ? sign : -sign, dims);
            else if (irb_eval_const(e->a, &c) && c != 0)
                mark_bound(r, e->b, c > 0 ? sign : -sign, dims);
            return;
        case IR_OP_DIV:
        case IR_OP_SHR:
        case IR_OP_SHL:
            if (irb_eval_const(e->b, &c) && c > 0)
                mark_bound(r, e->a, sign, dims);
            return;
        case IR_OP_MIN:
        case IR_OP_MAX:
            mark_bound(r, e->a, sign, dims);
            mark_bound(r, e->b, sign, dims);
            return;
        default:
            return;
        }
    default:
        return;
    }
}

/* Marks the bounds in e. live: +1 when the threads for which e is true go
 * on (`if (i < n) {...}`, a loop condition), -1 when they leave (`if (i >=
 * n) return;`), 0 when unknown (every bound then taken as an upper one). A
 * bound the live threads stay below is an upper bound (its positive terms
 * extents); one they stay above (`if (i < first) return;`) is a lower bound,
 * whose terms take the opposite roles, so that a default never makes every
 * thread leave. */
static void scan_expr(roles *r, const ir_expr *e, int live)
{
    if (!e)
        return;
    if (e->kind == IR_BINARY && ir_op_compares(e->op)) {
        unsigned da = expr_dims(r, e->a), db = expr_dims(r, e->b);
        bool below = e->op == IR_OP_LT || e->op == IR_OP_LE; /* thread side first */
        bool ordered = below || e->op == IR_OP_GT || e->op == IR_OP_GE;
        /* a parameter added on the thread's side (`i + off < n`) is on the
         * bound's side with the opposite sign (`i < n - off`): an offset there
         * is kept small; one that would be an extent only shifts the index */
        if (da && !db) {
            int sign = !ordered || live == 0 || below == (live > 0) ? 1 : -1;
            mark_bound(r, e->b, sign, da);
            r->thread_side = true;
            mark_bound(r, e->a, -sign, da);
            r->thread_side = false;
        } else if (db && !da) {
            int sign = !ordered || live == 0 || below != (live > 0) ? 1 : -1;
            mark_bound(r, e->a, sign, db);
            r->thread_side = true;
            mark_bound(r, e->b, -sign, db);
            r->thread_side = false;
        }
    }
    if (e->kind == IR_UNARY && e->op == IR_OP_NOT) {
        scan_expr(r, e->a, -live);
    } else if (e->kind == IR_BINARY && (e->op == IR_OP_LAND || e->op == IR_OP_LOR)) {
        scan_expr(r, e->a, live);
        scan_expr(r, e->b, live);
    } else if (e->kind == IR_UNARY || e->kind == IR_BINARY || e->kind == IR_SELECT) {
        scan_expr(r, e->a, 0);
        scan_expr(r, e->b, 0);
        scan_expr(r, e->c, 0);
    }
}

static void scan_stmt(roles *r, const ir_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            scan_stmt(r, s->items.v[i]);
        break;
    case IR_S_ACCESS:
        scan_expr(r, s->access.index, 0);
        scan_expr(r, s->access.index2, 0);
        break;
    case IR_S_ASSIGN:
        scan_expr(r, s->value, 0);
        break;
    case IR_S_IF:
        scan_expr(r, s->cond, ir_stmt_only_leaves(s->then) ? -1 : 1);
        scan_stmt(r, s->then);
        scan_stmt(r, s->els);
        break;
    case IR_S_LOOP:
        scan_stmt(r, s->init);
        scan_expr(r, s->cond, 1);
        scan_stmt(r, s->body);
        scan_stmt(r, s->step);
        break;
    default:
        break;
    }
}

void irb_role_defaults(ir_kernel *k, const bool *unset)
{
    if (!k->nvars)
        return;
    roles r = {k,
               calloc(k->nvars, sizeof(unsigned)),
               calloc(k->nvars, sizeof(bool)),
               calloc(k->nvars, sizeof(int64_t)),
               calloc(k->nvars, sizeof(unsigned)),
               false};
    bool ok = r.tdep && r.extent && r.ext_val && r.off_dm;
    if (ok) {
        for (size_t it = 0; it <= k->nvars && tdep_stmt(&r, k->body); it++)
            ;
        scan_stmt(&r, k->body);
    }
    for (size_t vi = 0; vi < k->nvars; vi++) {
        ir_var *v = &k->vars[vi];
        if (v->kind != IR_VAR_PARAM || !unset[vi])
            continue;
        int64_t val = HMS_PARAM_DEFAULT_SMALL;
        const char *why = NULL;
        if (ok && r.extent[vi]) {
            val = r.ext_val[vi];
            why = "a bound of a thread index: the threads launched along it";
        } else if (ok && r.off_dm[vi]) {
            for (int d = 0; d < 3; d++)
                if (r.off_dm[vi] >> d & 1u && threads_along(k, d) / 4 < val)
                    val = threads_along(k, d) / 4;
            why = "subtracted from a bound of a thread index: small enough that the guard "
                  "keeps most threads";
        }
        v->default_why = why;
        v->value = val;
        v->value_source = "default";
        v->has_value = true;
    }
    free(r.tdep);
    free(r.extent);
    free(r.ext_val);
    free(r.off_dm);
}
