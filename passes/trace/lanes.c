/* 32-lane value vectors with unknown/approximate taint (see lanes.h). */
#include "passes/trace/lanes.h"

#include <string.h>

void hms_lanes_splat(hms_lanes *out, int64_t value)
{
    for (int i = 0; i < HMS_WARP_LANES; i++)
        out->v[i] = value;
    out->unknown = 0;
    out->approx = 0;
    out->opaque = 0;
}

void hms_lanes_set_unknown(hms_lanes *out)
{
    memset(out->v, 0, sizeof out->v);
    out->unknown = HMS_ALL_LANES;
    out->approx = 0;
    out->opaque = 0;
}

/* Wrapping arithmetic through uint64_t: signed overflow is undefined in C,
 * while the hardware simply wraps. */
static int64_t wrap_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t wrap_sub(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

static int64_t wrap_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

bool hms_scalar_binary(ir_op op, int64_t a, int64_t b, int64_t *out)
{
    int64_t r = 0;
    switch (op) {
    case IR_OP_ADD:
        r = wrap_add(a, b);
        break;
    case IR_OP_SUB:
        r = wrap_sub(a, b);
        break;
    case IR_OP_MUL:
        r = wrap_mul(a, b);
        break;
    case IR_OP_DIV:
    case IR_OP_MOD:
        if (b == 0 || (a == INT64_MIN && b == -1)) {
            *out = 0;
            return false;
        }
        r = op == IR_OP_DIV ? a / b : a % b; /* C truncation, as CUDA */
        break;
    case IR_OP_SHL:
        if (b < 0 || b > 63) {
            *out = 0;
            return false;
        }
        r = (int64_t)((uint64_t)a << b);
        break;
    case IR_OP_SHR:
        if (b < 0 || b > 63) {
            *out = 0;
            return false;
        }
        r = a >> b; /* arithmetic for negative values (gcc/clang) */
        break;
    case IR_OP_AND:
        r = a & b;
        break;
    case IR_OP_OR:
        r = a | b;
        break;
    case IR_OP_XOR:
        r = a ^ b;
        break;
    case IR_OP_MIN:
        r = a < b ? a : b;
        break;
    case IR_OP_MAX:
        r = a > b ? a : b;
        break;
    case IR_OP_LT:
        r = a < b;
        break;
    case IR_OP_LE:
        r = a <= b;
        break;
    case IR_OP_GT:
        r = a > b;
        break;
    case IR_OP_GE:
        r = a >= b;
        break;
    case IR_OP_EQ:
        r = a == b;
        break;
    case IR_OP_NE:
        r = a != b;
        break;
    case IR_OP_LAND:
        r = a && b;
        break;
    case IR_OP_LOR:
        r = a || b;
        break;
    default:
        *out = 0;
        return false;
    }
    *out = r;
    return true;
}

/* When one operand is unknown, can the other decide the result alone? */
static bool absorbs(ir_op op, int64_t known, int64_t *result)
{
    switch (op) {
    case IR_OP_LAND:
    case IR_OP_MUL:
    case IR_OP_AND:
        if (known == 0) {
            *result = 0;
            return true;
        }
        return false;
    case IR_OP_LOR:
        if (known != 0) {
            *result = 1;
            return true;
        }
        return false;
    default:
        return false;
    }
}

/* Every lane's x / y and x % y is defined (hms_scalar_binary's rule). */
static bool divisors_defined(const int64_t *x, const int64_t *y)
{
    bool bad = false;
    for (int i = 0; i < HMS_WARP_LANES; i++)
        bad |= y[i] == 0 || (x[i] == INT64_MIN && y[i] == -1);
    return !bad;
}

/* x / y or x % y for the usual index arithmetic (threadIdx.x / TILE):
 * every x in 0..2^32-1 and y one value in 1..2^32-1, done with shifts for
 * a power of two and 32-bit division otherwise (64-bit division is several
 * times slower). Same results as C's; false, r untouched, otherwise. */
static bool divide_small(ir_op op, const int64_t *x, const int64_t *y, int64_t *r)
{
    int64_t d = y[0];
    bool ok = d > 0 && d <= UINT32_MAX;
    for (int i = 0; i < HMS_WARP_LANES; i++)
        ok &= y[i] == d && x[i] >= 0 && x[i] <= UINT32_MAX;
    if (!ok)
        return false;
    uint32_t dd = (uint32_t)d;
    if (!(dd & (dd - 1))) {
        int sh = __builtin_ctz(dd);
        for (int i = 0; i < HMS_WARP_LANES; i++)
            r[i] = op == IR_OP_DIV ? x[i] >> sh : x[i] & (int64_t)(dd - 1);
        return true;
    }
    for (int i = 0; i < HMS_WARP_LANES; i++)
        r[i] = op == IR_OP_DIV ? (uint32_t)x[i] / dd : (uint32_t)x[i] % dd;
    return true;
}

/* Every lane's shift count is 0..63 (hms_scalar_binary's rule). */
static bool shift_counts_defined(const int64_t *y)
{
    bool bad = false;
    for (int i = 0; i < HMS_WARP_LANES; i++)
        bad |= (uint64_t)y[i] > 63;
    return !bad;
}

/* The common case, no unknown operand lane: one switch, then a tight loop
 * per operator. False when some lane needs the per-lane checks (an
 * undefined division or shift there). */
static bool binary_fast(ir_op op, const hms_lanes *a, const hms_lanes *b, hms_lanes *out)
{
    const int64_t *x = a->v, *y = b->v;
    int64_t r[HMS_WARP_LANES]; /* out may alias a or b: a private result vectorises */
    const uint64_t *ux = (const uint64_t *)x, *uy = (const uint64_t *)y;
    int n = HMS_WARP_LANES;
#define LANEWISE(expr)                                                                             \
    for (int i = 0; i < n; i++)                                                                    \
        r[i] = (expr);                                                                             \
    break
    switch (op) {
    case IR_OP_ADD:
        LANEWISE((int64_t)(ux[i] + uy[i]));
    case IR_OP_SUB:
        LANEWISE((int64_t)(ux[i] - uy[i]));
    case IR_OP_MUL:
        LANEWISE((int64_t)(ux[i] * uy[i]));
    case IR_OP_AND:
        LANEWISE(x[i] & y[i]);
    case IR_OP_OR:
        LANEWISE(x[i] | y[i]);
    case IR_OP_XOR:
        LANEWISE(x[i] ^ y[i]);
    case IR_OP_MIN:
        LANEWISE(x[i] < y[i] ? x[i] : y[i]);
    case IR_OP_MAX:
        LANEWISE(x[i] > y[i] ? x[i] : y[i]);
    case IR_OP_LT:
        LANEWISE(x[i] < y[i]);
    case IR_OP_LE:
        LANEWISE(x[i] <= y[i]);
    case IR_OP_GT:
        LANEWISE(x[i] > y[i]);
    case IR_OP_GE:
        LANEWISE(x[i] >= y[i]);
    case IR_OP_EQ:
        LANEWISE(x[i] == y[i]);
    case IR_OP_NE:
        LANEWISE(x[i] != y[i]);
    case IR_OP_LAND:
        LANEWISE(x[i] && y[i]);
    case IR_OP_LOR:
        LANEWISE(x[i] || y[i]);
    case IR_OP_DIV: /* C truncation, as CUDA */
    case IR_OP_MOD:
        if (!divisors_defined(x, y))
            return false; /* some lane undefined: the per-lane path marks it */
        if (divide_small(op, x, y, r))
            break;
        if (op == IR_OP_DIV)
            for (int i = 0; i < n; i++)
                r[i] = x[i] / y[i];
        else
            for (int i = 0; i < n; i++)
                r[i] = x[i] % y[i];
        break;
    case IR_OP_SHL:
        if (!shift_counts_defined(y))
            return false;
        LANEWISE((int64_t)(ux[i] << (y[i] & 63)));
    case IR_OP_SHR:
        if (!shift_counts_defined(y))
            return false;
        LANEWISE(x[i] >> (y[i] & 63)); /* arithmetic for negative values (gcc/clang) */
    default:
        return false;
    }
#undef LANEWISE
    memcpy(out->v, r, sizeof r);
    out->approx = a->approx | b->approx;
    out->unknown = 0;
    out->opaque = 0;
    return true;
}

/* True when every lane of `lanes` holds the same value. */
static bool same_on(const int64_t *v, uint32_t lanes)
{
    if (!lanes)
        return true;
    int64_t first = v[__builtin_ctz(lanes)];
    for (int i = 0; i < HMS_WARP_LANES; i++)
        if ((lanes >> i & 1u) && v[i] != first)
            return false;
    return true;
}

/* Whether a op b keeps the form U + rest(lane) on lanes r, where an operand
 * is opaque (lanes.h): sums always; products and left shifts when the
 * factor or shift is a known value the same on r; anything when both
 * operands are the same on every lane of r. */
static bool keeps_opaque_form(ir_op op, const hms_lanes *a, const hms_lanes *b, uint32_t r)
{
    bool ua = same_on(a->v, r), ub = same_on(b->v, r);
    bool ka = ua && !(a->opaque & r), kb = ub && !(b->opaque & r);
    if (ua && ub)
        return true;
    switch (op) {
    case IR_OP_ADD:
    case IR_OP_SUB:
        return true;
    case IR_OP_MUL:
        return ka || kb;
    case IR_OP_SHL:
        return kb;
    default:
        return false;
    }
}

void hms_lanes_binary(ir_op op, const hms_lanes *a, const hms_lanes *b, hms_lanes *out)
{
    if (!(a->unknown | b->unknown | a->opaque | b->opaque) && binary_fast(op, a, b, out))
        return;
    /* Every lane unknown on both sides, or on one side for an operator no
     * known value decides alone (absorbs): the per-lane loop below would make
     * every lane unknown; arithmetic on loaded values is mostly this. */
    bool can_absorb = op == IR_OP_LAND || op == IR_OP_LOR || op == IR_OP_MUL || op == IR_OP_AND;
    if ((a->unknown & b->unknown) == HMS_ALL_LANES ||
        (!can_absorb && (a->unknown | b->unknown) == HMS_ALL_LANES)) {
        hms_lanes_set_unknown(out);
        return;
    }
    uint32_t unknown = 0, approx = 0;
    uint32_t opq = (a->opaque | b->opaque) & ~(a->unknown | b->unknown);
    if (opq && !keeps_opaque_form(op, a, b, opq)) {
        unknown |= opq;
        opq = 0;
    }
    int64_t v[HMS_WARP_LANES];
    for (int i = 0; i < HMS_WARP_LANES; i++) {
        uint32_t bit = 1u << i;
        bool ua = a->unknown & bit, ub = b->unknown & bit;
        bool xa = a->approx & bit, xb = b->approx & bit;
        v[i] = 0;
        if (ua && ub) {
            unknown |= bit;
        } else if (unknown & bit) {
            /* an opaque operand the operation cannot carry */
        } else if (ua || ub) {
            /* e.g. 0 && unknown: the known side decides, carrying its own taint
             * (an opaque side's number is a stand-in: it decides nothing) */
            if (!((ua ? b->opaque : a->opaque) & bit) &&
                absorbs(op, ua ? b->v[i] : a->v[i], &v[i])) {
                if (ua ? xb : xa)
                    approx |= bit;
            } else {
                unknown |= bit;
            }
        } else if (hms_scalar_binary(op, a->v[i], b->v[i], &v[i])) {
            if (xa || xb)
                approx |= bit;
        } else {
            unknown |= bit;
        }
    }
    memcpy(out->v, v, sizeof v);
    out->unknown = unknown;
    out->approx = approx & ~unknown;
    out->opaque = opq & ~unknown;
}

void hms_lanes_unary(ir_op op, const hms_lanes *a, hms_lanes *out)
{
    bool valid = op == IR_OP_NEG || op == IR_OP_NOT || op == IR_OP_BITNOT;
    /* -(U + r) and ~(U + r) = -U - r - 1 keep the opaque form; !x only when
     * uniform (judged before out, which may alias a, is written) */
    uint32_t opq = valid ? a->opaque : 0, lost = 0;
    if (op == IR_OP_NOT && !same_on(a->v, opq))
        lost = opq, opq = 0;
    for (int i = 0; i < HMS_WARP_LANES; i++) {
        int64_t x = a->v[i];
        switch (op) {
        case IR_OP_NEG:
            out->v[i] = (int64_t)(0 - (uint64_t)x);
            break;
        case IR_OP_NOT:
            out->v[i] = !x;
            break;
        case IR_OP_BITNOT:
            out->v[i] = ~x;
            break;
        default:
            out->v[i] = 0;
            break;
        }
    }
    out->unknown = valid ? a->unknown | lost : HMS_ALL_LANES;
    out->approx = valid ? a->approx & ~lost : 0;
    out->opaque = opq;
}

void hms_lanes_select(const hms_lanes *c, const hms_lanes *a, const hms_lanes *b, hms_lanes *out)
{
    uint32_t unknown = 0, approx = 0, opaque = 0;
    int64_t v[HMS_WARP_LANES];
    for (int i = 0; i < HMS_WARP_LANES; i++) {
        uint32_t bit = 1u << i;
        if ((c->unknown | c->opaque) & bit) { /* an opaque condition decides nothing */
            bool same = !((a->unknown | b->unknown) & bit) && a->v[i] == b->v[i] &&
                        (a->opaque & bit) == (b->opaque & bit);
            v[i] = same ? a->v[i] : 0;
            if (!same)
                unknown |= bit;
            else {
                approx |= (a->approx | b->approx) & bit;
                opaque |= a->opaque & bit;
            }
            continue;
        }
        const hms_lanes *pick = c->v[i] ? a : b;
        v[i] = pick->v[i];
        unknown |= pick->unknown & bit;
        opaque |= pick->opaque & bit;
        approx |= (pick->approx | c->approx) & bit;
    }
    memcpy(out->v, v, sizeof v);
    out->unknown = unknown;
    out->approx = approx & ~unknown;
    out->opaque = opaque & ~unknown;
}

void hms_lanes_assign(hms_lanes *dst, const hms_lanes *src, uint32_t mask)
{
    if (mask == HMS_ALL_LANES) {
        *dst = *src;
        return;
    }
    for (int i = 0; i < HMS_WARP_LANES; i++) {
        int64_t keep = -(int64_t)((~mask >> i) & 1u); /* all ones: lane keeps its value */
        dst->v[i] = (dst->v[i] & keep) | (src->v[i] & ~keep);
    }
    dst->unknown = (dst->unknown & ~mask) | (src->unknown & mask);
    dst->approx = (dst->approx & ~mask) | (src->approx & mask);
    dst->opaque = (dst->opaque & ~mask) | (src->opaque & mask);
}

uint32_t hms_lanes_true(const hms_lanes *a, uint32_t mask)
{
    uint32_t m = 0;
    for (int i = 0; i < HMS_WARP_LANES; i++)
        m |= (uint32_t)(a->v[i] != 0) << i;
    return m & mask & ~(a->unknown | a->opaque);
}

uint32_t hms_lanes_false(const hms_lanes *a, uint32_t mask)
{
    uint32_t m = 0;
    for (int i = 0; i < HMS_WARP_LANES; i++)
        m |= (uint32_t)(a->v[i] == 0) << i;
    return m & mask & ~(a->unknown | a->opaque);
}
