/* Byte-address siblings of an access (passes/ir/byte_siblings.h). */
#include "passes/ir/byte_siblings.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Terms an index is flattened into before giving up (a longer sum is not a
 * sibling of anything worth merging). */
#define MAX_TERMS 12
/* Bytes either side of a site's first byte that siblings are looked for in. */
#define WINDOW 64
/* Largest multiplier kept exact (no overflow in byte arithmetic). */
#define MAX_MULT ((int64_t)1 << 30)

/* A byte address as sum(mult[i] * term[i]) + off, multipliers in bytes. */
typedef struct {
    const ir_expr *term[MAX_TERMS];
    int64_t mult[MAX_TERMS];
    int n;
    int64_t off;
    bool ok;
} byte_form;

static bool small(int64_t v)
{
    return v > -MAX_MULT && v < MAX_MULT;
}

static void add_term(byte_form *f, const ir_expr *e, int64_t mult)
{
    if (f->n == MAX_TERMS) {
        f->ok = false;
        return;
    }
    f->term[f->n] = e;
    f->mult[f->n++] = mult;
}

/* Adds mult * e to f, distributing sums and constant factors. */
static void flatten(byte_form *f, const ir_expr *e, int64_t mult)
{
    if (!f->ok || !e)
        return;
    if (e->kind == IR_CONST) {
        if (!small(e->value) || !small(e->value * mult))
            f->ok = false;
        else
            f->off += e->value * mult;
        return;
    }
    if (e->kind == IR_BINARY && (e->op == IR_OP_ADD || e->op == IR_OP_SUB) && e->a && e->b) {
        flatten(f, e->a, mult);
        flatten(f, e->b, e->op == IR_OP_ADD ? mult : -mult);
        return;
    }
    if (e->kind == IR_BINARY && e->op == IR_OP_MUL && e->a && e->b) {
        const ir_expr *k = e->a->kind == IR_CONST ? e->a : e->b->kind == IR_CONST ? e->b : NULL;
        if (k) {
            if (!small(k->value) || !small(k->value * mult))
                f->ok = false;
            else
                flatten(f, k == e->a ? e->b : e->a, mult * k->value);
            return;
        }
    }
    add_term(f, e, mult);
}

static byte_form form_of(const ir_access *a)
{
    byte_form f = {.ok = a->index && !a->index2 && a->elem_stride > 0 && a->elem_stride <= WINDOW};
    flatten(&f, a->index, a->elem_stride);
    if (f.ok && small(a->field_offset))
        f.off += a->field_offset;
    else
        f.ok = false;
    return f;
}

/* The same for every lane of a warp: constants, scalar parameters and the
 * block's coordinates (no thread index, loaded value or loop variable). */
static bool lane_uniform(const ir_kernel *k, const ir_expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case IR_CONST:
        return true;
    case IR_SYM:
        return e->sym != IR_SYM_TID_X && e->sym != IR_SYM_TID_Y && e->sym != IR_SYM_TID_Z &&
               e->sym != IR_SYM_LANEID;
    case IR_VAR:
        return e->var >= 0 && (size_t)e->var < k->nvars && k->vars[e->var].kind == IR_VAR_PARAM;
    case IR_UNKNOWN:
        return false;
    default:
        return lane_uniform(k, e->a) && lane_uniform(k, e->b) && lane_uniform(k, e->c);
    }
}

/* Matches t's terms against a's: true when every term of t is one of a's
 * (same expression, same multiplier) and a's unmatched terms are all lane
 * uniform; *shifted says whether a has such unmatched terms. */
static bool same_terms(const ir_kernel *k, const byte_form *a, const byte_form *t, bool *shifted)
{
    bool used[MAX_TERMS] = {false};
    for (int j = 0; j < t->n; j++) {
        int hit = -1;
        for (int i = 0; i < a->n && hit < 0; i++)
            if (!used[i] && a->mult[i] == t->mult[j] && ir_expr_same(a->term[i], t->term[j], true))
                hit = i;
        if (hit < 0)
            return false;
        used[hit] = true;
    }
    *shifted = false;
    for (int i = 0; i < a->n; i++) {
        if (used[i])
            continue;
        if (!lane_uniform(k, a->term[i]))
            return false;
        *shifted = true;
    }
    return true;
}

/* Length of the run of covered bytes that starts at byte[from]. */
static int run_from(const bool *byte, int from)
{
    int n = 0;
    while (from + n < 2 * WINDOW && byte[from + n])
        n++;
    return n;
}

int hms_sibling_bytes(const hms_check_ctx *c, const hms_site_metrics *s)
{
    const ir_access *a = s->acc;
    byte_form fa = form_of(a);
    if (!fa.ok)
        return a->width;
    bool byte[2 * WINDOW] = {false};  /* byte WINDOW + b: b bytes from a's first byte */
    bool under[2 * WINDOW] = {false}; /* the same around a's address less its uniform shift */
    bool any_under = false;
    for (size_t i = 0; i < c->nsites; i++) {
        const ir_access *t = c->sites[i].acc;
        if (t->array != a->array || t->kind != a->kind ||
            fabs(c->sites[i].requests - s->requests) > 0.25 * s->requests)
            continue;
        byte_form ft = form_of(t);
        bool shifted;
        if (!ft.ok || !same_terms(c->k, &fa, &ft, &shifted))
            continue;
        /* constants far apart are not neighbours */
        int64_t off = ft.off - fa.off;
        if (off < -WINDOW || off > WINDOW)
            continue;
        bool *into = shifted ? under : byte;
        any_under |= shifted;
        for (int64_t b = off; b < off + t->width; b++)
            if (b >= -WINDOW && b < WINDOW)
                into[WINDOW + b] = true;
    }
    int n = 0;
    for (int b = 0; b < 2 * WINDOW; b++)
        n += byte[b];
    /* a lane-uniform shift from siblings that tile the lane stride: the
     * shifted bytes are ones the warp's siblings write */
    if (any_under && s->stride.affine && s->stride.is_const) {
        int64_t lane_bytes = llabs(s->stride.value) * a->elem_stride;
        int best = 0;
        for (int b = 0; b < 2 * WINDOW; b++)
            if (under[b] && (b == 0 || !under[b - 1]) && run_from(under, b) > best)
                best = run_from(under, b);
        if (lane_bytes > 0 && best >= lane_bytes && best > n)
            n = best;
    }
    return n > a->width ? n : a->width;
}
