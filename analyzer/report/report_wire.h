/* A file's report as bytes, so that a forked worker (worker.c) can hand
 * what it found to the driver: every owned string is copied; the strings
 * findings.h documents as static (check, space, kind, source names) come
 * back interned in an hms_string_pool that lives as long as the report. */
#ifndef HMS_ANALYZER_REPORT_WIRE_H
#define HMS_ANALYZER_REPORT_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include "analyzer/report/diag_sink.h"
#include "passes/findings.h"

typedef struct {
    char **v;
    size_t n;
} hms_string_pool;

/* The pool's copy of s (NULL for NULL); NULL when out of memory. */
const char *hms_string_pool_intern(hms_string_pool *p, const char *s);
void hms_string_pool_free(hms_string_pool *p);

typedef struct {
    char *data;
    size_t len, cap;
    bool failed; /* out of memory */
} hms_wire_buf;

/* Appends the run's diagnostics (may be NULL) and the report's errors and
 * kernels to b. */
void hms_wire_put_result(hms_wire_buf *b, hms_diag_sink *diags, const hms_file_report *r);

/* Reads what hms_wire_put_result wrote: the diagnostics, added to diags
 * (its keys dedupe them), and the errors and kernels, appended to r. False
 * on a short or malformed buffer (r then holds whatever was complete). */
bool hms_wire_get_result(const char *data, size_t len, hms_diag_sink *diags, hms_file_report *r,
                         hms_string_pool *pool);

#endif
