/* Finding the file that #includes this one (includer.h). */
#include "analyzer/frontend/includer.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyzer/frontend/compile_db_sources.h"
#include "analyzer/frontend/parse_diagnostics.h"

/* Bounds of the textual scan: it runs only for a file that lacks context,
 * and must stay cheap next to a parse even in a large tree. */
#define MAX_LEVELS_UP 2    /* the file's folder, its parent, its grandparent */
#define MAX_FILES_READ 400 /* candidate sources opened */
#define MAX_FILE_BYTES (2 << 20)

static const char *const source_exts[] = {".cu", ".cpp", ".cc", ".cxx", ".c", NULL};

typedef struct {
    const char *name; /* the file name looked for in #include lines */
    const char *self; /* the file itself (real path): not its own includer */
    char **out;
    size_t n;
    size_t files_read;
} search;

static bool is_source(const char *name)
{
    size_t n = strlen(name);
    for (const char *const *e = source_exts; *e; e++) {
        size_t m = strlen(*e);
        if (n > m && !strcmp(name + n - m, *e))
            return true;
    }
    return false;
}

static bool full(const search *s)
{
    return s->n >= HMS_MAX_INCLUDERS || s->files_read >= MAX_FILES_READ;
}

/* Does a line of text `#include "…/name"` (or <…/name>) name s->name? */
static bool includes_name(const char *text, size_t len, const char *name)
{
    size_t nl = strlen(name);
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (j < len && text[j] == '#') {
            j++;
            while (j < len && (text[j] == ' ' || text[j] == '\t'))
                j++;
            if (len - j > 7 && !strncmp(text + j, "include", 7)) {
                j += 7;
                while (j < len && (text[j] == ' ' || text[j] == '\t'))
                    j++;
                if (j < len && (text[j] == '"' || text[j] == '<')) {
                    char close = text[j] == '"' ? '"' : '>';
                    size_t a = ++j;
                    while (j < len && text[j] != close && text[j] != '\n')
                        j++;
                    size_t last = a; /* the last component of the included path */
                    for (size_t k = a; k < j; k++)
                        if (text[k] == '/' || text[k] == '\\')
                            last = k + 1;
                    if (j < len && text[j] == close && j - last == nl &&
                        !strncmp(text + last, name, nl))
                        return true;
                }
            }
        }
        const char *eol = memchr(text + j, '\n', len - j);
        i = eol ? (size_t)(eol - text) + 1 : len;
    }
    return false;
}

static void add(search *s, const char *real)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->out[i], real))
            return;
    char *dup = strdup(real);
    if (dup)
        s->out[s->n++] = dup;
}

static void scan_file(search *s, const char *file)
{
    char real[PATH_MAX];
    struct stat st;
    if (full(s) || !realpath(file, real) || !strcmp(real, s->self) || stat(real, &st) != 0 ||
        !S_ISREG(st.st_mode) || st.st_size > MAX_FILE_BYTES)
        return;
    FILE *f = fopen(real, "rb");
    if (!f)
        return;
    s->files_read++;
    char *text = malloc((size_t)st.st_size + 1);
    size_t len = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    if (text && includes_name(text, len, s->name))
        add(s, real);
    free(text);
}

/* The sources of dir, then (depth > 0) its folders but `skip` (the subtree
 * already searched), in name order. */
static void walk(search *s, const char *dir, int depth, const char *skip)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0)
        return;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n && !full(s); i++) {
            const char *e = names[i]->d_name;
            if (e[0] == '.')
                continue; /* ., .. and hidden folders (.git) */
            char *p = NULL;
            if (asprintf(&p, "%s/%s", dir, e) < 0)
                continue;
            struct stat st;
            if (stat(p, &st) == 0) {
                if (pass == 0 && S_ISREG(st.st_mode) && is_source(e))
                    scan_file(s, p);
                else if (pass == 1 && S_ISDIR(st.st_mode) && depth > 0 &&
                         (!skip || strcmp(p, skip) != 0))
                    walk(s, p, depth - 1, NULL);
            }
            free(p);
        }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

size_t hms_find_includers(const char *path, const char *build_dir, char **out)
{
    char self[PATH_MAX];
    if (!realpath(path, self))
        return 0;
    char *slash = strrchr(self, '/');
    if (!slash)
        return 0;
    search s = {slash + 1, self, out, 0, 0};
    char dir[PATH_MAX], below[PATH_MAX] = "";
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - self), self);
    if (!*dir)
        snprintf(dir, sizeof dir, "/");
    for (int up = 0; up <= MAX_LEVELS_UP && !full(&s); up++) {
        walk(&s, dir, up, *below ? below : NULL);
        char *cut = strrchr(dir, '/');
        if (!cut || cut == dir)
            break; /* the root reached */
        snprintf(below, sizeof below, "%s", dir);
        *cut = '\0';
    }
    if (build_dir && !full(&s)) {
        hms_flag_list db = {0};
        /* NULL sink: the database's own errors are reported elsewhere. */
        hms_compile_db_cuda_sources(build_dir, &db, NULL);
        for (size_t i = 0; i < db.n && !full(&s); i++)
            scan_file(&s, db.v[i]);
        hms_flag_list_free(&db);
    }
    return s.n;
}

/* ---- what the parse alone says ----------------------------------------------- */

static bool in_file(CXDiagnostic d, CXFile f)
{
    CXFile df = NULL;
    clang_getExpansionLocation(clang_getDiagnosticLocation(d), &df, NULL, NULL, NULL);
    return df && f && clang_File_isEqual(df, f);
}

unsigned hms_context_errors(CXTranslationUnit tu, CXFile f)
{
    unsigned n = 0, nd = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && in_file(d, f)) {
            CXString s = clang_getDiagnosticSpelling(d);
            const char *m = clang_getCString(s) ? clang_getCString(s) : "";
            if ((!strncmp(m, "unknown type name", 17) ||
                 !strncmp(m, "use of undeclared identifier", 28)) &&
                hms_in_device_code(tu, clang_getDiagnosticLocation(d)))
                n++;
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
    return n;
}
