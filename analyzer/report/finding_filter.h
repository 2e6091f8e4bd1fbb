/* Dropping findings from a report (NOLINT suppression, --baseline). */
#ifndef HMS_ANALYZER_FINDING_FILTER_H
#define HMS_ANALYZER_FINDING_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "passes/findings.h"

/* Return true to drop the finding. `file` is the file report it sits in. */
typedef bool (*hms_finding_pred)(const hms_file_report *file, const hms_finding *f, void *ctx);

/* Removes (and frees) every finding for which drop() is true, keeping the
 * others in order. Returns how many were dropped. */
size_t hms_report_drop_findings(hms_report *r, hms_finding_pred drop, void *ctx);

#endif
