/* Test helpers: two traces of one kernel equal in everything the analysis
 * reads (records, blocks, sites, arrays, flags, notes), and a report's JSON
 * text. For the switches that must not change a trace (derived blocks, loop
 * replay) and for report round trips. */
#ifndef HMS_TEST_TRACE_EQUAL_H
#define HMS_TEST_TRACE_EQUAL_H

#include "passes/findings.h"
#include "passes/trace/stream_gen.h"

/* Criterion expectations that a and b are equal (asserts on counts). */
void hms_expect_same_trace(const hms_kernel_trace *a, const hms_kernel_trace *b);

/* The JSON report of r (no sources) as a string; caller frees. */
char *hms_test_json_text(const hms_report *r);

#endif
