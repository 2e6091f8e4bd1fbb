/* Groups of off-chip loads in flight together (passes/ir/load_groups.h). */
#include "passes/ir/load_groups.h"

#include <stdlib.h>

/* Membership is a generation stamp: closing a group bumps `gen`, so nothing
 * is cleared and a stamp equal to `gen` means "in the open group". */
typedef struct {
    const ir_kernel *k;
    int *leader;        /* by site */
    unsigned *site_gen; /* by site: group the load joined */
    unsigned *var_gen;  /* by var: assigned a value of that group */
    unsigned *arr_gen;  /* by array: a load of that group reads it */
    unsigned gen;
    int open; /* leader of the open group, or -1 */
} lg_walk;

static void close_group(lg_walk *w)
{
    if (w->open >= 0)
        w->gen++;
    w->open = -1;
}

static bool off_chip(hms_space s)
{
    /* shared is on-chip; constant reads are served by the constant cache
     * (a uniform index becomes an instruction operand) */
    return s != HMS_SPACE_SHARED && s != HMS_SPACE_CONSTANT;
}

/* Does e read a value of the open group? */
static bool uses_group(const lg_walk *w, const ir_expr *e)
{
    if (!e || w->open < 0)
        return false;
    switch (e->kind) {
    case IR_VAR:
        return e->var >= 0 && (size_t)e->var < w->k->nvars && w->var_gen[e->var] == w->gen;
    case IR_UNKNOWN:
        if (e->site >= 0 && (size_t)e->site < w->k->nsites)
            return w->site_gen[e->site] == w->gen;
        /* derived from a load we cannot name: any open load of its array */
        return e->array >= 0 && (size_t)e->array < w->k->narrays && w->arr_gen[e->array] == w->gen;
    default:
        return uses_group(w, e->a) || uses_group(w, e->b) || uses_group(w, e->c);
    }
}

static void any_access(const ir_stmt *s, void *ctx)
{
    if (s->kind == IR_S_ACCESS)
        *(bool *)ctx = true;
}

static bool has_access(const ir_stmt *s)
{
    bool found = false;
    ir_stmt_each(s, any_access, &found);
    return found;
}

static void walk(lg_walk *w, const ir_stmt *s);

static void access(lg_walk *w, const ir_access *a)
{
    if (a->id < 0 || (size_t)a->id >= w->k->nsites || a->array < 0 ||
        (size_t)a->array >= w->k->narrays)
        return;
    if (uses_group(w, a->index) || uses_group(w, a->index2))
        close_group(w); /* a dependent load or store waits for the group */
    hms_space space = w->k->arrays[a->array].space;
    if (a->kind != HMS_ACCESS_LOAD) {
        close_group(w); /* the stored value comes from the loads before it */
        return;
    }
    if (!off_chip(space))
        return;
    if (w->open < 0)
        w->open = a->id;
    w->leader[a->id] = w->open;
    w->site_gen[a->id] = w->gen;
    w->arr_gen[a->array] = w->gen;
}

static void walk(lg_walk *w, const ir_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            walk(w, s->items.v[i]);
        break;
    case IR_S_ACCESS:
        access(w, &s->access);
        break;
    case IR_S_ASSIGN:
        if (s->var >= 0 && (size_t)s->var < w->k->nvars)
            w->var_gen[s->var] = uses_group(w, s->value) ? w->gen : 0;
        break;
    case IR_S_IF: {
        if (uses_group(w, s->cond))
            close_group(w);
        if (!has_access(s->then) && !has_access(s->els)) {
            walk(w, s->then); /* assignments only: the group goes on */
            walk(w, s->els);
            break;
        }
        walk(w, s->then); /* the loads before the if stay in flight into it */
        close_group(w);
        walk(w, s->els);
        close_group(w);
        break;
    }
    case IR_S_LOOP:
        walk(w, s->init);
        close_group(w);
        walk(w, s->body);
        close_group(w);
        walk(w, s->step);
        close_group(w);
        break;
    case IR_S_SYNC:
        close_group(w);
        break;
    default:
        break;
    }
}

bool ir_load_groups(const ir_kernel *k, int *leader)
{
    for (size_t i = 0; i < k->nsites; i++)
        leader[i] = -1;
    lg_walk w = {.k = k, .leader = leader, .gen = 1, .open = -1};
    w.site_gen = calloc(k->nsites ? k->nsites : 1, sizeof *w.site_gen);
    w.var_gen = calloc(k->nvars ? k->nvars : 1, sizeof *w.var_gen);
    w.arr_gen = calloc(k->narrays ? k->narrays : 1, sizeof *w.arr_gen);
    bool ok = w.site_gen && w.var_gen && w.arr_gen;
    if (ok)
        walk(&w, k->body);
    else
        for (size_t i = 0; i < k->nsites; i++)
            leader[i] = -1;
    free(w.site_gen);
    free(w.var_gen);
    free(w.arr_gen);
    return ok;
}

double ir_load_mlp(const ir_kernel *k, const int *leader, const double *count)
{
    double loads = 0, periods = 0;
    for (size_t s = 0; s < k->nsites; s++) {
        if (leader[s] < 0 || !(count[s] > 0))
            continue;
        loads += count[s];
        if (leader[s] == (int)s)
            periods += count[s];
    }
    return periods > 0 && loads > periods ? loads / periods : 1;
}
