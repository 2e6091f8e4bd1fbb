/* "Worst first": estimates of the time each finding costs and each kernel
 * could gain, from the figures the model already reports. All are
 * estimates (labelled so wherever printed), in SM cycles of the kernel's
 * predicted time, never more than that time:
 *  - a line's share of the memory time: its accesses' requests x latency
 *    over the kernel's total, applied to min(predicted time, t_mem);
 *  - a finding's gain: that line time x the waste its check's fix
 *    removes, as the line's accesses show it: 1 - ideal/actual sectors per
 *    request for coalescing and divergence (global/local accesses),
 *    1 - 1/wavefronts for bank conflicts (shared), 1 - 1/distinct
 *    addresses for constant divergence; for a placement finding, the
 *    placement model's own current - best predicted time of the array.
 *    Other checks (latency hiding, DRAM locality, camping, summaries)
 *    carry no estimate: 0;
 *  - a kernel's gain: the sum of its findings' gains, one per line and
 *    check, capped at its predicted time (fixes are taken as independent,
 *    which is optimistic when two touch the same accesses). */
#ifndef HMS_ANALYZER_COST_RANK_H
#define HMS_ANALYZER_COST_RANK_H

#include "passes/findings.h"

/* Share (0..1) of the kernel's memory access time spent on `line`. */
double hms_line_memory_share(const hms_kernel_report *k, unsigned line);

/* Predicted cycles a fix of `f` (a finding of `k`) would save; 0 when the
 * finding names no waste the model measures. */
double hms_finding_gain(const hms_kernel_report *k, const hms_finding *f);

/* Predicted cycles all the kernel's fixes together would save. */
double hms_kernel_gain(const hms_kernel_report *k);

/* --sort=cost: each file's kernels by gain, then predicted time, worst
 * first; each kernel's findings by gain (ties keep source order). */
void hms_sort_report_by_cost(hms_report *r);

#endif
