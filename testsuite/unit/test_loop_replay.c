/* Replay of access-free loops (passes/trace/trace_replay.h): a loop with
 * no access, barrier or exit that a warp runs again on the same inputs adds
 * its recorded effect instead of being traced. It must leave every record
 * (addresses, times, flags), every block's instruction and FP counts and
 * every note exactly as tracing each run does (hms_trace_options
 * .no_loop_replay), under budgets too. Kernels: testsuite/kernels/loops/
 * register_tile.cu. */
#include <criterion/criterion.h>
#include <string.h>

#include "passes/trace/stream_gen.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/run.h"
#include "testsuite/support/trace_equal.h"

TestSuite(loop_replay, .timeout = 300);

#define TILE_CU "kernels/loops/register_tile.cu"

static const char *const launches[] = {"--launch=sgemmRegisterTile:grid=2,2:block=64",
                                       "--launch=branchyOffsets:grid=4:block=64", NULL};

static const ir_kernel *kernel_of(hms_analyzed_file *f, const char *name)
{
    cr_assert(hms_build_file(hms_test_path(TILE_CU), launches, f), "%s", f->error);
    const ir_kernel *k = hms_af_kernel(f, name);
    cr_assert(k, "no kernel %s", name);
    return k;
}

/* Traces k with and without replay under opt; both results equal. Returns
 * the replays of the first. */
static uint64_t expect_same_with_and_without(const ir_kernel *k, hms_trace_options opt)
{
    hms_kernel_trace a, b;
    opt.no_loop_replay = false;
    cr_assert(hms_trace_kernel(k, &opt, &a), "%s", a.error);
    opt.no_loop_replay = true;
    cr_assert(hms_trace_kernel(k, &opt, &b), "%s", b.error);
    cr_expect_eq(b.loop_replays, 0, "no replay when asked not to");
    hms_expect_same_trace(&a, &b);
    uint64_t replays = a.loop_replays;
    hms_kernel_trace_free(&a);
    hms_kernel_trace_free(&b);
    return replays;
}

Test(loop_replay, register_tile_fma_loops_replayed_exactly)
{
    hms_analyzed_file f;
    const ir_kernel *k = kernel_of(&f, "sgemmRegisterTile");
    hms_trace_options opt = {0};
    /* 8 k0 iterations x 8 d iterations per warp: the 4x4 FMA loop nest
     * repeats on the same inputs in all but its first two runs */
    cr_expect_gt(expect_same_with_and_without(k, opt), 0);
    hms_analyzed_file_free(&f);
}

Test(loop_replay, branch_division_and_loaded_value_replayed_exactly)
{
    hms_analyzed_file f;
    const ir_kernel *k = kernel_of(&f, "branchyOffsets");
    hms_trace_options opt = {0};
    /* the while loop starts from s = 0, j = 0 every round: rounds 2..6 are
     * replays of the first, whose division keys went into the value table */
    cr_expect_gt(expect_same_with_and_without(k, opt), 0);
    hms_analyzed_file_free(&f);
}

Test(loop_replay, warp_budget_cuts_as_tracing_does)
{
    hms_analyzed_file f;
    const ir_kernel *k = kernel_of(&f, "sgemmRegisterTile");
    /* a step budget that runs out in the middle of the K loop: a replay
     * that would cross it is traced instead, so the cut lands where it does
     * without replay */
    for (uint64_t steps = 200; steps <= 1400; steps += 397) {
        hms_trace_options opt = {0};
        opt.max_steps_per_warp = steps;
        expect_same_with_and_without(k, opt);
    }
    hms_analyzed_file_free(&f);
}

Test(loop_replay, kernel_budget_cuts_as_tracing_does)
{
    hms_analyzed_file f;
    const ir_kernel *k = kernel_of(&f, "sgemmRegisterTile");
    hms_trace_options opt = {0};
    opt.max_steps = 3000; /* the sample shrinks, then the budget drains the warps */
    expect_same_with_and_without(k, opt);
    hms_analyzed_file_free(&f);
}
