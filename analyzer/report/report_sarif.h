/* --format=sarif: SARIF 2.1.0 (OASIS), one run; rules come from the checks
 * registry, file-level errors become tool execution notifications. */
#ifndef HMS_ANALYZER_REPORT_SARIF_H
#define HMS_ANALYZER_REPORT_SARIF_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "passes/findings.h"

/* Where the project lives; rules' helpUri point at its docs/checks pages. */
#ifndef HMS_PROJECT_URI
#define HMS_PROJECT_URI "https://github.com/hms-lint/hms-lint"
#endif

json_t *hms_report_to_sarif(const hms_report *r);
bool hms_write_sarif(const hms_report *r, FILE *out);

/* A path as a URI reference: relative paths stay relative, absolute ones
 * become file:// URIs; bytes outside RFC 3986's unreserved set and '/' are
 * percent-encoded. Caller frees. */
char *hms_path_to_uri(const char *path);

#endif
