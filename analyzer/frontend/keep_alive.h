/* Defaults that kill every thread: a kernel whose access sites no thread
 * reaches under the default values of its unknown scalar parameters
 * (Rodinia hotspot: `BLOCK_SIZE - iteration * 2` with the default 64 makes
 * every block's step negative, every guard false) is analysed again with
 * the small defaults (counts, offsets: not the thread-index bounds) set to
 * 1; when that reaches accesses it is the report, with a note naming the
 * values assumed. Otherwise the first report stands (its hms-analysis-limit
 * note says the accesses vanished under assumptions). */
#ifndef HMS_ANALYZER_KEEP_ALIVE_H
#define HMS_ANALYZER_KEEP_ALIVE_H

#include <stdbool.h>

#include "passes/analyze.h"
#include "passes/findings.h"
#include "passes/ir/ir.h"

/* hms_analyze_kernel, then the retry above when it applies; k is left with
 * the values of the report returned. */
bool hms_analyze_keep_alive(ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out);

#endif
