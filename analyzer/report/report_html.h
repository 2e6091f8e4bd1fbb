/* --format=html: one self-contained page (inline CSS and SVG, no script, no
 * network): an index of files and kernels ranked by the estimated gain of
 * their fixes; per kernel, the source with a heat margin per line (share of
 * the memory time, sectors per request, bank wavefronts), the findings
 * inline with their notes and fix-its, the placement table, and a roofline
 * chart of the target with the kernel's point and the bound that binds. */
#ifndef HMS_ANALYZER_REPORT_HTML_H
#define HMS_ANALYZER_REPORT_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "analyzer/report/source_cache.h"
#include "passes/findings.h"

/* `src` supplies the source text (required). False on a write error. */
bool hms_write_html(const hms_report *r, hms_source_cache *src, FILE *out);

/* The roofline chart of one kernel on target `arch_name` as an <svg>. */
void hms_write_roofline_svg(const hms_kernel_report *k, const char *arch_name, FILE *out);

/* Writes s with &, <, >, " and ' escaped. */
void hms_html_escape(FILE *out, const char *s, size_t len);

#endif
