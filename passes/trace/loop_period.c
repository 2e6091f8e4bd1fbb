/* Shift-periodicity of a loop body: see loop_period.h. */
#include "passes/trace/loop_period.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { AFF_INVARIANT = 0, AFF_AFFINE = 1, AFF_NO = 2 } aff_kind;

static bool refs_tainted(const ir_expr *e, const bool *tainted)
{
    if (!e)
        return false;
    if (e->kind == IR_VAR)
        return tainted[e->var];
    return refs_tainted(e->a, tainted) || refs_tainted(e->b, tainted) ||
           refs_tainted(e->c, tainted);
}

/* How e depends on the tainted variables. */
static aff_kind affinity(const ir_expr *e, const bool *tainted)
{
    aff_kind a, b;
    switch (e->kind) {
    case IR_CONST:
    case IR_SYM:
    case IR_UNKNOWN:
        return AFF_INVARIANT;
    case IR_VAR:
        return tainted[e->var] ? AFF_AFFINE : AFF_INVARIANT;
    case IR_UNARY:
        a = affinity(e->a, tainted);
        return e->op == IR_OP_NEG || a == AFF_INVARIANT ? a : AFF_NO;
    case IR_SELECT:
        if (refs_tainted(e->a, tainted))
            return AFF_NO;
        a = affinity(e->b, tainted);
        b = affinity(e->c, tainted);
        return a > b ? a : b;
    case IR_BINARY:
        a = affinity(e->a, tainted);
        b = affinity(e->b, tainted);
        if (a == AFF_NO || b == AFF_NO)
            return AFF_NO;
        switch (e->op) {
        case IR_OP_ADD:
        case IR_OP_SUB:
            return a > b ? a : b;
        case IR_OP_MUL:
            return a == AFF_AFFINE && b == AFF_AFFINE ? AFF_NO : (a > b ? a : b);
        case IR_OP_SHL:
            return b == AFF_INVARIANT ? a : AFF_NO;
        default:
            return a == AFF_INVARIANT && b == AFF_INVARIANT ? AFF_INVARIANT : AFF_NO;
        }
    }
    return AFF_NO;
}

typedef struct {
    const ir_kernel *k;
    const bool *tainted;
    char *why;
    size_t len;
} walk_ctx;

static bool fail(walk_ctx *c, ir_loc loc, const char *what)
{
    snprintf(c->why, c->len, "%s at line %u changes from iteration to iteration", what, loc.line);
    return false;
}

static bool check_stmt(walk_ctx *c, const ir_stmt *s)
{
    if (!s)
        return true;
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            if (!check_stmt(c, s->items.v[i]))
                return false;
        return true;
    case IR_S_ACCESS:
        if (affinity(s->access.index, c->tainted) == AFF_NO ||
            (s->access.index2 && affinity(s->access.index2, c->tainted) == AFF_NO))
            return fail(c, s->access.loc, "a non-affine index");
        return true;
    case IR_S_ASSIGN:
        if (affinity(s->value, c->tainted) == AFF_NO)
            return fail(c, s->loc, "a non-affine value");
        return true;
    case IR_S_IF:
        if (refs_tainted(s->cond, c->tainted))
            return fail(c, s->loc, "a branch condition");
        return check_stmt(c, s->then) && check_stmt(c, s->els);
    case IR_S_LOOP:
        if (refs_tainted(s->cond, c->tainted))
            return fail(c, s->loc, "an inner loop's condition");
        return check_stmt(c, s->init) && check_stmt(c, s->body) && check_stmt(c, s->step);
    default:
        return true;
    }
}

/* A conjunction of monotone comparisons of affine values. */
static bool monotone_cond(const ir_expr *e, const bool *tainted)
{
    if (e->kind != IR_BINARY)
        return !refs_tainted(e, tainted);
    switch (e->op) {
    case IR_OP_LAND:
        return monotone_cond(e->a, tainted) && monotone_cond(e->b, tainted);
    case IR_OP_LT:
    case IR_OP_LE:
    case IR_OP_GT:
    case IR_OP_GE:
        return affinity(e->a, tainted) != AFF_NO && affinity(e->b, tainted) != AFF_NO;
    default:
        return !refs_tainted(e, tainted);
    }
}

static void mark_assigned(const ir_stmt *s, void *mark)
{
    if (s->kind == IR_S_ASSIGN)
        ((bool *)mark)[s->var] = true;
}

void hms_stmt_assigned_vars(const ir_stmt *s, bool *mark)
{
    ir_stmt_each(s, mark_assigned, mark);
}

/* Marks the shared arrays the statement stores to. */
static void shared_stores(const ir_kernel *k, const ir_stmt *s, bool *mark)
{
    if (!s)
        return;
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            shared_stores(k, s->items.v[i], mark);
        return;
    case IR_S_ACCESS:
        if (k->arrays[s->access.array].space == HMS_SPACE_SHARED &&
            s->access.kind != HMS_ACCESS_LOAD)
            mark[s->access.array] = true;
        return;
    case IR_S_IF:
        shared_stores(k, s->then, mark);
        shared_stores(k, s->els, mark);
        return;
    case IR_S_LOOP:
        shared_stores(k, s->init, mark);
        shared_stores(k, s->body, mark);
        shared_stores(k, s->step, mark);
        return;
    default:
        return;
    }
}

/* A load of a marked array outside `skip`. */
static const ir_access *loaded_outside(const ir_kernel *k, const ir_stmt *s, const ir_stmt *skip,
                                       const bool *mark)
{
    const ir_access *a = NULL;
    if (!s || s == skip)
        return NULL;
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n && !a; i++)
            a = loaded_outside(k, s->items.v[i], skip, mark);
        return a;
    case IR_S_ACCESS:
        return mark[s->access.array] && s->access.kind != HMS_ACCESS_STORE ? &s->access : NULL;
    case IR_S_IF:
        a = loaded_outside(k, s->then, skip, mark);
        return a ? a : loaded_outside(k, s->els, skip, mark);
    case IR_S_LOOP:
        a = loaded_outside(k, s->init, skip, mark);
        a = a ? a : loaded_outside(k, s->body, skip, mark);
        return a ? a : loaded_outside(k, s->step, skip, mark);
    default:
        return NULL;
    }
}

bool hms_loop_is_periodic(const ir_kernel *k, const ir_stmt *loop, const bool *carried,
                          bool *tainted, char *why, size_t len)
{
    if (!loop || loop->kind != IR_S_LOOP || !loop->cond) {
        snprintf(why, len, "the loop has no condition to bound it");
        return false;
    }
    memcpy(tainted, carried, k->nvars * sizeof *tainted);
    /* each round taints at least one more variable, or stops */
    for (bool more = true; more;) {
        /* both walks run every round */
        bool in_body = ir_flag_assignments(loop->body, tainted, k->nvars, refs_tainted);
        more = ir_flag_assignments(loop->step, tainted, k->nvars, refs_tainted) || in_body;
    }
    walk_ctx c = {k, tainted, why, len};
    if (!monotone_cond(loop->cond, tainted)) {
        snprintf(why, len, "the loop condition is not a monotone comparison");
        return false;
    }
    if (!check_stmt(&c, loop->body) || !check_stmt(&c, loop->step))
        return false;
    /* Shared memory the loop fills and later code reads: what every
     * iteration stored matters after the loop (the shared-reuse analysis
     * follows each element from its global source), not just the pattern. */
    bool *mark = calloc(k->narrays ? k->narrays : 1, sizeof *mark);
    if (!mark) {
        snprintf(why, len, "out of memory");
        return false;
    }
    shared_stores(k, loop->body, mark);
    shared_stores(k, loop->step, mark);
    const ir_access *a = loaded_outside(k, k->body, loop, mark);
    free(mark);
    if (a) {
        snprintf(why, len, "shared memory it writes is read after it (line %u)", a->loc.line);
        return false;
    }
    return true;
}
