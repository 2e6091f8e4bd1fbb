/* Property test: no reported figure crosses a physical bound. Every kernel
 * of every .cu file under testsuite/kernels is analysed on every built-in
 * architecture; its report must keep the predicted time at or above each
 * roofline bound (and equal to the largest), the DRAM rate at or below the
 * peak, ratios within [0, 1], and latencies finite and below a cap no
 * loaded memory system reaches. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "passes/analyze.h"
#include "passes/findings.h"
#include "runtime/arch.h"
#include "runtime/roofline.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/run.h"

TestSuite(bounds, .timeout = 600);

typedef struct {
    char **v;
    size_t n, cap;
} path_list;

static void collect(const char *dir, path_list *l)
{
    DIR *d = opendir(dir);
    cr_assert(d, "cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) != 0)
            continue;
        size_t len = strlen(e->d_name);
        if (S_ISDIR(st.st_mode)) {
            collect(p, l);
        } else if (len > 3 && strcmp(e->d_name + len - 3, ".cu") == 0) {
            if (l->n == l->cap) {
                l->cap = l->cap ? 2 * l->cap : 64;
                l->v = realloc(l->v, l->cap * sizeof *l->v);
                cr_assert(l->v);
            }
            l->v[l->n++] = strdup(p);
        }
    }
    closedir(d);
}

static void ratio(double v, const char *what, const char *where)
{
    if (v < 0) /* not evaluated (null in JSON) */
        return;
    cr_expect(v <= 1 + 1e-9 && isfinite(v), "%s: %s = %g outside [0, 1]", where, what, v);
}

/* Mean access latency cap (cycles): the slowest unloaded path (TLB miss, L2,
 * a DRAM row conflict) plus the time DRAM needs at peak bandwidth to drain
 * every request that can be outstanding (every warp slot of every SM with a
 * request whose 32 lanes each miss a 128-byte line): the closed-system bound
 * the DRAM queue model saturates to (runtime/dram.h). */
static double latency_cap(const hms_arch *a)
{
    double bpc = a->dram_bandwidth_gbs / a->clock_ghz;
    double l2 = a->l2.line_bytes ? a->l2.line_bytes : 32;
    double lines = 32.0 * (a->line_bytes > l2 ? a->line_bytes / l2 : 1);
    double drain = a->max_warps_per_sm * (double)a->sm_count * lines * l2 / bpc;
    double unloaded = a->global_latency_tlb_miss + a->global_latency_l2_hit +
                      a->dram_row_conflict_ns * a->clock_ghz + a->texture_latency_hit;
    return unloaded + drain;
}

static void check_report(const hms_kernel_report *r, const hms_arch *a, const char *where)
{
    const hms_model_figures *m = &r->model;
    ratio(m->occupancy, "occupancy", where);
    ratio(m->shm_eff, "shm_eff", where);
    ratio(m->branch_eff, "branch_eff", where);
    ratio(m->dram_row_hit_rate, "DRAM row-buffer hit rate", where);
    ratio(m->pmr, "pure-miss ratio", where);
    for (size_t i = 0; i < r->naccesses; i++) {
        double lat = r->accesses[i].latency_cycles;
        cr_expect(isfinite(lat) && lat >= 0 && lat < latency_cap(a),
                  "%s: access at line %u: mean latency %g cycles", where, r->accesses[i].line, lat);
    }
    if (m->predicted_time < 0)
        return; /* the model did not run (no global access): nothing timed */
    const double bounds[] = {m->bound_model,  m->bound_dram, m->bound_l2,
                             m->bound_shared, m->bound_fp32, m->bound_issue};
    double most = 0;
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
        cr_expect(isfinite(bounds[i]) && bounds[i] >= 0, "%s: bound %zu = %g", where, i, bounds[i]);
        cr_expect(m->predicted_time >= bounds[i] * (1 - 1e-12), "%s: time %g below bound %zu = %g",
                  where, m->predicted_time, i, bounds[i]);
        most = fmax(most, bounds[i]);
    }
    cr_expect(fabs(m->predicted_time - most) <= 1e-9 * most,
              "%s: time %g is not the largest bound %g", where, m->predicted_time, most);
    cr_expect(m->binding != NULL, "%s: no binding bound", where);
    cr_expect(m->dram_gbs <= a->dram_bandwidth_gbs * (1 + 1e-9),
              "%s: DRAM %g GB/s over the %g peak", where, m->dram_gbs, a->dram_bandwidth_gbs);
    /* FLOPs over the predicted time within the FP32 peak */
    double lanes = a->fp32_lanes > 0 ? a->fp32_lanes : a->simd_width * a->schedulers_per_sm;
    double peak = 2 * lanes * a->sm_count; /* FLOPs per cycle */
    if (m->predicted_time > 0)
        cr_expect(m->flops / m->predicted_time <= peak * (1 + 1e-9),
                  "%s: %g FLOPs in %g cycles exceed the FP32 peak", where, m->flops,
                  m->predicted_time);
}

/* Blocks simulated per kernel: a small sample keeps every kernel on every
 * architecture within the test's time; figures are scaled to the grid as
 * always, so the bounds must hold all the same. */
#define SAMPLE_BLOCKS 8

/* Every kernel file parsed once, analysed on architectures [from, to). */
static void every_kernel(size_t from, size_t to)
{
    size_t narch = hms_arch_builtin_count();
    cr_assert_leq(from, narch);
    to = to < narch ? to : narch;
    path_list files = {0};
    collect(hms_test_path("kernels"), &files);
    cr_assert_gt(files.n, 10, "too few kernel files found");
    size_t checked = 0, timed = 0;
    for (size_t f = 0; f < files.n; f++) {
        hms_analyzed_file af;
        if (hms_build_file(files.v[f], NULL, &af)) { /* else: a bad-input test file */
            for (size_t ai = from; ai < to; ai++) {
                const hms_arch *a = hms_arch_builtin(ai);
                for (size_t k = 0; k < af.nkernels; k++) {
                    hms_analysis_options o = {0};
                    o.arch = a;
                    o.checks = "-*"; /* figures only */
                    o.max_blocks = SAMPLE_BLOCKS;
                    hms_kernel_report r;
                    memset(&r, 0, sizeof r);
                    hms_analyze_kernel(af.kernels[k], &o, &r);
                    char where[512];
                    snprintf(where, sizeof where, "%s [%s] %s", files.v[f], a->name,
                             r.name ? r.name : "?");
                    check_report(&r, a, where);
                    checked++;
                    timed += r.model.predicted_time >= 0;
                    hms_kernel_report_free(&r);
                }
            }
        }
        hms_analyzed_file_free(&af);
        free(files.v[f]);
    }
    free(files.v);
    cr_expect_gt(timed, checked / 2, "only %zu of %zu kernel reports were timed", timed, checked);
}

/* Two halves of the built-in architectures, each within the time limit. */
Test(bounds, first_half_of_arches)
{
    every_kernel(0, hms_arch_builtin_count() / 2);
}

Test(bounds, second_half_of_arches)
{
    every_kernel(hms_arch_builtin_count() / 2, hms_arch_builtin_count());
}

/* runtime/roofline.c on hand-worked H100 numbers (132 SMs, 1.98 GHz,
 * 3352 GB/s, 128 FP32 lanes and 4 x 32/32 warp instructions per SM-cycle,
 * L2 5120 bytes per cycle). */
Test(bounds, roofline_by_hand)
{
    char err[256];
    const hms_arch *a = hms_arch_get("h100", err, sizeof err);
    cr_assert(a, "%s", err);
    double bpc = 3352 / 1.98; /* DRAM bytes per cycle */
    hms_roofline_in in = {0};
    in.model_time = 100;
    in.dram_bytes = 1000 * bpc;         /* 1000 cycles */
    in.l2_bytes = 5120 * 300.0;         /* 300 */
    in.shared_wavefronts = 132 * 200.0; /* 200 per SM */
    in.flops = 2 * 128 * 132 * 500.0;   /* 500 */
    in.warp_insts = 4 * 132 * 50.0;     /* 50 */
    in.blocks = 132;
    hms_roofline r;
    hms_roofline_compute(a, &in, &r);
    cr_expect_float_eq(r.bound[HMS_RL_DRAM], 1000, 1e-6);
    cr_expect_float_eq(r.bound[HMS_RL_L2], 300, 1e-9);
    cr_expect_float_eq(r.bound[HMS_RL_SHARED], 200, 1e-9);
    cr_expect_float_eq(r.bound[HMS_RL_FP32], 500, 1e-9);
    cr_expect_float_eq(r.bound[HMS_RL_ISSUE], 50, 1e-9);
    cr_expect_eq(r.binding, HMS_RL_DRAM);
    cr_expect_float_eq(r.time, 1000, 1e-6);
    cr_expect_str_eq(hms_roofline_name(r.binding), "dram");

    /* One block more than SMs: the busiest SM runs 2 of 133 blocks, so the
     * per-SM bounds grow by 2 * 132 / 133 (the tail wave); DRAM does not. */
    in.blocks = 133;
    hms_roofline_compute(a, &in, &r);
    cr_expect_float_eq(r.bound[HMS_RL_FP32], 500 * 2 * 132 / 133.0, 1e-9);
    cr_expect_float_eq(r.bound[HMS_RL_DRAM], 1000, 1e-6);
    cr_expect_eq(r.binding, HMS_RL_DRAM);

    /* Partition camping: rounds of blocks that use a quarter of the
     * channels move their bytes at a quarter of the peak. */
    in.dram_channel_factor = 4;
    hms_roofline_compute(a, &in, &r);
    cr_expect_float_eq(r.bound[HMS_RL_DRAM], 4000, 1e-6);
    in.dram_channel_factor = 0.5; /* below 1 is no camping */
    hms_roofline_compute(a, &in, &r);
    cr_expect_float_eq(r.bound[HMS_RL_DRAM], 1000, 1e-6);
    in.dram_channel_factor = 0;

    /* The model binds when nothing saturates; bad inputs count as 0. */
    hms_roofline_in q = {0};
    q.model_time = 5000;
    q.dram_bytes = NAN;
    q.flops = -1;
    q.blocks = 1;
    hms_roofline_compute(a, &q, &r);
    cr_expect_eq(r.binding, HMS_RL_MODEL);
    cr_expect_float_eq(r.time, 5000, 1e-9);
    cr_expect_float_eq(r.bound[HMS_RL_DRAM], 0, 1e-12);
}

/* The front end's FP count reaches the report: 256 threads x (16 FMAs in a
 * loop + 1 FMA + 1 divide) = 256 x 35 FLOPs (testsuite/kernels/ir/fp_work.cu). */
Test(bounds, fp_work_counted)
{
    hms_analyzed_file af;
    const char *args[] = {"--checks=-*", NULL};
    cr_assert(hms_analyze_file(hms_test_path("kernels/ir/fp_work.cu"), args, &af), "%s", af.error);
    const hms_kernel_report *r = hms_af_report(&af, "dot16");
    cr_assert(r);
    cr_expect_float_eq(r->model.flops, 256 * 35.0, 1e-9);
    cr_expect(r->model.bound_fp32 > 0);
    hms_analyzed_file_free(&af);
}
