/* Published measurements reproduced end to end: each kernel file under
 * testsuite/kernels/published/ (and the convolution of kernels/checks/) is
 * parsed, traced and modelled as the binary does (hms_analyze_file), on the
 * built-in architecture closest to the GPU the figures were measured on, and
 * the predicted kernel times (T_comp + T_mem - T_overlap, cycles) are
 * compared with the published ones: every published ordering of two kernels,
 * and Spearman's rank correlation per family. docs/validation.md tabulates
 * the same figures with their sources.
 *
 * An ordering or correlation the model does not reproduce today is listed
 * with holds = false: it is computed and logged (info), not asserted, and
 * docs/validation.md gives the reason. Everything else is asserted. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "passes/analyze.h"
#include "passes/findings.h"
#include "runtime/arch.h"
#include "runtime/arch_patch.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/run.h"

TestSuite(published, .timeout = 600);

typedef struct {
    const char *kernel;
    double value; /* as published */
} point;

typedef struct {
    const char *faster, *slower; /* kernel names: published faster, slower */
    bool holds;                  /* reproduced today (asserted); false: logged only */
} ordering;

static void analyse(const char *rel, const char *arch, hms_analyzed_file *f)
{
    char opt[64];
    snprintf(opt, sizeof opt, "--arch=%s", arch);
    const char *args[] = {opt, NULL};
    bool ok = hms_analyze_file(hms_test_path(rel), args, f);
    cr_assert(ok, "%s", f->error);
}

/* A copy of built-in `arch` with T_overlap from eq. 11 and its unfitted
 * coefficients (coefficients.overlap.hong_kim: false; Hong & Kim's cases
 * are the default), written to a temporary file whose path goes to `path`:
 * the same YAML with that one key added. */
static void eq11_arch(const char *arch, char *path, size_t len)
{
    char err[256];
    const hms_arch *a = hms_arch_get(arch, err, sizeof err);
    cr_assert(a, "%s", err);
    char *yaml = hms_arch_yaml_text(a, err, sizeof err);
    cr_assert(yaml, "%s", err);
    const char *at = strstr(yaml, "\n  overlap:");
    cr_assert(at, "%s: no coefficients.overlap section", arch);
    const char *eol = strchr(at + 1, '\n');
    cr_assert(eol);
    snprintf(path, len, "/tmp/hms-published-%ld-%s-eq11.yaml", (long)getpid(), arch);
    FILE *f = fopen(path, "w");
    cr_assert(f, "%s", path);
    fprintf(f, "%.*s\n    hong_kim: false%s", (int)(eol - yaml), yaml, eol);
    fclose(f);
    free(yaml);
}

/* analyse() on the eq. 11 copy of `arch`. */
static void analyse_eq11(const char *rel, const char *arch, hms_analyzed_file *f)
{
    char path[256];
    eq11_arch(arch, path, sizeof path);
    analyse(rel, path, f);
    remove(path);
}

static double predicted(const hms_analyzed_file *f, const char *kernel)
{
    const hms_kernel_report *r = hms_af_report(f, kernel);
    cr_assert(r, "no kernel %s", kernel);
    const hms_model_figures *m = &r->model;
    /* the model's time: eq. 1, never under the memory pipe's passes */
    double t = fmax(m->t_comp + m->t_mem - m->t_overlap, m->t_pipe);
    cr_assert(t > 0, "%s: no predicted time", kernel);
    return t;
}

/* Ranks 1..n with ties averaged. */
static void ranks(const double *x, size_t n, double *r)
{
    for (size_t i = 0; i < n; i++) {
        double below = 0, equal = 0;
        for (size_t j = 0; j < n; j++) {
            below += x[j] < x[i];
            equal += x[j] == x[i];
        }
        r[i] = below + (equal + 1) / 2;
    }
}

/* Spearman's rho: Pearson's correlation of the ranks. */
static double spearman(const double *x, const double *y, size_t n)
{
    double rx[64], ry[64];
    cr_assert(n >= 2 && n <= 64);
    ranks(x, n, rx);
    ranks(y, n, ry);
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; i++) {
        mx += rx[i] / n;
        my += ry[i] / n;
    }
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; i++) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0;
}

/* Published figures as times: a rate (GB/s, GFLOP/s) for the same work
 * becomes its reciprocal. Logs and returns rho of predicted vs measured time. */
static double family_rho(const hms_analyzed_file *f, const char *family, const point *p, size_t n,
                         bool rate)
{
    double pred[64], meas[64];
    for (size_t i = 0; i < n; i++) {
        pred[i] = predicted(f, p[i].kernel);
        meas[i] = rate ? 1.0 / p[i].value : p[i].value;
        cr_log_info("%s: %-26s published %10.3f  predicted %14.0f cycles", family, p[i].kernel,
                    p[i].value, pred[i]);
    }
    double rho = spearman(pred, meas, n);
    cr_log_info("%s: Spearman rho %.3f over %zu kernels", family, rho, n);
    return rho;
}

static void check_orderings(const hms_analyzed_file *f, const char *family, const ordering *o,
                            size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double a = predicted(f, o[i].faster), b = predicted(f, o[i].slower);
        if (o[i].holds)
            cr_expect_lt(a, b, "%s: %s (%.0f cycles) should be faster than %s (%.0f)", family,
                         o[i].faster, a, o[i].slower, b);
        else
            cr_log_info("%s: known mismatch: published %s faster than %s, predicted %.0f vs "
                        "%.0f cycles (docs/validation.md)",
                        family, o[i].faster, o[i].slower, a, b);
    }
}

/* ---- CuMAPz (seeds/001_3bb0fc5541bb7adb.txt), Tesla C1060 = gt200, ms ------------- */

static const point cumapz_ms[] = {
    {"noShared", 78.15},
    {"col0", 61.11},
    {"col1", 64.86},
    {"col2", 63.77},
    {"row0", 45.06},
    {"row1", 54.75},
    {"row2", 55.25},
    {"pad0", 44.98},
    {"pad1", 53.69},
    {"pad2", 54.39},
    {"noSharedColStore", 3938.08},
    {"rowColStore0", 3933.88},
    {"rowColStore1", 3936.23},
    {"rowColStore2", 3937.56},
};

Test(published, cumapz_tables)
{
    hms_analyzed_file f;
    analyse("kernels/published/cumapz_tables.cu", "gt200", &f);
    static const ordering table1[] = {
        /* Table I: the coalesced fetch row*MAX+col is best, and the one with the
         * most reuse (col+1) worst; no shared memory slowest of all. */
        {"col0", "col2", true},      {"col2", "col1", true},      {"col0", "noShared", false},
        {"col1", "noShared", false}, {"col2", "noShared", false},
    };
    static const ordering table2[] = {
        /* Table II: row-wise and padded buffers beat column-wise ones. */
        {"row0", "col0", true},  {"row1", "col1", true},  {"row2", "col2", true},
        {"pad0", "col0", true},  {"pad1", "col1", true},  {"pad2", "col2", true},
        {"row0", "row1", true},  {"row1", "row2", false}, {"pad0", "pad1", true},
        {"pad1", "pad2", false}, {"pad0", "row0", false},
    };
    static const ordering table3[] = {
        /* Table III: writing the output column-wise is far slower. */
        {"noShared", "noSharedColStore", true},
        {"row0", "rowColStore0", true},
        {"row1", "rowColStore1", true},
        {"row2", "rowColStore2", true},
    };
    check_orderings(&f, "CuMAPz Table I", table1, sizeof table1 / sizeof *table1);
    check_orderings(&f, "CuMAPz Table II", table2, sizeof table2 / sizeof *table2);
    check_orderings(&f, "CuMAPz Table III", table3, sizeof table3 / sizeof *table3);
    double rho = family_rho(&f, "CuMAPz Tables I-III", cumapz_ms,
                            sizeof cumapz_ms / sizeof *cumapz_ms, false);
    cr_expect_gt(rho, 0.7, "rho %.3f", rho);
    hms_analyzed_file_free(&f);
}

/* ---- transpose: Ruetsch & Micikevicius, effective GB/s, 2048 x 2048 ---------------- */

static const char *const transpose_names[6] = {"copy",
                                               "copySharedMem",
                                               "transposeNaive",
                                               "transposeCoalesced",
                                               "transposeNoBankConflicts",
                                               "transposeDiagonal"};
/* The whitepaper's last table, GB/s, in transpose_names order. */
static const double gtx280_gbs[6] = {96.9, 80.9, 2.2, 16.5, 16.6, 69.5};
static const double m2090_gbs[6] = {125.2, 110.6, 61.5, 92.8, 103.2, 81.4};
static const double k20x_gbs[6] = {147.6, 130.5, 92.0, 114.0, 112.6, 106.7};

static void transpose_family(const char *arch, const char *gpu, const double gbs[6],
                             const ordering *o, size_t no, double rho_min, bool rho_holds)
{
    point p[6];
    for (int i = 0; i < 6; i++)
        p[i] = (point){transpose_names[i], gbs[i]};
    hms_analyzed_file f;
    analyse("kernels/published/transpose_wp.cu", arch, &f);
    char fam[64];
    snprintf(fam, sizeof fam, "transpose %s (%s)", gpu, arch);
    check_orderings(&f, fam, o, no);
    double rho = family_rho(&f, fam, p, 6, true);
    if (rho_holds)
        cr_expect_geq(rho, rho_min, "%s: rho %.3f", fam, rho);
    else
        cr_log_info("%s: known mismatch: rho %.3f below %.2f (docs/validation.md)", fam, rho,
                    rho_min);
    hms_analyzed_file_free(&f);
}

Test(published, transpose_gtx280)
{
    /* GTX 280 column of the whitepaper's tables; the CuMAPz transpose steps
     * (Sec. 6) are the same kernels on the same generation. */
    static const ordering o[] = {
        {"copy", "copySharedMem", true},
        {"transposeCoalesced", "transposeNaive", true},
        {"transposeNoBankConflicts", "transposeCoalesced", true},
        {"transposeDiagonal", "transposeNoBankConflicts", true},
        {"copySharedMem", "transposeDiagonal", true},
        /* the whitepaper's summary and CuMAPz's last step: removing the
         * padding from the diagonal kernel costs a sizeable amount */
        {"transposeDiagonal", "transposeDiagonalConflicts", true},
    };
    transpose_family("gt200", "GTX 280", gtx280_gbs, o, sizeof o / sizeof *o, 0.9, true);
}

Test(published, transpose_m2090)
{
    static const ordering o[] = {
        {"copy", "copySharedMem", true},
        /* holds since a Fermi replay pass costs its lanes' LD/ST cycles
         * (runtime/banks.h hms_banks_pass_cycles_for) */
        {"transposeCoalesced", "transposeNaive", true},
        {"transposeNoBankConflicts", "transposeCoalesced", true},
        {"transposeNoBankConflicts", "transposeDiagonal", true},
    };
    transpose_family("fermi", "M2090", m2090_gbs, o, sizeof o / sizeof *o, 0.9, true);
}

Test(published, transpose_k20x)
{
    static const ordering o[] = {
        {"copy", "copySharedMem", true},
        {"transposeCoalesced", "transposeNaive", true},
        {"transposeCoalesced", "transposeDiagonal", false},
    };
    /* rho 0.943 since replays are memory-pipe throughput (docs/validation.md) */
    transpose_family("kepler", "K20X", k20x_gbs, o, sizeof o / sizeof *o, 0.9, true);
}

/* ---- reduction: Harris, 4M ints on a G80 (8800 GTX); closest built-in gt200 -------- */

static const point reduction_ms[] = {
    {"reduce1", 8.054}, {"reduce2", 3.456}, {"reduce3", 1.722}, {"reduce4", 0.965},
    {"reduce5", 0.536}, {"reduce6", 0.381}, {"reduce7", 0.268},
};

Test(published, reduction_g80)
{
    static const ordering o[] = {
        {"reduce2", "reduce1", true}, {"reduce3", "reduce2", true}, {"reduce4", "reduce3", true},
        {"reduce5", "reduce4", true}, {"reduce6", "reduce5", true}, {"reduce7", "reduce6", true},
    };
    hms_analyzed_file f;
    analyse("kernels/published/reduction.cu", "gt200", &f);
    check_orderings(&f, "reduction G80", o, sizeof o / sizeof *o);
    double rho = family_rho(&f, "reduction G80", reduction_ms,
                            sizeof reduction_ms / sizeof *reduction_ms, false);
    cr_expect_geq(rho, 0.9, "rho %.3f", rho);
    hms_analyzed_file_free(&f);
}

/* ---- GEMM: Boehm's SGEMM worklog, GFLOP/s at 4096 on an A6000; built-in a100 ------- */

static const point gemm_gflops[] = {
    {"gemmNaive", 309.0},        {"gemmCoalesced", 1986.5},   {"gemmSharedTiles", 2980.3},
    {"gemm1DBlocking", 8474.7},  {"gemm2DBlocking", 15971.7}, {"gemmVectorized", 18237.3},
    {"gemmWarptiling", 21779.3},
};

Test(published, gemm_a6000)
{
    static const ordering o[] = {
        {"gemmCoalesced", "gemmNaive", true},        {"gemmSharedTiles", "gemmCoalesced", true},
        {"gemm1DBlocking", "gemmSharedTiles", true}, {"gemm2DBlocking", "gemm1DBlocking", true},
        {"gemmVectorized", "gemm2DBlocking", true},  {"gemmWarptiling", "gemmVectorized", false},
    };
    hms_analyzed_file f;
    analyse("kernels/published/gemm.cu", "a100", &f);
    check_orderings(&f, "GEMM A6000", o, sizeof o / sizeof *o);
    double rho = family_rho(&f, "GEMM A6000", gemm_gflops, 7, true);
    cr_expect_geq(rho, 0.9, "rho %.3f", rho);
    hms_analyzed_file_free(&f);
}

/* The GEMM tiles are never called a loss, on any GPU with an L1 that could
 * serve the direct reads. */
Test(published, gemm_tiles_never_a_loss)
{
    static const char *const arches[] = {"a100", "h100"};
    for (size_t a = 0; a < sizeof arches / sizeof *arches; a++) {
        hms_analyzed_file f;
        analyse("kernels/published/gemm.cu", arches[a], &f);
        for (size_t k = 0; k < f.nkernels; k++) {
            const hms_kernel_report *r = &f.reports[k];
            for (size_t d = 0; d < r->ndiagnostics; d++)
                cr_expect(strcmp(r->diagnostics[d].check, "hms-shared-reuse") != 0, "%s on %s: %s",
                          r->name, arches[a], r->diagnostics[d].message);
        }
        hms_analyzed_file_free(&f);
    }
}

/* ---- Huang & Li (seeds/000_2b7270bf81dd448e.txt): a filter read at one address by
 * every lane belongs in constant memory (the SDK convolution's c_Kernel). -------- */

static const hms_placement *placement_of(const hms_kernel_report *r, const char *array)
{
    for (size_t i = 0; i < r->nplacements; i++)
        if (strcmp(r->placements[i].array, array) == 0)
            return &r->placements[i];
    cr_assert_fail("%s: no placement for %s", r->name, array);
    return NULL;
}

static void filter_prefers_constant(const char *arch, bool holds, bool eq11)
{
    hms_analyzed_file f;
    if (eq11)
        analyse_eq11("kernels/checks/convolution.cu", arch, &f);
    else
        analyse("kernels/checks/convolution.cu", arch, &f);
    const hms_placement *g = placement_of(hms_af_report(&f, "convGlobal"), "filter");
    const hms_placement *c = placement_of(hms_af_report(&f, "convConstant"), "c_filter");
    cr_log_info("Huang & Li convolution on %s: global filter best %s, constant filter best %s",
                arch, g->best, c->best);
    if (holds) {
        cr_expect_str_eq(g->best, "constant", "%s: global filter best %s", arch, g->best);
        cr_expect_str_eq(c->best, "constant", "%s: constant filter best %s", arch, c->best);
    } else if (strcmp(g->best, "constant") || strcmp(c->best, "constant")) {
        cr_log_info("Huang & Li convolution on %s: known mismatch: best %s / %s, not constant "
                    "(docs/validation.md)",
                    arch, g->best, c->best);
    }
    hms_analyzed_file_free(&f);
}

Test(published, huang_li_constant_filter)
{
    filter_prefers_constant("h100", true, false);
    filter_prefers_constant("a100", true, false);
    filter_prefers_constant("v100", true, false);
    filter_prefers_constant("maxwell", true, false);
    filter_prefers_constant("k80", true, false); /* the paper's GPU */
}

/* ---- the same families with eq. 11's unfitted overlap, selected explicitly -------
 * (coefficients.overlap.hong_kim: false; Hong & Kim's cases are the default,
 * docs/validation.md fifth pass): the option still works end to end, and
 * what eq. 11 reaches is asserted so that it cannot slip unnoticed; the
 * families only Hong & Kim fixes are logged. */

static double eq11_rho(const char *rel, const char *arch, const char *family, const point *p,
                       size_t n, bool rate)
{
    hms_analyzed_file f;
    analyse_eq11(rel, arch, &f);
    char fam[96];
    snprintf(fam, sizeof fam, "eq. 11 overlap: %s", family);
    double rho = family_rho(&f, fam, p, n, rate);
    hms_analyzed_file_free(&f);
    return rho;
}

Test(published, eq11_overlap_explicit)
{
    /* the key selects eq. 11: CuMAPz's noShared gets another overlap */
    hms_analyzed_file d, e;
    analyse("kernels/published/cumapz_tables.cu", "gt200", &d);
    analyse_eq11("kernels/published/cumapz_tables.cu", "gt200", &e);
    double od = hms_af_report(&d, "noShared")->model.t_overlap;
    double oe = hms_af_report(&e, "noShared")->model.t_overlap;
    cr_expect_neq(od, oe, "hong_kim: false changed nothing (t_overlap %g)", od);
    hms_analyzed_file_free(&d);
    hms_analyzed_file_free(&e);

    double rho = eq11_rho("kernels/published/cumapz_tables.cu", "gt200", "CuMAPz", cumapz_ms,
                          sizeof cumapz_ms / sizeof *cumapz_ms, false);
    cr_log_info("eq. 11 overlap: CuMAPz rho %.3f (0.988 with Hong & Kim)", rho);
    point p[6];
    const struct {
        const char *arch, *gpu;
        const double *gbs;
    } tr[] = {{"gt200", "GTX 280", gtx280_gbs},
              {"fermi", "M2090", m2090_gbs},
              {"kepler", "K20X", k20x_gbs}};
    for (size_t t = 0; t < sizeof tr / sizeof *tr; t++) {
        for (int i = 0; i < 6; i++)
            p[i] = (point){transpose_names[i], tr[t].gbs[i]};
        char fam[64];
        snprintf(fam, sizeof fam, "transpose %s", tr[t].gpu);
        rho = eq11_rho("kernels/published/transpose_wp.cu", tr[t].arch, fam, p, 6, true);
        cr_log_info("eq. 11 overlap: %s rho %.3f", fam, rho);
    }
    rho = eq11_rho("kernels/published/reduction.cu", "gt200", "reduction G80", reduction_ms,
                   sizeof reduction_ms / sizeof *reduction_ms, false);
    cr_expect_geq(rho, 0.9, "reduction rho %.3f", rho);
    rho = eq11_rho("kernels/published/gemm.cu", "a100", "GEMM A6000", gemm_gflops, 7, true);
    cr_expect_geq(rho, 0.9, "GEMM rho %.3f", rho);
    filter_prefers_constant("k80", true, true);
    filter_prefers_constant("h100", true, true);
}

/* ---- Mei & Chu (seeds/002_1cb76b36ded3a9f2.txt) Table VIII: shared-memory latency
 * by bank-conflict ways (Sec. 6.2 gives the no-conflict figure), end to end: a
 * W-way conflicting read reports W wavefronts and the table's latency. ---------- */

static void table8(const char *arch, const char *prefix, const int lat[6])
{
    static const int ways[6] = {1, 2, 4, 8, 16, 32};
    hms_analyzed_file f;
    analyse("kernels/published/bank_ways.cu", arch, &f);
    for (int i = 0; i < 6; i++) {
        char name[32];
        snprintf(name, sizeof name, "%sways%d", prefix, ways[i]);
        const hms_kernel_report *r = hms_af_report(&f, name);
        cr_assert(r, "no kernel %s", name);
        const hms_access_metrics *s = NULL;
        for (size_t j = 0; j < r->naccesses; j++)
            if (strcmp(r->accesses[j].space, "shared") == 0)
                s = &r->accesses[j];
        cr_assert(s, "%s: no shared access", name);
        cr_expect_float_eq(s->bank_wavefronts_per_request, ways[i], 1e-9, "%s on %s", name, arch);
        cr_expect_float_eq(s->latency_cycles, lat[i], 1e-9, "%s on %s: %g cycles, published %d",
                           name, arch, s->latency_cycles, lat[i]);
    }
    hms_analyzed_file_free(&f);
}

Test(published, mei_chu_table8)
{
    static const int gtx560ti[6] = {50, 87, 162, 311, 611, 1209};
    static const int gtx780[6] = {47, 82, 96, 158, 257, 484};
    static const int gtx980[6] = {28, 30, 34, 42, 58, 90};
    table8("fermi", "", gtx560ti);
    table8("kepler", "d", gtx780); /* 8-byte bank mode: 8-byte words */
    table8("maxwell", "", gtx980);
}

/* Partition camping in time (CuMAPz Sec. 5.4, the whitepaper's diagonal
 * transpose): on the GTX 280 (8 partitions of 256 bytes, addresses not
 * hashed) a tile transpose's column writes put every resident block on one
 * partition, which the model prices; on the H100 (hashed channels) the same
 * kernel is not charged for it, so the diagonal order only costs its index
 * arithmetic there. */
Test(published, camping_priced_where_channels_are_not_hashed)
{
    hms_analyzed_file f;
    analyse("kernels/published/transpose_wp.cu", "gt200", &f);
    double nobank = predicted(&f, "transposeNoBankConflicts");
    double diag = predicted(&f, "transposeDiagonal");
    cr_expect_lt(diag, nobank, "gt200: diagonal %.0f, padded tile %.0f cycles", diag, nobank);
    hms_analyzed_file_free(&f);
    analyse("kernels/published/transpose_wp.cu", "h100", &f);
    nobank = predicted(&f, "transposeNoBankConflicts");
    diag = predicted(&f, "transposeDiagonal");
    cr_expect_lt(nobank, diag, "h100: padded tile %.0f, diagonal %.0f cycles", nobank, diag);
    hms_analyzed_file_free(&f);
}
