/* Kernel discovery (see kernel_discovery.h). */
#include "analyzer/frontend/kernel_discovery.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/cursor_util.h"
#include "runtime/out_of_memory.h"

typedef struct {
    const hms_tu *owner;
    hms_found_fn found;
    void *ctx;
} decl_walk;

static bool is_instance(CXCursor c)
{
    return !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(c));
}

/* Scopes are entered wherever they are written (a file may be #included
 * inside the includer's namespace); what is found must be the owner's. An
 * instance belongs to whoever wrote its template. */
static void report(decl_walk *w, CXCursor c, hms_found_kind kind)
{
    CXCursor written =
        kind == HMS_FOUND_KERNEL_INSTANCE ? clang_getSpecializedCursorTemplate(c) : c;
    if (hms_tu_owns(w->owner, written))
        w->found(c, kind, w->ctx);
}

static enum CXChildVisitResult visit_decl(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    decl_walk *w = d;
    if (hms_cursor_in_builtin_header(c))
        return CXChildVisit_Continue;
    switch (clang_getCursorKind(c)) {
    case CXCursor_Namespace:
    case CXCursor_LinkageSpec:
    case CXCursor_UnexposedDecl:
    case CXCursor_StructDecl:
    case CXCursor_ClassDecl:
    case CXCursor_ClassTemplate:
        return CXChildVisit_Recurse;
    case CXCursor_FunctionDecl:
    case CXCursor_FunctionTemplate:
    case CXCursor_CXXMethod:
        if (hms_cursor_is_kernel(c) && clang_getCursorKind(c) == CXCursor_FunctionDecl &&
            is_instance(c))
            report(w, c, HMS_FOUND_KERNEL_INSTANCE);
        else if (!clang_isCursorDefinition(c))
            break;
        else if (hms_cursor_is_kernel(c))
            report(w, c,
                   clang_getCursorKind(c) == CXCursor_FunctionTemplate ? HMS_FOUND_KERNEL_TEMPLATE
                                                                       : HMS_FOUND_KERNEL);
        else if (hms_cursor_has_attr(c, CXCursor_CUDADeviceAttr))
            report(w, c, HMS_FOUND_DEVICE_FUNCTION);
        break;
    case CXCursor_VarDecl:
        report(w, c, HMS_FOUND_VARIABLE);
        break;
    default:
        break;
    }
    return CXChildVisit_Continue;
}

void hms_discover_decls(const hms_tu *t, hms_found_fn found, void *ctx)
{
    decl_walk w = {t, found, ctx};
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), visit_decl, &w);
}

/* ---- the kernels to analyse ------------------------------------------------ */

static void *grow(void *v, size_t *cap, size_t elem)
{
    size_t n = *cap ? *cap * 2 : 16;
    void *nv = realloc(v, n * elem);
    if (!nv)
        hms_out_of_memory();
    *cap = n;
    return nv;
}

static void add_kernel(hms_kernel_set *s, CXCursor fn, CXCursor pattern, CXCursor named)
{
    if (s->n == s->cap)
        s->v = grow(s->v, &s->cap, sizeof *s->v);
    s->v[s->n++] = (hms_found_kernel){fn, pattern, named};
}

static void found_kernel(CXCursor c, hms_found_kind kind, void *ctx)
{
    hms_kernel_set *s = ctx;
    switch (kind) {
    case HMS_FOUND_KERNEL:
        add_kernel(s, c, c, c);
        break;
    case HMS_FOUND_KERNEL_TEMPLATE:
        if (s->ntemplates == s->captemplates)
            s->templates = grow(s->templates, &s->captemplates, sizeof *s->templates);
        s->templates[s->ntemplates++] = c;
        break;
    case HMS_FOUND_KERNEL_INSTANCE: {
        CXCursor def = clang_getCursorDefinition(c);
        if (!clang_Cursor_isNull(def))
            add_kernel(s, def, clang_getSpecializedCursorTemplate(c), c);
        break;
    }
    default:
        break;
    }
}

/* Any reference to an instance of a kernel template makes it one to analyse. */
static enum CXChildVisitResult find_instances(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    hms_kernel_set *s = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isDeclaration(k) && hms_cursor_in_builtin_header(c))
        return CXChildVisit_Continue;
    if (k != CXCursor_DeclRefExpr && k != CXCursor_FunctionDecl)
        return CXChildVisit_Recurse;
    CXCursor ref = k == CXCursor_DeclRefExpr ? clang_getCursorReferenced(c) : c;
    if (clang_Cursor_isNull(ref) || clang_getCursorKind(ref) != CXCursor_FunctionDecl ||
        !hms_cursor_is_kernel(ref))
        return CXChildVisit_Recurse;
    CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
    for (size_t i = 0; !clang_Cursor_isNull(tmpl) && i < s->ntemplates; i++) {
        if (clang_equalCursors(s->templates[i], tmpl)) {
            CXCursor def = clang_getCursorDefinition(ref);
            if (!clang_Cursor_isNull(def))
                add_kernel(s, def, tmpl, ref);
            break;
        }
    }
    return CXChildVisit_Recurse;
}

void hms_discover_kernels(const hms_tu *t, hms_kernel_set *out)
{
    memset(out, 0, sizeof *out);
    /* Explicit instantiations are visible because parse.c appends a reference
     * to each (explicit_inst.h) to the main file before parsing. */
    hms_discover_decls(t, found_kernel, out);
    if (out->ntemplates)
        clang_visitChildren(clang_getTranslationUnitCursor(t->tu), find_instances, out);
}

void hms_kernel_set_free(hms_kernel_set *s)
{
    free(s->v);
    free(s->templates);
    memset(s, 0, sizeof *s);
}
