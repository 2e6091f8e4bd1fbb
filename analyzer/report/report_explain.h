/* --explain: a readable per-kernel model report (launch, occupancy, access
 * table, placement table, time breakdown, CuMAPz terms, AMAT, C-AMAT, DRAM,
 * HSM class), printed after the diagnostics in text mode. */
#ifndef HMS_ANALYZER_REPORT_EXPLAIN_H
#define HMS_ANALYZER_REPORT_EXPLAIN_H

#include <stdio.h>

#include "passes/findings.h"

/* `file` names the source in the heading (may be NULL). */
void hms_write_explain(const hms_kernel_report *k, const char *file, FILE *out);

#endif
