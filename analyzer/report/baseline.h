/* --baseline=<file>: an earlier JSON report whose findings are known and
 * accepted. A finding is dropped when an unused baseline finding has the
 * same file, check and message, and either the same line or the same source
 * line text ("source_line", trimmed), so findings survive code moving. Each
 * baseline finding absorbs at most one current finding. */
#ifndef HMS_ANALYZER_BASELINE_H
#define HMS_ANALYZER_BASELINE_H

#include <stddef.h>

#include "analyzer/report/source_cache.h"
#include "passes/findings.h"

typedef struct hms_baseline hms_baseline;

/* NULL on failure with "<path>: <reason>" in err. */
hms_baseline *hms_baseline_load(const char *path, char *err, size_t errlen);
void hms_baseline_free(hms_baseline *b);
size_t hms_baseline_size(const hms_baseline *b);

/* Drops the current findings the baseline covers; returns how many. */
size_t hms_baseline_filter(hms_report *r, hms_baseline *b, hms_source_cache *src);

#endif
