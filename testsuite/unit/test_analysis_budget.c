/* --analysis-budget (passes/analysis_budget.h): one factor scales every work
 * budget of a kernel's analysis, and the block sample of a kernel whose
 * blocks are costly grows and shrinks with it, as docs/guide.md "Analysis
 * budget" says. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "analyzer/cli/options.h"
#include "passes/analysis_budget.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/run.h"

Test(analysis_budget, scale_multiplies_every_budget)
{
    hms_analysis_budget one = hms_analysis_budget_scaled(1), dflt = hms_analysis_budget_scaled(0);
    cr_assert_eq(one.blocks, HMS_BUDGET_BLOCKS);
    cr_assert_eq(one.records, HMS_BUDGET_RECORDS);
    cr_assert_eq(one.lines, HMS_BUDGET_LINES);
    cr_assert_eq(one.placement_lines, HMS_BUDGET_PLACEMENT_LINES);
    cr_assert(memcmp(&one, &dflt, sizeof one) == 0, "0 means the default scale");
    hms_analysis_budget four = hms_analysis_budget_scaled(4),
                        half = hms_analysis_budget_scaled(0.5);
    cr_assert_eq(four.blocks, 4 * one.blocks);
    cr_assert_eq(four.records, 4 * one.records);
    cr_assert_eq(four.lines, 4 * one.lines);
    cr_assert_eq(four.placement_lines, 4 * one.placement_lines);
    cr_assert_eq(half.blocks, one.blocks / 2);
    cr_assert_eq(half.records, one.records / 2);
    /* sequential sampling: more budget, a stricter stopping rule */
    cr_assert_float_eq(one.stop_tolerance, HMS_BUDGET_STOP_TOLERANCE, 1e-15);
    cr_assert_gt(one.stop_tolerance, 0);
    cr_assert_float_eq(four.stop_tolerance, one.stop_tolerance / 4, 1e-15);
    cr_assert_float_eq(half.stop_tolerance, one.stop_tolerance * 2, 1e-15);
    hms_analysis_budget tiny = hms_analysis_budget_scaled(1e-9);
    cr_assert(tiny.blocks >= 1 && tiny.records >= 1 && tiny.lines >= 1 &&
              tiny.placement_lines >= 1);
}

static int parse(const char *arg, hms_options *o)
{
    char prog[] = "hms-lint", file[] = "x.cu";
    char buf[64];
    snprintf(buf, sizeof buf, "%s", arg);
    char *argv[] = {prog, buf, file, NULL};
    return hms_options_parse(3, argv, o);
}

Test(analysis_budget, option_parses_a_factor_in_range)
{
    hms_options o;
    cr_assert_eq(parse("--analysis-budget=4", &o), 0);
    cr_assert_float_eq(o.analysis_budget, 4.0, 1e-12);
    hms_options_free(&o);
    cr_assert_eq(parse("--arch=h100", &o), 0);
    cr_assert_float_eq(o.analysis_budget, 1.0, 1e-12, "default 1");
    hms_options_free(&o);
    const char *bad[] = {"--analysis-budget=0", "--analysis-budget=-2", "--analysis-budget=abc",
                         "--analysis-budget=1e9", "--analysis-budget=4x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_eq(parse(bad[i], &o), 2, "%s accepted", bad[i]);
        hms_options_free(&o);
    }
}

/* Blocks sampled for longRows under `arg` (NULL: default), read from the
 * report's note, which also says what one block issues. */
static void sample_of(const char *arg, unsigned long long *blocks, unsigned long long *per_block)
{
    const char *args[] = {arg, NULL};
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path("kernels/budget/long_rows.cu"), arg ? args : NULL, &f),
              "%s", f.error);
    const hms_kernel_report *r = hms_af_report(&f, "longRows");
    cr_assert(r);
    cr_assert(r->sampled, "a 4096-block grid is sampled");
    *blocks = *per_block = 0;
    for (size_t i = 0; i < r->ndiagnostics; i++) {
        const char *m = strstr(r->diagnostics[i].message, "block sample reduced from ");
        unsigned long long from;
        if (m && sscanf(m,
                        "block sample reduced from %llu to %llu blocks to fit the analysis "
                        "budget (one block issues %llu",
                        &from, blocks, per_block) == 3)
            break;
    }
    hms_analyzed_file_free(&f);
    cr_assert_gt(*blocks, 0, "%s: no note that the budget reduced the sample",
                 arg ? arg : "default");
}

Test(analysis_budget, sample_follows_the_budget)
{
    unsigned long long b1, r1, b2, r2, bh, rh;
    sample_of(NULL, &b1, &r1);
    sample_of("--analysis-budget=2", &b2, &r2);
    sample_of("--analysis-budget=0.5", &bh, &rh);
    /* one block's accesses do not depend on the budget; the sample holds as
     * many whole blocks as fit the traced-access budget times the factor */
    cr_assert_eq(r1, r2);
    cr_assert_eq(r1, rh);
    cr_expect_eq(b1, HMS_BUDGET_RECORDS / r1, "default: %llu blocks", b1);
    cr_expect_eq(b2, 2 * HMS_BUDGET_RECORDS / r1, "x2: %llu blocks", b2);
    cr_expect_eq(bh, HMS_BUDGET_RECORDS / 2 / r1, "x0.5: %llu blocks", bh);
    cr_expect_lt(b1, HMS_BUDGET_BLOCKS, "the access budget, not the block cap, binds");
}
