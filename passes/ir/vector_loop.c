/* Per-lane runs of a site over a short constant loop (passes/ir/vector_loop.h). */
#include "passes/ir/vector_loop.h"

#include <stddef.h>

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
