/* Turning clang's diagnostics for one translation unit into hms-lint's
 * messages: one warning per missing header, deduplicated errors with their
 * clang location (capped per file), and the "not a CUDA/C++ source file"
 * verdict for garbage input. */
#ifndef HMS_ANALYZER_PARSE_DIAGNOSTICS_H
#define HMS_ANALYZER_PARSE_DIAGNOSTICS_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdio.h>
#include "analyzer/report/diag_sink.h"

/* Errors printed per file before the rest are only counted. */
#define HMS_MAX_PRINTED_ERRORS 20

typedef struct {
    int missing_includes; /* distinct headers not found */
    int errors;           /* distinct errors that fail the file */
    int ignored_errors;   /* distinct errors outside device code, with headers missing */
    int tolerated_errors; /* errors of missing declarations reported as warnings */
    bool not_source;      /* garbage: reported as such, nothing else printed */
} hms_diag_summary;

/* How clang errors are reported (docs/guide.md, "Parse errors"):
 * - syntax errors (clang's "Parse Issue"/"Lexical or Preprocessor Issue":
 *   expected ';', unbalanced braces) are errors anywhere, except in host
 *   code on a line whose missing declaration comes from a missing header;
 * - errors of missing declarations (undeclared identifier or function,
 *   unknown type name, no matching function, no template/type/member named
 *   in a namespace) in host code are warnings (host code is not analysed);
 * - with a header missing, every other error in host code is counted in one
 *   note;
 * - in device code: an unknown type in a kernel's parameter list, or
 *   anywhere with a header missing, is a warning naming the type and the
 *   header; an undeclared identifier with a header missing is a warning
 *   ("define it with -D X=<value>"); everything else is an error.
 * Reports tu's diagnostics for `path` to diags. has_nul: the file holds NUL
 * bytes; truncated: only its beginning was parsed (a large binary);
 * appended_from: when not 0, the offset in the main file from which text was
 * appended for the parse (explicit_inst.h): diagnostics there are not shown.
 * only: when not NULL (tu is an includer's, includer.h), the file whose
 * diagnostics are reported (and the one text was appended to); the rest of
 * the includer's are its own business. */
hms_diag_summary hms_report_diagnostics(CXTranslationUnit tu, const char *path, bool has_nul,
                                        bool truncated, unsigned long appended_from, CXFile only,
                                        hms_diag_sink *diags);

/* Is loc inside a kernel or __device__ function (its parameters included)? */
bool hms_in_device_code(CXTranslationUnit tu, CXSourceLocation loc);

/* The code of clang errors that fail a file: printed "<file>:<line>:<col>:
 * error: <message> [hms-parse-error]", the form every problem matcher reads. */
#define HMS_PARSE_ERROR_CODE "hms-parse-error"

#endif
