/* Temporary: commands whose modules are being written. Each file that
 * implements one of these removes it from here. */
#include <stdio.h>

#include "analyzer/commands.h"

int hms_cmd_list_kernels(const hms_options *o)
{
    (void)o;
    fprintf(stderr, "hms-lint: error: --list-kernels is not implemented yet\n");
    return 2;
}

int hms_cmd_dump_ir(const hms_options *o)
{
    (void)o;
    fprintf(stderr, "hms-lint: error: --dump-ir is not implemented yet\n");
    return 2;
}

int hms_cmd_lint(const hms_options *o)
{
    (void)o;
    fprintf(stderr, "hms-lint: error: linting is not implemented yet\n");
    return 2;
}
