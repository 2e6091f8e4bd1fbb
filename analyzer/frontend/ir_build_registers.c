/* Local arrays that live in registers. nvcc keeps a per-thread array in
 * registers when every index is known at compile time once loops with a
 * constant trip count are fully unrolled (`float acc[TM * TN]` indexed by
 * the counters of `for (m = 0; m < TM; m++)` loops); only an array indexed
 * by a run-time value is placed in local memory. A register array makes no
 * memory requests: its access sites are removed from the IR (the array
 * stays, marked in_registers, so --dump-ir says why it has no accesses). */
#include <stdlib.h>

#include "analyzer/frontend/ir_build_impl.h"

/* A thread holds at most 255 32-bit registers: a bigger array cannot be in
 * registers whatever its indices. */
#define MAX_REGISTER_ARRAY_BYTES (255 * 4)

typedef struct {
    ir_kernel *k;
    bool *dynamic;    /* per array: some access has a run-time index */
    int unrolled[64]; /* loop vars of the enclosing loops with a constant trip count */
    int nunrolled;
    bool too_deep; /* more nested loops than unrolled[] holds */
} reg_scan;

static bool unrolled_var(const reg_scan *s, int var)
{
    for (int i = 0; i < s->nunrolled; i++)
        if (s->unrolled[i] == var)
            return true;
    return false;
}

/* Is e known at compile time after unrolling: constants and the counters of
 * enclosing constant-trip loops only? */
static bool static_index(const reg_scan *s, const ir_expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case IR_CONST:
        return true;
    case IR_VAR:
        return unrolled_var(s, e->var);
    case IR_UNARY:
        return static_index(s, e->a);
    case IR_BINARY:
        return static_index(s, e->a) && static_index(s, e->b);
    case IR_SELECT:
        return static_index(s, e->a) && static_index(s, e->b) && static_index(s, e->c);
    default: /* thread indices, parameters, unknowns */
        return false;
    }
}

static void scan(reg_scan *s, const ir_stmt *st)
{
    if (!st)
        return;
    switch (st->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < st->items.n; i++)
            scan(s, st->items.v[i]);
        return;
    case IR_S_ACCESS: {
        const ir_access *a = &st->access;
        if (s->k->arrays[a->array].space == HMS_SPACE_LOCAL &&
            (s->too_deep || !static_index(s, a->index) || a->index2))
            s->dynamic[a->array] = true;
        return;
    }
    case IR_S_IF:
        scan(s, st->then);
        scan(s, st->els);
        return;
    case IR_S_LOOP: {
        scan(s, st->init);
        bool push = st->trip_count >= 0 && st->loop_var >= 0;
        if (push && s->nunrolled == (int)(sizeof s->unrolled / sizeof s->unrolled[0])) {
            s->too_deep = true;
            push = false;
        }
        if (push)
            s->unrolled[s->nunrolled++] = st->loop_var;
        scan(s, st->body);
        scan(s, st->step);
        if (push)
            s->nunrolled--;
        return;
    }
    default:
        return;
    }
}

static int64_t array_bytes(const ir_array *a)
{
    int64_t n = a->elem_bytes;
    for (int d = 0; d < a->ndims && d < 4; d++) {
        if (a->dims[d] <= 0)
            return 0;
        n *= a->dims[d];
        if (n > MAX_REGISTER_ARRAY_BYTES)
            return n;
    }
    return a->ndims > 0 ? n : 0;
}

/* Drops the access statements of register arrays from every block. */
static void drop(ir_kernel *k, ir_stmt *st)
{
    if (!st)
        return;
    switch (st->kind) {
    case IR_S_BLOCK: {
        size_t n = 0;
        for (size_t i = 0; i < st->items.n; i++) {
            ir_stmt *x = st->items.v[i];
            if (x->kind == IR_S_ACCESS && k->arrays[x->access.array].in_registers)
                continue;
            drop(k, x);
            st->items.v[n++] = x;
        }
        st->items.n = n;
        return;
    }
    case IR_S_IF:
        drop(k, st->then);
        drop(k, st->els);
        return;
    case IR_S_LOOP:
        drop(k, st->init);
        drop(k, st->body);
        drop(k, st->step);
        return;
    default:
        return;
    }
}

/* Renumbers the remaining sites densely (site ids index k->sites). */
static void renumber(ir_kernel *k)
{
    int *map = malloc((k->nsites ? k->nsites : 1) * sizeof *map);
    if (!map)
        return;
    size_t n = 0;
    for (size_t i = 0; i < k->nsites; i++) {
        ir_access *a = k->sites[i];
        if (k->arrays[a->array].in_registers) {
            map[i] = -1;
            continue;
        }
        map[i] = (int)n;
        a->id = (int)n;
        k->sites[n++] = a;
    }
    k->nsites = n;
    size_t m = 0;
    for (size_t i = 0; i < k->nmappings; i++) {
        ir_mapping mp = k->mappings[i];
        if (mp.fetch_site < 0 || mp.access_site < 0 || map[mp.fetch_site] < 0 ||
            map[mp.access_site] < 0)
            continue;
        mp.fetch_site = map[mp.fetch_site];
        mp.access_site = map[mp.access_site];
        k->mappings[m++] = mp;
    }
    k->nmappings = m;
    free(map);
}

void irb_promote_registers(ir_kernel *k)
{
    bool any = false;
    for (size_t i = 0; i < k->narrays && !any; i++)
        any = k->arrays[i].space == HMS_SPACE_LOCAL;
    if (!any)
        return;
    reg_scan s = {.k = k, .dynamic = calloc(k->narrays, sizeof(bool))};
    if (!s.dynamic)
        return;
    scan(&s, k->body);
    any = false;
    for (size_t i = 0; i < k->narrays; i++) {
        ir_array *a = &k->arrays[i];
        int64_t bytes = array_bytes(a);
        if (a->space == HMS_SPACE_LOCAL && !s.dynamic[i] && bytes > 0 &&
            bytes <= MAX_REGISTER_ARRAY_BYTES)
            a->in_registers = true;
        any = any || a->in_registers; /* or marked by its type (WMMA fragments) */
    }
    free(s.dynamic);
    if (!any)
        return;
    drop(k, k->body);
    renumber(k);
}
