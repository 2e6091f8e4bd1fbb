/* Sequential sampling: when a sampled grid's trace may stop before the last
 * of the sample's groups (passes/trace/sample.h).
 *
 * The tracer traces the sample's groups of co-resident blocks: the
 * stratum, the first spread group, the last, then the middle ones
 * (hms_sample_last_group_second). After each group it takes per-block figures of that group, the
 * quantities the model's figures are sums of:
 *  - warp requests (records, each counted 1 + extra times),
 *  - 32-byte lines the records touch (the tracer's work count, hms_traced_block.lines),
 *  - instructions of the block's warps,
 *  - shared-memory bank passes (hms_banks_warp wavefronts, times 1 + extra),
 *  - new off-chip lines: 32-byte lines of global, local, texture and
 *    read-only memory that no earlier traced group touched. Blocks of
 *    different waves share lines in L2 (a GEMM's blocks of one tile column
 *    read the same B strip), so a later group finds fewer new lines and the
 *    scaled DRAM traffic falls as more groups are traced: such a kernel
 *    must not stop early, while a streaming kernel's groups each bring the
 *    same number of new lines,
 *  - warp requests of each access site.
 * Each figure's estimate is the mean over the traced groups of the group's
 * per-block value; its relative standard error is the standard deviation of
 * the group values over sqrt(groups), over the mean. Once at least
 * HMS_STOP_MIN_GROUPS groups are traced and every figure's relative
 * standard error is at most the tolerance, the next group is not expected to
 * move any of them by more than that, so the rest of the sample is not
 * traced: a regular kernel (every block the same work shifted: an
 * elementwise loop) stops once the first and last groups are in (the rule
 * acts on samples of at least three spread groups), an irregular one (a
 * triangular solve, work that depends on the block) runs to the end of the
 * sample as before. A figure that is 0 in every group is left out; one that
 * is 0 in some groups only gives a large error (it does not stop). */
#ifndef HMS_PASSES_TRACE_SAMPLE_STOP_H
#define HMS_PASSES_TRACE_SAMPLE_STOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "passes/trace/sample.h"
#include "passes/trace/stream_gen.h"
#include "runtime/arch.h"

#define HMS_STOP_MIN_GROUPS 2

/* The figures of each group, in the order above: HMS_STOP_FIG_SITES + site. */
enum {
    HMS_STOP_FIG_REQUESTS = 0,
    HMS_STOP_FIG_LINES,
    HMS_STOP_FIG_INSTS,
    HMS_STOP_FIG_BANK_PASSES,
    HMS_STOP_FIG_NEW_LINES,
    HMS_STOP_FIG_SITES
};

/* The off-chip 32-byte lines the traced groups touched (open addressing,
 * line + 1 stored so that 0 marks an empty slot). */
typedef struct {
    uint64_t *v;
    size_t cap, n;
} hms_line_set;

typedef struct {
    size_t nfig;    /* figures per group */
    size_t ngroups; /* groups added */
    double *x;      /* ngroups x nfig, group by group */
} hms_group_figures;

/* nfig figures per group. False on allocation failure. */
bool hms_group_figures_init(hms_group_figures *g, size_t nfig);
void hms_group_figures_free(hms_group_figures *g);
/* Appends one group's per-block figures (g->nfig values). False on
 * allocation failure. */
bool hms_group_figures_add(hms_group_figures *g, const double *per_block);
/* The largest relative standard error of the mean over the figures that are
 * not 0 in every group (0 when there is none), and which figure it is
 * (*which, may be NULL). Infinite with fewer than 2 groups. */
double hms_group_figures_rse(const hms_group_figures *g, size_t *which);
/* Whether the trace may stop: at least HMS_STOP_MIN_GROUPS groups and every
 * figure's relative standard error at most `tolerance` (> 0). */
bool hms_group_figures_converged(const hms_group_figures *g, double tolerance);

/* The per-block figures of traced blocks [first, end) of t into out
 * (HMS_STOP_FIG_SITES + t->nsites values). arch: the GPU whose bank model
 * counts the shared passes (NULL: that figure is 0). k: the traced kernel
 * (its sites' arrays key the lines). `seen` holds the lines
 * of the groups before (empty for the first) and takes this group's. False
 * on allocation failure. */
bool hms_group_figures_of(const hms_kernel_trace *t, const ir_kernel *k, size_t first, size_t end,
                          const hms_arch *arch, hms_line_set *seen, double *out);
void hms_line_set_free(hms_line_set *s);

/* The trace order. The sample's groups (sample.h hms_sampled_block.group)
 * in sample s, or in its spread only (group > 0). */
uint32_t hms_sample_count_groups(const hms_block_sample *s, bool spread_only);
/* With the stopping rule on, the spread's last group is traced right after
 * its first (then the others in order): the rule may stop only once the
 * grid's last blocks (its edge) are traced, so a kernel that differs there
 * is seen, and the traced ids span the grid as the whole sample's do (the
 * roofline sizes untyped arrays by that span). Reorders a fresh (ascending)
 * sample s so; false on allocation failure (s unchanged). */
bool hms_sample_last_group_second(hms_block_sample *s);
/* Puts t's traced blocks and their records back in ascending block id (the
 * order every consumer expects) after a trace in that order. False on
 * allocation failure (t unchanged). */
bool hms_trace_order_by_id(hms_kernel_trace *t);

#endif
