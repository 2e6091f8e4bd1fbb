/* clang diagnostics -> hms-lint messages for one file. */
#include "analyzer/frontend/parse_diagnostics.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/cursor_util.h"

/* ---- a set of 64-bit hashes (deduplication) --------------------------------- */

typedef struct {
    uint64_t *slot;
    size_t cap, n;
} hash_set;

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h ? h : 1;
}

/* Inserts h; false when it was already there. */
static bool set_add(hash_set *s, uint64_t h)
{
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        uint64_t *ns = calloc(cap, sizeof *ns);
        if (!ns)
            return true;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i])
                for (size_t j = s->slot[i] & (cap - 1);; j = (j + 1) & (cap - 1))
                    if (!ns[j]) {
                        ns[j] = s->slot[i];
                        break;
                    }
        free(s->slot);
        s->slot = ns;
        s->cap = cap;
    }
    for (size_t j = h & (s->cap - 1);; j = (j + 1) & (s->cap - 1)) {
        if (s->slot[j] == h)
            return false;
        if (!s->slot[j]) {
            s->slot[j] = h;
            s->n++;
            return true;
        }
    }
}

/* ---- where device code is ----------------------------------------------------- */

typedef struct {
    CXFile file;
    unsigned begin, end;
    unsigned body;  /* offset of the body: before it, the declaration and its parameters */
    bool is_kernel; /* __global__ (else __device__) */
    char *name;
} range;

typedef struct {
    range *v;
    size_t n, cap;
} ranges;

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    range *x = d;
    if (clang_getCursorKind(c) != CXCursor_CompoundStmt)
        return CXChildVisit_Continue;
    CXFile f = NULL;
    unsigned b = 0, e = 0;
    if (hms_cursor_offsets(c, &f, &b, &e) && clang_File_isEqual(f, x->file))
        x->body = b;
    return CXChildVisit_Break;
}

static enum CXChildVisitResult find_device_code(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    ranges *r = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl ||
        k == CXCursor_StructDecl || k == CXCursor_ClassTemplate || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    bool fn = k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ||
              k == CXCursor_CXXMethod || k == CXCursor_Constructor;
    if (!fn || clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (!hms_cursor_has_attr(c, CXCursor_CUDAGlobalAttr) &&
        !hms_cursor_has_attr(c, CXCursor_CUDADeviceAttr))
        return CXChildVisit_Continue;
    range x;
    if (!hms_cursor_offsets(c, &x.file, &x.begin, &x.end))
        return CXChildVisit_Continue;
    x.body = x.end;
    clang_visitChildren(c, find_body, &x);
    x.is_kernel = hms_cursor_has_attr(c, CXCursor_CUDAGlobalAttr);
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        range *nv = realloc(r->v, cap * sizeof *nv);
        if (!nv)
            return CXChildVisit_Break;
        r->v = nv;
        r->cap = cap;
    }
    x.name = hms_cursor_spelling(c);
    r->v[r->n++] = x;
    return CXChildVisit_Continue;
}

/* The device function (kernel or __device__) holding offset off of f, or NULL. */
static const range *device_code_at(const ranges *r, CXFile f, unsigned off)
{
    for (size_t i = 0; i < r->n; i++)
        if (clang_File_isEqual(r->v[i].file, f) && off >= r->v[i].begin && off <= r->v[i].end)
            return &r->v[i];
    return NULL;
}

bool hms_in_device_code(CXTranslationUnit tu, CXSourceLocation loc)
{
    CXFile f = NULL;
    unsigned off = 0;
    clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
    if (!f)
        return false;
    ranges dev = {NULL, 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), find_device_code, &dev);
    bool in = device_code_at(&dev, f, off) != NULL;
    for (size_t i = 0; i < dev.n; i++)
        free(dev.v[i].name);
    free(dev.v);
    return in;
}

/* ---- garbage detection ---------------------------------------------------------- */

/* Declarations of the main file that show it is source: valid ones, and
 * function definitions or CUDA functions even when invalid (a kernel whose
 * parameter type is unknown is still a kernel; prose yields at most invalid
 * variables). */
static enum CXChildVisitResult count_decls(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)) || !clang_isDeclaration(k))
        return CXChildVisit_Continue;
    bool fn = k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ||
              k == CXCursor_CXXMethod || k == CXCursor_Constructor;
    if (!clang_isInvalidDeclaration(c) ||
        (fn && (clang_isCursorDefinition(c) || hms_cursor_has_attr(c, CXCursor_CUDAGlobalAttr) ||
                hms_cursor_has_attr(c, CXCursor_CUDADeviceAttr))))
        ++*(int *)d;
    return CXChildVisit_Continue;
}

/* ---- reporting ------------------------------------------------------------------ */

/* What an error is evidence of (see parse_diagnostics.h). */
typedef enum {
    E_SYNTAX,       /* clang's "Parse Issue"/"Lexical or Preprocessor Issue" */
    E_SEMANTIC,     /* other semantic errors */
    E_UNDECLARED,   /* use of an undeclared identifier or function */
    E_UNKNOWN_TYPE, /* unknown type name */
    E_NO_DECL,      /* no matching function, no template/type/member named in a namespace */
    E_DIALECT,      /* nvcc accepts it, clang does not (a device-side launch, ...) */
} error_kind;

typedef struct {
    char *file;
    unsigned line;
    char *msg;
} missing_header;

typedef struct {
    char *loc;   /* "<file>:<line>:<col>", NULL when clang gave no location */
    char *fname; /* the file of loc */
    unsigned col;
    char *msg;  /* clang's message */
    char *name; /* the first '...'-quoted name of the message, "" when none */
    error_kind kind;
    const range *fn; /* device function holding it, NULL in host code */
    bool in_params;  /* in fn's declaration, before its body */
    CXFile file;
    unsigned line;
    unsigned offset; /* byte offset in file */
} pending_error;

/* The first '...'-quoted part of a clang message (malloc'd), or `fallback`. */
static char *quoted(const char *msg, const char *fallback)
{
    const char *a = strchr(msg, '\'');
    const char *b = a ? strchr(a + 1, '\'') : NULL;
    if (!a || !b)
        return strdup(fallback);
    return strndup(a + 1, (size_t)(b - a - 1));
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

#define DEVICE_LAUNCH                                                                              \
    "a kernel launched from device code (dynamic parallelism), which clang does not implement: "   \
    "the child launch is not modelled"

/* Errors clang gives for code nvcc compiles, and what that costs the
 * analysis; NULL for any other message. */
static const char *nvcc_dialect(const char *msg)
{
    if (starts_with(msg, "reference to __global__ function"))
        return DEVICE_LAUNCH;
    if (starts_with(msg, "reference to __host__ function 'cudaConfigureCall'"))
        return "a kernel launched from device code with a stream (dynamic parallelism), which "
               "clang does not implement: the child launch is not modelled";
    if (!strcmp(msg, "invalid % escape in inline assembly string"))
        return "inline PTX naming a special register (%globaltimer, ...), which clang's asm "
               "parser rejects: inline assembly is not modelled";
    if (!strcmp(msg, "an attribute list cannot appear here"))
        return "an attribute (alignas) after __shared__ or another qualifier, which nvcc accepts "
               "and clang does not: the attribute is ignored";
    return NULL;
}

/* Does a note under d say the candidate was a kernel called from device
 * code (how clang reports a device-side launch of a template kernel)? */
static bool launch_from_device_note(CXDiagnostic d)
{
    CXDiagnosticSet kids = clang_getChildDiagnostics(d);
    bool found = false;
    for (unsigned i = 0; kids && i < clang_getNumDiagnosticsInSet(kids) && !found; i++) {
        CXDiagnostic k = clang_getDiagnosticInSet(kids, i);
        CXString s = clang_getDiagnosticSpelling(k);
        const char *m = clang_getCString(s);
        found = m && strstr(m, "call to __global__ function from __");
        clang_disposeString(s);
        clang_disposeDiagnostic(k);
    }
    return found;
}

static error_kind classify(CXDiagnostic d, const char *msg)
{
    if (nvcc_dialect(msg))
        return E_DIALECT;
    if (starts_with(msg, "no matching function for call to") && launch_from_device_note(d))
        return E_DIALECT;
    if (starts_with(msg, "use of undeclared identifier"))
        return E_UNDECLARED;
    if (starts_with(msg, "unknown type name"))
        return E_UNKNOWN_TYPE;
    if (!strcmp(msg, "expected namespace name")) /* using namespace N; N undeclared */
        return E_UNDECLARED;
    if (starts_with(msg, "no matching function for call to") ||
        starts_with(msg, "no template named") || starts_with(msg, "unknown template name") ||
        ((starts_with(msg, "no type named") || starts_with(msg, "no member named")) &&
         strstr(msg, "in namespace")))
        return E_NO_DECL;
    CXString cat = clang_getDiagnosticCategoryText(d);
    const char *c = clang_getCString(cat) ? clang_getCString(cat) : "";
    error_kind k = !strcmp(c, "Parse Issue") || !strcmp(c, "Lexical or Preprocessor Issue")
                       ? E_SYNTAX
                       : E_SEMANTIC;
    clang_disposeString(cat);
    return k;
}

/* Where the declaration of an unknown type probably is. */
static void where_declared(char *buf, size_t len, const char *first_missing, int nmissing)
{
    if (nmissing == 1)
        snprintf(buf, len, "probably declared in the missing header '%s'", first_missing);
    else if (nmissing > 1)
        snprintf(buf, len, "probably declared in one of the missing headers ('%s', ...)",
                 first_missing);
    else
        snprintf(buf, len,
                 "declared in a header this file does not include (or in the file that "
                 "#includes it): add it with -include <header> after --");
}

typedef enum { AS_ERROR, AS_WARNING, AS_IGNORED } verdict;

/* A host syntax error this many lines below a missing declaration is taken
 * to be its consequence when no statement ends or block opens between them
 * (one statement over several lines). */
#define HOST_STATEMENT_LINES 2

static bool one_statement(CXTranslationUnit tu, CXFile f, unsigned from, unsigned to)
{
    size_t len = 0;
    const char *text = clang_getFileContents(tu, f, &len);
    if (!text || from > to || to > len)
        return false;
    for (unsigned i = from; i < to; i++)
        if (text[i] == ';' || text[i] == '{' || text[i] == '}')
            return false;
    return true;
}

/* How an error is reported; *warning is set (malloc'd) for AS_WARNING: the
 * message, located at the error. */
static verdict judge(const pending_error *e, const char *first_missing, int nmissing,
                     char **warning, bool beside_missing_decl)
{
    *warning = NULL;
    if (!e->loc)
        return AS_ERROR;
    int r = -1;
    if (e->kind == E_DIALECT) {
        const char *why = nvcc_dialect(e->msg);
        r = asprintf(warning, "%s", why ? why : DEVICE_LAUNCH);
    } else if (e->kind == E_SYNTAX) {
        /* A syntax error on a line whose declaration is missing is its
         * consequence (`DWORD WINAPI f(...)` with <windows.h> missing:
         * "unknown type name 'DWORD'", then "expected ';'"; `(fp *)x` in a
         * file whose includer defines fp; thrust::device_ptr<T>(p) parsed
         * as comparisons without thrust), reported already. */
        if (beside_missing_decl)
            return AS_IGNORED;
        return AS_ERROR;
    } else if (!e->fn) {
        /* Host code is not analysed: what it lacks, or what clang rejects in
         * it, does not matter. With a header missing, all its (non-syntax)
         * errors are blamed on it. */
        if (nmissing > 0)
            return AS_IGNORED;
        r = asprintf(warning, "%s (in host code, which is not analysed: ignored)", e->msg);
    } else if (e->kind == E_UNKNOWN_TYPE) {
        char where[512];
        where_declared(where, sizeof where, first_missing, nmissing);
        const char *what = e->fn->is_kernel ? "kernel" : "device function";
        r = e->in_params ? asprintf(warning,
                                    "unknown type '%s' for a parameter of "
                                    "%s '%s', %s; accesses through it are not modelled",
                                    e->name, what, e->fn->name, where)
                         : asprintf(warning, "unknown type '%s' in %s '%s', %s", e->name, what,
                                    e->fn->name, where);
    } else if (e->kind == E_UNDECLARED && *e->name) {
        /* A file #included by another relies on its includer's macros. */
        r = asprintf(warning,
                     "undeclared '%s' in kernel code%s; define it with "
                     "-D %s=<value>",
                     e->name,
                     nmissing > 0 ? "" : " (declared in the file that #includes this one?)",
                     e->name);
    } else if (e->kind == E_NO_DECL && nmissing > 0) {
        /* A type from the missing header became int: the call no longer
         * matches (llm.c's floatX without the header bringing bf16). */
        r = asprintf(warning,
                     "%s, probably because '%s' is missing: what depends "
                     "on it is not modelled",
                     e->msg, first_missing);
    } else if (e->kind == E_NO_DECL && strstr(e->msg, "in namespace")) {
        r = asprintf(warning,
                     "%s (not declared by hms-lint's CUDA headers or a "
                     "missing one): what depends on it is not modelled",
                     e->msg);
    } else {
        return AS_ERROR;
    }
    if (r < 0) {
        *warning = NULL;
        return AS_ERROR;
    }
    return AS_WARNING;
}

static void pending_free(pending_error *e)
{
    free(e->loc);
    free(e->fname);
    free(e->msg);
    free(e->name);
}

hms_diag_summary hms_report_diagnostics(CXTranslationUnit tu, const char *path, bool has_nul,
                                        bool truncated, unsigned long appended_from, CXFile only,
                                        hms_diag_sink *diags)
{
    hms_diag_summary sum = {0};
    ranges dev = {NULL, 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), find_device_code, &dev);
    hash_set seen = {NULL, 0, 0};
    missing_header *missing = NULL; /* one per missing header */
    char *first_missing = NULL;
    pending_error *errs = NULL;
    size_t nerr = 0;

    unsigned nd = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error) {
            clang_disposeDiagnostic(d);
            continue;
        }
        CXString ms = clang_getDiagnosticSpelling(d);
        const char *msg = clang_getCString(ms) ? clang_getCString(ms) : "";
        CXFile f = NULL;
        unsigned line = 0, col = 0, off = 0;
        CXSourceLocation dl = clang_getDiagnosticLocation(d);
        clang_getExpansionLocation(dl, &f, &line, &col, &off);
        bool ours = only ? f && clang_File_isEqual(f, only) : clang_Location_isFromMainFile(dl);
        if ((only && !ours) || (appended_from > 0 && off >= appended_from && ours)) {
            clang_disposeString(ms);
            clang_disposeDiagnostic(d);
            continue; /* the includer's, or in the lines appended for the parse */
        }
        CXString fs = clang_getFileName(f);
        const char *fname = f && clang_getCString(fs) ? clang_getCString(fs) : path;
        char *line_text = NULL;
        if (strstr(msg, "file not found")) {
            char *h = quoted(msg, msg);
            missing_header *nm = realloc(missing, (size_t)(sum.missing_includes + 1) * sizeof *nm);
            if (nm)
                missing = nm;
            if (nm && set_add(&seen, fnv1a(h) ^ 0x5bd1e995u) &&
                asprintf(&line_text, "'%s' not found; analysing without it", h) >= 0) {
                missing[sum.missing_includes++] = (missing_header){strdup(fname), line, line_text};
                if (!first_missing) {
                    first_missing = h;
                    h = NULL;
                }
            }
            free(h);
        } else {
            pending_error e = {
                NULL,  NULL, 0,    strdup(msg), quoted(msg, ""), classify(d, msg), NULL,
                false, f,    line, off};
            e.col = col;
            e.fname = f ? strdup(fname) : NULL;
            if (f && asprintf(&e.loc, "%s:%u:%u", fname, line, col) < 0)
                e.loc = NULL;
            if (f && e.loc) {
                e.fn = device_code_at(&dev, f, off);
                e.in_params = e.fn && off < e.fn->body;
            }
            char *key = NULL;
            pending_error *ne = NULL;
            if (e.msg && e.name && asprintf(&key, "%s: %s", e.loc ? e.loc : "", e.msg) >= 0 &&
                set_add(&seen, fnv1a(key)) && (ne = realloc(errs, (nerr + 1) * sizeof *ne))) {
                errs = ne;
                errs[nerr++] = e;
            } else {
                pending_free(&e);
            }
            free(key);
        }
        clang_disposeString(fs);
        clang_disposeString(ms);
        clang_disposeDiagnostic(d);
    }

    int decls = 0;
    clang_visitChildren(clang_getTranslationUnitCursor(tu), count_decls, &decls);
    /* Garbage: binary data, or text in which clang found nothing it could
     * declare and several errors (one broken declaration is a real file, and
     * so is one whose #include failed: its errors may all come from that). */
    if (has_nul || (decls == 0 && nerr >= 2 && sum.missing_includes == 0)) {
        sum.not_source = true;
        hms_diagf(diags, (hms_diag_head){HMS_DIAG_ERROR, path, 0, 0, NULL, NULL},
                  "not a CUDA/C++ source file (%zu parse errors%s)", nerr,
                  truncated ? " in its first 64 KiB" : "");
    } else {
        for (int i = 0; i < sum.missing_includes; i++)
            hms_diagf(
                diags,
                (hms_diag_head){HMS_DIAG_WARNING, missing[i].file, missing[i].line, 0, NULL, NULL},
                "%s", missing[i].msg);
        int printed = 0, hidden = 0, wprinted = 0, whidden = 0;
        for (size_t i = 0; i < nerr; i++) {
            char *w = NULL;
            bool follows = false;
            /* In host code one statement spread over lines (thrust::sort(
             * make_zip_iterator(...), ...) without thrust) counts too. */
            unsigned span = errs[i].fn ? 0 : HOST_STATEMENT_LINES;
            for (size_t j = 0; j < nerr && !follows; j++)
                follows = errs[j].kind != E_SYNTAX && errs[j].kind != E_SEMANTIC &&
                          errs[j].kind != E_DIALECT && errs[j].fn == errs[i].fn &&
                          errs[j].line <= errs[i].line && errs[j].line + span >= errs[i].line &&
                          errs[j].file && errs[i].file &&
                          clang_File_isEqual(errs[j].file, errs[i].file) &&
                          (errs[j].line == errs[i].line ||
                           one_statement(tu, errs[j].file, errs[j].offset, errs[i].offset));
            switch (judge(&errs[i], first_missing, sum.missing_includes, &w, follows)) {
            case AS_IGNORED:
                sum.ignored_errors++;
                break;
            case AS_WARNING:
                sum.tolerated_errors++;
                /* One warning per undeclared name (TILE used ten times). */
                if (errs[i].fn && errs[i].kind == E_UNDECLARED &&
                    !set_add(&seen, fnv1a(errs[i].name) ^ 0x27d4eb2fu))
                    break;
                if (wprinted < HMS_MAX_PRINTED_ERRORS) {
                    hms_diagf(diags,
                              (hms_diag_head){HMS_DIAG_WARNING, errs[i].fname, errs[i].line,
                                              errs[i].col, NULL, NULL},
                              "%s", w);
                    wprinted++;
                } else {
                    whidden++;
                }
                break;
            case AS_ERROR:
                sum.errors++;
                if (printed < HMS_MAX_PRINTED_ERRORS) {
                    /* The compiler's form, which editors' problem matchers read. */
                    hms_diagf(diags,
                              (hms_diag_head){HMS_DIAG_ERROR, errs[i].fname ? errs[i].fname : path,
                                              errs[i].fname ? errs[i].line : 0,
                                              errs[i].fname ? errs[i].col : 0, HMS_PARSE_ERROR_CODE,
                                              NULL},
                              "%s", errs[i].msg);
                    printed++;
                } else {
                    hidden++;
                }
                break;
            }
            free(w);
        }
        if (hidden > 0)
            hms_diagf(diags, (hms_diag_head){HMS_DIAG_NOTE, path, 0, 0, NULL, NULL},
                      "%d more error%s not shown", hidden, hidden == 1 ? "" : "s");
        if (whidden > 0)
            hms_diagf(diags, (hms_diag_head){HMS_DIAG_NOTE, path, 0, 0, NULL, NULL},
                      "%d more warning%s not shown", whidden, whidden == 1 ? "" : "s");
        if (sum.ignored_errors > 0)
            hms_diagf(diags, (hms_diag_head){HMS_DIAG_NOTE, path, 0, 0, NULL, NULL},
                      "%d error%s outside device code ignored: they "
                      "probably come from the missing header%s",
                      sum.ignored_errors, sum.ignored_errors == 1 ? "" : "s",
                      sum.missing_includes == 1 ? "" : "s");
    }

    for (int i = 0; i < sum.missing_includes; i++) {
        free(missing[i].file);
        free(missing[i].msg);
    }
    free(missing);
    free(first_missing);
    for (size_t i = 0; i < nerr; i++)
        pending_free(&errs[i]);
    free(errs);
    free(seen.slot);
    for (size_t i = 0; i < dev.n; i++)
        free(dev.v[i].name);
    free(dev.v);
    return sum;
}
