/* The closing line of text output per check:
 *   "12 warnings: 7 hms-uncoalesced-access, 5 hms-shared-bank-conflict; 3 suppressed."
 * counted as the text report prints findings (a group of identical findings
 * from several kernels once), most frequent check first. */
#ifndef HMS_ANALYZER_CHECK_SUMMARY_H
#define HMS_ANALYZER_CHECK_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "passes/findings.h"

/* Nothing when there are no findings and none suppressed. */
void hms_write_check_summary(const hms_report *r, size_t suppressed, FILE *out);

#endif
