/* Expressions: libclang expression cursors -> IR expressions (integer values
 * a lane can compute) plus the memory accesses they perform, in evaluation
 * order, appended to the current statement block. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/ir_build_impl.h"

ir_expr *xb_unknown(irb *b, CXCursor at, const char *fmt, ...)
{
    char why[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return ir_unknown(b->k, why, -1, irb_loc(b, at));
}

static bval val(ir_expr *e)
{
    return (bval){e, -1};
}

bool irb_const_of(const ir_expr *e, int64_t *v)
{
    if (e && e->kind == IR_CONST) {
        *v = e->value;
        return true;
    }
    return false;
}

bool irb_uses_var(const ir_expr *e, int var)
{
    if (!e)
        return false;
    if (e->kind == IR_VAR)
        return e->var == var;
    return irb_uses_var(e->a, var) || irb_uses_var(e->b, var) || irb_uses_var(e->c, var);
}

/* C semantics on 64-bit values; false when folding would be undefined. */
static bool compute(ir_op op, int64_t x, int64_t y, int64_t *r)
{
    switch (op) {
    case IR_OP_ADD:
        *r = (int64_t)((uint64_t)x + (uint64_t)y);
        return true;
    case IR_OP_SUB:
        *r = (int64_t)((uint64_t)x - (uint64_t)y);
        return true;
    case IR_OP_MUL:
        *r = (int64_t)((uint64_t)x * (uint64_t)y);
        return true;
    case IR_OP_DIV:
        if (y == 0 || (x == INT64_MIN && y == -1))
            return false;
        *r = x / y;
        return true;
    case IR_OP_MOD:
        if (y == 0 || (x == INT64_MIN && y == -1))
            return false;
        *r = x % y;
        return true;
    case IR_OP_SHL:
        if (y < 0 || y > 62 || x < 0)
            return false;
        *r = (int64_t)((uint64_t)x << y);
        return true;
    case IR_OP_SHR:
        if (y < 0 || y > 63)
            return false;
        *r = x >> y;
        return true;
    case IR_OP_AND:
        *r = x & y;
        return true;
    case IR_OP_OR:
        *r = x | y;
        return true;
    case IR_OP_XOR:
        *r = x ^ y;
        return true;
    case IR_OP_MIN:
        *r = x < y ? x : y;
        return true;
    case IR_OP_MAX:
        *r = x > y ? x : y;
        return true;
    case IR_OP_LT:
        *r = x < y;
        return true;
    case IR_OP_LE:
        *r = x <= y;
        return true;
    case IR_OP_GT:
        *r = x > y;
        return true;
    case IR_OP_GE:
        *r = x >= y;
        return true;
    case IR_OP_EQ:
        *r = x == y;
        return true;
    case IR_OP_NE:
        *r = x != y;
        return true;
    case IR_OP_LAND:
        *r = x && y;
        return true;
    case IR_OP_LOR:
        *r = x || y;
        return true;
    default:
        return false;
    }
}

bool irb_eval_const(const ir_expr *e, int64_t *v)
{
    int64_t x, y;
    if (!e)
        return false;
    switch (e->kind) {
    case IR_CONST:
        *v = e->value;
        return true;
    case IR_SYM:
        *v = 32; /* warpSize is 32 on every architecture hms-lint models */
        return e->sym == IR_SYM_WARPSIZE;
    case IR_UNARY:
        if (!irb_eval_const(e->a, &x))
            return false;
        *v = e->op == IR_OP_NEG ? -x : e->op == IR_OP_NOT ? !x : ~x;
        return true;
    case IR_BINARY:
        return irb_eval_const(e->a, &x) && irb_eval_const(e->b, &y) && compute(e->op, x, y, v);
    case IR_SELECT:
        if (!irb_eval_const(e->a, &x))
            return false;
        return irb_eval_const(x ? e->b : e->c, v);
    default:
        return false;
    }
}

/* Builds x op y, folding constants and the identities that keep printed
 * indices readable: x+0, x*1, x*0, x/1, (x+c1)+c2. */
ir_expr *irb_bin(irb *b, ir_op op, ir_expr *x, ir_expr *y)
{
    ir_kernel *k = b->k;
    int64_t cx = 0, cy = 0, r;
    bool kx = irb_const_of(x, &cx), ky = irb_const_of(y, &cy);
    if (kx && ky && compute(op, cx, cy, &r))
        return ir_const(k, r);
    switch (op) {
    case IR_OP_ADD:
        if (ky && cy == 0)
            return x;
        if (kx && cx == 0)
            return y;
        if (ky && cy < 0 && cy != INT64_MIN)
            return irb_bin(b, IR_OP_SUB, x, ir_const(k, -cy));
        if (ky && x->kind == IR_BINARY && (x->op == IR_OP_ADD || x->op == IR_OP_SUB) &&
            irb_const_of(x->b, &cx)) {
            int64_t c = x->op == IR_OP_ADD ? cx + cy : cy - cx;
            return irb_bin(b, IR_OP_ADD, x->a, ir_const(k, c));
        }
        if (kx && y->kind == IR_BINARY && (y->op == IR_OP_ADD || y->op == IR_OP_SUB) &&
            irb_const_of(y->b, &cy)) /* c1 + (y + c2) -> y + (c1 + c2) */
            return irb_bin(b, IR_OP_ADD, y->a, ir_const(k, y->op == IR_OP_ADD ? cx + cy : cx - cy));
        if (kx && !ky) /* 1 + j -> j + 1 */
            return irb_bin(b, IR_OP_ADD, y, x);
        /* x + (y + c) -> (x + y) + c: constants drift to the end */
        if (!ky && y->kind == IR_BINARY && (y->op == IR_OP_ADD || y->op == IR_OP_SUB) &&
            irb_const_of(y->b, &cy))
            return irb_bin(b, y->op, irb_bin(b, IR_OP_ADD, x, y->a), y->b);
        break;
    case IR_OP_SUB:
        if (ky && cy == 0)
            return x;
        if (ky && cy < 0 && cy != INT64_MIN)
            return irb_bin(b, IR_OP_ADD, x, ir_const(k, -cy));
        if (ky && x->kind == IR_BINARY && (x->op == IR_OP_ADD || x->op == IR_OP_SUB) &&
            irb_const_of(x->b, &cx)) {
            int64_t c = x->op == IR_OP_ADD ? cx - cy : -cx - cy;
            return irb_bin(b, IR_OP_ADD, x->a, ir_const(k, c));
        }
        break;
    case IR_OP_MUL:
        if ((ky && cy == 1))
            return x;
        if (kx && cx == 1)
            return y;
        if ((ky && cy == 0) || (kx && cx == 0))
            return ir_const(k, 0);
        if (ky && x->kind == IR_BINARY && x->op == IR_OP_MUL && irb_const_of(x->b, &cx))
            return irb_bin(b, IR_OP_MUL, x->a, ir_const(k, cx * cy));
        break;
    case IR_OP_DIV:
        if (ky && cy == 1)
            return x;
        break;
    case IR_OP_SHL:
    case IR_OP_SHR:
        if (ky && cy == 0)
            return x;
        break;
    default:
        break;
    }
    return ir_binary(k, op, x, y);
}

#define SUM_MAX_TERMS 32

typedef struct {
    const ir_expr *t[SUM_MAX_TERMS];
    int64_t coef[SUM_MAX_TERMS];
    int n;
    int64_t constant;
    bool overflow;
} lin_sum;

static void lin_collect(lin_sum *s, const ir_expr *e, int64_t coef)
{
    int64_t c;
    if (e->kind == IR_CONST) {
        s->constant += coef * e->value;
        return;
    }
    if (e->kind == IR_BINARY && (e->op == IR_OP_ADD || e->op == IR_OP_SUB)) {
        lin_collect(s, e->a, coef);
        lin_collect(s, e->b, e->op == IR_OP_ADD ? coef : -coef);
        return;
    }
    if (e->kind == IR_BINARY && e->op == IR_OP_MUL && irb_const_of(e->b, &c)) {
        lin_collect(s, e->a, coef * c);
        return;
    }
    if (e->kind == IR_BINARY && e->op == IR_OP_MUL && irb_const_of(e->a, &c)) {
        lin_collect(s, e->b, coef * c);
        return;
    }
    if (e->kind == IR_UNARY && e->op == IR_OP_NEG) {
        lin_collect(s, e->a, -coef);
        return;
    }
    for (int i = 0; i < s->n; i++) {
        if (ir_expr_same(s->t[i], e, false)) {
            s->coef[i] += coef;
            return;
        }
    }
    if (s->n == SUM_MAX_TERMS) {
        s->overflow = true;
        return;
    }
    s->t[s->n] = e;
    s->coef[s->n++] = coef;
}

ir_expr *irb_simplify_sum(irb *b, ir_expr *e)
{
    if (!e || ir_expr_has_unknown(e))
        return e;
    lin_sum s = {.n = 0};
    int64_t c0;
    lin_collect(&s, e, 1);
    if (s.overflow)
        return e;
    ir_expr *r = NULL;
    for (int pass = 0; pass < 2; pass++) { /* positive terms first */
        for (int i = 0; i < s.n; i++) {
            int64_t c = s.coef[i];
            if (c == 0 || (pass == 0) != (c > 0))
                continue;
            ir_expr *t = (ir_expr *)s.t[i];
            int64_t m = c > 0 ? c : -c;
            ir_expr *term = m == 1 ? t : irb_bin(b, IR_OP_MUL, t, ir_const(b->k, m));
            if (!r)
                r = c > 0 ? term : irb_bin(b, IR_OP_SUB, ir_const(b->k, 0), term);
            else
                r = irb_bin(b, c > 0 ? IR_OP_ADD : IR_OP_SUB, r, term);
        }
    }
    if (!r)
        return ir_const(b->k, s.constant);
    if (r->kind == IR_BINARY && r->op == IR_OP_SUB && irb_const_of(r->a, &c0) && c0 == 0 &&
        s.constant > 0) /* 256 - threadIdx.x rather than 0 - threadIdx.x + 256 */
        return irb_bin(b, IR_OP_SUB, ir_const(b->k, s.constant), r->b);
    return irb_bin(b, IR_OP_ADD, r, ir_const(b->k, s.constant));
}

static void note_one(irb *b, const ir_expr *u, const char *what, ir_loc at)
{
    char reason[512];
    if (u->loc.line && (u->loc.line != at.line || u->loc.file != at.file))
        snprintf(reason, sizeof reason, "%s depends on an unknown value: %s (line %u)", what,
                 u->reason ? u->reason : "?", u->loc.line);
    else
        snprintf(reason, sizeof reason, "%s depends on an unknown value: %s", what,
                 u->reason ? u->reason : "?");
    for (size_t i = 0; i < b->k->nlimits; i++) {
        const ir_limit *l = &b->k->limits[i];
        if (l->loc.line == at.line && l->loc.col == at.col && !strcmp(l->reason, reason))
            return;
    }
    irb_limit(b, reason, NULL, at);
}

static void note_walk(irb *b, const ir_expr *e, const char *what, ir_loc at, int *budget)
{
    if (!e || --*budget < 0)
        return;
    if (e->kind == IR_UNKNOWN) {
        note_one(b, e, what, at);
        return;
    }
    note_walk(b, e->a, what, at, budget);
    note_walk(b, e->b, what, at, budget);
    note_walk(b, e->c, what, at, budget);
}

void note_unknowns_at(irb *b, const ir_expr *e, const char *what, ir_loc at)
{
    int budget = 256;
    note_walk(b, e, what, at, &budget);
}

void note_unknowns(irb *b, const ir_expr *e, const char *what)
{
    note_unknowns_at(b, e, what, e && e->loc.line ? e->loc : (ir_loc){0});
}

/* ---- builtin variables ------------------------------------------------------- */

static bool builtin_member(irb *b, CXCursor member, ir_expr **out)
{
    cursor_list l;
    irb_children(member, &l);
    bool ok = false;
    if (l.n == 1) {
        CXCursor base = hms_cursor_strip(l.v[0]);
        if (clang_getCursorKind(base) == CXCursor_DeclRefExpr) {
            char bn[32], mn[8];
            irb_spelling(base, bn, sizeof bn);
            irb_spelling(member, mn, sizeof mn);
            static const char *const names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
            int d = mn[0] >= 'x' && mn[0] <= 'z' && !mn[1] ? mn[0] - 'x' : -1;
            for (int i = 0; i < 4 && d >= 0; i++) {
                if (!strcmp(bn, names[i]) &&
                    hms_cursor_in_builtin_header(clang_getCursorReferenced(base))) {
                    *out = ir_symbol(b->k, (ir_sym)(IR_SYM_TID_X + 3 * i + d));
                    if (i == 0 || i == 2)
                        b->uses_tid[d] = true;
                    else
                        b->uses_bid[d] = true;
                    ok = true;
                }
            }
        }
    }
    irb_list_free(&l);
    return ok;
}

/* ---- variables ---------------------------------------------------------------- */

static ir_expr *undeclared_or(irb *b, CXCursor c, const char *why)
{
    ir_expr *u = irb_undeclared_unknown(b, c);
    return u ? u : xb_unknown(b, c, "%s", why);
}

static ir_expr *read_binding(irb *b, size_t i, CXCursor at, int *load_site)
{
    binding *x = &b->binds[i];
    *load_site = x->load_site;
    switch (x->kind) {
    case BIND_VAR:
        if (x->subst)
            return x->subst;
        if (x->var >= 0)
            return ir_var_ref(b->k, x->var);
        { /* its initializer may not have compiled */
            ir_expr *u = irb_undeclared_unknown(b, x->decl);
            if (u)
                return u;
        }
        return xb_unknown(b, at, "'%s' is read before it is given a value", x->name);
    case BIND_OTHER:
        return xb_unknown(b, at, "non-integer value '%s'", x->name);
    default:
        return xb_unknown(b, at, "address value '%s'", x->name);
    }
}

static bval decl_ref_value(irb *b, CXCursor c)
{
    CXCursor decl = clang_getCursorReferenced(c);
    int64_t v;
    if (clang_Cursor_isNull(decl)) {
        if (irb_eval_int(c, &v))
            return val(ir_const(b->k, v));
        char n[128];
        irb_spelling(c, n, sizeof n);
        return val(xb_unknown(b, c, "unresolved name '%s'", n));
    }
    size_t i = bind_find(b, decl);
    if (i != SIZE_MAX) {
        binding *x = &b->binds[i];
        if (x->kind == BIND_MEMREF || x->kind == BIND_ARRAY) {
            if (ab_is_memory(b, c)) {
                blval lv;
                if (ab_lvalue(b, c, &lv)) {
                    int site = ab_emit(b, c, &lv, HMS_ACCESS_LOAD, false);
                    char t[96];
                    irb_text(b, c, t, sizeof t);
                    ir_expr *u = ir_unknown(b->k, "", lv.array, irb_loc(b, c));
                    char why[160];
                    snprintf(why, sizeof why, "value loaded from memory: %s", t);
                    u->reason = ir_strdup(b->k, why);
                    return (bval){u, site};
                }
            }
        }
        int ls;
        ir_expr *e = read_binding(b, i, c, &ls);
        return (bval){e, ls};
    }
    enum CXCursorKind dk = clang_getCursorKind(decl);
    if (dk == CXCursor_EnumConstantDecl || dk == CXCursor_NonTypeTemplateParameter ||
        dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) {
        if (irb_eval_int(c, &v))
            return val(ir_const(b->k, v));
    }
    char n[128];
    irb_spelling(decl, n, sizeof n);
    if (dk == CXCursor_VarDecl && !strcmp(n, "warpSize") && hms_cursor_in_builtin_header(decl))
        return val(ir_symbol(b->k, IR_SYM_WARPSIZE));
    if (dk == CXCursor_VarDecl && ab_is_memory(b, c)) {
        blval lv;
        if (ab_lvalue(b, c, &lv)) {
            int site = ab_emit(b, c, &lv, HMS_ACCESS_LOAD, false);
            return (bval){xb_unknown(b, c, "value loaded from memory: %s", n), site};
        }
    }
    if (!n[0] && irb_eval_int(c, &v))
        return val(ir_const(b->k, v));
    return val(xb_unknown(b, c, "value of '%s' is not known here", n));
}

/* ---- assignment ---------------------------------------------------------------- */

static size_t local_binding(irb *b, CXCursor lhs)
{
    lhs = hms_cursor_strip(lhs);
    if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr)
        return SIZE_MAX;
    CXCursor decl = clang_getCursorReferenced(lhs);
    if (clang_Cursor_isNull(decl))
        return SIZE_MAX;
    return bind_find(b, decl);
}

static ir_op compound_op(enum CXBinaryOperatorKind k, bool *ok)
{
    *ok = true;
    switch (k) {
    case CXBinaryOperator_MulAssign:
        return IR_OP_MUL;
    case CXBinaryOperator_DivAssign:
        return IR_OP_DIV;
    case CXBinaryOperator_RemAssign:
        return IR_OP_MOD;
    case CXBinaryOperator_AddAssign:
        return IR_OP_ADD;
    case CXBinaryOperator_SubAssign:
        return IR_OP_SUB;
    case CXBinaryOperator_ShlAssign:
        return IR_OP_SHL;
    case CXBinaryOperator_ShrAssign:
        return IR_OP_SHR;
    case CXBinaryOperator_AndAssign:
        return IR_OP_AND;
    case CXBinaryOperator_XorAssign:
        return IR_OP_XOR;
    case CXBinaryOperator_OrAssign:
        return IR_OP_OR;
    default:
        *ok = false;
        return IR_OP_ADD;
    }
}

void pb_assign_ptr(irb *b, size_t bi, const bptr *p, CXCursor at);

/* lhs (op)= rhs, or ++/-- when rhs is NULL-cursor and delta != 0. */
static bval assign(irb *b, CXCursor c, CXCursor lhs, CXCursor rhs, bool has_op, ir_op op, int delta,
                   bool post)
{
    ir_kernel *k = b->k;
    bool incdec = delta != 0;
    CXType lt = clang_getCursorType(lhs);
    /* C++17: the right operand is sequenced before the left. */
    size_t bi = local_binding(b, lhs);
    if (bi != SIZE_MAX && b->binds[bi].kind == BIND_PTR) {
        bptr cur = b->binds[bi].ptr, nv = cur;
        if (incdec || has_op) {
            ir_expr *d = incdec ? ir_const(k, delta) : xb_value(b, rhs).e;
            if (has_op && op == IR_OP_SUB)
                d = irb_bin(b, IR_OP_SUB, ir_const(k, 0), d);
            int64_t psz = irb_sizeof(clang_getPointeeType(lt));
            if (psz > 0 && cur.unit > 0 && psz % cur.unit == 0)
                nv.off = irb_bin(b, IR_OP_ADD, cur.off,
                                 irb_bin(b, IR_OP_MUL, d, ir_const(k, psz / cur.unit)));
            else
                nv.off =
                    irb_bin(b, IR_OP_ADD, irb_bin(b, IR_OP_MUL, cur.off, ir_const(k, cur.unit)),
                            irb_bin(b, IR_OP_MUL, d, ir_const(k, psz > 0 ? psz : 1))),
                nv.unit = 1;
        } else if (!ab_pointer(b, rhs, &nv)) {
            nv.array = -1;
        }
        pb_assign_ptr(b, bi, &nv, c);
        return val(xb_unknown(b, c, "address value"));
    }
    if (bi != SIZE_MAX && b->binds[bi].kind == BIND_VAR) {
        bval r = incdec ? val(ir_const(k, delta)) : xb_value(b, rhs);
        int ls;
        ir_expr *old = read_binding(b, bi, lhs, &ls);
        ir_expr *nv = r.e;
        if (incdec)
            nv = irb_bin(b, IR_OP_ADD, old, r.e);
        else if (has_op)
            nv = irb_bin(b, op, old, r.e);
        xb_assign_var(b, bi, nv, has_op || incdec ? -1 : r.load_site, c);
        if (post)
            return val(old);
        return (bval){nv, has_op || incdec ? -1 : r.load_site};
    }
    if (bi != SIZE_MAX && b->binds[bi].kind == BIND_OTHER) {
        bval r = incdec ? val(NULL) : xb_value(b, rhs);
        b->binds[bi].load_site = has_op || incdec ? -1 : r.load_site;
        return (bval){xb_unknown(b, c, "non-integer value '%s'", b->binds[bi].name),
                      b->binds[bi].load_site};
    }
    if (ab_is_memory(b, lhs)) {
        bval r = incdec ? val(NULL) : xb_value(b, rhs);
        blval lv;
        if (!ab_lvalue(b, lhs, &lv))
            return val(xb_unknown(b, c, "store through an address that is not understood"));
        if (has_op || incdec)
            ab_emit(b, lhs, &lv, HMS_ACCESS_LOAD, false);
        int st = ab_emit(b, lhs, &lv, HMS_ACCESS_STORE, false);
        if (!has_op && !incdec)
            mb_store(b, st, r.load_site);
        char t[96];
        irb_text(b, lhs, t, sizeof t);
        return val(xb_unknown(b, c, "value stored to memory: %s", t));
    }
    /* Something we do not follow (a struct member of a local, ...): keep effects. */
    if (!incdec)
        xb_effects(b, rhs);
    xb_effects(b, lhs);
    return val(xb_unknown(b, c, "value of an assignment not followed"));
}

/* ---- calls ---------------------------------------------------------------------- */

static bool name_in(const char *n, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(n, *list))
            return true;
    return false;
}

static unsigned call_nargs(CXCursor call)
{
    int n = clang_Cursor_getNumArguments(call);
    return n > 0 ? (unsigned)n : 0;
}

static void args_effects(irb *b, CXCursor call, unsigned from)
{
    unsigned n = call_nargs(call);
    for (unsigned i = from; i < n; i++)
        xb_effects(b, clang_Cursor_getArgument(call, i));
}

static ir_expr *linear_tid(irb *b)
{
    ir_kernel *k = b->k;
    /* A linear rank says nothing about the block's shape: only x counts as used. */
    b->uses_tid[0] = true;
    ir_expr *bx = ir_symbol(k, IR_SYM_BDIM_X), *by = ir_symbol(k, IR_SYM_BDIM_Y);
    ir_expr *e = irb_bin(b, IR_OP_MUL, ir_symbol(k, IR_SYM_TID_Z), by);
    e = irb_bin(b, IR_OP_ADD, e, ir_symbol(k, IR_SYM_TID_Y));
    e = irb_bin(b, IR_OP_MUL, e, bx);
    return irb_bin(b, IR_OP_ADD, e, ir_symbol(k, IR_SYM_TID_X));
}

static ir_expr *dim3_of(irb *b, ir_sym base, const char *field)
{
    int d = field[0] - 'x';
    if (d < 0 || d > 2 || field[1])
        return NULL;
    if (base == IR_SYM_TID_X || base == IR_SYM_BDIM_X)
        b->uses_tid[d] = true;
    else
        b->uses_bid[d] = true;
    return ir_symbol(b->k, (ir_sym)(base + d));
}

/* Threads of the block: blockDim.x * blockDim.y * blockDim.z. */
static ir_expr *block_threads(irb *b)
{
    ir_kernel *k = b->k;
    b->uses_tid[0] = true;
    return irb_bin(b, IR_OP_MUL, ir_symbol(k, IR_SYM_BDIM_X),
                   irb_bin(b, IR_OP_MUL, ir_symbol(k, IR_SYM_BDIM_Y), ir_symbol(k, IR_SYM_BDIM_Z)));
}

/* The block's rank in the grid, x fastest (grid_group::block_rank). */
static ir_expr *block_rank(irb *b)
{
    ir_kernel *k = b->k;
    b->uses_bid[0] = true;
    ir_expr *e = irb_bin(b, IR_OP_MUL, ir_symbol(k, IR_SYM_BID_Z), ir_symbol(k, IR_SYM_GDIM_Y));
    e = irb_bin(b, IR_OP_ADD, e, ir_symbol(k, IR_SYM_BID_Y));
    e = irb_bin(b, IR_OP_MUL, e, ir_symbol(k, IR_SYM_GDIM_X));
    return irb_bin(b, IR_OP_ADD, e, ir_symbol(k, IR_SYM_BID_X));
}

/* The size N of a thread_block_tile<N, ...> type; 32 when it cannot be read
 * or is not a power of two up to a block's 1024 threads. */
static int64_t tile_size(const char *ty)
{
    const char *lt = strstr(ty, "thread_block_tile<");
    int64_t n = lt ? strtoll(lt + strlen("thread_block_tile<"), NULL, 10) : 32;
    return n > 0 && n <= 1024 && !(n & (n - 1)) ? n : 32;
}

/* Blocks of the grid: gridDim.x * gridDim.y * gridDim.z. */
static ir_expr *grid_blocks(irb *b)
{
    ir_kernel *k = b->k;
    b->uses_bid[0] = true;
    return irb_bin(b, IR_OP_MUL, ir_symbol(k, IR_SYM_GDIM_X),
                   irb_bin(b, IR_OP_MUL, ir_symbol(k, IR_SYM_GDIM_Y), ir_symbol(k, IR_SYM_GDIM_Z)));
}

/* A tile's methods: tiles are consecutive runs of N threads of the block's
 * linear order, so rank = linear % N (the lane id's low bits when N <= 32),
 * meta_group_rank = linear / N, meta_group_size = ceil(threads / N). */
static bool cg_tile_method(irb *b, const char *method, int64_t n, ir_expr **out)
{
    ir_kernel *k = b->k;
    if (!strcmp(method, "thread_rank")) {
        if (n <= 32) {
            ir_expr *lane = ir_symbol(k, IR_SYM_LANEID);
            *out = n == 32 ? lane : irb_bin(b, IR_OP_MOD, lane, ir_const(k, n));
        } else {
            *out = irb_bin(b, IR_OP_MOD, linear_tid(b), ir_const(k, n));
        }
    } else if (!strcmp(method, "size") || !strcmp(method, "num_threads")) {
        *out = ir_const(k, n);
    } else if (!strcmp(method, "meta_group_rank")) {
        *out = irb_bin(b, IR_OP_DIV, linear_tid(b), ir_const(k, n));
    } else if (!strcmp(method, "meta_group_size")) {
        *out = irb_bin(b, IR_OP_DIV, irb_bin(b, IR_OP_ADD, block_threads(b), ir_const(k, n - 1)),
                       ir_const(k, n));
    } else {
        return false;
    }
    return true;
}

/* Cooperative groups: thread_block / grid_group / thread_block_tile /
 * coalesced_group methods, which are functions of the launch. A coalesced
 * group is taken as a whole warp (its lanes all active). */
/* Does argument i of a call to `callee` bind a named object to a reference
 * parameter (`this_thread_block(scratch)` taking a block_tile_memory&)?
 * Binding reads nothing: only what the callee then does with it would. */
static bool binds_named_object(CXCursor callee, unsigned i, CXCursor arg)
{
    if (clang_Cursor_isNull(callee) || i >= (unsigned)clang_Cursor_getNumArguments(callee))
        return false;
    CXType t = clang_getCursorType(clang_Cursor_getArgument(callee, i));
    if (t.kind != CXType_LValueReference && t.kind != CXType_RValueReference)
        return false;
    return clang_getCursorKind(hms_cursor_strip(arg)) == CXCursor_DeclRefExpr;
}

static bool cg_call(irb *b, CXCursor call, bval *out)
{
    char method[64];
    CXCursor obj = irb_member_call_object(call, method, sizeof method);
    if (clang_Cursor_isNull(obj))
        return false;
    char ty[160];
    irb_type_spelling(clang_getCanonicalType(clang_getCursorType(obj)), ty, sizeof ty);
    bool tile = strstr(ty, "thread_block_tile") || strstr(ty, "coalesced_group");
    bool block = strstr(ty, "thread_block") && !tile;
    bool grid = strstr(ty, "grid_group") != NULL;
    if (!block && !tile && !grid)
        return false;
    ir_kernel *k = b->k;
    ir_expr *e = NULL;
    if (!strcmp(method, "sync")) {
        if (!tile) /* a tile's sync is a warp barrier: no block-wide ordering */
            sb_append(b, ir_stmt_new(k, IR_S_SYNC, irb_loc(b, call)));
        e = ir_const(k, 0);
    } else if (tile) {
        if (!cg_tile_method(b, method, tile_size(ty), &e))
            e = NULL;
    } else if (!strcmp(method, "thread_rank")) {
        e = linear_tid(b);
        if (grid)
            e = irb_bin(b, IR_OP_ADD, irb_bin(b, IR_OP_MUL, block_rank(b), block_threads(b)), e);
    } else if (!strcmp(method, "size") || !strcmp(method, "num_threads")) {
        e = block_threads(b);
        if (grid)
            e = irb_bin(b, IR_OP_MUL, grid_blocks(b), e);
    } else if (grid && !strcmp(method, "block_rank")) {
        e = block_rank(b);
    } else if (grid && !strcmp(method, "num_blocks")) {
        e = grid_blocks(b);
    }
    *out = val(e ? e : xb_unknown(b, call, "cooperative-groups value '%s()'", method));
    return true;
}

/* Members of dim3 values returned by cooperative groups: block.thread_index().x */
static bool cg_dim3_member(irb *b, CXCursor member, ir_expr **out)
{
    char field[8];
    irb_spelling(member, field, sizeof field);
    cursor_list l;
    irb_children(member, &l);
    bool ok = false;
    if (l.n == 1) {
        CXCursor call = hms_cursor_strip(l.v[0]);
        if (clang_getCursorKind(call) == CXCursor_CallExpr) {
            char method[64];
            CXCursor obj = irb_member_call_object(call, method, sizeof method);
            if (!clang_Cursor_isNull(obj)) {
                char ty[160];
                irb_type_spelling(clang_getCanonicalType(clang_getCursorType(obj)), ty, sizeof ty);
                if (strstr(ty, "thread_block") || strstr(ty, "grid_group")) {
                    ir_sym base = IR_SYM_COUNT;
                    if (!strcmp(method, "thread_index"))
                        base = IR_SYM_TID_X;
                    else if (!strcmp(method, "group_index"))
                        base = IR_SYM_BID_X;
                    else if (!strcmp(method, "group_dim") || !strcmp(method, "dim_threads"))
                        base = IR_SYM_BDIM_X;
                    if (base != IR_SYM_COUNT && (*out = dim3_of(b, base, field)))
                        ok = true;
                }
            }
        }
    }
    irb_list_free(&l);
    return ok;
}

static CXCursor body_of_fn(CXCursor fn)
{
    CXCursor def = clang_getCursorDefinition(fn);
    return clang_Cursor_isNull(def) ? def : hms_cursor_body(def);
}

/* Compiler-declared members (implicit copy assignment) sit at their class's location. */
static bool implicit_member(CXCursor fn)
{
    CXCursor cls = clang_getCursorSemanticParent(fn);
    return !clang_Cursor_isNull(cls) &&
           clang_equalLocations(clang_getCursorLocation(fn), clang_getCursorLocation(cls));
}

static bval call_value(irb *b, CXCursor c)
{
    ir_kernel *k = b->k;
    char name[128];
    irb_spelling(c, name, sizeof name);
    CXCursor callee = irb_callee(c);
    unsigned nargs = call_nargs(c);
    if (clang_getCursorKind(callee) == CXCursor_Constructor && nargs == 1 &&
        (hms_cursor_in_builtin_header(callee) || implicit_member(callee) ||
         clang_Cursor_isNull(body_of_fn(callee)))) {
        /* copy of a struct or vector (Particle q = p[i]): what is copied is read */
        bval v = xb_value(b, clang_Cursor_getArgument(c, 0));
        return (bval){xb_unknown(b, c, "copied value"), v.load_site};
    }
    static const char *const syncs[] = {"__syncthreads", "__syncthreads_count", "__syncthreads_and",
                                        "__syncthreads_or", NULL};
    static const char *const mins[] = {"min", "umin", "llmin", "ullmin", NULL};
    static const char *const maxs[] = {"max", "umax", "llmax", "ullmax", NULL};
    static const char *const muls[] = {"__mul24", "__umul24", NULL};
    static const char *const abss[] = {"abs", "labs", "llabs", NULL};
    bool builtin = clang_Cursor_isNull(callee) || hms_cursor_in_builtin_header(callee);

    if (builtin && name_in(name, syncs)) {
        args_effects(b, c, 0);
        sb_append(b, ir_stmt_new(k, IR_S_SYNC, irb_loc(b, c)));
        return val(xb_unknown(b, c, "result of %s", name));
    }
    if (builtin && !strcmp(name, "sync") && nargs == 1) { /* cg::sync(group) */
        char ty[160];
        irb_type_spelling(
            clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(c, 0))), ty,
            sizeof ty);
        if (!strstr(ty, "tile") && !strstr(ty, "coalesced"))
            sb_append(b, ir_stmt_new(k, IR_S_SYNC, irb_loc(b, c)));
        return val(ir_const(k, 0));
    }
    if (!strcmp(name, "operator=") && nargs == 2 &&
        (builtin || clang_Cursor_isNull(body_of_fn(callee)) || implicit_member(callee))) {
        /* a struct or vector copy (float4 a = b): the implicit assignment operator */
        CXCursor lhs = clang_Cursor_getArgument(c, 0), rhs = clang_Cursor_getArgument(c, 1);
        return assign(b, c, lhs, rhs, false, IR_OP_ADD, 0, false);
    }
    bval r;
    if (builtin && ab_atomic(b, c, &r))
        return r;
    if (builtin && ab_ldg(b, c, name, &r))
        return r;
    if (builtin && ab_texture_fetch(b, c, name, &r))
        return r;
    if (builtin && ab_surface_access(b, c, name, &r))
        return r;
    if (cg_call(b, c, &r))
        return r;
    bool int_result = irb_is_int(clang_getCursorType(c));
    if (builtin && nargs == 2 && int_result &&
        (name_in(name, mins) || name_in(name, maxs) || name_in(name, muls))) {
        ir_expr *x = xb_value(b, clang_Cursor_getArgument(c, 0)).e;
        ir_expr *y = xb_value(b, clang_Cursor_getArgument(c, 1)).e;
        ir_op op = name_in(name, mins) ? IR_OP_MIN : name_in(name, maxs) ? IR_OP_MAX : IR_OP_MUL;
        return val(irb_bin(b, op, x, y));
    }
    if (builtin && nargs == 1 && int_result && name_in(name, abss)) {
        ir_expr *x = xb_value(b, clang_Cursor_getArgument(c, 0)).e;
        return val(irb_bin(b, IR_OP_MAX, x, irb_bin(b, IR_OP_SUB, ir_const(k, 0), x)));
    }
    int64_t v;
    if (int_result && irb_eval_int(c, &v)) /* constexpr calls */
        return val(ir_const(k, v));
    bool has_def = false;
    bool model = builtin && irb_is_model(callee);
    if (!clang_Cursor_isNull(callee) && (!builtin || model)) {
        CXCursor def = clang_getCursorDefinition(callee);
        if (!clang_Cursor_isNull(def)) {
            bval out;
            bptr p;
            has_def = true;
            /* A header model is reported at the outermost call in user code. */
            if (model && b->model_depth++ == 0)
                b->model_call = c;
            bool inlined = sb_inline_call(b, c, def, &out, &p);
            if (model)
                b->model_depth--;
            if (inlined)
                return out;
        }
    }
    /* Opaque: evaluate the arguments; pointers to arrays escape our view. A
     * method called through a pointer (`(*list)->push(x)`, a virtual call)
     * first loads that pointer where it sits in memory. */
    if (!builtin) {
        CXCursor obj = irb_member_call_object(c, NULL, 0);
        if (!clang_Cursor_isNull(obj) && irb_is_ptr(clang_getCursorType(obj)))
            xb_effects(b, obj);
    }
    for (unsigned i = 0; i < nargs; i++) {
        CXCursor a = clang_Cursor_getArgument(c, i);
        CXType at = clang_getCursorType(a);
        if (irb_is_ptr(at) || irb_is_array(at)) {
            bptr p;
            if (ab_pointer(b, a, &p) && p.array >= 0 && !builtin) {
                char why[256];
                snprintf(why, sizeof why,
                         "pointer to '%s' passed to '%s', %s: accesses made there are not "
                         "modelled",
                         k->arrays[p.array].name, name,
                         has_def ? "which is not inlined" : "whose definition is not visible");
                irb_limit(b, why,
                          has_def ? NULL : "define the function in this file or include its source",
                          irb_loc(b, c));
            }
        } else if (!binds_named_object(callee, i, a)) {
            xb_effects(b, a);
        }
    }
    if (!int_result)
        return val(xb_unknown(b, c, "result of '%s'", name));
    if (builtin)
        return val(xb_unknown(b, c, "result of the intrinsic '%s'", name));
    if (has_def)
        return val(xb_unknown(b, c, "result of '%s', which is not inlined", name));
    return val(xb_unknown(b, c, "result of '%s', whose definition is not visible", name));
}

/* ---- expressions ------------------------------------------------------------ */

static bval cond_expr(irb *b, CXCursor c, CXCursor cond, CXCursor x, CXCursor y);
static bval logical(irb *b, CXCursor c, CXCursor lhs, CXCursor rhs, bool is_and);

static ir_op binop(enum CXBinaryOperatorKind k, bool *ok)
{
    *ok = true;
    switch (k) {
    case CXBinaryOperator_Mul:
        return IR_OP_MUL;
    case CXBinaryOperator_Div:
        return IR_OP_DIV;
    case CXBinaryOperator_Rem:
        return IR_OP_MOD;
    case CXBinaryOperator_Add:
        return IR_OP_ADD;
    case CXBinaryOperator_Sub:
        return IR_OP_SUB;
    case CXBinaryOperator_Shl:
        return IR_OP_SHL;
    case CXBinaryOperator_Shr:
        return IR_OP_SHR;
    case CXBinaryOperator_LT:
        return IR_OP_LT;
    case CXBinaryOperator_GT:
        return IR_OP_GT;
    case CXBinaryOperator_LE:
        return IR_OP_LE;
    case CXBinaryOperator_GE:
        return IR_OP_GE;
    case CXBinaryOperator_EQ:
        return IR_OP_EQ;
    case CXBinaryOperator_NE:
        return IR_OP_NE;
    case CXBinaryOperator_And:
        return IR_OP_AND;
    case CXBinaryOperator_Xor:
        return IR_OP_XOR;
    case CXBinaryOperator_Or:
        return IR_OP_OR;
    default:
        *ok = false;
        return IR_OP_ADD;
    }
}

static bool two_children(CXCursor c, CXCursor *x, CXCursor *y)
{
    cursor_list l;
    irb_children(c, &l);
    bool ok = l.n == 2;
    if (ok)
        *x = l.v[0], *y = l.v[1];
    irb_list_free(&l);
    return ok;
}

static bval binary(irb *b, CXCursor c)
{
    CXCursor x, y;
    if (!two_children(c, &x, &y)) {
        xb_effects_children(b, c);
        return val(xb_unknown(b, c, "malformed binary expression"));
    }
    enum CXBinaryOperatorKind bk = clang_getCursorBinaryOperatorKind(c);
    if (clang_getCursorKind(c) == CXCursor_CompoundAssignOperator) {
        bool ok;
        ir_op op = compound_op(bk, &ok);
        return assign(b, c, x, y, ok, op, 0, false);
    }
    switch (bk) {
    case CXBinaryOperator_Assign:
        return assign(b, c, x, y, false, IR_OP_ADD, 0, false);
    case CXBinaryOperator_Comma:
        xb_effects(b, x);
        return xb_value(b, y);
    case CXBinaryOperator_LAnd:
        return logical(b, c, x, y, true);
    case CXBinaryOperator_LOr:
        return logical(b, c, x, y, false);
    default:
        break;
    }
    CXType tx = clang_getCursorType(x), ty = clang_getCursorType(y);
    bool px = irb_is_ptr(tx) || irb_is_array(tx);
    bool py = irb_is_ptr(ty) || irb_is_array(ty);
    bool ok;
    ir_op op = binop(bk, &ok);
    if (px && py && ok && (op == IR_OP_SUB || (op >= IR_OP_LT && op <= IR_OP_NE))) {
        /* Pointer difference or comparison within one array: compare offsets. */
        bptr p, q;
        bool okp = ab_pointer(b, x, &p), okq = ab_pointer(b, y, &q);
        if (okp && okq && p.array >= 0 && p.array == q.array && p.unit == q.unit) {
            ir_expr *d = irb_bin(b, op, p.off, q.off);
            if (op == IR_OP_SUB) {
                int64_t psz = irb_sizeof(clang_getPointeeType(tx));
                if (psz > p.unit && psz % p.unit == 0)
                    d = irb_bin(b, IR_OP_DIV, d, ir_const(b->k, psz / p.unit));
            }
            return val(d);
        }
        return val(xb_unknown(b, c, "comparison of unrelated addresses"));
    }
    if (px || py) {
        xb_effects(b, x);
        xb_effects(b, y);
        return val(xb_unknown(b, c, "address arithmetic used as a value"));
    }
    bval a = xb_value(b, x);
    bval d = xb_value(b, y);
    if (!ok)
        return val(xb_unknown(b, c, "operator not modelled"));
    return val(irb_bin(b, op, a.e, d.e));
}

/* The load of lv (none for a register value) and the unknown it reads. */
static bval loaded_value(irb *b, CXCursor c, const blval *lv)
{
    int site = ab_emit(b, c, lv, HMS_ACCESS_LOAD, false);
    char t[96];
    irb_text(b, c, t, sizeof t);
    bool reg = lv->array == IRB_REGISTERS;
    ir_expr *u =
        xb_unknown(b, c, "value %s: %s", reg ? "held in registers" : "loaded from memory", t);
    u->array = reg ? -1 : lv->array;
    return (bval){u, site};
}

static bval unary(irb *b, CXCursor c)
{
    cursor_list l;
    irb_children(c, &l);
    CXCursor x = l.n ? l.v[l.n - 1] : clang_getNullCursor();
    irb_list_free(&l);
    if (clang_Cursor_isNull(x))
        return val(xb_unknown(b, c, "malformed unary expression"));
    ir_kernel *k = b->k;
    switch (clang_getCursorUnaryOperatorKind(c)) {
    case CXUnaryOperator_PostInc:
        return assign(b, c, x, x, false, IR_OP_ADD, 1, true);
    case CXUnaryOperator_PostDec:
        return assign(b, c, x, x, false, IR_OP_ADD, -1, true);
    case CXUnaryOperator_PreInc:
        return assign(b, c, x, x, false, IR_OP_ADD, 1, false);
    case CXUnaryOperator_PreDec:
        return assign(b, c, x, x, false, IR_OP_ADD, -1, false);
    case CXUnaryOperator_AddrOf: {
        bptr p;
        ab_pointer(b, c, &p);
        return val(xb_unknown(b, c, "address value"));
    }
    case CXUnaryOperator_Deref: {
        blval lv;
        if (ab_lvalue(b, c, &lv))
            return loaded_value(b, c, &lv);
        return val(xb_unknown(b, c, "load through an address that is not understood"));
    }
    case CXUnaryOperator_Plus:
        return xb_value(b, x);
    case CXUnaryOperator_Minus: {
        ir_expr *e = xb_value(b, x).e;
        int64_t v;
        return val(irb_const_of(e, &v) ? ir_const(k, -v) : ir_unary(k, IR_OP_NEG, e));
    }
    case CXUnaryOperator_Not: {
        ir_expr *e = xb_value(b, x).e;
        int64_t v;
        return val(irb_const_of(e, &v) ? ir_const(k, ~v) : ir_unary(k, IR_OP_BITNOT, e));
    }
    case CXUnaryOperator_LNot: {
        ir_expr *e = xb_value(b, x).e;
        int64_t v;
        return val(irb_const_of(e, &v) ? ir_const(k, !v) : ir_unary(k, IR_OP_NOT, e));
    }
    default:
        return xb_value(b, x);
    }
}

static bval memory_load(irb *b, CXCursor c)
{
    blval lv;
    if (!ab_lvalue(b, c, &lv))
        return val(xb_unknown(b, c, "load through an address that is not understood"));
    return loaded_value(b, c, &lv);
}

/* A struct parameter's field (A.width) bound as its own variable. */
bool sb_field_binding(irb *b, CXCursor member, size_t *out);

static bval member(irb *b, CXCursor c)
{
    ir_expr *e;
    if (builtin_member(b, c, &e) || cg_dim3_member(b, c, &e))
        return val(e);
    size_t fi;
    if (sb_field_binding(b, c, &fi)) {
        int ls;
        e = read_binding(b, fi, c, &ls);
        return (bval){e, ls};
    }
    CXCursor ref = clang_getCursorReferenced(c);
    int64_t v;
    if (clang_getCursorKind(ref) == CXCursor_VarDecl && irb_is_int(clang_getCursorType(c)) &&
        (irb_eval_int(c, &v) || irb_eval_int(ref, &v)))
        return val(ir_const(b->k, v)); /* static constexpr member: v.size, T::size */
    if (clang_getCursorKind(ref) == CXCursor_EnumConstantDecl) /* frag.num_elements */
        return val(ir_const(b->k, clang_getEnumConstantDeclValue(ref)));
    if (ab_is_memory(b, c))
        return memory_load(b, c);
    xb_effects_children(b, c);
    char n[64];
    irb_spelling(c, n, sizeof n);
    return val(xb_unknown(b, c, "member '%s' of a value that is not followed", n));
}

static bval cast(irb *b, CXCursor c)
{
    cursor_list l;
    irb_children(c, &l);
    CXCursor x = clang_getNullCursor();
    for (unsigned i = 0; i < l.n; i++)
        if (clang_isExpression(clang_getCursorKind(l.v[i])))
            x = l.v[i];
    irb_list_free(&l);
    if (clang_Cursor_isNull(x))
        return val(xb_unknown(b, c, "malformed cast"));
    if (irb_is_ptr(clang_getCursorType(x))) {
        bptr p;
        ab_pointer(b, x, &p);
        return val(xb_unknown(b, c, "address converted to an integer"));
    }
    return xb_value(b, x);
}

bval xb_value(irb *b, CXCursor c)
{
    ir_kernel *k = b->k;
    if (clang_Cursor_isNull(c))
        return val(ir_unknown(k, "missing expression", -1, (ir_loc){0}));
    if (!irb_budget(b, c))
        return val(xb_unknown(b, c, "analysis budget exhausted"));
    CXType t = clang_getCursorType(c);
    bool is_int = irb_is_int(t);
    enum CXCursorKind kind = clang_getCursorKind(c);
    int64_t v;
    bval r;
    switch (kind) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr:
        if (irb_eval_int(c, &v))
            return val(ir_const(k, v));
        return val(xb_unknown(b, c, "literal out of range"));
    case CXCursor_FloatingLiteral:
        return val(xb_unknown(b, c, "floating-point value"));
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr: {
        cursor_list l;
        irb_children(c, &l);
        CXCursor only = clang_getNullCursor();
        unsigned nexpr = 0;
        for (unsigned i = 0; i < l.n; i++)
            if (clang_isExpression(clang_getCursorKind(l.v[i])))
                only = l.v[i], nexpr++;
        irb_list_free(&l);
        if (nexpr == 1) {
            CXType ct = clang_getCursorType(only);
            if (is_int && (irb_is_ptr(ct) || irb_is_array(ct))) {
                bptr p;
                ab_pointer(b, only, &p);
                return val(xb_unknown(b, c, "address converted to an integer"));
            }
            r = xb_value(b, only);
            break;
        }
        if (nexpr == 0 && irb_eval_int(c, &v)) /* default arguments, substituted template args */
            return val(ir_const(k, v));
        xb_effects_children(b, c);
        r = val(undeclared_or(b, c, "expression not modelled"));
        break;
    }
    case CXCursor_DeclRefExpr:
        r = decl_ref_value(b, c);
        break;
    case CXCursor_MemberRefExpr:
        r = member(b, c);
        break;
    case CXCursor_ArraySubscriptExpr:
        if (!ab_is_memory(b, c)) { /* an array member of a struct in registers */
            xb_effects_children(b, c);
            r = val(xb_unknown(b, c, "element of an array held in registers"));
        } else {
            r = memory_load(b, c);
        }
        break;
    case CXCursor_UnaryOperator:
        r = unary(b, c);
        break;
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        r = binary(b, c);
        break;
    case CXCursor_ConditionalOperator: {
        cursor_list l;
        irb_children(c, &l);
        if (l.n == 3)
            r = cond_expr(b, c, l.v[0], l.v[1], l.v[2]);
        else {
            xb_effects_children(b, c);
            r = val(xb_unknown(b, c, "conditional expression not modelled"));
        }
        irb_list_free(&l);
        break;
    }
    case CXCursor_CallExpr:
        r = call_value(b, c);
        break;
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXConstCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
        r = cast(b, c);
        break;
    case CXCursor_UnaryExpr: /* sizeof, alignof */
        if (irb_eval_int(c, &v))
            return val(ir_const(k, v));
        r = val(xb_unknown(b, c, "sizeof of a type whose size is not known"));
        break;
    default:
        xb_effects_children(b, c);
        r = val(undeclared_or(b, c, "expression not modelled"));
        break;
    }
    if (!is_int && r.e && r.e->kind != IR_UNKNOWN && t.kind != CXType_Invalid &&
        t.kind != CXType_Unexposed && t.kind != CXType_Dependent) {
        ir_expr *u = xb_unknown(b, c, "non-integer value");
        r.e = u;
    }
    /* An unknown that is exactly what a load read: the tracer gives it one
     * value per address, so a warp-uniform load stays warp-uniform. */
    if (r.load_site >= 0 && r.e && r.e->kind == IR_UNKNOWN && r.e->site < 0)
        r.e->site = r.load_site;
    return r;
}

/* The effects of c's sub-expressions (c itself not being understood). */
void xb_effects_children(irb *b, CXCursor c)
{
    cursor_list l;
    irb_children(c, &l);
    for (unsigned i = 0; i < l.n; i++)
        if (clang_isExpression(clang_getCursorKind(l.v[i])))
            xb_effects(b, l.v[i]);
    irb_list_free(&l);
}

/* Evaluates c for its effects (accesses, assignments), discarding the value. */
void xb_effects(irb *b, CXCursor c)
{
    if (clang_Cursor_isNull(c))
        return;
    enum CXCursorKind kind = clang_getCursorKind(c);
    switch (kind) {
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr:
    case CXCursor_StringLiteral:
    case CXCursor_TypeRef:
    case CXCursor_TemplateRef:
    case CXCursor_NamespaceRef:
    case CXCursor_UnaryExpr:
    case CXCursor_CXXNullPtrLiteralExpr:
    case CXCursor_LambdaExpr:
        return;
    case CXCursor_DeclRefExpr:
    case CXCursor_MemberRefExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_UnaryOperator:
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
    case CXCursor_ConditionalOperator:
    case CXCursor_CallExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXConstCastExpr:
    case CXCursor_CXXReinterpretCastExpr: {
        CXType t = clang_getCursorType(c);
        if ((irb_is_ptr(t) || irb_is_array(t)) && kind != CXCursor_CallExpr &&
            kind != CXCursor_BinaryOperator && kind != CXCursor_CompoundAssignOperator &&
            kind != CXCursor_UnaryOperator) {
            bptr p;
            ab_pointer(b, c, &p);
            return;
        }
        if (kind == CXCursor_DeclRefExpr && !ab_is_memory(b, c))
            return;
        xb_value(b, c);
        return;
    }
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    default: {
        if (!irb_budget(b, c))
            return;
        cursor_list l;
        irb_children(c, &l);
        for (unsigned i = 0; i < l.n; i++) {
            enum CXCursorKind ck = clang_getCursorKind(l.v[i]);
            if (clang_isExpression(ck))
                xb_effects(b, l.v[i]);
        }
        irb_list_free(&l);
        return;
    }
    }
}

/* ---- control inside expressions ------------------------------------------------ */

bool sb_guarded(irb *b, ir_expr *cond, CXCursor then_c, CXCursor else_c, bval *tv, bval *ev,
                ir_loc loc);

/* A literal, or a cast of one (0, 0.0f, T(0)). */
static bool constant_cursor(CXCursor c)
{
    c = hms_cursor_strip(c);
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_IntegerLiteral || k == CXCursor_FloatingLiteral ||
        k == CXCursor_CharacterLiteral || k == CXCursor_CXXBoolLiteralExpr)
        return true;
    if (k == CXCursor_CStyleCastExpr || k == CXCursor_CXXFunctionalCastExpr ||
        k == CXCursor_CXXStaticCastExpr) {
        cursor_list l;
        irb_children(c, &l);
        bool r = l.n >= 1 && constant_cursor(l.v[l.n - 1]);
        irb_list_free(&l);
        return r;
    }
    int64_t v;
    return irb_eval_int(c, &v);
}

static bval cond_expr(irb *b, CXCursor c, CXCursor cond, CXCursor x, CXCursor y)
{
    ir_expr *ce = xb_value(b, cond).e;
    bval tv, ev;
    sb_guarded(b, ce, x, y, &tv, &ev, irb_loc(b, c));
    int64_t cv;
    if (irb_const_of(ce, &cv))
        return cv ? tv : ev;
    bval r = val(ir_select(b->k, ce, tv.e, ev.e));
    /* A guarded load with a constant fallback (halo tiles: i < n ? in[i] : 0)
     * still fetches from `in` for the lanes that read it. */
    if (tv.load_site >= 0 && constant_cursor(y))
        r.load_site = tv.load_site;
    else if (ev.load_site >= 0 && constant_cursor(x))
        r.load_site = ev.load_site;
    return r;
}

static bval logical(irb *b, CXCursor c, CXCursor lhs, CXCursor rhs, bool is_and)
{
    ir_kernel *k = b->k;
    ir_expr *x = xb_value(b, lhs).e;
    int64_t cv;
    if (irb_const_of(x, &cv)) {
        if (is_and ? !cv : cv)
            return val(ir_const(k, is_and ? 0 : 1));
        ir_expr *y = xb_value(b, rhs).e;
        return val(irb_bin(b, IR_OP_NE, y, ir_const(k, 0)));
    }
    /* The right operand runs only where the left one did not decide. */
    ir_expr *guard = is_and ? x : ir_unary(k, IR_OP_NOT, x);
    bval tv, ev;
    sb_guarded(b, guard, rhs, clang_getNullCursor(), &tv, &ev, irb_loc(b, c));
    return val(ir_binary(k, is_and ? IR_OP_LAND : IR_OP_LOR, x, tv.e));
}

/* ---- locals ---------------------------------------------------------------------- */

void xb_assign_var(irb *b, size_t bi, ir_expr *value, int load_site, CXCursor at);
