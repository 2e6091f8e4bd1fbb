/* Turning clang's diagnostics for one translation unit into hms-lint's
 * messages: one warning per missing header, deduplicated errors with their
 * clang location (capped per file), and the "not a CUDA/C++ source file"
 * verdict for garbage input. */
#ifndef HMS_ANALYZER_PARSE_DIAGNOSTICS_H
#define HMS_ANALYZER_PARSE_DIAGNOSTICS_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdio.h>

/* Errors printed per file before the rest are only counted. */
#define HMS_MAX_PRINTED_ERRORS 20

typedef struct {
    int missing_includes; /* distinct headers not found */
    int errors;           /* distinct errors that fail the file */
    int ignored_errors;   /* distinct errors outside device code, with headers missing */
    bool not_source;      /* garbage: reported as such, nothing else printed */
} hms_diag_summary;

/* Reports tu's diagnostics for `path` on err. has_nul: the file holds NUL
 * bytes; truncated: only its beginning was parsed (a large binary). */
hms_diag_summary hms_report_diagnostics(CXTranslationUnit tu, const char *path, bool has_nul,
                                        bool truncated, FILE *err);

#endif
