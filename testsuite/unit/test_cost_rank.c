/* Cost estimates (cost_rank.h) on the sample report, worked by hand, and
 * --sort=cost / the rankings through the binary. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/cost_rank.h"
#include "testsuite/support/run.h"
#include "testsuite/support/sample_report.h"
#include "testsuite/support/scratch.h"

static const hms_finding *by_check(const hms_kernel_report *k, const char *check)
{
    for (size_t d = 0; d < k->ndiagnostics; d++)
        if (!strcmp(k->diagnostics[d].check, check))
            return &k->diagnostics[d];
    cr_assert_fail("no %s finding", check);
    return NULL;
}

Test(cost_rank, sample_figures_by_hand)
{
    hms_report r;
    hms_sample_report(&r, "src/k.cu");
    const hms_kernel_report *k = &r.files[0].kernels[0];
    /* Line 4: a global load (4096 requests x 412.5 cycles, 4 sectors where 4
     * would do: no waste) and a shared store (2048.5 x 90, 16 wavefronts). */
    double global = 4096 * 412.5, shared = 2048.5 * 90;
    cr_assert_float_eq(hms_line_memory_share(k, 4), 1.0, 1e-12);
    cr_assert_float_eq(hms_line_memory_share(k, 3), 0.0, 1e-12);
    /* Bank conflict: min(predicted 4000, t_mem 3400) x the shared store's
     * wasted share, 15/16 of its time. */
    double bank = 3400 * shared * (15.0 / 16.0) / (global + shared);
    cr_assert_float_eq(hms_finding_gain(k, by_check(k, "hms-shared-bank-conflict")), bank, 1e-9);
    /* Placement of 'a': the model's own 1000 -> 800 cycles. */
    cr_assert_float_eq(hms_finding_gain(k, by_check(k, "hms-placement")), 200.0, 1e-9);
    /* The summary note names no waste. */
    cr_assert_float_eq(hms_finding_gain(k, by_check(k, "hms-memory-bound")), 0.0, 1e-12);
    cr_assert_float_eq(hms_kernel_gain(k), bank + 200.0, 1e-9);
    cr_assert_leq(hms_kernel_gain(k), k->model.predicted_time);
    hms_report_free(&r);
}

Test(cost_rank, sort_puts_the_largest_gain_first)
{
    hms_report r;
    hms_sample_report(&r, "src/k.cu");
    hms_kernel_report *k = &r.files[0].kernels[0];
    hms_sort_report_by_cost(&r);
    for (size_t d = 1; d < k->ndiagnostics; d++)
        cr_assert_geq(hms_finding_gain(k, &k->diagnostics[d - 1]),
                      hms_finding_gain(k, &k->diagnostics[d]));
    cr_assert_str_eq(k->diagnostics[0].check, "hms-shared-bank-conflict");
    hms_report_free(&r);
}

/* A clean copy first in the file, then a strided one: --sort=cost must put
 * the strided kernel (its 32 sectors per request where 4 would do) first. */
static const char two_cu[] = "// hms-lint: launch grid(64) block(256)\n"
                             "__global__ void copy(float *out, const float *in)\n"
                             "{\n"
                             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "    out[i] = in[i];\n"
                             "}\n"
                             "// hms-lint: launch grid(64) block(256)\n"
                             "__global__ void strided(float *out, const float *in)\n"
                             "{\n"
                             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "    out[i * 32] = in[i * 32];\n"
                             "}\n";

TestSuite(sort_cost, .init = hms_scratch_init, .fini = hms_scratch_fini, .timeout = 300);

Test(sort_cost, kernels_and_rankings_worst_first)
{
    hms_scratch_write(hms_scratch_at("k.cu"), two_cu);
    hms_run_result r =
        hms_run((const char *[]){"--format=json", "--sort=cost", hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 1, "%s", r.err);
    json_t *j = hms_scratch_json(r.out);
    json_t *f = json_array_get(json_object_get(j, "files"), 0);
    json_t *kernels = json_object_get(f, "kernels");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(kernels, 0), "name")),
                     "strided");
    double g0 = json_real_value(json_object_get(json_array_get(kernels, 0), "estimated_gain"));
    double g1 = json_real_value(json_object_get(json_array_get(kernels, 1), "estimated_gain"));
    cr_assert_gt(g0, g1);
    json_t *rank = json_object_get(json_object_get(f, "ranking"), "by_estimated_gain");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(rank, 0), "kernel")),
                     "strided");
    json_t *by_time = json_object_get(json_object_get(f, "ranking"), "by_predicted_time");
    cr_assert_eq(json_array_size(by_time), 2);
    cr_assert_geq(json_real_value(json_object_get(json_array_get(by_time, 0), "predicted_time")),
                  json_real_value(json_object_get(json_array_get(by_time, 1), "predicted_time")));
    /* Findings inside each kernel by gain too. */
    for (size_t k = 0; k < 2; k++) {
        json_t *d = json_object_get(json_array_get(kernels, k), "diagnostics");
        for (size_t i = 1; i < json_array_size(d); i++)
            cr_assert_geq(
                json_real_value(json_object_get(json_array_get(d, i - 1), "estimated_gain")),
                json_real_value(json_object_get(json_array_get(d, i), "estimated_gain")));
    }
    json_decref(j);
    hms_run_free(&r);

    /* Text: the strided kernel's findings print before the copy's; the
     * --explain ranking table lists it first. */
    r = hms_run((const char *[]){"--sort=cost", "--explain", hms_scratch_at("k.cu"), NULL});
    const char *first = strstr(r.out, "k.cu:");
    cr_assert(first, "%s", r.out);
    cr_assert_geq(atoi(first + 5), 7, "the strided kernel (lines 7-12) first:\n%s", r.out);
    const char *table = strstr(r.out, "kernels ranked by the estimated gain");
    cr_assert(table, "%s", r.out);
    const char *s = strstr(table, "strided"), *c = strstr(table, "copy");
    cr_assert(s && c && s < c, "%s", table);
    hms_run_free(&r);

    r = hms_run((const char *[]){"--sort=size", hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "--sort"), "%s", r.err);
    hms_run_free(&r);
}
