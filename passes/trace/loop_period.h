/* Is a loop's iteration k+1 its iteration k shifted? The static half of the
 * periodic-loop summary (passes/trace/trace_summary.c): given the variables whose
 * value at the top of an iteration changes from one iteration to the next
 * ("carried", observed while tracing), the loop is shift-periodic when
 *  - every value that depends on a carried variable (the taint closes over
 *    assignments inside the loop) reaches access indices and assigned values
 *    only affinely: + - negation, multiplication by or shift by an untainted
 *    value, a select whose condition is untainted;
 *  - no if condition, inner loop condition or select condition inside the
 *    loop depends on a tainted value (the per-iteration control flow is the
 *    same every iteration);
 *  - the loop's own condition is a conjunction of < <= > >= comparisons of
 *    such affine values (each lane's condition is then monotone in the
 *    iteration number: true for a prefix of the iterations);
 *  - no shared array it stores to is read outside it (the values each
 *    iteration leaves in shared memory would matter, not only the pattern).
 * Then every variable's value at the top of iteration k is A*x(k-1) + b with
 * fixed A and b; constant differences over two iterations prove it affine in
 * k, which the tracer checks. */
#ifndef HMS_PASSES_LOOP_PERIOD_H
#define HMS_PASSES_LOOP_PERIOD_H

#include <stdbool.h>
#include <stddef.h>

#include "passes/ir/ir.h"

/* Marks every variable s assigns (anywhere inside it). */
void hms_stmt_assigned_vars(const ir_stmt *s, bool *mark);

/* carried: per var of k, true when its value changes across iterations.
 * tainted: scratch of k->nvars bools. False with a reason in why otherwise. */
bool hms_loop_is_periodic(const ir_kernel *k, const ir_stmt *loop, const bool *carried,
                          bool *tainted, char *why, size_t len);

#endif
