/* The per-file ranking of kernels by predicted time and by the estimated
 * gain of their fixes (cost_rank.h), for --explain and --format=json. */
#ifndef HMS_ANALYZER_REPORT_RANKING_H
#define HMS_ANALYZER_REPORT_RANKING_H

#include <jansson.h>
#include <stdio.h>

#include "passes/findings.h"

/* {"by_predicted_time": [{"kernel", "predicted_time"}...],
 *  "by_estimated_gain": [{"kernel", "estimated_gain", "share"}...]}. */
json_t *hms_ranking_json(const hms_file_report *fr);

/* The same as a text table (nothing for a file without kernels). */
void hms_write_ranking(const hms_file_report *fr, FILE *out);

/* Kernel indices of fr ordered worst first by gain (key 1) or by predicted
 * time (key 0); caller frees. */
size_t *hms_rank_kernels(const hms_file_report *fr, int by_gain);

#endif
