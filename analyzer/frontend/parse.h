/* Parsing one .cu file with libclang, hermetically: our own CUDA headers
 * (analyzer/include, force-included as nvcc does with cuda_runtime.h),
 * device-side, never the installed CUDA toolkit.
 *
 * What "the file failed" means: a file that cannot be read or is not CUDA/C++
 * at all yields no translation unit (hms_parse_file returns false). A file
 * with clang errors still yields one: clang's error recovery keeps every
 * declaration it could build, so kernels that parsed are listed and analysed,
 * but the file counts as failed (hms_tu_failed) and the run exits with 2.
 * Missing headers are warnings, not failures, and so are errors that only
 * say a declaration is missing where it does not matter (host code) or where
 * the IR can treat it as unknown: parse_diagnostics.h has the rules. */
#ifndef HMS_ANALYZER_PARSE_H
#define HMS_ANALYZER_PARSE_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdio.h>

#include "analyzer/frontend/frontend_options.h"
#include "analyzer/report/diag_sink.h"

typedef struct {
    const char *path;
    CXIndex index;
    CXTranslationUnit tu;
    int missing_includes; /* headers that could not be found (analysis went on) */
    int errors;           /* clang errors that fail the file (missing includes excluded) */
    int ignored_errors;   /* errors outside device code blamed on missing headers */
    int tolerated_errors; /* errors of missing declarations reported as warnings */
    /* A file that alone lacks declarations its includer makes is parsed in
     * the includer's translation unit (includer.h): the includer's path
     * (malloc'd), else NULL. Only `path`'s kernels and diagnostics count. */
    char *includer;
    /* ... or, with no launch of its kernels of its own, in the translation
     * unit of a file that includes it and launches them (owned_launches.h). */
    bool includer_launches;
} hms_tu;

/* Parses `path` with the flags of -p's compile_commands.json and those after
 * `--`. Problems go to diags (may be NULL), printed later as:
 *   <file>: error: <reason>                            (unreadable, not source)
 *   <file>:<line>: warning: '<header>' not found; analysing without it
 *   <file>:<line>:<col>: error: <clang message> [hms-parse-error]  (at most 20 per file)
 * Returns false when there is no usable translation unit at all; out->tu is
 * then NULL. */
bool hms_parse_file(const hms_frontend_options *o, const char *path, hms_tu *out,
                    hms_diag_sink *diags);
void hms_tu_dispose(hms_tu *t);

/* Is the declaration c part of what is analysed for t: anything when t is
 * the file's own translation unit, only what is written in t->path or in
 * the headers it includes when it is an includer's. */
bool hms_tu_owns(const hms_tu *t, CXCursor c);

/* Did the file have errors that make the run exit with status 2? */
bool hms_tu_failed(const hms_tu *t);

/* The directory holding our hermetic CUDA headers: share/hms-lint/include
 * relative to the executable (include_dir.c), else $HMS_LINT_INCLUDE_DIR;
 * NULL when neither holds them (the run must fail: nothing parses). */
const char *hms_builtin_include_dir(void);
/* "hms-lint: error: cannot find hms-lint's CUDA headers ..." (once per sink). */
void hms_print_missing_include_dir(hms_diag_sink *diags);

#endif
