/* libclang helpers shared by the IR builder: children, casts, types,
 * locations, source text, constant evaluation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/ir_build_impl.h"
#include "analyzer/frontend/parse.h"
#include "runtime/out_of_memory.h"

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    cursor_list *l = d;
    if (l->n == l->cap) {
        unsigned cap = l->cap * 2;
        CXCursor *v = l->v == l->small ? malloc(cap * sizeof *v) : realloc(l->v, cap * sizeof *v);
        if (!v)
            hms_out_of_memory();
        if (l->v == l->small)
            memcpy(v, l->small, l->n * sizeof *v);
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = c;
    return CXChildVisit_Continue;
}

void irb_children(CXCursor c, cursor_list *out)
{
    out->v = out->small;
    out->n = 0;
    out->cap = sizeof out->small / sizeof out->small[0];
    clang_visitChildren(c, collect, out);
}

void irb_list_free(cursor_list *l)
{
    if (l->v != l->small)
        free(l->v);
    l->v = NULL;
    l->n = 0;
}

void irb_spelling(CXCursor c, char *buf, size_t len)
{
    CXString s = clang_getCursorSpelling(c);
    snprintf(buf, len, "%s", clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
}

void irb_type_spelling(CXType t, char *buf, size_t len)
{
    CXString s = clang_getTypeSpelling(t);
    snprintf(buf, len, "%s", clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
}

static const char *file_name(irb *b, CXFile f)
{
    if (!f)
        return b->main_path;
    if (b->last_file && clang_File_isEqual(f, b->last_file))
        return b->last_file_name;
    const char *name;
    if (b->main_file && clang_File_isEqual(f, b->main_file)) {
        name = b->main_path;
    } else {
        CXString s = clang_getFileName(f);
        name = ir_strdup(b->k, clang_getCString(s));
        clang_disposeString(s);
    }
    b->last_file = f;
    b->last_file_name = name;
    return name;
}

ir_loc irb_loc(irb *b, CXCursor c)
{
    if (b->model_depth > 0)
        c = b->model_call;
    ir_loc l = {0};
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f = NULL;
    unsigned line = 0, col = 0;
    clang_getExpansionLocation(clang_getRangeStart(r), &f, &line, &col, NULL);
    if (line == 0)
        clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &col, NULL);
    l.file = file_name(b, f);
    l.line = line;
    l.col = col;
    CXFile ef = NULL;
    clang_getExpansionLocation(clang_getRangeEnd(r), &ef, &l.end_line, &l.end_col, NULL);
    if (!ef || (f && !clang_File_isEqual(f, ef)))
        l.end_line = l.end_col = 0;
    return l;
}

void irb_text(irb *b, CXCursor c, char *buf, size_t len)
{
    if (b->model_depth > 0)
        c = b->model_call;
    buf[0] = '\0';
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1 = NULL, f2 = NULL;
    unsigned o1 = 0, o2 = 0;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, &o1);
    clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &o2);
    if (!f1 || !f2 || !clang_File_isEqual(f1, f2) || o2 <= o1)
        return;
    size_t size = 0;
    const char *text = clang_getFileContents(b->tu, f1, &size);
    if (!text || o2 > size)
        return;
    size_t n = o2 - o1, j = 0;
    for (size_t i = 0; i < n && j + 1 < len; i++) {
        char ch = text[o1 + i];
        if (ch == '\n' || ch == '\t' || ch == '\r')
            ch = ' ';
        if (ch == ' ' && j > 0 && buf[j - 1] == ' ')
            continue; /* squeeze runs of blanks */
        buf[j++] = ch;
    }
    buf[j] = '\0';
}

static CXType canon(CXType t)
{
    return clang_getCanonicalType(t);
}

bool irb_is_int(CXType t)
{
    return hms_type_classify(t).family == HMS_TYPE_INTEGER;
}

bool irb_is_ptr(CXType t)
{
    t = canon(t);
    return t.kind == CXType_Pointer;
}

bool irb_is_array(CXType t)
{
    t = canon(t);
    return t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
           t.kind == CXType_VariableArray || t.kind == CXType_DependentSizedArray;
}

int64_t irb_sizeof(CXType t)
{
    long long s = clang_Type_getSizeOf(t);
    return s > 0 ? s : -1;
}

bool irb_eval_int(CXCursor c, int64_t *v)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r)
        return false;
    bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) {
        if (clang_EvalResult_isUnsignedInt(r))
            *v = (int64_t)clang_EvalResult_getAsUnsigned(r);
        else
            *v = clang_EvalResult_getAsLongLong(r);
    }
    clang_EvalResult_dispose(r);
    return ok;
}

CXCursor irb_callee(CXCursor call)
{
    CXCursor r = clang_getCursorReferenced(call);
    if (!clang_Cursor_isNull(r))
        return r;
    return clang_getNullCursor();
}

bool irb_has_attr(CXCursor decl, enum CXCursorKind attr)
{
    return hms_cursor_has_attr(decl, attr); /* the one rule, cursor_util.c */
}

typedef struct {
    const char *want;
    bool found;
} annotation_search;

static enum CXChildVisitResult find_annotation(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    annotation_search *as = d;
    if (clang_getCursorKind(c) != CXCursor_AnnotateAttr)
        return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(c);
    const char *n = clang_getCString(s);
    as->found = n && !strcmp(n, as->want);
    clang_disposeString(s);
    return as->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Does a declaration of our hermetic headers carry annotate(want)? */
static bool builtin_annotated(CXCursor decl, const char *want)
{
    annotation_search as = {want, false};
    if (!clang_Cursor_isNull(decl) && hms_cursor_in_builtin_header(decl))
        clang_visitChildren(decl, find_annotation, &as);
    return as.found;
}

bool irb_is_model(CXCursor decl)
{
    return builtin_annotated(decl, "hms_model");
}

bool irb_is_register_type(CXType t)
{
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
        t = clang_getArrayElementType(t);
    CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(t));
    if (clang_Cursor_isNull(d))
        return false;
    if (builtin_annotated(d, "hms_register"))
        return true;
    /* An implicit instantiation may not list the template's attributes. */
    return builtin_annotated(clang_getSpecializedCursorTemplate(d), "hms_register");
}

/* Every AST node the builder looks at costs one unit; a kernel that inlines
 * without end (or is simply enormous) stops with a limit instead of hanging. */
bool irb_budget(irb *b, CXCursor at)
{
    if (b->out_of_budget)
        return false;
    if (b->budget == 0) {
        b->out_of_budget = true;
        irb_limit(b, "analysis budget exhausted: the rest of the kernel is not modelled", NULL,
                  irb_loc(b, at));
        return false;
    }
    b->budget--;
    return true;
}

ir_loc irb_loc_name(irb *b, CXCursor c)
{
    if (b->model_depth > 0)
        return irb_loc(b, c);
    ir_loc l = {0};
    CXFile f = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &l.line, &l.col, NULL);
    l.file = file_name(b, f);
    return l;
}

/* Limits are deduplicated by reason and place, and capped: one kernel that
 * inlines a helper ten thousand times needs one note, not ten thousand. */
#define MAX_LIMITS 200

void irb_limit(irb *b, const char *reason, const char *hint, ir_loc loc)
{
    ir_kernel *k = b->k;
    for (size_t i = 0; i < k->nlimits; i++)
        if (k->limits[i].loc.line == loc.line && k->limits[i].loc.col == loc.col &&
            k->limits[i].loc.file == loc.file && !strcmp(k->limits[i].reason, reason))
            return;
    if (k->nlimits == MAX_LIMITS) {
        ir_add_limit(k, "more limits than shown: the rest are omitted", NULL, loc);
        return;
    }
    if (k->nlimits > MAX_LIMITS)
        return;
    ir_add_limit(k, reason, hint, loc);
}

bool irb_undeclared(irb *b, CXCursor c, char *name, size_t len)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f0 = NULL, f1 = NULL;
    unsigned o0 = 0, o1 = 0;
    clang_getExpansionLocation(clang_getRangeStart(r), &f0, NULL, NULL, &o0);
    clang_getExpansionLocation(clang_getRangeEnd(r), &f1, NULL, NULL, &o1);
    if (!f0 || !b->tu)
        return false;
    static const char pre[] = "use of undeclared identifier '";
    bool found = false;
    unsigned nd = clang_getNumDiagnostics(b->tu);
    for (unsigned i = 0; i < nd && !found; i++) {
        CXDiagnostic d = clang_getDiagnostic(b->tu, i);
        CXFile f = NULL;
        unsigned off = 0;
        clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, NULL, NULL, &off);
        if (f && clang_File_isEqual(f, f0) && off >= o0 && off <= o1) {
            CXString s = clang_getDiagnosticSpelling(d);
            const char *msg = clang_getCString(s);
            const char *p = msg ? strstr(msg, pre) : NULL;
            if (p) {
                p += sizeof pre - 1;
                size_t n = strcspn(p, "'");
                if (n >= len)
                    n = len - 1;
                memcpy(name, p, n);
                name[n] = '\0';
                found = n > 0;
            }
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
    return found;
}

ir_expr *irb_undeclared_unknown(irb *b, CXCursor c)
{
    char id[128];
    if (!irb_undeclared(b, c, id, sizeof id))
        return NULL;
    char why[256], hint[200];
    snprintf(why, sizeof why, "undeclared identifier '%s' (from a missing header?)", id);
    snprintf(hint, sizeof hint, "define it: -D %s=<value>", id);
    irb_limit(b, why, hint, irb_loc(b, c));
    return xb_unknown(b, c, "%s", why);
}

CXCursor irb_member_call_object(CXCursor call, char *method, size_t len)
{
    if (len)
        method[0] = '\0';
    cursor_list l;
    irb_children(call, &l);
    CXCursor obj = clang_getNullCursor();
    if (l.n >= 1) {
        CXCursor callee = hms_cursor_strip(l.v[0]);
        if (clang_getCursorKind(callee) == CXCursor_MemberRefExpr) {
            if (len)
                irb_spelling(callee, method, len);
            cursor_list m;
            irb_children(callee, &m);
            if (m.n >= 1)
                obj = m.v[0];
            irb_list_free(&m);
        }
    }
    irb_list_free(&l);
    return obj;
}
