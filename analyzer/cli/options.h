/* Command-line options, after getopt_long and .hms-lint config merging. */
#ifndef HMS_ANALYZER_OPTIONS_H
#define HMS_ANALYZER_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum { HMS_FMT_TEXT = 0, HMS_FMT_JSON, HMS_FMT_SARIF, HMS_FMT_HTML } hms_format;
typedef enum { HMS_FAIL_ERROR = 0, HMS_FAIL_WARNING, HMS_FAIL_NOTE, HMS_FAIL_NEVER } hms_fail_on;

typedef enum {
    HMS_CMD_LINT = 0,
    HMS_CMD_LIST_KERNELS,
    HMS_CMD_DUMP_IR,
    HMS_CMD_LIST_ARCHES,
    HMS_CMD_LIST_CHECKS,
    HMS_CMD_VERSION,
    HMS_CMD_HELP,
    HMS_CMD_LSP,
    HMS_CMD_DUMP_CONFIG,
    HMS_CMD_CALIBRATE, /* hms-lint calibrate runs.csv */
    HMS_CMD_CORUN,     /* --corun a.cu:kernelA b.cu:kernelB */
} hms_command;

typedef struct {
    const char **v;
    size_t n, cap;
} hms_strvec;

typedef struct {
    hms_command command;
    hms_strvec files;           /* source files */
    hms_strvec compiler_args;   /* after "--", plus -D/-I given to hms-lint itself */
    hms_strvec launches;        /* --launch=kernel:grid=..:block=.. (raw) */
    hms_strvec params;          /* --param=kernel.param=value and -D NAME=VALUE (raw) */
    const char *build_dir;      /* -p */
    const char *arch;           /* --arch, default HMS_ARCH_DEFAULT */
    bool arch_given;            /* --arch was typed (a config's arch yields to it) */
    bool fail_on_given;         /* --fail-on was typed */
    double placement_threshold; /* --placement-threshold, default 1.10 */
    double analysis_budget;     /* --analysis-budget: work budgets' scale, default 1 */
    const char *checks;         /* --checks glob list, NULL = defaults */
    hms_format format;
    const char *qos;    /* --qos=kernel:np target for --corun, NULL = fairness */
    const char *output; /* --output, NULL = stdout */
    bool explain;
    hms_fail_on fail_on;
    const char *baseline;
    bool fix;
    const char *export_fixes;
    int jobs;
    unsigned timeout; /* --timeout seconds per file, 0 = none */
    int color;        /* -1 auto, 0 never, 1 always */
    bool quiet;
    const char *source_root;        /* --source-root, NULL = git top level / cwd */
    bool sarif_notes;               /* --sarif-notes: note findings as SARIF results */
    const char *write_baseline;     /* --write-baseline=<file> */
    bool sort_cost;                 /* --sort=cost: worst kernels and findings first */
    const char *config_file;        /* --config-file: instead of the nearest .hms-lint */
    const char *warnings_as_errors; /* --warnings-as-errors globs */
    const char *header_filter;      /* --header-filter regex */
    const char *assume_filename;    /* --assume-filename: compile flags of this path instead */
    bool ptxas;                     /* --ptxas: registers per thread from nvcc's ptxas */
} hms_options;

void hms_strvec_push(hms_strvec *v, const char *s);
void hms_strvec_free(hms_strvec *v);

/* Parses argv into o. Returns 0 on success, 2 on a usage error (message printed). */
int hms_options_parse(int argc, char **argv, hms_options *o);
void hms_options_free(hms_options *o);
void hms_print_usage(FILE *out);

#endif
