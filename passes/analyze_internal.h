/* The steps of hms_analyze_kernel (passes/analyze.c), one file each. Each
 * step reads what the earlier ones left in the context and fills its part;
 * false means the step could not run (the reason goes to the context's
 * limits, and the checks that need the step see its figures as absent). */
#ifndef HMS_PASSES_ANALYZE_INTERNAL_H
#define HMS_PASSES_ANALYZE_INTERNAL_H

#include <stddef.h>

#include "passes/analyze.h"

/* "what could not be analysed" line for hms-analysis-limit. */
void hms_ctx_add_limit(hms_check_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* passes/figures/site_metrics.c: coalescing, banks, constant serialisation, lane
 * stride, divergence and channel groups per site, from the trace. */
bool hms_an_site_metrics(hms_check_ctx *c);

/* passes/figures/memory_sim.c: the stream in issue order through per-SM first-level
 * caches, L2, TLB and the DRAM model; per-site cache, row-buffer and latency
 * figures, kernel DRAM figures, and the C-AMAT timeline of one SM. */
bool hms_an_memory_sim(hms_check_ctx *c);

/* passes/figures/placement_pass.c: Huang & Li ranking per array, and the kernel's
 * predicted time as written. */
bool hms_an_placements(hms_check_ctx *c);

/* passes/figures/roofline_pass.c: the launch's totals against the architecture's
 * peaks (runtime/roofline.h); needs the placement model's time. */
bool hms_an_roofline(hms_check_ctx *c);
/* A model time (cycles) raised to the kernel's roofline bounds; unchanged
 * when the roofline is unavailable. */
double hms_ctx_bounded(const hms_check_ctx *c, double model_time);
/* The same for the launch's work spread over `blocks` blocks instead of the
 * grid's (the per-SM bounds follow the busiest SM's share). */
double hms_ctx_bounded_over(const hms_check_ctx *c, double model_time, double blocks);

/* passes/figures/model_figures.c: CuMAPz terms and HSM class. */
bool hms_an_model_figures(hms_check_ctx *c);

/* passes/ir/thread_dep.c: for each site, the innermost enclosing if whose
 * condition depends on the thread (threadIdx, lane id, or a value loaded
 * from memory). */
void hms_an_branches(hms_check_ctx *c);
/* Does e depend on the thread, given which variables do? */
bool hms_expr_thread_dependent(const ir_expr *e, const bool *var_dep);

/* Resident-wave geometry shared by the simulations. */
typedef struct {
    unsigned sms;        /* SMs with work */
    unsigned bps;        /* resident blocks per SM */
    unsigned wpb;        /* warps per block */
    double warps_per_sm; /* resident warps per SM */
    double cpi;          /* cycles per warp instruction: warp_size / simd_width */
    double total_warps;  /* in the launch */
} hms_launch_geom;

hms_launch_geom hms_ctx_geom(const hms_check_ctx *c);

#endif
