/* hms_main: option parsing and dispatch to one command. */
#include <stdio.h>
#include <stdlib.h>

#include "analyzer/cli/build_dir_check.h"
#include "analyzer/cli/commands.h"
#include "analyzer/cli/worker.h"
#include "analyzer/frontend/compile_db_sources.h"
#include "analyzer/frontend/parse.h"
#include "passes/checks/checks.h"

/* Does the --checks list leave any check on? */
static bool any_check_enabled(const char *globs)
{
    size_t n;
    const hms_check_def *defs = hms_check_registry(&n);
    for (size_t i = 0; i < n; i++)
        if (hms_check_enabled(globs, &defs[i]))
            return true;
    return false;
}

typedef struct {
    const hms_options *o;
    int rc;
} dispatch_call;

/* Runs the one command; called on the large stack (hms_run_with_large_stack). */
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
    case HMS_CMD_VERSION: {
        CXString clang = clang_getClangVersion();
        printf("hms-lint version %s\nlibclang: %s\n", HMS_VERSION, clang_getCString(clang));
        clang_disposeString(clang);
        rc = 0;
        break;
    }
    case HMS_CMD_DUMP_CONFIG:
        rc = hms_cmd_dump_config(&o);
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
    case HMS_CMD_CALIBRATE:
        rc = hms_cmd_calibrate(&o);
        break;
    case HMS_CMD_CORUN:
        rc = hms_cmd_corun(&o);
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
    /* Without our CUDA headers nothing parses: fail, never pass silently. */
    bool parses = o.command == HMS_CMD_LINT || o.command == HMS_CMD_LIST_KERNELS ||
                  o.command == HMS_CMD_DUMP_IR;
    hms_file_error err;
    if (o.build_dir && parses && !hms_check_build_dir(o.build_dir, &err)) {
        hms_diag_print_file_error(stderr, HMS_DIAG_ERROR, &err);
        hms_options_free(&o);
        return 2;
    }
    /* clang-tidy: --checks='-*' linting is an error, not a silent run of nothing. */
    if (o.command == HMS_CMD_LINT && o.checks && !any_check_enabled(o.checks)) {
        hms_diag_printf(stderr, (hms_diag_head){HMS_DIAG_ERROR, NULL, 0, 0, NULL, NULL},
                        "--checks='%s' enables no check (see --list-checks)", o.checks);
        hms_options_free(&o);
        return 2;
    }
    hms_flag_list db_sources = {0}; /* -p <dir> and no file names: the database's sources */
    hms_diag_sink said;             /* what setting up the run says, printed as it comes */
    hms_diag_sink_init(&said, stderr);
    if (parses && o.files.n == 0 && o.build_dir) {
        bool read = hms_compile_db_cuda_sources(o.build_dir, &db_sources, &said);
        if (!read || !db_sources.n) {
            char *db = NULL;
            if (read && asprintf(&db, "%s/compile_commands.json", o.build_dir) >= 0)
                hms_diagf(&said, (hms_diag_head){HMS_DIAG_ERROR, db, 0, 0, NULL, NULL},
                          "lists no CUDA source");
            free(db);
            hms_diag_sink_free(&said);
            hms_flag_list_free(&db_sources);
            hms_options_free(&o);
            return 2;
        }
        for (size_t i = 0; i < db_sources.n; i++)
            hms_strvec_push(&o.files, db_sources.v[i]);
    }
    if (parses && !hms_builtin_include_dir()) {
        hms_print_missing_include_dir(&said);
        hms_diag_sink_free(&said);
        hms_options_free(&o);
        hms_flag_list_free(&db_sources);
        return 2;
    }
    hms_diag_sink_free(&said);
    /* Deeply nested sources recurse deeply in clang's parser and in ours:
     * parse on our large stack instead of libclang's 8 MiB thread. */
    setenv("LIBCLANG_NOTHREADS", "1", 0);
    dispatch_call d = {&o, 2};
    hms_run_with_large_stack(dispatch, &d);
    rc = d.rc;
    fflush(stdout);
    hms_options_free(&o);
    hms_flag_list_free(&db_sources);
    return rc;
}
