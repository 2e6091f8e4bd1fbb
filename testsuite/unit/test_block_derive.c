/* Derived blocks (passes/trace/block_derive.h, block_translate.h): when a
 * launch's blocks are translations of each other, later sampled blocks are
 * made from the first one's records instead of traced. The trace must be
 * exactly what tracing every block gives (hms_trace_options.no_block_derive)
 * -- records, block figures, site counts, array layout, notes -- and so must
 * the JSON report; kernels whose blocks differ in control flow or addresses
 * the rules cannot follow are never derived. Kernels:
 * testsuite/kernels/blocks/translate.cu. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/launch_alts.h"
#include "passes/trace/block_translate.h"
#include "passes/trace/stream_gen.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/run.h"
#include "testsuite/support/trace_equal.h"

TestSuite(block_derive, .timeout = 300);

#define BLOCKS_CU "kernels/blocks/translate.cu"

static const char *const launches[] = {"--launch=tiledGemm:grid=8,8:block=16,16",
                                       "--param=tiledGemm.N=128",
                                       "--launch=indexGemm:grid=8,8:block=16,16",
                                       "--param=indexGemm.N=128",
                                       "--launch=scale:grid=8:block=16",
                                       "--launch=guardedScale:grid=8:block=64",
                                       "--param=guardedScale.n=500",
                                       "--launch=blockLoop:grid=8:block=64",
                                       "--launch=gather:grid=8:block=64",
                                       "--launch=localArray:grid=8:block=64",
                                       "--launch=movingBounds:grid=8:block=64",
                                       "--param=movingBounds.w=256",
                                       "--launch=wrapCompare:grid=8:block=32",
                                       "--param=wrapCompare.big=9223372036854775600",
                                       "--launch=rowMean:grid=8:block=256",
                                       "--param=rowMean.C=256",
                                       "--launch=rowMeanLoaded:grid=8:block=256",
                                       "--param=rowMeanLoaded.C=256",
                                       "--launch=halo:grid=16:block=64",
                                       "--param=halo.n=1024",
                                       "--launch=triangle:grid=8:block=32",
                                       "--launch=clamped2D:grid=4,8:block=32,8",
                                       "--param=clamped2D.nx=128",
                                       "--param=clamped2D.ny=64",
                                       NULL};

static const ir_kernel *kernel_of(hms_analyzed_file *f, const char *const *args, const char *name)
{
    cr_assert(hms_build_file(hms_test_path(BLOCKS_CU), args, f), "%s", f->error);
    const ir_kernel *k = hms_af_kernel(f, name);
    cr_assert(k, "no kernel %s", name);
    return k;
}

/* Traces k with and without derived blocks under opt; both traces equal.
 * Returns the derived blocks of the first. */
static uint64_t expect_same_with_and_without(const ir_kernel *k, hms_trace_options opt)
{
    hms_kernel_trace a, b;
    opt.no_block_derive = false;
    cr_assert(hms_trace_kernel(k, &opt, &a), "%s", a.error);
    opt.no_block_derive = true;
    cr_assert(hms_trace_kernel(k, &opt, &b), "%s", b.error);
    cr_expect_eq(b.blocks_derived, 0, "no derived block when asked not to");
    hms_expect_same_trace(&a, &b);
    uint64_t derived = a.blocks_derived;
    hms_kernel_trace_free(&a);
    hms_kernel_trace_free(&b);
    return derived;
}

static uint64_t derived_blocks(const ir_kernel *k)
{
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, NULL, &t), "%s", t.error);
    uint64_t n = t.blocks_derived;
    hms_kernel_trace_free(&t);
    return n;
}

/* Blocks of kernel `name` derived (traces with and without derivation
 * equal), after checking that its rules translate where `translates`. */
static uint64_t derived_count(const char *name, bool translates)
{
    hms_analyzed_file f;
    const ir_kernel *k = kernel_of(&f, launches, name);
    if (translates) {
        hms_block_translation bt;
        cr_assert(hms_block_translation_of(k, NULL, &bt));
        cr_expect(bt.translates, "%s: %s", name, bt.why);
        hms_block_translation_free(&bt);
    }
    uint64_t n = expect_same_with_and_without(k, (hms_trace_options){0});
    hms_analyzed_file_free(&f);
    return n;
}

Test(block_derive, tiled_gemm_derived_exactly)
{
    hms_analyzed_file f;
    const ir_kernel *k = kernel_of(&f, launches, "tiledGemm");
    hms_block_translation bt;
    cr_assert(hms_block_translation_of(k, NULL, &bt));
    cr_expect(bt.translates, "tiledGemm: %s", bt.why);
    hms_block_translation_free(&bt);
    hms_trace_options opt = {0};
    cr_expect_gt(expect_same_with_and_without(k, opt), 0, "no block of tiledGemm derived");
    /* under budgets: a sample cut to fit, and the record budget cutting a block */
    opt.max_records = 3000;
    expect_same_with_and_without(k, opt);
    opt.max_records = 0;
    opt.max_steps = 5000;
    expect_same_with_and_without(k, opt);
    opt.max_steps = 0;
    opt.max_blocks = 5;
    opt.stop_tolerance = 0.05;
    expect_same_with_and_without(k, opt);
    hms_analyzed_file_free(&f);
}

/* Translating, but the value table makes blocks cost differently: `row`
 * and `k0 + ty` are one value in a different iteration in every row of
 * blocks, so which operations repeat a value moves with the block. The
 * blocks that would differ are traced (some, not all, of the 63 are
 * derived), and the trace stays exact. */
Test(block_derive, index_gemm_exact)
{
    hms_analyzed_file f;
    const ir_kernel *k = kernel_of(&f, launches, "indexGemm");
    hms_block_translation bt;
    cr_assert(hms_block_translation_of(k, NULL, &bt));
    cr_expect(bt.translates, "indexGemm: %s", bt.why);
    hms_block_translation_free(&bt);
    /* No guard moves here: the table check refuses blocks whose equal values
       differ from the representative's (equal values, not colliding hashes),
       and a refused block becomes the representative of later ones */
    uint64_t derived = expect_same_with_and_without(k, (hms_trace_options){0});
    cr_expect_gt(derived, 0, "no block derived from a later representative");
    cr_expect_lt(derived, 63, "every block derived: the table check refused none");
    hms_analyzed_file_free(&f);
}

/* 16 floats a block: a block is derived only when its move from its
 * representative is a multiple of 128 bytes (lines and banks keep their
 * alignment): of 8 blocks, 2, 4 and 6 from block 0 (block 1, with 6 blocks
 * left, is not worth a representative's log); of 16, the even ones from
 * block 0 and the odd ones from block 1. */
Test(block_derive, only_line_aligned_moves_derived)
{
    hms_analyzed_file f;
    const ir_kernel *k = kernel_of(&f, launches, "scale");
    hms_trace_options opt = {0};
    cr_expect_eq(expect_same_with_and_without(k, opt), 3, "blocks 2, 4 and 6 of 8");
    hms_analyzed_file_free(&f);

    static const char *const more[] = {"--launch=scale:grid=16:block=16", NULL};
    k = kernel_of(&f, more, "scale");
    cr_expect_eq(expect_same_with_and_without(k, opt), 14, "blocks 2 to 15 of 16");
    hms_analyzed_file_free(&f);

    static const char *const wide[] = {"--launch=scale:grid=8:block=32", NULL};
    k = kernel_of(&f, wide, "scale");
    cr_expect_eq(expect_same_with_and_without(k, opt), 7, "every block after the first");
    hms_analyzed_file_free(&f);
}

/* A loop whose bounds both move with the block runs the same iterations in
 * every block. */
Test(block_derive, moving_loop_bounds_derived)
{
    cr_expect_eq(derived_count("movingBounds", true), 7);
}

/* A comparison whose sides move alike is still checked block by block: a
 * side that wraps around 2^64 flips it (blocks 0 and 1 store, 2 to 7 not). */
Test(block_derive, wrapped_comparison_traced)
{
    hms_analyzed_file f;
    const ir_kernel *k = kernel_of(&f, launches, "wrapCompare");
    hms_block_translation bt;
    cr_assert(hms_block_translation_of(k, NULL, &bt));
    cr_expect(bt.translates, "wrapCompare: %s", bt.why);
    hms_block_translation_free(&bt);
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, NULL, &t), "%s", t.error);
    cr_expect_eq(t.stream.n, 2, "records: %zu (blocks 0 and 1 store)", t.stream.n);
    hms_kernel_trace_free(&t);
    expect_same_with_and_without(k, (hms_trace_options){0});
    hms_analyzed_file_free(&f);
}

/* Blocks that differ in what they execute, or whose addresses the rules
 * cannot move, are traced: the reason says which rule refused. */
static void expect_not_translated(const char *name, const char *why)
{
    hms_analyzed_file f;
    const ir_kernel *k = kernel_of(&f, launches, name);
    hms_block_translation bt;
    cr_assert(hms_block_translation_of(k, NULL, &bt));
    cr_expect(!bt.translates, "%s translates", name);
    cr_expect(strstr(bt.why, why) != NULL, "%s: '%s' does not say '%s'", name, bt.why, why);
    hms_block_translation_free(&bt);
    cr_expect_eq(derived_blocks(k), 0, "%s: blocks derived", name);
    expect_same_with_and_without(k, (hms_trace_options){0});
    hms_analyzed_file_free(&f);
}

/* Block 0 decides `i > 0` apart from the inner blocks, so block 1 is
 * traced as a second representative: blocks 2 to 14 are derived from it,
 * block 15 (`i < n - 1` apart) is traced. */
Test(block_derive, edge_and_inner_blocks_derived_from_their_own)
{
    cr_expect_eq(derived_count("halo", true), 13);
}

/* Nine classes in a 4 x 8 grid, in row order: the corners and edges of
 * rows 0 and 1 are traced as they come (six representatives, three in a
 * row before the first inner block derives); (2,0), (2,1) and rows 2 to 6
 * are derived; row 7 comes with too few blocks left for a representative
 * and is traced. */
Test(block_derive, stencil_classes_derived_from_their_own)
{
    cr_expect_eq(derived_count("clamped2D", true), 22);
}

/* Every block its own class: each refused block is traced (a further
 * representative only four times in a row without a derived block). */
Test(block_derive, blocks_all_different_traced)
{
    cr_expect_eq(derived_count("triangle", true), 0);
}

/* A bounds guard decides the same in a block only where its lanes keep
 * their side of the bound: blocks 1 to 6 (every lane below n = 500) are
 * derived from block 0, block 7 (lanes 448 to 511) is traced. */
Test(block_derive, block_dependent_guard_derived_where_it_decides_the_same)
{
    cr_expect_eq(derived_count("guardedScale", true), 6);
}

/* A guard in a loop condition: the tracer evaluates loop conditions
 * without logging them (a loop summary's search), so it is never taken. */

Test(block_derive, block_dependent_loop_bound_not_derived)
{
    expect_not_translated("blockLoop", "loop condition");
}

Test(block_derive, indirect_index_not_derived)
{
    expect_not_translated("gather", "not affine");
}

Test(block_derive, local_array_not_derived)
{
    expect_not_translated("localArray", "local array");
}

/* An address comparison the front end cannot relate (`mean != nullptr`)
 * is unknown in every block alike. A block stores 8 rows' means, 32 bytes,
 * so only blocks 4 apart are 128 bytes apart: block 4 is derived from block
 * 0 (blocks 1 to 3 are refused for the alignment, with too few blocks left
 * after them to become representatives). */
Test(block_derive, unknown_address_comparison_derived)
{
    cr_expect_eq(derived_count("rowMean", true), 1);
}

/* A branch on a loaded value: the stand-in moves with the address read. */
Test(block_derive, loaded_branch_not_derived)
{
    expect_not_translated("rowMeanLoaded", "branch condition");
}

/* The JSON report of the whole file, every kernel analysed with derived
 * blocks on or off. */
static char *report_json(hms_analyzed_file *f, bool no_derive)
{
    hms_kernel_report *reps = calloc(f->nkernels, sizeof *reps);
    cr_assert(reps);
    hms_analysis_options ao = {0};
    ao.arch = f->arch;
    ao.no_block_derive = no_derive;
    for (size_t i = 0; i < f->nkernels; i++)
        cr_assert(hms_analyze_launch_alts(f->kernels[i], &ao, &reps[i]));
    hms_file_report file = {(char *)BLOCKS_CU, NULL, 0, reps, f->nkernels};
    hms_report r = {"hms-lint", "test", "h100", &file, 1};
    char *text = hms_test_json_text(&r);
    for (size_t i = 0; i < f->nkernels; i++)
        hms_kernel_report_free(&reps[i]);
    free(reps);
    return text;
}

Test(block_derive, json_report_identical)
{
    hms_analyzed_file f;
    cr_assert(hms_build_file(hms_test_path(BLOCKS_CU), launches, &f), "%s", f.error);
    char *on = report_json(&f, false), *off = report_json(&f, true);
    cr_assert_gt(strlen(on), 1000);
    cr_expect_str_eq(on, off);
    free(on);
    free(off);
    hms_analyzed_file_free(&f);
}
