/* hms-lint calibrate: least-squares fits of HSM c1/c2 and Huang & Li's
 * T_overlap coefficients on synthetic runs with known coefficients plus
 * noise (recovered within 5%), the Nsight Compute raw export, the written
 * architecture file, and bad tables. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/arch.h"
#include "runtime/arch_patch.h"
#include "runtime/lsq.h"
#include "testsuite/support/run.h"

static char tmpdir[] = "/tmp/hms-calibrate-XXXXXX";

static void make_dir(void)
{
    cr_assert(mkdtemp(tmpdir) != NULL);
}

static void remove_dir(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
}

TestSuite(calibrate, .init = make_dir, .fini = remove_dir);

static const char *path_of(const char *name)
{
    static char paths[4][4096];
    static int slot;
    char *p = paths[slot++ % 4];
    snprintf(p, 4096, "%s/%s", tmpdir, name);
    return p;
}

static uint64_t rng = 0x1234567ull;
static double unit(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * unit();
}

#define NEAR_REL(got, want, rel)                                                                   \
    cr_assert(fabs((got) - (want)) <= (rel)*fabs(want), "%s = %g, want %g within %g%%", #got,      \
              (double)(got), (double)(want), 100 * (rel))

/* H100: 3352 GB/s theoretical. */
#define H100_BMAX 3352e9
static const double C1 = 0.42, C2 = 0.31;
static const double OVL[8] = {0.15, 0.08, 0.12, 0.10, 0.20, 0.25, 0.009, 0.05};

static const char *write_hsm_csv(const char *name, int runs, double noise)
{
    const char *p = path_of(name);
    FILE *f = fopen(p, "w");
    cr_assert(f);
    fprintf(f, "kernel,rbh,dram_bytes,time_ns\n");
    for (int i = 0; i < runs; i++) {
        double rbh = uniform(0.05, 0.95);
        double u = C1 * rbh + C2 + uniform(-noise, noise);
        fprintf(f, "k%d,%.6f,%.0f,1000000\n", i, rbh, u * H100_BMAX * 1e-3);
    }
    fclose(f);
    return p;
}

static const char *write_overlap_csv(const char *name, int runs, double noise, bool no_const)
{
    const char *p = path_of(name);
    FILE *f = fopen(p, "w");
    cr_assert(f);
    fprintf(f, "kernel,e_global,e_const,e_tex,e_shared,e_row_miss,e_row_conflict,warps,"
               "overlap_ratio\n");
    for (int i = 0; i < runs; i++) {
        double x[7], y = OVL[7];
        for (int j = 0; j < 6; j++)
            x[j] = uniform(0, 1);
        if (no_const)
            x[1] = 0;
        x[6] = floor(uniform(4, 64));
        for (int j = 0; j < 7; j++)
            y += OVL[j] * x[j];
        y += uniform(-noise, noise);
        fprintf(f, "\"kern,%d\",%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.0f,%.6f\n", i, x[0], x[1], x[2],
                x[3], x[4], x[5], x[6], y);
    }
    fclose(f);
    return p;
}

static hms_run_result calibrate(const char *csv, const char *out)
{
    char outopt[4200];
    snprintf(outopt, sizeof outopt, "--output=%s", out ? out : "");
    const char *args[] = {"calibrate", "--arch=h100", csv, out ? outopt : NULL, NULL};
    return hms_run(args);
}

Test(calibrate, hsm_coefficients_recovered_within_5_percent)
{
    const char *csv = write_hsm_csv("hsm.csv", 40, 0.01);
    const char *out = path_of("h100-cal.yaml");
    hms_run_result r = calibrate(csv, out);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "HSM bandwidth utilisation = c1 * rbh + c2"), "%s", r.out);
    cr_assert(strstr(r.out, "R^2 0.9"), "%s", r.out);
    cr_assert(strstr(r.out, "worst fits: k"), "%s", r.out);
    char err[512];
    const hms_arch *a = hms_arch_get(out, err, sizeof err);
    cr_assert(a, "%s", err);
    NEAR_REL(a->hsm_c1, C1, 0.05);
    NEAR_REL(a->hsm_c2, C2, 0.05);
    cr_assert_not(a->hsm_coeffs_default);
    cr_assert_str_eq(a->name, "h100-calibrated");
    /* everything else is the base file's */
    const hms_arch *h = hms_arch_get("h100", err, sizeof err);
    cr_assert_eq(a->sm_count, h->sm_count);
    cr_assert_eq(a->l2.size_bytes, h->l2.size_bytes);
    cr_assert_eq(a->dram_row_bits_mask, h->dram_row_bits_mask);
    cr_assert(a->overlap_coeffs_default); /* not fitted here */
    char *text = hms_read_file(out, NULL);
    cr_assert(text && strstr(text, "# Written by `hms-lint calibrate"), "%s", text);
    cr_assert(strstr(text, "fitted by hms-lint calibrate from"), "%s", text);
    cr_assert(strstr(text, "# source: NVIDIA H100 Tensor Core GPU architecture whitepaper"));
    free(text);
    hms_run_free(&r);
}

Test(calibrate, overlap_coefficients_recovered_within_5_percent)
{
    const char *csv = write_overlap_csv("ovl.csv", 80, 0.005, false);
    const char *out = path_of("ovl.yaml");
    hms_run_result r = calibrate(csv, out);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "T_overlap ratio (Huang & Li eq. 11), 80 runs"), "%s", r.out);
    cr_assert(strstr(r.out, "kern,"), "labels keep quoted commas: %s", r.out);
    char err[512];
    const hms_arch *a = hms_arch_get(out, err, sizeof err);
    cr_assert(a, "%s", err);
    for (int j = 0; j < HMS_OVERLAP_COUNT; j++)
        NEAR_REL(a->overlap_coeff[j], OVL[j], 0.05);
    cr_assert_not(a->overlap_coeffs_default);
    cr_assert(a->hsm_coeffs_default);
    hms_run_free(&r);
}

Test(calibrate, an_input_zero_in_every_run_is_left_alone)
{
    const char *csv = write_overlap_csv("noconst.csv", 40, 0.0, true);
    const char *out = path_of("noconst.yaml");
    hms_run_result r = calibrate(csv, out);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "constant      not fitted: its input is 0 in every run"), "%s", r.out);
    char err[512];
    const hms_arch *a = hms_arch_get(out, err, sizeof err);
    cr_assert(a, "%s", err);
    cr_assert_float_eq(a->overlap_coeff[HMS_OVERLAP_CONSTANT], 0.0, 1e-12);
    NEAR_REL(a->overlap_coeff[HMS_OVERLAP_SHARED], OVL[3], 1e-4); /* noiseless: exact */
    hms_run_free(&r);
}

Test(calibrate, nsight_compute_raw_export)
{
    /* `ncu --csv --page raw`: metric names, a units row, grouped thousands. */
    const char *p = path_of("ncu.csv");
    FILE *f = fopen(p, "w");
    cr_assert(f);
    fprintf(f, "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","
               "\"dram__bytes_write.sum\",\"rbh\"\n");
    fprintf(f, "\"\",\"\",\"usecond\",\"Mbyte\",\"Mbyte\",\"\"\n");
    for (int i = 0; i < 30; i++) {
        double rbh = uniform(0.1, 0.9);
        double u = C1 * rbh + C2 + uniform(-0.008, 0.008);
        double mb = u * H100_BMAX * 2e-3 / 1e6; /* over 2000 us, split read/write 3:1 */
        fprintf(f, "\"%d\",\"copy_%d\",\"2,000.00\",\"%.3f\",\"%.3f\",\"%.5f\"\n", i, i, mb * 0.75,
                mb * 0.25, rbh);
    }
    fclose(f);
    const char *out = path_of("ncu.yaml");
    hms_run_result r = calibrate(p, out);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "30 runs (Nsight Compute export)"), "%s", r.out);
    char err[512];
    const hms_arch *a = hms_arch_get(out, err, sizeof err);
    cr_assert(a, "%s", err);
    NEAR_REL(a->hsm_c1, C1, 0.05);
    NEAR_REL(a->hsm_c2, C2, 0.05);
    hms_run_free(&r);
}

Test(calibrate, without_output_nothing_is_written)
{
    const char *csv = write_hsm_csv("dry.csv", 10, 0.0);
    hms_run_result r = calibrate(csv, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "no file written"), "%s", r.out);
    hms_run_free(&r);
}

/* ---- bad tables ---------------------------------------------------------- */

static void expect_error(const char *name, const char *text, const char *piece)
{
    const char *p = path_of(name);
    FILE *f = fopen(p, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
    const char *out = path_of("never.yaml");
    hms_run_result r = calibrate(p, out);
    cr_assert_eq(r.status, 2, "%s: status %d, %s", name, r.status, r.err);
    /* through the diagnostic sink: "<file>[:line]: error: reason" */
    char line[4400];
    snprintf(line, sizeof line, "%s%s", p, piece);
    cr_assert(hms_line_starts_with(r.err, line), "%s: expected a line '%s...' in: %s", name, line,
              r.err);
    FILE *g = fopen(out, "r");
    cr_assert_null(g, "no architecture file after an error");
    hms_run_free(&r);
}

Test(calibrate, bad_tables_are_named_errors)
{
    expect_error("missing.csv", "rbh,warps\n0.5,12\n0.6,13\n0.7,14\n",
                 ": error: missing columns for the HSM fit");
    expect_error("nonnum.csv", "rbh,bw_util\n0.5,0.6\n0.6,abc\n0.7,0.66\n",
                 ":3: error: column 'bw_util': 'abc' is not a number");
    expect_error("empty_cell.csv", "rbh,bw_util\n0.5,0.6\n,0.61\n0.7,0.66\n",
                 ":3: error: column 'rbh': '' is not a number");
    expect_error("few.csv",
                 "e_global,e_const,e_tex,e_shared,e_row_miss,e_row_conflict,warps,overlap_ratio\n"
                 "0.1,0.2,0.3,0.4,0.5,0.6,8,0.4\n0.2,0.1,0.3,0.1,0.5,0.2,16,0.5\n"
                 "0.3,0.3,0.1,0.4,0.2,0.6,32,0.6\n",
                 ": error: 3 runs for the 8 coefficients of the overlap fit: need at least 8");
    expect_error("partial.csv", "e_global,e_tex,warps,overlap_ratio\n0.1,0.2,8,0.3\n",
                 ": error: missing column 'e_const'");
    expect_error("unknown.csv", "foo,bar\n1,2\n", ":1: error: no known column in the header");
    expect_error("over_peak.csv", "rbh,bw_util\n0.5,0.6\n0.6,1.4\n0.7,0.66\n",
                 ":3: error: bandwidth utilisation 1.4 is above the theoretical peak");
    expect_error("rbh_range.csv", "rbh,bw_util\n0.5,0.6\n1.6,0.4\n",
                 ":3: error: rbh 1.6 is not a hit rate");
    expect_error("empty.csv", "", ": error: empty file");
    expect_error("quote.csv", "rbh,bw_util\n\"0.5,0.6\n", ":2: error: unterminated quoted cell");
    expect_error("unit.csv",
                 "\"ID\",\"gpu__time_duration.sum\",\"dram__bytes.sum\",\"rbh\"\n"
                 "\"\",\"fortnight\",\"byte\",\"\"\n\"0\",\"1\",\"1\",\"0.5\"\n",
                 ":2: error: column 'gpu__time_duration.sum': unknown unit 'fortnight'");
    expect_error("constant_rbh.csv", "rbh,bw_util\n0.5,0.6\n0.5,0.61\n0.5,0.59\n",
                 ": error: the HSM fit cannot separate");
}

/* The architecture and the output file go through the same sink: a broken
 * --arch file at its line, an output path that is a directory at that path;
 * status 2, and nothing written. */
Test(calibrate, bad_arch_file_and_output_directory_are_located_errors)
{
    const char *csv = write_hsm_csv("ok.csv", 20, 0.01);
    const char *arch = path_of("broken-arch.yaml");
    FILE *f = fopen(arch, "w");
    cr_assert(f);
    fputs("name: x\nsms: [\n", f);
    fclose(f);
    char archopt[4200], want[4300];
    snprintf(archopt, sizeof archopt, "--arch=%s", arch);
    const char *args[] = {"calibrate", archopt, csv, NULL};
    hms_run_result r = hms_run(args);
    cr_assert_eq(r.status, 2, "%s", r.err);
    snprintf(want, sizeof want, "%s:3: error: YAML syntax error", arch);
    cr_assert(hms_line_starts_with(r.err, want), "expected '%s...' in: %s", want, r.err);
    cr_assert_str_empty(r.out, "%s", r.out);
    hms_run_free(&r);

    r = calibrate(csv, tmpdir);
    cr_assert_eq(r.status, 2, "%s", r.err);
    snprintf(want, sizeof want, "%s: error: is a directory", tmpdir);
    cr_assert(hms_line_starts_with(r.err, want), "expected '%s...' in: %s", want, r.err);
    hms_run_free(&r);
}

Test(calibrate, missing_file_and_wrong_argument_count)
{
    const char *args[] = {"calibrate", "/nonexistent/runs.csv", NULL};
    hms_run_result r = hms_run(args);
    cr_assert_eq(r.status, 2);
    cr_assert(hms_line_starts_with(r.err, "/nonexistent/runs.csv: error: cannot read: "), "%s",
              r.err);
    hms_run_free(&r);
    const char *none[] = {"calibrate", NULL};
    r = hms_run(none);
    cr_assert_eq(r.status, 2);
    cr_assert(hms_line_starts_with(r.err, "hms-lint: error: calibrate takes one CSV file"), "%s",
              r.err);
    cr_assert(strstr(r.err, "Run 'hms-lint --help' for usage."), "%s", r.err);
    hms_run_free(&r);
}

/* ---- the solver ------------------------------------------------------------ */

Test(calibrate, lsq_exact_on_consistent_data_and_rank_failure_named)
{
    /* y = 2 x0 - 3 x1 + 1 */
    double X[5 * 3], y[5];
    double x0[5] = {0, 1, 2, 3, 4}, x1[5] = {1, 0, 2, 5, 3};
    for (int i = 0; i < 5; i++) {
        X[i * 3] = x0[i];
        X[i * 3 + 1] = x1[i];
        X[i * 3 + 2] = 1;
        y[i] = 2 * x0[i] - 3 * x1[i] + 1;
    }
    double b[3], res[5];
    hms_lsq_fit fit;
    char err[200];
    cr_assert(hms_lsq_solve(X, y, 5, 3, b, res, &fit, err, sizeof err), "%s", err);
    cr_assert_float_eq(b[0], 2, 1e-10);
    cr_assert_float_eq(b[1], -3, 1e-10);
    cr_assert_float_eq(b[2], 1, 1e-10);
    cr_assert_float_eq(fit.r2, 1, 1e-12);
    /* x1 = 2 x0: the second column adds nothing */
    for (int i = 0; i < 5; i++)
        X[i * 3 + 1] = 2 * x0[i];
    cr_assert_not(hms_lsq_solve(X, y, 5, 3, b, res, &fit, err, sizeof err));
    cr_assert_eq(fit.rank_col, 1);
    cr_assert_not(hms_lsq_solve(X, y, 2, 3, b, res, &fit, err, sizeof err));
    cr_assert(strstr(err, "2 rows for 3 coefficients"), "%s", err);
}

/* ---- runs from another GPU than a probed --arch file ------------------------ */

Test(calibrate, runs_from_another_gpu_than_the_probed_arch_are_refused)
{
    char err[512];
    const hms_arch *h = hms_arch_get("h100", err, sizeof err);
    cr_assert(h, "%s", err);
    char *text = hms_arch_yaml_text(h, err, sizeof err);
    cr_assert(text, "%s", err);
    const char *arch = path_of("probed.yaml");
    FILE *f = fopen(arch, "w");
    cr_assert(f);
    fprintf(f, "%s\nprobe:\n  format: 1\n  device: \"NVIDIA H100 80GB HBM3\"\n  date: 2026-11-24\n",
            text);
    fclose(f);
    free(text);
    const char *csv = path_of("other_gpu.csv");
    f = fopen(csv, "w");
    cr_assert(f);
    fprintf(f, "\"ID\",\"device__attribute_display_name\",\"rbh\",\"bw_util\"\n"
               "\"\",\"\",\"\",\"\"\n"
               "\"0\",\"NVIDIA H100 80GB HBM3\",\"0.5\",\"0.6\"\n"
               "\"1\",\"NVIDIA A100-SXM4-40GB\",\"0.6\",\"0.62\"\n"
               "\"2\",\"NVIDIA H100 80GB HBM3\",\"0.7\",\"0.66\"\n");
    fclose(f);
    char archopt[4200];
    snprintf(archopt, sizeof archopt, "--arch=%s", arch);
    const char *args[] = {"calibrate", archopt, csv, NULL};
    hms_run_result r = hms_run(args);
    cr_assert_eq(r.status, 2, "%s%s", r.out, r.err);
    cr_assert(
        strstr(r.err, "other_gpu.csv:4: error: run measured on 'NVIDIA A100-SXM4-40GB', but "),
        "%s", r.err);
    cr_assert(strstr(r.err, "was probed on 'NVIDIA H100 80GB HBM3'"), "%s", r.err);
    hms_run_free(&r);
}

/* ---- where the model columns come from ---------------------------------------- */

Test(calibrate, json_report_gives_the_overlap_inputs)
{
    const char *args[] = {"--format=json", "--fail-on=never",
                          hms_test_path("../examples/transpose.cu"), NULL};
    hms_run_result r = hms_run(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *x = strstr(r.out, "\"overlap_inputs\"");
    cr_assert(x, "%s", r.out);
    /* a kernel with only global accesses: (L2 misses + requests) / requests >= 1,
     * no constant, texture or shared events */
    double eg = -1, ec = -1, w = -1;
    const char *p = strstr(x, "\"e_global\":");
    cr_assert(p && sscanf(p, "\"e_global\": %lf", &eg) == 1, "%s", x);
    p = strstr(x, "\"e_const\":");
    cr_assert(p && sscanf(p, "\"e_const\": %lf", &ec) == 1, "%s", x);
    p = strstr(x, "\"warps\":");
    cr_assert(p && sscanf(p, "\"warps\": %lf", &w) == 1, "%s", x);
    cr_assert_geq(eg, 1.0);
    cr_assert_float_eq(ec, 0.0, 1e-12);
    cr_assert(w > 0 && w <= 64, "warps %g", w);
    hms_run_free(&r);
}
