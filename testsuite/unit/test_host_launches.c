/* Launch configurations that come from host code the launch does not sit
 * in: launcher functions called from main (literals, #defines, a loop over
 * block sizes), host function templates with a switch over block sizes,
 * function-pointer launches; and findings in a header helper reached from
 * several kernels. End to end through the binary; the fixtures are under
 * testsuite/kernels/launches/ and the expected numbers worked out by hand in
 * the comments. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testsuite/support/analyze_file.h"
#include "testsuite/support/run.h"

TestSuite(host_launches, .timeout = 300);

static hms_run_result run2(const char *opt, const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", hms_test_path(rel));
    return hms_run((const char *[]){opt, path, NULL});
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The text without blanks and newlines (JSON indentation aside). */
static char *squash(const char *s)
{
    char *o = malloc(strlen(s) + 1), *p = o;
    for (; *s; s++)
        if (*s != ' ' && *s != '\n')
            *p++ = *s;
    *p = '\0';
    return o;
}

Test(host_launches, launcher_called_in_a_loop_over_block_sizes)
{
    hms_run_result r = run2("--list-kernels", "kernels/launches/launcher_calls.cu");
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* rows_forward(B=8, T=512, C=768, bs): N = 4096, grid = div_up(4096, bs);
     * the first iteration (bs = 64) is analysed, the others listed */
    cr_assert(strstr(r.out, "launch rows_kernel line=38 grid=(64,1,1) block=(64,1,1) shared=0 "
                            "args=out, in, N=4096, C=768 via=rows_forward(B=8, T=512, C=768, "
                            "block_size=64) called at launcher_calls.cu:55 [j=0] "
                            "also=grid(32,1,1) block(128,1,1); grid(16,1,1) block(256,1,1); "
                            "grid(8,1,1) block(512,1,1)\n"),
              "%s", r.out);
    /* warp_rows_forward(NUM_ROWS=4096, C, DEFAULT_BLOCK=256): one warp per
     * row, grid = div_up(4096 * 32, 256) = 512; the literal call (2048, 256,
     * 128) gives div_up(2048 * 32, 128) = 512 blocks of 128 */
    cr_assert(strstr(r.out, "launch warp_rows_kernel line=43 grid=(512,1,1) block=(256,1,1) "
                            "shared=0 args=out, in, N=4096, C=768 via=warp_rows_forward(N=4096, "
                            "C=768, block_size=256) called at launcher_calls.cu:57 "
                            "also=grid(512,1,1) block(128,1,1)\n"),
              "%s", r.out);
    hms_run_free(&r);

    r = run2("--format=json", "kernels/launches/launcher_calls.cu");
    cr_assert(r.status == 0 || r.status == 1, "%s", r.err);
    cr_assert(strstr(r.out, "\"source\": \"host-call\""), "%s", r.out);
    /* every configuration is analysed; the slowest is reported, the others
     * listed with their predicted times (worst_of_the_loop_s_configurations).
     * Slowest: 8 blocks of 512, whose 16 warps per SM serialise their
     * 32-line row reads (one L1 pass each) on 8 SMs' memory units. */
    cr_assert(strstr(r.out, "\"via\": \"rows_forward(B=8, T=512, C=768, block_size=512) called at "
                            "launcher_calls.cu:55 [j=3]\""),
              "%s", r.out);
    cr_assert(strstr(r.out, "\"other_configurations\": \"analysed, slowest reported (grid(8,1,1) "
                            "block(512,1,1): "),
              "%s", r.out);
    cr_assert(strstr(r.out, "others: grid(64,1,1) block(64,1,1): "), "%s", r.out);
    cr_assert(strstr(r.out, "; grid(32,1,1) block(128,1,1): "), "%s", r.out);
    cr_assert_eq(count(r.out, "\"source\": \"default\""), 0, "%s", r.out);
    hms_run_free(&r);
}

Test(host_launches, template_instantiations_of_a_host_template_with_a_switch)
{
    hms_run_result r = run2("--dump-ir", "kernels/launches/template_reduction.cu");
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* sum<float>(n, 256, 2048) reaches case 256 only, sum<double>(n, 128,
     * 4096) case 128 only; every case is compiled for both types, and the
     * cases no call reaches know their block size from the case label */
    cr_assert(strstr(r.out, "kernel block_sum<float, 256> ("), "%s", r.out);
    cr_assert(strstr(r.out, "launch grid=(2048,1,1) block=(256,1,1) shared=0 source=host-call at "
                            "38:9 via sum(n=1048576, threads=256, blocks=2048) called at "
                            "template_reduction.cu:56\n"),
              "%s", r.out);
    cr_assert(strstr(r.out, "launch grid=(4096,1,1) block=(128,1,1) shared=0 source=host-call at "
                            "41:9 via sum(n=1048576, threads=128, blocks=4096) called at "
                            "template_reduction.cu:58\n"),
              "%s", r.out);
    cr_assert_eq(count(r.out, "\nkernel block_sum<"), 6, "%s", r.out);
    cr_assert_eq(count(r.out, "block=(512,1,1) shared=0 source=host-call at 35:9\n"), 2, "%s",
                 r.out);
    cr_assert_eq(count(r.out, "source=default"), 0, "%s", r.out);
    /* n reaches the kernel through the call too */
    cr_assert(strstr(r.out, "param n unsigned int = 1048576 (host-call)"), "%s", r.out);
    hms_run_free(&r);
}

Test(host_launches, function_pointer_variables_and_arrays)
{
    hms_run_result r = run2("--list-kernels", "kernels/launches/fn_pointer.cu");
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* kernel = &copy_rows, or copy_strided when variant == 1: both launched */
    cr_assert(strstr(r.out, "launch copy_rows line=33 grid=(4096,1,1) block=(256,1,1) shared=0 "
                            "args=in, out, n=1048576 through=kernel\n"),
              "%s", r.out);
    cr_assert(strstr(r.out, "launch copy_strided line=33 grid=(4096,1,1) block=(256,1,1)"), "%s",
              r.out);
    cr_assert(strstr(r.out, "launch copy_twice line=39 grid=(1024,1,1) block=(128,1,1) shared=0 "
                            "args=in, out, 1 << 17=131072 through=variants[0]\n"),
              "%s", r.out);
    hms_run_free(&r);
    r = run2("--dump-ir", "kernels/launches/fn_pointer.cu");
    cr_assert_eq(count(r.out, "source=host-call"), 3, "%s", r.out);
    hms_run_free(&r);
}

Test(host_launches, header_helper_finding_printed_once_with_its_kernels)
{
    hms_run_result r = run2("--color=never", "kernels/launches/header_helper.cu");
    cr_assert_eq(r.status, 1, "%s", r.err);
    /* m[row * 1024 + col] with row = thread: 32 sectors per request, in the
     * helper, from four kernels (one template with two instantiations) */
    cr_assert_eq(count(r.out, "[hms-uncoalesced-access]"), 1, "%s", r.out);
    cr_assert(strstr(r.out, "strided_helper.cuh:7:12: note: the same finding in 4 kernels: "
                            "scale_columns, shift_columns, pick_column<1>, pick_column<7>\n"),
              "%s", r.out);
    hms_run_free(&r);
    r = run2("--format=json", "kernels/launches/header_helper.cu");
    cr_assert_eq(count(r.out, "\"check\": \"hms-uncoalesced-access\""), 4, "%s", r.out);
    char *flat = squash(r.out);
    cr_assert(strstr(flat, "\"same_in_kernels\":[\"shift_columns\",\"pick_column<1>\","
                           "\"pick_column<7>\"]"),
              "%s", r.out);
    free(flat);
    hms_run_free(&r);
}

/* The block-size loop's configurations, each analysed on its own with
 * --launch: the report without --launch is the slowest of them (largest
 * predicted time), at that configuration. */
Test(host_launches, worst_of_the_loop_s_configurations)
{
    hms_analyzed_file f;
    const char *args[] = {"--arch=h100", NULL};
    cr_assert(hms_analyze_file(hms_test_path("kernels/launches/launcher_calls.cu"), args, &f), "%s",
              f.error);
    const hms_kernel_report *r = hms_af_report(&f, "rows_kernel");
    cr_assert(r);
    cr_assert(r->launch.others_analysed);
    double reported = r->model.predicted_time;
    uint32_t block = r->launch.block[0], grid = r->launch.grid[0];
    hms_analyzed_file_free(&f);
    static const int sizes[] = {64, 128, 256, 512};
    double worst = 0;
    int worst_bs = 0;
    for (size_t i = 0; i < 4; i++) {
        char l[96];
        snprintf(l, sizeof l, "--launch=rows_kernel:grid=%d:block=%d", 4096 / sizes[i], sizes[i]);
        const char *a[] = {"--arch=h100", l, NULL};
        hms_analyzed_file g;
        cr_assert(hms_analyze_file(hms_test_path("kernels/launches/launcher_calls.cu"), a, &g),
                  "%s", g.error);
        const hms_kernel_report *x = hms_af_report(&g, "rows_kernel");
        cr_assert(x);
        cr_assert_gt(x->model.predicted_time, 0);
        if (x->model.predicted_time > worst)
            worst = x->model.predicted_time, worst_bs = sizes[i];
        hms_analyzed_file_free(&g);
    }
    cr_expect_eq(block, (uint32_t)worst_bs);
    cr_expect_eq(grid, (uint32_t)(4096 / worst_bs));
    cr_expect(reported == worst, "reported %g, slowest alone %g", reported, worst);
}

Test(host_launches, dim3_parameters_of_launchers)
{
    hms_run_result r = run2("--list-kernels", "kernels/launches/dim3_params.cu");
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* by value, from dim3 locals: gridDim(CEIL_DIV(64, 32), CEIL_DIV(64, 32)) */
    cr_assert(strstr(r.out, "launch sgemm_naive line=29 grid=(2,2,1) block=(32,32,1) shared=0 "
                            "args=M=64, N=64, K=32, A, B, C via=run_sgemm_naive(M=64, N=64, "
                            "K=32, gridDim.x=2, gridDim.y=2, gridDim.z=1, blockDim.x=32, "
                            "blockDim.y=32, blockDim.z=1) called at dim3_params.cu:46\n"),
              "%s", r.out);
    /* by const reference, from temporaries dim3(N / 32, M / 8), dim3(32, 8) */
    cr_assert(strstr(r.out, "launch scale_rows line=34 grid=(2,8,1) block=(32,8,1) shared=0 "),
              "%s", r.out);
    hms_run_free(&r);
}

Test(host_launches, torch_extension_launcher_with_derived_template_arguments)
{
    hms_run_result r = run2("--list-kernels", "kernels/launches/torch_tile_launcher.cu");
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* torch/extension.h comes from hms-lint's headers: no missing header */
    cr_assert(!strstr(r.err, "not found"), "%s", r.err);
    /* launch_tile_rows<32, 1> and <64, 2>: kWarpD = kHeadDim / (8 * 4) is 1
     * and 2, the other arguments are local constants; 32 * 2 * 4 threads */
    cr_assert(strstr(r.out, "launch tile_rows_kernel<32, 16, 8, 2, 4, 2, 2, 1, 1, 8> line=51 "
                            "grid=?(grid) block=(256,1,1)"),
              "%s", r.out);
    cr_assert(strstr(r.out, "launch tile_rows_kernel<64, 16, 8, 2, 4, 2, 2, 2, 2, 8> line=51 "
                            "grid=?(grid) block=(256,1,1)"),
              "%s", r.out);
    hms_run_free(&r);
}
