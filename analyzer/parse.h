/* Parsing one .cu file with libclang, hermetically: our own CUDA headers
 * (analyzer/include), device-side, never the installed CUDA toolkit. */
#ifndef HMS_ANALYZER_PARSE_H
#define HMS_ANALYZER_PARSE_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdio.h>

#include "analyzer/options.h"

typedef struct {
    const char *path;
    CXIndex index;
    CXTranslationUnit tu;
    int missing_includes; /* headers that could not be found (analysis went on) */
    int errors;           /* clang errors, excluding missing includes */
} hms_tu;

/* Parses `path`. Problems are printed to `err` as "hms-lint: error: <file>: <reason>"
 * (or a warning for missing headers). Returns false when there is no usable
 * translation unit at all; out->tu is then NULL. */
bool hms_parse_file(const hms_options *o, const char *path, hms_tu *out, FILE *err);
void hms_tu_dispose(hms_tu *t);

/* The directory holding our hermetic CUDA headers (compiled-in, overridable by
 * the HMS_LINT_INCLUDE_DIR environment variable). */
const char *hms_builtin_include_dir(void);

#endif
