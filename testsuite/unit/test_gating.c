/* Gating a pull request through the binary: --write-baseline then
 * --baseline (an old finding passes after lines shifted, a new one fails),
 * the per-check summary, exit statuses, and bad input (unreadable
 * baseline, another version's baseline, unwritable outputs): exit 2 with
 * the file named, sources untouched. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testsuite/support/run.h"
#include "testsuite/support/scratch.h"

/* A transpose whose column read of 'tile' is a 32-way bank conflict (with a
 * padding fix-it); line 13 is the flagged read. */
static const char tr_cu[] = "// hms-lint: launch grid(8,8) block(32,8)\n"
                            "__global__ void tr(float *out, const float *in)\n"
                            "{\n"
                            "    const int n = 256;\n"
                            "    __shared__ float tile[32][32];\n"
                            "    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + "
                            "threadIdx.y;\n"
                            "    for (int j = 0; j < 32; j += 8)\n"
                            "        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];\n"
                            "    __syncthreads();\n"
                            "    x = blockIdx.y * 32 + threadIdx.x;\n"
                            "    y = blockIdx.x * 32 + threadIdx.y;\n"
                            "    for (int j = 0; j < 32; j += 8)\n"
                            "        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];\n"
                            "}\n";

/* A second kernel with a new problem: a 32-float stride between lanes. */
static const char strided_cu[] = "// hms-lint: launch grid(4) block(256)\n"
                                 "__global__ void strided(float *out, const float *in)\n"
                                 "{\n"
                                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                 "    out[i * 32] = in[i * 32];\n"
                                 "}\n";

TestSuite(gating, .init = hms_scratch_init, .fini = hms_scratch_fini, .timeout = 300);

static char opt_buf[4][PATH_MAX + 64];

static const char *opt(int slot, const char *name, const char *rel)
{
    snprintf(opt_buf[slot], sizeof opt_buf[slot], "--%s=%s", name, hms_scratch_at(rel));
    return opt_buf[slot];
}

static const char *root_opt(void)
{
    snprintf(opt_buf[3], sizeof opt_buf[3], "--source-root=%s", hms_scratch_at(""));
    return opt_buf[3];
}

Test(gating, old_finding_passes_after_lines_shift_new_one_fails)
{
    hms_scratch_write(hms_scratch_at("k.cu"), tr_cu);
    hms_run_result r = hms_run((const char *[]){opt(0, "write-baseline", "base.json"), root_opt(),
                                                hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 0, "writing a baseline accepts the findings: %s", r.err);
    hms_run_free(&r);
    size_t len;
    char *base = hms_read_file(hms_scratch_at("base.json"), &len);
    cr_assert(base);
    json_t *b = hms_scratch_json(base);
    free(base);
    json_t *findings = json_object_get(b, "findings");
    cr_assert_gt(json_array_size(findings), 0);
    /* Paths relative to the source root, so the file works in any checkout. */
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(findings, 0), "file")),
                     "k.cu");
    json_decref(b);

    /* Without the baseline the bank conflict fails the run. */
    r = hms_run((const char *[]){hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 1, "%s", r.err);
    hms_run_free(&r);

    /* Lines shifted by a header comment: the old findings pass. */
    char shifted[sizeof tr_cu + 64] = "// SPDX-License-Identifier: MIT\n// (c) us\n";
    strcat(shifted, tr_cu);
    hms_scratch_write(hms_scratch_at("k.cu"), shifted);
    r = hms_run((const char *[]){opt(0, "baseline", "base.json"), root_opt(), "--fail-on=note",
                                 hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 0, "old findings after a shift: %s\n%s", r.out, r.err);
    cr_assert(strstr(r.err, "suppressed"), "%s", r.err);
    hms_run_free(&r);

    /* A new kernel with a new problem: it alone fails the run. */
    char grown[sizeof shifted + sizeof strided_cu];
    snprintf(grown, sizeof grown, "%s%s", shifted, strided_cu);
    hms_scratch_write(hms_scratch_at("k.cu"), grown);
    r = hms_run((const char *[]){opt(0, "baseline", "base.json"), root_opt(),
                                 hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 1, "a new finding fails: %s", r.err);
    cr_assert(strstr(r.out, "hms-uncoalesced-access"), "%s", r.out);
    cr_assert_null(strstr(r.out, "hms-shared-bank-conflict"), "the old one stays quiet:\n%s",
                   r.out);
    hms_run_free(&r);
}

Test(gating, summary_per_check_at_the_end_of_text_output)
{
    char both[sizeof tr_cu + sizeof strided_cu];
    snprintf(both, sizeof both, "%s%s", tr_cu, strided_cu);
    hms_scratch_write(hms_scratch_at("k.cu"), both);
    hms_run_result r = hms_run((const char *[]){hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 1);
    /* "N warnings: a hms-x, b hms-y; M notes: ...": counts add up. */
    const char *line = strstr(r.err, " warnings: ");
    cr_assert(line, "%s", r.err);
    while (line > r.err && line[-1] != '\n')
        line--;
    unsigned total = 0, sum = 0, n;
    cr_assert_eq(sscanf(line, "%u warnings:", &total), 1);
    const char *p = strchr(line, ':') + 1;
    char name[64];
    int used;
    while (sscanf(p, " %u %63[a-z-]%n", &n, name, &used) == 2) {
        sum += n;
        p += used;
        if (*p != ',')
            break;
        p++;
    }
    cr_assert_eq(sum, total, "%s", line);
    cr_assert(strstr(line, "hms-shared-bank-conflict") && strstr(line, "hms-uncoalesced-access"),
              "%s", line);
    hms_run_free(&r);
}

Test(gating, bad_baselines_are_input_errors)
{
    hms_scratch_write(hms_scratch_at("k.cu"), tr_cu);
    /* Unreadable: a directory, and a missing file. */
    hms_run_result r =
        hms_run((const char *[]){opt(0, "baseline", ""), hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, hms_scratch_at("")), "%s", r.err);
    hms_run_free(&r);
    r = hms_run((const char *[]){opt(0, "baseline", "none.json"), hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "none.json"), "%s", r.err);
    hms_run_free(&r);

    /* Written by another version of the tool. */
    r = hms_run(
        (const char *[]){opt(0, "write-baseline", "base.json"), hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 0, "%s", r.err);
    hms_run_free(&r);
    size_t len;
    char *text = hms_read_file(hms_scratch_at("base.json"), &len);
    json_t *b = hms_scratch_json(text);
    free(text);
    json_object_set_new(json_object_get(b, "tool"), "version", json_string("0.0.1"));
    cr_assert_eq(json_dump_file(b, hms_scratch_at("base.json"), 0), 0);
    json_decref(b);
    r = hms_run((const char *[]){opt(0, "baseline", "base.json"), hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "base.json") && strstr(r.err, "0.0.1") &&
                  strstr(r.err, "--write-baseline"),
              "%s", r.err);
    cr_assert_str_eq(r.out, "", "nothing analysed or reported");
    hms_run_free(&r);
}

Test(gating, unwritable_outputs_leave_sources_untouched)
{
    hms_scratch_write(hms_scratch_at("k.cu"), tr_cu);
    const char *const outputs[] = {"--output=/nonexistent/dir/report.html",
                                   "--write-baseline=/nonexistent/dir/base.json"};
    for (size_t i = 0; i < 2; i++) {
        hms_run_result r = hms_run(
            (const char *[]){"--fix", "--format=html", outputs[i], hms_scratch_at("k.cu"), NULL});
        cr_assert_eq(r.status, 2, "%s: %s", outputs[i], r.err);
        cr_assert(strstr(r.err, "/nonexistent/dir/"), "%s", r.err);
        hms_run_free(&r);
        size_t len;
        char *now = hms_read_file(hms_scratch_at("k.cu"), &len);
        cr_assert_str_eq(now, tr_cu, "--fix ran although %s failed", outputs[i]);
        free(now);
    }
    /* The same --fix with a writable output does change the file (the test
     * above could not pass by --fix doing nothing). */
    hms_run_result r =
        hms_run((const char *[]){"--fix", opt(0, "output", "r.txt"), hms_scratch_at("k.cu"), NULL});
    hms_run_free(&r);
    size_t len;
    char *now = hms_read_file(hms_scratch_at("k.cu"), &len);
    cr_assert(strstr(now, "tile[32][32 + 1]"), "%s", now);
    free(now);
}
