/* Sampled blocks scale to the whole grid for times as they do for counts
 * (issue 9, item 2): on grids small enough to enumerate every block, the
 * kernel's predicted time, T_comp, T_mem and the DRAM bound from the
 * default block sample agree with those of the full enumeration. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "passes/analyze.h"
#include "passes/findings.h"
#include "passes/trace/sample.h"
#include "runtime/arch.h"
#include "testsuite/support/ir_fixtures.h"

/* The sample differs from the whole grid in the cache and DRAM state its
 * blocks meet (fewer neighbours share lines), so times agree to 10%, not
 * exactly as counts do. */
#define TIME_TOLERANCE 0.10

static void close_enough(double full, double sampled, const char *what, const char *arch)
{
    cr_assert_gt(full, 0, "%s %s: full enumeration gave no figure", arch, what);
    double rel = fabs(sampled - full) / full;
    cr_expect_leq(rel, TIME_TOLERANCE, "%s %s: full %.1f sampled %.1f (%.1f%%)", arch, what, full,
                  sampled, 100 * rel);
}

/* `dram_strict`: assert (else log) the DRAM bound and the predicted time it
 * sets; T_comp and T_mem are asserted always. T_mem follows the sample's
 * cache state: the blocks are sampled, and the placement model thins a long
 * stream, in groups of co-resident neighbours (passes/trace/sample.h), so
 * halo lines and first-level contention match the full launch. */
static void compare(ir_kernel *k, const char *arch_name, bool dram_strict)
{
    char err[256];
    const hms_arch *a = hms_arch_get(arch_name, err, sizeof err);
    cr_assert(a, "%s", err);
    uint64_t blocks = (uint64_t)k->launch.grid[0] * k->launch.grid[1] * k->launch.grid[2];
    cr_assert_gt(blocks, HMS_SAMPLE_DEFAULT_BUDGET, "the grid must be sampled by default");
    hms_analysis_options so = {.arch = a, .checks = "-*"};
    hms_analysis_options fo = so;
    fo.max_blocks = (unsigned)blocks;
    hms_kernel_report rs, rf;
    memset(&rs, 0, sizeof rs);
    memset(&rf, 0, sizeof rf);
    cr_assert(hms_analyze_kernel(k, &so, &rs));
    cr_assert(hms_analyze_kernel(k, &fo, &rf));
    cr_assert(rs.sampled, "%s: the default analysis should sample", arch_name);
    cr_assert_not(rf.sampled, "%s: the grid should be enumerated in full", arch_name);
    cr_log_info("%s: predicted time full %.1f sampled %.1f; T_mem full %.1f sampled %.1f; DRAM "
                "bound full %.1f sampled %.1f",
                arch_name, rf.model.predicted_time, rs.model.predicted_time, rf.model.t_mem,
                rs.model.t_mem, rf.model.bound_dram, rs.model.bound_dram);
    close_enough(rf.model.t_comp, rs.model.t_comp, "T_comp", arch_name);
    close_enough(rf.model.t_mem, rs.model.t_mem, "T_mem", arch_name);
    if (dram_strict) {
        close_enough(rf.model.predicted_time, rs.model.predicted_time, "predicted time", arch_name);
        close_enough(rf.model.bound_dram, rs.model.bound_dram, "DRAM bound", arch_name);
    }
    hms_kernel_report_free(&rs);
    hms_kernel_report_free(&rf);
}

static const char *const arches[] = {"kepler", "v100", "h100"};

Test(time_scaling, copy_sampled_time_matches_full)
{
    /* 2048 blocks of 256 threads over 512K floats */
    ir_kernel *k = fx_copy1d(2048, 256, 2048 * 256);
    for (size_t i = 0; i < sizeof arches / sizeof *arches; i++)
        compare(k, arches[i], true);
    ir_kernel_free(k);
}

Test(time_scaling, tiled_transpose_sampled_time_matches_full)
{
    ir_kernel *k = fx_transpose_tiled(24, 24 * 32, false); /* 576 blocks */
    for (size_t i = 0; i < sizeof arches / sizeof *arches; i++)
        compare(k, arches[i], true);
    ir_kernel_free(k);
}

Test(time_scaling, stencil_sampled_time_matches_full)
{
    /* 512 x 512 points in 32 x 8 blocks: 16 x 64 = 1024 blocks with edges.
     * Each row is read by three blocks; the sample's groups of neighbours
     * hit in L2 on most halo rows as the full launch does (isolated picks
     * missed on them all: T_mem 14.6% high on v100). The DRAM bytes
     * are bounded by the footprint (2 MB) where it fits in L2 (v100, h100);
     * on kepler (1.5 MB of L2) the sample still overstates the DRAM bound
     * (12.6%, 31% with isolated picks), a known mismatch
     * (docs/validation.md), logged here; its T_mem is asserted. */
    ir_kernel *k = fx_stencil(16, 64, 512, 512);
    for (size_t i = 0; i < sizeof arches / sizeof *arches; i++)
        compare(k, arches[i], strcmp(arches[i], "kepler") != 0);
    ir_kernel_free(k);
}
