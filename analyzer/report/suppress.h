/* Inline suppression comments, with clang-tidy's semantics:
 *   // NOLINT                      on the finding's line: every check
 *   // NOLINT(hms-a, hms-b-*)       on the finding's line: the listed globs
 *   // NOLINTNEXTLINE(...)         on the line before the finding
 *   // NOLINTBEGIN(...) ... // NOLINTEND(...)   every line in between
 * An empty list "()" suppresses nothing; a list with no closing ')' acts as
 * a bare NOLINT. Globs use fnmatch ('*' and '?'). */
#ifndef HMS_ANALYZER_SUPPRESS_H
#define HMS_ANALYZER_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "analyzer/report/source_cache.h"
#include "passes/findings.h"

/* Whether a finding of `check` at `line` of `path` is suppressed by a
 * comment in that file. Unreadable files suppress nothing. */
bool hms_nolint_suppresses(hms_source_cache *src, const char *path, unsigned line,
                           const char *check);

/* Drops every suppressed finding from the report; returns how many. */
size_t hms_suppress_nolint(hms_report *r, hms_source_cache *src);

#endif
