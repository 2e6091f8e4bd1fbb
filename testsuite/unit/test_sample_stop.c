/* Sequential sampling (passes/trace/sample_stop.h): the stopping rule on
 * hand-built per-group figures, the sampler's group ids, and the tracer
 * stopping a regular kernel after two groups, running an irregular one to
 * the end of its sample and never cutting a grid it traces in full. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "passes/trace/sample.h"
#include "passes/trace/sample_stop.h"
#include "passes/trace/stream_gen.h"
#include "testsuite/support/ir_fixtures.h"

/* ---- the rule on hand-built figures ------------------------------------------------- */

static void add(hms_group_figures *g, double a, double b, double c)
{
    double x[3] = {a, b, c};
    cr_assert(hms_group_figures_add(g, x));
}

Test(sample_stop, regular_groups_converge_after_two)
{
    hms_group_figures g;
    cr_assert(hms_group_figures_init(&g, 3));
    add(&g, 4096, 2048, 9000);
    cr_assert_not(hms_group_figures_converged(&g, 0.02), "one group never stops");
    cr_assert(isinf(hms_group_figures_rse(&g, NULL)));
    add(&g, 4096, 2048, 9000);
    cr_assert_float_eq(hms_group_figures_rse(&g, NULL), 0.0, 1e-15);
    cr_assert(hms_group_figures_converged(&g, 0.02), "equal per-block figures: stop after 2");
    hms_group_figures_free(&g);
}

Test(sample_stop, irregular_groups_do_not_converge)
{
    hms_group_figures g;
    cr_assert(hms_group_figures_init(&g, 3));
    /* the third figure grows with the block id (a triangular kernel) */
    double third[] = {1000, 2000, 3000, 4000};
    for (int i = 0; i < 4; i++) {
        add(&g, 4096, 2048, third[i]);
        cr_assert_not(hms_group_figures_converged(&g, 0.02), "group %d", i + 1);
    }
    size_t which = 99;
    /* mean 2500, sd 1291, over sqrt(4): relative 0.258 */
    cr_assert_float_eq(hms_group_figures_rse(&g, &which), 1290.994 / 2 / 2500, 1e-6);
    cr_assert_eq(which, 2);
    hms_group_figures_free(&g);
}

Test(sample_stop, two_groups_within_the_tolerance)
{
    hms_group_figures g;
    cr_assert(hms_group_figures_init(&g, 3));
    add(&g, 1000, 10, 0);
    add(&g, 1030, 10, 0);
    /* |a - b| / (a + b) for two groups: 30 / 2030 = 1.48 % */
    cr_assert_float_eq(hms_group_figures_rse(&g, NULL), 30.0 / 2030.0, 1e-12);
    cr_assert(hms_group_figures_converged(&g, 0.02));
    cr_assert_not(hms_group_figures_converged(&g, 0.01));
    cr_assert_not(hms_group_figures_converged(&g, 0), "tolerance 0: never stops");
    hms_group_figures_free(&g);
}

Test(sample_stop, a_figure_zero_in_some_groups_only_does_not_stop)
{
    hms_group_figures g;
    cr_assert(hms_group_figures_init(&g, 3));
    add(&g, 1000, 10, 0);
    add(&g, 1000, 10, 5); /* a site that ran in the second group only */
    cr_assert_float_eq(hms_group_figures_rse(&g, NULL), 1.0, 1e-12);
    cr_assert_not(hms_group_figures_converged(&g, 0.5));
    hms_group_figures_free(&g);
}

/* ---- the sampler's groups -------------------------------------------------------------- */

Test(sample_stop, sampler_numbers_the_stratum_and_each_group)
{
    hms_residency r = {8, 2}; /* 16 blocks a wave */
    hms_block_sample s;
    cr_assert(hms_sample_blocks_resident(4096, 16, &r, 64, &s));
    cr_assert(s.sampled);
    uint32_t last = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (i < 16)
            cr_assert_eq(s.v[i].group, 0, "the first wave is the stratum");
        else
            cr_assert(s.v[i].group == last || s.v[i].group == last + 1,
                      "groups come in sample order");
        if (i > 0 && s.v[i].group != s.v[i - 1].group)
            cr_assert_neq(s.v[i].id / 16, s.v[i - 1].id / 16, "a group is one wave");
        last = s.v[i].group;
    }
    cr_assert_eq(last, HMS_SAMPLE_MIN_RUNS);
    hms_block_sample_free(&s);
}

Test(sample_stop, last_group_second_then_the_middle_ones)
{
    hms_residency r = {8, 2};
    hms_block_sample s;
    cr_assert(hms_sample_blocks_resident(4096, 16, &r, 64, &s));
    cr_assert_eq(hms_sample_count_groups(&s, false), 1 + HMS_SAMPLE_MIN_RUNS);
    cr_assert_eq(hms_sample_count_groups(&s, true), HMS_SAMPLE_MIN_RUNS);
    size_t n = s.n;
    cr_assert(hms_sample_last_group_second(&s));
    cr_assert_eq(s.n, n);
    uint32_t want[] = {0, 1, 4, 2, 3}, seen = 0;
    for (size_t i = 0; i < s.n; i++)
        if (i == 0 || s.v[i].group != s.v[i - 1].group) {
            cr_assert_lt(seen, 5);
            cr_assert_eq(s.v[i].group, want[seen], "group %u at position %u", s.v[i].group, seen);
            seen++;
        }
    cr_assert_eq(seen, 5);
    hms_block_sample_free(&s);
}

/* ---- the tracer ---------------------------------------------------------------------------- */

static hms_trace_options resident(double tolerance)
{
    hms_trace_options o;
    memset(&o, 0, sizeof o);
    o.max_blocks = 64;
    o.first_wave_blocks = 16;
    o.sm_count = 8;
    o.blocks_per_sm = 2;
    o.stop_tolerance = tolerance;
    return o;
}

static double weight_sum(const hms_kernel_trace *t)
{
    double w = 0;
    for (size_t b = 0; b < t->nblocks; b++)
        w += t->blocks[b].weight;
    return w;
}

static void assert_ascending_to_the_last_block(const hms_kernel_trace *t)
{
    for (size_t b = 1; b < t->nblocks; b++) {
        cr_assert_lt(t->blocks[b - 1].id, t->blocks[b].id, "blocks in ascending id");
        cr_assert_eq(t->blocks[b].first, t->blocks[b - 1].first + t->blocks[b - 1].count,
                     "records block by block");
        for (size_t i = t->blocks[b].first; i < t->blocks[b].first + t->blocks[b].count; i++)
            cr_assert_eq(t->stream.v[i].block, (uint32_t)t->blocks[b].id);
    }
    cr_assert_eq(t->blocks[t->nblocks - 1].id, t->blocks_total - 1,
                 "the rule waits for the group with the grid's last block");
}

/* copy1d on 4096 blocks, 8 SMs x 2: the spread's groups (no first-wave
 * stratum here) are traced first, last, then the middle ones. */
Test(sample_stop, regular_kernel_stops_after_two_groups)
{
    ir_kernel *k = fx_copy1d(4096, 128, 4096 * 128);
    hms_trace_options o = resident(0.02), off = resident(0);
    o.first_wave_blocks = off.first_wave_blocks = 0;
    hms_kernel_trace full, t;
    cr_assert(hms_trace_kernel(k, &off, &full), "%s", full.error);
    cr_assert(hms_trace_kernel(k, &o, &t), "%s", t.error);
    cr_assert(t.sampled);
    cr_assert(t.stopped_early);
    cr_assert_eq(t.groups_sampled, HMS_SAMPLE_MIN_RUNS);
    cr_assert_eq(t.groups_traced, 2, "the first and the last group");
    cr_assert_eq(t.stratum_blocks, 0);
    cr_assert_eq(t.nblocks, full.nblocks / 2);
    cr_assert_float_eq(t.stop_rse, 0.0, 1e-12);
    assert_ascending_to_the_last_block(&t);
    cr_assert_float_eq(weight_sum(&t), 4096.0, 1e-6);
    /* a regular kernel's scaled requests are the whole sample's */
    for (size_t i = 0; i < t.nsites; i++)
        cr_assert_float_eq(t.sites[i].weighted_requests, full.sites[i].weighted_requests, 1e-6);
    cr_assert(t.stopped_early, "the trace says the sample stopped (the report's limit reads it)");
    cr_assert_lt(t.groups_traced, t.groups_sampled);
    cr_assert_not(full.stopped_early);
    cr_assert_eq(full.groups_traced, full.groups_sampled);
    hms_kernel_trace_free(&t);
    hms_kernel_trace_free(&full);
    ir_kernel_free(k);
}

/* With a first-wave stratum: it, the first and the last group; the stratum's
 * blocks keep weight 1. */
Test(sample_stop, the_stratum_stands_for_itself)
{
    ir_kernel *k = fx_copy1d(4096, 128, 4096 * 128);
    hms_trace_options o = resident(0.02);
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, &o, &t), "%s", t.error);
    cr_assert(t.stopped_early);
    cr_assert_eq(t.groups_sampled, 1 + HMS_SAMPLE_MIN_RUNS);
    cr_assert_eq(t.groups_traced, 3);
    cr_assert_eq(t.stratum_blocks, 16);
    for (size_t b = 0; b < 16; b++)
        cr_assert_float_eq(t.blocks[b].weight, 1.0, 1e-12);
    assert_ascending_to_the_last_block(&t);
    cr_assert_float_eq(weight_sum(&t), 4096.0, 1e-6);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

/* for (j = 0; j < blockIdx.x; j++) out[j * 128 + threadIdx.x] = 0: a block's
 * work grows with its id. */
static ir_kernel *triangular(uint32_t grid)
{
    ir_kernel *k = fx_kernel("triangular", grid, 1, 128, 1);
    int out = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int j = fx_local(k, "j");
    ir_expr *index = fx_add(k, fx_mul(k, fx_v(k, j), fx_c(k, 128)), fx_s(k, IR_SYM_TID_X));
    fx_body(k, fx_loop(k, fx_assign(k, j, fx_c(k, 0)), fx_lt(k, fx_v(k, j), fx_s(k, IR_SYM_BID_X)),
                       fx_assign(k, j, fx_add(k, fx_v(k, j), fx_c(k, 1))),
                       fx_access(k, out, HMS_ACCESS_STORE, index, 4, 4), 4));
    return k;
}

Test(sample_stop, irregular_kernel_runs_to_the_end_of_the_sample)
{
    ir_kernel *k = triangular(4096);
    hms_trace_options o = resident(0.02);
    o.loop_summary_after = UINT32_MAX; /* the work itself, not a summary of it */
    o.max_records = (size_t)1 << 22;
    hms_trace_options off = o;
    off.stop_tolerance = 0;
    hms_kernel_trace t, full;
    cr_assert(hms_trace_kernel(k, &o, &t), "%s", t.error);
    cr_assert(hms_trace_kernel(k, &off, &full), "%s", full.error);
    cr_assert_eq(t.stream.n, full.stream.n, "the same blocks, traced in another order");
    for (size_t b = 0; b < t.nblocks; b++) {
        cr_assert_eq(t.blocks[b].id, full.blocks[b].id);
        cr_assert_eq(t.blocks[b].count, full.blocks[b].count);
        cr_assert_eq(t.blocks[b].first, full.blocks[b].first);
    }
    cr_assert(t.sampled);
    cr_assert_not(t.stopped_early);
    cr_assert_eq(t.groups_traced, t.groups_sampled);
    cr_assert_eq(t.nblocks, 64);
    assert_ascending_to_the_last_block(&t); /* traced out of order, put back */
    cr_assert_float_eq(weight_sum(&t), 4096.0, 1e-6);
    hms_kernel_trace_free(&t);
    hms_kernel_trace_free(&full);
    ir_kernel_free(k);
}

/* out[gid] = in[threadIdx.x] + ...: every block reads the same lines of `in`, which
 * a later group finds in L2 (new off-chip lines per block fall after the
 * first group), so the scaled DRAM traffic depends on how many groups are
 * traced: the rule must not stop. */
Test(sample_stop, lines_shared_across_groups_do_not_stop)
{
    ir_kernel *k = fx_kernel("broadcast", 4096, 1, 128, 1);
    int in = fx_array(k, "in", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int out = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    for (int64_t row = 0; row < 3; row++) /* in[tid], in[tid + 128], in[tid + 256] */
        fx_body(k, fx_access(k, in, HMS_ACCESS_LOAD,
                             fx_add(k, fx_s(k, IR_SYM_TID_X), fx_c(k, 128 * row)), 4, 3));
    fx_body(k, fx_access(k, out, HMS_ACCESS_STORE, fx_gid_x(k), 4, 3));
    hms_trace_options o = resident(0.02);
    o.first_wave_blocks = 0;
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, &o, &t), "%s", t.error);
    cr_assert(t.sampled);
    cr_assert_not(t.stopped_early, "requests agree, new lines do not");
    cr_assert_eq(t.groups_traced, t.groups_sampled);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(sample_stop, grid_within_the_budget_is_never_sampled)
{
    ir_kernel *k = fx_copy1d(64, 128, 64 * 128);
    hms_trace_options o = resident(0.5);
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, &o, &t), "%s", t.error);
    cr_assert_not(t.sampled);
    cr_assert_not(t.stopped_early);
    cr_assert_eq(t.nblocks, 64);
    cr_assert_eq(t.groups_traced, 1);
    cr_assert_eq(t.stratum_blocks, 0);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}
