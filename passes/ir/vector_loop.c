/* Per-lane runs of a site over a short constant loop (passes/ir/vector_loop.h). */
#include "passes/ir/vector_loop.h"

#include <stddef.h>
#include <stdint.h>

/* Coefficient of `var` in e when e is a sum/difference of terms in which
 * var appears once, bare, with + sign or -; 0 otherwise (also when it is
 * absent). */
static int unit_coeff(const ir_expr *e, int var)
{
    if (!e)
        return 0;
    if (e->kind == IR_VAR && e->var == var)
        return 1;
    if (e->kind != IR_BINARY || (e->op != IR_OP_ADD && e->op != IR_OP_SUB))
        return 0;
    bool in_a = ir_expr_uses_var(e->a, var), in_b = ir_expr_uses_var(e->b, var);
    if (in_a == in_b)
        return 0;
    int c = unit_coeff(in_a ? e->a : e->b, var);
    return in_b && e->op == IR_OP_SUB ? -c : c;
}

/* Whether the loop's step is `var = var + 1` (possibly in a block). */
static bool steps_by_one(const ir_stmt *step, int var)
{
    if (!step)
        return false;
    if (step->kind == IR_S_BLOCK)
        return step->items.n == 1 && steps_by_one(step->items.v[0], var);
    if (step->kind != IR_S_ASSIGN || step->var != var || !step->value)
        return false;
    const ir_expr *v = step->value;
    if (v->kind != IR_BINARY || v->op != IR_OP_ADD)
        return false;
    const ir_expr *x = v->a, *c = v->b;
    if (x && x->kind == IR_CONST)
        x = v->b, c = v->a;
    return x && x->kind == IR_VAR && x->var == var && c && c->kind == IR_CONST && c->value == 1;
}

/* The innermost loop enclosing the access statement of site `id` under s
 * (`loop` the innermost so far); NULL when not found or not in a loop. */
static const ir_stmt *find_loop(const ir_stmt *s, int id, const ir_stmt *loop, bool *found)
{
    if (!s || *found)
        return NULL;
    switch (s->kind) {
    case IR_S_ACCESS:
        if (s->access.id == id) {
            *found = true;
            return loop;
        }
        return NULL;
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++) {
            const ir_stmt *r = find_loop(s->items.v[i], id, loop, found);
            if (*found)
                return r;
        }
        return NULL;
    case IR_S_IF: {
        const ir_stmt *r = find_loop(s->then, id, loop, found);
        return *found ? r : find_loop(s->els, id, loop, found);
    }
    case IR_S_LOOP: {
        const ir_stmt *r = find_loop(s->init, id, loop, found);
        if (*found)
            return r;
        r = find_loop(s->body, id, s, found);
        return *found ? r : find_loop(s->step, id, s, found);
    }
    default:
        return NULL;
    }
}

const ir_stmt *hms_unit_loop(const ir_kernel *k, const ir_access *a)
{
    if (a->width <= 0 || a->elem_stride != a->width || a->index2)
        return NULL;
    bool found = false;
    const ir_stmt *loop = find_loop(k->body, a->id, NULL, &found);
    if (!loop || loop->loop_var < 0 || !loop->test_first ||
        !steps_by_one(loop->step, loop->loop_var))
        return NULL;
    int c = unit_coeff(a->index, loop->loop_var);
    return c == 1 || c == -1 ? loop : NULL;
}

bool hms_walks_own_run(const ir_kernel *k, const ir_access *a)
{
    const ir_stmt *loop = hms_unit_loop(k, a);
    /* compared as trip > max / width: no overflow for any trip count */
    return loop && (loop->trip_count < 0 || loop->trip_count > HMS_VECTOR_RUN_MAX_BYTES / a->width);
}

int hms_vector_loop_bytes(const ir_kernel *k, const ir_access *a)
{
    const ir_stmt *loop = hms_unit_loop(k, a);
    if (!loop || loop->trip_count < 2 || loop->trip_count > HMS_VECTOR_RUN_MAX_BYTES / a->width)
        return a->width;
    return (int)(loop->trip_count * a->width);
}

/* Coefficient of `var` in e when e is linear in it (sums, differences and
 * products by constants); false when var appears otherwise. Coefficients
 * stay small (|c| < 2^20) so nothing overflows. */
static bool linear_coeff(const ir_expr *e, int var, int64_t *c)
{
    *c = 0;
    if (!e || !ir_expr_uses_var(e, var))
        return true;
    if (e->kind == IR_VAR)
        return (*c = 1, e->var == var);
    if (e->kind == IR_UNARY && e->op == IR_OP_NEG) {
        bool ok = linear_coeff(e->a, var, c);
        *c = -*c;
        return ok;
    }
    if (e->kind != IR_BINARY)
        return false;
    int64_t ca, cb;
    const int64_t lim = (int64_t)1 << 20;
    switch (e->op) {
    case IR_OP_ADD:
    case IR_OP_SUB:
        if (!linear_coeff(e->a, var, &ca) || !linear_coeff(e->b, var, &cb))
            return false;
        *c = e->op == IR_OP_ADD ? ca + cb : ca - cb;
        return *c > -lim && *c < lim;
    case IR_OP_MUL: {
        const ir_expr *k = e->a && e->a->kind == IR_CONST ? e->a : e->b;
        const ir_expr *x = k == e->a ? e->b : e->a;
        if (!k || k->kind != IR_CONST || k->value <= -lim || k->value >= lim ||
            !linear_coeff(x, var, &ca))
            return false;
        *c = ca * k->value;
        return *c > -lim && *c < lim;
    }
    default:
        return false;
    }
}

/* The constant step of `var = var + s` (possibly in a block), or 0. */
static int64_t const_step(const ir_stmt *step, int var)
{
    if (!step)
        return 0;
    if (step->kind == IR_S_BLOCK)
        return step->items.n == 1 ? const_step(step->items.v[0], var) : 0;
    if (step->kind != IR_S_ASSIGN || step->var != var || !step->value)
        return 0;
    const ir_expr *v = step->value;
    if (v->kind != IR_BINARY || v->op != IR_OP_ADD)
        return 0;
    const ir_expr *x = v->a, *c = v->b;
    if (x && x->kind == IR_CONST)
        x = v->b, c = v->a;
    bool ok = x && x->kind == IR_VAR && x->var == var && c && c->kind == IR_CONST && c->value > 0 &&
              c->value < ((int64_t)1 << 20);
    return ok ? c->value : 0;
}

int hms_vector_chunk_bytes(const ir_kernel *k, const ir_access *a)
{
    if (a->width < HMS_VECTOR_RUN_MAX_BYTES || a->elem_stride <= 0 || a->index2)
        return a->width;
    bool found = false;
    const ir_stmt *loop = find_loop(k->body, a->id, NULL, &found);
    /* loads rest on L1 keeping the lines between the loop's requests, so
     * the run is bounded; L2 merges partial sector writes however far apart
     * they come, so a store loop's run is whole sectors at any length */
    if (!loop || loop->loop_var < 0 || !loop->test_first || loop->trip_count < 2 ||
        (a->kind != HMS_ACCESS_STORE &&
         loop->trip_count > HMS_VECTOR_CHUNK_RUN_MAX_BYTES / a->width) ||
        loop->trip_count > INT32_MAX / a->width)
        return a->width;
    int64_t step = const_step(loop->step, loop->loop_var), coeff = 0;
    if (!step || !linear_coeff(a->index, loop->loop_var, &coeff))
        return a->width;
    /* bytes a lane moves on per iteration: one whole vector, forwards */
    if (coeff * step * a->elem_stride != a->width)
        return a->width;
    return (int)(loop->trip_count * a->width);
}
