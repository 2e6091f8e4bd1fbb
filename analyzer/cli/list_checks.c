/* --list-checks: every check in the registry with its default severity,
 * whether it is enabled under the effective --checks (the .hms-lint found
 * from the current directory, then the command line), and its summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/cli/commands.h"
#include "analyzer/cli/config.h"
#include "analyzer/report/diag_sink.h"
#include "passes/checks/checks.h"

int hms_cmd_list_checks(const hms_options *o)
{
    hms_config cfg;
    bool have_cfg = false;
    char *path = hms_config_find(".");
    if (path) {
        hms_file_error err;
        if (!hms_config_load(path, &cfg, &err)) {
            hms_diag_print_file_error(stderr, HMS_DIAG_ERROR, &err);
            free(path);
            return 2;
        }
        have_cfg = true;
        free(path);
    }
    hms_merged_options m;
    hms_config_merge(have_cfg ? &cfg : NULL, o, &m);

    size_t n;
    const hms_check_def *defs = hms_check_registry(&n);
    size_t wname = strlen("NAME");
    for (size_t i = 0; i < n; i++)
        if (strlen(defs[i].name) > wname)
            wname = strlen(defs[i].name);
    if (m.opts.checks)
        printf("Checks under --checks='%s':\n", m.opts.checks);
    else
        printf("Checks (defaults; select with --checks):\n");
    printf("  %-*s  %-8s  %-8s  %s\n", (int)wname, "NAME", "SEVERITY", "STATE", "SUMMARY");
    for (size_t i = 0; i < n; i++)
        printf("  %-*s  %-8s  %-8s  %s\n", (int)wname, defs[i].name,
               hms_severity_name(defs[i].severity),
               hms_check_enabled(m.opts.checks, &defs[i]) ? "enabled" : "disabled",
               defs[i].summary);
    hms_merged_options_free(&m);
    if (have_cfg)
        hms_config_free(&cfg);
    return 0;
}
