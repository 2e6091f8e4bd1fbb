/* Which way guards pull the parameters (guard_lean.h). */
#include "analyzer/frontend/guard_lean.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* How deep a chain of local assignments is followed back to parameters. */
#define MAX_DEPTH 8

typedef struct {
    const ir_kernel *k;
    int *votes;
    int *side[2];            /* the pulls of one comparison's two sides */
    const ir_stmt **assigns; /* every ASSIGN of the kernel */
    size_t nassigns, cap;
} lean;

static void collect_assign(const ir_stmt *s, void *ctx)
{
    lean *l = ctx;
    if (s->kind != IR_S_ASSIGN)
        return;
    if (l->nassigns == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        const ir_stmt **v = realloc(l->assigns, cap * sizeof *v);
        if (!v)
            return;
        l->assigns = v;
        l->cap = cap;
    }
    l->assigns[l->nassigns++] = s;
}

static bool const_of(const ir_expr *e, int64_t *v)
{
    if (!e || e->kind != IR_CONST)
        return false;
    *v = e->value;
    return true;
}

/* e should be large (want > 0) or small (want < 0). */
static void pull(lean *l, const ir_expr *e, int want, int depth)
{
    if (!e || depth > MAX_DEPTH)
        return;
    int64_t c;
    switch (e->kind) {
    case IR_VAR: {
        if (e->var < 0 || (size_t)e->var >= l->k->nvars)
            return;
        if (l->k->vars[e->var].kind == IR_VAR_PARAM) {
            l->side[0][e->var] += want > 0 ? 1 : -1;
            return;
        }
        for (size_t i = 0; i < l->nassigns; i++) /* a local: what it is assigned */
            if (l->assigns[i]->var == e->var)
                pull(l, l->assigns[i]->value, want, depth + 1);
        return;
    }
    case IR_UNARY:
        if (e->op == IR_OP_NEG || e->op == IR_OP_BITNOT)
            pull(l, e->a, -want, depth);
        return;
    case IR_SELECT:
        pull(l, e->b, want, depth);
        pull(l, e->c, want, depth);
        return;
    case IR_BINARY:
        switch (e->op) {
        case IR_OP_ADD:
        case IR_OP_MIN:
        case IR_OP_MAX:
        case IR_OP_SHL:
            pull(l, e->a, want, depth);
            pull(l, e->b, want, depth);
            return;
        case IR_OP_SUB:
        case IR_OP_DIV:
        case IR_OP_SHR:
            pull(l, e->a, want, depth);
            pull(l, e->b, -want, depth);
            return;
        case IR_OP_MUL: /* by a constant: its sign decides */
            if (const_of(e->b, &c) && c != 0)
                pull(l, e->a, c > 0 ? want : -want, depth);
            else if (const_of(e->a, &c) && c != 0)
                pull(l, e->b, c > 0 ? want : -want, depth);
            return;
        default:
            return;
        }
    default:
        return;
    }
}

/* `lo < hi` must hold (truth > 0) or not: lo's parameters pulled small, hi's
 * large. One on both sides (`x <= r` with x starting at -r) says nothing of
 * its size: it is left out. */
static void compare(lean *l, const ir_expr *lo, const ir_expr *hi, int truth)
{
    int *votes = l->side[0];
    memset(l->side[0], 0, l->k->nvars * sizeof(int));
    memset(l->side[1], 0, l->k->nvars * sizeof(int));
    pull(l, lo, -truth, 0);
    l->side[0] = l->side[1];
    l->side[1] = votes;
    pull(l, hi, truth, 0); /* into the other array */
    for (size_t v = 0; v < l->k->nvars; v++)
        if (!l->side[0][v] || !l->side[1][v])
            l->votes[v] += l->side[0][v] + l->side[1][v];
}

/* cond must be true (truth > 0) or false (truth < 0) for the accesses to run. */
static void require(lean *l, const ir_expr *cond, int truth)
{
    if (!cond)
        return;
    if (cond->kind == IR_UNARY && cond->op == IR_OP_NOT) {
        require(l, cond->a, -truth);
        return;
    }
    if (cond->kind != IR_BINARY)
        return;
    switch (cond->op) {
    case IR_OP_LAND: /* both true; when false, which one is not known */
        if (truth > 0) {
            require(l, cond->a, 1);
            require(l, cond->b, 1);
        }
        return;
    case IR_OP_LOR:
        if (truth < 0) {
            require(l, cond->a, -1);
            require(l, cond->b, -1);
        }
        return;
    case IR_OP_LT:
    case IR_OP_LE: /* a below b */
        compare(l, cond->a, cond->b, truth);
        return;
    case IR_OP_GT:
    case IR_OP_GE:
        compare(l, cond->b, cond->a, truth);
        return;
    default:
        return;
    }
}

static void note_access(const ir_stmt *s, void *found)
{
    if (s->kind == IR_S_ACCESS)
        *(bool *)found = true;
}

static bool has_access(const ir_stmt *s)
{
    bool found = false;
    ir_stmt_each(s, note_access, &found);
    return found;
}

static void walk(lean *l, const ir_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            walk(l, s->items.v[i]);
        break;
    case IR_S_IF:
        if (has_access(s->then))
            require(l, s->cond, 1);
        else if (has_access(s->els) || ir_stmt_only_leaves(s->then))
            require(l, s->cond, -1);
        walk(l, s->then);
        walk(l, s->els);
        break;
    case IR_S_LOOP:
        if (has_access(s->body))
            require(l, s->cond, 1); /* it must run once */
        walk(l, s->body);
        break;
    default:
        break;
    }
}

void hms_guard_lean(const ir_kernel *k, int *votes)
{
    lean l = {k,    votes, {calloc(k->nvars + 1, sizeof(int)), calloc(k->nvars + 1, sizeof(int))},
              NULL, 0,     0};
    if (l.side[0] && l.side[1]) {
        ir_stmt_each(k->body, collect_assign, &l);
        walk(&l, k->body);
    }
    free(l.side[0]);
    free(l.side[1]);
    free(l.assigns);
}
