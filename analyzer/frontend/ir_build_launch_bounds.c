/* __launch_bounds__(max_threads[, min_blocks]) of a kernel. libclang does
 * not expose the attribute's arguments, so they are read from its tokens:
 * integer literals, + - * / % and parentheses, the kernel's integral
 * template parameters (by the instance's arguments) and object-like macros
 * whose body folds the same way. An argument that does not fold leaves
 * the bound unknown (0): nvcc's own count can be had with --ptxas. */
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/ir_build_impl.h"

#define MAX_MACRO_DEPTH 8 /* macro bodies within macro bodies */

typedef struct {
    CXTranslationUnit tu;
    CXCursor inst; /* the kernel as built (a template instance or a plain function) */
    CXCursor tmpl; /* its template, or a null cursor */
} lb_ctx;

typedef struct {
    CXToken *t;
    unsigned n, i;
    bool ok;
    int depth;
} lb_toks;

static bool fold_tokens(const lb_ctx *c, CXToken *t, unsigned n, int depth, long long *out);

typedef struct {
    const char *name;
    int index; /* template parameters seen so far */
    int found; /* index of `name`, -1 */
} tparam_find;

static enum CXChildVisitResult tparam_visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    tparam_find *f = data;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k != CXCursor_TemplateTypeParameter && k != CXCursor_NonTypeTemplateParameter &&
        k != CXCursor_TemplateTemplateParameter)
        return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(cur);
    if (f->found < 0 && !strcmp(clang_getCString(s), f->name))
        f->found = f->index;
    clang_disposeString(s);
    f->index++;
    return CXChildVisit_Continue;
}

/* The instance's integral argument for template parameter `name`. */
static bool template_value(const lb_ctx *c, const char *name, long long *out)
{
    if (clang_Cursor_isNull(c->tmpl))
        return false;
    tparam_find f = {name, 0, -1};
    clang_visitChildren(c->tmpl, tparam_visit, &f);
    if (f.found < 0 || f.found >= clang_Cursor_getNumTemplateArguments(c->inst) ||
        clang_Cursor_getTemplateArgumentKind(c->inst, (unsigned)f.found) !=
            CXTemplateArgumentKind_Integral)
        return false;
    *out = clang_Cursor_getTemplateArgumentValue(c->inst, (unsigned)f.found);
    return true;
}

typedef struct {
    const char *name;
    CXCursor def; /* the last definition seen */
} macro_find;

static enum CXChildVisitResult macro_visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    macro_find *f = data;
    if (clang_getCursorKind(cur) != CXCursor_MacroDefinition)
        return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(cur);
    if (!strcmp(clang_getCString(s), f->name))
        f->def = cur;
    clang_disposeString(s);
    return CXChildVisit_Continue;
}

/* An object-like macro named `name`: its body folded. */
static bool macro_value(const lb_ctx *c, const char *name, int depth, long long *out)
{
    if (depth >= MAX_MACRO_DEPTH)
        return false;
    macro_find f = {name, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), macro_visit, &f);
    if (clang_Cursor_isNull(f.def) || clang_Cursor_isMacroFunctionLike(f.def))
        return false;
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(c->tu, clang_getCursorExtent(f.def), &toks, &n);
    /* the first token is the macro's name */
    bool ok = n > 1 && fold_tokens(c, toks + 1, n - 1, depth + 1, out);
    clang_disposeTokens(c->tu, toks, n);
    return ok;
}

static bool is_punct(const lb_ctx *c, const lb_toks *s, const char *p)
{
    if (s->i >= s->n || clang_getTokenKind(s->t[s->i]) != CXToken_Punctuation)
        return false;
    CXString x = clang_getTokenSpelling(c->tu, s->t[s->i]);
    bool eq = !strcmp(clang_getCString(x), p);
    clang_disposeString(x);
    return eq;
}

static long long sum(const lb_ctx *c, lb_toks *s);

static long long primary(const lb_ctx *c, lb_toks *s)
{
    if (s->i >= s->n) {
        s->ok = false;
        return 0;
    }
    if (is_punct(c, s, "(")) {
        s->i++;
        long long v = sum(c, s);
        if (!is_punct(c, s, ")"))
            s->ok = false;
        s->i++;
        return v;
    }
    if (is_punct(c, s, "-")) {
        s->i++;
        return -primary(c, s);
    }
    CXToken t = s->t[s->i++];
    CXString x = clang_getTokenSpelling(c->tu, t);
    const char *sp = clang_getCString(x);
    long long v = 0;
    if (clang_getTokenKind(t) == CXToken_Literal) {
        char *end;
        v = strtoll(sp, &end, 0);
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
            end++;
        s->ok &= *end == '\0';
    } else if (clang_getTokenKind(t) == CXToken_Identifier) {
        s->ok &= template_value(c, sp, &v) || macro_value(c, sp, s->depth, &v);
    } else {
        s->ok = false;
    }
    clang_disposeString(x);
    return v;
}

static long long product(const lb_ctx *c, lb_toks *s)
{
    long long v = primary(c, s);
    while (s->ok && (is_punct(c, s, "*") || is_punct(c, s, "/") || is_punct(c, s, "%"))) {
        bool mul = is_punct(c, s, "*"), div = is_punct(c, s, "/");
        s->i++;
        long long r = primary(c, s);
        if (!mul && r == 0) {
            s->ok = false;
            return 0;
        }
        v = mul ? v * r : div ? v / r : v % r;
    }
    return v;
}

static long long sum(const lb_ctx *c, lb_toks *s)
{
    long long v = product(c, s);
    while (s->ok && (is_punct(c, s, "+") || is_punct(c, s, "-"))) {
        bool add = is_punct(c, s, "+");
        s->i++;
        long long r = product(c, s);
        v = add ? v + r : v - r;
    }
    return v;
}

static bool fold_tokens(const lb_ctx *c, CXToken *t, unsigned n, int depth, long long *out)
{
    lb_toks s = {t, n, 0, true, depth};
    long long v = sum(c, &s);
    if (!s.ok || s.i != n)
        return false;
    *out = v;
    return true;
}

/* Reads the arguments of a `__launch_bounds__(...)` token list. */
static void read_bounds(const lb_ctx *c, CXToken *t, unsigned n, ir_kernel *k)
{
    /* t[0] names the attribute, t[1] is "(" */
    lb_toks s = {t, n, 2, true, 0};
    if (n < 4 || !is_punct(c, &(lb_toks){t, n, 1, true, 0}, "("))
        return;
    long long vals[2] = {0, 0};
    int nv = 0;
    unsigned start = 2, level = 0;
    for (unsigned i = 2; i < n && nv < 2; i++) {
        s.i = i;
        if (is_punct(c, &s, "("))
            level++;
        else if (level > 0 && is_punct(c, &s, ")"))
            level--;
        else if (level == 0 && (is_punct(c, &s, ",") || is_punct(c, &s, ")"))) {
            long long v;
            if (!fold_tokens(c, t + start, i - start, 0, &v) || v <= 0)
                return;
            vals[nv++] = v;
            start = i + 1;
            if (is_punct(c, &s, ")"))
                break;
        }
    }
    if (nv == 0 || vals[0] > 1 << 20 || vals[1] > 1 << 10)
        return;
    k->bounds_threads = (int)vals[0];
    k->bounds_blocks = (int)vals[1];
}

/* Looks for the attribute among the tokens before the kernel's name (the
 * attribute cursor's own extent lies in the macro's header). */
static void scan_decl(const lb_ctx *c, CXCursor decl, ir_kernel *k)
{
    /* the declaration may start inside a macro (`__global__`): take where
     * it was expanded */
    CXSourceRange ext = clang_getCursorExtent(decl);
    CXFile f0, f1;
    unsigned o0, o1;
    clang_getExpansionLocation(clang_getRangeStart(ext), &f0, NULL, NULL, &o0);
    clang_getExpansionLocation(clang_getCursorLocation(decl), &f1, NULL, NULL, &o1);
    if (!f0 || !clang_File_isEqual(f0, f1) || o1 <= o0)
        return;
    CXSourceRange head = clang_getRange(clang_getLocationForOffset(c->tu, f0, o0),
                                        clang_getLocationForOffset(c->tu, f1, o1));
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(c->tu, head, &toks, &n);
    for (unsigned i = 0; i + 1 < n && k->bounds_threads == 0; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
            continue;
        CXString x = clang_getTokenSpelling(c->tu, toks[i]);
        const char *sp = clang_getCString(x);
        if (!strcmp(sp, "__launch_bounds__") || !strcmp(sp, "launch_bounds"))
            read_bounds(c, toks + i, n - i, k);
        clang_disposeString(x);
    }
    clang_disposeTokens(c->tu, toks, n);
}

void irb_launch_bounds(CXTranslationUnit tu, CXCursor fn, ir_kernel *k)
{
    lb_ctx c = {tu, fn, clang_getSpecializedCursorTemplate(fn)};
    scan_decl(&c, fn, k);
    if (k->bounds_threads == 0 && !clang_Cursor_isNull(c.tmpl))
        scan_decl(&c, c.tmpl, k);
}
