/* Per-kernel analysis: trace the IR into per-warp streams, evaluate them with
 * the model core, fill the kernel's report (metrics, placements, model
 * figures) and run the enabled checks, which add diagnostics. */
#ifndef HMS_PASSES_ANALYZE_H
#define HMS_PASSES_ANALYZE_H

#include <stdbool.h>

#include "passes/findings.h"
#include "passes/ir.h"
#include "runtime/arch.h"

typedef struct {
    const hms_arch *arch;
    const char *checks;          /* --checks globs, NULL = defaults */
    double placement_threshold;  /* minimum predicted speedup for hms-placement (default 1.10) */
    unsigned max_blocks;         /* block sampling budget, 0 = default */
} hms_analysis_options;

/* Fills `out` (zero it first). Returns false only on an internal failure;
 * kernels that cannot be analysed fully still get a report and an
 * hms-analysis-limit note. */
bool hms_analyze_kernel(const ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out);

#endif
