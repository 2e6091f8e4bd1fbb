/* Compiler flags for the hermetic parse: what to keep from a compile
 * database entry (an nvcc or clang command line) and from the flags a user
 * gives after `--`. */
#ifndef HMS_ANALYZER_COMPILE_FLAGS_H
#define HMS_ANALYZER_COMPILE_FLAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "analyzer/report/diag_sink.h"

typedef struct {
    char **v;
    size_t n, cap;
} hms_flag_list;

void hms_flag_list_push(hms_flag_list *l, const char *s); /* copies s */
void hms_flag_list_free(hms_flag_list *l);

/* From one compile command (argv[0] is the compiler, skipped): keeps include
 * paths, macros, the language standard and forced includes, in clang's
 * spelling (-I<dir>, -isystem<dir>, -iquote<dir>, -D<def>, -U<name>,
 * -std=<v>, -include <file>), accepting nvcc's long forms (--include-path,
 * --define-macro, --pre-include, ...). Relative paths are made absolute
 * against `directory`. Everything else is dropped, with the value of flags
 * that take one (-o x, -Xcompiler x, -gencode x, -ccbin x, ...). Include
 * directories of a CUDA toolkit are dropped too: hms-lint uses its own CUDA
 * headers. C++ standards older than C++11 are dropped (our headers need 11). */
void hms_flags_from_command(const char *const *argv, size_t argc, const char *directory,
                            hms_flag_list *out);

/* Flags given after `--` (and -D/-I given to hms-lint): passed through except
 * nvcc-only ones (-gencode, -arch, --expt-*, -Xcompiler, -rdc, -G, -lineinfo,
 * --use_fast_math, -ccbin, -O<n>, -o, -c, ...), which clang would reject, and
 * toolkit include directories. Each dropped toolkit directory is reported as
 * a warning in diags (may be NULL; once per sink). */
void hms_flags_from_user(const char *const *argv, size_t argc, hms_flag_list *out,
                         hms_diag_sink *diags);

/* The flags for `path` from <build_dir>/compile_commands.json. Returns false
 * (with a warning in diags) when the database cannot be read. A file the
 * database does not list gets the flags of its nearest entry (clang's
 * interpolation, as in clang-tidy); with no entry at all, a warning and no
 * flags. */
bool hms_flags_from_compile_db(const char *build_dir, const char *path, hms_flag_list *out,
                               hms_diag_sink *diags);

/* Does `dir` look like a CUDA toolkit's include directory (crt/host_config.h,
 * or host_config.h next to cuda_runtime_api.h in old toolkits)? */
bool hms_is_cuda_toolkit_include(const char *dir);

#endif
