/* What clang-tidy users expect of findings after the analysis:
 * WarningsAsErrors (--warnings-as-errors) turns the findings of matching
 * checks into errors, and HeaderFilterRegex (--header-filter) keeps, of the
 * findings located in a header (any file but the one linted), only those
 * whose header path matches. Without a filter every finding is kept: a
 * kernel defined in a header is analysed where it is included. */
#ifndef HMS_ANALYZER_FINDING_POLICY_H
#define HMS_ANALYZER_FINDING_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "analyzer/cli/options.h"
#include "passes/findings.h"

/* Applies both to one file's report. False (with "<reason>" in err) when
 * the header filter is not a valid regular expression. */
bool hms_apply_finding_policy(hms_file_report *f, const hms_options *o, char *err, size_t errlen);

#endif
