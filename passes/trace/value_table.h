/* The warp's table of values it already computed (docs/model.md
 * "Instruction count"; trace_exec.c op_insts charges by it, block_derive.c
 * simulates it). Within one warp run the first HMS_TRACE_VALUE_MEMO distinct
 * keys are remembered: a key among them is found (costs nothing), a new key
 * is inserted while fewer are held, and past that it is neither held nor
 * found. The outcome of a probe is thus a function of the run's sequence of
 * keys alone (which earlier keys equal it), not of where the keys fall in
 * the table: a block whose keys are a translation of another's keeps every
 * outcome when equal keys stay equal and distinct keys distinct. Nothing is
 * evicted within a run, so a key's outcome in a run, once found or full,
 * stays so. Internal to passes/trace_*. */
#ifndef HMS_PASSES_VALUE_TABLE_H
#define HMS_PASSES_VALUE_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* Distinct keys a warp run remembers. 8192, not 1024: at 1024 llm.c's
 * layernorm and fused-residual kernels met their loop-invariant values only
 * after the count was reached and were charged them every iteration (+44 to
 * +52 % of their instructions against the hashed table before); at 8192 no
 * kernel of the bench files pays more than under the old table. */
#define HMS_TRACE_VALUE_MEMO 8192
/* Slots: a power of two, 4 x the keys held, so linear probing stays short. */
#define HMS_TRACE_VALUE_SLOTS 32768

typedef enum { TRACE_VALUE_FOUND, TRACE_VALUE_INSERTED, TRACE_VALUE_FULL } trace_value_outcome;

typedef struct {
    struct {
        uint64_t key;
        uint64_t run; /* the run whose key this is; any other run's: an empty slot */
    } slot[HMS_TRACE_VALUE_SLOTS];
    uint64_t run;  /* the run `held` counts (runs are numbered from 1) */
    uint32_t held; /* keys held in that run */
} trace_value_table;

/* Probes table v for key in run `run` (nonzero; a new run starts empty:
 * its slots are those whose stamp differs, no clearing). */
static inline trace_value_outcome trace_value_probe(trace_value_table *v, uint64_t run,
                                                    uint64_t key)
{
    if (v->run != run) {
        v->run = run;
        v->held = 0;
    }
    /* ends: at most HMS_TRACE_VALUE_MEMO < HMS_TRACE_VALUE_SLOTS slots are this run's */
    for (size_t i = (size_t)key & (HMS_TRACE_VALUE_SLOTS - 1);;
         i = (i + 1) & (HMS_TRACE_VALUE_SLOTS - 1)) {
        if (v->slot[i].run != run) {
            if (v->held >= HMS_TRACE_VALUE_MEMO)
                return TRACE_VALUE_FULL;
            v->slot[i].run = run;
            v->slot[i].key = key;
            v->held++;
            return TRACE_VALUE_INSERTED;
        }
        if (v->slot[i].key == key)
            return TRACE_VALUE_FOUND;
    }
}

#endif
