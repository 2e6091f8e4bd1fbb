/* Statements: blocks, declarations, if/switch, loops with their induction
 * variables and trip counts, break/continue/return, and inlining of the
 * __device__ functions a kernel calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/ir_build_impl.h"

void sb_append(irb *b, ir_stmt *s)
{
    ir_stmt_append(b->k, b->cur, s);
}

static ir_stmt *new_block(irb *b)
{
    return ir_stmt_new(b->k, IR_S_BLOCK, (ir_loc){0});
}

ir_stmt *sb_capture_begin(irb *b)
{
    ir_stmt *saved = b->cur;
    b->cur = new_block(b);
    return saved;
}

ir_stmt *sb_capture_end(irb *b, ir_stmt *saved)
{
    ir_stmt *blk = b->cur;
    b->cur = saved;
    return blk;
}

static inline_frame *frame(irb *b)
{
    return &b->frames[b->nframes - 1];
}

/* ---- declarations ------------------------------------------------------------ */

static CXCursor var_init(CXCursor decl)
{
    return clang_Cursor_getVarDeclInitializer(decl);
}

static void declare(irb *b, CXCursor decl)
{
    char name[128];
    irb_spelling(decl, name, sizeof name);
    CXType t = clang_getCursorType(decl);
    CXCursor init = var_init(decl);
    bool has_init = !clang_Cursor_isNull(init);
    if (has_init)
        sb_fp_work(b, init);
    if (irb_has_attr(decl, CXCursor_CUDASharedAttr) ||
        irb_has_attr(decl, CXCursor_CUDAConstantAttr) ||
        irb_has_attr(decl, CXCursor_CUDADeviceAttr)) {
        /* __shared__ (static or extern) arrays and scalars declared in the body. */
        int a = ab_array_for_decl(b, decl);
        size_t i = bind_push(b, decl, BIND_ARRAY, name);
        b->binds[i].ptr.array = a;
        b->binds[i].ptr.unit = a >= 0 ? b->k->arrays[a].elem_bytes : 1;
        return;
    }
    if (irb_is_array(t)) {
        int a = ab_add_array(b, decl, name, t, HMS_SPACE_LOCAL);
        if (a >= 0 && irb_is_register_type(t))
            b->k->arrays[a].in_registers = true; /* promoted whatever its indices */
        size_t i = bind_push(b, decl, BIND_ARRAY, name);
        b->binds[i].ptr.array = a;
        b->binds[i].ptr.unit = a >= 0 ? b->k->arrays[a].elem_bytes : 1;
        if (has_init)
            xb_effects(b, init);
        return;
    }
    if (irb_is_ptr(t)) {
        bptr p = {-1, ir_const(b->k, 0), 1};
        if (has_init && !ab_pointer(b, init, &p))
            p.array = -1;
        p = ab_carve(b, decl, name, t, p);
        size_t i = bind_push(b, decl, BIND_PTR, name);
        b->binds[i].ptr = p;
        return;
    }
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) {
        if (has_init) {
            CXCursor s = hms_cursor_strip(init);
            if (clang_getCursorKind(s) == CXCursor_DeclRefExpr) {
                size_t tgt = bind_find(b, clang_getCursorReferenced(s));
                if (tgt != SIZE_MAX) {
                    size_t i = bind_push(b, decl, BIND_VARREF, name);
                    b->binds[i].target = tgt;
                    return;
                }
            }
            if (ab_is_memory(b, init)) {
                blval lv;
                if (ab_lvalue(b, init, &lv)) {
                    size_t i = bind_push(b, decl, BIND_MEMREF, name);
                    b->binds[i].mem = lv;
                    return;
                }
            }
            xb_effects(b, init);
        }
        bind_push(b, decl, BIND_OTHER, name);
        return;
    }
    if (irb_is_int(t)) {
        size_t i = bind_push(b, decl, BIND_VAR, name);
        if (has_init) {
            bval v = xb_value(b, init);
            xb_assign_var(b, i, v.e, v.load_site, decl);
        }
        return;
    }
    int ls = -1;
    if (has_init)
        ls = xb_value(b, init).load_site;
    size_t i = bind_push(b, decl, BIND_OTHER, name);
    b->binds[i].load_site = ls;
}

/* ---- returns in inlined functions ----------------------------------------------- */

static enum CXChildVisitResult count_returns(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ReturnStmt)
        ++*(unsigned *)d;
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    return CXChildVisit_Recurse;
}

static unsigned returns_in(CXCursor c)
{
    unsigned n = clang_getCursorKind(c) == CXCursor_ReturnStmt;
    clang_visitChildren(c, count_returns, &n);
    return n;
}

static void emit_assign(irb *b, int var, ir_expr *v, ir_loc at)
{
    ir_stmt *s = ir_stmt_new(b->k, IR_S_ASSIGN, at);
    s->var = var;
    s->value = v;
    sb_append(b, s);
}

static void return_stmt(irb *b, CXCursor c)
{
    cursor_list l;
    irb_children(c, &l);
    CXCursor e = l.n ? l.v[0] : clang_getNullCursor();
    irb_list_free(&l);
    ir_loc loc = irb_loc(b, c);
    sb_fp_work(b, e);
    if (b->nframes == 1) {
        if (!clang_Cursor_isNull(e))
            xb_effects(b, e);
        sb_append(b, ir_stmt_new(b->k, IR_S_RETURN, loc));
        return;
    }
    inline_frame *f = frame(b);
    if (!f->flag_mode) {
        if (clang_Cursor_isNull(e))
            return;
        if (f->want_ptr) {
            if (!ab_pointer(b, e, &f->ret_ptr))
                f->ret_ptr.array = -1;
        } else {
            f->ret = xb_value(b, e);
        }
        f = frame(b);
        f->have_ret = true;
        return;
    }
    if (!clang_Cursor_isNull(e)) {
        if (f->want_ptr) {
            bptr p;
            ab_pointer(b, e, &p);
        } else {
            bval v = xb_value(b, e);
            f = frame(b);
            if (f->ret_var >= 0)
                emit_assign(b, f->ret_var, v.e, loc);
        }
    }
    f = frame(b);
    emit_assign(b, f->done_var, ir_const(b->k, 1), loc);
    if (f->loop_depth > 0)
        sb_append(b, ir_stmt_new(b->k, IR_S_BREAK, loc));
}

/* ---- blocks ------------------------------------------------------------------------ */

static void block_items(irb *b, const CXCursor *items, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        sb_stmt(b, items[i]);
        if (b->nframes > 1 && frame(b)->flag_mode && i + 1 < n && returns_in(items[i])) {
            inline_frame *f = frame(b);
            ir_loc loc = irb_loc(b, items[i + 1]);
            ir_expr *done =
                ir_binary(b->k, IR_OP_NE, ir_var_ref(b->k, f->done_var), ir_const(b->k, 0));
            ir_stmt *s = ir_stmt_new(b->k, IR_S_IF, loc);
            if (f->loop_depth > 0) {
                /* Leave the loop too: the lanes that returned are done with it. */
                s->cond = done;
                s->then = new_block(b);
                ir_stmt_append(b->k, s->then, ir_stmt_new(b->k, IR_S_BREAK, loc));
                sb_append(b, s);
                continue;
            }
            s->cond = ir_binary(b->k, IR_OP_EQ, ir_var_ref(b->k, f->done_var), ir_const(b->k, 0));
            s->then = new_block(b);
            sb_append(b, s);
            ir_stmt *saved = b->cur;
            b->cur = s->then;
            block_items(b, items + i + 1, n - i - 1);
            b->cur = saved;
            return;
        }
    }
}

static void compound(irb *b, CXCursor c)
{
    size_t mark = b->nbinds;
    cursor_list l;
    irb_children(c, &l);
    block_items(b, l.v, l.n);
    irb_list_free(&l);
    bind_pop_to(b, mark);
}

/* ---- if ------------------------------------------------------------------------------ */

static void build_arm(irb *b, CXCursor c, ir_stmt **out)
{
    *out = NULL;
    if (clang_Cursor_isNull(c))
        return;
    ir_stmt *saved = sb_capture_begin(b);
    size_t mark = b->nbinds;
    sb_stmt(b, c);
    bind_pop_to(b, mark);
    *out = sb_capture_end(b, saved);
}

static void if_stmt(irb *b, CXCursor c)
{
    cursor_list l;
    irb_children(c, &l);
    size_t mark = b->nbinds;
    unsigned i = 0;
    /* C++17 `if (init; cond)` and `if (T x = ...)`: declarations come first. */
    while (i < l.n && !clang_isExpression(clang_getCursorKind(l.v[i])) && l.n - i > 2)
        sb_stmt(b, l.v[i++]);
    if (l.n - i < 2) {
        irb_list_free(&l);
        return;
    }
    CXCursor cond = l.v[i], then_c = l.v[i + 1];
    CXCursor else_c = l.n - i > 2 ? l.v[i + 2] : clang_getNullCursor();
    irb_list_free(&l);
    ir_loc loc = irb_loc(b, c);
    ir_expr *ce = xb_value(b, cond).e;
    int64_t cv;
    if (irb_const_of(ce, &cv)) { /* if (BLOCK_SIZE >= 512): only the taken arm exists */
        CXCursor taken = cv ? then_c : else_c;
        if (!clang_Cursor_isNull(taken)) {
            size_t m2 = b->nbinds;
            sb_stmt(b, taken);
            bind_pop_to(b, m2);
        }
        bind_pop_to(b, mark);
        return;
    }
    note_unknowns_at(b, ce, "branch condition", loc);
    CXCursor arms[2] = {then_c, else_c};
    bind_region reg = bind_prepare_region(b, arms, 2, loc);
    ir_stmt *s = ir_stmt_new(b->k, IR_S_IF, loc);
    s->cond = ce;
    s->model = b->model_depth > 0;
    build_arm(b, then_c, &s->then);
    bind_region_reset(b, &reg);
    build_arm(b, else_c, &s->els);
    bind_region_reset(b, &reg);
    bind_region_free(&reg);
    if (!s->then)
        s->then = new_block(b);
    sb_append(b, s);
    bind_pop_to(b, mark);
}

bool sb_guarded(irb *b, ir_expr *cond, CXCursor then_c, CXCursor else_c, bval *tv, bval *ev,
                ir_loc loc)
{
    *tv = *ev = (bval){ir_const(b->k, 0), -1};
    int64_t cv;
    if (irb_const_of(cond, &cv)) {
        CXCursor taken = cv ? then_c : else_c;
        if (!clang_Cursor_isNull(taken))
            *(cv ? tv : ev) = xb_value(b, taken);
        return true;
    }
    CXCursor arms[2] = {then_c, else_c};
    bind_region reg = bind_prepare_region(b, arms, 2, loc);
    ir_stmt *saved = sb_capture_begin(b);
    if (!clang_Cursor_isNull(then_c))
        *tv = xb_value(b, then_c);
    ir_stmt *tb = sb_capture_end(b, saved);
    bind_region_reset(b, &reg);
    saved = sb_capture_begin(b);
    if (!clang_Cursor_isNull(else_c))
        *ev = xb_value(b, else_c);
    ir_stmt *eb = sb_capture_end(b, saved);
    bind_region_reset(b, &reg);
    bind_region_free(&reg);
    if (tb->items.n || eb->items.n) {
        ir_stmt *s = ir_stmt_new(b->k, IR_S_IF, loc);
        s->cond = cond;
        s->model = b->model_depth > 0;
        s->then = tb;
        s->els = eb->items.n ? eb : NULL;
        sb_append(b, s);
    }
    return true;
}

/* ---- switch: an if per case group -------------------------------------------------- */

static CXCursor case_parts(CXCursor c, ir_expr **cond, ir_expr *sw, irb *b, bool *is_default)
{
    /* case A: case B: stmt  ->  CaseStmt(A, CaseStmt(B, stmt)) */
    for (int guard = 0; guard < 256; guard++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_CaseStmt && k != CXCursor_DefaultStmt)
            return c;
        cursor_list l;
        irb_children(c, &l);
        CXCursor sub = l.n ? l.v[l.n - 1] : clang_getNullCursor();
        if (k == CXCursor_DefaultStmt) {
            *is_default = true;
        } else if (l.n >= 2) {
            int64_t v;
            ir_expr *ce = irb_eval_int(l.v[0], &v) ? ir_const(b->k, v) : xb_value(b, l.v[0]).e;
            ir_expr *eq = irb_bin(b, IR_OP_EQ, sw, ce);
            *cond = *cond ? ir_binary(b->k, IR_OP_LOR, *cond, eq) : eq;
        }
        irb_list_free(&l);
        c = sub;
    }
    return c;
}

static void switch_stmt(irb *b, CXCursor c)
{
    cursor_list l;
    irb_children(c, &l);
    if (l.n < 2) {
        irb_list_free(&l);
        return;
    }
    ir_loc loc = irb_loc(b, c);
    ir_expr *sw = xb_value(b, l.v[l.n - 2]).e;
    CXCursor body = l.v[l.n - 1];
    irb_list_free(&l);
    bind_region reg = bind_prepare_region(b, &body, 1, loc);
    note_unknowns_at(b, sw, "switch value", loc);
    cursor_list items;
    irb_children(body, &items);
    ir_expr *all = NULL; /* every case value seen, for default */
    ir_stmt *dflt = NULL;
    ir_stmt *group = NULL;
    bool open = false;
    size_t mark = b->nbinds;
    for (unsigned i = 0; i < items.n; i++) {
        CXCursor it = items.v[i];
        enum CXCursorKind k = clang_getCursorKind(it);
        if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) {
            if (open)
                irb_limit(b,
                          "fall-through between switch cases is not followed: each case "
                          "is modelled on its own",
                          NULL, irb_loc(b, it));
            ir_expr *cond = NULL;
            bool is_default = false;
            CXCursor first = case_parts(it, &cond, sw, b, &is_default);
            ir_stmt *s = ir_stmt_new(b->k, IR_S_IF, irb_loc(b, it));
            s->cond = cond ? cond : ir_const(b->k, 0);
            s->then = new_block(b);
            if (cond)
                all = all ? ir_binary(b->k, IR_OP_LOR, all, cond) : cond;
            if (is_default) {
                dflt = s;
                if (cond) /* case X: default: */
                    s->cond = NULL;
            }
            sb_append(b, s);
            group = s->then;
            open = true;
            bind_region_reset(b, &reg); /* each case starts from the switch's entry */
            it = first;
            k = clang_getCursorKind(it);
        }
        if (!open)
            continue;
        if (k == CXCursor_BreakStmt) {
            open = false;
            continue;
        }
        if (k == CXCursor_ReturnStmt || k == CXCursor_ContinueStmt)
            open = false;
        ir_stmt *saved = b->cur;
        b->cur = group;
        sb_stmt(b, it);
        b->cur = saved;
    }
    irb_list_free(&items);
    bind_region_reset(b, &reg);
    bind_region_free(&reg);
    if (dflt) {
        ir_expr *none = all ? ir_unary(b->k, IR_OP_NOT, all) : ir_const(b->k, 1);
        dflt->cond = dflt->cond && dflt->cond->kind != IR_CONST
                         ? ir_binary(b->k, IR_OP_LOR, dflt->cond, none)
                         : none;
    }
    bind_pop_to(b, mark);
}

/* ---- loops --------------------------------------------------------------------------- */

static bool assigns_var(const ir_stmt *s, int var, int *count, const ir_stmt **last)
{
    if (!s)
        return false;
    switch (s->kind) {
    case IR_S_ASSIGN:
        if (s->var == var) {
            ++*count;
            *last = s;
        }
        break;
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            assigns_var(s->items.v[i], var, count, last);
        break;
    case IR_S_IF:
        assigns_var(s->then, var, count, last);
        assigns_var(s->els, var, count, last);
        break;
    case IR_S_LOOP:
        assigns_var(s->init, var, count, last);
        assigns_var(s->body, var, count, last);
        assigns_var(s->step, var, count, last);
        break;
    default:
        break;
    }
    return *count > 0;
}

/* Does e read any variable the loop assigns? */
static bool loop_variant(const ir_stmt *loop, const ir_expr *e)
{
    if (!e)
        return false;
    if (e->kind == IR_VAR) {
        int n = 0;
        const ir_stmt *last;
        assigns_var(loop->body, e->var, &n, &last);
        assigns_var(loop->step, e->var, &n, &last);
        return n > 0;
    }
    if (e->kind == IR_UNKNOWN)
        return true;
    return loop_variant(loop, e->a) || loop_variant(loop, e->b) || loop_variant(loop, e->c);
}

/* Iterations of v = a; while (v cmp bound) v = v op s, all constants (<= 4096 steps). */
static int64_t simulate_trip(ir_op cmp, int64_t a, int64_t bound, ir_op op, int64_t s)
{
    int64_t v = a, n = 0, r;
    for (; n <= 4096; n++) {
        int64_t c;
        if (!(cmp == IR_OP_LT   ? v < bound
              : cmp == IR_OP_LE ? v <= bound
              : cmp == IR_OP_GT ? v > bound
              : cmp == IR_OP_GE ? v >= bound
                                : v != bound))
            return n;
        switch (op) {
        case IR_OP_ADD:
            r = v + s;
            break;
        case IR_OP_SUB:
            r = v - s;
            break;
        case IR_OP_MUL:
            r = v * s;
            break;
        case IR_OP_DIV:
            r = s ? v / s : v;
            break;
        case IR_OP_SHL:
            r = s >= 0 && s < 62 ? v << s : v;
            break;
        case IR_OP_SHR:
            r = s >= 0 && s < 63 ? v >> s : v;
            break;
        default:
            return -1;
        }
        c = r;
        if (c == v)
            return -1; /* no progress */
        v = c;
    }
    return -1;
}

static ir_op swap_cmp(ir_op op)
{
    switch (op) {
    case IR_OP_LT:
        return IR_OP_GT;
    case IR_OP_GT:
        return IR_OP_LT;
    case IR_OP_LE:
        return IR_OP_GE;
    case IR_OP_GE:
        return IR_OP_LE;
    default:
        return op;
    }
}

/* Finds the induction variable of a loop and its trip count: cond `v cmp B`
 * with B loop-invariant, one update v = v op s per iteration (s invariant),
 * v's value on entry known from the init block or the statement before. */
static void analyze_induction(irb *b, ir_stmt *loop, const ir_stmt *before)
{
    ir_expr *c = loop->cond;
    if (!c || c->kind != IR_BINARY || c->op < IR_OP_LT || c->op > IR_OP_NE)
        return;
    ir_op cmp = c->op;
    ir_expr *lhs = c->a, *bound = c->b;
    if (lhs->kind != IR_VAR && bound->kind == IR_VAR) {
        ir_expr *t = lhs;
        lhs = bound, bound = t;
        cmp = swap_cmp(cmp);
    }
    if (lhs->kind != IR_VAR || cmp == IR_OP_EQ)
        return;
    bool bound_ok = !loop_variant(loop, bound);
    int v = lhs->var;
    int n = 0;
    const ir_stmt *upd = NULL;
    assigns_var(loop->step, v, &n, &upd);
    bool in_step = n == 1;
    if (n == 0) { /* while loops: one unconditional update at the body's top level */
        assigns_var(loop->body, v, &n, &upd);
        bool top = false;
        for (size_t i = 0; loop->body && i < loop->body->items.n; i++)
            top |= loop->body->items.v[i] == upd;
        if (n != 1 || !top)
            return;
    } else if (n != 1) {
        return;
    }
    int nb = 0;
    const ir_stmt *dummy;
    if (in_step && assigns_var(loop->body, v, &nb, &dummy))
        return;
    ir_expr *u = upd->value;
    if (!u || u->kind != IR_BINARY || u->a->kind != IR_VAR || u->a->var != v)
        return;
    ir_op op = u->op;
    ir_expr *s = u->b;
    if (loop_variant(loop, s) || (op != IR_OP_ADD && op != IR_OP_SUB && op != IR_OP_MUL &&
                                  op != IR_OP_DIV && op != IR_OP_SHL && op != IR_OP_SHR))
        return;
    /* Entry value. */
    ir_expr *a = NULL;
    int ni = 0;
    const ir_stmt *init = NULL;
    if (loop->init && assigns_var(loop->init, v, &ni, &init))
        a = init->value;
    else if (before && before->kind == IR_S_ASSIGN && before->var == v)
        a = before->value;
    loop->loop_var = v;
    b->k->vars[v].kind = IR_VAR_LOOP;
    if (!a || ir_expr_has_unknown(a) || !bound_ok)
        return; /* the induction variable is known, its trip count is not */
    int64_t ca, cb, cs;
    bool consts = irb_eval_const(a, &ca) && irb_eval_const(bound, &cb) && irb_eval_const(s, &cs);
    if (!loop->test_first)
        return; /* do-while: runs at least once; leave the count to the evaluator */
    if (consts) {
        int64_t t = simulate_trip(cmp, ca, cb, op, cs);
        if (t >= 0) {
            loop->trip_count = t;
            loop->trip = ir_const(b->k, t);
        }
        if (t >= 0 || (op != IR_OP_ADD && op != IR_OP_SUB))
            return;
    }
    /* Symbolic trip counts for additive steps (s taken positive). */
    ir_expr *span = NULL, *one = ir_const(b->k, 1);
    if (op == IR_OP_ADD && (cmp == IR_OP_LT || cmp == IR_OP_NE))
        span = irb_bin(b, IR_OP_SUB, bound, a);
    else if (op == IR_OP_ADD && cmp == IR_OP_LE)
        span = irb_bin(b, IR_OP_ADD, irb_bin(b, IR_OP_SUB, bound, a), one);
    else if (op == IR_OP_SUB && (cmp == IR_OP_GT || cmp == IR_OP_NE))
        span = irb_bin(b, IR_OP_SUB, a, bound);
    else if (op == IR_OP_SUB && cmp == IR_OP_GE)
        span = irb_bin(b, IR_OP_ADD, irb_bin(b, IR_OP_SUB, a, bound), one);
    if (!span)
        return;
    span = irb_simplify_sum(b, span);
    int64_t sv;
    if (irb_const_of(s, &sv) && sv == 1)
        loop->trip = span;
    else /* ceil(span / s) */
        loop->trip = irb_bin(
            b, IR_OP_DIV,
            irb_simplify_sum(b, irb_bin(b, IR_OP_ADD, span, irb_bin(b, IR_OP_SUB, s, one))), s);
    int64_t t;
    if (irb_const_of(loop->trip, &t)) {
        loop->trip_count = t > 0 ? t : 0;
        loop->trip = ir_const(b->k, loop->trip_count);
    }
}

static bool is_inc_like(CXCursor c)
{
    c = hms_cursor_strip(c);
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CompoundAssignOperator)
        return true;
    if (k == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(c);
        return u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PostDec ||
               u == CXUnaryOperator_PreInc || u == CXUnaryOperator_PreDec;
    }
    if (k == CXCursor_BinaryOperator) {
        enum CXBinaryOperatorKind bk = clang_getCursorBinaryOperatorKind(c);
        return bk == CXBinaryOperator_Assign || bk == CXBinaryOperator_Comma;
    }
    return false;
}

static bool is_init_like(CXCursor c)
{
    c = hms_cursor_strip(c);
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclStmt)
        return true;
    return k == CXCursor_BinaryOperator &&
           (clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign ||
            clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Comma);
}

/* libclang visits only the parts of a for header that are present; the
 * shapes tell which is which. */
static void for_parts(CXCursor c, CXCursor *init, CXCursor *cond, CXCursor *inc, CXCursor *body)
{
    cursor_list l;
    irb_children(c, &l);
    *init = *cond = *inc = *body = clang_getNullCursor();
    if (l.n == 0) {
        irb_list_free(&l);
        return;
    }
    *body = l.v[l.n - 1];
    unsigned n = l.n - 1;
    CXCursor *p = l.v;
    if (n == 3) {
        *init = p[0], *cond = p[1], *inc = p[2];
    } else if (n == 2) {
        if (is_init_like(p[0]) && is_inc_like(p[1]) && !is_init_like(p[1]))
            *init = p[0], *inc = p[1];
        else if (is_init_like(p[0]) &&
                 clang_getCursorKind(hms_cursor_strip(p[1])) != CXCursor_BinaryOperator)
            *init = p[0], *cond = p[1];
        else if (is_init_like(p[0]) && !is_inc_like(p[1]))
            *init = p[0], *cond = p[1];
        else if (clang_getCursorKind(p[0]) == CXCursor_DeclStmt)
            *init = p[0], *inc = p[1];
        else
            *cond = p[0], *inc = p[1];
    } else if (n == 1) {
        if (clang_getCursorKind(p[0]) == CXCursor_DeclStmt)
            *init = p[0];
        else if (is_inc_like(p[0]) &&
                 !(clang_getCursorKind(hms_cursor_strip(p[0])) == CXCursor_BinaryOperator &&
                   clang_getCursorBinaryOperatorKind(hms_cursor_strip(p[0])) ==
                       CXBinaryOperator_Assign))
            *inc = p[0];
        else if (is_init_like(p[0]))
            *init = p[0];
        else
            *cond = p[0];
    } else if (n > 3) { /* condition variable: init, VarDecl, cond, inc */
        *init = p[0], *cond = p[n - 2], *inc = p[n - 1];
    }
    irb_list_free(&l);
}

typedef enum { LOOP_FOR, LOOP_WHILE, LOOP_DO } loop_form;

/* First value with an unknown that the loop assigns to `var`, or NULL. */
static const ir_expr *unknown_assigned(const ir_stmt *s, int var)
{
    if (!s)
        return NULL;
    const ir_expr *u = NULL;
    switch (s->kind) {
    case IR_S_ASSIGN:
        return s->var == var && ir_expr_has_unknown(s->value) ? s->value : NULL;
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n && !u; i++)
            u = unknown_assigned(s->items.v[i], var);
        return u;
    case IR_S_IF:
        u = unknown_assigned(s->then, var);
        return u ? u : unknown_assigned(s->els, var);
    case IR_S_LOOP:
        u = unknown_assigned(s->body, var);
        return u ? u : unknown_assigned(s->step, var);
    default:
        return NULL;
    }
}

/* A loop condition on variables the loop sets from memory (node = next[node]):
 * its trip count is unknowable too. */
static void note_variant_unknowns(irb *b, const ir_stmt *loop, const ir_expr *e, ir_loc loc)
{
    if (!e)
        return;
    if (e->kind == IR_VAR) {
        const ir_expr *u = unknown_assigned(loop->body, e->var);
        if (!u)
            u = unknown_assigned(loop->step, e->var);
        if (u)
            note_unknowns_at(b, u, "loop trip count", loc);
        return;
    }
    note_variant_unknowns(b, loop, e->a, loc);
    note_variant_unknowns(b, loop, e->b, loc);
    note_variant_unknowns(b, loop, e->c, loc);
}

/* Values materialized for the loop that were declared before it belong
 * before the loop, not in its init clause: move them out (order kept). */
static void hoist_outer_assigns(irb *b, ir_stmt *init, size_t from, size_t mark, ir_stmt *outer)
{
    size_t keep = from;
    for (size_t i = from; i < init->items.n; i++) {
        ir_stmt *s = init->items.v[i];
        bool declared_in_init = false;
        for (size_t j = mark; j < b->nbinds; j++)
            declared_in_init |= b->binds[j].var == s->var && s->var >= 0;
        if (s->kind == IR_S_ASSIGN && !declared_in_init)
            ir_stmt_append(b->k, outer, s);
        else
            init->items.v[keep++] = s;
    }
    init->items.n = keep;
}

static void loop_stmt(irb *b, CXCursor c, loop_form form)
{
    CXCursor init = clang_getNullCursor(), cond = clang_getNullCursor(),
             inc = clang_getNullCursor(), body = clang_getNullCursor();
    if (form == LOOP_FOR) {
        for_parts(c, &init, &cond, &inc, &body);
    } else {
        cursor_list l;
        irb_children(c, &l);
        if (l.n >= 2) {
            if (form == LOOP_WHILE)
                cond = l.v[l.n - 2], body = l.v[l.n - 1];
            else
                body = l.v[0], cond = l.v[1];
        }
        irb_list_free(&l);
    }
    ir_kernel *k = b->k;
    ir_loc loc = irb_loc(b, c);
    size_t mark = b->nbinds;
    ir_stmt *loop = ir_stmt_new(k, IR_S_LOOP, loc);
    loop->test_first = form != LOOP_DO;
    loop->body = new_block(b);
    loop->step = new_block(b);
    ir_stmt *outer = b->cur;
    const ir_stmt *before = outer->items.n ? outer->items.v[outer->items.n - 1] : NULL;
    if (form == LOOP_FOR) {
        loop->init = new_block(b);
        b->cur = loop->init;
        if (!clang_Cursor_isNull(init))
            sb_stmt(b, init);
    }
    CXCursor regions[3] = {cond, inc, body};
    size_t init_items = b->cur->items.n;
    bind_region reg = bind_prepare_region(b, regions, 3, loc);
    if (form == LOOP_FOR)
        hoist_outer_assigns(b, loop->init, init_items, mark, outer);
    if (form != LOOP_FOR && outer->items.n)
        before = outer->items.v[outer->items.n - 1];
    /* The condition, and any memory it reads (evaluated every iteration). */
    ir_stmt *saved = sb_capture_begin(b);
    ir_expr *ce = clang_Cursor_isNull(cond) ? NULL : xb_value(b, cond).e;
    ir_stmt *cond_fx = sb_capture_end(b, saved);
    b->loop_depth++;
    frame(b)->loop_depth++;
    b->cur = loop->body;
    bool cond_in_body = cond_fx->items.n > 0;
    if (cond_in_body && form != LOOP_DO) {
        sb_append(b, cond_fx);
        ir_stmt *brk = ir_stmt_new(k, IR_S_IF, loc);
        brk->cond = ir_unary(k, IR_OP_NOT, ce);
        brk->then = new_block(b);
        ir_stmt_append(k, brk->then, ir_stmt_new(k, IR_S_BREAK, loc));
        sb_append(b, brk);
    } else if (!cond_in_body) {
        loop->cond = ce;
    }
    if (!clang_Cursor_isNull(body)) {
        size_t m2 = b->nbinds;
        sb_stmt(b, body);
        bind_pop_to(b, m2);
    }
    if (cond_in_body && form == LOOP_DO) {
        sb_append(b, cond_fx);
        ir_stmt *brk = ir_stmt_new(k, IR_S_IF, loc);
        brk->cond = ir_unary(k, IR_OP_NOT, ce);
        brk->then = new_block(b);
        ir_stmt_append(k, brk->then, ir_stmt_new(k, IR_S_BREAK, loc));
        sb_append(b, brk);
    }
    /* The step runs after the body and after `continue`: values from the body
     * are not reliable there. */
    bind_region_reset(b, &reg);
    b->cur = loop->step;
    if (!clang_Cursor_isNull(inc))
        xb_effects(b, inc);
    bind_region_reset(b, &reg);
    bind_region_free(&reg);
    frame(b)->loop_depth--;
    b->loop_depth--;
    b->cur = outer;
    if (loop->init && loop->init->items.n == 0)
        loop->init = NULL;
    if (loop->step->items.n == 0)
        loop->step = NULL;
    before = outer->items.n ? outer->items.v[outer->items.n - 1] : NULL;
    sb_append(b, loop);
    if (ce && !cond_in_body)
        analyze_induction(b, loop, before);
    if (ce) {
        note_unknowns_at(b, ce, "loop trip count", loc);
        note_variant_unknowns(b, loop, ce, loc);
    }
    bind_pop_to(b, mark);
}

/* ---- statements ------------------------------------------------------------------------ */

void sb_stmt(irb *b, CXCursor c)
{
    if (clang_Cursor_isNull(c) || !irb_budget(b, c))
        return;
    enum CXCursorKind kind = clang_getCursorKind(c);
    switch (kind) {
    case CXCursor_CompoundStmt:
        compound(b, c);
        return;
    case CXCursor_DeclStmt: {
        cursor_list l;
        irb_children(c, &l);
        for (unsigned i = 0; i < l.n; i++)
            if (clang_getCursorKind(l.v[i]) == CXCursor_VarDecl)
                declare(b, l.v[i]);
        irb_list_free(&l);
        return;
    }
    case CXCursor_IfStmt:
        if_stmt(b, c);
        return;
    case CXCursor_ForStmt:
        loop_stmt(b, c, LOOP_FOR);
        return;
    case CXCursor_WhileStmt:
        loop_stmt(b, c, LOOP_WHILE);
        return;
    case CXCursor_DoStmt:
        loop_stmt(b, c, LOOP_DO);
        return;
    case CXCursor_BreakStmt:
        sb_append(b, ir_stmt_new(b->k, IR_S_BREAK, irb_loc(b, c)));
        return;
    case CXCursor_ContinueStmt:
        sb_append(b, ir_stmt_new(b->k, IR_S_CONTINUE, irb_loc(b, c)));
        return;
    case CXCursor_ReturnStmt:
        return_stmt(b, c);
        return;
    case CXCursor_SwitchStmt:
        switch_stmt(b, c);
        return;
    case CXCursor_NullStmt:
        return;
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        irb_limit(b, "goto is not followed: control flow after it is approximate", NULL,
                  irb_loc(b, c));
        return;
    case CXCursor_AsmStmt:
    case CXCursor_MSAsmStmt:
        sb_asm_stmt(b, c);
        return;
    case CXCursor_LabelStmt:
    case CXCursor_UnexposedStmt: {
        cursor_list l;
        irb_children(c, &l);
        for (unsigned i = 0; i < l.n; i++)
            if (!clang_isAttribute(clang_getCursorKind(l.v[i])))
                sb_stmt(b, l.v[i]);
        irb_list_free(&l);
        return;
    }
    default:
        if (clang_isExpression(kind)) {
            sb_fp_work(b, c);
            xb_effects(b, c);
        }
        return;
    }
}

/* ---- inlining ------------------------------------------------------------------------------ */

/* Exactly one return, and it is the body's last statement (or none at all). */
static bool simple_returns(CXCursor body)
{
    unsigned n = returns_in(body);
    if (n == 0)
        return true;
    if (n > 1)
        return false;
    cursor_list l;
    irb_children(body, &l);
    bool last = l.n && clang_getCursorKind(l.v[l.n - 1]) == CXCursor_ReturnStmt;
    irb_list_free(&l);
    return last;
}

static void bind_param(irb *b, CXCursor pdecl, CXCursor arg)
{
    char name[128];
    irb_spelling(pdecl, name, sizeof name);
    CXType t = clang_getCursorType(pdecl);
    if (clang_Cursor_isNull(arg)) {
        bind_push(b, pdecl, BIND_OTHER, name);
        return;
    }
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) {
        CXCursor s = hms_cursor_strip(arg);
        if (clang_getCursorKind(s) == CXCursor_DeclRefExpr) {
            size_t tgt = bind_find(b, clang_getCursorReferenced(s));
            if (tgt != SIZE_MAX && b->binds[tgt].kind != BIND_MEMREF &&
                b->binds[tgt].kind != BIND_ARRAY) {
                size_t i = bind_push(b, pdecl, BIND_VARREF, name);
                b->binds[i].target = tgt;
                return;
            }
        }
        if (ab_is_memory(b, arg)) {
            blval lv;
            if (ab_lvalue(b, arg, &lv)) {
                size_t i = bind_push(b, pdecl, BIND_MEMREF, name);
                b->binds[i].mem = lv;
                return;
            }
        }
        if (irb_is_int(clang_getPointeeType(t))) {
            bval v = xb_value(b, arg);
            size_t i = bind_push(b, pdecl, BIND_VAR, name);
            b->binds[i].subst = v.e;
            return;
        }
        bval v = xb_value(b, arg);
        size_t i = bind_push(b, pdecl, BIND_OTHER, name);
        b->binds[i].load_site = v.load_site;
        return;
    }
    if (irb_is_ptr(t) || irb_is_array(t)) {
        bptr p;
        if (!ab_pointer(b, arg, &p))
            p.array = -1;
        size_t i = bind_push(b, pdecl, BIND_PTR, name);
        b->binds[i].ptr = p;
        return;
    }
    bval v = xb_value(b, arg);
    if (irb_is_int(t)) {
        size_t i = bind_push(b, pdecl, BIND_VAR, name);
        b->binds[i].subst = v.e;
        b->binds[i].load_site = v.load_site;
        return;
    }
    size_t i = bind_push(b, pdecl, BIND_OTHER, name);
    b->binds[i].load_site = v.load_site;
}

/* The i-th argument, or the parameter's default argument. */
static CXCursor arg_or_default(CXCursor call, CXCursor pdecl, unsigned i, unsigned nargs)
{
    CXCursor a = i < nargs ? clang_Cursor_getArgument(call, i) : clang_getNullCursor();
    if (!clang_Cursor_isNull(a)) {
        cursor_list l;
        irb_children(a, &l);
        bool empty = l.n == 0 && clang_getCursorKind(a) == CXCursor_UnexposedExpr;
        irb_list_free(&l);
        if (!empty)
            return a;
    }
    cursor_list l;
    irb_children(pdecl, &l);
    CXCursor d = clang_getNullCursor();
    for (unsigned j = 0; j < l.n; j++)
        if (clang_isExpression(clang_getCursorKind(l.v[j])))
            d = l.v[j];
    irb_list_free(&l);
    return clang_Cursor_isNull(d) ? a : d;
}

bool sb_inline_call(irb *b, CXCursor call, CXCursor fn, bval *out, bptr *ptr_out)
{
    ir_kernel *k = b->k;
    char name[128];
    irb_spelling(fn, name, sizeof name);
    ir_loc loc = irb_loc(b, call);
    *out = (bval){NULL, -1};
    ptr_out->array = -1;
    ptr_out->off = ir_const(k, 0);
    ptr_out->unit = 1;
    for (int i = 0; i < b->nframes; i++) {
        if (clang_equalCursors(b->frames[i].fn, fn)) {
            char why[256];
            snprintf(why, sizeof why, "recursive call to '%s' is not followed", name);
            irb_limit(b, why, NULL, loc);
            return false;
        }
    }
    if (b->nframes >= (int)(sizeof b->frames / sizeof b->frames[0])) {
        irb_limit(b, "calls nested too deeply to follow", NULL, loc);
        return false;
    }
    CXCursor body = hms_cursor_body(fn);
    if (clang_Cursor_isNull(body))
        return false;
    size_t mark = b->nbinds;
    int np = clang_Cursor_getNumArguments(fn);
    int na = clang_Cursor_getNumArguments(call);
    /* obj(args) on a functor lists the object as argument 0 */
    int skip = na == np + 1 && clang_getCursorKind(fn) == CXCursor_CXXMethod ? 1 : 0;
    bool has_this = false;
    bptr this_ptr = {-1, ir_const(k, 0), 1};
    if (clang_getCursorKind(fn) == CXCursor_Constructor) {
        has_this = true; /* T v(args) / T{args}: builds a value in registers */
        this_ptr.array = IRB_REGISTERS;
    } else if (clang_getCursorKind(fn) == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(fn)) {
        has_this = true;
        this_ptr = ab_object_address(b, skip ? clang_Cursor_getArgument(call, 0)
                                             : irb_member_call_object(call, NULL, 0));
    } else if (skip) {
        xb_effects(b, clang_Cursor_getArgument(call, 0));
    }
    for (int i = 0; i < np; i++) {
        CXCursor pdecl = clang_Cursor_getArgument(fn, (unsigned)i);
        bind_param(b, pdecl,
                   arg_or_default(call, pdecl, (unsigned)(i + skip), na > 0 ? (unsigned)na : 0));
    }
    CXType rt = clang_getCursorResultType(fn);
    inline_frame *f = &b->frames[b->nframes++];
    memset(f, 0, sizeof *f);
    f->fn = fn;
    f->ret_var = f->done_var = -1;
    f->want_ptr = irb_is_ptr(rt);
    f->ret = (bval){NULL, -1};
    f->ret_ptr = (bptr){-1, ir_const(k, 0), 1};
    f->flag_mode = !simple_returns(body);
    f->has_this = has_this;
    f->this_ptr = this_ptr;
    if (f->flag_mode) {
        char vn[160];
        snprintf(vn, sizeof vn, "%s.done", name);
        ir_var dv = {.name = ir_strdup(k, vn), .kind = IR_VAR_LOCAL, .loc = loc};
        f->done_var = ir_add_var(k, &dv);
        emit_assign(b, f->done_var, ir_const(k, 0), loc);
        if (irb_is_int(rt)) {
            snprintf(vn, sizeof vn, "%s.ret", name);
            ir_var rv = {.name = ir_strdup(k, vn), .kind = IR_VAR_LOCAL, .loc = loc};
            f->ret_var = ir_add_var(k, &rv);
        }
        if (f->want_ptr) {
            char why[256];
            snprintf(why, sizeof why,
                     "'%s' returns a pointer from more than one place: the address it "
                     "returns is unknown",
                     name);
            irb_limit(b, why, NULL, loc);
        }
    }
    bind_region reg = bind_prepare_region(b, &body, 1, loc);
    sb_stmt(b, body);
    bind_region_reset(b, &reg); /* returns may leave from anywhere */
    bind_region_free(&reg);
    f = &b->frames[--b->nframes];
    if (f->flag_mode) {
        if (f->ret_var >= 0)
            *out = (bval){ir_var_ref(k, f->ret_var), -1};
        if (f->want_ptr)
            ptr_out->array = ab_unknown_array(b),
            ptr_out->off = ir_unknown(k, "pointer returned from several places", -1, loc);
    } else if (f->have_ret) {
        *out = f->ret;
        *ptr_out = f->ret_ptr;
    }
    if (!out->e || !irb_is_int(rt)) {
        char why[192];
        snprintf(why, sizeof why, "%s of '%s'", irb_is_int(rt) ? "no result" : "result", name);
        int ls = out->load_site;
        *out = (bval){ir_unknown(k, why, -1, loc), ls};
    }
    bind_pop_to(b, mark);
    return true;
}
