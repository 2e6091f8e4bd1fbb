/* Blocks as translations of each other: the blockIdx derivative of every
 * variable, condition and access index (rules in block_translate.h). */
#include "passes/trace/block_translate.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/ir/stride.h"
#include "passes/trace/trace_internal.h"

#define MAX_DEPTH HMS_TRACE_MAX_DEPTH /* the tracer's recursion bound */

typedef hms_bid_deriv deriv;

typedef struct {
    const ir_kernel *k;
    const hms_trace_options *opt;
    deriv *var;           /* out->var */
    bool *param_assigned; /* out->param_assigned */
    bool strict;          /* guards not allowed (loop conditions, trip counts) */
    bool changed;
    hms_block_translation *out;
} ctx;

static const deriv ZERO = {{0, 0, 0}, false, false};
static const deriv TOP = {{0, 0, 0}, true, false};
static const deriv BOT = {{0, 0, 0}, false, true};

static bool is_zero(deriv a)
{
    return !a.top && !a.bot && !a.d[0] && !a.d[1] && !a.d[2];
}

bool hms_bid_deriv_zero(hms_bid_deriv d)
{
    return is_zero(d);
}

static bool same(deriv a, deriv b)
{
    return a.top == b.top && a.bot == b.bot && a.d[0] == b.d[0] && a.d[1] == b.d[1] &&
           a.d[2] == b.d[2];
}

/* a + s*b componentwise (wrapping like the tracer's arithmetic); bot or top absorb. */
static deriv combine(deriv a, int64_t s, deriv b)
{
    if (a.top || b.top)
        return TOP;
    if (a.bot || b.bot)
        return BOT;
    deriv r = ZERO;
    for (int i = 0; i < 3; i++)
        r.d[i] = (int64_t)((uint64_t)a.d[i] + (uint64_t)s * (uint64_t)b.d[i]);
    return r;
}

static deriv scale(deriv a, int64_t f)
{
    return combine(ZERO, f, a);
}

/* A number for e that needs no lane: constants, launch dimensions and
 * parameters the kernel never assigns (passes/ir/stride.h hms_stride_eval). */
static bool reads_assigned_param(const ctx *c, const ir_expr *e, int depth)
{
    if (!e || depth > MAX_DEPTH)
        return e != NULL;
    if (e->kind == IR_VAR)
        return e->var < 0 || (size_t)e->var >= c->k->nvars || c->param_assigned[e->var];
    return reads_assigned_param(c, e->a, depth + 1) || reads_assigned_param(c, e->b, depth + 1) ||
           reads_assigned_param(c, e->c, depth + 1);
}

static bool number_of(const ctx *c, const ir_expr *e, int64_t *v)
{
    bool approx;
    return !reads_assigned_param(c, e, 0) && hms_stride_eval(c->k, c->opt, e, v, &approx);
}

static deriv d_expr(const ctx *c, const ir_expr *e, int depth)
{
    if (!e || depth > MAX_DEPTH)
        return TOP;
    deriv a, b, s;
    int64_t n;
    switch (e->kind) {
    case IR_CONST:
        return ZERO;
    case IR_SYM:
        if (e->sym >= IR_SYM_BID_X && e->sym <= IR_SYM_BID_Z) {
            deriv u = ZERO;
            u.d[e->sym - IR_SYM_BID_X] = 1;
            return u;
        }
        return ZERO;
    case IR_VAR:
        if (e->var < 0 || (size_t)e->var >= c->k->nvars)
            return TOP;
        return c->var[e->var];
    case IR_UNKNOWN:
        /* A load's stand-in hashes the address it read; an unknown of no
           load site has no value on any lane in every block (both ways). */
        return e->site < 0 ? ZERO : TOP;
    case IR_UNARY:
        a = d_expr(c, e->a, depth + 1);
        if (a.top || a.bot)
            return a;
        if (e->op == IR_OP_NEG)
            return scale(a, -1);
        return is_zero(a) ? ZERO : TOP; /* ! and ~ are not affine */
    case IR_BINARY:
        a = d_expr(c, e->a, depth + 1);
        b = d_expr(c, e->b, depth + 1);
        if (a.top || b.top)
            return TOP;
        if (a.bot || b.bot)
            return BOT;
        if (e->op == IR_OP_ADD)
            return combine(a, 1, b);
        if (e->op == IR_OP_SUB)
            return combine(a, -1, b);
        if (is_zero(a) && is_zero(b))
            return ZERO;
        /* Both sides move by the same amount: a comparison keeps its
         * outcome, min and max move with them. A comparison whose sides
         * move apart is a guard: its outcome is the same in a block only
         * where block_derive.c checks it (never in what the tracer
         * evaluates without logging: loop conditions, trip counts). */
        if (ir_op_compares(e->op) && (same(a, b) || !c->strict))
            return ZERO;
        if (same(a, b) && (e->op == IR_OP_MIN || e->op == IR_OP_MAX))
            return a;
        if (e->op == IR_OP_MUL && is_zero(b) && number_of(c, e->b, &n))
            return scale(a, n);
        if (e->op == IR_OP_MUL && is_zero(a) && number_of(c, e->a, &n))
            return scale(b, n);
        if (e->op == IR_OP_SHL && is_zero(b) && number_of(c, e->b, &n) && n >= 0 && n <= 62)
            return scale(a, (int64_t)1 << n);
        return TOP; /* not affine in blockIdx */
    case IR_SELECT:
        s = d_expr(c, e->a, depth + 1);
        a = d_expr(c, e->b, depth + 1);
        b = d_expr(c, e->c, depth + 1);
        if (s.top || a.top || b.top)
            return TOP;
        if (s.bot || a.bot || b.bot)
            return BOT;
        if (!is_zero(s) || !same(a, b))
            return TOP; /* the choice, or what is chosen, depends on the block */
        return a;
    }
    return TOP;
}

/* The join of a variable's derivative with one more assigned value. */
static void join_var(ctx *c, int var, deriv v)
{
    deriv *x = &c->var[var];
    deriv r;
    if (v.bot || x->top)
        return;
    if (x->bot)
        r = v;
    else if (v.top || !same(*x, v))
        r = TOP;
    else
        return;
    *x = r;
    c->changed = true;
}

static void visit_assign(const ir_stmt *s, void *p)
{
    ctx *c = p;
    if (s->kind == IR_S_ASSIGN && s->var >= 0 && (size_t)s->var < c->k->nvars)
        join_var(c, s->var, d_expr(c, s->value, 0));
}

static void mark_param_assigned(const ir_stmt *s, void *p)
{
    ctx *c = p;
    if (s->kind == IR_S_ASSIGN && s->var >= 0 && (size_t)s->var < c->k->nvars &&
        c->k->vars[s->var].kind == IR_VAR_PARAM)
        c->param_assigned[s->var] = true;
}

static void reject(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reject(ctx *c, const char *fmt, ...)
{
    if (!c->out->translates)
        return; /* keep the first reason */
    c->out->translates = false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->out->why, sizeof c->out->why, fmt, ap);
    va_end(ap);
}

static void require_zero(ctx *c, const ir_expr *e, const char *what, ir_loc loc, bool strict)
{
    c->strict = strict;
    bool zero = !e || is_zero(d_expr(c, e, 0));
    c->strict = false;
    if (!zero)
        reject(c, "%s at line %u depends on blockIdx (or on a value the rules do not follow)", what,
               loc.line);
}

static void visit_check(const ir_stmt *s, void *p)
{
    ctx *c = p;
    switch (s->kind) {
    case IR_S_IF:
        require_zero(c, s->cond, "branch condition", s->loc, false);
        break;
    case IR_S_LOOP:
        require_zero(c, s->cond, "loop condition", s->loc, true);
        require_zero(c, s->trip, "loop trip count", s->loc, true);
        break;
    case IR_S_ACCESS: {
        const ir_access *a = &s->access;
        if (a->array < 0 || (size_t)a->array >= c->k->narrays || a->id < 0 ||
            (size_t)a->id >= c->out->nsites) {
            reject(c, "malformed access");
            break;
        }
        if (c->k->arrays[a->array].space == HMS_SPACE_LOCAL)
            reject(c, "local array '%s' (its addresses depend on the resident slot)",
                   c->k->arrays[a->array].name ? c->k->arrays[a->array].name : "?");
        deriv i1 = d_expr(c, a->index, 0), i2 = a->index2 ? d_expr(c, a->index2, 0) : ZERO;
        if (i1.top || i1.bot || i2.top || i2.bot)
            reject(c, "index of access at line %u is not affine in blockIdx", a->loc.line);
        c->out->index[a->id] = i1;
        c->out->index2[a->id] = i2;
        break;
    }
    default:
        break;
    }
}

bool hms_block_translation_of(const ir_kernel *k, const hms_trace_options *opt,
                              hms_block_translation *out)
{
    memset(out, 0, sizeof *out);
    size_t nv = k->nvars ? k->nvars : 1, ns = k->nsites ? k->nsites : 1;
    out->var = calloc(nv, sizeof *out->var);
    out->param_assigned = calloc(nv, sizeof *out->param_assigned);
    out->index = calloc(ns, sizeof *out->index);
    out->index2 = calloc(ns, sizeof *out->index2);
    out->nvars = k->nvars;
    out->nsites = k->nsites;
    if (!out->var || !out->param_assigned || !out->index || !out->index2) {
        hms_block_translation_free(out);
        return false;
    }
    ctx c = {k, opt, out->var, out->param_assigned, false, false, out};
    out->translates = true;
    ir_stmt_each(k->body, mark_param_assigned, &c);
    /* Parameters hold their value at entry (derivative 0); locals have no
     * value until assigned. */
    for (size_t v = 0; v < k->nvars; v++)
        c.var[v] = k->vars[v].kind == IR_VAR_PARAM ? ZERO : BOT;
    /* Each variable rises bot -> one derivative -> top at most once each:
     * 2 * nvars + 1 rounds close it. */
    for (size_t round = 0; round <= 2 * k->nvars + 1; round++) {
        c.changed = false;
        ir_stmt_each(k->body, visit_assign, &c);
        if (!c.changed)
            break;
    }
    /* A variable still without value is never assigned a known one: its
     * lanes stay unknown in every block (derivative 0); check that this
     * closes the fixpoint. */
    for (size_t v = 0; v < k->nvars; v++)
        if (c.var[v].bot)
            c.var[v] = ZERO;
    c.changed = false;
    ir_stmt_each(k->body, visit_assign, &c);
    if (c.changed)
        reject(&c, "variables' blockIdx derivatives do not settle");
    for (size_t v = 0; v < k->nvars; v++)
        if (c.var[v].top)
            reject(&c, "variable '%s' is not affine in blockIdx",
                   k->vars[v].name ? k->vars[v].name : "?");
    ir_stmt_each(k->body, visit_check, &c);
    return true;
}

hms_bid_deriv hms_block_expr_deriv(const hms_block_translation *bt, const ir_kernel *k,
                                   const hms_trace_options *opt, const ir_expr *e)
{
    ctx c = {k, opt, bt->var, bt->param_assigned, false, false, NULL};
    deriv d = d_expr(&c, e, 0);
    if (d.bot) /* cannot happen once settled; no derivative then */
        d = TOP;
    return d;
}

void hms_block_translation_free(hms_block_translation *bt)
{
    if (!bt)
        return;
    free(bt->var);
    free(bt->param_assigned);
    free(bt->index);
    free(bt->index2);
    memset(bt, 0, sizeof *bt);
}
