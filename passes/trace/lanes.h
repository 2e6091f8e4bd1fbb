/* 32-lane value vectors: one warp's values of one IR expression, evaluated
 * for all lanes at once (passes/trace/stream_gen.c). Each lane carries an int64
 * value and two taint bits:
 *  - unknown: the value cannot be known (loaded from memory, an opaque call,
 *    an undefined operation such as a division by zero); the number in v[] is
 *    meaningless;
 *  - approx: the value is a number, but it rests on an estimate (a scalar
 *    parameter with a default value, or control flow that depended on one);
 *    figures built from it are estimates;
 *  - opaque: the value is unknown, but only by a term U that is the same on
 *    every lane of a group (a value loaded from a warp-uniform address, or
 *    from one of a few addresses each shared by a group of lanes,
 *    passes/trace/trace_exec.c): v[] holds U's stand-in (a pseudo-random number)
 *    plus the lane's exact rest, so differences between lanes of a group are
 *    exact while the value itself is not. Operations keep the form
 *    U + rest(lane) or become unknown: + and - always; * and << by a known
 *    value that is the same on those lanes; any operation whose operands are
 *    each the same on all those lanes (the result is then uniform too).
 *    Conditions on opaque lanes are unknown (hms_lanes_true/false skip
 *    them). Opaque lanes are never unknown lanes.
 * Arithmetic wraps like the GPU's 64-bit integer unit (no C undefined
 * behaviour); operations C leaves undefined make the lane unknown. */
#ifndef HMS_PASSES_LANES_H
#define HMS_PASSES_LANES_H

#include <stdbool.h>
#include <stdint.h>

#include "passes/ir/ir.h"
#include "runtime/stream.h"

#define HMS_ALL_LANES 0xffffffffu

typedef struct {
    int64_t v[HMS_WARP_LANES];
    uint32_t unknown; /* bit i: lane i's value is unknown */
    uint32_t approx;  /* bit i: lane i's value is an estimate */
    uint32_t opaque;  /* bit i: lane i's value is a uniform unknown plus an exact rest */
} hms_lanes;

/* Every lane = value, no taint. */
void hms_lanes_splat(hms_lanes *out, int64_t value);
/* Every lane unknown. */
void hms_lanes_set_unknown(hms_lanes *out);

/* out = a op b lane by lane (binary ir_op, including min/max, comparisons
 * yielding 0/1, and && || which absorb an unknown operand when the other one
 * decides: 0 && x = 0, 1 || x = 1; likewise x * 0 = 0 and x & 0 = 0).
 * out may alias a or b. */
void hms_lanes_binary(ir_op op, const hms_lanes *a, const hms_lanes *b, hms_lanes *out);
/* out = op a (IR_OP_NEG, IR_OP_NOT, IR_OP_BITNOT). */
void hms_lanes_unary(ir_op op, const hms_lanes *a, hms_lanes *out);
/* out = c ? a : b per lane; an unknown condition yields the common value
 * when both arms agree, else unknown. */
void hms_lanes_select(const hms_lanes *c, const hms_lanes *a, const hms_lanes *b, hms_lanes *out);

/* One lane of a binary operation. False when the result is undefined
 * (division or remainder by zero, INT64_MIN / -1, shift count outside
 * 0..63); *out is then 0. */
bool hms_scalar_binary(ir_op op, int64_t a, int64_t b, int64_t *out);

/* dst lanes in mask take src's value and taint; the others keep theirs. */
void hms_lanes_assign(hms_lanes *dst, const hms_lanes *src, uint32_t mask);

/* Lanes of mask whose value is known (possibly approximate) and non-zero /
 * zero. Unknown and opaque lanes are in neither. */
uint32_t hms_lanes_true(const hms_lanes *a, uint32_t mask);
uint32_t hms_lanes_false(const hms_lanes *a, uint32_t mask);

#endif
