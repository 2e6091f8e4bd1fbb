/* Name bindings of locals, parameters and pointers while a kernel is built:
 * substitution of known values, and materialization into IR variables where
 * a value must survive a loop back edge, a branch merge or a reassignment of
 * something it was computed from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/ir_build_impl.h"
#include "runtime/out_of_memory.h"

size_t bind_push(irb *b, CXCursor decl, bind_kind kind, const char *name)
{
    if (b->nbinds == b->capbinds) {
        size_t cap = b->capbinds ? b->capbinds * 2 : 64;
        binding *v = realloc(b->binds, cap * sizeof *v);
        if (!v)
            hms_out_of_memory();
        b->binds = v;
        b->capbinds = cap;
    }
    binding *x = &b->binds[b->nbinds];
    memset(x, 0, sizeof *x);
    x->decl = decl;
    x->parent = clang_getNullCursor();
    x->hash = clang_hashCursor(decl);
    x->kind = kind;
    x->var = -1;
    x->load_site = -1;
    x->ptr.array = -1;
    x->ptr.off = ir_const(b->k, 0);
    x->ptr.unit = 1;
    x->name = ir_strdup(b->k, name);
    return b->nbinds++;
}

size_t bind_find(irb *b, CXCursor decl)
{
    unsigned h = clang_hashCursor(decl);
    for (size_t i = b->nbinds; i-- > 0;) {
        binding *x = &b->binds[i];
        if (x->hash == h && clang_Cursor_isNull(x->parent) && clang_equalCursors(x->decl, decl)) {
            for (int guard = 0; b->binds[i].kind == BIND_VARREF && guard < 32; guard++)
                i = b->binds[i].target;
            return i;
        }
    }
    return SIZE_MAX;
}

bool sb_field_binding(irb *b, CXCursor member, size_t *out)
{
    CXCursor field = clang_getCursorReferenced(member);
    if (clang_Cursor_isNull(field) || clang_getCursorKind(field) != CXCursor_FieldDecl)
        return false;
    cursor_list l;
    irb_children(member, &l);
    CXCursor base = l.n == 1 ? hms_cursor_strip(l.v[0]) : clang_getNullCursor();
    irb_list_free(&l);
    if (clang_Cursor_isNull(base) || clang_getCursorKind(base) != CXCursor_DeclRefExpr)
        return false;
    CXCursor parent = clang_getCursorReferenced(base);
    unsigned h = clang_hashCursor(field);
    for (size_t i = b->nbinds; i-- > 0;) {
        binding *x = &b->binds[i];
        if (x->hash == h && !clang_Cursor_isNull(x->parent) && clang_equalCursors(x->decl, field) &&
            clang_equalCursors(x->parent, parent)) {
            *out = i;
            return true;
        }
    }
    return false;
}

void bind_pop_to(irb *b, size_t n)
{
    if (n < b->nbinds)
        b->nbinds = n;
}

static void emit_assign(irb *b, int var, ir_expr *value, ir_loc at)
{
    ir_stmt *s = ir_stmt_new(b->k, IR_S_ASSIGN, at);
    s->var = var;
    s->value = value;
    sb_append(b, s);
}

static int new_var(irb *b, const char *name, ir_loc at)
{
    ir_var v = {.name = ir_strdup(b->k, name), .kind = IR_VAR_LOCAL, .loc = at};
    return ir_add_var(b->k, &v);
}

void bind_materialize(irb *b, size_t i, ir_loc at)
{
    binding *x = &b->binds[i];
    if (x->kind == BIND_VAR) {
        if (x->var < 0) {
            x->var = new_var(b, x->name, at);
            if (x->subst)
                emit_assign(b, x->var, x->subst, at);
        }
    } else if (x->kind == BIND_PTR) {
        if (x->var < 0) {
            char n[160];
            snprintf(n, sizeof n, "%s.off", x->name);
            x->var = new_var(b, n, at);
            emit_assign(b, x->var, x->ptr.off, at);
        }
    }
}

/* Reads binding i through its variable from now on. */
static void read_var(irb *b, size_t i)
{
    binding *x = &b->binds[i];
    if (x->kind == BIND_VAR && x->var >= 0)
        x->subst = NULL;
    else if (x->kind == BIND_PTR && x->var >= 0)
        x->ptr.off = ir_var_ref(b->k, x->var);
    x->load_site = -1;
}

static bool depends_on(const binding *x, int var)
{
    if (x->kind == BIND_VAR)
        return x->subst && irb_uses_var(x->subst, var);
    if (x->kind == BIND_PTR)
        return x->var != var && irb_uses_var(x->ptr.off, var);
    return false;
}

void bind_invalidate_uses(irb *b, int var, ir_loc at)
{
    for (size_t i = 0; i < b->nbinds; i++) {
        if (b->binds[i].var != var && depends_on(&b->binds[i], var)) {
            bind_materialize(b, i, at);
            read_var(b, i);
        }
    }
}

/* Expressions bigger than this are kept in a variable rather than copied into
 * every use (also keeps printed indices readable). */
#define SUBST_MAX_NODES 48

static int expr_nodes(const ir_expr *e, int cap)
{
    if (!e || cap <= 0)
        return 0;
    int n = 1;
    n += expr_nodes(e->a, cap - n);
    n += expr_nodes(e->b, cap - n);
    n += expr_nodes(e->c, cap - n);
    return n;
}

/* A -D or --param value given for a local of this name (when its own value is unknown). */
static bool cli_value_for(irb *b, const char *name, int64_t *v)
{
    if (!b->cli)
        return false;
    for (size_t i = b->cli->nparams; i-- > 0;) {
        const hms_param_spec *p = &b->cli->params[i];
        if (hms_param_matches(p, b->k->name, name)) {
            *v = p->value;
            return true;
        }
    }
    return false;
}

void xb_assign_var(irb *b, size_t bi, ir_expr *value, int load_site, CXCursor at)
{
    ir_loc loc = irb_loc(b, at);
    binding *x = &b->binds[bi];
    int64_t cv;
    if (ir_expr_has_unknown(value) && cli_value_for(b, x->name, &cv))
        value = ir_const(b->k, cv);
    bool big = expr_nodes(value, SUBST_MAX_NODES + 1) > SUBST_MAX_NODES;
    if (x->var < 0 && big)
        bind_materialize(b, bi, loc); /* holds the old value; reassigned below */
    x = &b->binds[bi];
    if (x->var >= 0) {
        bind_invalidate_uses(b, x->var, loc);
        x = &b->binds[bi];
        emit_assign(b, x->var, value, loc);
        x->subst = big || irb_uses_var(value, x->var) ? NULL : value;
    } else {
        x->subst = value;
    }
    x->load_site = load_site;
}

void pb_assign_ptr(irb *b, size_t bi, const bptr *p, CXCursor at)
{
    ir_loc loc = irb_loc(b, at);
    binding *x = &b->binds[bi];
    bptr nv = *p;
    if (x->var >= 0 && nv.array == x->ptr.array && nv.unit != x->ptr.unit)
        nv = ab_convert(b, nv, x->ptr.unit); /* the variable counts in its own unit */
    if (x->var >= 0 && (nv.array != x->ptr.array || nv.unit != x->ptr.unit)) {
        /* The pointer's variable holds an offset into one array; switching arrays
         * where the value must persist cannot be represented. */
        char why[256];
        snprintf(why, sizeof why,
                 "pointer '%s' is made to point into a different array inside a loop or "
                 "branch: its accesses use an unknown address",
                 x->name);
        irb_limit(b, why, NULL, loc);
        x->ptr = (bptr){ab_unknown_array(b), ir_unknown(b->k, why, -1, loc), 1};
        return;
    }
    if (x->var >= 0) {
        bind_invalidate_uses(b, x->var, loc);
        x = &b->binds[bi];
        emit_assign(b, x->var, nv.off, loc);
        if (irb_uses_var(nv.off, x->var))
            nv.off = ir_var_ref(b->k, x->var);
    }
    x->ptr = nv;
}

/* ---- prescan: what a region may assign ----------------------------------------- */

typedef struct {
    irb *b;
    size_t *v;
    size_t n, cap;
} bind_set;

static void set_add(bind_set *s, size_t i)
{
    for (size_t j = 0; j < s->n; j++)
        if (s->v[j] == i)
            return;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        size_t *v = realloc(s->v, s->cap * sizeof *v);
        if (!v)
            hms_out_of_memory();
        s->v = v;
    }
    s->v[s->n++] = i;
}

static void note_target(bind_set *s, CXCursor lhs)
{
    lhs = hms_cursor_strip(lhs);
    if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr) {
        size_t i = bind_find(s->b, clang_getCursorReferenced(lhs));
        if (i != SIZE_MAX)
            set_add(s, i);
    } else if (clang_getCursorKind(lhs) == CXCursor_MemberRefExpr) {
        size_t i;
        if (sb_field_binding(s->b, lhs, &i))
            set_add(s, i);
    }
}

static enum CXChildVisitResult prescan_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    bind_set *s = d;
    if (s->b->prescan_budget == 0) {
        s->b->prescan_exhausted = true;
        return CXChildVisit_Break;
    }
    s->b->prescan_budget--;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
        if (k == CXCursor_CompoundAssignOperator ||
            clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign) {
            cursor_list l;
            irb_children(c, &l);
            if (l.n == 2)
                note_target(s, l.v[0]);
            irb_list_free(&l);
        }
    } else if (k == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(c);
        if (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PostDec ||
            u == CXUnaryOperator_PreInc || u == CXUnaryOperator_PreDec ||
            u == CXUnaryOperator_AddrOf) {
            cursor_list l;
            irb_children(c, &l);
            if (l.n == 1)
                note_target(s, l.v[0]);
            irb_list_free(&l);
        }
    } else if (k == CXCursor_CallExpr) {
        /* Locals passed to non-const reference parameters may change. */
        CXCursor fn = clang_getCursorReferenced(c);
        int n = clang_Cursor_getNumArguments(c);
        int np = clang_Cursor_isNull(fn) ? -1 : clang_Cursor_getNumArguments(fn);
        for (int i = 0; i < n && i < np; i++) {
            CXType pt = clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)i));
            if (pt.kind == CXType_LValueReference || pt.kind == CXType_RValueReference) {
                CXType pointee = clang_getPointeeType(pt);
                if (!clang_isConstQualifiedType(pointee))
                    note_target(s, clang_Cursor_getArgument(c, (unsigned)i));
            }
        }
    } else if (k == CXCursor_VarDecl) {
        /* A reference local bound to one of ours may be written through. */
        CXType t = clang_getCursorType(c);
        if (t.kind == CXType_LValueReference) {
            cursor_list l;
            irb_children(c, &l);
            if (l.n)
                note_target(s, l.v[l.n - 1]);
            irb_list_free(&l);
        }
    }
    return CXChildVisit_Recurse;
}

void bind_region_free(bind_region *r)
{
    free(r->v);
    r->v = NULL;
    r->n = 0;
}

void bind_region_reset(irb *b, const bind_region *r)
{
    for (size_t j = 0; j < r->n; j++)
        if (r->v[j] < b->nbinds)
            read_var(b, r->v[j]);
}

bind_region bind_prepare_region(irb *b, CXCursor const *regions, unsigned n, ir_loc at)
{
    bind_set s = {b, NULL, 0, 0};
    for (unsigned i = 0; i < n; i++) {
        if (clang_Cursor_isNull(regions[i]))
            continue;
        prescan_visit(regions[i], clang_getNullCursor(), &s);
        clang_visitChildren(regions[i], prescan_visit, &s);
    }
    if (b->prescan_exhausted) {
        /* Not known what the region assigns: every local may change in it. */
        if (!b->prescan_warned)
            irb_limit(b,
                      "assignment scan budget exhausted (a very long else-if chain or deeply "
                      "nested region): from here on every local is treated as changed there",
                      "split the function", at);
        b->prescan_warned = true;
        for (size_t i = 0; i < b->nbinds; i++)
            set_add(&s, i);
    }
    size_t assigned = s.n;
    for (size_t j = 0; j < assigned; j++) {
        binding *x = &b->binds[s.v[j]];
        if (x->kind == BIND_VAR || x->kind == BIND_PTR)
            bind_materialize(b, s.v[j], at);
    }
    /* Dependents: values computed from a variable the region reassigns. */
    for (size_t j = 0; j < assigned; j++) {
        int var = b->binds[s.v[j]].var;
        if (var < 0)
            continue;
        for (size_t i = 0; i < b->nbinds; i++)
            if (depends_on(&b->binds[i], var))
                set_add(&s, i);
    }
    for (size_t j = assigned; j < s.n; j++)
        bind_materialize(b, s.v[j], at);
    for (size_t j = 0; j < s.n; j++)
        read_var(b, s.v[j]);
    return (bind_region){s.v, s.n};
}
