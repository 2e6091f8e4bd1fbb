/* Per-kernel analysis: trace the IR into per-warp streams, evaluate them with
 * the model core, fill the kernel's report (metrics, placements, model
 * figures) and run the enabled checks, which add diagnostics.
 *
 * The checks (passes/check_*.c) read only struct hms_check_ctx below: the
 * raw per-site and per-kernel numbers, more detail than the report carries,
 * so that a message can name the figures behind it. */
#ifndef HMS_PASSES_ANALYZE_H
#define HMS_PASSES_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/placement.h"

#include "passes/analysis_budget.h"
#include "passes/checks/checks.h"
#include "passes/findings.h"
#include "passes/ir/ir.h"
#include "passes/figures/shared_reuse.h"
#include "passes/trace/stream_gen.h"
#include "passes/figures/registers.h"
#include "passes/ir/stride.h"
#include "runtime/arch.h"
#include "runtime/banks.h"
#include "runtime/units_memo.h"
#include "runtime/camat.h"
#include "runtime/cumapz.h"
#include "runtime/hsm.h"
#include "runtime/occupancy.h"
#include "runtime/roofline.h"

typedef struct {
    const hms_arch *arch;
    const char *checks;         /* --checks globs, NULL = defaults */
    double placement_threshold; /* minimum predicted speedup for hms-placement (default 1.10) */
    unsigned max_blocks;        /* block sampling budget, 0 = the scaled default */
    double budget_scale;        /* --analysis-budget: every work budget times this, 0 = 1
                                   (passes/analysis_budget.h) */
    /* Trace every sampled block (hms_trace_options.no_block_derive; for
     * tests: the report is the same). */
    bool no_block_derive;
} hms_analysis_options;

#define HMS_DEFAULT_PLACEMENT_THRESHOLD 1.10
/* Registers per thread when the front end does not know them (no
 * __launch_bounds__ and no compiler to ask): a typical count for small
 * memory-bound kernels. Occupancy says so when it binds (hms-analysis-limit). */
#define HMS_DEFAULT_REGS_PER_THREAD 32

/* Fills `out` (zero it first). Returns false only on an internal failure;
 * kernels that cannot be analysed fully still get a report and an
 * hms-analysis-limit note. */
bool hms_analyze_kernel(const ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out);

/* True when hms_analyze_kernel(k, o) would trace no access execution at all
 * though k has access sites (every report access 0 requests), found by a
 * cheaper trace (stream_gen.h reach_probe) that stops at the first access
 * and traces the whole sample; false when one runs or the probe cannot tell
 * (a budget, a sample its cost would reduce, no occupancy), and for a
 * sampled grid the stopping rule may cut short (not worth probing). */
bool hms_analyze_no_access_runs(const ir_kernel *k, const hms_analysis_options *o);

/* ---- what the checks read ---------------------------------------------------- */

/* One static access site over the simulated launch. Sums (doubles) are
 * weighted by block weight, i.e. scaled to the full launch; sim_* and the
 * min/max fields are over the simulated records. */
typedef struct {
    const ir_access *acc; /* the IR site (never NULL for ids < nsites) */
    const ir_array *arr;  /* its array */
    hms_space space;      /* the space its records carry (readonly for __ldg reads) */
    uint64_t sim_requests;
    double requests; /* warp executions with >= 1 active lane */
    double lanes;    /* active lanes summed over requests */
    double threads;  /* threads the executing warps hold, summed over requests */
    bool exact;      /* no unknown value and no sampling entered its figures */

    /* global / local / readonly / texture (coalescing, runtime/coalesce.h) */
    double sectors, lines, transactions; /* sums over requests */
    double ideal_sectors; /* ceil(distinct useful bytes / sector): the fewest sectors the
                             same bytes could occupy, summed over requests */
    uint32_t sectors_min, sectors_max;
    double bytes_requested, bytes_useful, bytes_transferred;

    /* shared (runtime/banks.h) */
    double wavefronts, phases; /* sums; phases = wavefronts of a conflict-free access */
    double conflicted;         /* requests with more wavefronts than phases */
    uint32_t ways_max;

    /* constant (runtime/constmem.h) */
    double distinct;
    uint32_t distinct_max;

    /* caches and DRAM (issue-order simulation) */
    double fl_hits, fl_misses; /* first-level cache line lookups (L1/texture/read-only/constant) */
    double l2_hits, l2_misses; /* L2 line lookups */
    double dram_requests;      /* requests with >= 1 L2 miss */
    double row_hits, row_misses, row_conflicts; /* DRAM row-buffer outcomes of its L2 misses */
    double latency;                             /* sum of modelled request latencies (cycles) */

    /* partition camping (CuMAPz eqs. 4-5 on this site's concurrent accesses) */
    double camping; /* busiest channel / its even share, request-weighted mean; 0 = n/a */
    double ch_skew; /* CuMAPz eq. 5 over this site alone; 0 = n/a */
    unsigned channels_used, channels_ideal; /* in the worst concurrent group */

    /* lane-to-lane stride (passes/ir/stride.h) */
    hms_stride stride;
    bool stride_known;  /* stride.coeff evaluates to a number ... */
    int64_t stride_val; /* ... this one (index units) */
    bool stride_approx; /* ... resting on a default parameter value */

    /* divergence */
    const ir_stmt *branch;   /* innermost enclosing if with a thread-dependent condition */
    bool collective;         /* under an instruction's own lane mask (ir_stmt.lane_mask): a
                                warp-collective access (a WMMA tile load), the whole warp
                                converged; its idle lanes are not divergence */
    double compact_requests; /* requests if the active lanes of each concurrent group were
                                packed into full warps (per block and execution) */
} hms_site_metrics;

/* One array's placement (Huang & Li) as ranked by runtime/placement.h. */
typedef struct {
    bool ranked;   /* rank is valid */
    char why[256]; /* when not ranked: the reason */
    hms_placement_array arr;
    hms_placement_ranking rank;
    /* A shared buffer a mapping fills: the kernel predicted with the buffer
     * replaced by direct global reads (passes/figures/shared_direct.h), same model
     * and stream as fig.time, for hms-shared-reuse. */
    bool direct_ok;
    hms_placement_breakdown direct;
} hms_array_placement;

/* Kernel-level figures with their inputs. */
typedef struct {
    /* traffic (weighted) */
    double requests, shared_requests, global_requests, const_requests, tex_requests;
    double dram_requests, dram_bytes;
    double dram_channel_factor; /* partition camping: >= 1, 1 without (memory_sim.c) */
    double row_hits, row_misses, row_conflicts, row_hit_rate;
    double dram_latency, dram_t_hit, l2_hit_latency; /* cycles */
    bool dram_ok;
    /* Huang & Li model of the kernel as written */
    hms_placement_kernel pk;
    hms_placement_events cur; /* traffic as written (any array in its current space) */
    hms_placement_breakdown time;
    bool time_ok;
    bool coeffs_default;  /* overlap coefficients are defaults */
    double inst_per_warp; /* executed instructions per warp (trace) */
    double load_mlp;      /* off-chip loads per memory period (passes/ir/load_groups.h) */
    /* CuMAPz */
    hms_cumapz_terms cumapz;
    hms_cumapz_skew skew;
    hms_cumapz_bank_counts banks;
    bool cumapz_ok;
    /* C-AMAT on the SM of the first simulated block */
    hms_camat_result camat;
    bool camat_ok;
    /* HSM classifier */
    double hsm_demand, hsm_supply; /* bytes/s */
    hms_hsm_coeffs hsm_coeffs;
    bool hsm_default;
    hms_bound bound;
    /* Roofline (passes/figures/roofline_pass.c): the predicted time is the model's
     * time or a bound, whichever is larger; demand = traffic / that time. */
    hms_roofline_in roof_in;
    hms_roofline roof;
    bool roof_ok;
    double dram_gbs; /* DRAM bytes over the predicted time, GB/s (<= peak) */
} hms_kernel_figures;

struct hms_check_ctx {
    const ir_kernel *k;
    const hms_arch *arch;
    hms_arch arch_carved; /* the options' arch with this kernel's L1 carve-out (l1_carveout.h) */
    const hms_analysis_options *opt;
    hms_analysis_budget budget; /* opt's work budgets, resolved */
    double placement_threshold;

    hms_trace_options topt;
    hms_kernel_trace trace;
    bool traced;
    char trace_error[512];
    /* Bank result of each trace record, computed once for the passes that
     * read it (site metrics, which makes it, memory simulation, CuMAPz, the
     * placement runs and shared-buffer variants); NULL when it could not be
     * allocated or site metrics failed: they then compute their own. */
    hms_bank_memo *banks;
    /* Each trace record's units and coalescing (runtime/units_memo.h),
     * computed once for every pass that reads them; NULL: each computes. */
    hms_units_memo *units;
    /* CuMAPz's transfer sums over the stream's global and read-only records
     * (hms_cumapz_stream_transfer), added up by site metrics as it coalesces
     * each record; transfer_ok false: the CuMAPz pass computes them. */
    bool transfer_ok;
    uint64_t transfer_useful, transfer_bytes;
    /* fig.banks (CuMAPz's bank counts) made by site metrics with the banks;
     * false: the CuMAPz pass counts them. */
    bool bank_counts_ok;

    hms_occupancy occ;
    bool occ_ok;
    char occ_error[256];
    int regs_per_thread;       /* used for occupancy */
    bool regs_default;         /* regs_per_thread is not from ptxas (assumed or estimated) */
    hms_register_estimate reg; /* where regs_per_thread comes from; the ILP estimate */

    hms_site_metrics *sites; /* by site id */
    size_t nsites;
    hms_array_placement *placements; /* by array id */
    size_t narrays;
    hms_shared_reuse reuse;
    bool reuse_ok;
    hms_kernel_figures fig;

    char **limits; /* extra "what could not be analysed" lines from the pipeline */
    size_t nlimits;

    hms_kernel_report *report;
    const hms_check_def *check; /* the check running now */
};
typedef struct hms_check_ctx hms_check_ctx;

#endif
