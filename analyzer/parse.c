/* libclang parsing with hermetic CUDA flags and compile_commands.json. */
#include "analyzer/parse.h"

#include <clang-c/CXCompilationDatabase.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *hms_builtin_include_dir(void)
{
    const char *env = getenv("HMS_LINT_INCLUDE_DIR");
    return env && *env ? env : HMS_BUILTIN_INCLUDE_DIR;
}

/* Flags that make clang parse CUDA device code without any toolkit. */
static const char *const hermetic_flags[] = {
    "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
    "--no-cuda-version-check", "--cuda-gpu-arch=sm_70", "-std=c++17",
    "-D__HMS_LINT__=1", "-Wno-unknown-cuda-version", "-ferror-limit=0",
    "-Wno-everything",
};

/* Compile-database arguments worth keeping: include paths, macros, language std. */
static bool keep_db_arg(const char *a, bool *takes_next)
{
    *takes_next = false;
    if (!strcmp(a, "-I") || !strcmp(a, "-D") || !strcmp(a, "-isystem") || !strcmp(a, "-include")) {
        *takes_next = true;
        return true;
    }
    return !strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) ||
           !strncmp(a, "-std=", 5) || !strncmp(a, "-isystem", 8);
}

static void add_db_args(const hms_options *o, const char *path, hms_strvec *args, FILE *err)
{
    if (!o->build_dir)
        return;
    CXCompilationDatabase_Error dberr;
    CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(o->build_dir, &dberr);
    if (dberr != CXCompilationDatabase_NoError || !db) {
        fprintf(err, "hms-lint: warning: %s: no compile_commands.json could be read\n",
                o->build_dir);
        return;
    }
    char *abs = realpath(path, NULL);
    CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, abs ? abs : path);
    free(abs);
    if (clang_CompileCommands_getSize(cmds) == 0) {
        fprintf(err, "hms-lint: warning: %s: not in %s/compile_commands.json; using defaults\n",
                path, o->build_dir);
    } else {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
        unsigned n = clang_CompileCommand_getNumArgs(cmd);
        bool take_next = false;
        for (unsigned i = 1; i < n; i++) {
            CXString s = clang_CompileCommand_getArg(cmd, i);
            const char *a = clang_getCString(s);
            bool next = false;
            if (take_next || keep_db_arg(a, &next))
                hms_strvec_push(args, strdup(a));
            take_next = next;
            clang_disposeString(s);
        }
    }
    clang_CompileCommands_dispose(cmds);
    clang_CompilationDatabase_dispose(db);
}

static bool is_missing_include(CXDiagnostic d)
{
    CXString s = clang_getDiagnosticSpelling(d);
    const char *t = clang_getCString(s);
    bool r = t && strstr(t, "file not found") != NULL;
    clang_disposeString(s);
    return r;
}

bool hms_parse_file(const hms_options *o, const char *path, hms_tu *out, FILE *err)
{
    memset(out, 0, sizeof *out);
    out->path = path;

    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(err, "hms-lint: error: %s: %s\n", path, strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        fprintf(err, "hms-lint: error: %s: is a directory\n", path);
        return false;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(err, "hms-lint: error: %s: %s\n", path, strerror(errno));
        return false;
    }
    fclose(f);

    hms_strvec args = {0};
    /* owned[i] marks strings we strdup'd and must free. */
    for (size_t i = 0; i < sizeof hermetic_flags / sizeof *hermetic_flags; i++)
        hms_strvec_push(&args, hermetic_flags[i]);
    size_t first_owned = args.n;
    char *inc = NULL;
    if (asprintf(&inc, "-I%s", hms_builtin_include_dir()) < 0)
        inc = NULL;
    add_db_args(o, path, &args, err);
    size_t end_owned = args.n;
    /* Our headers come after the project's -I so a project may shadow them,
     * but before the system ones, where a CUDA toolkit's headers would be. */
    if (inc)
        hms_strvec_push(&args, inc);
    for (size_t i = 0; i < o->compiler_args.n; i++)
        hms_strvec_push(&args, o->compiler_args.v[i]);

    out->index = clang_createIndex(0, 0);
    unsigned flags = CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord |
                     CXTranslationUnit_SkipFunctionBodies * 0;
    enum CXErrorCode ec = clang_parseTranslationUnit2(out->index, path, args.v, (int)args.n, NULL,
                                                      0, flags, &out->tu);
    for (size_t i = first_owned; i < end_owned; i++)
        free((char *)args.v[i]);
    free(inc);
    hms_strvec_free(&args);

    if (ec != CXError_Success || !out->tu) {
        fprintf(err, "hms-lint: error: %s: libclang could not parse the file (error %d)\n", path,
                (int)ec);
        clang_disposeIndex(out->index);
        out->index = NULL;
        out->tu = NULL;
        return false;
    }

    unsigned nd = clang_getNumDiagnostics(out->tu);
    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic d = clang_getDiagnostic(out->tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev >= CXDiagnostic_Error) {
            bool missing = is_missing_include(d);
            CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation |
                                                       CXDiagnostic_DisplayColumn);
            if (missing) {
                out->missing_includes++;
                fprintf(err, "hms-lint: warning: %s: %s (analysis continues without it)\n",
                        path, clang_getCString(s));
            } else {
                out->errors++;
                fprintf(err, "hms-lint: error: %s: %s\n", path, clang_getCString(s));
            }
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
    return true;
}

void hms_tu_dispose(hms_tu *t)
{
    if (t->tu)
        clang_disposeTranslationUnit(t->tu);
    if (t->index)
        clang_disposeIndex(t->index);
    t->tu = NULL;
    t->index = NULL;
}
