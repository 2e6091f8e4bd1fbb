/* One entry point per command; each returns the process exit status
 * (0 clean, 1 findings at or above --fail-on, 2 usage or input errors). */
#ifndef HMS_ANALYZER_COMMANDS_H
#define HMS_ANALYZER_COMMANDS_H

#include "analyzer/cli/options.h"

int hms_cmd_lint(const hms_options *o);
int hms_cmd_list_kernels(const hms_options *o);
int hms_cmd_dump_ir(const hms_options *o);
int hms_cmd_list_arches(const hms_options *o);
int hms_cmd_list_checks(const hms_options *o);
/* `--lsp`: the LSP server (analyzer/lsp/), until the client sends exit. */
int hms_cmd_lsp(void);
int hms_cmd_dump_config(const hms_options *o);
int hms_cmd_calibrate(const hms_options *o);
int hms_cmd_corun(const hms_options *o);

/* Runs the whole tool as main() would; used by main.c and by tests. */
int hms_main(int argc, char **argv);

#endif
