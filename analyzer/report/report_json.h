/* --format=json: the layout of docs/report-format.md, field for field
 * (documented in docs/report-format.md). Figures the report model holds as
 * < 0 ("not applicable") are written as null. */
#ifndef HMS_ANALYZER_REPORT_JSON_H
#define HMS_ANALYZER_REPORT_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "analyzer/report/diag_sink.h"
#include "analyzer/report/source_cache.h"
#include "passes/findings.h"

typedef struct {
    /* When set, each diagnostic also gets "source_line": the text of its line
     * with surrounding blanks trimmed, so --baseline can match findings whose
     * line number moved. NULL: no source reading at all. */
    hms_source_cache *sources;
    /* When set, the run's own diagnostics (parse errors, missing headers,
     * bad options...) as the top-level "notifications": records with
     * severity, file, line, column, message and code. */
    hms_diag_sink *notifications;
} hms_json_options;

/* The records of a diagnostic sink as a JSON array (new reference). */
json_t *hms_diag_sink_to_json(hms_diag_sink *s);

/* The report as a jansson value (new reference). */
json_t *hms_report_to_json(const hms_report *r, const hms_json_options *o);

/* Writes it, indented, with a final newline. Returns false on a write error. */
bool hms_write_json(const hms_report *r, FILE *out, const hms_json_options *o);
/* Writes a report document as the JSON and SARIF writers do (2-space indent,
 * 15 significant digits, trailing newline) and releases it; false when j is
 * NULL or the write failed. */
bool hms_json_dump_report(json_t *j, FILE *out);

/* The JSON-side name of a value that may be "not applicable". */
json_t *hms_json_number_or_null(double v);

/* Text of `line` in `path` without leading/trailing blanks (malloc'd), or NULL. */
char *hms_trimmed_source_line(hms_source_cache *src, const char *path, unsigned line);

#endif
