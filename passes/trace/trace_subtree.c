/* The subtree table (trace_subtree.h): per operation node, its distinct
 * leaves, found once, and its kept value. */
#include "passes/trace/trace_subtree.h"

#include <stdlib.h>
#include <string.h>

static bool same_leaf(const ir_expr *a, const ir_expr *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case IR_VAR:
        return a->var == b->var;
    case IR_SYM:
        return a->sym == b->sym;
    default: /* IR_UNKNOWN */
        return a->site == b->site;
    }
}

/* Adds the leaves of e to x (false when there are too many); counts the
 * operation nodes in *ops. */
static bool gather(trace_subtree *x, const ir_expr *e, unsigned *ops)
{
    if (!e)
        return true;
    switch (e->kind) {
    case IR_CONST:
        return true;
    case IR_VAR:
    case IR_SYM:
    case IR_UNKNOWN:
        for (unsigned i = 0; i < x->nleaves; i++)
            if (same_leaf(x->leaf[i], e))
                return true;
        if (x->nleaves == TRACE_SUBTREE_MAX_LEAVES)
            return false;
        x->leaf[x->nleaves++] = e;
        return true;
    case IR_UNARY:
    case IR_BINARY:
    case IR_SELECT:
        ++*ops;
        return gather(x, e->a, ops) && gather(x, e->b, ops) && gather(x, e->c, ops);
    default:
        return false; /* a kind the interpreter does not evaluate: never skipped */
    }
}

static size_t slot_of(const trace_subtrees *s, const ir_expr *e)
{
    uint64_t h = ((uint64_t)(uintptr_t)e >> 3) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (s->cap - 1);
}

static bool grow(trace_subtrees *s)
{
    size_t cap = s->cap ? s->cap * 2 : 256;
    trace_subtree *v = calloc(cap, sizeof *v), *old = s->v;
    if (!v)
        return false;
    size_t oldcap = s->cap;
    s->v = v;
    s->cap = cap;
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i].e)
            continue;
        size_t j = slot_of(s, old[i].e);
        while (v[j].e)
            j = (j + 1) & (cap - 1);
        v[j] = old[i];
    }
    free(old);
    return true;
}

trace_subtree *trace_subtree_of(trace_subtrees *s, const ir_expr *e)
{
    if (s->cap) {
        size_t i = slot_of(s, e);
        for (; s->v[i].e; i = (i + 1) & (s->cap - 1))
            if (s->v[i].e == e)
                return &s->v[i];
    }
    if ((s->n + 1) * 2 > s->cap && !grow(s))
        return NULL;
    size_t i = slot_of(s, e);
    while (s->v[i].e)
        i = (i + 1) & (s->cap - 1);
    trace_subtree *x = &s->v[i];
    memset(x, 0, sizeof *x);
    x->e = e;
    unsigned ops = 0;
    if (!gather(x, e, &ops) || ops < TRACE_SUBTREE_MIN_OPS)
        x->nleaves = 0;
    s->n++;
    return x;
}

void trace_subtrees_free(trace_subtrees *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->v[i].value);
    free(s->v);
    memset(s, 0, sizeof *s);
}
