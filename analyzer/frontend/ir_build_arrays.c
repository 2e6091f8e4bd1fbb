/* Arrays and memory spaces: which array an address points into and at what
 * offset (pointer parameters, __shared__/__constant__/__device__ variables,
 * textures, local arrays, pointer arithmetic and aliases), and the access
 * sites that read or write them (loads, stores, atomics, __ldg, texture
 * fetches). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/ir_build_impl.h"
#include "runtime/out_of_memory.h"

static bptr no_ptr(irb *b)
{
    return (bptr){-1, ir_const(b->k, 0), 1};
}

static bptr register_ptr(irb *b)
{
    return (bptr){IRB_REGISTERS, ir_const(b->k, 0), 1};
}

int ab_unknown_array(irb *b)
{
    if (b->unknown_array < 0) {
        ir_array a = {0};
        a.name = ir_strdup(b->k, "<unknown>");
        a.space = HMS_SPACE_GLOBAL;
        a.elem_type = ir_strdup(b->k, "?");
        a.elem_bytes = 1;
        a.base_array = -1;
        b->unknown_array = ir_add_array(b->k, &a);
    }
    return b->unknown_array;
}

static int64_t unit_of(CXType t);

/* An address we cannot follow: an access through it uses the unknown array. */
static bptr unknown_ptr(irb *b, CXCursor at, const char *why)
{
    char t[96], reason[320];
    irb_text(b, at, t, sizeof t);
    snprintf(reason, sizeof reason, "%s: %s", why, t[0] ? t : "?");
    ir_loc loc = irb_loc(b, at);
    bool dup = false;
    for (size_t i = 0; i < b->k->nlimits; i++)
        dup |= b->k->limits[i].loc.line == loc.line && b->k->limits[i].loc.col == loc.col &&
               !strcmp(b->k->limits[i].reason, reason);
    if (!dup)
        irb_limit(b, reason, NULL, loc);
    int64_t unit = unit_of(clang_getCursorType(at));
    return (bptr){ab_unknown_array(b), ir_unknown(b->k, reason, -1, loc), unit > 0 ? (int)unit : 1};
}

/* e / d when that is exact by construction (constants, products, sums). */
static ir_expr *try_div(irb *b, ir_expr *e, int64_t d)
{
    int64_t v;
    if (d == 1)
        return e;
    if (irb_const_of(e, &v))
        return v % d == 0 ? ir_const(b->k, v / d) : NULL;
    if (e->kind == IR_BINARY && e->op == IR_OP_MUL) {
        if (irb_const_of(e->b, &v) && v % d == 0)
            return irb_bin(b, IR_OP_MUL, e->a, ir_const(b->k, v / d));
        if (irb_const_of(e->a, &v) && v % d == 0)
            return irb_bin(b, IR_OP_MUL, ir_const(b->k, v / d), e->b);
        ir_expr *x = try_div(b, e->a, d);
        if (x)
            return irb_bin(b, IR_OP_MUL, x, e->b);
        x = try_div(b, e->b, d);
        if (x)
            return irb_bin(b, IR_OP_MUL, e->a, x);
        return NULL;
    }
    if (e->kind == IR_BINARY && (e->op == IR_OP_ADD || e->op == IR_OP_SUB)) {
        ir_expr *x = try_div(b, e->a, d), *y = x ? try_div(b, e->b, d) : NULL;
        return y ? irb_bin(b, e->op, x, y) : NULL;
    }
    return NULL;
}

/* Re-expresses p in steps of `unit` bytes. */
bptr ab_convert(irb *b, bptr p, int64_t unit)
{
    if (unit <= 0 || p.unit == unit)
        return p;
    int64_t v;
    if (irb_const_of(p.off, &v) && (v * p.unit) % unit == 0) {
        p.off = ir_const(b->k, v * p.unit / unit);
        p.unit = (int)unit;
        return p;
    }
    if (p.unit % unit == 0) {
        p.off = irb_bin(b, IR_OP_MUL, p.off, ir_const(b->k, p.unit / unit));
        p.unit = (int)unit;
        return p;
    }
    if (unit % p.unit == 0) {
        ir_expr *q = try_div(b, p.off, unit / p.unit);
        if (q) {
            p.off = q;
            p.unit = (int)unit;
            return p;
        }
    }
    p.off = irb_bin(b, IR_OP_MUL, p.off, ir_const(b->k, p.unit));
    p.unit = 1;
    return p;
}

/* p advanced by i elements of elem bytes. */
static bptr advance(irb *b, bptr p, ir_expr *i, int64_t elem)
{
    if (elem <= 0)
        elem = 1;
    if (p.unit > 0 && elem % p.unit == 0) {
        p.off =
            irb_bin(b, IR_OP_ADD, p.off, irb_bin(b, IR_OP_MUL, i, ir_const(b->k, elem / p.unit)));
        return p;
    }
    p = ab_convert(b, p, 1);
    p.off = irb_bin(b, IR_OP_ADD, p.off, irb_bin(b, IR_OP_MUL, i, ir_const(b->k, elem)));
    return p;
}

blval ab_index(irb *b, const bptr *p, ir_expr *i, int elem_bytes, CXCursor at)
{
    blval lv = {0};
    int64_t E = elem_bytes > 0 ? elem_bytes : 1;
    lv.width = (int)E;
    lv.stride = (int)E;
    bptr q = *p;
    if (q.array == -1)
        q = unknown_ptr(b, at, "address that does not point into a known array");
    lv.array = q.array;
    if (q.unit == E) {
        lv.index = irb_bin(b, IR_OP_ADD, q.off, i);
        return lv;
    }
    if (q.unit > E && q.unit % E == 0) {
        lv.index =
            irb_bin(b, IR_OP_ADD, irb_bin(b, IR_OP_MUL, q.off, ir_const(b->k, q.unit / E)), i);
        return lv;
    }
    if (E % q.unit == 0) {
        ir_expr *d = try_div(b, q.off, E / q.unit);
        if (d) {
            lv.index = irb_bin(b, IR_OP_ADD, d, i);
            return lv;
        }
    }
    /* Byte addressing: index in bytes, stride 1. */
    lv.stride = 1;
    lv.index = irb_bin(b, IR_OP_ADD, irb_bin(b, IR_OP_MUL, q.off, ir_const(b->k, q.unit)),
                       irb_bin(b, IR_OP_MUL, i, ir_const(b->k, E)));
    return lv;
}

/* ---- arrays ------------------------------------------------------------------------ */

static CXType innermost(CXType t, int64_t dims[4], int *ndims)
{
    for (int guard = 0; guard < 8; guard++) {
        CXType c = clang_getCanonicalType(t);
        if (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray ||
            c.kind == CXType_VariableArray || c.kind == CXType_DependentSizedArray) {
            if (*ndims < 4) {
                long long n = c.kind == CXType_ConstantArray ? clang_getArraySize(c) : 0;
                dims[(*ndims)++] = n > 0 ? n : 0;
            }
            t = clang_getArrayElementType(c);
            continue;
        }
        return t;
    }
    return t;
}

/* dim_loc[]: the tokens between each pair of top-level brackets after the
 * declared name (`s[TILE][TILE + 1]`), end exclusive (the `]`). */
static void dim_locs(irb *b, CXCursor decl, const char *name, ir_array *a)
{
    if (clang_getCursorKind(decl) != CXCursor_VarDecl || a->ndims < 1)
        return;
    CXToken *tok = NULL;
    unsigned nt = 0;
    /* from the name: the extent may start inside a macro (__shared__) */
    CXSourceRange r = clang_getRange(clang_getCursorLocation(decl),
                                     clang_getRangeEnd(clang_getCursorExtent(decl)));
    clang_tokenize(b->tu, r, &tok, &nt);
    if (!tok)
        return;
    unsigned i = 0;
    for (; i < nt; i++) { /* the declared name */
        CXString sp = clang_getTokenSpelling(b->tu, tok[i]);
        bool hit =
            clang_getTokenKind(tok[i]) == CXToken_Identifier && !strcmp(clang_getCString(sp), name);
        clang_disposeString(sp);
        if (hit)
            break;
    }
    int d = 0;
    for (i++; i < nt && d < a->ndims && d < 4; i++) {
        CXString sp = clang_getTokenSpelling(b->tu, tok[i]);
        bool open = !strcmp(clang_getCString(sp), "[");
        clang_disposeString(sp);
        if (!open)
            break;
        unsigned j = i + 1, depth = 0;
        for (; j < nt; j++) {
            CXString q = clang_getTokenSpelling(b->tu, tok[j]);
            const char *qs = clang_getCString(q);
            bool close = !strcmp(qs, "]") && depth == 0;
            if (!strcmp(qs, "[") || !strcmp(qs, "("))
                depth++;
            else if ((!strcmp(qs, "]") || !strcmp(qs, ")")) && depth > 0)
                depth--;
            clang_disposeString(q);
            if (close)
                break;
        }
        if (j >= nt || j == i + 1)
            break;
        CXFile f0 = NULL, f1 = NULL;
        unsigned l0, c0, l1, c1;
        clang_getExpansionLocation(clang_getTokenLocation(b->tu, tok[i + 1]), &f0, &l0, &c0, NULL);
        clang_getExpansionLocation(clang_getTokenLocation(b->tu, tok[j]), &f1, &l1, &c1, NULL);
        if (f0 && f1 && clang_File_isEqual(f0, f1)) {
            ir_loc l = irb_loc(b, decl);
            a->dim_loc[d] = (ir_loc){l.file, l0, c0, l1, c1};
        }
        d++;
        i = j;
    }
    clang_disposeTokens(b->tu, tok, nt);
}

int ab_add_array(irb *b, CXCursor decl, const char *name, CXType t, hms_space space)
{
    ir_array a = {0};
    a.name = ir_strdup(b->k, name);
    a.space = space;
    a.base_array = -1;
    a.loc = irb_loc_name(b, decl);
    CXType elem = t;
    if (irb_is_ptr(t)) {
        CXType pt = clang_getPointeeType(clang_getCanonicalType(t));
        a.is_const = clang_isConstQualifiedType(pt);
        a.is_volatile = clang_isVolatileQualifiedType(pt);
        a.is_restrict = clang_isRestrictQualifiedType(t) ||
                        clang_isRestrictQualifiedType(clang_getCanonicalType(t));
        /* float (*a)[N]: rows of N, the outer extent unknown. */
        a.dims[0] = 0;
        a.ndims = irb_is_array(pt) ? 1 : 0;
        elem = innermost(pt, a.dims, &a.ndims);
        if (a.ndims == 1 && !irb_is_array(pt))
            a.ndims = 0;
    } else {
        elem = innermost(t, a.dims, &a.ndims);
        /* Qualifiers of an array's elements may sit on the array type itself. */
        char full[256];
        irb_type_spelling(t, full, sizeof full);
        a.is_const = clang_isConstQualifiedType(elem) || !strncmp(full, "const ", 6);
        a.is_volatile = clang_isVolatileQualifiedType(elem) || strstr(full, "volatile ") != NULL;
    }
    char ts[128];
    irb_type_spelling(clang_getUnqualifiedType(elem), ts, sizeof ts);
    a.elem_type = ir_strdup(b->k, ts);
    int64_t sz = irb_sizeof(elem);
    if (sz <= 0) {
        char why[256];
        snprintf(why, sizeof why, "size of the element type '%s' of '%s' is not known", ts, name);
        irb_limit(b, why, NULL, a.loc);
        sz = 1;
    }
    a.elem_bytes = (int)sz;
    if (space == HMS_SPACE_SHARED && a.ndims >= 1 && a.dims[0] == 0 &&
        clang_getCanonicalType(t).kind == CXType_IncompleteArray) {
        a.is_extern_shared = true;
        /* Every extern __shared__ array is the same dynamic allocation. */
        if (b->extern_shared >= 0)
            a.base_array = b->extern_shared;
    }
    if (!irb_is_ptr(t))
        dim_locs(b, decl, name, &a);
    int id = ir_add_array(b->k, &a);
    if (a.is_extern_shared && b->extern_shared < 0)
        b->extern_shared = id;
    return id;
}

static bool is_texture_type(CXType t, CXType *elem)
{
    CXType c = clang_getCanonicalType(t);
    char s[160];
    irb_type_spelling(c, s, sizeof s);
    if (strncmp(s, "texture<", 8) && strncmp(s, "struct texture<", 15))
        return false;
    if (clang_Type_getNumTemplateArguments(c) >= 1)
        *elem = clang_Type_getTemplateArgumentAsType(c, 0);
    else
        elem->kind = CXType_Invalid;
    return true;
}

static bool is_surface_type(CXType t)
{
    char s[160];
    irb_type_spelling(clang_getCanonicalType(t), s, sizeof s);
    return !strncmp(s, "surface<", 8) || !strncmp(s, "struct surface<", 15);
}

int ab_array_for_decl(irb *b, CXCursor decl)
{
    for (size_t i = 0; i < b->nglobals; i++)
        if (clang_equalCursors(b->globals[i].decl, decl))
            return b->globals[i].array;
    char name[128];
    irb_spelling(decl, name, sizeof name);
    CXType t = clang_getCursorType(decl), elem;
    int id = -1;
    if (is_texture_type(t, &elem)) {
        id = ab_add_array(b, decl, name, elem.kind != CXType_Invalid ? elem : t, HMS_SPACE_TEXTURE);
    } else if (is_surface_type(t)) {
        /* surface<void, N>: addressed in bytes (ir_build_surface.c) */
        id = ab_add_surface(b, name, irb_loc_name(b, decl));
    } else if (irb_has_attr(decl, CXCursor_CUDASharedAttr)) {
        id = ab_add_array(b, decl, name, t, HMS_SPACE_SHARED);
    } else if (irb_has_attr(decl, CXCursor_CUDAConstantAttr)) {
        id = ab_add_array(b, decl, name, t, HMS_SPACE_CONSTANT);
    } else if (irb_has_attr(decl, CXCursor_CUDADeviceAttr) &&
               clang_getCursorKind(decl) == CXCursor_VarDecl) {
        id = ab_add_array(b, decl, name, t, HMS_SPACE_GLOBAL);
    }
    if (id < 0)
        return -1;
    if (b->nglobals == b->capglobals) {
        b->capglobals = b->capglobals ? b->capglobals * 2 : 16;
        global_array *v = realloc(b->globals, b->capglobals * sizeof *v);
        if (!v)
            hms_out_of_memory();
        b->globals = v;
    }
    b->globals[b->nglobals++] = (global_array){decl, id};
    return id;
}

int64_t ab_static_shared_bytes(irb *b)
{
    int64_t total = 0;
    for (size_t i = 0; i < b->k->narrays; i++) {
        const ir_array *a = &b->k->arrays[i];
        if (a->space != HMS_SPACE_SHARED || a->is_extern_shared)
            continue;
        int64_t n = a->elem_bytes;
        for (int d = 0; d < a->ndims; d++)
            n *= a->dims[d] > 0 ? a->dims[d] : 1;
        total += n;
    }
    return total;
}

/* ---- what an expression points at ------------------------------------------------ */

static CXCursor last_expr_child(CXCursor c)
{
    cursor_list l;
    irb_children(c, &l);
    CXCursor x = clang_getNullCursor();
    for (unsigned i = 0; i < l.n; i++)
        if (clang_isExpression(clang_getCursorKind(l.v[i])))
            x = l.v[i];
    irb_list_free(&l);
    return x;
}

/* Element unit for a pointer- or array-typed expression. */
static int64_t unit_of(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    CXType pt = c.kind == CXType_Pointer ? clang_getPointeeType(c) : clang_getArrayElementType(c);
    int64_t dims[4];
    int nd = 0;
    CXType e = innermost(pt, dims, &nd);
    return irb_sizeof(e);
}

static bool decl_pointer(irb *b, CXCursor ref, bptr *out)
{
    CXCursor decl = clang_getCursorReferenced(ref);
    if (clang_Cursor_isNull(decl)) {
        *out = unknown_ptr(b, ref, "unresolved name");
        return true;
    }
    size_t i = bind_find(b, decl);
    if (i != SIZE_MAX) {
        binding *x = &b->binds[i];
        if (x->kind == BIND_PTR) {
            *out = x->ptr;
            return true;
        }
        if (x->kind == BIND_ARRAY) {
            *out = (bptr){x->ptr.array, ir_const(b->k, 0),
                          x->ptr.array >= 0 ? b->k->arrays[x->ptr.array].elem_bytes : 1};
            return true;
        }
        if (x->kind == BIND_MEMREF) { /* a reference to a pointer held in memory */
            ab_emit(b, ref, &x->mem, HMS_ACCESS_LOAD, false);
            *out = unknown_ptr(b, ref, "pointer loaded from memory");
            return true;
        }
        *out = register_ptr(b); /* address of a local scalar or struct value */
        return true;
    }
    int a = ab_array_for_decl(b, decl);
    if (a >= 0) {
        *out = (bptr){a, ir_const(b->k, 0), b->k->arrays[a].elem_bytes};
        return true;
    }
    if (clang_getCursorKind(decl) == CXCursor_FunctionDecl) {
        *out = no_ptr(b);
        return true;
    }
    *out = unknown_ptr(b, ref, "address of something that is not a known array");
    return true;
}

static bool addr_of_lvalue(irb *b, CXCursor c, CXCursor operand, bptr *out)
{
    CXCursor s = hms_cursor_strip(operand);
    CXType st = clang_getCursorType(s);
    if (clang_getCursorKind(s) == CXCursor_DeclRefExpr && !ab_is_memory(b, s))
        return ab_pointer(b, s, out) || true; /* &array, or & of a local */
    if (irb_is_array(st) && clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return ab_pointer(b, s, out); /* &s[i] where s[i] is a row */
    blval lv;
    if (!ab_is_memory(b, s)) { /* &v.x, &r.payload[k] of a register value */
        xb_effects(b, operand);
        *out = register_ptr(b);
        return true;
    }
    if (!ab_lvalue(b, s, &lv)) {
        xb_effects(b, operand);
        *out = no_ptr(b);
        return true;
    }
    if (lv.index2) {
        *out = unknown_ptr(b, c, "address of a texel");
        return true;
    }
    bptr p = {lv.array, lv.index, lv.stride};
    if (lv.field) {
        p = ab_convert(b, p, 1);
        p.off = irb_bin(b, IR_OP_ADD, p.off, ir_const(b->k, lv.field));
    }
    int64_t u = unit_of(clang_getCursorType(c));
    *out = u > 0 ? ab_convert(b, p, u) : p;
    return true;
}

bool ab_pointer(irb *b, CXCursor c, bptr *out)
{
    *out = no_ptr(b);
    if (clang_Cursor_isNull(c) || !irb_budget(b, c))
        return false;
    CXType t = clang_getCursorType(c);
    int64_t unit = unit_of(t);
    enum CXCursorKind kind = clang_getCursorKind(c);
    switch (kind) {
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CXXConstCastExpr:
    case CXCursor_CXXFunctionalCastExpr: {
        CXCursor x = last_expr_child(c);
        if (clang_Cursor_isNull(x)) {
            int64_t v;
            if (irb_eval_int(c, &v) && v == 0)
                return true; /* null */
            *out = unknown_ptr(b, c, "address not understood");
            return true;
        }
        CXType xt = clang_getCursorType(x);
        if (!irb_is_ptr(xt) && !irb_is_array(xt)) {
            if (clang_getCursorKind(hms_cursor_strip(x)) == CXCursor_CallExpr ||
                clang_getCanonicalType(xt).kind == CXType_Record) {
                /* conversion operator (SharedMemory<T> -> T*) */
                return ab_pointer(b, hms_cursor_strip(x), out);
            }
            int64_t v;
            if (irb_eval_int(x, &v) && v == 0)
                return true;
            xb_effects(b, x);
            *out = unknown_ptr(b, c, "integer converted to an address");
            return true;
        }
        if (!ab_pointer(b, x, out))
            return false;
        if (out->array >= 0 && unit > 0)
            *out = ab_convert(b, *out, unit);
        return true;
    }
    case CXCursor_DeclRefExpr:
        return decl_pointer(b, c, out);
    case CXCursor_MemberRefExpr: {
        size_t fi;
        if (sb_field_binding(b, c, &fi)) {
            *out = b->binds[fi].kind == BIND_PTR ? b->binds[fi].ptr : no_ptr(b);
            return true;
        }
        if (irb_is_array(t) && ab_is_memory(b, c)) { /* array member inside memory */
            blval lv;
            if (ab_lvalue(b, c, &lv)) {
                bptr p = ab_convert(b, (bptr){lv.array, lv.index, lv.stride}, 1);
                p.off = irb_bin(b, IR_OP_ADD, p.off, ir_const(b->k, lv.field));
                *out = unit > 0 ? ab_convert(b, p, unit) : p;
                return true;
            }
        }
        if (ab_is_memory(b, c)) {
            blval lv;
            if (ab_lvalue(b, c, &lv))
                ab_emit(b, c, &lv, HMS_ACCESS_LOAD, false);
            *out = unknown_ptr(b, c, "pointer loaded from memory");
            return true;
        }
        xb_effects_children(b, c);
        if (irb_is_array(t)) { /* an array member of a value: registers */
            *out = register_ptr(b);
            return true;
        }
        *out = unknown_ptr(b, c, "pointer held in a struct value that is not followed");
        return true;
    }
    case CXCursor_CXXThisExpr:
        *out = ab_this(b, c);
        return true;
    case CXCursor_ArraySubscriptExpr: {
        if (irb_is_array(t)) { /* a row: base + i * row size */
            CXCursor base, idx;
            if (!hms_cursor_two_children(c, &base, &idx))
                return false;
            bptr p;
            ab_pointer(b, base, &p);
            ir_expr *i = xb_value(b, idx).e;
            *out = advance(b, p, i, irb_sizeof(t));
            return true;
        }
        blval lv;
        if (ab_lvalue(b, c, &lv))
            ab_emit(b, c, &lv, HMS_ACCESS_LOAD, false);
        *out = unknown_ptr(b, c, "pointer loaded from memory");
        return true;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(c);
        CXCursor x = last_expr_child(c);
        if (u == CXUnaryOperator_AddrOf)
            return addr_of_lvalue(b, c, x, out);
        if (u == CXUnaryOperator_Deref) {
            if (irb_is_array(t)) /* *a where a is float (*)[N] */
                return ab_pointer(b, x, out);
            blval lv;
            if (ab_lvalue(b, c, &lv))
                ab_emit(b, c, &lv, HMS_ACCESS_LOAD, false);
            *out = unknown_ptr(b, c, "pointer loaded from memory");
            return true;
        }
        if (u == CXUnaryOperator_PreInc || u == CXUnaryOperator_PreDec ||
            u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PostDec) {
            bptr before;
            ab_pointer(b, x, &before);
            xb_effects(b, c);
            if (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PostDec)
                *out = before;
            else
                ab_pointer(b, x, out);
            return true;
        }
        return ab_pointer(b, x, out);
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        CXCursor x, y;
        if (!hms_cursor_two_children(c, &x, &y))
            return false;
        enum CXBinaryOperatorKind bk = clang_getCursorBinaryOperatorKind(c);
        if (kind == CXCursor_CompoundAssignOperator || bk == CXBinaryOperator_Assign) {
            xb_effects(b, c);
            return ab_pointer(b, x, out);
        }
        if (bk == CXBinaryOperator_Comma) {
            xb_effects(b, x);
            return ab_pointer(b, y, out);
        }
        if (bk == CXBinaryOperator_Add || bk == CXBinaryOperator_Sub) {
            CXType tx = clang_getCursorType(x);
            bool px = irb_is_ptr(tx) || irb_is_array(tx);
            CXCursor pc = px ? x : y, ic = px ? y : x;
            bptr p;
            ab_pointer(b, pc, &p);
            ir_expr *i = xb_value(b, ic).e;
            if (bk == CXBinaryOperator_Sub)
                i = irb_bin(b, IR_OP_SUB, ir_const(b->k, 0), i);
            CXType pt = clang_getCursorType(pc);
            CXType pointee = clang_getCanonicalType(pt).kind == CXType_Pointer
                                 ? clang_getPointeeType(clang_getCanonicalType(pt))
                                 : clang_getArrayElementType(clang_getCanonicalType(pt));
            *out = p.array >= 0 ? advance(b, p, i, irb_sizeof(pointee)) : p;
            return true;
        }
        xb_effects(b, c);
        *out = unknown_ptr(b, c, "address arithmetic not understood");
        return true;
    }
    case CXCursor_ConditionalOperator: {
        cursor_list l;
        irb_children(c, &l);
        if (l.n != 3) {
            irb_list_free(&l);
            *out = unknown_ptr(b, c, "address not understood");
            return true;
        }
        ir_expr *ce = xb_value(b, l.v[0]).e;
        bptr p, q;
        ab_pointer(b, l.v[1], &p);
        ab_pointer(b, l.v[2], &q);
        irb_list_free(&l);
        int64_t cv;
        if (irb_const_of(ce, &cv)) {
            *out = cv ? p : q;
            return true;
        }
        if ((p.array >= 0 || p.array == IRB_REGISTERS) && p.array == q.array) {
            if (p.unit != q.unit)
                p = ab_convert(b, p, 1), q = ab_convert(b, q, 1);
            *out = (bptr){p.array, ir_select(b->k, ce, p.off, q.off), p.unit};
            return true;
        }
        *out = unknown_ptr(b, c, "address chosen between different arrays");
        return true;
    }
    case CXCursor_CallExpr: {
        CXCursor callee = irb_callee(c);
        char fname[64];
        irb_spelling(c, fname, sizeof fname);
        if (!strcmp(fname, "__builtin_assume_aligned") && clang_Cursor_getNumArguments(c) >= 1) {
            /* returns its argument: only a promise about the alignment */
            for (int i = 1; i < clang_Cursor_getNumArguments(c); i++)
                xb_effects(b, clang_Cursor_getArgument(c, (unsigned)i));
            if (!ab_pointer(b, clang_Cursor_getArgument(c, 0), out))
                return false;
            if (out->array >= 0 && unit > 0)
                *out = ab_convert(b, *out, unit);
            return true;
        }
        if (!clang_Cursor_isNull(callee)) {
            CXCursor def = clang_getCursorDefinition(callee);
            if (!clang_Cursor_isNull(def) && !hms_cursor_in_builtin_header(callee)) {
                bval v;
                if (sb_inline_call(b, c, def, &v, out)) {
                    if (out->array >= 0 && unit > 0)
                        *out = ab_convert(b, *out, unit);
                    else if (out->array < 0)
                        *out = unknown_ptr(b, c, "pointer returned by a function not followed");
                    return true;
                }
            }
        }
        xb_effects_children(b, c);
        *out = unknown_ptr(b, c, "pointer returned by a call");
        return true;
    }
    case CXCursor_CXXNullPtrLiteralExpr:
    case CXCursor_GNUNullExpr:
    case CXCursor_IntegerLiteral:
        return true;
    case CXCursor_StringLiteral:
        return true;
    default:
        xb_effects_children(b, c);
        *out = unknown_ptr(b, c, "address not understood");
        return true;
    }
}

/* ---- memory lvalues ------------------------------------------------------------------ */

static CXCursor strip_parens(CXCursor c)
{
    while (clang_getCursorKind(c) == CXCursor_ParenExpr) {
        CXCursor x = last_expr_child(c);
        if (clang_Cursor_isNull(x))
            break;
        c = x;
    }
    return c;
}

static bool is_builtin_dim(CXCursor member)
{
    CXCursor base = last_expr_child(member);
    base = hms_cursor_strip(base);
    if (clang_getCursorKind(base) != CXCursor_DeclRefExpr)
        return false;
    char n[32];
    irb_spelling(base, n, sizeof n);
    return (!strcmp(n, "threadIdx") || !strcmp(n, "blockIdx") || !strcmp(n, "blockDim") ||
            !strcmp(n, "gridDim")) &&
           hms_cursor_in_builtin_header(clang_getCursorReferenced(base));
}

/* The innermost inlined frame that is a method or constructor. */
static const inline_frame *method_frame(irb *b)
{
    for (int i = b->nframes - 1; i > 0; i--)
        if (b->frames[i].has_this)
            return &b->frames[i];
    return NULL;
}

bptr ab_this(irb *b, CXCursor at)
{
    const inline_frame *f = method_frame(b);
    if (f)
        return f->this_ptr;
    return unknown_ptr(b, at, "'this' of a method that is not inlined");
}

static bool this_is_memory(irb *b)
{
    const inline_frame *f = method_frame(b);
    return f && f->this_ptr.array != IRB_REGISTERS;
}

bptr ab_object_address(irb *b, CXCursor obj)
{
    CXCursor s = hms_cursor_strip(obj);
    if (clang_Cursor_isNull(s) || clang_getCursorKind(s) == CXCursor_CXXThisExpr)
        return ab_this(b, obj);
    bptr p;
    if (irb_is_ptr(clang_getCursorType(s))) { /* p->f() */
        ab_pointer(b, s, &p);
        return p;
    }
    if (!ab_is_memory(b, s)) { /* a value: evaluate it, the method works on registers */
        xb_effects(b, s);
        return register_ptr(b);
    }
    blval lv;
    if (!ab_lvalue(b, s, &lv) || lv.index2)
        return unknown_ptr(b, obj, "object of a method call not understood");
    p = ab_convert(b, (bptr){lv.array, lv.index, lv.stride}, 1);
    p.off = irb_bin(b, IR_OP_ADD, p.off, ir_const(b->k, lv.field));
    return p;
}

bool ab_is_memory(irb *b, CXCursor c)
{
    c = hms_cursor_strip(c);
    CXType t = clang_getCursorType(c);
    switch (clang_getCursorKind(c)) {
    case CXCursor_ArraySubscriptExpr: {
        if (irb_is_array(t))
            return false;
        /* An array member of a struct held in registers (a local variable
         * or a by-value parameter: a WMMA fragment's x[]) is not memory. */
        CXCursor base, idx;
        if (hms_cursor_two_children(c, &base, &idx)) {
            CXCursor m = hms_cursor_strip(base);
            if (clang_getCursorKind(m) == CXCursor_MemberRefExpr &&
                irb_is_array(clang_getCursorType(m)) && !clang_Cursor_isNull(last_expr_child(m)) &&
                !ab_is_memory(b, m))
                return false;
        }
        return true;
    }
    case CXCursor_UnaryOperator:
        return clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref && !irb_is_array(t) &&
               clang_getCanonicalType(t).kind != CXType_FunctionProto;
    case CXCursor_MemberRefExpr: {
        if (is_builtin_dim(c))
            return false;
        size_t fi;
        if (sb_field_binding(b, c, &fi))
            return false;
        CXCursor base = last_expr_child(c);
        if (clang_Cursor_isNull(base) ||
            clang_getCursorKind(hms_cursor_strip(base)) == CXCursor_CXXThisExpr)
            return this_is_memory(b); /* this->member */
        if (irb_is_ptr(clang_getCursorType(base)))
            return true;
        return ab_is_memory(b, base);
    }
    case CXCursor_DeclRefExpr: {
        CXCursor decl = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(decl))
            return false;
        size_t i = bind_find(b, decl);
        if (i != SIZE_MAX) {
            binding *x = &b->binds[i];
            if (x->kind == BIND_MEMREF)
                return true;
            return x->kind == BIND_ARRAY && !irb_is_array(t) && x->ptr.array >= 0 &&
                   b->k->arrays[x->ptr.array].space != HMS_SPACE_TEXTURE;
        }
        if (clang_getCursorKind(decl) != CXCursor_VarDecl || irb_is_array(t))
            return false;
        CXType dummy;
        if (is_texture_type(t, &dummy))
            return false;
        return irb_has_attr(decl, CXCursor_CUDASharedAttr) ||
               irb_has_attr(decl, CXCursor_CUDAConstantAttr) ||
               irb_has_attr(decl, CXCursor_CUDADeviceAttr);
    }
    default:
        return false;
    }
}

bool ab_lvalue(irb *b, CXCursor c, blval *out)
{
    memset(out, 0, sizeof *out);
    c = hms_cursor_strip(c);
    CXType t = clang_getCursorType(c);
    int64_t E = irb_sizeof(t);
    switch (clang_getCursorKind(c)) {
    case CXCursor_ArraySubscriptExpr: {
        CXCursor base, idx;
        if (!hms_cursor_two_children(c, &base, &idx))
            return false;
        CXType bt = clang_getCursorType(base);
        if (!irb_is_ptr(bt) && !irb_is_array(bt)) { /* i[a] */
            CXCursor s = base;
            base = idx, idx = s;
        }
        bptr p;
        ab_pointer(b, base, &p);
        ir_expr *i = xb_value(b, idx).e;
        *out = ab_index(b, &p, i, (int)E, c);
        return true;
    }
    case CXCursor_UnaryOperator: {
        bptr p;
        ab_pointer(b, last_expr_child(c), &p);
        *out = ab_index(b, &p, ir_const(b->k, 0), (int)E, c);
        return true;
    }
    case CXCursor_MemberRefExpr: {
        CXCursor field = clang_getCursorReferenced(c);
        long long bits = clang_Cursor_getOffsetOfField(field);
        CXCursor base = last_expr_child(c);
        if (clang_Cursor_isNull(base)) { /* implicit this->member */
            bptr p = ab_this(b, c);
            CXType rec = clang_getCursorType(clang_getCursorSemanticParent(field));
            *out = ab_index(b, &p, ir_const(b->k, 0), (int)irb_sizeof(rec), c);
        } else if (irb_is_ptr(clang_getCursorType(base))) {
            CXType bt = clang_getCursorType(base);
            bptr p;
            ab_pointer(b, base, &p);
            *out = ab_index(b, &p, ir_const(b->k, 0),
                            (int)irb_sizeof(clang_getPointeeType(clang_getCanonicalType(bt))), c);
        } else if (!ab_lvalue(b, base, out)) {
            return false;
        }
        if (bits > 0)
            out->field += bits / 8;
        out->width = E > 0 ? (int)E : out->width;
        return true;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor decl = clang_getCursorReferenced(c);
        size_t i = bind_find(b, decl);
        if (i != SIZE_MAX && b->binds[i].kind == BIND_MEMREF) {
            *out = b->binds[i].mem;
            return true;
        }
        int a = i != SIZE_MAX && b->binds[i].kind == BIND_ARRAY ? b->binds[i].ptr.array
                                                                : ab_array_for_decl(b, decl);
        if (a < 0)
            return false;
        bptr p = {a, ir_const(b->k, 0), b->k->arrays[a].elem_bytes};
        *out = ab_index(b, &p, ir_const(b->k, 0), (int)E, c);
        return true;
    }
    default:
        return false;
    }
}

/* Widths one memory instruction moves per lane. */
static bool instruction_width(int w)
{
    return w == 1 || w == 2 || w == 4 || w == 8 || w == 16;
}

/* The piece width of a copy of `width` bytes of the type of `at`: the widest
 * instruction the type's alignment allows (at most 16 bytes) that divides
 * the width. */
static int piece_width(CXCursor at, int width)
{
    long long align = clang_Type_getAlignOf(clang_getCursorType(at));
    int p = width & -width; /* lowest set bit */
    if (p > 16)
        p = 16;
    while (align > 0 && p > align)
        p /= 2;
    return p > 0 ? p : 1;
}

/* The most pieces a copy is modelled with; a larger struct copy is cut. */
#define MAX_COPY_PIECES 64

static int emit_one(irb *b, CXCursor at, const blval *lv, hms_access_kind kind, bool ldg);

int ab_emit(irb *b, CXCursor at, const blval *lv, hms_access_kind kind, bool ldg)
{
    if (lv->array == IRB_REGISTERS)
        return -1; /* a register value: no memory access */
    if (lv->width <= 0 || instruction_width(lv->width))
        return emit_one(b, at, lv, kind, ldg);
    /* A whole-struct copy (curandState, float3, a 48-byte record) is no one
     * instruction: the compiler moves it in pieces as wide as the type's
     * alignment allows, each lane its own bytes. One site per piece. */
    int w = piece_width(at, lv->width);
    int n = lv->width / w;
    if (n > MAX_COPY_PIECES) {
        char why[160];
        snprintf(why, sizeof why,
                 "copy of %d bytes per thread modelled by its first %d pieces of %d bytes",
                 lv->width, MAX_COPY_PIECES, w);
        irb_limit(b, why, NULL, irb_loc(b, at));
        n = MAX_COPY_PIECES;
    }
    int first = -1;
    for (int i = 0; i < n; i++) {
        blval piece = *lv;
        piece.width = w;
        piece.field = lv->field + (int64_t)i * w;
        int site = emit_one(b, at, &piece, kind, ldg);
        if (first < 0)
            first = site;
    }
    return first;
}

static int emit_one(irb *b, CXCursor at, const blval *lv, hms_access_kind kind, bool ldg)
{
    ir_kernel *k = b->k;
    char text[160];
    irb_text(b, strip_parens(at), text, sizeof text);
    ir_access a = {0};
    a.array = lv->array >= 0 ? lv->array : ab_unknown_array(b);
    a.kind = kind;
    a.via_ldg = ldg;
    a.width = lv->width > 0 ? lv->width : 1;
    a.index = lv->index ? lv->index : ir_const(k, 0);
    a.elem_stride = lv->stride > 0 ? lv->stride : a.width;
    a.field_offset = lv->field;
    a.index2 = lv->index2;
    a.mapping = -1;
    a.text = ir_strdup(k, text);
    ir_loc loc = irb_loc(b, strip_parens(at));
    ir_stmt *s = ir_access_new(k, &a, loc);
    sb_append(b, s);
    ir_array *arr = &k->arrays[a.array];
    if (kind == HMS_ACCESS_LOAD)
        arr->read = true;
    else if (kind == HMS_ACCESS_STORE)
        arr->written = true;
    else
        arr->atomic = arr->read = arr->written = true;
    if (ldg)
        arr->via_ldg = true;
    char what[200];
    snprintf(what, sizeof what, "address of %s", text[0] ? text : "an access");
    note_unknowns_at(b, a.index, what, loc);
    if (a.index2)
        note_unknowns_at(b, a.index2, what, loc);
    return s->access.id;
}

/* ---- intrinsics --------------------------------------------------------------------- */

static bool starts(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

bool ab_atomic(irb *b, CXCursor call, bval *out)
{
    char name[64];
    irb_spelling(call, name, sizeof name);
    static const char *const ops[] = {"atomicAdd", "atomicSub", "atomicExch", "atomicMin",
                                      "atomicMax", "atomicInc", "atomicDec",  "atomicCAS",
                                      "atomicAnd", "atomicOr",  "atomicXor",  NULL};
    bool hit = false;
    for (int i = 0; ops[i] && !hit; i++) {
        size_t n = strlen(ops[i]);
        hit = !strncmp(name, ops[i], n) &&
              (!name[n] || !strcmp(name + n, "_block") || !strcmp(name + n, "_system"));
    }
    if (!hit || clang_Cursor_getNumArguments(call) < 1)
        return false;
    CXCursor addr = clang_Cursor_getArgument(call, 0);
    bptr p;
    ab_pointer(b, addr, &p);
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 1; i < n; i++)
        xb_effects(b, clang_Cursor_getArgument(call, (unsigned)i));
    CXType pt = clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(addr)));
    blval lv = ab_index(b, &p, ir_const(b->k, 0), (int)irb_sizeof(pt), call);
    int site = ab_emit(b, call, &lv, HMS_ACCESS_ATOMIC, false);
    *out = (bval){xb_unknown(b, call, "value returned by %s", name), site};
    out->load_site = -1;
    return true;
}

bool ab_ldg(irb *b, CXCursor call, const char *name, bval *out)
{
    static const char *const loads[] = {"__ldg",  "__ldca", "__ldcg", "__ldcs",
                                        "__ldlu", "__ldcv", NULL};
    static const char *const stores[] = {"__stcg", "__stcs", "__stwb", "__stwt", NULL};
    bool load = false, store = false;
    for (int i = 0; loads[i]; i++)
        load |= !strcmp(name, loads[i]);
    for (int i = 0; stores[i]; i++)
        store |= !strcmp(name, stores[i]);
    if ((!load && !store) || clang_Cursor_getNumArguments(call) < 1)
        return false;
    CXCursor addr = clang_Cursor_getArgument(call, 0);
    bptr p;
    ab_pointer(b, addr, &p);
    if (store && clang_Cursor_getNumArguments(call) >= 2)
        xb_effects(b, clang_Cursor_getArgument(call, 1));
    CXType pt = clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(addr)));
    blval lv = ab_index(b, &p, ir_const(b->k, 0), (int)irb_sizeof(pt), call);
    int site =
        ab_emit(b, call, &lv, store ? HMS_ACCESS_STORE : HMS_ACCESS_LOAD, !strcmp(name, "__ldg"));
    char t[96];
    irb_text(b, call, t, sizeof t);
    *out = (bval){xb_unknown(b, call, "value loaded from memory: %s", t), store ? -1 : site};
    return true;
}

/* An integer texel coordinate from a float expression written as (float)i,
 * i + 0.5f or similar; otherwise an unknown. */
static ir_expr *coord(irb *b, CXCursor c)
{
    if (irb_is_int(clang_getCursorType(c)))
        return xb_value(b, c).e;
    CXCursor s = c;
    while (clang_getCursorKind(s) == CXCursor_ParenExpr)
        s = last_expr_child(s);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_UnexposedExpr || k == CXCursor_CStyleCastExpr ||
        k == CXCursor_CXXStaticCastExpr || k == CXCursor_CXXFunctionalCastExpr) {
        CXCursor x = last_expr_child(s);
        if (!clang_Cursor_isNull(x))
            return coord(b, x);
    }
    if (k == CXCursor_BinaryOperator &&
        (clang_getCursorBinaryOperatorKind(s) == CXBinaryOperator_Add ||
         clang_getCursorBinaryOperatorKind(s) == CXBinaryOperator_Sub)) {
        CXCursor x, y;
        if (hms_cursor_two_children(s, &x, &y)) {
            /* i + 0.5f samples texel i (unnormalised coordinates, point filtering). */
            if (clang_getCursorKind(hms_cursor_strip(y)) == CXCursor_FloatingLiteral)
                return coord(b, x);
            if (clang_getCursorKind(hms_cursor_strip(x)) == CXCursor_FloatingLiteral &&
                clang_getCursorBinaryOperatorKind(s) == CXBinaryOperator_Add)
                return coord(b, y);
        }
    }
    return xb_value(b, c).e;
}

bool ab_texture_fetch(irb *b, CXCursor call, const char *name, bval *out)
{
    if (!starts(name, "tex") || starts(name, "texture"))
        return false;
    int dims = starts(name, "tex1D")   ? 1
               : starts(name, "tex2D") ? 2
               : starts(name, "tex3D") ? 3
                                       : 0;
    if (!dims && starts(name, "texCubemap"))
        dims = 3;
    if (!dims)
        return false;
    int n = clang_Cursor_getNumArguments(call);
    int first = 0;
    CXType rt = clang_getCursorType(call);
    if (n >= 1 && irb_is_ptr(clang_getCursorType(clang_Cursor_getArgument(call, 0)))) {
        rt = clang_getPointeeType(
            clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, 0))));
        first = 1; /* tex1Dfetch(&ret, obj, i) */
    }
    if (n < first + 2)
        return false;
    CXCursor tex = hms_cursor_strip(clang_Cursor_getArgument(call, (unsigned)first));
    for (int guard = 0; guard < 4 && clang_getCursorKind(tex) == CXCursor_CallExpr; guard++) {
        /* texture<> passed by value: a copy constructor around the reference */
        CXCursor ctor = clang_getCursorReferenced(tex);
        CXCursor inner = last_expr_child(tex);
        if (clang_getCursorKind(ctor) != CXCursor_Constructor || clang_Cursor_isNull(inner))
            break;
        tex = hms_cursor_strip(inner);
    }
    int arr = -1;
    if (clang_getCursorKind(tex) == CXCursor_DeclRefExpr) {
        CXCursor decl = clang_getCursorReferenced(tex);
        size_t i = bind_find(b, decl);
        if (i != SIZE_MAX && b->binds[i].kind == BIND_ARRAY)
            arr = b->binds[i].ptr.array;
        else if (i == SIZE_MAX)
            arr = ab_array_for_decl(b, decl);
    }
    if (arr < 0) {
        char t[96], why[200];
        irb_text(b, tex, t, sizeof t);
        snprintf(why, sizeof why, "texture '%s' is not a texture reference or parameter we follow",
                 t);
        irb_limit(b, why, NULL, irb_loc(b, call));
        arr = ab_unknown_array(b);
    }
    ir_array *a = &b->k->arrays[arr];
    int64_t w = irb_sizeof(rt);
    if (w <= 0)
        w = 4;
    if (a->space == HMS_SPACE_TEXTURE && (a->elem_bytes <= 1 || !strcmp(a->elem_type, "?"))) {
        /* a texture object: its texel type is what the fetch returns */
        char ts[128];
        irb_type_spelling(clang_getUnqualifiedType(rt), ts, sizeof ts);
        a->elem_type = ir_strdup(b->k, ts);
        a->elem_bytes = (int)w;
    }
    if (a->space == HMS_SPACE_TEXTURE && dims > a->tex_dims)
        a->tex_dims = dims > 2 ? 2 : dims;
    blval lv = {0};
    lv.array = arr;
    lv.width = (int)w;
    lv.stride = (int)w;
    lv.index = coord(b, clang_Cursor_getArgument(call, (unsigned)first + 1));
    if (dims >= 2 && n >= first + 3)
        lv.index2 = coord(b, clang_Cursor_getArgument(call, (unsigned)first + 2));
    for (int i = first + 1 + (dims >= 2 ? 2 : 1); i < n; i++)
        xb_effects(b, clang_Cursor_getArgument(call, (unsigned)i));
    if (dims == 3)
        irb_limit(b, "3D and cubemap texture fetches are modelled by their x and y only", NULL,
                  irb_loc(b, call));
    int site = ab_emit(b, call, &lv, HMS_ACCESS_LOAD, false);
    /* coord() and ab_emit() may add arrays (and move b->k->arrays): re-fetch */
    *out = (bval){xb_unknown(b, call, "value fetched from texture '%s'", b->k->arrays[arr].name),
                  site};
    return true;
}

bptr ab_carve(irb *b, CXCursor decl, const char *name, CXType ptr_type, bptr p)
{
    int64_t off;
    if (p.array < 0 || !irb_const_of(p.off, &off))
        return p;
    const ir_array *src = &b->k->arrays[p.array];
    if (src->space != HMS_SPACE_SHARED || !src->is_extern_shared)
        return p;
    int root = src->base_array >= 0 ? src->base_array : p.array;
    int64_t bytes = src->base_offset + off * p.unit;
    int id = ab_add_array(b, decl, name, ptr_type, HMS_SPACE_SHARED);
    ir_array *a = &b->k->arrays[id];
    a->is_extern_shared = true;
    a->ndims = 1;
    a->dims[0] = 0;
    a->base_array = root;
    a->base_offset = bytes;
    return (bptr){id, ir_const(b->k, 0), a->elem_bytes};
}
