/* Surface reads and writes (surf1Dread, surf2Dwrite, surf2DLayeredwrite,
 * ...): accesses of the surface's memory through the texture path. A
 * surface's x coordinate is in bytes and y in rows, so the surface is an
 * array of bytes addressed like a pitch-linear 2D texture (index = x,
 * index2 = y); each access moves sizeof(T) bytes per lane. Reads are
 * texture-path loads; writes are stores (the trace records them as global
 * stores: surface writes are not cached in L1). Layer, depth and cubemap
 * face coordinates are not modelled (a limit says so). */
#include <stdio.h>
#include <string.h>

#include "analyzer/frontend/ir_build_impl.h"

/* What a surface function's name says: dimensions, layered/cubemap, write. */
typedef struct {
    int dims;   /* 1, 2 or 3 */
    bool extra; /* a layer or face coordinate after x (and y) */
    bool write;
} surf_kind;

static bool parse_name(const char *name, surf_kind *out)
{
    static const struct {
        const char *prefix;
        int dims;
        bool extra;
    } forms[] = {
        {"surf1DLayered", 1, true}, {"surf2DLayered", 2, true}, {"surfCubemapLayered", 2, true},
        {"surfCubemap", 2, true},   {"surf1D", 1, false},       {"surf2D", 2, false},
        {"surf3D", 3, false},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        size_t n = strlen(forms[i].prefix);
        if (strncmp(name, forms[i].prefix, n))
            continue;
        const char *rest = name + n;
        if (strcmp(rest, "read") && strcmp(rest, "write"))
            return false;
        *out = (surf_kind){forms[i].dims, forms[i].extra, rest[0] == 'w'};
        return true;
    }
    return false;
}

/* The array of a surface argument: a cudaSurfaceObject_t parameter or a
 * `surface<void, N>` reference; -1 if we do not follow it. */
static int surface_array(irb *b, CXCursor arg)
{
    CXCursor s = hms_cursor_strip(arg);
    for (int guard = 0; guard < 4 && clang_getCursorKind(s) == CXCursor_CallExpr; guard++) {
        /* surface<> passed by value: a copy constructor around the reference */
        cursor_list l;
        irb_children(s, &l);
        CXCursor inner = clang_getNullCursor();
        for (unsigned i = 0; i < l.n; i++)
            if (clang_isExpression(clang_getCursorKind(l.v[i])))
                inner = l.v[i];
        irb_list_free(&l);
        if (clang_Cursor_isNull(inner))
            break;
        s = hms_cursor_strip(inner);
    }
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return -1;
    CXCursor decl = clang_getCursorReferenced(s);
    size_t i = bind_find(b, decl);
    if (i != SIZE_MAX)
        return b->binds[i].kind == BIND_ARRAY ? b->binds[i].ptr.array : -1;
    return ab_array_for_decl(b, decl);
}

/* A surface taken from an array of surface objects
 * (`surf2Dwrite(v, dstSurfMipMapArray[level], x, y)`, one surface per mip
 * level): the load of the handle is an access of that array, and the
 * surfaces it holds are one byte array named as written (the surfaces of
 * different elements are not told apart: a note says so); -1 when arg is
 * not of a surface object type. */
static int element_surface(irb *b, CXCursor arg)
{
    char ts[128], t[96];
    irb_type_spelling(clang_getCursorType(arg), ts, sizeof ts);
    CXCursor s = hms_cursor_strip(arg);
    if (!strstr(ts, "cudaSurfaceObject_t") ||
        (clang_getCursorKind(s) != CXCursor_ArraySubscriptExpr &&
         clang_getCursorKind(s) != CXCursor_UnaryOperator))
        return -1;
    xb_effects(b, arg); /* the handle's load */
    irb_text(b, arg, t, sizeof t);
    for (size_t i = 0; i < b->k->narrays; i++)
        if (b->k->arrays[i].space == HMS_SPACE_TEXTURE && b->k->arrays[i].name &&
            !strcmp(b->k->arrays[i].name, t))
            return (int)i;
    ir_loc loc = irb_loc(b, arg);
    char why[240];
    snprintf(why, sizeof why,
             "surface '%s' is an element of an array of surface objects: the surfaces of its "
             "elements are modelled as one",
             t);
    irb_limit(b, why, NULL, loc);
    return ab_add_surface(b, t, loc);
}

int ab_add_surface(irb *b, const char *name, ir_loc loc)
{
    ir_array a = {0};
    a.name = ir_strdup(b->k, name);
    a.space = HMS_SPACE_TEXTURE;
    a.elem_type = ir_strdup(b->k, "unsigned char");
    a.elem_bytes = 1;
    a.tex_dims = 1;
    a.base_array = -1;
    a.loc = loc;
    return ir_add_array(b->k, &a);
}

bool ab_surface_access(irb *b, CXCursor call, const char *name, bval *out)
{
    surf_kind sk;
    if (!parse_name(name, &sk))
        return false;
    int n = clang_Cursor_getNumArguments(call);
    /* write(val, surf, x, ...); read(&res, surf, x, ...); T read<T>(surf, x, ...) */
    int first = 0;
    CXType elem = clang_getCursorType(call);
    if (sk.write) {
        first = 1;
        if (n >= 1)
            elem = clang_getCursorType(clang_Cursor_getArgument(call, 0));
    } else if (n >= 1 && irb_is_ptr(clang_getCursorType(clang_Cursor_getArgument(call, 0)))) {
        first = 1;
        elem = clang_getPointeeType(
            clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, 0))));
    }
    int coords = sk.dims + (sk.extra ? 1 : 0);
    if (n < first + 1 + coords)
        return false;
    if (sk.write)
        xb_effects(b, clang_Cursor_getArgument(call, 0)); /* the value's own loads first */
    int arr = surface_array(b, clang_Cursor_getArgument(call, (unsigned)first));
    if (arr < 0)
        arr = element_surface(b, clang_Cursor_getArgument(call, (unsigned)first));
    if (arr < 0) {
        char t[96], why[200];
        irb_text(b, clang_Cursor_getArgument(call, (unsigned)first), t, sizeof t);
        snprintf(why, sizeof why, "surface '%s' is not a surface parameter or reference we follow",
                 t);
        irb_limit(b, why, NULL, irb_loc(b, call));
        arr = ab_unknown_array(b);
    }
    int64_t w = irb_sizeof(elem);
    if (w <= 0)
        w = 4;
    blval lv = {0};
    lv.array = arr;
    lv.width = (int)w;
    lv.stride = 1; /* x is a byte offset */
    lv.index = xb_value(b, clang_Cursor_getArgument(call, (unsigned)first + 1)).e;
    if (sk.dims >= 2)
        lv.index2 = xb_value(b, clang_Cursor_getArgument(call, (unsigned)first + 2)).e;
    for (int i = first + 1 + (sk.dims >= 2 ? 2 : 1); i < n; i++)
        xb_effects(b, clang_Cursor_getArgument(call, (unsigned)i));
    if (sk.dims == 3 || sk.extra)
        irb_limit(b, "layered, cubemap and 3D surface accesses are modelled by their x and y only",
                  NULL, irb_loc(b, call));
    ir_array *a = &b->k->arrays[arr];
    if (a->space == HMS_SPACE_TEXTURE && sk.dims >= 2 && a->tex_dims < 2)
        a->tex_dims = 2;
    int site = ab_emit(b, call, &lv, sk.write ? HMS_ACCESS_STORE : HMS_ACCESS_LOAD, false);
    /* ab_emit may add arrays (and move b->k->arrays): re-fetch */
    *out = (bval){sk.write
                      ? ir_const(b->k, 0)
                      : xb_unknown(b, call, "value read from surface '%s'", b->k->arrays[arr].name),
                  sk.write ? -1 : site};
    return true;
}
