/* Host-side `kernel<<<grid, block, shared, stream>>>(args)` launches.
 *
 * libclang 19 has no cursor kind for CUDAKernelCallExpr: a launch shows up as
 * a CXCursor_CallExpr whose children are the callee, then the configuration
 * call (a CallExpr to cudaConfigureCall, or __cudaPushCallConfiguration when
 * clang assumes CUDA >= 9.2), then the kernel arguments. That second child is
 * how launches are recognised here. */
#include "analyzer/launch_sites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/const_fold.h"
#include "analyzer/cursor_util.h"

typedef struct {
    CXTranslationUnit tu;
    CXCursor function;
    CXCursor stack[256];
    size_t depth;
    hms_launch_sites *out;
} launch_scan;

static bool is_config_call(CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return false;
    char *name = hms_cursor_spelling(c);
    bool r = !strcmp(name, "cudaConfigureCall") || !strcmp(name, "__cudaPushCallConfiguration") ||
             !strcmp(name, "hipConfigureCall") || !strcmp(name, "__hipPushCallConfiguration");
    free(name);
    return r;
}

/* The configuration call of a launch, or a null cursor for other calls. */
static CXCursor launch_config(CXCursor call)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr || hms_cursor_nchildren(call) < 2)
        return clang_getNullCursor();
    CXCursor cfg = hms_cursor_child(call, 1);
    return is_config_call(cfg) ? cfg : clang_getNullCursor();
}

static char *xstrdup(const char *s)
{
    return strdup(s ? s : "");
}

/* The i-th template parameter of a function template (null when absent). */
typedef struct {
    unsigned want, seen;
    CXCursor found;
} tparam_query;

static enum CXChildVisitResult tparam_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    tparam_query *q = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter ||
        k == CXCursor_TemplateTemplateParameter) {
        if (q->seen++ == q->want) {
            q->found = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Continue;
}

static CXCursor template_param(CXCursor tmpl, unsigned i)
{
    tparam_query q = {i, 0, clang_getNullCursor()};
    if (!clang_Cursor_isNull(tmpl))
        clang_visitChildren(tmpl, tparam_visit, &q);
    return q.found;
}

/* One integral template argument, printed by its parameter's type (a bool
 * argument reads back as -1 or 0 otherwise). */
static void integral_arg(CXCursor fn, CXCursor tmpl, unsigned i, char *buf, size_t len,
                         int64_t *value)
{
    CXCursor p = template_param(tmpl, i);
    CXType t = clang_getCanonicalType(clang_getCursorType(p));
    if (t.kind == CXType_Bool) {
        bool v = clang_Cursor_getTemplateArgumentValue(fn, i) != 0;
        snprintf(buf, len, "%s", v ? "true" : "false");
        *value = v;
    } else if (t.kind == CXType_UInt || t.kind == CXType_ULong || t.kind == CXType_ULongLong ||
               t.kind == CXType_UShort || t.kind == CXType_UChar) {
        unsigned long long v = clang_Cursor_getTemplateArgumentUnsignedValue(fn, i);
        snprintf(buf, len, "%llu", v);
        *value = (int64_t)v;
    } else {
        long long v = clang_Cursor_getTemplateArgumentValue(fn, i);
        snprintf(buf, len, "%lld", v);
        *value = v;
    }
}

/* "reduce<256, float>": the callee's name with its template arguments, when
 * the call names a function template specialization. */
static char *kernel_display_name(CXTranslationUnit tu, CXCursor callee_expr, CXCursor fn,
                                 hms_launch_site *ls)
{
    char *base = hms_cursor_spelling(fn);
    int n = clang_Cursor_getNumTemplateArguments(fn);
    if (n <= 0) {
        if (!*base) {
            free(base);
            return hms_cursor_text(tu, callee_expr);
        }
        return base;
    }
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    size_t cap = strlen(base) + 64 * (size_t)n + 8, len = 0;
    char *s = malloc(cap);
    if (!s)
        return base;
    len = (size_t)snprintf(s, cap, "%s<", base);
    ls->template_args = calloc((size_t)n, sizeof *ls->template_args);
    ls->ntemplate_args = ls->template_args ? (size_t)n : 0;
    for (int i = 0; i < n; i++) {
        char buf[256];
        int64_t value = 0;
        bool folded = false;
        switch (clang_Cursor_getTemplateArgumentKind(fn, (unsigned)i)) {
        case CXTemplateArgumentKind_Integral:
            integral_arg(fn, tmpl, (unsigned)i, buf, sizeof buf, &value);
            folded = true;
            break;
        case CXTemplateArgumentKind_Type: {
            char *t = hms_type_spelling(clang_Cursor_getTemplateArgumentType(fn, (unsigned)i));
            snprintf(buf, sizeof buf, "%s", t);
            free(t);
            break;
        }
        default:
            snprintf(buf, sizeof buf, "?");
            break;
        }
        if (ls->template_args) {
            ls->template_args[i].text = xstrdup(buf);
            ls->template_args[i].folded = folded;
            ls->template_args[i].value = value;
        }
        len += (size_t)snprintf(s + len, cap - len, "%s%s", i ? ", " : "", buf);
        if (len >= cap - 2)
            break;
    }
    if (len < cap - 1)
        snprintf(s + len, cap - len, ">");
    free(base);
    return s;
}

static void fold_scalar(const hms_fold_site *site, CXCursor e, hms_folded_arg *out)
{
    out->text = hms_cursor_text(site->tu, e);
    out->folded = false;
    out->value = 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(e));
    bool integral = (t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum;
    if (integral)
        out->folded = hms_fold_int(site, e, &out->value);
}

static void record_launch(launch_scan *sc, CXCursor call, CXCursor cfg)
{
    hms_launch_sites *o = sc->out;
    hms_launch_site *nv = realloc(o->v, (o->n + 1) * sizeof *nv);
    if (!nv)
        return;
    o->v = nv;
    hms_launch_site *ls = &o->v[o->n++];
    memset(ls, 0, sizeof *ls);

    hms_fold_site site = {sc->tu, sc->function, sc->stack, sc->depth, 0};
    CXFile f = NULL;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(call)), &f, &ls->line,
                               &ls->col, &site.offset);
    CXString fname = clang_getFileName(f);
    ls->file = xstrdup(clang_getCString(fname));
    clang_disposeString(fname);

    CXCursor callee = hms_cursor_child(call, 0);
    CXCursor fn = clang_getCursorReferenced(callee);
    if (clang_Cursor_isNull(fn))
        fn = clang_getCursorReferenced(hms_cursor_strip(callee));
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    ls->kernel_usr = hms_cursor_usr(clang_Cursor_isNull(tmpl) ? fn : tmpl);
    ls->kernel = kernel_display_name(sc->tu, callee, fn, ls);
    ls->kernel_name = hms_cursor_spelling(fn);

    int ncfg = clang_Cursor_getNumArguments(cfg);
    CXCursor grid = ncfg > 0 ? clang_Cursor_getArgument(cfg, 0) : clang_getNullCursor();
    CXCursor block = ncfg > 1 ? clang_Cursor_getArgument(cfg, 1) : clang_getNullCursor();
    hms_fold_dim3(&site, grid, ls->grid);
    hms_fold_dim3(&site, block, ls->block);
    ls->grid_text = hms_cursor_text(sc->tu, grid);
    ls->block_text = hms_cursor_text(sc->tu, block);
    CXCursor shared = ncfg > 2 ? clang_Cursor_getArgument(cfg, 2) : clang_getNullCursor();
    if (!clang_Cursor_isNull(shared) && hms_cursor_within(shared, call)) {
        ls->has_shared = true;
        fold_scalar(&site, shared, &ls->shared);
    } else {
        ls->shared.text = xstrdup("0");
        ls->shared.folded = true;
    }
    CXCursor stream = ncfg > 3 ? clang_Cursor_getArgument(cfg, 3) : clang_getNullCursor();
    if (!clang_Cursor_isNull(stream) && hms_cursor_within(stream, call))
        ls->stream_text = hms_cursor_text(sc->tu, stream);

    int nargs = clang_Cursor_getNumArguments(call);
    if (nargs > 0) {
        ls->args = calloc((size_t)nargs, sizeof *ls->args);
        ls->nargs = ls->args ? (size_t)nargs : 0;
        for (size_t i = 0; i < ls->nargs; i++)
            fold_scalar(&site, clang_Cursor_getArgument(call, (unsigned)i), &ls->args[i]);
    }
}

static enum CXChildVisitResult body_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    launch_scan *sc = d;
    CXCursor cfg = launch_config(c);
    if (!clang_Cursor_isNull(cfg))
        record_launch(sc, c, cfg);
    if (sc->depth < sizeof sc->stack / sizeof *sc->stack) {
        sc->stack[sc->depth++] = c;
        clang_visitChildren(c, body_visit, sc);
        sc->depth--;
    }
    return CXChildVisit_Continue;
}

static bool is_function_like(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod ||
           k == CXCursor_FunctionTemplate || k == CXCursor_Constructor ||
           k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

/* Is name a header by its extension (.h, .hh, .hpp, .hxx, .cuh, .h++)? */
static bool is_header_name(const char *name)
{
    static const char *const exts[] = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".h++", ".H"};
    const char *slash = strrchr(name, '/');
    const char *dot = strrchr(slash ? slash : name, '.');
    if (!dot)
        return true; /* <vector> and the like */
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (!strcmp(dot, exts[i]))
            return true;
    return false;
}

/* Launches are collected from the main file and from the source files it
 * #includes (kernels and their launches often live in a .cu or .inc pulled
 * in by the host file), never from headers: a header's launch wrappers
 * belong to whatever file includes them, and system headers and our
 * hermetic ones hold none of the project's. */
static bool in_scanned_file(CXCursor c)
{
    CXSourceLocation loc = clang_getCursorLocation(c);
    if (clang_Location_isFromMainFile(loc))
        return true;
    if (hms_cursor_in_builtin_header(c))
        return false;
    CXFile f = NULL;
    clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
    CXString name = clang_getFileName(f);
    const char *s = clang_getCString(name);
    bool source = s && !is_header_name(s);
    clang_disposeString(name);
    return source;
}

static enum CXChildVisitResult decl_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    launch_scan *sc = d;
    if (!in_scanned_file(c))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (is_function_like(k)) {
        if (clang_isCursorDefinition(c)) {
            sc->function = c;
            sc->depth = 0;
            clang_visitChildren(c, body_visit, sc);
        }
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl ||
        k == CXCursor_StructDecl || k == CXCursor_ClassTemplate || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    return CXChildVisit_Continue;
}

void hms_find_launch_sites(CXTranslationUnit tu, hms_launch_sites *out)
{
    out->v = NULL;
    out->n = 0;
    if (!tu)
        return;
    launch_scan sc;
    memset(&sc, 0, sizeof sc);
    sc.tu = tu;
    sc.out = out;
    clang_visitChildren(clang_getTranslationUnitCursor(tu), decl_visit, &sc);
}

static void free_arg(hms_folded_arg *a)
{
    free(a->text);
    a->text = NULL;
}

void hms_launch_sites_free(hms_launch_sites *s)
{
    for (size_t i = 0; i < s->n; i++) {
        hms_launch_site *ls = &s->v[i];
        free(ls->kernel);
        free(ls->kernel_name);
        free(ls->kernel_usr);
        free(ls->file);
        free(ls->grid_text);
        free(ls->block_text);
        free(ls->stream_text);
        for (int d = 0; d < 3; d++) {
            free_arg(&ls->grid[d]);
            free_arg(&ls->block[d]);
        }
        free_arg(&ls->shared);
        for (size_t a = 0; a < ls->nargs; a++)
            free_arg(&ls->args[a]);
        free(ls->args);
        for (size_t a = 0; a < ls->ntemplate_args; a++)
            free_arg(&ls->template_args[a]);
        free(ls->template_args);
    }
    free(s->v);
    s->v = NULL;
    s->n = 0;
}
