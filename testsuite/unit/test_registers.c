/* Registers per thread for occupancy (passes/figures/registers.h): estimated from
 * the IR's register arrays, assumed without them, lowered by
 * __launch_bounds__ as nvcc lowers it; the bounds read from the attribute
 * through literals, macros and template arguments. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/frontend/ptxas.h"
#include "passes/figures/registers.h"
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

/* ptxas's report, as nvcc 13 prints it with --resource-usage. */
Test(registers, ptxas_report_parsed)
{
    const char *text = "ptxas info    : 0 bytes gmem\n"
                       "ptxas info    : Compiling entry function '_Z2tkILi128EEvPf' for 'sm_80'\n"
                       "ptxas info    : Function properties for _Z2tkILi128EEvPf\n"
                       "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                       "ptxas info    : Used 8 registers, used 0 barriers, 360 bytes cmem[0]\n"
                       "ptxas info    : Compiling entry function '_Z2pkPfi' for 'sm_80'\n"
                       "ptxas info    : Used 32 registers, used 0 barriers, 364 bytes cmem[0]\n";
    hms_ptxas_counts c;
    cr_assert(hms_ptxas_parse(text, &c));
    cr_assert_eq(c.n, 2);
    cr_expect_str_eq(c.v[0].mangled, "_Z2tkILi128EEvPf");
    cr_expect_eq(c.v[0].regs, 8);
    cr_expect_str_eq(c.v[1].mangled, "_Z2pkPfi");
    cr_expect_eq(c.v[1].regs, 32);
    hms_ptxas_free(&c);
}

Test(registers, ptxas_names_matched_to_kernels)
{
    cr_expect(hms_ptxas_name_matches("_Z2pkPfi", "pk"));
    cr_expect_not(hms_ptxas_name_matches("_Z2pkPfi", "pk2"));
    cr_expect_not(hms_ptxas_name_matches("_Z3pk2Pf", "pk"));
    cr_expect(hms_ptxas_name_matches("_Z2tkILi128EEvPf", "tk<128>"));
    cr_expect_not(hms_ptxas_name_matches("_Z2tkILi128EEvPf", "tk<256>"));
    cr_expect(hms_ptxas_name_matches("_Z2tkILi128ELin4EEvPf", "tk<128, -4>"));
    cr_expect(hms_ptxas_name_matches("_ZN2ns6kernelEPf", "ns::kernel"));
    /* a type argument: the name decides */
    cr_expect(hms_ptxas_name_matches("_Z6reduceIfEvPT_", "reduce<float>"));
    cr_expect_not(hms_ptxas_name_matches("not mangled", "pk"));
}

/* --ptxas on kernels/registers.cu; *log gets what it said (malloc'd). */
static size_t apply_ptxas(hms_analyzed_file *f, char **log)
{
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    size_t set = hms_ptxas_apply(&f->fe, hms_test_path("kernels/registers.cu"), f->kernels,
                                 f->nkernels, &said);
    *log = hms_diag_sink_text(&said);
    hms_diag_sink_free(&said);
    return set;
}

/* The real compiler, when it is installed: every kernel of the file gets a
 * count, and the tile's is within a factor of two of the estimate. */
Test(registers, ptxas_through_nvcc)
{
    const char *nvcc = getenv("HMS_NVCC");
    if (!(nvcc && access(nvcc, X_OK) == 0) && access("/usr/local/cuda/bin/nvcc", X_OK) != 0 &&
        system("command -v nvcc > /dev/null 2>&1") != 0)
        cr_skip_test("nvcc is not installed: --ptxas cannot be tested here");
    hms_analyzed_file f;
    const char *args[] = {"--arch=a100", NULL};
    cr_assert(hms_build_file(hms_test_path("kernels/registers.cu"), args, &f), "%s", f.error);
    char *log = NULL;
    size_t set = apply_ptxas(&f, &log);
    cr_expect_eq(set, f.nkernels, "log: %s", log ? log : "");
    free(log);
    const ir_kernel *k = hms_af_kernel(&f, "registerTile");
    cr_assert(k);
    cr_expect_gt(k->regs_per_thread, (HMS_DEFAULT_REGS_PER_THREAD + 80) / 2);
    cr_expect_lt(k->regs_per_thread, (HMS_DEFAULT_REGS_PER_THREAD + 80) * 2);
    k = hms_af_kernel(&f, "boundedTile");
    cr_expect_leq(k->regs_per_thread, 32);
    hms_analyzed_file_free(&f);
}

/* No compiler: a message naming the file, and the kernels keep the estimate. */
Test(registers, ptxas_missing_compiler_is_reported)
{
    hms_analyzed_file f;
    const char *args[] = {"--arch=a100", NULL};
    cr_assert(hms_build_file(hms_test_path("kernels/registers.cu"), args, &f), "%s", f.error);
    setenv("HMS_NVCC", "/nonexistent/nvcc", 1);
    char *log = NULL;
    size_t set = apply_ptxas(&f, &log);
    unsetenv("HMS_NVCC");
    cr_expect_eq(set, 0);
    cr_expect(log && strstr(log, "registers.cu") && strstr(log, "nvcc not found"), "log: %s",
              log ? log : "");
    free(log);
    cr_expect_eq(hms_af_kernel(&f, "registerTile")->regs_per_thread, 0);
    hms_analyzed_file_free(&f);
}
