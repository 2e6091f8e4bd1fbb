/* What the front end (parse, IR build, launch and parameter overrides,
 * ptxas) reads from the command line: filled once per file by the command
 * (analyzer/cli/frontend_inputs.h), never the whole CLI struct. */
#ifndef HMS_ANALYZER_FRONTEND_OPTIONS_H
#define HMS_ANALYZER_FRONTEND_OPTIONS_H

#include <stddef.h>

#include "runtime/arch.h"

typedef struct {
    const char *const *v;
    size_t n;
} hms_str_list;

typedef struct {
    hms_str_list compiler_args;  /* after "--", plus -D/-I given to hms-lint itself */
    const char *build_dir;       /* -p: where compile_commands.json is; NULL: none */
    const char *assume_filename; /* compile flags of this path instead of the file's */
    hms_str_list launches;       /* --launch=kernel:grid=..:block=.. (raw) */
    hms_str_list params;         /* --param=kernel.param=value and -D NAME=VALUE (raw) */
    /* The target, looked up once by the command: its compute capability
     * selects the device code parsed (__CUDA_ARCH__), its block limit checks
     * --launch. NULL: the default target's code, no block limit. */
    const hms_arch *arch;
} hms_frontend_options;

#endif
