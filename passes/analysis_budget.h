/* How much work one kernel's analysis may do (issue 13): the block sample,
 * the warp accesses and cache lines the tracer records, and the lines one
 * placement re-simulation replays. Past a budget the analysis samples (fewer
 * blocks, a thinned stream) and the figures are estimates, labelled so; the
 * report says when a budget reduced the sample.
 *
 * One knob for the user, `--analysis-budget=SCALE`: every default below
 * times SCALE, so 4 asks for four times the work and a smaller sampling
 * error (docs/guide.md "Analysis budget"; the measured trade of time
 * against error: bench/budget_trade.py). */
#ifndef HMS_PASSES_ANALYSIS_BUDGET_H
#define HMS_PASSES_ANALYSIS_BUDGET_H

#include <stdint.h>

#include "passes/trace/sample.h"
#include "passes/trace/stream_gen.h"

/* Defaults at SCALE 1. */
#define HMS_BUDGET_BLOCKS HMS_SAMPLE_DEFAULT_BUDGET /* blocks sampled */
/* Warp accesses traced per kernel: the block sample shrinks to fit (passes/
 * trace/stream_gen.h). Half the tracer's own default, which keeps a kernel
 * near half a second of analysis. */
#define HMS_BUDGET_RECORDS ((uint64_t)1 << 17)
#define HMS_BUDGET_LINES HMS_TRACE_DEFAULT_LINES /* 32-byte lines those accesses touch */
/* Lines one placement re-simulation replays (every legal space of every
 * array re-runs the stream through the caches and DRAM): above it the
 * stream is thinned by blocks (passes/figures/placement_pass.c). */
#define HMS_BUDGET_PLACEMENT_LINES ((uint64_t)1 << 18)
/* Accepted range of SCALE: below, a kernel would be a handful of accesses;
 * above, one kernel could take minutes and gigabytes (at 16: up to 2^21
 * traced accesses, about 600 MB). */
#define HMS_BUDGET_SCALE_MIN 0.01
#define HMS_BUDGET_SCALE_MAX 16.0

/* Sequential sampling (passes/trace/sample_stop.h): a sampled grid's trace
 * stops once its groups' per-block figures agree within this relative
 * standard error (hms_trace_options.stop_tolerance 0 traces the whole
 * sample; this default never gives 0). Divided by SCALE: more
 * budget, a stricter rule. */
#define HMS_BUDGET_STOP_TOLERANCE 0.02

typedef struct {
    uint64_t blocks, records, lines, placement_lines;
    double stop_tolerance;
} hms_analysis_budget;

/* The budgets at `scale` (0 means 1): each default times scale, at least 1. */
hms_analysis_budget hms_analysis_budget_scaled(double scale);

#endif
