/* Response files in compile commands: `@file` (gcc, clang, nvcc) and nvcc's
 * `--options-file <file>` / `-optf <file>` (CMake puts every CUDA target's
 * include paths in one: `--options-file CMakeFiles/x.dir/includes_CUDA.rsp`). */
#ifndef HMS_ANALYZER_RESPONSE_FILES_H
#define HMS_ANALYZER_RESPONSE_FILES_H

#include <stdio.h>

#include "analyzer/frontend/compile_flags.h"
#include "analyzer/report/diag_sink.h"

/* Copies argv to out with each response file replaced by the arguments it
 * holds (split at blanks; "..." and '...' quote, a backslash escapes the next
 * character; nested response files expanded too). Relative paths are taken
 * against `directory` (NULL: the current one). A file that cannot be read is
 * reported in diags as a warning naming it and `context` (the source file),
 * and dropped. */
void hms_expand_response_files(const char *const *argv, size_t argc, const char *directory,
                               const char *context, hms_flag_list *out, hms_diag_sink *diags);

#endif
