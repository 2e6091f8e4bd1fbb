/* Symbolic lane-to-lane stride of an access: the coefficient of threadIdx.x
 * in its index, kept as an IR expression so that an unknown size stays a
 * name ("stride of Size floats between lanes: uncoalesced for any Size > 8",
 * docs/ir.md "Scalar values"; GPUDrano-style thread-dependence analysis).
 *
 * It is the derivative of the index with respect to threadIdx.x, other
 * built-ins held fixed (lanes of a warp differ in threadIdx.x; with
 * blockDim.x < 32 they also differ in threadIdx.y, which the sampled streams
 * capture and this does not). Rules: d(tid.x) = d(laneid) = 1; constants,
 * other built-ins and parameters 0; + - and negation linear; a*b = d(a)*b +
 * a*d(b) when at most one side depends on tid.x; a << c = d(a) * 2^c for a
 * constant c (d(a) << c for a thread-independent c); c ? a : b with a
 * thread-independent c; every other operator is affine only when no operand
 * depends on tid.x. A local or loop variable takes the derivative of the
 * values assigned to it: all its assignments that do not read it must agree,
 * and those that do (i = i + step) must preserve it (step independent of
 * tid.x). A value loaded from memory is the same in every lane (derivative
 * 0) when its load's index has derivative 0, else not affine (its thread
 * dependence is unknown). */
#ifndef HMS_PASSES_STRIDE_H
#define HMS_PASSES_STRIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "passes/ir/ir.h"
#include "passes/trace/stream_gen.h"

typedef struct {
    bool affine;    /* the index is affine in threadIdx.x */
    ir_expr *coeff; /* the stride in index units (elements), in k's arena; NULL if !affine */
    bool is_const;  /* coeff is a constant ... */
    int64_t value;  /* ... of this value */
    char why[200];  /* !affine: the reason, naming the culprit */
} hms_stride;

/* The lane-to-lane stride of `index`, an expression of kernel k. */
hms_stride hms_stride_of(ir_kernel *k, const ir_expr *index);

/* A number for a stride coefficient: parameters take their value or the
 * tracing default (then *approx), built-in dimensions come from k's launch.
 * False when it depends on threadIdx/blockIdx, a local variable or an
 * unknown, or is undefined (division by zero). */
bool hms_stride_eval(const ir_kernel *k, const hms_trace_options *opt, const ir_expr *coeff,
                     int64_t *value, bool *approx);

#endif
