/* Clang-style text diagnostics:
 *
 *   k.cu:12:9: warning: message [hms-check-name]
 *       tile[threadIdx.x][threadIdx.y] = v;
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~~
 *   k.cu:3:27: note: declared here
 *       __shared__ float tile[16][16];
 *                                 ^~
 *                                 17
 *
 * Source lines are read from the files (cached per file); tabs expand to
 * 8-column stops as clang does. Fix-its are shown under the snippet of the
 * line they apply to; those on a line no snippet shows get their own
 * "note: suggested fix" snippet. */
#ifndef HMS_ANALYZER_REPORT_TEXT_H
#define HMS_ANALYZER_REPORT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "passes/findings.h"

typedef struct {
    bool color;    /* ANSI colours (resolve with hms_use_color) */
    bool explain;  /* append the --explain tables of each file's kernels */
    bool as_given; /* findings in report order (--sort=cost), not by line */
} hms_text_options;

typedef struct {
    size_t errors, warnings, notes; /* findings by severity (attached notes not counted) */
} hms_diag_counts;

/* Writes every finding of the report, file by file in report order and by
 * line within a file. `counts` (may be NULL) receives the totals. */
void hms_write_text(const hms_report *r, FILE *out, const hms_text_options *o,
                    hms_diag_counts *counts);

/* "3 warnings and 1 note generated.\n" like clang; nothing when all are 0. */
void hms_write_text_summary(const hms_diag_counts *c, FILE *out);
/* Counts the findings as the text report prints them: an identical finding
 * from several kernels (finding_groups.h) once. */
void hms_count_text_findings(const hms_report *r, hms_diag_counts *c);

/* --color: 1 always, 0 never, -1 auto = a terminal and NO_COLOR unset/empty
 * and TERM not "dumb". */
bool hms_use_color(int color_option, FILE *out);

#endif
