/* --baseline=<file>: findings known and accepted. Either a file written by
 * --write-baseline (baseline_write.c), whose findings match by file and
 * fingerprint (fingerprint.h), or an earlier JSON report, where a finding is
 * dropped when an unused baseline finding has the same file, check and
 * message, and either the same line or the same source line text
 * ("source_line", trimmed). Either way findings survive code moving, and
 * each baseline finding absorbs at most one current finding. */
#ifndef HMS_ANALYZER_BASELINE_H
#define HMS_ANALYZER_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analyzer/report/source_cache.h"
#include "passes/findings.h"
#include "runtime/file_error.h"

typedef struct hms_baseline hms_baseline;

/* NULL on failure with err at the file (line and column of a JSON syntax
 * error) and the reason. A baseline whose
 * tool.version differs from `tool_version` (unless NULL) is refused;
 * relative paths in it are under `source_root` (NULL: the current directory). */
hms_baseline *hms_baseline_load_for(const char *path, const char *tool_version,
                                    const char *source_root, hms_file_error *err);
/* The same without a version check, paths relative to the current directory. */
hms_baseline *hms_baseline_load(const char *path, hms_file_error *err);
void hms_baseline_free(hms_baseline *b);
size_t hms_baseline_size(const hms_baseline *b);

/* Drops the current findings the baseline covers; returns how many. */
size_t hms_baseline_filter(hms_report *r, hms_baseline *b, hms_source_cache *src);

/* Writes the findings of `r` as a --write-baseline file: fingerprints, files
 * relative to `source_root` when under it. False on a write error. */
bool hms_baseline_write(const hms_report *r, hms_source_cache *src, const char *source_root,
                        const char *tool_version, FILE *out);

#endif
