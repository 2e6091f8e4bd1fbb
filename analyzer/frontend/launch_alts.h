/* Kernels launched with several configurations (a launcher called in a loop
 * over constant block sizes, or from several places with different values):
 * every configuration is analysed, and the slowest by predicted time is the
 * one reported; the others are listed with their predicted times in
 * launch.others (report-format.md "launch"). */
#ifndef HMS_ANALYZER_LAUNCH_ALTS_H
#define HMS_ANALYZER_LAUNCH_ALTS_H

#include <stdbool.h>

#include "passes/analyze.h"
#include "passes/findings.h"
#include "passes/ir/ir.h"

/* hms_analyze_kernel on k as built, or, when k->launch.nalts >= 2, on each
 * configuration in turn (k's launch and parameter values set to it), keeping
 * the report of the slowest; k is left set to that configuration. */
bool hms_analyze_launch_alts(ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out);

#endif
