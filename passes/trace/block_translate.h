/* Whether the blocks of a launch are translations of each other: block b's
 * warps execute exactly what block b0's execute (the same control flow, the
 * same instruction costs, the same lane masks), only the addresses differ,
 * by a constant per access site and per unit of blockIdx.{x,y,z}
 * (`A += cRow * BM * K` in a tiled GEMM). The tracer then derives a sampled
 * block's records from a traced one (passes/trace/block_derive.c) instead of
 * tracing it.
 *
 * A symbolic derivative with respect to blockIdx, the way passes/ir/stride.h
 * differentiates with respect to threadIdx.x, but over all three components
 * and with numbers: parameters take the tracer's values
 * (hms_trace_param_value), built-in dimensions the launch's. Rules:
 *  - d(blockIdx.c) = unit c; constants, threadIdx, the lane id, launch
 *    dimensions and parameters 0; + - and negation linear; a * b and
 *    a << b when the other side is a number that needs no lane (a constant
 *    expression of parameters and launch dimensions); a comparison of two
 *    sides with the same derivative has derivative 0 (`a <= aEnd` with
 *    both moved by the block's tile: the same outcome in every block), min
 *    and max of such sides that derivative; any other operator, and the
 *    condition of a select, only on operands with derivative 0;
 *  - a comparison whose sides move apart (`i < n`, `row < M`) is a guard:
 *    derivative 0 too, on condition that it decides the same in the block
 *    at hand, which block_derive.c checks on every evaluation the
 *    representative logged -- so never inside a loop condition or trip
 *    count (the tracer evaluates those without logging, trace_summary.c);
 *  - a variable takes the derivative of every value assigned to it, and all
 *    must agree (i = i + step keeps it when step's is 0); a parameter that
 *    is assigned also agrees with 0 (its value at entry); a variable with
 *    no consistent derivative makes the kernel not translating, whether or
 *    not it reaches an index (the loop summary compares every variable's
 *    differences, trace_summary.c);
 *  - a value loaded from memory (IR_UNKNOWN with a load site) has none:
 *    the tracer's stand-ins and spread lanes depend on the block; an
 *    unknown of no load site (`p != nullptr`: addresses the front end
 *    cannot relate) has no value on any lane in every block: 0;
 *  - every branch, loop and select condition and loop trip expression has
 *    derivative 0 (no guard inside a loop condition or trip count);
 *    every access index has one; no access to a local array
 *    (its address depends on the block's resident slot).
 * Values are taken as the integers they stand for: a move that made a
 * 64-bit value wrap around would change a comparison (indices and offsets
 * stay far below 2^63). Sound and conservative: what the tracer does with
 * the values at run time that these rules do not cover (which values of a
 * warp run are equal for the value table, spread lanes, the budgets,
 * alignment) is checked block by block in block_derive.c. */
#ifndef HMS_PASSES_BLOCK_TRANSLATE_H
#define HMS_PASSES_BLOCK_TRANSLATE_H

#include <stdbool.h>
#include <stdint.h>

#include "passes/ir/ir.h"
#include "passes/trace/stream_gen.h"

/* A derivative with respect to blockIdx.{x,y,z}; `top`: none (not affine,
 * or depends on something the rules do not follow); `bot`: only while the
 * analysis runs (a variable with no assigned value seen yet). */
typedef struct {
    int64_t d[3];
    bool top, bot;
} hms_bid_deriv;

typedef struct {
    bool translates;      /* the kernel's blocks are translations of each other */
    char why[240];        /* !translates: the first reason found */
    hms_bid_deriv *var;   /* per variable (nvars) */
    bool *param_assigned; /* per variable: a parameter some statement assigns */
    size_t nvars;
    /* per site: derivative of index and of index2 (tex2D), in elements */
    hms_bid_deriv *index, *index2;
    size_t nsites;
} hms_block_translation;

/* Analyses kernel k with the tracer's options opt (parameter values). False
 * only on allocation failure; out->translates says the answer. */
bool hms_block_translation_of(const ir_kernel *k, const hms_trace_options *opt,
                              hms_block_translation *out);
void hms_block_translation_free(hms_block_translation *bt);

/* The derivative of expression e of the analysed kernel. */
hms_bid_deriv hms_block_expr_deriv(const hms_block_translation *bt, const ir_kernel *k,
                                   const hms_trace_options *opt, const ir_expr *e);
/* Whether d is the zero derivative. */
bool hms_bid_deriv_zero(hms_bid_deriv d);

#endif
