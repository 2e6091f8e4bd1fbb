/* libclang parsing with hermetic CUDA flags and compile_commands.json. */
#include "analyzer/frontend/parse.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyzer/frontend/asm_operands.h"
#include "analyzer/frontend/compile_flags.h"
#include "analyzer/frontend/explicit_inst.h"
#include "analyzer/frontend/includer.h"
#include "analyzer/frontend/owned_launches.h"
#include "analyzer/frontend/launch_chevrons.h"
#include "analyzer/frontend/launch_sites.h"
#include "analyzer/frontend/parse_diagnostics.h"
#include "runtime/arch.h"

/* Binary input is parsed only this far: enough to count its errors. */
#define BINARY_PARSE_LIMIT (64 * 1024)

/* Flags that make clang parse CUDA device code without any toolkit.
 * -nocudainc keeps the toolkit's include directory and clang's
 * __clang_cuda_runtime_wrapper.h (which needs that toolkit) out; clang still
 * adds its cuda_wrappers directory, whose <algorithm> etc. expect __host__
 * and __device__ to be defined already, which our force-included
 * cuda_runtime.h does first thing. With no CUDA version known, clang sends
 * <<<>>> through cudaConfigureCall (declared in our cuda_runtime_api.h).
 * --cuda-gpu-arch is the target's (gpu_arch_flag), so __CUDA_ARCH__ selects
 * the code nvcc would compile for it. */
static const char *const hermetic_flags[] = {
    "-x",
    "cuda",
    "--cuda-device-only",
    "-nocudainc",
    "-nocudalib",
    "--no-cuda-version-check",
    "-std=c++17",
    "-D__HMS_LINT__=1",
    "-Wno-unknown-cuda-version",
    "-ferror-limit=0",
    "-Wno-everything",
};

/* --cuda-gpu-arch=<sm of --arch>: device code under #if __CUDA_ARCH__ >= 800
 * is what the target runs. An --arch that does not resolve (reported by the
 * caller) parses as the default target. */
static void push_gpu_arch_flag(const hms_frontend_options *o, hms_flag_list *args)
{
    char err[256], flag[64];
    const hms_arch *a = o && o->arch ? o->arch : hms_arch_get(HMS_ARCH_DEFAULT, err, sizeof err);
    const char *sm = a ? a->sm : "sm_90";
    /* clang knows no target before sm_20: a cc 1.x GPU parses as the oldest it has */
    if (strncmp(sm, "sm_", 3) == 0 && atoi(sm + 3) < 20)
        sm = "sm_20";
    snprintf(flag, sizeof flag, "--cuda-gpu-arch=%s", sm);
    hms_flag_list_push(args, flag);
}

/* Does the file hold NUL bytes in its first megabyte (binary data)? */
static bool has_nul_bytes(FILE *f)
{
    char buf[4096];
    size_t total = 0, n;
    while (total < (1u << 20) && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (memchr(buf, '\0', n))
            return true;
        total += n;
    }
    return false;
}

/* The rest of f from its start (malloc'd, *len its length), or NULL. */
static char *read_stream(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0, got;
    char *text = malloc(cap);
    if (!text || fseek(f, 0, SEEK_SET) != 0) {
        free(text);
        return NULL;
    }
    while ((got = fread(text + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nt = realloc(text, cap *= 2);
            if (!nt) {
                free(text);
                return NULL;
            }
            text = nt;
        }
    }
    *len = n;
    return text;
}

/* Does text hold anything but blanks and comments? */
static bool has_code(const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' || t[i] == '\f' ||
            t[i] == '\v')
            continue;
        if (t[i] == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                i++;
            continue;
        }
        if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
            const char *end = NULL;
            for (size_t j = i + 2; j + 1 < n && !end; j++)
                if (t[j] == '*' && t[j + 1] == '/')
                    end = t + j;
            if (!end)
                return false; /* an unterminated comment to the end */
            i = (size_t)(end - t) + 1;
            continue;
        }
        return true;
    }
    return false;
}

/* The whole file at path (malloc'd, *len its length), or NULL. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = read_stream(f, len);
    fclose(f);
    return text;
}

/* The whole of f with explicit_inst.h's references appended (malloc'd;
 * *len its length, *appended_from the offset of the first appended byte), or
 * NULL when the file has no explicit instantiation. */
static char *with_instantiation_refs(FILE *f, size_t *len, unsigned long *appended_from)
{
    size_t n = 0;
    char *text = read_stream(f, &n);
    if (!text)
        return NULL;
    char *extra = hms_explicit_instantiation_refs(text, n);
    if (!extra) {
        free(text);
        return NULL;
    }
    size_t elen = strlen(extra);
    char *merged = realloc(text, n + 1 + elen + 1);
    if (!merged) {
        free(text);
        free(extra);
        return NULL;
    }
    *appended_from = (unsigned long)n;
    if (n > 0 && merged[n - 1] != '\n')
        merged[n++] = '\n'; /* the last line may be a // comment */
    memcpy(merged + n, extra, elen + 1);
    *len = n + elen;
    free(extra);
    return merged;
}

static hms_diag_head file_error(const char *path)
{
    return (hms_diag_head){HMS_DIAG_ERROR, path, 0, 0, NULL, NULL};
}

/* What nvcc accepts and clang does not, rewritten in the text given to clang
 * at the same offsets: `k<< <g, b>> >()` (launch_chevrons.h), asm operands
 * without commas (asm_operands.h). True when something changed. */
static bool rewrite_nvcc_dialect(char *text, size_t len)
{
    bool chevrons = hms_join_spaced_chevrons(text, len);
    bool operands = hms_join_asm_operands(text, len);
    return chevrons || operands;
}

/* The flags for parsing `path` (its compile command's, if any). Order:
 * hermetic flags, our include directory first among the -I paths (so
 * <cuda_runtime.h> is ours whatever else is on the path), the forced
 * include, then the project's flags and the user's. False (said on diags)
 * when our headers cannot be found. diags: where the flags' own warnings
 * go (NULL: nowhere). */
static bool parse_args(const hms_frontend_options *o, const char *path, hms_flag_list *args,
                       hms_diag_sink *diags)
{
    for (size_t i = 0; i < sizeof hermetic_flags / sizeof *hermetic_flags; i++)
        hms_flag_list_push(args, hermetic_flags[i]);
    push_gpu_arch_flag(o, args);
    char *inc = NULL, *runtime = NULL;
    const char *builtin = hms_builtin_include_dir();
    if (!builtin) {
        hms_print_missing_include_dir(diags);
        return false;
    }
    if (asprintf(&inc, "-I%s", builtin) >= 0) {
        hms_flag_list_push(args, inc);
        free(inc);
    }
    if (asprintf(&runtime, "%s/cuda_runtime.h", builtin) >= 0) {
        hms_flag_list_push(args, "-include");
        hms_flag_list_push(args, runtime);
        free(runtime);
    }
    if (o && o->build_dir)
        hms_flags_from_compile_db(o->build_dir, path, args, diags);
    if (o)
        hms_flags_from_user(o->compiler_args.v, o->compiler_args.n, args, diags);
    return true;
}

/* The translation unit of `includer`, with the text given to clang for the
 * file itself (`self`, rewritten: NULL for as on disk) and the includer's own
 * text rewritten as nvcc reads it; NULL when it does not parse. */
static CXTranslationUnit parse_includer(const hms_frontend_options *o, const char *includer,
                                        const char *path, char *self, size_t self_len,
                                        CXIndex index)
{
    hms_flag_list args = {0};
    bool ok = parse_args(o, includer, &args, NULL); /* its flags' warnings are the includer's */
    size_t len = 0;
    char *text = ok ? read_all(includer, &len) : NULL;
    struct CXUnsavedFile unsaved[2];
    unsigned n = 0;
    if (text && rewrite_nvcc_dialect(text, len))
        unsaved[n++] = (struct CXUnsavedFile){includer, text, (unsigned long)len};
    if (self)
        unsaved[n++] = (struct CXUnsavedFile){path, self, (unsigned long)self_len};
    CXTranslationUnit tu = NULL;
    if (ok && clang_parseTranslationUnit2(
                  index, includer, (const char *const *)args.v, (int)args.n, n ? unsaved : NULL, n,
                  CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord,
                  &tu) != CXError_Success)
        tu = NULL;
    free(text);
    hms_flag_list_free(&args);
    return tu;
}

typedef struct {
    char real[PATH_MAX];
    bool found;
} inclusion_search;

static void find_inclusion(CXFile included, CXSourceLocation *stack, unsigned n, CXClientData d)
{
    (void)stack;
    inclusion_search *s = d;
    CXString name = clang_getFileName(included);
    char real[PATH_MAX];
    if (n > 0 && !s->found && clang_getCString(name) && realpath(clang_getCString(name), real))
        s->found = !strcmp(real, s->real);
    clang_disposeString(name);
}

/* Does tu really #include the file at path (not another of the same name)? */
static bool tu_includes(CXTranslationUnit tu, const char *path)
{
    inclusion_search s = {"", false};
    if (!realpath(path, s.real))
        return false;
    clang_getInclusions(tu, find_inclusion, &s);
    return s.found;
}

/* Does the includer's translation unit `tu` launch a kernel of the file? */
static bool includer_launches(CXTranslationUnit tu, const char *path, const char *includer)
{
    hms_tu view = {.path = path, .tu = tu, .includer = (char *)includer};
    return hms_owned_kernel_launches(&view, NULL) > 0;
}

/* Kernels in the file, none launched in it nor annotated with a launch. */
static bool kernels_unlaunched(const hms_tu *t)
{
    size_t nk = 0;
    return hms_owned_kernel_launches(t, &nk) == 0 && nk > 0 && !hms_file_has_launch_annotation(t);
}

/* Includer search (use_includer): includers of includers are followed to
 * this depth (Rodinia myocyte: main.cu includes work.cu, which includes
 * kernel.cu: 2), and at most this many candidate units are parsed. */
#define MAX_INCLUDER_DEPTH 3
#define MAX_INCLUDER_PARSES 6
#define MAX_INCLUDER_QUEUE 32

typedef struct {
    char *path[MAX_INCLUDER_QUEUE];
    int depth[MAX_INCLUDER_QUEUE];
    size_t head, tail;
} includer_queue;

/* Queues the includers of `of` not queued before (no cycles), at `depth`. */
static void queue_includers(includer_queue *q, const char *of, int depth, const char *build_dir)
{
    char *found[HMS_MAX_INCLUDERS];
    size_t n = hms_find_includers(of, build_dir, found);
    for (size_t i = 0; i < n; i++) {
        bool seen = q->tail >= MAX_INCLUDER_QUEUE;
        for (size_t j = 0; j < q->tail && !seen; j++)
            seen = q->path[j] && !strcmp(q->path[j], found[i]);
        if (seen) {
            free(found[i]);
            continue;
        }
        q->depth[q->tail] = depth;
        q->path[q->tail++] = found[i];
    }
}

/* A file whose device code alone lacks declarations its includer makes
 * (includer.h): the first includer whose translation unit leaves fewer such
 * errors in the file replaces out->tu, and out->includer names it. A file
 * with none such errors whose kernels have no launch of their own takes the
 * first includer whose unit launches one of them, with no such error in the
 * file either (out->includer_launches). Breadth first: the file's
 * includers, then the includers of those that do not do (a file included
 * by a file that is itself included), each file once. */
static void use_includer(const hms_frontend_options *o, const char *path, char *self,
                         size_t self_len, hms_tu *out)
{
    CXFile f = clang_getFile(out->tu, path);
    unsigned alone = f ? hms_context_errors(out->tu, f) : 0;
    bool for_launch = f && !alone && kernels_unlaunched(out);
    if (!alone && !for_launch)
        return;
    const char *build_dir = o ? o->build_dir : NULL;
    includer_queue q = {0};
    char real[PATH_MAX];
    if (realpath(path, real)) /* never the file itself, through a cycle */
        q.path[q.tail++] = strdup(real);
    q.head = q.tail;
    queue_includers(&q, path, 1, build_dir);
    for (int parses = 0; q.head < q.tail && parses < MAX_INCLUDER_PARSES; parses++) {
        size_t i = q.head++;
        CXTranslationUnit tu = parse_includer(o, q.path[i], path, self, self_len, out->index);
        CXFile in = tu && tu_includes(tu, path) ? clang_getFile(tu, path) : NULL;
        bool better = in && (for_launch ? hms_context_errors(tu, in) == 0 &&
                                              includer_launches(tu, path, q.path[i])
                                        : hms_context_errors(tu, in) < alone);
        if (tu && !better)
            clang_disposeTranslationUnit(tu);
        if (better) {
            clang_disposeTranslationUnit(out->tu);
            out->tu = tu;
            out->includer = q.path[i];
            out->includer_launches = for_launch;
            q.path[i] = NULL;
            break;
        }
        if (q.depth[i] < MAX_INCLUDER_DEPTH)
            queue_includers(&q, q.path[i], q.depth[i] + 1, build_dir);
    }
    for (size_t i = 0; i < q.tail; i++)
        free(q.path[i]);
}

bool hms_parse_file(const hms_frontend_options *o, const char *path, hms_tu *out,
                    hms_diag_sink *diags)
{
    memset(out, 0, sizeof *out);
    out->path = path;

    struct stat st;
    if (stat(path, &st) != 0) {
        hms_diagf(diags, file_error(path), "%s", strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        hms_diagf(diags, file_error(path), "is a directory");
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        /* A device or pipe may never end (/dev/zero). */
        hms_diagf(diags, file_error(path), "not a regular file");
        return false;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        hms_diagf(diags, file_error(path), "%s", strerror(errno));
        return false;
    }
    bool binary = has_nul_bytes(f);
    if (!binary && st.st_size < (1 << 20)) {
        /* An empty or comment-only file: there is nothing to analyse (this
         * is likely not the file meant). Larger files are surely code. */
        size_t n = 0;
        char *text = read_stream(f, &n);
        bool code = !text || has_code(text, n);
        free(text);
        if (!code) {
            hms_diagf(diags, file_error(path),
                      "no code to analyse (the file is empty or holds only comments)");
            fclose(f);
            return false;
        }
    }
    /* A large binary is parsed from a prefix only (it is garbage either way). */
    bool truncated = binary && st.st_size > BINARY_PARSE_LIMIT;
    char *prefix = NULL;
    size_t prefix_len = 0;
    if (truncated) {
        prefix = malloc(BINARY_PARSE_LIMIT);
        if (prefix && fseek(f, 0, SEEK_SET) == 0)
            prefix_len = fread(prefix, 1, BINARY_PARSE_LIMIT, f);
    }
    /* Source text with explicit template instantiations is given to clang
     * with a reference to each appended (explicit_inst.h), so that the one
     * parse exposes the instantiated kernels. Appending keeps every location
     * of the file as it is on disk. */
    unsigned long appended_from = 0;
    if (!binary)
        prefix = with_instantiation_refs(f, &prefix_len, &appended_from);
    fclose(f);
    if (!binary && prefix)
        rewrite_nvcc_dialect(prefix, appended_from ? appended_from : prefix_len);
    else if (!binary) {
        size_t n = 0;
        char *text = read_all(path, &n);
        if (text && rewrite_nvcc_dialect(text, n)) {
            prefix = text;
            prefix_len = n;
        } else {
            free(text);
        }
    }
    bool use_unsaved = truncated || prefix;

    hms_flag_list args = {0};
    if (!parse_args(o, o && o->assume_filename ? o->assume_filename : path, &args, diags)) {
        hms_flag_list_free(&args);
        free(prefix);
        return false;
    }

    struct CXUnsavedFile unsaved = {path, prefix, (unsigned long)prefix_len};
    out->index = clang_createIndex(0, 0);
    unsigned flags = CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord;
    enum CXErrorCode ec = clang_parseTranslationUnit2(out->index, path, (const char *const *)args.v,
                                                      (int)args.n, use_unsaved ? &unsaved : NULL,
                                                      use_unsaved ? 1 : 0, flags, &out->tu);
    /* Kernels launched as k<T, 512> inside host function templates exist
     * only in instantiations libclang does not show: parse again with a
     * reference to each (launch_sites.h), appended like explicit_inst.h's. */
    char *refs =
        ec == CXError_Success && out->tu && !binary ? hms_template_launch_refs(out->tu) : NULL;
    if (refs) {
        size_t text_len = 0;
        char *text = prefix ? prefix : read_all(path, &text_len);
        if (prefix)
            text_len = prefix_len;
        char *merged = text ? realloc(text, text_len + strlen(refs) + 2) : NULL;
        if (merged) {
            if (!appended_from)
                appended_from = (unsigned long)text_len;
            if (text_len > 0 && merged[text_len - 1] != '\n')
                merged[text_len++] = '\n';
            memcpy(merged + text_len, refs, strlen(refs) + 1);
            prefix = merged;
            prefix_len = text_len + strlen(refs);
            struct CXUnsavedFile again = {path, prefix, (unsigned long)prefix_len};
            CXTranslationUnit tu2 = NULL;
            if (clang_parseTranslationUnit2(out->index, path, (const char *const *)args.v,
                                            (int)args.n, &again, 1, flags,
                                            &tu2) == CXError_Success &&
                tu2) {
                clang_disposeTranslationUnit(out->tu);
                out->tu = tu2;
            }
        } else {
            free(text);
            prefix = NULL;
        }
        free(refs);
    }
    if (ec == CXError_Success && out->tu && !binary)
        use_includer(o, path, prefix, appended_from ? appended_from : prefix_len, out);
    hms_flag_list_free(&args);
    free(prefix);

    if (ec != CXError_Success || !out->tu) {
        hms_diagf(diags, file_error(path), "libclang could not parse the file (error %d)", (int)ec);
        hms_tu_dispose(out);
        return false;
    }

    CXFile only = out->includer ? clang_getFile(out->tu, path) : NULL;
    if (out->includer && out->includer_launches)
        hms_diagf(diags, (hms_diag_head){HMS_DIAG_NOTE, path, 0, 0, NULL, NULL},
                  "analysed as #included by %s: alone, no launch of its kernels is found; that "
                  "file's translation unit has one (only this file's kernels are reported)",
                  out->includer);
    else if (out->includer)
        hms_diagf(diags, (hms_diag_head){HMS_DIAG_NOTE, path, 0, 0, NULL, NULL},
                  "analysed as #included by %s: alone it lacks declarations that file makes "
                  "before including it (only this file's kernels are reported)",
                  out->includer);
    hms_diag_summary sum =
        hms_report_diagnostics(out->tu, path, binary, truncated, appended_from, only, diags);
    out->missing_includes = sum.missing_includes;
    out->errors = sum.errors;
    out->ignored_errors = sum.ignored_errors;
    out->tolerated_errors = sum.tolerated_errors;
    if (sum.not_source) {
        out->errors = sum.errors > 0 ? sum.errors : 1;
        hms_tu_dispose(out);
        return false;
    }
    return true;
}

bool hms_tu_failed(const hms_tu *t)
{
    return !t->tu || t->errors > 0;
}

void hms_tu_dispose(hms_tu *t)
{
    if (t->tu)
        clang_disposeTranslationUnit(t->tu);
    if (t->index)
        clang_disposeIndex(t->index);
    free(t->includer);
    t->includer = NULL;
    t->tu = NULL;
    t->index = NULL;
}

typedef struct {
    CXFile self, f;
    bool found;
} owner_search;

/* Is s->f included, directly or not, by s->self? */
static void find_includer_of(CXFile included, CXSourceLocation *stack, unsigned n, CXClientData d)
{
    owner_search *s = d;
    if (s->found || !clang_File_isEqual(included, s->f))
        return;
    for (unsigned i = 0; i < n; i++) {
        CXFile by = NULL;
        clang_getExpansionLocation(stack[i], &by, NULL, NULL, NULL);
        if (by && clang_File_isEqual(by, s->self))
            s->found = true;
    }
}

bool hms_tu_owns(const hms_tu *t, CXCursor c)
{
    if (!t->includer)
        return true;
    owner_search s = {clang_getFile(t->tu, t->path), NULL, false};
    clang_getExpansionLocation(clang_getCursorLocation(c), &s.f, NULL, NULL, NULL);
    if (!s.f || !s.self)
        return false;
    if (clang_File_isEqual(s.f, s.self))
        return true;
    clang_getInclusions(t->tu, find_includer_of, &s);
    return s.found;
}
