/* Registers per thread for occupancy (passes/registers.h): estimated from
 * the IR's register arrays, assumed without them, lowered by
 * __launch_bounds__ as nvcc lowers it; the bounds read from the attribute
 * through literals, macros and template arguments. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "passes/registers.h"
#include "runtime/arch.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/run.h"

static void build(const char *arch, hms_analyzed_file *f)
{
    char opt[64];
    snprintf(opt, sizeof opt, "--arch=%s", arch);
    const char *args[] = {opt, NULL};
    cr_assert(hms_analyze_file(hms_test_path("kernels/registers.cu"), args, f), "%s", f->error);
}

Test(registers, launch_bounds_read_from_literals_macros_and_templates)
{
    hms_analyzed_file f;
    build("h100", &f);
    const ir_kernel *k = hms_af_kernel(&f, "boundedTile");
    cr_assert(k);
    cr_expect_eq(k->bounds_threads, 1024);
    cr_expect_eq(k->bounds_blocks, 2);
    k = hms_af_kernel(&f, "macroBounds");
    cr_assert(k);
    cr_expect_eq(k->bounds_threads, 128);
    cr_expect_eq(k->bounds_blocks, 0);
    k = hms_af_kernel(&f, "templateBounds<128, 64>");
    cr_assert(k);
    cr_expect_eq(k->bounds_threads, 128);
    cr_expect_eq(k->bounds_blocks, 2);
    k = hms_af_kernel(&f, "plainCopy");
    cr_assert(k);
    cr_expect_eq(k->bounds_threads, 0);
    hms_analyzed_file_free(&f);
}

Test(registers, estimate_from_register_arrays)
{
    hms_analyzed_file f;
    build("h100", &f);
    hms_register_estimate e;
    /* 64 + 8 + 8 words of register arrays over the assumed scalars */
    hms_registers_estimate(hms_af_kernel(&f, "registerTile"), f.arch, &e);
    cr_expect_eq(e.source, HMS_REGS_ESTIMATED);
    cr_expect_eq(e.array_words, 80);
    cr_expect_eq(e.regs, HMS_DEFAULT_REGS_PER_THREAD + 80);
    cr_expect_eq(e.ilp, 64.0);
    cr_expect_not(e.bounded);
    /* the analysis used it: 112 registers x 256 threads, 2 blocks of the
     * 64K register file on h100 */
    const hms_kernel_report *r = hms_af_report(&f, "registerTile");
    cr_assert(r);
    cr_expect_lt(r->model.occupancy, 0.5);
    hms_registers_estimate(hms_af_kernel(&f, "plainCopy"), f.arch, &e);
    cr_expect_eq(e.source, HMS_REGS_ASSUMED);
    cr_expect_eq(e.regs, HMS_DEFAULT_REGS_PER_THREAD);
    cr_expect_eq(e.ilp, 1.0);
    hms_analyzed_file_free(&f);
}

Test(registers, launch_bounds_lower_the_estimate)
{
    hms_analyzed_file f;
    build("h100", &f);
    hms_register_estimate e;
    hms_registers_estimate(hms_af_kernel(&f, "boundedTile"), f.arch, &e);
    /* 65536 registers / (2 blocks x 1024 threads) = 32 */
    cr_expect_eq(e.regs, f.arch->regs_per_sm / 2048);
    cr_expect(e.bounded);
    const hms_kernel_report *r = hms_af_report(&f, "boundedTile");
    cr_assert(r);
    cr_expect_eq(r->model.occupancy, 1.0);
    hms_analyzed_file_free(&f);
}

/* A count from ptxas wins over the estimate and the bounds. */
Test(registers, ptxas_count_is_taken_as_is)
{
    hms_analyzed_file f;
    build("h100", &f);
    ir_kernel *k = (ir_kernel *)hms_af_kernel(&f, "registerTile");
    k->regs_per_thread = 40;
    hms_register_estimate e;
    hms_registers_estimate(k, f.arch, &e);
    cr_expect_eq(e.source, HMS_REGS_PTXAS);
    cr_expect_eq(e.regs, 40);
    cr_expect_eq(e.ilp, 64.0);
    hms_analyzed_file_free(&f);
}
