/* --format=sarif: SARIF 2.1.0 (OASIS), one run, shaped for GitHub code
 * scanning (docs/ci.md): rules come from the checks registry with help from
 * docs/checks, results carry partialFingerprints and root-relative URIs,
 * what the run said about its input (or the files' errors) becomes tool
 * execution notifications. */
#ifndef HMS_ANALYZER_REPORT_SARIF_H
#define HMS_ANALYZER_REPORT_SARIF_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "analyzer/report/diag_sink.h"
#include "analyzer/report/source_cache.h"
#include "passes/findings.h"

/* Where the project lives; rules' helpUri point at its docs/checks pages. */
#ifndef HMS_PROJECT_URI
#define HMS_PROJECT_URI "https://github.com/hms-lint/hms-lint"
#endif

typedef struct {
    /* Line text for partialFingerprints (fingerprint.h); NULL: fingerprints
     * fall back to the message. */
    hms_source_cache *sources;
    /* Absolute directory: paths under it become URIs relative to %SRCROOT%
     * (originalUriBaseIds), as GitHub code scanning wants. NULL: as given. */
    const char *source_root;
    bool include_notes; /* note-level findings as results (GitHub: one alert each) */
    /* When set, the run's own diagnostics (errors, warnings and notes with
     * their places) are the tool execution notifications; NULL: the files'
     * errors are. */
    hms_diag_sink *notifications;
} hms_sarif_options;

/* `o` may be NULL (no sources, paths as given, no notes). */
json_t *hms_report_to_sarif(const hms_report *r, const hms_sarif_options *o);
bool hms_write_sarif(const hms_report *r, FILE *out, const hms_sarif_options *o);

/* The rule object of one check (id, name, descriptions, help from its docs
 * page, helpUri, default level, tags, precision). */
json_t *hms_sarif_rule(const char *check_name);

/* A path as a URI reference: relative paths stay relative, absolute ones
 * become file:// URIs; bytes outside RFC 3986's unreserved set and '/' are
 * percent-encoded. Caller frees. */
char *hms_path_to_uri(const char *path);

#endif
