/* Keeping the flags that matter for parsing, from compile databases and from
 * the user, and dropping nvcc's code-generation flags. */
#include "analyzer/frontend/compile_flags.h"

#include "analyzer/frontend/response_files.h"

#include <clang-c/CXCompilationDatabase.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void hms_flag_list_push(hms_flag_list *l, const char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return;
        l->v = nv;
        l->cap = cap;
    }
    char *c = strdup(s);
    if (c)
        l->v[l->n++] = c;
}

void hms_flag_list_free(hms_flag_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

static bool exists_in(const char *dir, const char *rel)
{
    char *p = NULL;
    if (asprintf(&p, "%s/%s", dir, rel) < 0)
        return false;
    bool r = access(p, F_OK) == 0;
    free(p);
    return r;
}

bool hms_is_cuda_toolkit_include(const char *dir)
{
    return exists_in(dir, "crt/host_config.h") ||
           (exists_in(dir, "host_config.h") && exists_in(dir, "cuda_runtime_api.h"));
}

/* Flags whose value is the next argument and which we drop with it. */
static const char *const drop_with_value[] = {
    "-o",
    "-x",
    "-Xcompiler",
    "-Xptxas",
    "-Xlinker",
    "-Xnvlink",
    "-Xarchive",
    "-Xclang",
    "-ccbin",
    "-gencode",
    "-arch",
    "-code",
    "-MF",
    "-MT",
    "-MQ",
    "-target",
    "--target",
    "-include-pch",
    "-odir",
    "-maxrregcount",
    "--compiler-bindir",
    "--output-file",
    "--generate-code",
    "--gpu-architecture",
    "--gpu-code",
    "--compiler-options",
    "--linker-options",
    "--ptxas-options",
    "--maxrregcount",
    "--output-directory",
    "--relocatable-device-code",
    "-rdc",
    "--default-stream",
    "-default-stream",
    "--threads",
    "-t",
    "--dependency-output",
    "-L",
    "-l",
    "--library-path",
    "--library",
};

static bool in_list(const char *a, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(a, list[i]))
            return true;
    return false;
}

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* Splits a flag spelled "--long=value", "--long value", "-Xvalue" or "-X value":
 * if a starts with one of the spellings, returns the value (from a or from
 * next, setting *used_next). */
static const char *flag_value(const char *a, const char *next, const char *const *names, size_t n,
                              bool *used_next)
{
    *used_next = false;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        if (strncmp(a, names[i], len) != 0)
            continue;
        const char *rest = a + len;
        if (*rest == '\0') {
            if (!next)
                return NULL;
            *used_next = true;
            return next;
        }
        if (*rest == '=')
            return rest + 1;
        /* Attached values: -Ifoo, -DX, -isystem/usr/x; not -stdlib=..., -includefoo. */
        if (len == 2 || !strcmp(names[i], "-isystem") || !strcmp(names[i], "-iquote"))
            return rest;
    }
    return NULL;
}

static char *absolute(const char *p, const char *directory)
{
    char *r = NULL;
    if (p[0] == '/' || !directory || !*directory)
        return strdup(p);
    if (asprintf(&r, "%s/%s", directory, p) < 0)
        return NULL;
    return r;
}

static bool old_std(const char *v)
{
    return strstr(v, "98") || strstr(v, "03");
}

static const char *const inc_names[] = {"--include-path", "-I"};
static const char *const sys_names[] = {"--system-include", "-isystem"};
static const char *const quote_names[] = {"-iquote"};
static const char *const def_names[] = {"--define-macro", "-D"};
static const char *const undef_names[] = {"--undefine-macro", "-U"};
static const char *const pre_names[] = {"--pre-include", "-include"};
static const char *const std_names[] = {"--std", "-std"};

/* Recognises the flags worth keeping; appends their clang spelling. Returns
 * the number of arguments consumed (0: not a kept flag). */
static int keep_flag(const char *a, const char *next, const char *directory, hms_flag_list *out,
                     char **dropped_toolkit)
{
    bool used_next;
    const char *v;
    char *path, *flag = NULL;
    *dropped_toolkit = NULL;
    if ((v = flag_value(a, next, sys_names, COUNT(sys_names), &used_next)) ||
        (v = flag_value(a, next, quote_names, COUNT(quote_names), &used_next)) ||
        (v = flag_value(a, next, inc_names, COUNT(inc_names), &used_next))) {
        const char *kind = !strncmp(a, "-isystem", 8) || !strncmp(a, "--system-include", 16)
                               ? "-isystem"
                           : !strncmp(a, "-iquote", 7) ? "-iquote"
                                                       : "-I";
        path = absolute(v, directory);
        if (path && hms_is_cuda_toolkit_include(path)) {
            *dropped_toolkit = path;
            path = NULL;
        } else if (path && asprintf(&flag, "%s%s", kind, path) >= 0) {
            hms_flag_list_push(out, flag);
            free(flag);
        }
        free(path);
        return used_next ? 2 : 1;
    }
    if ((v = flag_value(a, next, def_names, COUNT(def_names), &used_next)) ||
        (v = flag_value(a, next, undef_names, COUNT(undef_names), &used_next))) {
        bool def = a[1] == 'D' || !strncmp(a, "--define", 8);
        if (asprintf(&flag, "%s%s", def ? "-D" : "-U", v) >= 0) {
            hms_flag_list_push(out, flag);
            free(flag);
        }
        return used_next ? 2 : 1;
    }
    if ((v = flag_value(a, next, pre_names, COUNT(pre_names), &used_next)) &&
        strcmp(a, "-include-pch") != 0) {
        path = absolute(v, directory);
        if (path && access(path, F_OK) != 0) {
            free(path);
            path = strdup(v); /* leave it to clang's include search */
        }
        hms_flag_list_push(out, "-include");
        if (path)
            hms_flag_list_push(out, path);
        free(path);
        return used_next ? 2 : 1;
    }
    if ((v = flag_value(a, next, std_names, COUNT(std_names), &used_next))) {
        if (!old_std(v) && asprintf(&flag, "-std=%s", v) >= 0) {
            hms_flag_list_push(out, flag);
            free(flag);
        }
        return used_next ? 2 : 1;
    }
    return 0;
}

void hms_flags_from_command(const char *const *argv, size_t argc, const char *directory,
                            hms_flag_list *out)
{
    for (size_t i = 1; i < argc; i++) {
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        char *toolkit = NULL;
        int used = keep_flag(argv[i], next, directory, out, &toolkit);
        free(toolkit);
        if (used > 0) {
            i += (size_t)used - 1;
            continue;
        }
        if (in_list(argv[i], drop_with_value, COUNT(drop_with_value)) && next)
            i++;
    }
}

/* nvcc flags clang does not know (or that would change what we parse). */
static bool nvcc_only(const char *a)
{
    static const char *const exact[] = {
        "-G",
        "-lineinfo",
        "--use_fast_math",
        "-use_fast_math",
        "-c",
        "-dc",
        "-dw",
        "-dlink",
        "-keep",
        "--keep",
        "-cubin",
        "-ptx",
        "-fatbin",
        "-M",
        "-MD",
        "-MMD",
        "-E",
        "-v",
        "--verbose",
        "--device-c",
        "--device-w",
        "--compile",
        "--extended-lambda",
        "--expt-extended-lambda",
        "--expt-relaxed-constexpr",
        "-lcudart",
        "-cudart",
        "--cudart",
        "-shared",
        "--shared",
        "-m64",
        "-Werror=all-warnings",
    };
    static const char *const prefixes[] = {
        "-gencode=",
        "--generate-code=",
        "-arch=",
        "--gpu-architecture=",
        "-code=",
        "--gpu-code=",
        "--expt-",
        "-rdc=",
        "--relocatable-device-code=",
        "-O",
        "--optimize",
        "-Xcompiler=",
        "--compiler-options=",
        "-Xptxas=",
        "--ptxas-options=",
        "-maxrregcount=",
        "--maxrregcount=",
        "-ccbin=",
        "--compiler-bindir=",
        "-cudart=",
        "--cudart=",
        "-L",
        "-l",
        "--default-stream",
        "-default-stream",
        "--ftz",
        "-ftz=",
        "--prec-div",
        "-prec-div=",
        "--prec-sqrt",
        "-prec-sqrt=",
        "--fmad",
        "-fmad=",
        "-res-usage",
        "--resource-usage",
        "--display-error-number",
        "--diag-suppress",
        "-diag-suppress",
        "-Xcudafe",
    };
    if (in_list(a, exact, COUNT(exact)))
        return true;
    for (size_t i = 0; i < COUNT(prefixes); i++)
        if (!strncmp(a, prefixes[i], strlen(prefixes[i])))
            return true;
    return false;
}

void hms_flags_from_user(const char *const *given, size_t ngiven, hms_flag_list *out,
                         hms_diag_sink *diags)
{
    hms_flag_list expanded = {0}; /* @file arguments, relative to the current directory */
    hms_expand_response_files(given, ngiven, NULL, "the command line", &expanded, diags);
    const char *const *argv = (const char *const *)expanded.v;
    size_t argc = expanded.n;
    for (size_t i = 0; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        char *toolkit = NULL;
        hms_flag_list kept = {0};
        int used = keep_flag(a, next, NULL, &kept, &toolkit);
        if (used > 0) {
            for (size_t k = 0; k < kept.n; k++)
                hms_flag_list_push(out, kept.v[k]);
            /* Said once per run, not once per file: the sink's key. */
            if (toolkit)
                hms_diagf(diags,
                          (hms_diag_head){HMS_DIAG_WARNING, NULL, 0, 0, NULL, "toolkit-include"},
                          "ignoring include directory '%s': it is a CUDA toolkit's; hms-lint "
                          "parses with its own CUDA headers",
                          toolkit);
            free(toolkit);
            hms_flag_list_free(&kept);
            i += (size_t)used - 1;
            continue;
        }
        if (in_list(a, drop_with_value, COUNT(drop_with_value))) {
            if (next)
                i++;
            continue;
        }
        if (nvcc_only(a))
            continue;
        hms_flag_list_push(out, a);
    }
    hms_flag_list_free(&expanded);
}

bool hms_flags_from_compile_db(const char *build_dir, const char *path, hms_flag_list *out,
                               hms_diag_sink *diags)
{
    /* Checked here first: libclang prints its own "TOOLING ERROR" otherwise. */
    char *json = NULL, *fixed = NULL;
    bool present = false;
    if (asprintf(&json, "%s/compile_commands.json", build_dir) >= 0 &&
        asprintf(&fixed, "%s/compile_flags.txt", build_dir) >= 0)
        present = access(json, R_OK) == 0 || access(fixed, R_OK) == 0;
    free(json);
    free(fixed);
    if (!present) {
        /* once per run, not once per file: the sink's key */
        hms_diagf(diags, (hms_diag_head){HMS_DIAG_WARNING, build_dir, 0, 0, NULL, "no-compile-db"},
                  "no compile_commands.json could be read");
        return false;
    }
    CXCompilationDatabase_Error dberr = CXCompilationDatabase_NoError;
    CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(build_dir, &dberr);
    if (dberr != CXCompilationDatabase_NoError || !db) {
        hms_diagf(diags, (hms_diag_head){HMS_DIAG_WARNING, build_dir, 0, 0, NULL, "no-compile-db"},
                  "no compile_commands.json could be read");
        if (db)
            clang_CompilationDatabase_dispose(db);
        return false;
    }
    char *abs = realpath(path, NULL);
    CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, abs ? abs : path);
    free(abs);
    if (!cmds || clang_CompileCommands_getSize(cmds) == 0) {
        hms_diagf(diags, (hms_diag_head){HMS_DIAG_WARNING, path, 0, 0, NULL, NULL},
                  "not in %s/compile_commands.json; using default flags", build_dir);
    } else {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
        unsigned n = clang_CompileCommand_getNumArgs(cmd);
        CXString dir = clang_CompileCommand_getDirectory(cmd);
        CXString *strs = calloc(n ? n : 1, sizeof *strs);
        const char **argv = calloc(n ? n : 1, sizeof *argv);
        if (strs && argv) {
            for (unsigned i = 0; i < n; i++) {
                strs[i] = clang_CompileCommand_getArg(cmd, i);
                argv[i] = clang_getCString(strs[i]);
                if (!argv[i])
                    argv[i] = "";
            }
            /* CMake keeps a CUDA target's include paths in a response file. */
            hms_flag_list expanded = {0};
            hms_expand_response_files(argv, n, clang_getCString(dir), path, &expanded, diags);
            hms_flags_from_command((const char *const *)expanded.v, expanded.n,
                                   clang_getCString(dir), out);
            hms_flag_list_free(&expanded);
            for (unsigned i = 0; i < n; i++)
                clang_disposeString(strs[i]);
        }
        free(strs);
        free(argv);
        clang_disposeString(dir);
    }
    if (cmds)
        clang_CompileCommands_dispose(cmds);
    clang_CompilationDatabase_dispose(db);
    return true;
}
