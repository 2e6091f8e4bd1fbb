/* Lane-to-lane stride by symbolic differentiation (rules in stride.h). */
#include "passes/ir/stride.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "passes/trace/lanes.h"

/* Recursion bound, as the tracer's (trace_internal.h). */
#define MAX_DEPTH 512

enum { VAR_TODO = 0, VAR_BUSY, VAR_DONE };

typedef struct {
    ir_kernel *k;
    const ir_stmt ***assigns; /* per var: its ASSIGN statements */
    size_t *nassigns;
    int *state;
    ir_expr **memo; /* VAR_DONE: d(var) */
    bool failed;
    char *why;
    size_t whylen;
    bool oom;
} sctx;

static ir_expr *fail(sctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static ir_expr *fail(sctx *c, const char *fmt, ...)
{
    if (!c->failed) { /* keep the innermost reason */
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why, c->whylen, fmt, ap);
        va_end(ap);
        c->failed = true;
    }
    return NULL;
}

/* ---- simplifying constructors -------------------------------------------------------- */

static bool is_const(const ir_expr *e, int64_t v)
{
    return e->kind == IR_CONST && e->value == v;
}

static ir_expr *mk_add(ir_kernel *k, ir_expr *a, ir_expr *b)
{
    if (is_const(a, 0))
        return b;
    if (is_const(b, 0))
        return a;
    if (a->kind == IR_CONST && b->kind == IR_CONST)
        return ir_const(k, (int64_t)((uint64_t)a->value + (uint64_t)b->value));
    return ir_binary(k, IR_OP_ADD, a, b);
}

static ir_expr *mk_neg(ir_kernel *k, ir_expr *a)
{
    if (a->kind == IR_CONST)
        return ir_const(k, (int64_t)(0 - (uint64_t)a->value));
    return ir_unary(k, IR_OP_NEG, a);
}

static ir_expr *mk_sub(ir_kernel *k, ir_expr *a, ir_expr *b)
{
    if (is_const(b, 0))
        return a;
    if (is_const(a, 0))
        return mk_neg(k, b);
    if (a->kind == IR_CONST && b->kind == IR_CONST)
        return ir_const(k, (int64_t)((uint64_t)a->value - (uint64_t)b->value));
    return ir_binary(k, IR_OP_SUB, a, b);
}

static ir_expr *mk_mul(ir_kernel *k, ir_expr *a, ir_expr *b)
{
    if (is_const(a, 0) || is_const(b, 0))
        return ir_const(k, 0);
    if (is_const(a, 1))
        return b;
    if (is_const(b, 1))
        return a;
    if (a->kind == IR_CONST && b->kind == IR_CONST)
        return ir_const(k, (int64_t)((uint64_t)a->value * (uint64_t)b->value));
    /* constant factor last reads naturally: "Size * 4" */
    if (a->kind == IR_CONST)
        return ir_binary(k, IR_OP_MUL, b, a);
    return ir_binary(k, IR_OP_MUL, a, b);
}

/* ---- variables' assignments ---------------------------------------------------------- */

static bool collect(sctx *c, const ir_stmt *s, int depth)
{
    if (!s || depth > MAX_DEPTH)
        return true;
    switch (s->kind) {
    case IR_S_ASSIGN:
        if (s->var >= 0 && (size_t)s->var < c->k->nvars) {
            size_t n = c->nassigns[s->var];
            const ir_stmt **v = realloc(c->assigns[s->var], (n + 1) * sizeof *v);
            if (!v)
                return false;
            v[n] = s;
            c->assigns[s->var] = v;
            c->nassigns[s->var] = n + 1;
        }
        return true;
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            if (!collect(c, s->items.v[i], depth + 1))
                return false;
        return true;
    case IR_S_IF:
        return collect(c, s->then, depth + 1) && collect(c, s->els, depth + 1);
    case IR_S_LOOP:
        return collect(c, s->init, depth + 1) && collect(c, s->body, depth + 1) &&
               collect(c, s->step, depth + 1);
    default:
        return true;
    }
}

static bool reads_var(const ir_expr *e, int var)
{
    if (!e)
        return false;
    if (e->kind == IR_VAR)
        return e->var == var;
    return reads_var(e->a, var) || reads_var(e->b, var) || reads_var(e->c, var);
}

/* ---- differentiation ----------------------------------------------------------------- */

static ir_expr *deriv(sctx *c, const ir_expr *e, int depth);

static const char *var_name(const sctx *c, int var)
{
    const char *n = c->k->vars[var].name;
    return n ? n : "?";
}

static ir_expr *deriv_var(sctx *c, int var, int depth)
{
    ir_kernel *k = c->k;
    if (var < 0 || (size_t)var >= k->nvars)
        return fail(c, "invalid variable reference");
    if (c->state[var] == VAR_DONE)
        return c->memo[var];
    if (c->state[var] == VAR_BUSY)
        return fail(c, "'%s' is defined in terms of itself through other variables",
                    var_name(c, var));
    c->state[var] = VAR_BUSY;
    /* The value before any assignment (parameter or uninitialised local) is
     * the same in every lane. */
    ir_expr *d = NULL;
    for (size_t i = 0; i < c->nassigns[var]; i++) {
        const ir_stmt *s = c->assigns[var][i];
        if (reads_var(s->value, var))
            continue;
        ir_expr *di = deriv(c, s->value, depth + 1);
        if (!di)
            return NULL;
        if (d && !ir_expr_same(d, di, false))
            return fail(c, "'%s' is assigned values with different thread strides",
                        var_name(c, var));
        d = di;
    }
    if (!d)
        d = ir_const(k, 0);
    if (k->vars[var].kind == IR_VAR_PARAM && !is_const(d, 0))
        return fail(c, "parameter '%s' is reassigned a thread-dependent value", var_name(c, var));
    c->memo[var] = d;
    c->state[var] = VAR_DONE;
    for (size_t i = 0; i < c->nassigns[var]; i++) {
        const ir_stmt *s = c->assigns[var][i];
        if (!reads_var(s->value, var))
            continue;
        ir_expr *di = deriv(c, s->value, depth + 1);
        if (!di)
            return NULL;
        if (!ir_expr_same(d, di, false))
            return fail(c, "'%s' changes its thread stride when updated", var_name(c, var));
    }
    return d;
}

/* A value loaded where every lane of the warp reads the same element (the
 * load's index does not follow threadIdx.x) is the same in every lane. */
static bool uniform_load(sctx *c, const ir_expr *e, int depth)
{
    if (e->site < 0 || (size_t)e->site >= c->k->nsites)
        return false;
    const ir_access *a = c->k->sites[e->site];
    if (a->kind != HMS_ACCESS_LOAD || a->index2)
        return false;
    bool failed = c->failed;
    ir_expr *d = deriv(c, a->index, depth + 1);
    c->failed = failed; /* the load's own reason is not this index's */
    return d && is_const(d, 0);
}

static ir_expr *deriv(sctx *c, const ir_expr *e, int depth)
{
    ir_kernel *k = c->k;
    if (!e)
        return fail(c, "missing operand");
    if (depth > MAX_DEPTH)
        return fail(c, "expression too deep");
    ir_expr *da, *db;
    switch (e->kind) {
    case IR_CONST:
        return ir_const(k, 0);
    case IR_SYM:
        return ir_const(k, e->sym == IR_SYM_TID_X || e->sym == IR_SYM_LANEID);
    case IR_VAR:
        return deriv_var(c, e->var, depth);
    case IR_UNKNOWN:
        if (uniform_load(c, e, depth))
            return ir_const(k, 0);
        return fail(c, "depends on %s", e->reason ? e->reason : "an unknown value");
    case IR_UNARY:
        if (!(da = deriv(c, e->a, depth + 1)))
            return NULL;
        if (e->op == IR_OP_NEG)
            return mk_neg(k, da);
        if (!is_const(da, 0))
            return fail(c, "'%s' of a thread-dependent value", ir_op_name(e->op));
        return da;
    case IR_SELECT:
        da = deriv(c, e->a, depth + 1);
        if (!da || !is_const(da, 0)) {
            c->failed = false; /* this reason says more than the condition's own */
            return fail(c, "a condition that may depend on threadIdx.x selects the index");
        }
        if (!(da = deriv(c, e->b, depth + 1)) || !(db = deriv(c, e->c, depth + 1)))
            return NULL;
        return ir_expr_same(da, db, false) ? da : ir_select(k, e->a, da, db);
    case IR_BINARY:
        break;
    }
    if (!(da = deriv(c, e->a, depth + 1)) || !(db = deriv(c, e->b, depth + 1)))
        return NULL;
    bool za = is_const(da, 0), zb = is_const(db, 0);
    switch (e->op) {
    case IR_OP_ADD:
        return mk_add(k, da, db);
    case IR_OP_SUB:
        return mk_sub(k, da, db);
    case IR_OP_MUL:
        if (!za && !zb)
            return fail(c, "product of two thread-dependent terms");
        return za ? mk_mul(k, e->a, db) : mk_mul(k, da, e->b);
    case IR_OP_SHL:
        if (!zb)
            return fail(c, "shift by a thread-dependent amount");
        if (za)
            return da;
        if (e->b->kind == IR_CONST && e->b->value >= 0 && e->b->value < 63)
            return mk_mul(k, da, ir_const(k, (int64_t)1 << e->b->value));
        return ir_binary(k, IR_OP_SHL, da, e->b);
    default:
        if (za && zb)
            return da;
        return fail(c, "'%s' of a thread-dependent value", ir_op_name(e->op));
    }
}

hms_stride hms_stride_of(ir_kernel *k, const ir_expr *index)
{
    hms_stride r = {0};
    sctx c = {0};
    c.k = k;
    c.why = r.why;
    c.whylen = sizeof r.why;
    size_t n = k->nvars ? k->nvars : 1;
    c.assigns = calloc(n, sizeof *c.assigns);
    c.nassigns = calloc(n, sizeof *c.nassigns);
    c.state = calloc(n, sizeof *c.state);
    c.memo = calloc(n, sizeof *c.memo);
    ir_expr *d = NULL;
    if (!c.assigns || !c.nassigns || !c.state || !c.memo || !collect(&c, k->body, 0))
        fail(&c, "out of memory");
    else
        d = deriv(&c, index, 0);
    for (size_t i = 0; c.assigns && i < k->nvars; i++)
        free(c.assigns[i]);
    free(c.assigns);
    free(c.nassigns);
    free(c.state);
    free(c.memo);
    if (!d)
        return r;
    r.affine = true;
    r.coeff = d;
    r.is_const = d->kind == IR_CONST;
    r.value = r.is_const ? d->value : 0;
    return r;
}

/* ---- numbers ----------------------------------------------------------------------------- */

static bool eval_num(const ir_kernel *k, const hms_trace_options *opt, const ir_expr *e, int64_t *v,
                     bool *approx, int depth)
{
    int64_t a, b, cc;
    if (!e || depth > MAX_DEPTH)
        return false;
    switch (e->kind) {
    case IR_CONST:
        *v = e->value;
        return true;
    case IR_SYM:
        switch (e->sym) {
        case IR_SYM_BDIM_X:
            *v = k->launch.block[0];
            return true;
        case IR_SYM_BDIM_Y:
            *v = k->launch.block[1];
            return true;
        case IR_SYM_BDIM_Z:
            *v = k->launch.block[2];
            return true;
        case IR_SYM_GDIM_X:
            *v = k->launch.grid[0];
            return true;
        case IR_SYM_GDIM_Y:
            *v = k->launch.grid[1];
            return true;
        case IR_SYM_GDIM_Z:
            *v = k->launch.grid[2];
            return true;
        case IR_SYM_WARPSIZE:
            *v = HMS_WARP_LANES;
            return true;
        default:
            return false;
        }
    case IR_VAR: {
        bool ap = false;
        if (!hms_trace_param_value(k, opt, e->var, v, &ap))
            return false;
        *approx |= ap;
        return true;
    }
    case IR_UNARY:
        if (!eval_num(k, opt, e->a, &a, approx, depth + 1))
            return false;
        *v = e->op == IR_OP_NEG ? (int64_t)(0 - (uint64_t)a) : e->op == IR_OP_NOT ? !a : ~a;
        return true;
    case IR_BINARY:
        return eval_num(k, opt, e->a, &a, approx, depth + 1) &&
               eval_num(k, opt, e->b, &b, approx, depth + 1) && hms_scalar_binary(e->op, a, b, v);
    case IR_SELECT:
        if (!eval_num(k, opt, e->a, &cc, approx, depth + 1))
            return false;
        return eval_num(k, opt, cc ? e->b : e->c, v, approx, depth + 1);
    case IR_UNKNOWN:
        return false;
    }
    return false;
}

bool hms_stride_eval(const ir_kernel *k, const hms_trace_options *opt, const ir_expr *coeff,
                     int64_t *value, bool *approx)
{
    *approx = false;
    return eval_num(k, opt, coeff, value, approx, 0);
}
