/* hms_main: option parsing and dispatch to one command. */
#include <stdio.h>

#include "analyzer/cli/commands.h"

int hms_main(int argc, char **argv)
{
    hms_options o;
    int rc = hms_options_parse(argc, argv, &o);
    if (rc != 0) {
        hms_options_free(&o);
        return rc;
    }
    switch (o.command) {
    case HMS_CMD_HELP:
        hms_print_usage(stdout);
        rc = 0;
        break;
    case HMS_CMD_VERSION:
        printf("hms-lint version %s\n", HMS_VERSION);
        rc = 0;
        break;
    case HMS_CMD_LIST_ARCHES:
        rc = hms_cmd_list_arches(&o);
        break;
    case HMS_CMD_LIST_CHECKS:
        rc = hms_cmd_list_checks(&o);
        break;
    case HMS_CMD_LIST_KERNELS:
        rc = hms_cmd_list_kernels(&o);
        break;
    case HMS_CMD_DUMP_IR:
        rc = hms_cmd_dump_ir(&o);
        break;
    case HMS_CMD_LINT:
        rc = hms_cmd_lint(&o);
        break;
    }
    fflush(stdout);
    hms_options_free(&o);
    return rc;
}
