/* clang diagnostics -> hms-lint messages for one file. */
#include "analyzer/parse_diagnostics.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/cursor_util.h"

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
} range;

typedef struct {
    range *v;
    size_t n, cap;
} ranges;

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
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        range *nv = realloc(r->v, cap * sizeof *nv);
        if (!nv)
            return CXChildVisit_Break;
        r->v = nv;
        r->cap = cap;
    }
    r->v[r->n++] = x;
    return CXChildVisit_Continue;
}

static bool in_device_code(const ranges *r, CXFile f, unsigned off)
{
    for (size_t i = 0; i < r->n; i++)
        if (clang_File_isEqual(r->v[i].file, f) && off >= r->v[i].begin && off <= r->v[i].end)
            return true;
    return false;
}

/* ---- garbage detection ---------------------------------------------------------- */

static enum CXChildVisitResult count_decls(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_Location_isFromMainFile(clang_getCursorLocation(c)) &&
        clang_isDeclaration(clang_getCursorKind(c)) && !clang_isInvalidDeclaration(c))
        ++*(int *)d;
    return CXChildVisit_Continue;
}

/* ---- reporting ------------------------------------------------------------------ */

typedef struct {
    char *text; /* the whole line to print */
    bool in_device;
    bool located;
} pending_error;

static char *header_name(const char *msg)
{
    const char *a = strchr(msg, '\'');
    const char *b = a ? strchr(a + 1, '\'') : NULL;
    if (!a || !b)
        return strdup(msg);
    return strndup(a + 1, (size_t)(b - a - 1));
}

hms_diag_summary hms_report_diagnostics(CXTranslationUnit tu, const char *path, bool has_nul,
                                        bool truncated, FILE *err)
{
    hms_diag_summary sum = {0, 0, 0, false};
    ranges dev = {NULL, 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), find_device_code, &dev);
    hash_set seen = {NULL, 0, 0};
    char **warnings = NULL;
    size_t nwarn = 0;
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
        clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, &off);
        CXString fs = clang_getFileName(f);
        const char *fname = f && clang_getCString(fs) ? clang_getCString(fs) : path;
        char *line_text = NULL;
        if (strstr(msg, "file not found")) {
            char *h = header_name(msg);
            if (set_add(&seen, fnv1a(h) ^ 0x5bd1e995u) &&
                asprintf(&line_text,
                         "hms-lint: warning: %s:%u: '%s' not found; analysing without it\n", fname,
                         line, h) >= 0) {
                char **nw = realloc(warnings, (nwarn + 1) * sizeof *nw);
                if (nw) {
                    warnings = nw;
                    warnings[nwarn++] = line_text;
                    sum.missing_includes++;
                } else {
                    free(line_text);
                }
            }
            free(h);
        } else {
            int r =
                f ? asprintf(&line_text, "hms-lint: error: %s:%u:%u: %s\n", fname, line, col, msg)
                  : asprintf(&line_text, "hms-lint: error: %s: %s\n", path, msg);
            if (r >= 0 && set_add(&seen, fnv1a(line_text))) {
                pending_error *ne = realloc(errs, (nerr + 1) * sizeof *ne);
                if (ne) {
                    errs = ne;
                    errs[nerr].text = line_text;
                    errs[nerr].located = f != NULL;
                    errs[nerr].in_device = f && in_device_code(&dev, f, off);
                    nerr++;
                    line_text = NULL;
                }
            }
            free(line_text);
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
        fprintf(err, "hms-lint: error: %s: not a CUDA/C++ source file (%zu parse errors%s)\n", path,
                nerr, truncated ? " in its first 64 KiB" : "");
    } else {
        for (size_t i = 0; i < nwarn; i++)
            fputs(warnings[i], err);
        int printed = 0, hidden = 0;
        for (size_t i = 0; i < nerr; i++) {
            if (sum.missing_includes > 0 && errs[i].located && !errs[i].in_device) {
                sum.ignored_errors++;
                continue;
            }
            sum.errors++;
            if (printed < HMS_MAX_PRINTED_ERRORS) {
                fputs(errs[i].text, err);
                printed++;
            } else {
                hidden++;
            }
        }
        if (hidden > 0)
            fprintf(err, "hms-lint: note: %s: %d more error%s not shown\n", path, hidden,
                    hidden == 1 ? "" : "s");
        if (sum.ignored_errors > 0)
            fprintf(err,
                    "hms-lint: note: %s: %d error%s outside device code ignored: they "
                    "probably come from the missing header%s\n",
                    path, sum.ignored_errors, sum.ignored_errors == 1 ? "" : "s",
                    sum.missing_includes == 1 ? "" : "s");
    }

    for (size_t i = 0; i < nwarn; i++)
        free(warnings[i]);
    free(warnings);
    for (size_t i = 0; i < nerr; i++)
        free(errs[i].text);
    free(errs);
    free(seen.slot);
    free(dev.v);
    return sum;
}
