/* .hms-lint: per-project settings in YAML, found upward from each source
 * file (the nearest one wins, as with clang-tidy's .clang-tidy):
 *
 *   checks: '-*,hms-shared-*'     # or a list of globs
 *   arch: v100
 *   fail-on: error                # error|warning|note|never
 *   launch: ['transpose:grid=64,64:block=16,16']
 *   param: ['transpose.width=1024']   # or a mapping {transpose.width: 1024}
 *   warnings-as-errors: 'hms-uncoalesced-*'   # findings of these checks are errors
 *   header-filter: 'include/.*'   # findings in headers: only those matching
 *
 * clang-tidy's spellings are accepted too: Checks, WarningsAsErrors,
 * HeaderFilterRegex, and InheritParentConfig: true (settings this file does
 * not give come from the nearest .hms-lint above it; its Checks are appended
 * to the parent's).
 *
 * The command line wins over the file: --checks globs are appended after the
 * file's (later globs win), --arch/--fail-on replace it, and --launch/--param
 * entries replace the file's entries for the same kernel / parameter. */
#ifndef HMS_ANALYZER_CONFIG_H
#define HMS_ANALYZER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "analyzer/cli/options.h"
#include "runtime/file_error.h"

#define HMS_CONFIG_NAME ".hms-lint"

typedef struct {
    char *path;   /* the file it was read from */
    char *checks; /* NULL when absent */
    char *arch;   /* NULL when absent */
    bool has_fail_on;
    hms_fail_on fail_on;
    char **launches;
    size_t nlaunches;
    char **params;
    size_t nparams;
    char *warnings_as_errors; /* globs, NULL when absent */
    char *header_filter;      /* POSIX extended regex, NULL when absent */
    bool inherit_parent;      /* InheritParentConfig: true */
} hms_config;

/* The nearest .hms-lint in the directory of `source` or above it; malloc'd
 * path, or NULL when there is none. `source` may be a file or a directory. */
char *hms_config_find(const char *source);

/* Reads and checks a config file. On failure returns false and fills err
 * (the file, line and column of the problem, and the reason). */
bool hms_config_load(const char *path, hms_config *out, hms_file_error *err);

/* Same, from memory; `origin` is the file named in err. */
bool hms_config_parse(const char *text, size_t len, const char *origin, hms_config *out,
                      hms_file_error *err);

void hms_config_free(hms_config *c);

/* Options for one file: the command line over the config (cfg may be NULL).
 * The merged options share strings with `cli` and `cfg`, so both must
 * outlive it; free it with hms_merged_options_free, never hms_options_free. */
typedef struct {
    hms_options opts;
    char *checks_buf; /* "<config globs>,<cli globs>" when both are given */
} hms_merged_options;

void hms_config_merge(const hms_config *cfg, const hms_options *cli, hms_merged_options *out);
void hms_merged_options_free(hms_merged_options *m);

#endif
