/* Constant folding of host expressions at a launch site, with the values of
 * local variables followed through straight-line code. */
#include "analyzer/frontend/const_fold.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/cursor_util.h"

#define MAX_DEPTH 48

/* Work allowed per folded expression, so that pathological code (a = a + a
 * forty times over) cannot make folding exponential: an expression step
 * costs 1, following a variable (a walk of its function) FOLLOW_COST. */
#define FOLD_BUDGET 20000
#define FOLLOW_COST 50
static _Thread_local int budget;

static bool spend(int cost)
{
    budget -= cost;
    return budget >= 0;
}

typedef struct {
    bool is_float, is_unsigned;
    int64_t i;
    double d;
} num;

static bool fold_num(const hms_fold_site *s, unsigned pos, CXCursor e, num *out, int depth);
static bool fold_dim3_at(const hms_fold_site *s, unsigned pos, CXCursor e, num v[3], bool ok[3],
                         char *text[3], int depth);

/* ---- cursors and types ----------------------------------------------------- */

/* The same AST node reached twice. Not by extent alone: libclang starts a
 * declaration's extent at its own declarator when visiting a DeclStmt, but
 * at the shared type specifier when reached through a reference. */
static bool same_node(CXCursor a, CXCursor b)
{
    return clang_getCursorKind(a) == clang_getCursorKind(b) &&
           clang_equalLocations(clang_getCursorLocation(a), clang_getCursorLocation(b)) &&
           clang_equalLocations(clang_getRangeEnd(clang_getCursorExtent(a)),
                                clang_getRangeEnd(clang_getCursorExtent(b)));
}

/* The binding of v (member < 0) or of its component `member`. */
static const hms_fold_binding *binding_of(const hms_fold_site *s, CXCursor v, int member)
{
    for (size_t i = s->nbinds; i-- > 0;)
        if (same_node(s->binds[i].var, v) && s->binds[i].member == (member < 0 ? -1 : member))
            return &s->binds[i];
    return NULL;
}

static void from_binding(const hms_fold_binding *b, num *out)
{
    memset(out, 0, sizeof *out);
    out->is_float = b->is_float;
    out->i = b->i;
    out->d = b->d;
}

static unsigned start_offset(CXCursor c)
{
    unsigned off = 0;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL,
                               &off);
    return off;
}

static bool contains(CXCursor outer, CXCursor inner)
{
    unsigned ob, oe, ib, ie;
    CXFile of, inf;
    if (!hms_cursor_offsets(outer, &of, &ob, &oe) || !hms_cursor_offsets(inner, &inf, &ib, &ie))
        return false;
    return clang_File_isEqual(of, inf) && ib >= ob && ib < oe;
}

/* 0: not arithmetic, 1: integer (bool, enums included), 2: floating that
 * folds (float and wider: half-precision values are not folded). */
static int type_class(CXType t, unsigned *bits, bool *is_unsigned)
{
    hms_type_class c = hms_type_classify(t);
    *bits = c.bits;
    *is_unsigned = c.is_unsigned;
    if (c.family == HMS_TYPE_FLOATING)
        return c.bits >= 32 ? 2 : 0;
    return c.family == HMS_TYPE_INTEGER;
}

/* Converts v to type t as C would (integer wrap-around, truncation toward
 * zero, float rounding); false when t is not arithmetic or the value does not fit. */
static bool convert(num *v, CXType t)
{
    unsigned bits;
    bool uns;
    int cls = type_class(t, &bits, &uns);
    if (cls == 0) /* a dependent type (T in a template helper) keeps the value */
        return clang_getCanonicalType(t).kind == CXType_Unexposed ||
               clang_getCanonicalType(t).kind == CXType_Dependent;
    if (cls == 2) {
        if (!v->is_float)
            v->d = v->is_unsigned ? (double)(uint64_t)v->i : (double)v->i;
        if (bits == 32)
            v->d = (float)v->d;
        v->is_float = true;
        v->is_unsigned = false;
        return true;
    }
    if (v->is_float) {
        if (!isfinite(v->d) || v->d >= 9.2e18 || v->d <= -9.2e18)
            return false;
        v->i = (int64_t)v->d;
        v->is_float = false;
    }
    if (bits == 1) {
        v->i = v->i != 0;
    } else if (bits < 64) {
        uint64_t mask = (UINT64_C(1) << bits) - 1, u = (uint64_t)v->i & mask;
        if (!uns && (u >> (bits - 1)))
            u |= ~mask;
        v->i = (int64_t)u;
    }
    v->is_unsigned = uns;
    return true;
}

static bool is_dim3_type(CXType t)
{
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    if (t.kind != CXType_Record)
        return false;
    char *name = hms_cursor_spelling(clang_getTypeDeclaration(t));
    bool r = name && (!strcmp(name, "dim3") || !strcmp(name, "uint3"));
    free(name);
    return r;
}

static bool eval_leaf(CXCursor e, num *out)
{
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r)
        return false;
    bool ok = true;
    memset(out, 0, sizeof *out);
    switch (clang_EvalResult_getKind(r)) {
    case CXEval_Int:
        if (clang_EvalResult_isUnsignedInt(r)) {
            out->i = (int64_t)clang_EvalResult_getAsUnsigned(r);
            out->is_unsigned = true;
        } else {
            out->i = clang_EvalResult_getAsLongLong(r);
        }
        break;
    case CXEval_Float:
        out->is_float = true;
        out->d = clang_EvalResult_getAsDouble(r);
        break;
    default:
        ok = false;
    }
    clang_EvalResult_dispose(r);
    return ok;
}

/* The expression children of c (TypeRefs, attributes, etc. skipped). */
typedef struct {
    CXCursor v[8];
    unsigned n;
} expr_children;

static enum CXChildVisitResult collect_expr(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    expr_children *ec = d;
    if (clang_isExpression(clang_getCursorKind(c))) {
        if (ec->n < 8)
            ec->v[ec->n] = c;
        ec->n++;
    }
    return CXChildVisit_Continue;
}

static expr_children expr_kids(CXCursor c)
{
    expr_children ec;
    ec.n = 0;
    clang_visitChildren(c, collect_expr, &ec);
    return ec;
}

/* The initializer of a variable declaration, or a null cursor. */
static CXCursor var_init(CXCursor v)
{
    expr_children ec = expr_kids(v);
    return ec.n > 0 && ec.n <= 8 ? ec.v[ec.n - 1] : clang_getNullCursor();
}

/* ---- arithmetic ------------------------------------------------------------ */

static bool as_double(const num *v, double *d)
{
    *d = v->is_float ? v->d : v->is_unsigned ? (double)(uint64_t)v->i : (double)v->i;
    return true;
}

static bool truth(const num *v)
{
    return v->is_float ? v->d != 0.0 : v->i != 0;
}

static bool binary(enum CXBinaryOperatorKind op, const num *a, const num *b, num *r)
{
    memset(r, 0, sizeof *r);
    switch (op) {
    case CXBinaryOperator_LAnd:
        r->i = truth(a) && truth(b);
        return true;
    case CXBinaryOperator_LOr:
        r->i = truth(a) || truth(b);
        return true;
    case CXBinaryOperator_Comma:
        *r = *b;
        return true;
    default:
        break;
    }
    if (a->is_float || b->is_float) {
        double x, y;
        as_double(a, &x);
        as_double(b, &y);
        r->is_float = true;
        switch (op) {
        case CXBinaryOperator_Add:
            r->d = x + y;
            return true;
        case CXBinaryOperator_Sub:
            r->d = x - y;
            return true;
        case CXBinaryOperator_Mul:
            r->d = x * y;
            return true;
        case CXBinaryOperator_Div:
            if (y == 0.0)
                return false;
            r->d = x / y;
            return true;
        default:
            break;
        }
        r->is_float = false;
        switch (op) {
        case CXBinaryOperator_LT:
            r->i = x < y;
            return true;
        case CXBinaryOperator_GT:
            r->i = x > y;
            return true;
        case CXBinaryOperator_LE:
            r->i = x <= y;
            return true;
        case CXBinaryOperator_GE:
            r->i = x >= y;
            return true;
        case CXBinaryOperator_EQ:
            r->i = x == y;
            return true;
        case CXBinaryOperator_NE:
            r->i = x != y;
            return true;
        default:
            return false;
        }
    }
    bool uns = a->is_unsigned || b->is_unsigned;
    int64_t x = a->i, y = b->i;
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    r->is_unsigned = uns;
    switch (op) {
    case CXBinaryOperator_Add:
        if (uns)
            r->i = (int64_t)(ux + uy);
        else if (__builtin_add_overflow(x, y, &r->i))
            return false;
        return true;
    case CXBinaryOperator_Sub:
        if (uns)
            r->i = (int64_t)(ux - uy);
        else if (__builtin_sub_overflow(x, y, &r->i))
            return false;
        return true;
    case CXBinaryOperator_Mul:
        if (uns)
            r->i = (int64_t)(ux * uy);
        else if (__builtin_mul_overflow(x, y, &r->i))
            return false;
        return true;
    case CXBinaryOperator_Div:
    case CXBinaryOperator_Rem:
        if (y == 0 || (!uns && x == INT64_MIN && y == -1))
            return false;
        if (uns)
            r->i = (int64_t)(op == CXBinaryOperator_Div ? ux / uy : ux % uy);
        else
            r->i = op == CXBinaryOperator_Div ? x / y : x % y;
        return true;
    case CXBinaryOperator_Shl:
        if (y < 0 || y > 63)
            return false;
        r->i = (int64_t)(ux << y);
        r->is_unsigned = a->is_unsigned;
        return true;
    case CXBinaryOperator_Shr:
        if (y < 0 || y > 63)
            return false;
        r->i = a->is_unsigned ? (int64_t)(ux >> y) : x >> y;
        r->is_unsigned = a->is_unsigned;
        return true;
    case CXBinaryOperator_And:
        r->i = x & y;
        return true;
    case CXBinaryOperator_Or:
        r->i = x | y;
        return true;
    case CXBinaryOperator_Xor:
        r->i = x ^ y;
        return true;
    default:
        break;
    }
    r->is_unsigned = false;
    switch (op) {
    case CXBinaryOperator_LT:
        r->i = uns ? ux < uy : x < y;
        return true;
    case CXBinaryOperator_GT:
        r->i = uns ? ux > uy : x > y;
        return true;
    case CXBinaryOperator_LE:
        r->i = uns ? ux <= uy : x <= y;
        return true;
    case CXBinaryOperator_GE:
        r->i = uns ? ux >= uy : x >= y;
        return true;
    case CXBinaryOperator_EQ:
        r->i = x == y;
        return true;
    case CXBinaryOperator_NE:
        r->i = x != y;
        return true;
    default:
        return false;
    }
}

/* The arithmetic operator of a compound assignment (`+=` -> `+`). */
static enum CXBinaryOperatorKind compound_base(enum CXBinaryOperatorKind op)
{
    switch (op) {
    case CXBinaryOperator_MulAssign:
        return CXBinaryOperator_Mul;
    case CXBinaryOperator_DivAssign:
        return CXBinaryOperator_Div;
    case CXBinaryOperator_RemAssign:
        return CXBinaryOperator_Rem;
    case CXBinaryOperator_AddAssign:
        return CXBinaryOperator_Add;
    case CXBinaryOperator_SubAssign:
        return CXBinaryOperator_Sub;
    case CXBinaryOperator_ShlAssign:
        return CXBinaryOperator_Shl;
    case CXBinaryOperator_ShrAssign:
        return CXBinaryOperator_Shr;
    case CXBinaryOperator_AndAssign:
        return CXBinaryOperator_And;
    case CXBinaryOperator_XorAssign:
        return CXBinaryOperator_Xor;
    case CXBinaryOperator_OrAssign:
        return CXBinaryOperator_Or;
    default:
        return CXBinaryOperator_Invalid;
    }
}

/* ---- following a local variable -------------------------------------------- */

typedef enum {
    EV_INIT,     /* declaration; rhs = initializer (null: none) */
    EV_ASSIGN,   /* v = rhs */
    EV_MEMBER,   /* v.<member> = rhs */
    EV_COMPOUND, /* v op= rhs */
    EV_INCDEC,   /* ++v, v--, ... (delta) */
    EV_CLOBBER,  /* anything else that may change v (member >= 0: only that member) */
} ev_kind;

typedef struct {
    ev_kind kind;
    unsigned offset;
    bool straight; /* a statement of its own in a block enclosing the site */
    bool in_loop;  /* inside a loop that encloses the site */
    int member;    /* EV_MEMBER / member clobber: 0..2, else -1 */
    int delta;
    enum CXBinaryOperatorKind op;
    CXCursor rhs;
} var_event;

typedef struct {
    const hms_fold_site *site;
    CXCursor var;
    CXCursor stack[256];
    size_t depth;
    var_event *ev;
    size_t nev, cap;
} event_scan;

static bool is_loop(enum CXCursorKind k)
{
    return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
           k == CXCursor_CXXForRangeStmt;
}

static bool in_site_chain(const hms_fold_site *s, CXCursor c)
{
    for (size_t i = 0; i < s->nchain; i++)
        if (same_node(s->chain[i], c))
            return true;
    return false;
}

static bool refers_to(CXCursor e, CXCursor var)
{
    e = hms_cursor_strip(e);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           same_node(clang_getCursorReferenced(e), var);
}

/* -1: not a member of var; 0..2: var.x/.y/.z; 3: another member of var. */
static int member_of(CXCursor e, CXCursor var)
{
    e = hms_cursor_strip(e);
    if (clang_getCursorKind(e) != CXCursor_MemberRefExpr || hms_cursor_nchildren(e) != 1 ||
        !refers_to(hms_cursor_child(e, 0), var))
        return -1;
    char *m = hms_cursor_spelling(e);
    int r = !strcmp(m, "x") ? 0 : !strcmp(m, "y") ? 1 : !strcmp(m, "z") ? 2 : 3;
    free(m);
    return r;
}

static void add_event(event_scan *sc, CXCursor node, ev_kind kind, int member, CXCursor rhs)
{
    if (sc->nev == sc->cap) {
        size_t cap = sc->cap ? sc->cap * 2 : 8;
        var_event *nv = realloc(sc->ev, cap * sizeof *nv);
        if (!nv)
            return;
        sc->ev = nv;
        sc->cap = cap;
    }
    var_event *e = &sc->ev[sc->nev++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->member = member;
    e->rhs = rhs;
    e->offset = start_offset(node);
    /* Straight-line: the nearest enclosing block is one of the site's, with
     * only implicit wrappers (or the DeclStmt) in between. */
    for (size_t i = sc->depth; i-- > 0;) {
        enum CXCursorKind k = clang_getCursorKind(sc->stack[i]);
        if (k == CXCursor_CompoundStmt) {
            e->straight = in_site_chain(sc->site, sc->stack[i]);
            break;
        }
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_DeclStmt)
            break;
    }
    for (size_t i = 0; i < sc->depth; i++)
        if (is_loop(clang_getCursorKind(sc->stack[i])) && in_site_chain(sc->site, sc->stack[i]) &&
            !contains(sc->stack[i], sc->var))
            e->in_loop = true;
}

/* A kernel launch: its second child configures the launch. */
static bool is_launch(CXCursor call)
{
    if (hms_cursor_nchildren(call) < 2)
        return false;
    CXCursor cfg = hms_cursor_child(call, 1);
    if (clang_getCursorKind(cfg) != CXCursor_CallExpr)
        return false;
    char *name = hms_cursor_spelling(cfg);
    bool r = strstr(name, "ConfigureCall") || strstr(name, "PushCallConfiguration");
    free(name);
    return r;
}

/* A call argument bound to a non-const reference may be written by the
 * callee. Kernels take every argument by value, even where the callee is
 * not resolved yet (a launch in a template body). */
static void scan_call_args(event_scan *sc, CXCursor call)
{
    if (is_launch(call))
        return;
    int nargs = clang_Cursor_getNumArguments(call);
    CXCursor callee = clang_getCursorReferenced(call);
    int nparams = clang_Cursor_isNull(callee) ? -1 : clang_Cursor_getNumArguments(callee);
    int shift = nparams >= 0 && nargs == nparams + 1 ? 1 : 0; /* member operator: object first */
    for (int i = 0; i < nargs; i++) {
        CXCursor a = clang_Cursor_getArgument(call, (unsigned)i);
        while (clang_getCursorKind(a) == CXCursor_ParenExpr)
            a = hms_cursor_child(a, 0);
        bool direct = clang_getCursorKind(a) == CXCursor_DeclRefExpr &&
                      same_node(clang_getCursorReferenced(a), sc->var);
        int member = member_of(a, sc->var);
        bool member_direct = member >= 0 && clang_getCursorKind(a) == CXCursor_MemberRefExpr;
        if (!direct && !member_direct)
            continue; /* by value: an implicit conversion wraps the reference */
        bool safe = false;
        if (nparams >= 0 && i - shift >= 0 && i - shift < nparams) {
            CXType pt =
                clang_getCursorType(clang_Cursor_getArgument(callee, (unsigned)(i - shift)));
            if (pt.kind != CXType_LValueReference && pt.kind != CXType_RValueReference)
                safe = true;
            else if (clang_isConstQualifiedType(clang_getPointeeType(pt)))
                safe = true;
        }
        if (!safe)
            add_event(sc, call, EV_CLOBBER, direct ? -1 : member, clang_getNullCursor());
    }
}

/* Clears *var when a DeclRefExpr to it occurs below the visited cursor. */
static enum CXChildVisitResult names_var(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    CXCursor *var = d;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        same_node(clang_getCursorReferenced(c), *var)) {
        *var = clang_getNullCursor();
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static void scan_node(event_scan *sc, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_VarDecl && same_node(c, sc->var)) {
        add_event(sc, c, EV_INIT, -1, var_init(c));
    } else if (k == CXCursor_BinaryOperator &&
               clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign) {
        CXCursor lhs = hms_cursor_child(c, 0), rhs = hms_cursor_child(c, 1);
        int m = member_of(lhs, sc->var);
        if (refers_to(lhs, sc->var))
            add_event(sc, c, EV_ASSIGN, -1, rhs);
        else if (m >= 0)
            add_event(sc, c, m < 3 ? EV_MEMBER : EV_CLOBBER, m < 3 ? m : -1, rhs);
    } else if (k == CXCursor_CompoundAssignOperator) {
        CXCursor lhs = hms_cursor_child(c, 0);
        int m = member_of(lhs, sc->var);
        if (refers_to(lhs, sc->var)) {
            add_event(sc, c, EV_COMPOUND, -1, hms_cursor_child(c, 1));
            sc->ev[sc->nev - 1].op = compound_base(clang_getCursorBinaryOperatorKind(c));
        } else if (m >= 0) {
            add_event(sc, c, EV_CLOBBER, m < 3 ? m : -1, clang_getNullCursor());
        }
    } else if (k == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
        CXCursor a = hms_cursor_child(c, 0);
        int m = member_of(a, sc->var);
        bool whole = refers_to(a, sc->var);
        int delta = op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostInc   ? 1
                    : op == CXUnaryOperator_PreDec || op == CXUnaryOperator_PostDec ? -1
                                                                                    : 0;
        if ((whole || m >= 0) && (delta != 0 || op == CXUnaryOperator_AddrOf)) {
            if (whole && delta != 0) {
                add_event(sc, c, EV_INCDEC, -1, clang_getNullCursor());
                sc->ev[sc->nev - 1].delta = delta;
            } else {
                add_event(sc, c, EV_CLOBBER, whole || m > 2 ? -1 : m, clang_getNullCursor());
            }
        }
    } else if (k == CXCursor_CallExpr) {
        char *name = hms_cursor_spelling(c);
        bool assign_op = !strcmp(name, "operator=") && clang_Cursor_getNumArguments(c) == 2;
        free(name);
        if (assign_op && refers_to(clang_Cursor_getArgument(c, 0), sc->var))
            add_event(sc, c, EV_ASSIGN, -1, clang_Cursor_getArgument(c, 1));
        else
            scan_call_args(sc, c);
    } else if (k == CXCursor_LambdaExpr) {
        /* A lambda naming v may capture it by reference and run at any
         * time: give up on v whenever one exists. */
        CXCursor probe = sc->var;
        clang_visitChildren(c, names_var, &probe);
        if (clang_Cursor_isNull(probe)) {
            add_event(sc, c, EV_CLOBBER, -1, clang_getNullCursor());
            sc->ev[sc->nev - 1].in_loop = true;
        }
    }
}

static enum CXChildVisitResult scan_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    event_scan *sc = d;
    scan_node(sc, c);
    if (sc->depth < sizeof sc->stack / sizeof *sc->stack) {
        sc->stack[sc->depth++] = c;
        clang_visitChildren(c, scan_visit, sc);
        sc->depth--;
    }
    return CXChildVisit_Continue;
}

static void scan_events(const hms_fold_site *s, CXCursor var, event_scan *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->site = s;
    sc->var = var;
    clang_visitChildren(s->function, scan_visit, sc);
}

static bool clobbers(const var_event *e, int member)
{
    if (e->kind == EV_CLOBBER || !e->straight)
        return e->member < 0 || member < 0 || e->member == member;
    return false;
}

static bool defines(const var_event *e, int member)
{
    if (e->kind == EV_INIT || e->kind == EV_ASSIGN)
        return true;
    if (e->kind == EV_MEMBER)
        return member == e->member;
    return member < 0 && (e->kind == EV_COMPOUND || e->kind == EV_INCDEC);
}

/* The value of local variable v (member < 0) or of its component `member`
 * just before byte offset pos. */
static bool local_value(const hms_fold_site *s, unsigned pos, CXCursor v, int member, num *out,
                        char **text, int depth)
{
    if (clang_Cursor_isNull(s->function) || depth > MAX_DEPTH || !spend(FOLLOW_COST))
        return false;
    event_scan sc;
    scan_events(s, v, &sc);
    bool ok = false;
    long last = -1;

    for (size_t i = 0; i < sc.nev; i++) {
        const var_event *e = &sc.ev[i];
        if (e->in_loop && (e->member < 0 || member < 0 || e->member == member))
            goto done;
        if (e->offset < pos && e->straight && e->kind != EV_CLOBBER && defines(e, member))
            last = (long)i;
    }
    if (last < 0) {
        /* A bound parameter holds its argument until something writes it. */
        const hms_fold_binding *b = binding_of(s, v, member);
        if (!b)
            goto done;
        for (size_t i = 0; i < sc.nev; i++)
            if (sc.ev[i].offset < pos &&
                (clobbers(&sc.ev[i], member) || defines(&sc.ev[i], member)))
                goto done;
        from_binding(b, out);
        if (member >= 0) /* a dim3 component: unsigned int */
            out->is_unsigned = true, ok = !out->is_float;
        else
            ok = convert(out, clang_getCursorType(v));
        if (ok && text)
            *text = hms_cursor_spelling(v);
        goto done;
    }
    for (size_t i = (size_t)last + 1; i < sc.nev; i++)
        if (sc.ev[i].offset < pos && clobbers(&sc.ev[i], member))
            goto done;
    const var_event *e = &sc.ev[last];
    if (e->kind == EV_INIT || e->kind == EV_ASSIGN) {
        if (clang_Cursor_isNull(e->rhs))
            goto done;
        if (member < 0) {
            ok = fold_num(s, e->offset, e->rhs, out, depth + 1);
            if (ok && text)
                *text = hms_cursor_text(s->tu, e->rhs);
        } else {
            num v3[3];
            bool ok3[3];
            char *t3[3] = {NULL, NULL, NULL};
            fold_dim3_at(s, e->offset, e->rhs, v3, ok3, t3, depth + 1);
            ok = ok3[member];
            *out = v3[member];
            for (int i = 0; i < 3; i++) {
                if (i == member && text)
                    *text = t3[i];
                else
                    free(t3[i]);
            }
        }
    } else if (e->kind == EV_MEMBER) {
        ok = fold_num(s, e->offset, e->rhs, out, depth + 1);
        if (ok && text)
            *text = hms_cursor_text(s->tu, e->rhs);
    } else {
        num prev, r;
        if (local_value(s, e->offset, v, member, &prev, NULL, depth + 1)) {
            if (e->kind == EV_INCDEC) {
                num one = {false, false, e->delta, 0.0};
                ok = binary(CXBinaryOperator_Add, &prev, &one, out);
            } else if (fold_num(s, e->offset, e->rhs, &r, depth + 1)) {
                ok = binary(e->op, &prev, &r, out);
            }
        }
        if (ok && text)
            *text = hms_cursor_spelling(v);
    }
    if (ok && member < 0)
        ok = convert(out, clang_getCursorType(v));
done:
    free(sc.ev);
    return ok;
}

/* ---- switch labels ----------------------------------------------------------- */

/* The statements directly under c. */
typedef struct {
    CXCursor *v;
    size_t n;
} cursor_vec;

static enum CXChildVisitResult collect_all(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    cursor_vec *cv = d;
    CXCursor *nv = realloc(cv->v, (cv->n + 1) * sizeof *nv);
    if (!nv)
        return CXChildVisit_Break;
    cv->v = nv;
    cv->v[cv->n++] = c;
    return CXChildVisit_Continue;
}

static cursor_vec children_of(CXCursor c)
{
    cursor_vec cv = {NULL, 0};
    clang_visitChildren(c, collect_all, &cv);
    return cv;
}

static bool is_jump(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt || k == CXCursor_ContinueStmt ||
           k == CXCursor_GotoStmt;
}

/* The statement a case label labels (its last child). */
static CXCursor case_body(CXCursor c)
{
    unsigned n = hms_cursor_nchildren(c);
    return n ? hms_cursor_child(c, n - 1) : clang_getNullCursor();
}

static bool site_in(CXCursor c, unsigned pos)
{
    unsigned b, e;
    CXFile f;
    return hms_cursor_offsets(c, &f, &b, &e) && pos >= b && pos < e;
}

/* Inside `switch (v) { ... case V: ... site ... }` with one label reaching
 * the site (the case is its only label and the statement before it cannot
 * fall through), v is V there unless the switch body writes v first. */
static bool switch_value(const hms_fold_site *s, unsigned pos, CXCursor v, num *out)
{
    /* The label is the site's; a value wanted earlier (a local initialised
     * before the switch) is the same when nothing writes v in between. */
    unsigned site_at = s->offset, from_pos = pos < site_at ? pos : site_at;
    for (size_t i = s->nchain; i-- > 0;) {
        CXCursor sw = s->chain[i];
        if (clang_getCursorKind(sw) != CXCursor_SwitchStmt || !site_in(sw, site_at))
            continue;
        cursor_vec parts = children_of(sw);
        bool ok = false;
        if (parts.n >= 2 && refers_to(parts.v[0], v) &&
            clang_getCursorKind(parts.v[parts.n - 1]) == CXCursor_CompoundStmt) {
            cursor_vec st = children_of(parts.v[parts.n - 1]);
            size_t at = st.n;
            for (size_t j = 0; j < st.n; j++)
                if (site_in(st.v[j], site_at))
                    at = j;
            size_t label = at;
            while (label < st.n && label > 0 &&
                   clang_getCursorKind(st.v[label]) != CXCursor_CaseStmt &&
                   clang_getCursorKind(st.v[label]) != CXCursor_DefaultStmt)
                label--;
            if (label < st.n && clang_getCursorKind(st.v[label]) == CXCursor_CaseStmt) {
                CXCursor lab = st.v[label];
                bool single = clang_getCursorKind(case_body(lab)) != CXCursor_CaseStmt &&
                              clang_getCursorKind(case_body(lab)) != CXCursor_DefaultStmt;
                bool no_fall = label == 0;
                if (label > 0) {
                    CXCursor prev = st.v[label - 1];
                    while (clang_getCursorKind(prev) == CXCursor_CaseStmt ||
                           clang_getCursorKind(prev) == CXCursor_DefaultStmt)
                        prev = case_body(prev);
                    no_fall = is_jump(prev);
                }
                expr_children val = expr_kids(lab);
                if (single && no_fall && val.n >= 1 && eval_leaf(val.v[0], out)) {
                    event_scan sc;
                    scan_events(s, v, &sc);
                    unsigned from = start_offset(sw) < from_pos ? start_offset(sw) : from_pos;
                    ok = true;
                    for (size_t e = 0; e < sc.nev; e++)
                        if (sc.ev[e].offset >= from && sc.ev[e].offset < site_at &&
                            sc.ev[e].kind != EV_INIT)
                            ok = false;
                    free(sc.ev);
                }
            }
            free(st.v);
        }
        free(parts.v);
        return ok && convert(out, clang_getCursorType(v));
    }
    return false;
}

/* The value of a variable named at the site: constants through their
 * initializer, locals through local_value. */
static bool var_value(const hms_fold_site *s, unsigned pos, CXCursor v, int member, num *out,
                      char **text, int depth)
{
    enum CXCursorKind k = clang_getCursorKind(v);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
        return false;
    const hms_fold_binding *bound =
        member < 0 && k == CXCursor_VarDecl ? binding_of(s, v, -1) : NULL;
    if (bound) { /* a loop variable at one of its iterations */
        from_binding(bound, out);
        if (text)
            *text = hms_cursor_spelling(v);
        return convert(out, clang_getCursorType(v));
    }
    if (member < 0 && switch_value(s, pos, v, out)) {
        if (text)
            *text = hms_cursor_spelling(v);
        return true;
    }
    CXType t = clang_getCursorType(v);
    if (clang_isConstQualifiedType(t) && k == CXCursor_VarDecl) {
        CXCursor init = var_init(v);
        if (clang_Cursor_isNull(init))
            return false;
        if (member >= 0) {
            num v3[3];
            bool ok3[3];
            char *t3[3] = {NULL, NULL, NULL};
            fold_dim3_at(s, start_offset(v), init, v3, ok3, t3, depth + 1);
            *out = v3[member];
            for (int i = 0; i < 3; i++) {
                if (i == member && text)
                    *text = t3[i];
                else
                    free(t3[i]);
            }
            return ok3[member];
        }
        if (!eval_leaf(v, out) && !fold_num(s, start_offset(v), init, out, depth + 1))
            return false;
        if (text)
            *text = hms_cursor_text(s->tu, init);
        return convert(out, t);
    }
    if (k == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(v) == 1)
        return false; /* a mutable global or static may be set anywhere */
    return local_value(s, pos, v, member, out, text, depth);
}

/* ---- helper calls and constant arrays --------------------------------------- */

/* A call of a helper whose body is `return <expr>;` (ceil_div and the like):
 * that expression with the helper's parameters bound to the folded arguments. */
static bool fold_inline_call(const hms_fold_site *s, unsigned pos, CXCursor e, num *out, int depth)
{
    CXCursor fn = clang_getCursorReferenced(e);
    if (clang_Cursor_isNull(fn) || depth > MAX_DEPTH / 2)
        return false;
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    CXCursor def = clang_getCursorDefinition(clang_Cursor_isNull(tmpl) ? fn : tmpl);
    if (clang_Cursor_isNull(def))
        def = clang_getCursorDefinition(fn);
    if (clang_Cursor_isNull(def) || hms_cursor_is_kernel(def))
        return false;
    cursor_vec parts = children_of(def);
    hms_fold_binding binds[16];
    size_t nparams = 0;
    CXCursor ret = clang_getNullCursor();
    bool ok = parts.n > 0 && clang_getCursorKind(parts.v[parts.n - 1]) == CXCursor_CompoundStmt;
    for (size_t i = 0; ok && i < parts.n; i++) {
        if (clang_getCursorKind(parts.v[i]) != CXCursor_ParmDecl)
            continue;
        if (nparams == sizeof binds / sizeof *binds ||
            (int)nparams >= clang_Cursor_getNumArguments(e)) {
            ok = false;
            break;
        }
        num a = {0};
        binds[nparams].var = parts.v[i];
        if (!fold_num(s, pos, clang_Cursor_getArgument(e, (unsigned)nparams), &a, depth + 1))
            binds[nparams].var = clang_getNullCursor(); /* unused, or the call does not fold */
        binds[nparams].is_float = a.is_float;
        binds[nparams].i = a.i;
        binds[nparams].d = a.d;
        binds[nparams].member = -1;
        nparams++;
    }
    if (ok) {
        cursor_vec body = children_of(parts.v[parts.n - 1]);
        if (body.n == 1 && clang_getCursorKind(body.v[0]) == CXCursor_ReturnStmt) {
            expr_children r = expr_kids(body.v[0]);
            if (r.n == 1)
                ret = r.v[0];
        }
        free(body.v);
    }
    if (!clang_Cursor_isNull(ret) && (int)nparams == clang_Cursor_getNumArguments(e)) {
        hms_fold_site in = {s->tu, def, NULL, 0, start_offset(ret), binds, nparams};
        ok = fold_num(&in, in.offset, ret, out, depth + 1);
    } else {
        ok = false;
    }
    free(parts.v);
    return ok;
}

typedef struct {
    CXCursor var;
    CXCursor stack[64];
    size_t depth;
    bool written;
} array_use_scan;

/* Is the reference at the top of the stack anything but a read of one element? */
static bool array_ref_writes(const array_use_scan *a)
{
    size_t i = a->depth; /* stack[i - 1] is the parent of the reference */
    while (i > 0 && (clang_getCursorKind(a->stack[i - 1]) == CXCursor_UnexposedExpr ||
                     clang_getCursorKind(a->stack[i - 1]) == CXCursor_ParenExpr))
        i--;
    if (i == 0)
        return true;
    CXCursor p = a->stack[i - 1];
    enum CXCursorKind k = clang_getCursorKind(p);
    if (k == CXCursor_UnaryExpr) /* sizeof */
        return false;
    if (k != CXCursor_ArraySubscriptExpr || i < 2)
        return true;
    CXCursor use = a->stack[i - 2];
    size_t j = i - 2;
    while (j > 0 && clang_getCursorKind(use) == CXCursor_ParenExpr)
        use = a->stack[--j];
    enum CXCursorKind u = clang_getCursorKind(use);
    if (u == CXCursor_CompoundAssignOperator)
        return true;
    if (u == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(use) == CXBinaryOperator_Assign)
        return same_node(hms_cursor_child(use, 0), a->stack[j + 1]) ||
               site_in(hms_cursor_child(use, 0), start_offset(p));
    if (u == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(use);
        return op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus &&
               op != CXUnaryOperator_Not && op != CXUnaryOperator_LNot;
    }
    if (u == CXCursor_CallExpr)
        return true; /* by reference, perhaps */
    return false;
}

static enum CXChildVisitResult array_use_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    array_use_scan *a = d;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        same_node(clang_getCursorReferenced(c), a->var) && array_ref_writes(a)) {
        a->written = true;
        return CXChildVisit_Break;
    }
    if (a->depth == sizeof a->stack / sizeof *a->stack) {
        a->written = true; /* too deep to tell */
        return CXChildVisit_Break;
    }
    a->stack[a->depth++] = c;
    clang_visitChildren(c, array_use_visit, a);
    a->depth--;
    return a->written ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* arr[i] for an array with a brace initializer that is const, or local and
 * only ever read element by element in its function. */
static bool fold_subscript(const hms_fold_site *s, unsigned pos, CXCursor e, num *out, int depth)
{
    CXCursor base = hms_cursor_strip(hms_cursor_child(e, 0));
    if (clang_getCursorKind(base) != CXCursor_DeclRefExpr)
        return false;
    CXCursor arr = clang_getCursorReferenced(base);
    CXType t = clang_getCursorType(arr);
    if (clang_getCursorKind(arr) != CXCursor_VarDecl || t.kind != CXType_ConstantArray)
        return false;
    CXCursor init = var_init(arr);
    if (clang_getCursorKind(init) != CXCursor_InitListExpr)
        return false;
    if (!clang_isConstQualifiedType(clang_getArrayElementType(t))) {
        if (clang_Cursor_hasVarDeclGlobalStorage(arr) == 1 || clang_Cursor_isNull(s->function))
            return false;
        array_use_scan a;
        memset(&a, 0, sizeof a);
        a.var = arr;
        clang_visitChildren(s->function, array_use_visit, &a);
        if (a.written)
            return false;
    }
    num idx;
    if (!fold_num(s, pos, hms_cursor_child(e, 1), &idx, depth + 1) || idx.is_float || idx.i < 0)
        return false;
    cursor_vec elems = children_of(init);
    bool ok = (size_t)idx.i < elems.n && fold_num(s, pos, elems.v[idx.i], out, depth + 1);
    free(elems.v);
    return ok;
}

/* ---- expressions ------------------------------------------------------------- */

static bool fold_call(const hms_fold_site *s, unsigned pos, CXCursor e, num *out, int depth)
{
    char *name = hms_cursor_spelling(e);
    int nargs = clang_Cursor_getNumArguments(e);
    bool ok = false;
    num a, b;
    if ((!strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "fminf") ||
         !strcmp(name, "fmaxf") || !strcmp(name, "fmin") || !strcmp(name, "fmax")) &&
        nargs == 2) {
        if (fold_num(s, pos, clang_Cursor_getArgument(e, 0), &a, depth + 1) &&
            fold_num(s, pos, clang_Cursor_getArgument(e, 1), &b, depth + 1)) {
            num lt;
            if (binary(CXBinaryOperator_LT, &a, &b, &lt)) {
                bool want_min = strstr(name, "min") != NULL;
                *out = (lt.i != 0) == want_min ? a : b;
                ok = true;
            }
        }
    } else if ((!strcmp(name, "ceil") || !strcmp(name, "ceilf") || !strcmp(name, "floor") ||
                !strcmp(name, "floorf")) &&
               nargs == 1) {
        if (fold_num(s, pos, clang_Cursor_getArgument(e, 0), &a, depth + 1)) {
            double x;
            as_double(&a, &x);
            out->is_float = true;
            out->is_unsigned = false;
            out->d = name[0] == 'c' ? ceil(x) : floor(x);
            ok = true;
        }
    }
    free(name);
    if (!ok)
        ok = eval_leaf(e, out); /* constexpr functions */
    if (!ok)
        ok = fold_inline_call(s, pos, e, out, depth);
    return ok && convert(out, clang_getCursorType(e));
}

static bool fold_num(const hms_fold_site *s, unsigned pos, CXCursor e, num *out, int depth)
{
    if (depth > MAX_DEPTH || clang_Cursor_isNull(e) || !spend(1))
        return false;
    CXType type = clang_getCursorType(e);
    switch (clang_getCursorKind(e)) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CXXBoolLiteralExpr:
    case CXCursor_UnaryExpr: /* sizeof, alignof */
        return eval_leaf(e, out) && convert(out, type);
    case CXCursor_ParenExpr:
        return fold_num(s, pos, hms_cursor_child(e, 0), out, depth + 1);
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXConstCastExpr: {
        expr_children ec = expr_kids(e);
        if (ec.n == 0 || ec.n > 8)
            return eval_leaf(e, out) && convert(out, type);
        return fold_num(s, pos, ec.v[ec.n - 1], out, depth + 1) && convert(out, type);
    }
    case CXCursor_BinaryOperator: {
        num a, b;
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
        if (op == CXBinaryOperator_Assign)
            return false;
        if (!fold_num(s, pos, hms_cursor_child(e, 0), &a, depth + 1))
            return false;
        /* Short-circuit as C does, so `n > 0 && 100 / n` folds for n == 0. */
        if ((op == CXBinaryOperator_LAnd && !truth(&a)) ||
            (op == CXBinaryOperator_LOr && truth(&a))) {
            memset(out, 0, sizeof *out);
            out->i = op == CXBinaryOperator_LOr;
            return convert(out, type);
        }
        return fold_num(s, pos, hms_cursor_child(e, 1), &b, depth + 1) && binary(op, &a, &b, out) &&
               convert(out, type);
    }
    case CXCursor_UnaryOperator: {
        num a;
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
        if (!fold_num(s, pos, hms_cursor_child(e, 0), &a, depth + 1))
            return false;
        *out = a;
        switch (op) {
        case CXUnaryOperator_Plus:
            break;
        case CXUnaryOperator_Minus:
            if (a.is_float)
                out->d = -a.d;
            else if (a.is_unsigned)
                out->i = (int64_t)(0 - (uint64_t)a.i);
            else if (a.i == INT64_MIN)
                return false;
            else
                out->i = -a.i;
            break;
        case CXUnaryOperator_Not:
            if (a.is_float)
                return false;
            out->i = ~a.i;
            break;
        case CXUnaryOperator_LNot:
            out->is_float = out->is_unsigned = false;
            out->i = !truth(&a);
            break;
        default:
            return false;
        }
        return convert(out, type);
    }
    case CXCursor_ConditionalOperator: {
        expr_children ec = expr_kids(e);
        num c;
        if (ec.n != 3 || !fold_num(s, pos, ec.v[0], &c, depth + 1))
            return false;
        return fold_num(s, pos, truth(&c) ? ec.v[1] : ec.v[2], out, depth + 1) &&
               convert(out, type);
    }
    case CXCursor_DeclRefExpr: {
        CXCursor ref = clang_getCursorReferenced(e);
        if (clang_getCursorKind(ref) == CXCursor_EnumConstantDecl) {
            memset(out, 0, sizeof *out);
            out->i = clang_getEnumConstantDeclValue(ref);
            return convert(out, type);
        }
        return var_value(s, pos, ref, -1, out, NULL, depth + 1) && convert(out, type);
    }
    case CXCursor_MemberRefExpr: {
        char *m = hms_cursor_spelling(e);
        int idx = !strcmp(m, "x") ? 0 : !strcmp(m, "y") ? 1 : !strcmp(m, "z") ? 2 : -1;
        free(m);
        CXCursor base = hms_cursor_child(e, 0);
        if (idx < 0 || hms_cursor_nchildren(e) != 1 || !is_dim3_type(clang_getCursorType(base)))
            return false;
        num v3[3];
        bool ok3[3];
        char *t3[3] = {NULL, NULL, NULL};
        fold_dim3_at(s, pos, base, v3, ok3, t3, depth + 1);
        for (int i = 0; i < 3; i++)
            free(t3[i]);
        *out = v3[idx];
        return ok3[idx] && convert(out, type);
    }
    case CXCursor_CallExpr:
        return fold_call(s, pos, e, out, depth);
    case CXCursor_ArraySubscriptExpr:
        return fold_subscript(s, pos, e, out, depth) && convert(out, type);
    default:
        return false;
    }
}

/* ---- dim3 ------------------------------------------------------------------ */

static char *component_text(const char *whole, int i)
{
    static const char *const names[3] = {"x", "y", "z"};
    bool ident = *whole != '\0';
    for (const char *p = whole; *p; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9')))
            ident = false;
    char *r = NULL;
    if (asprintf(&r, ident ? "%s.%s" : "(%s).%s", whole, names[i]) < 0)
        r = NULL;
    return r;
}

static void set_one(num *v, bool *ok, char **text)
{
    memset(v, 0, sizeof *v);
    v->i = 1;
    v->is_unsigned = true;
    *ok = true;
    *text = strdup("1");
}

static bool fold_dim3_at(const hms_fold_site *s, unsigned pos, CXCursor e, num v[3], bool ok[3],
                         char *text[3], int depth)
{
    for (int i = 0; i < 3; i++) {
        memset(&v[i], 0, sizeof v[i]);
        ok[i] = false;
        text[i] = NULL;
    }
    if (depth > MAX_DEPTH || clang_Cursor_isNull(e))
        goto fill_text;
    CXType type = clang_getCursorType(e);
    unsigned bits;
    bool uns;
    int cls = type_class(type, &bits, &uns);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (cls != 0) {
        /* An integer converted to dim3: (x, 1, 1). */
        ok[0] = fold_num(s, pos, e, &v[0], depth + 1) && !v[0].is_float;
        text[0] = hms_cursor_text(s->tu, e);
        set_one(&v[1], &ok[1], &text[1]);
        set_one(&v[2], &ok[2], &text[2]);
    } else if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr ||
               k == CXCursor_CStyleCastExpr || k == CXCursor_CXXFunctionalCastExpr ||
               k == CXCursor_CXXStaticCastExpr) {
        expr_children ec = expr_kids(e);
        if (ec.n >= 1 && ec.n <= 8)
            return fold_dim3_at(s, pos, ec.v[ec.n - 1], v, ok, text, depth + 1);
    } else if (k == CXCursor_CallExpr || k == CXCursor_InitListExpr) {
        CXCursor ref = clang_getCursorReferenced(e);
        bool ctor = k == CXCursor_InitListExpr || clang_Cursor_isNull(ref) ||
                    clang_getCursorKind(ref) == CXCursor_Constructor;
        expr_children all = expr_kids(e), ec = {.n = 0};
        /* Arguments written here; defaulted ones (dim3's = 1) are left out. */
        for (unsigned i = 0; i < all.n && i < 8; i++)
            if (hms_cursor_within(all.v[i], e))
                ec.v[ec.n++] = all.v[i];
        if (ctor && ec.n == 1 && cls == 0 && is_dim3_type(clang_getCursorType(ec.v[0])))
            return fold_dim3_at(s, pos, ec.v[0], v, ok, text, depth + 1);
        if (ctor && ec.n <= 3) {
            for (unsigned i = 0; i < 3; i++) {
                if (i < ec.n) {
                    ok[i] = fold_num(s, pos, ec.v[i], &v[i], depth + 1) && !v[i].is_float;
                    text[i] = hms_cursor_text(s->tu, ec.v[i]);
                } else {
                    set_one(&v[i], &ok[i], &text[i]);
                }
            }
        }
    } else if (k == CXCursor_DeclRefExpr) {
        CXCursor ref = clang_getCursorReferenced(e);
        for (int i = 0; i < 3; i++)
            ok[i] = var_value(s, pos, ref, i, &v[i], &text[i], depth + 1);
    }
fill_text:
    for (int i = 0; i < 3; i++) {
        if (!ok[i])
            memset(&v[i], 0, sizeof v[i]);
        if (!text[i]) {
            char *whole = hms_cursor_text(s->tu, e);
            text[i] = component_text(whole ? whole : "", i);
            free(whole);
        }
    }
    return ok[0] && ok[1] && ok[2];
}

/* ---- public ------------------------------------------------------------------ */

bool hms_fold_int(const hms_fold_site *site, CXCursor expr, int64_t *out)
{
    budget = FOLD_BUDGET;
    num v;
    if (!fold_num(site, site->offset, expr, &v, 0))
        return false;
    if (v.is_float) {
        if (!isfinite(v.d) || v.d != floor(v.d) || fabs(v.d) > 9e15)
            return false;
        v.i = (int64_t)v.d;
    }
    *out = v.i;
    return true;
}

bool hms_fold_dim3(const hms_fold_site *site, CXCursor expr, hms_folded_arg out[3])
{
    budget = FOLD_BUDGET;
    num v[3];
    bool ok[3];
    char *text[3];
    bool all = fold_dim3_at(site, site->offset, expr, v, ok, text, 0);
    for (int i = 0; i < 3; i++) {
        out[i].text = text[i];
        out[i].folded = ok[i];
        out[i].value = ok[i] ? v[i].i : 0;
    }
    return all;
}

bool hms_is_dim3_type(CXType t)
{
    return is_dim3_type(t);
}

bool hms_fold_value(const hms_fold_site *site, CXCursor expr, hms_fold_binding *out)
{
    out->member = -1;
    budget = FOLD_BUDGET;
    num v;
    if (!fold_num(site, site->offset, expr, &v, 0))
        return false;
    out->is_float = v.is_float;
    out->i = v.i;
    out->d = v.d;
    return true;
}

/* j in `j`, `(j)` or an implicit conversion of j. */
static bool names(CXCursor e, CXCursor var)
{
    return refers_to(e, var);
}

size_t hms_fold_loop_values(const hms_fold_site *site, CXCursor loop, CXCursor *var,
                            int64_t *values, size_t max)
{
    if (clang_getCursorKind(loop) != CXCursor_ForStmt)
        return 0;
    cursor_vec parts = children_of(loop);
    size_t n = 0;
    if (parts.n != 4)
        goto out;
    CXCursor init = parts.v[0], cond = parts.v[1], inc = parts.v[2];
    CXCursor j = clang_getNullCursor(), first = clang_getNullCursor();
    if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
        cursor_vec d = children_of(init);
        if (d.n == 1 && clang_getCursorKind(d.v[0]) == CXCursor_VarDecl)
            j = d.v[0], first = var_init(d.v[0]);
        free(d.v);
    } else if (clang_getCursorKind(init) == CXCursor_BinaryOperator &&
               clang_getCursorBinaryOperatorKind(init) == CXBinaryOperator_Assign) {
        CXCursor lhs = hms_cursor_strip(hms_cursor_child(init, 0));
        if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr)
            j = clang_getCursorReferenced(lhs), first = hms_cursor_child(init, 1);
    }
    if (clang_Cursor_isNull(j) || clang_Cursor_isNull(first) ||
        clang_getCursorKind(cond) != CXCursor_BinaryOperator)
        goto out;
    enum CXBinaryOperatorKind cop = clang_getCursorBinaryOperatorKind(cond);
    if (cop < CXBinaryOperator_LT || cop > CXBinaryOperator_NE || cop == CXBinaryOperator_Cmp ||
        !names(hms_cursor_child(cond, 0), j))
        goto out;
    /* the step: ++j, j++, --j, j--, or j op= c */
    enum CXBinaryOperatorKind sop = CXBinaryOperator_Add;
    num step = {0};
    CXCursor step_expr = clang_getNullCursor();
    if (clang_getCursorKind(inc) == CXCursor_UnaryOperator && names(hms_cursor_child(inc, 0), j)) {
        enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(inc);
        if (u == CXUnaryOperator_PreInc || u == CXUnaryOperator_PostInc)
            step.i = 1;
        else if (u == CXUnaryOperator_PreDec || u == CXUnaryOperator_PostDec)
            step.i = -1;
        else
            goto out;
    } else if (clang_getCursorKind(inc) == CXCursor_CompoundAssignOperator &&
               names(hms_cursor_child(inc, 0), j)) {
        sop = compound_base(clang_getCursorBinaryOperatorKind(inc));
        if (sop != CXBinaryOperator_Add && sop != CXBinaryOperator_Sub &&
            sop != CXBinaryOperator_Mul && sop != CXBinaryOperator_Shl &&
            sop != CXBinaryOperator_Shr && sop != CXBinaryOperator_Div)
            goto out;
        step_expr = hms_cursor_child(inc, 1);
    } else {
        goto out;
    }
    budget = FOLD_BUDGET;
    unsigned at = start_offset(loop);
    num v, bound;
    if (!fold_num(site, at, first, &v, 0) ||
        !fold_num(site, at, hms_cursor_child(cond, 1), &bound, 0) ||
        (!clang_Cursor_isNull(step_expr) && !fold_num(site, at, step_expr, &step, 0)) ||
        v.is_float || bound.is_float || step.is_float || !convert(&v, clang_getCursorType(j)))
        goto out;
    /* The body must leave j alone: its only writes are the init and the step. */
    event_scan sc;
    scan_events(site, j, &sc);
    unsigned init_at = start_offset(init), inc_at = start_offset(inc);
    bool clean = true;
    for (size_t i = 0; i < sc.nev; i++)
        if (sc.ev[i].offset != init_at && sc.ev[i].offset != inc_at &&
            sc.ev[i].offset != start_offset(j))
            clean = false;
    free(sc.ev);
    if (!clean)
        goto out;
    for (;;) {
        num go;
        if (!binary(cop, &v, &bound, &go))
            break;
        if (!go.i)
            break;
        if (n == max) {
            n = 0; /* too many iterations to enumerate */
            break;
        }
        values[n++] = v.i;
        num next;
        if (!binary(sop, &v, &step, &next) || !convert(&next, clang_getCursorType(j)) ||
            next.i == v.i) {
            n = 0;
            break;
        }
        v = next;
    }
    *var = j;
out:
    free(parts.v);
    return n;
}

/* Does cond, folded above statement chain[i], rule out the branch of chain[i]
 * (an if or a switch) that leads to the site? */
static bool branch_excluded(const hms_fold_site *s, size_t i, unsigned pos)
{
    CXCursor st = s->chain[i];
    enum CXCursorKind k = clang_getCursorKind(st);
    if (k != CXCursor_IfStmt && k != CXCursor_SwitchStmt)
        return false;
    cursor_vec parts = children_of(st);
    hms_fold_site above = *s;
    above.nchain = i;
    unsigned at = start_offset(st);
    bool excluded = false;
    num c;
    budget = FOLD_BUDGET;
    if (k == CXCursor_IfStmt && (parts.n == 2 || parts.n == 3) && !site_in(parts.v[0], pos) &&
        fold_num(&above, at, parts.v[0], &c, 0)) {
        bool in_then = site_in(parts.v[1], pos);
        bool in_else = parts.n == 3 && site_in(parts.v[2], pos);
        excluded = (in_then && !truth(&c)) || (in_else && truth(&c));
    } else if (k == CXCursor_SwitchStmt && parts.n >= 2 &&
               fold_num(&above, at, parts.v[0], &c, 0)) {
        /* the site is under a single case label V: excluded when c != V */
        hms_fold_site inside = *s;
        CXCursor var = hms_cursor_strip(parts.v[0]);
        num v;
        if (clang_getCursorKind(var) == CXCursor_DeclRefExpr) {
            inside.nchain = i + 1;
            inside.binds = NULL;
            inside.nbinds = 0;
            if (switch_value(&inside, pos, clang_getCursorReferenced(var), &v))
                excluded = !c.is_float && !v.is_float && c.i != v.i;
        }
    }
    free(parts.v);
    return excluded;
}

bool hms_fold_site_reachable(const hms_fold_site *site)
{
    for (size_t i = site->nchain; i-- > 0;)
        if (branch_excluded(site, i, site->offset))
            return false;
    return true;
}
