/* hms_main: option parsing and dispatch to one command. */
#include <stdio.h>

#include "analyzer/commands.h"
#include "analyzer/parse.h"

int hms_main(int argc, char **argv)
{
    hms_options o;
    int rc = hms_options_parse(argc, argv, &o);
    if (rc != 0) {
        hms_options_free(&o);
        return rc;
    }
    /* Without our CUDA headers nothing parses: fail, never pass silently. */
    bool parses = o.command == HMS_CMD_LINT || o.command == HMS_CMD_LIST_KERNELS ||
                  o.command == HMS_CMD_DUMP_IR;
    if (parses && !hms_builtin_include_dir()) {
        hms_print_missing_include_dir(stderr);
        hms_options_free(&o);
        return 2;
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
    case HMS_CMD_LSP:
        rc = hms_cmd_lsp();
        break;
    }
    fflush(stdout);
    hms_options_free(&o);
    return rc;
}
