/* Value stamps for the warp interpreter (trace_memo.c): which operations a
 * warp repeats on the very same operand values, found without hashing the
 * 32 lanes again. Internal to passes/trace_*. */
#ifndef HMS_PASSES_TRACE_MEMO_H
#define HMS_PASSES_TRACE_MEMO_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "passes/trace/lanes.h"

/* A stamp names one lanes value (values and unknown/approx/opaque masks):
 * values that carry the same stamp are equal. Stamps are drawn from one
 * counter and never reused for another value. 0 names nothing (never
 * equal); TRACE_STAMP_FIXED is the one value a leaf node always has (a
 * constant, an unknown with no stand-in), which is enough because a stamp is
 * only ever compared with an earlier stamp of the same operand node. */
#define TRACE_STAMP_NONE 0u
#define TRACE_STAMP_FIXED 1u

/* One evaluation of an operation node on operands with the stamps sa, sb,
 * sc under the active mask `active`: the stamp of its result and the
 * value-table key op_insts hashed from the operands' lanes (a function of the
 * node, the active mask and the operand values only, so equal stamps give
 * the equal key). */
typedef struct {
    const ir_expr *e;
    uint64_t sa, sb, sc;
    uint32_t active;
    /* The warp run (trace_warp.run, low 32 bits: a kernel has far fewer
     * runs) in which the key was last looked up in the warp's table, and
     * whether it was neither there nor got a slot. The table only fills
     * within a run, so in that run the key stays found, or stays out. */
    uint32_t probed_run;
    uint64_t result;
    uint64_t key;
    bool keyed;
    bool absent;
} trace_memo;

/* A result kept by its stamp (the result table). */
typedef struct {
    hms_lanes value;
    uint64_t stamp;
    bool has_nonzero; /* nonzero holds hms_lanes_true(value, all lanes) */
    uint32_t nonzero;
    uint32_t pins; /* operands in use point here; puts leave the slot alone */
} trace_interned;

#define TRACE_MEMO_BITS 12   /* slots of the operation memo (direct-mapped) */
#define TRACE_INTERN_BITS 12 /* slots of the value table (direct-mapped) */
#define TRACE_RESULT_BITS 11 /* slots of the result table (by stamp) */
#define TRACE_NODE_BITS 11   /* slots of the node cache (by node: its latest evaluation) */

typedef struct {
    trace_memo *memo;
    trace_memo *node; /* per node (direct-mapped by address): its latest evaluation, checked
                         before the memo; a loop-invariant operation hits it every time */
    /* value table: the probe (hash, stamp) apart from the values, so that a
       value not in the table costs one small read, not a compare */
    struct {
        uint64_t hash, stamp;
    } * intern_keys;
    hms_lanes *interned;
    trace_interned *results; /* operation results by stamp: a repeat copies, not computes */
    uint64_t *var;           /* per kernel variable: stamp of its current value */
    uint64_t *var_init;      /* per kernel variable: stamp of its value before any assignment */
    size_t nvars;
    uint64_t sym[IR_SYM_COUNT]; /* thread/lane indices of the running warp; launch values */
    int64_t sym_value[IR_SYM_COUNT];
    bool sym_known[IR_SYM_COUNT];
    uint64_t next; /* next fresh stamp */
} trace_stamps;

/* Whether a and b are one value (every field; not the struct's padding). */
static inline bool trace_same_value(const hms_lanes *a, const hms_lanes *b)
{
    return memcmp(a->v, b->v, sizeof a->v) == 0 && a->unknown == b->unknown &&
           a->approx == b->approx && a->opaque == b->opaque;
}

bool trace_stamps_init(trace_stamps *s, size_t nvars, const hms_lanes *var_init);
void trace_stamps_free(trace_stamps *s);

/* The stamp of value v: the one it got before if it is still in the value
 * table, else a fresh one. */
uint64_t trace_stamp_of(trace_stamps *s, const hms_lanes *v);

/* A stamp no value had before, for a value that is not worth keeping in
 * the value table (one looked at once). */
static inline uint64_t trace_stamp_fresh(trace_stamps *s)
{
    return s->next++;
}

/* The stamp of a splat of a warp-uniform launch value of symbol sym. */
uint64_t trace_stamp_uniform(trace_stamps *s, ir_sym sym, int64_t value);

/* The value named by `stamp` if the result table still holds it, else
 * NULL. The pointer stays valid until a put reuses its slot (see
 * trace_result_pin). */
static inline const hms_lanes *trace_result_find(const trace_stamps *s, uint64_t stamp)
{
    const trace_interned *r = &s->results[stamp & (((uint64_t)1 << TRACE_RESULT_BITS) - 1)];
    return r->stamp == stamp ? &r->value : NULL;
}

/* Keeps v as the value named by `stamp`, unless its slot is pinned (the
 * table only saves recomputing: a value left out is computed again). */
static inline void trace_result_put(trace_stamps *s, uint64_t stamp, const hms_lanes *v)
{
    trace_interned *r = &s->results[stamp & (((uint64_t)1 << TRACE_RESULT_BITS) - 1)];
    if (r->pins)
        return;
    r->stamp = stamp;
    r->value = *v;
    r->has_nonzero = false;
}

/* An operand v that trace_result_find returned is pinned while its sibling
 * operands are evaluated (their puts would overwrite it); other values are
 * not in the table and need nothing. Returns the slot to unpin, or NULL. */
static inline trace_interned *trace_result_pin(trace_stamps *s, const hms_lanes *v)
{
    uintptr_t p = (uintptr_t)v, lo = (uintptr_t)s->results;
    uintptr_t hi = (uintptr_t)(s->results + ((size_t)1 << TRACE_RESULT_BITS));
    if (p < lo || p >= hi)
        return NULL;
    trace_interned *r = &s->results[(p - lo) / sizeof *r];
    r->pins++;
    return r;
}

static inline void trace_result_unpin(trace_interned *r)
{
    if (r)
        r->pins--;
}

/* hms_lanes_true(v, all lanes) of the value v named by `stamp`, remembered
 * with it in the result table (a loop condition repeats its values). */
static inline uint32_t trace_result_nonzero(trace_stamps *s, uint64_t stamp, const hms_lanes *v)
{
    trace_interned *r = &s->results[stamp & (((uint64_t)1 << TRACE_RESULT_BITS) - 1)];
    if (stamp <= TRACE_STAMP_FIXED || r->stamp != stamp) /* FIXED names no one value */
        return hms_lanes_true(v, HMS_ALL_LANES);
    if (!r->has_nonzero) {
        r->nonzero = hms_lanes_true(v, HMS_ALL_LANES);
        r->has_nonzero = true;
    }
    return r->nonzero;
}

static inline trace_memo *trace_node_slot(const trace_stamps *s, const ir_expr *e)
{
    uint64_t h = ((uint64_t)(uintptr_t)e >> 3) * 0x9e3779b97f4a7c15ull;
    return &s->node[h >> (64 - TRACE_NODE_BITS)];
}

/* The memo entry of node e on operands with stamps sa, sb, sc (an absent
 * operand: TRACE_STAMP_FIXED) under `active`, an entry of the node cache:
 * a copy of the memo slot of an earlier equal evaluation, whose result stamp
 * (and key, if keyed) hold; otherwise of a memo slot reset to this
 * evaluation with a fresh result stamp and no key. trace_memo_set_key sets
 * its key and its memo slot's, if the slot still holds the evaluation. */
trace_memo *trace_memo_of(trace_stamps *s, const ir_expr *e, uint32_t active, uint64_t sa,
                          uint64_t sb, uint64_t sc);

void trace_memo_set_key(trace_stamps *s, trace_memo *m, uint64_t key);

/* The node cache's entry of node e's latest evaluation, or NULL when another
 * node took its slot since. */
static inline const trace_memo *trace_memo_last(const trace_stamps *s, const ir_expr *e)
{
    const trace_memo *n = trace_node_slot(s, e);
    return n->e == e ? n : NULL;
}

#endif
