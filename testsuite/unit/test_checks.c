/* The eleven checks and the analysis behind them, in-process: each kernel
 * file of testsuite/kernels/checks/ is parsed with the front end, analysed
 * with hms_analyze_kernel on every architecture its EXPECT-ARCHES names, and
 * its inline expectations are checked (testsuite/support/check_expect.h).
 * Then the report figures the messages rest on, worked out by hand, and the
 * options (placement threshold, --checks) and fix-its on hand-built IR. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/analyze.h"
#include "passes/findings.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/check_expect.h"
#include "testsuite/support/ir_fixtures.h"
#include "testsuite/support/run.h"

TestSuite(checks, .timeout = 600);

static bool near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

/* Every finding of every kernel, as the expectation checker sees them. */
static hms_seen_list seen_of(const hms_analyzed_file *f)
{
    hms_seen_list l = {0};
    size_t n = 0;
    for (size_t k = 0; k < f->nkernels; k++)
        n += f->reports[k].ndiagnostics;
    l.v = calloc(n ? n : 1, sizeof *l.v);
    l.kernel_lines = calloc(f->nkernels ? f->nkernels : 1, sizeof *l.kernel_lines);
    cr_assert(l.v && l.kernel_lines);
    for (size_t k = 0; k < f->nkernels; k++) {
        const hms_kernel_report *r = &f->reports[k];
        l.kernel_lines[l.nkernels++] = r->line;
        for (size_t i = 0; i < r->ndiagnostics; i++) {
            const hms_finding *d = &r->diagnostics[i];
            l.v[l.n++] = (hms_seen){d->check, hms_severity_name(d->severity), d->message, d->line};
        }
    }
    return l;
}

static void analyse(const char *rel, const char *arch, hms_analyzed_file *f)
{
    char opt[64];
    snprintf(opt, sizeof opt, "--arch=%s", arch);
    const char *args[] = {opt, NULL};
    const char *path = hms_test_path(rel);
    bool ok = hms_analyze_file(path, args, f);
    cr_assert(ok, "%s", f->error);
    cr_assert_gt(f->nkernels, 0, "%s: no kernels", rel);
}

/* Runs the file's expectations on each of its architectures. */
static void check_file(const char *rel)
{
    char arches[4][16];
    char path[4096];
    snprintf(path, sizeof path, "%s", hms_test_path(rel));
    size_t na = hms_expect_arches(path, arches, 4);
    for (size_t a = 0; a < na; a++) {
        hms_analyzed_file f;
        analyse(rel, arches[a], &f);
        hms_seen_list seen = seen_of(&f);
        size_t nd = 0;
        char *fail = hms_check_expectations(path, arches[a], &seen, &nd);
        cr_expect(fail == NULL, "%s", fail ? fail : "");
        cr_expect_gt(nd, 0, "%s [%s]: no directive applied", rel, arches[a]);
        /* hms-memory-bound: exactly one note per kernel, with HSM and the roofline. */
        for (size_t k = 0; k < f.nkernels; k++) {
            size_t notes = 0;
            const hms_kernel_report *r = &f.reports[k];
            for (size_t i = 0; i < r->ndiagnostics; i++)
                if (strcmp(r->diagnostics[i].check, "hms-memory-bound") == 0) {
                    notes++;
                    cr_expect_eq(r->diagnostics[i].severity, HMS_SEV_NOTE);
                    cr_expect(strstr(r->diagnostics[i].message, "-bound (HSM: "));
                    cr_expect(strstr(r->diagnostics[i].message, "predicted"));
                    cr_expect_eq(r->diagnostics[i].line, r->line);
                }
            /* none when no access ran (then hms-analysis-limit says why) */
            cr_expect_eq(notes, r->model.bound ? 1 : 0, "%s [%s] %s: %zu memory-bound notes", rel,
                         arches[a], r->name, notes);
        }
        free(fail);
        free(seen.v);
        free(seen.kernel_lines);
        hms_analyzed_file_free(&f);
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every kernel file of testsuite/kernels/checks/, found by listing the
 * folder (a new file is checked without naming it here), in name order. */
Test(checks, every_kernel_file_of_the_folder)
{
    const char *dir = hms_test_path("kernels/checks");
    DIR *d = opendir(dir);
    cr_assert(d, "cannot open %s", dir);
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < sizeof names / sizeof names[0]) {
        size_t len = strlen(e->d_name);
        if (len > 3 && strcmp(e->d_name + len - 3, ".cu") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    cr_assert_gt(n, 0, "%s: no kernel files", dir);
    qsort(names, n, sizeof names[0], by_name);
    for (size_t i = 0; i < n; i++) {
        char rel[512];
        snprintf(rel, sizeof rel, "kernels/checks/%s", names[i]);
        check_file(rel);
        free(names[i]);
    }
}
/* WMMA fragments are registers; tile loads conflict only when rows collide;
 * no bank verdict from unknown values; no camping on hashed-address arches. */
Test(checks, tensor_tiles_and_unknown_indices)
{
    check_file("kernels/checks/tensor_tiles.cu");
}

static const hms_access_metrics *access_at(const hms_kernel_report *r, unsigned line,
                                           const char *array, const char *kind)
{
    for (size_t i = 0; i < r->naccesses; i++)
        if (r->accesses[i].line == line && strcmp(r->accesses[i].array, array) == 0 &&
            strcmp(r->accesses[i].kind, kind) == 0)
            return &r->accesses[i];
    cr_assert_fail("no %s of %s at line %u in %s", kind, array, line, r->name);
    return NULL;
}

/* 256 x 256 floats, 8 x 8 blocks of 32 x 8 threads, 4 loop iterations:
 * 64 blocks * 8 warps * 4 = 2048 requests per site. A row of 32 floats is 4
 * sectors and 1 line; a column (1 KB between lanes) 32 sectors and 32 lines;
 * tile[tx][ty+i] puts every lane in one bank (32 wavefronts), [32][33]
 * spreads them (1). Launch fully enumerated: exact. */
Test(checks, transpose_metrics_by_hand)
{
    hms_analyzed_file f;
    analyse("kernels/checks/transpose.cu", "h100", &f);
    const hms_kernel_report *r = hms_af_report(&f, "transposeNaive");
    cr_assert(r);
    cr_expect_not(r->sampled);
    const hms_access_metrics *in = access_at(r, 25, "idata", "load");
    const hms_access_metrics *out = access_at(r, 25, "odata", "store");
    cr_expect(near(in->requests, 2048, 0) && near(out->requests, 2048, 0));
    cr_expect(near(in->sectors_per_request, 4, 1e-12) && near(in->lines_per_request, 1, 1e-12));
    cr_expect(near(out->sectors_per_request, 32, 1e-12) && near(out->lines_per_request, 32, 1e-12));
    cr_expect(in->exact && out->exact);
    cr_expect(near(in->bank_wavefronts_per_request, -1, 0));
    r = hms_af_report(&f, "transposeCoalesced");
    cr_assert(r);
    cr_expect(near(access_at(r, 46, "tile", "load")->bank_wavefronts_per_request, 32, 1e-12));
    cr_expect(near(access_at(r, 41, "tile", "store")->bank_wavefronts_per_request, 1, 1e-12));
    /* CuMAPz eq. 6: one buffer read 32-way everywhere, written conflict-free:
     * n_half_warp * n_buffer / n_bk_conflict = 512 / (2048 * 32) */
    cr_expect(near(r->model.shm_eff, 512.0 / (2048.0 * 32), 1e-9), "shm_eff %g", r->model.shm_eff);
    r = hms_af_report(&f, "transposeNoBankConflicts");
    cr_expect(near(access_at(r, 64, "tile", "load")->bank_wavefronts_per_request, 1, 1e-12));
    cr_expect(near(r->model.shm_eff, 1, 0));
    hms_analyzed_file_free(&f);
}

/* embedTokens: 256 blocks of 8 warps, one request per warp and site. A warp's
 * 32 threads share one token, so the wte row read is 32 contiguous floats
 * (4 sectors, 1 line: rows of 3072 bytes keep 128-byte alignment) at an
 * unknown row: not exact, but the per-request figures are those of a
 * coalesced read, not a 32-sector scatter. eliminate: with Size = 64 and
 * t = 16 assumed, threads x < 47 and y < 48 stay; every site runs.
 * onlyInMode: nothing runs, and no memory/compute class is given. */
Test(checks, unknown_values_metrics_by_hand)
{
    hms_analyzed_file f;
    analyse("kernels/checks/unknowns.cu", "h100", &f);
    const hms_kernel_report *r = hms_af_report(&f, "embedTokens");
    cr_assert(r);
    const hms_access_metrics *tok = access_at(r, 22, "tokens", "load");
    const hms_access_metrics *wte = access_at(r, 23, "wte", "load");
    const hms_access_metrics *wpe = access_at(r, 23, "wpe", "load");
    cr_expect(near(wte->requests, 2048, 0) && near(tok->requests, 2048, 0));
    cr_expect(near(tok->sectors_per_request, 1, 1e-12));
    cr_expect(near(wte->sectors_per_request, 4, 1e-12), "wte sectors %g", wte->sectors_per_request);
    cr_expect(near(wte->lines_per_request, 1, 1e-12));
    cr_expect(near(wpe->sectors_per_request, 4, 1e-12));
    cr_expect_not(wte->exact, "the row is unknown");
    cr_expect(wpe->exact && tok->exact);
    r = hms_af_report(&f, "eliminate");
    cr_assert(r);
    for (size_t i = 0; i < r->naccesses; i++)
        cr_expect_gt(r->accesses[i].requests, 0, "%s line %u", r->accesses[i].array,
                     r->accesses[i].line);
    /* four loads and a store for one multiply-add, two of them uncoalesced:
     * DRAM-bound once its index arithmetic is counted as a compiler emits it
     * (common subexpressions once) */
    cr_expect_str_eq(r->model.bound, "memory");
    r = hms_af_report(&f, "onlyInMode");
    cr_assert(r);
    cr_expect_eq(r->accesses[0].requests, 0);
    cr_expect_null(r->model.bound);
    hms_analyzed_file_free(&f);
}

/* Reductions, 1024 blocks of 256 threads: interleaved addressing runs the
 * add 5 times with all 8 warps (s = 1..16) and then with 4, 2, 1 warps: 47
 * requests per block; its 255 active lanes fit 12 warps. The strided index
 * 2*s*tid: s = 1 four warps 2-way, s = 2 two warps 4-way, s = 4 one warp
 * 8-way, s = 8 and 16 one warp 8-way, s = 32, 64, 128 4-, 2-, 1-way: 47
 * wavefronts over 12 requests. */
Test(checks, reduction_metrics_by_hand)
{
    hms_analyzed_file f;
    analyse("kernels/checks/reduction.cu", "h100", &f);
    const hms_kernel_report *r = hms_af_report(&f, "reduceInterleaved");
    cr_assert(r);
    const hms_access_metrics *a = access_at(r, 22, "sdata", "store");
    cr_expect(near(a->requests, 47.0 * 1024, 1e-6), "requests %g", a->requests);
    r = hms_af_report(&f, "reduceStrided");
    a = access_at(r, 39, "sdata", "store");
    cr_expect(near(a->requests, 12.0 * 1024, 1e-6), "requests %g", a->requests);
    cr_expect(near(a->bank_wavefronts_per_request, 47.0 / 12, 1e-9), "wavefronts %g",
              a->bank_wavefronts_per_request);
    r = hms_af_report(&f, "reduceSequential");
    a = access_at(r, 54, "sdata", "store");
    cr_expect(near(a->requests, 12.0 * 1024, 1e-6));
    cr_expect(near(a->bank_wavefronts_per_request, 1, 1e-12));
    hms_analyzed_file_free(&f);
}

/* Constant memory: the filter tap is the same for all lanes (1 address per
 * request), c_table[threadIdx.x] 32 addresses. */
Test(checks, constant_metrics_by_hand)
{
    hms_analyzed_file f;
    analyse("kernels/checks/convolution.cu", "h100", &f);
    const hms_kernel_report *r = hms_af_report(&f, "convConstant");
    cr_assert(r);
    cr_expect(near(access_at(r, 22, "c_filter", "load")->distinct_addresses_per_request, 1, 1e-12));
    r = hms_af_report(&f, "scaleByTable");
    cr_expect(near(access_at(r, 44, "c_table", "load")->distinct_addresses_per_request, 32, 1e-12));
    /* The global filter's placement: every space listed, constant legal. */
    r = hms_af_report(&f, "convGlobal");
    const hms_placement *p = NULL;
    for (size_t i = 0; i < r->nplacements; i++)
        if (strcmp(r->placements[i].array, "filter") == 0)
            p = &r->placements[i];
    cr_assert(p);
    cr_expect_str_eq(p->current, "global");
    cr_expect_eq(p->noptions, 6);
    bool constant_legal = false;
    for (size_t i = 0; i < p->noptions; i++)
        if (strcmp(p->options[i].space, "constant") == 0)
            constant_legal = p->options[i].legal && p->options[i].speedup > 1;
    cr_expect(constant_legal);
    cr_expect_str_neq(p->best, "global");
    hms_analyzed_file_free(&f);
}

/* CuMAPz eq. 1 for the tiled multiply: each staged element of A and B is
 * read by the 16 threads of a row/column of the block, 16 times the bytes
 * the fetches move; eq. 2: two fetch references at 100% occupancy give
 * sqrt(2). */
Test(checks, matmul_cumapz_terms_by_hand)
{
    hms_analyzed_file f;
    analyse("kernels/checks/matmul.cu", "h100", &f);
    const hms_kernel_report *r = hms_af_report(&f, "matmulShared");
    cr_assert(r);
    cr_expect(near(r->model.data_reuse, 16, 1e-9), "data_reuse %g", r->model.data_reuse);
    cr_expect(near(r->model.lat_hiding, sqrt(2), 1e-9), "lat_hiding %g", r->model.lat_hiding);
    cr_expect(near(r->model.shm_eff, 1, 0));
    r = hms_af_report(&f, "matmulNaive");
    cr_expect(near(r->model.data_reuse, 1, 0));
    hms_analyzed_file_free(&f);
}

static size_t count_check(const hms_kernel_report *r, const char *check)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ndiagnostics; i++)
        n += strcmp(r->diagnostics[i].check, check) == 0;
    return n;
}

/* hms_analysis_options.placement_threshold decides whether hms-placement
 * speaks, and --checks globs which checks run. */
Test(checks, placement_threshold_and_check_globs)
{
    hms_analyzed_file f;
    analyse("kernels/checks/convolution.cu", "h100", &f);
    const ir_kernel *k = hms_af_kernel(&f, "convGlobal");
    cr_assert(k);
    hms_analysis_options o = {0};
    o.arch = f.arch;
    hms_kernel_report r;
    memset(&r, 0, sizeof r);
    o.placement_threshold = 1.01;
    cr_assert(hms_analyze_kernel(k, &o, &r));
    size_t low = count_check(&r, "hms-placement");
    hms_kernel_report_free(&r);
    o.placement_threshold = 50;
    cr_assert(hms_analyze_kernel(k, &o, &r));
    cr_expect_eq(count_check(&r, "hms-placement"), 0);
    cr_expect_gt(low, 0);
    hms_kernel_report_free(&r);
    o.placement_threshold = 0;
    o.checks = "-*,hms-memory-bound";
    cr_assert(hms_analyze_kernel(k, &o, &r));
    cr_expect_eq(r.ndiagnostics, 1);
    cr_expect_str_eq(r.diagnostics[0].check, "hms-memory-bound");
    hms_kernel_report_free(&r);
    hms_analyzed_file_free(&f);
}

/* hms-shared-reuse is judged by the model: bigTable's direct-read variant
 * (a 32 KB table filled per block for 128 reads) is predicted 5.61x faster
 * on h100, so it is reported under a 1.1x threshold and not under 10x;
 * stagedCopy's (data reuse 1, one wave) is predicted 1.01x: reported only
 * under a threshold below that. */
Test(checks, shared_reuse_follows_the_predicted_speedup)
{
    hms_analyzed_file f;
    analyse("kernels/checks/misc.cu", "h100", &f);
    const ir_kernel *k = hms_af_kernel(&f, "bigTable");
    cr_assert(k);
    hms_analysis_options o = {0};
    o.arch = f.arch;
    o.checks = "-*,hms-shared-reuse";
    const double thresholds[] = {1.1, 10};
    const size_t want[] = {1, 0};
    for (int i = 0; i < 2; i++) {
        hms_kernel_report r;
        memset(&r, 0, sizeof r);
        o.placement_threshold = thresholds[i];
        cr_assert(hms_analyze_kernel(k, &o, &r));
        cr_expect_eq(count_check(&r, "hms-shared-reuse"), want[i], "threshold %g", thresholds[i]);
        hms_kernel_report_free(&r);
    }
    hms_analyzed_file_free(&f);
}

/* A 32 x 32 shared tile written by rows and read by columns (block 32 x 32):
 * the read is 32-way; one padding column removes it, so the fix-it inserts
 * " + 1" after the inner extent's text when the front end gave its range,
 * and the note names the padded declaration either way. */
static ir_kernel *column_read_tile(bool with_range)
{
    ir_kernel *k = fx_kernel("tile", 4, 4, 32, 32);
    int64_t dims[2] = {32, 32};
    int tile = fx_array(k, "tile", HMS_SPACE_SHARED, 4, 2, dims);
    k->arrays[tile].loc = (ir_loc){k->loc.file, 3, 23, 0, 0};
    if (with_range) {
        k->arrays[tile].dim_loc[0] = (ir_loc){k->loc.file, 3, 28, 3, 32};
        k->arrays[tile].dim_loc[1] = (ir_loc){k->loc.file, 3, 34, 3, 38};
    }
    k->static_shared_bytes = 4096;
    ir_expr *tx = fx_s(k, IR_SYM_TID_X), *ty = fx_s(k, IR_SYM_TID_Y);
    fx_body(k,
            fx_access(k, tile, HMS_ACCESS_STORE, fx_add(k, fx_mul(k, ty, fx_c(k, 32)), tx), 4, 5));
    fx_body(k, fx_simple(k, IR_S_SYNC));
    fx_body(k,
            fx_access(k, tile, HMS_ACCESS_LOAD, fx_add(k, fx_mul(k, tx, fx_c(k, 32)), ty), 4, 7));
    return k;
}

static const hms_finding *only_finding(const hms_kernel_report *r, const char *check)
{
    const hms_finding *f = NULL;
    for (size_t i = 0; i < r->ndiagnostics; i++)
        if (strcmp(r->diagnostics[i].check, check) == 0) {
            cr_assert_null(f, "two %s findings", check);
            f = &r->diagnostics[i];
        }
    cr_assert(f, "no %s finding", check);
    return f;
}

Test(checks, bank_conflict_padding_fixit)
{
    for (int range = 0; range < 2; range++) {
        ir_kernel *k = column_read_tile(range);
        hms_analysis_options o = {0};
        char err[256];
        o.arch = hms_arch_get("h100", err, sizeof err);
        o.checks = "-*,hms-shared-bank-conflict";
        hms_kernel_report r;
        memset(&r, 0, sizeof r);
        cr_assert(hms_analyze_kernel(k, &o, &r));
        const hms_finding *f = only_finding(&r, "hms-shared-bank-conflict");
        cr_expect_eq(f->line, 7);
        cr_expect(strstr(f->message, "32-way bank conflict: 32 wavefronts per request where 1 "
                                     "would do (lanes 32 floats apart in 'tile')"),
                  "%s", f->message);
        cr_expect(strstr(f->message, "padding the rows to [32][32 + 1] removes it"));
        cr_assert_eq(f->nnotes, 1);
        cr_expect_eq(f->notes[0].line, 3);
        cr_expect(strstr(f->notes[0].message, "declare 'tile' as tile[32][32 + 1]"));
        cr_expect(strstr(f->notes[0].message, "128 more bytes"));
        if (range) {
            cr_assert_eq(f->nfixits, 1);
            cr_expect_eq(f->fixits[0].line, 3);
            cr_expect_eq(f->fixits[0].col, 38);
            cr_expect_eq(f->fixits[0].end_line, 3);
            cr_expect_eq(f->fixits[0].end_col, 38);
            cr_expect_str_eq(f->fixits[0].replacement, " + 1");
        } else {
            cr_expect_eq(f->nfixits, 0);
        }
        hms_kernel_report_free(&r);
        ir_kernel_free(k);
    }
}

/* One hms-analysis-limit note per IR limit, at its location, with its hint. */
Test(checks, analysis_limit_notes)
{
    ir_kernel *k = fx_copy1d(4, 256, 1024);
    ir_add_limit(k, "call to 'opaque' not followed", "annotate its result with // hms-lint: ...",
                 (ir_loc){k->loc.file, 9, 3, 0, 0});
    ir_add_limit(k, "goto not represented", NULL, (ir_loc){k->loc.file, 11, 5, 0, 0});
    hms_analysis_options o = {0};
    o.checks = "-*,hms-analysis-limit";
    hms_kernel_report r;
    memset(&r, 0, sizeof r);
    cr_assert(hms_analyze_kernel(k, &o, &r));
    cr_assert_eq(r.ndiagnostics, 2, "%zu notes", r.ndiagnostics);
    cr_expect_eq(r.diagnostics[0].line, 9);
    cr_expect_str_eq(r.diagnostics[0].message,
                     "call to 'opaque' not followed; annotate its result with // hms-lint: ...");
    cr_expect_eq(r.diagnostics[0].severity, HMS_SEV_NOTE);
    cr_expect_eq(r.diagnostics[1].line, 11);
    cr_expect_str_eq(r.diagnostics[1].message, "goto not represented");
    hms_kernel_report_free(&r);
    ir_kernel_free(k);
}

/* A launch that cannot run still gets a report, with the reason. */
Test(checks, impossible_launch_is_a_limit)
{
    ir_kernel *k = fx_copy1d(4, 2048, 1024);
    hms_analysis_options o = {0};
    hms_kernel_report r;
    memset(&r, 0, sizeof r);
    cr_assert(hms_analyze_kernel(k, &o, &r));
    cr_expect_eq(r.naccesses, 0);
    cr_assert_eq(count_check(&r, "hms-analysis-limit"), 1);
    cr_expect(strstr(r.diagnostics[0].message, "block(2048,1,1) cannot run on h100"), "%s",
              r.diagnostics[0].message);
    hms_kernel_report_free(&r);
    ir_kernel_free(k);
}

/* ---- end to end: the same expectations through the binary's JSON report ---- */

#include <jansson.h>

static void check_file_json(const char *rel)
{
    char arches[4][16], path[4096];
    snprintf(path, sizeof path, "%s", hms_test_path(rel));
    size_t na = hms_expect_arches(path, arches, 4);
    for (size_t a = 0; a < na; a++) {
        char arch[64];
        snprintf(arch, sizeof arch, "--arch=%s", arches[a]);
        const char *argv[] = {"--format=json", "--fail-on=never", arch, path, NULL};
        hms_run_result run = hms_run(argv);
        cr_assert_eq(run.status, 0, "%s: exit %d\n%s", rel, run.status, run.err);
        json_error_t je;
        json_t *root = json_loads(run.out, 0, &je);
        cr_assert(root, "%s: not JSON: %s", rel, je.text);
        json_t *kernels =
            json_object_get(json_array_get(json_object_get(root, "files"), 0), "kernels");
        cr_assert(json_is_array(kernels));
        hms_seen_list seen = {0};
        size_t cap = 0;
        seen.kernel_lines = calloc(json_array_size(kernels) + 1, sizeof *seen.kernel_lines);
        size_t ki;
        json_t *k;
        json_array_foreach(kernels, ki, k)
        {
            seen.kernel_lines[seen.nkernels++] =
                (unsigned)json_integer_value(json_object_get(k, "line"));
            size_t di;
            json_t *d;
            json_array_foreach(json_object_get(k, "diagnostics"), di, d)
            {
                if (seen.n == cap) {
                    cap = cap ? cap * 2 : 64;
                    seen.v = realloc(seen.v, cap * sizeof *seen.v);
                    cr_assert(seen.v);
                }
                seen.v[seen.n++] =
                    (hms_seen){json_string_value(json_object_get(d, "check")),
                               json_string_value(json_object_get(d, "severity")),
                               json_string_value(json_object_get(d, "message")),
                               (unsigned)json_integer_value(json_object_get(d, "line"))};
            }
        }
        size_t nd = 0;
        char *fail = hms_check_expectations(path, arches[a], &seen, &nd);
        cr_expect(fail == NULL, "%s", fail ? fail : "");
        cr_expect_gt(nd, 0);
        free(fail);
        free(seen.v);
        free(seen.kernel_lines);
        json_decref(root);
        hms_run_free(&run);
    }
}

Test(checks, end_to_end_through_the_binary)
{
    static const char *files[] = {"kernels/checks/transpose.cu",   "kernels/checks/matmul.cu",
                                  "kernels/checks/convolution.cu", "kernels/checks/reduction.cu",
                                  "kernels/checks/cumapz.cu",      "kernels/checks/misc.cu"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        check_file_json(files[i]);
}

/* 128-bit accesses and per-thread arrays (kernels/checks/packed_registers.cu):
 * a 16-byte access per lane over 32 consecutive lanes moves 512 bytes, 16
 * sectors in 4 lines, and reports 16 bytes per lane on the float array it
 * came from; register arrays have no sites; local memory interleaves the
 * lanes' words, so a uniform index is 4 sectors in 1 line. */
Test(checks, packed_register_metrics_by_hand)
{
    hms_analyzed_file f;
    analyse("kernels/checks/packed_registers.cu", "h100", &f);
    cr_assert_eq(f.nkernels, 4);
    for (size_t k = 0; k < f.nkernels; k++) {
        const hms_kernel_report *r = &f.reports[k];
        for (size_t i = 0; i < r->naccesses; i++) {
            cr_expect(strcmp(r->accesses[i].array, "<unknown>") != 0, "%s line %u", r->name,
                      r->accesses[i].line);
            cr_expect(r->accesses[i].exact, "%s line %u", r->name, r->accesses[i].line);
        }
    }
    /* gelu_packed: 16 blocks x 4 warps, one 16-byte load and store each */
    const hms_kernel_report *g = &f.reports[0];
    cr_assert_eq(g->naccesses, 2);
    const hms_access_metrics *ld = access_at(g, 27, "in", "load");
    cr_expect_eq(ld->element_bytes, 16);
    cr_expect_eq(ld->requests, 64);
    cr_expect_float_eq(ld->sectors_per_request, 16.0, 1e-9);
    cr_expect_float_eq(ld->lines_per_request, 4.0, 1e-9);
    const hms_access_metrics *st = access_at(g, 31, "out", "store");
    cr_expect_eq(st->element_bytes, 16);
    cr_expect_float_eq(st->sectors_per_request, 16.0, 1e-9);
    /* regtile: only the global A, B and C sites; acc, a and b are registers */
    const hms_kernel_report *t = &f.reports[2];
    cr_expect_eq(t->naccesses, 3);
    for (size_t i = 0; i < t->naccesses; i++)
        cr_expect(strcmp(t->accesses[i].space, "local") != 0, "regtile: a local access at line %u",
                  t->accesses[i].line);
    /* window_local: the uniform win[j] is coalesced local memory */
    const hms_kernel_report *w = &f.reports[3];
    const hms_access_metrics *wl = access_at(w, 97, "win", "load");
    cr_expect_str_eq(wl->space, "local");
    cr_expect_float_eq(wl->sectors_per_request, 4.0, 1e-9);
    cr_expect_float_eq(wl->lines_per_request, 1.0, 1e-9);
    hms_analyzed_file_free(&f);
}

/* Shared memory is never a placement for an array whose staging cannot pay
 * (kernels/checks/staging.cu): elements each read once by coalesced loads,
 * or reused only by the thread that read them (a register's reuse). On
 * every built-in GPU with a shared-memory candidate, the option is illegal
 * and says why. */
static const hms_placement_option *shared_option(const hms_kernel_report *r, const char *array)
{
    for (size_t i = 0; i < r->nplacements; i++) {
        if (strcmp(r->placements[i].array, array) != 0)
            continue;
        for (size_t j = 0; j < r->placements[i].noptions; j++)
            if (strcmp(r->placements[i].options[j].space, "shared") == 0)
                return &r->placements[i].options[j];
    }
    return NULL;
}

Test(checks, shared_placement_needs_reuse_by_the_block)
{
    const char *arches[] = {"kepler", "v100", "a100", "h100"};
    for (size_t a = 0; a < sizeof arches / sizeof *arches; a++) {
        hms_analyzed_file f;
        analyse("kernels/checks/staging.cu", arches[a], &f);
        const hms_placement_option *o = shared_option(hms_af_report(&f, "rowMean"), "inp");
        cr_assert(o, "%s", arches[a]);
        cr_expect_not(o->legal, "%s", arches[a]);
        cr_expect(o->reason && strstr(o->reason, "read once per block by coalesced loads"),
                  "%s: %s", arches[a], o->reason ? o->reason : "(none)");
        o = shared_option(hms_af_report(&f, "rowCentreOwn"), "inp");
        cr_assert(o, "%s", arches[a]);
        cr_expect_not(o->legal, "%s", arches[a]);
        cr_expect(o->reason && strstr(o->reason, "reuses only the elements of inp it read itself"),
                  "%s: %s", arches[a], o->reason ? o->reason : "(none)");
        hms_analyzed_file_free(&f);
    }
}
