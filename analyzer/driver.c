/* hms_main: option parsing and dispatch to one command. */
#include <stdio.h>
#include <stdlib.h>

#include "analyzer/build_dir_check.h"
#include "analyzer/commands.h"
#include "analyzer/worker.h"

typedef struct {
    const hms_options *o;
    int rc;
} dispatch_call;

static void dispatch(void *arg)
{
    dispatch_call *d = arg;
    const hms_options o = *d->o;
    int rc = 0;
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
    d->rc = rc;
}

int hms_main(int argc, char **argv)
{
    hms_options o;
    int rc = hms_options_parse(argc, argv, &o);
    if (rc != 0) {
        hms_options_free(&o);
        return rc;
    }
    char err[600];
    if (o.build_dir &&
        (o.command == HMS_CMD_LINT || o.command == HMS_CMD_LIST_KERNELS ||
         o.command == HMS_CMD_DUMP_IR) &&
        !hms_check_build_dir(o.build_dir, err, sizeof err)) {
        fprintf(stderr, "hms-lint: error: %s\n", err);
        hms_options_free(&o);
        return 2;
    }
    /* Deeply nested sources recurse deeply in clang's parser and in ours:
     * parse on our large stack instead of libclang's 8 MiB thread. */
    setenv("LIBCLANG_NOTHREADS", "1", 0);
    dispatch_call d = {&o, 2};
    hms_run_with_large_stack(dispatch, &d);
    rc = d.rc;
    fflush(stdout);
    hms_options_free(&o);
    return rc;
}
