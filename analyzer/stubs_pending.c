/* Temporary: commands whose modules are being written. Each file that
 * implements one of these removes it from here. */
#include <stdio.h>

#include "analyzer/commands.h"

int hms_cmd_lint(const hms_options *o)
{
    (void)o;
    fprintf(stderr, "hms-lint: error: linting is not implemented yet\n");
    return 2;
}
