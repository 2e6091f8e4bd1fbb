/* Small libclang helpers shared by the discovery code. */
#include "analyzer/frontend/cursor_util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/parse.h"

typedef struct {
    unsigned want, seen;
    CXCursor found;
} child_query;

static enum CXChildVisitResult child_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    child_query *q = d;
    if (q->seen++ == q->want) {
        q->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

unsigned hms_cursor_nchildren(CXCursor c)
{
    child_query q = {(unsigned)-1, 0, clang_getNullCursor()};
    clang_visitChildren(c, child_visit, &q);
    return q.seen;
}

CXCursor hms_cursor_child(CXCursor c, unsigned i)
{
    child_query q = {i, 0, clang_getNullCursor()};
    clang_visitChildren(c, child_visit, &q);
    return q.found;
}

/* Expression and statement children (not type or template references). */
typedef struct {
    unsigned n;
    CXCursor last;
} expr_query;

static enum CXChildVisitResult expr_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    expr_query *q = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isExpression(k) || clang_isStatement(k)) {
        q->n++;
        q->last = c;
    }
    return q->n > 1 ? CXChildVisit_Break : CXChildVisit_Continue;
}

CXCursor hms_cursor_strip(CXCursor c)
{
    for (int guard = 0; guard < 64; guard++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr)
            return c;
        expr_query q = {0, clang_getNullCursor()};
        clang_visitChildren(c, expr_visit, &q);
        if (q.n != 1)
            return c;
        c = q.last;
    }
    return c;
}

static enum CXChildVisitResult body_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
        *(CXCursor *)d = c;
    return CXChildVisit_Continue;
}

CXCursor hms_cursor_body(CXCursor fn)
{
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(fn, body_visit, &body);
    return body;
}

bool hms_cursor_two_children(CXCursor c, CXCursor *x, CXCursor *y)
{
    if (hms_cursor_nchildren(c) != 2)
        return false;
    *x = hms_cursor_child(c, 0);
    *y = hms_cursor_child(c, 1);
    return true;
}

typedef struct {
    enum CXCursorKind kind;
    bool found;
} attr_query;

static enum CXChildVisitResult attr_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    attr_query *q = d;
    if (clang_getCursorKind(c) == q->kind) {
        q->found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

bool hms_cursor_has_attr(CXCursor c, enum CXCursorKind attr)
{
    attr_query q = {attr, false};
    clang_visitChildren(c, attr_visit, &q);
    return q.found;
}

bool hms_cursor_is_kernel(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) &&
           hms_cursor_has_attr(c, CXCursor_CUDAGlobalAttr);
}

char *hms_cursor_file(CXCursor c, unsigned *line, unsigned *col)
{
    CXFile f = NULL;
    unsigned l = 0, cl = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &l, &cl, NULL);
    if (line)
        *line = l;
    if (col)
        *col = cl;
    if (!f)
        return NULL;
    CXString s = clang_getFileName(f);
    char *r = strdup(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

bool hms_cursor_offsets(CXCursor c, CXFile *file, unsigned *begin, unsigned *end)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile fb = NULL, fe = NULL;
    clang_getExpansionLocation(clang_getRangeStart(r), &fb, NULL, NULL, begin);
    clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, end);
    if (file)
        *file = fb;
    return fb && fe && clang_File_isEqual(fb, fe) && *end >= *begin;
}

bool hms_cursor_within(CXCursor inner, CXCursor outer)
{
    CXFile fi, fo;
    unsigned ib, ie, ob, oe;
    if (!hms_cursor_offsets(inner, &fi, &ib, &ie) || !hms_cursor_offsets(outer, &fo, &ob, &oe))
        return false;
    return clang_File_isEqual(fi, fo) && ib >= ob && ie <= oe && ie > ib;
}

char *hms_cursor_text(CXTranslationUnit tu, CXCursor c)
{
    CXFile f;
    unsigned b, e;
    size_t size = 0;
    const char *src = NULL;
    if (hms_cursor_offsets(c, &f, &b, &e))
        src = clang_getFileContents(tu, f, &size);
    if (!src || e > size)
        return strdup("");
    char *out = malloc(e - b + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    bool space = false;
    for (unsigned i = b; i < e; i++) {
        char ch = src[i];
        bool continuation = ch == '\\' && i + 1 < e && src[i + 1] == '\n';
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || continuation) {
            space = n > 0;
            continue;
        }
        if (space)
            out[n++] = ' ';
        space = false;
        out[n++] = ch;
    }
    out[n] = '\0';
    return out;
}

static char *take(CXString s)
{
    const char *t = clang_getCString(s);
    char *r = strdup(t ? t : "");
    clang_disposeString(s);
    return r;
}

char *hms_cursor_spelling(CXCursor c)
{
    return take(clang_getCursorSpelling(c));
}

char *hms_cursor_usr(CXCursor c)
{
    return take(clang_getCursorUSR(c));
}

char *hms_type_spelling(CXType t)
{
    return take(clang_getTypeSpelling(t));
}

static unsigned type_bits(CXType t, unsigned fallback)
{
    long long size = clang_Type_getSizeOf(t);
    return size > 0 ? (unsigned)size * 8 : fallback;
}

/* The arithmetic kinds of clang's type list: one row each. */
static const struct {
    enum CXTypeKind kind;
    hms_type_family family;
    bool is_unsigned;
} arithmetic_kinds[] = {
    {CXType_Char_U, HMS_TYPE_INTEGER, true},    {CXType_UChar, HMS_TYPE_INTEGER, true},
    {CXType_UShort, HMS_TYPE_INTEGER, true},    {CXType_UInt, HMS_TYPE_INTEGER, true},
    {CXType_ULong, HMS_TYPE_INTEGER, true},     {CXType_ULongLong, HMS_TYPE_INTEGER, true},
    {CXType_UInt128, HMS_TYPE_INTEGER, true},   {CXType_Char16, HMS_TYPE_INTEGER, true},
    {CXType_Char32, HMS_TYPE_INTEGER, true},    {CXType_Char_S, HMS_TYPE_INTEGER, false},
    {CXType_SChar, HMS_TYPE_INTEGER, false},    {CXType_WChar, HMS_TYPE_INTEGER, false},
    {CXType_Short, HMS_TYPE_INTEGER, false},    {CXType_Int, HMS_TYPE_INTEGER, false},
    {CXType_Long, HMS_TYPE_INTEGER, false},     {CXType_LongLong, HMS_TYPE_INTEGER, false},
    {CXType_Int128, HMS_TYPE_INTEGER, false},   {CXType_Half, HMS_TYPE_FLOATING, false},
    {CXType_Float16, HMS_TYPE_FLOATING, false}, {CXType_Float, HMS_TYPE_FLOATING, false},
    {CXType_Double, HMS_TYPE_FLOATING, false},  {CXType_LongDouble, HMS_TYPE_FLOATING, false},
};

hms_type_class hms_type_classify(CXType t)
{
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_Enum) {
        CXType u = clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t));
        if (u.kind == CXType_Invalid) /* an enum without a known base: C's int */
            return (hms_type_class){HMS_TYPE_INTEGER, 32, false};
        t = clang_getCanonicalType(u);
    }
    if (t.kind == CXType_Bool) /* one byte in memory, one bit of value */
        return (hms_type_class){HMS_TYPE_INTEGER, 1, true};
    for (size_t i = 0; i < sizeof arithmetic_kinds / sizeof *arithmetic_kinds; i++)
        if (arithmetic_kinds[i].kind == t.kind)
            return (hms_type_class){arithmetic_kinds[i].family, type_bits(t, 64),
                                    arithmetic_kinds[i].is_unsigned};
    return (hms_type_class){HMS_TYPE_OTHER, 0, false};
}

/* The hermetic header directory and its real path, resolved once per
 * process (pthread_once: -j workers ask at the same time). */
static const char *builtin_dir;
static char *builtin_real;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void resolve_builtin_dir(void)
{
    builtin_dir = hms_builtin_include_dir();
    builtin_real = builtin_dir ? realpath(builtin_dir, NULL) : NULL;
}

static bool under(const char *file, const char *dir)
{
    size_t n = dir ? strlen(dir) : 0;
    return n && file && strncmp(file, dir, n) == 0 && (file[n] == '/' || dir[n - 1] == '/');
}

bool hms_cursor_in_builtin_header(CXCursor c)
{
    CXSourceLocation loc = clang_getCursorLocation(c);
    if (clang_Location_isInSystemHeader(loc))
        return true;
    CXFile f = NULL;
    clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
    if (!f)
        return true; /* compiler built-ins */
    pthread_once(&builtin_once, resolve_builtin_dir);
    /* The name as opened or its real path: the directory may be reached
     * through symlinks either way. */
    CXString real = clang_File_tryGetRealPathName(f);
    CXString name = clang_getFileName(f);
    bool ours =
        under(clang_getCString(name), builtin_dir) || under(clang_getCString(real), builtin_real);
    clang_disposeString(real);
    clang_disposeString(name);
    return ours;
}
