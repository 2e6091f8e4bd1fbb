/* Values of subtrees for the reach probe (stream_gen.h reach_probe,
 * trace_exec.c eval_probe): an operation node's value is a function of its
 * leaves' values (variables, thread and launch symbols, load stand-ins), and
 * a stamp names one value for good (trace_memo.h), so a node whose leaves
 * carry the stamps they had when its value was kept has that value. The
 * probe keeps no instruction times, so nothing else is needed; the IR
 * substitutes a local's expression into every use, and such invariant
 * subtrees (hotspot's validXmin, a warp index) are most of a condition.
 * Internal to passes/trace_*. */
#ifndef HMS_PASSES_TRACE_SUBTREE_H
#define HMS_PASSES_TRACE_SUBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "passes/ir/ir.h"
#include "passes/trace/lanes.h"

/* Most leaves a node may read to have its value kept (more: computed each time). */
#define TRACE_SUBTREE_MAX_LEAVES 6
/* Fewest operation nodes a subtree must have to have its value kept. */
#define TRACE_SUBTREE_MIN_OPS 2

typedef struct {
    const ir_expr *e;                              /* the node (NULL: empty slot) */
    uint8_t nleaves;                               /* 0: not kept (too small, or too many leaves) */
    bool valid;                                    /* value holds the value at the stamps below */
    const ir_expr *leaf[TRACE_SUBTREE_MAX_LEAVES]; /* distinct leaves (IR_VAR, IR_SYM,
                                                      IR_UNKNOWN), by kind and id */
    uint64_t stamp[TRACE_SUBTREE_MAX_LEAVES];      /* their stamps when value was kept */
    hms_lanes *value;                              /* allocated on first use (stays put) */
} trace_subtree;

typedef struct {
    trace_subtree *v; /* open addressing by node address */
    size_t cap, n;
} trace_subtrees;

/* The entry of operation node e (made on first use: its leaves found), or
 * NULL when out of memory. Entries move when the table grows. */
trace_subtree *trace_subtree_of(trace_subtrees *s, const ir_expr *e);
void trace_subtrees_free(trace_subtrees *s);

#endif
