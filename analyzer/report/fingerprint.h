/* Finding fingerprints that survive unrelated edits, after GitHub's
 * primaryLocationLineHash: a hash of the check, the kernel, the finding's
 * source line with all blanks removed, and the column counted from the
 * line's first non-blank character. Lines moving, re-indentation and edits
 * elsewhere leave it unchanged; editing the line itself changes it. Used by
 * SARIF partialFingerprints, --write-baseline and baseline matching. */
#ifndef HMS_ANALYZER_FINGERPRINT_H
#define HMS_ANALYZER_FINGERPRINT_H

#include "analyzer/report/source_cache.h"
#include "passes/findings.h"

/* The partialFingerprints key; bump the suffix when the recipe changes. */
#define HMS_FINGERPRINT_KEY "hmsFindingHash/v1"

/* 16 hex digits and a NUL. */
typedef struct {
    char hex[17];
} hms_fingerprint;

/* `file_path` is where the finding is when f->file is NULL; `kernel` may be
 * NULL. When the line cannot be read the message stands in for it. */
hms_fingerprint hms_finding_fingerprint(const hms_finding *f, const char *file_path,
                                        const char *kernel, hms_source_cache *src);

/* The kernel report of `file` whose diagnostics hold `f`, or NULL. */
const hms_kernel_report *hms_kernel_of_finding(const hms_file_report *file, const hms_finding *f);

#endif
