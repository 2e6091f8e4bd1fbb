/* A hand-built report for the writer tests: every field set to a known,
 * distinct value, with "not applicable" (< 0) figures, a sampled kernel, a
 * file that failed, notes in the same and in another file, and fix-its. */
#ifndef HMS_TEST_SAMPLE_REPORT_H
#define HMS_TEST_SAMPLE_REPORT_H

#include "passes/findings.h"

/* The source the sample's positions point into (5 lines; line 3 starts with
 * a tab). */
extern const char hms_sample_source[];

/* Writes hms_sample_source to a fresh temporary file; returns its path
 * (malloc'd) or NULL. */
char *hms_sample_write_source(void);

/* Fills r; `src` is the path findings point into. Free with hms_report_free. */
void hms_sample_report(hms_report *r, const char *src);

/* An empty report of one file (`path`) holding one kernel (`kernel`, no
 * findings yet), from hms-lint 1 on h100; returns the kernel, for tests that
 * add their own findings. Free with hms_report_free. */
hms_kernel_report *hms_one_kernel_report(hms_report *r, const char *path, const char *kernel);

#endif
