/* The reach probe (passes/analyze.h hms_analyze_no_access_runs): a trace
 * that only asks whether any access runs. It may say "none" only when the
 * full analysis traces no access execution at all, and must give no verdict
 * when a budget cut the trace. analyzer/frontend/keep_alive.c uses it to run
 * the retries of a kernel whose defaults kill every thread before the
 * (discarded) first analysis; that path must give the reports the plain
 * order gives. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyzer/frontend/keep_alive.h"
#include "passes/analyze.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/ir_fixtures.h"
#include "testsuite/support/run.h"

TestSuite(reach_probe, .timeout = 600);

static double total_requests(const hms_kernel_report *r)
{
    double n = 0;
    for (size_t i = 0; i < r->naccesses; i++)
        n += r->accesses[i].requests;
    return n;
}

/* The full analysis's answer: sites, and no access execution among them. */
static bool analysis_reaches_none(const ir_kernel *k, const hms_analysis_options *o)
{
    hms_kernel_report r;
    memset(&r, 0, sizeof r);
    bool ok = hms_analyze_kernel(k, o, &r);
    bool none = ok && r.naccesses > 0 && total_requests(&r) == 0;
    hms_kernel_report_free(&r);
    return none;
}

static hms_analysis_options h100(void)
{
    hms_analysis_options o = {0};
    char err[256];
    o.arch = hms_arch_get("h100", err, sizeof err);
    cr_assert(o.arch, "%s", err);
    o.checks = "-*";
    return o;
}

Test(reach_probe, a_guard_no_thread_passes_is_none)
{
    hms_analysis_options o = h100();
    ir_kernel *k = fx_copy1d(64, 128, 0); /* if (i < 0) ... */
    cr_expect(hms_analyze_no_access_runs(k, &o));
    cr_expect(analysis_reaches_none(k, &o));
    ir_kernel_free(k);
}

/* A sampled grid that the stopping rule may cut short is not probed (the
 * probe traces the whole sample: it could cost more than it saves). */
Test(reach_probe, a_sampled_grid_under_the_stopping_rule_is_not_probed)
{
    hms_analysis_options o = h100();
    ir_kernel *k = fx_copy1d(100000, 128, 0);
    cr_expect_not(hms_analyze_no_access_runs(k, &o));
    ir_kernel_free(k);
}

/* Only the grid's last thread passes: the probe must trace every block. */
Test(reach_probe, one_thread_of_the_last_block_is_found)
{
    hms_analysis_options o = h100();
    ir_kernel *k = fx_copy1d(64, 128, 64 * 128 - 1);
    k->body->items.v[1]->cond->op = IR_OP_GE; /* i >= n: the last thread only */
    cr_expect_not(hms_analyze_no_access_runs(k, &o));
    cr_expect_not(analysis_reaches_none(k, &o));
    ir_kernel_free(k);
}

/* for (i = 0; i < 2^21; i = i + 1) if (i < 0) out[i] = 0;
 * The loop outlasts the steps a warp may take: the budget cuts it and no
 * access runs, but a cut trace proves nothing (the cut makes values
 * unknown), so the probe gives no verdict. */
Test(reach_probe, a_budget_cut_gives_no_verdict)
{
    hms_analysis_options o = h100();
    ir_kernel *k = fx_kernel("long_loop", 1, 1, 32, 1);
    int out = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int i = fx_local(k, "i");
    ir_stmt *body = fx_if(k, fx_lt(k, fx_v(k, i), fx_c(k, 0)),
                          fx_access(k, out, HMS_ACCESS_STORE, fx_v(k, i), 4, 3), NULL);
    fx_body(k, fx_loop(k, fx_assign(k, i, fx_c(k, 0)), fx_lt(k, fx_v(k, i), fx_c(k, 1 << 21)),
                       fx_assign(k, i, fx_add(k, fx_v(k, i), fx_c(k, 1))), body, 2));
    cr_expect_not(hms_analyze_no_access_runs(k, &o));
    cr_expect(analysis_reaches_none(k, &o), "the full analysis reaches no access either");
    ir_kernel_free(k);
}

/* A kernel with a small default (value_source "default", 64) whose guard no
 * thread passes whatever the default: the retries fail and the first
 * analysis, made last, is the report, with k as it was. */
Test(reach_probe, keep_alive_falls_back_to_the_first_analysis)
{
    hms_analysis_options o = h100();
    ir_kernel *k = fx_copy1d(4, 64, 0);
    int it = fx_param(k, "iteration", true, 64);
    k->vars[it].value_source = "default";
    /* if (i < n * iteration): 0 * anything */
    ir_expr *c = k->body->items.v[1]->cond;
    c->b = fx_mul(k, c->b, fx_v(k, it));
    size_t nlimits = k->nlimits;
    cr_assert(hms_analyze_no_access_runs(k, &o));

    hms_kernel_report plain, kept;
    memset(&plain, 0, sizeof plain);
    memset(&kept, 0, sizeof kept);
    cr_assert(hms_analyze_kernel(k, &o, &plain));
    cr_assert(hms_analyze_keep_alive(k, &o, &kept));
    cr_expect_eq(k->vars[it].value, 64, "the default is put back");
    cr_expect_eq(k->nlimits, nlimits, "no retry note is left");
    cr_expect_eq(kept.naccesses, plain.naccesses);
    cr_expect_eq(total_requests(&kept), 0);
    cr_expect_eq(kept.model.predicted_time, plain.model.predicted_time);
    cr_expect_eq(kept.ndiagnostics, plain.ndiagnostics);
    hms_kernel_report_free(&plain);
    hms_kernel_report_free(&kept);
    ir_kernel_free(k);
}

/* ---- every test kernel ------------------------------------------------------ */

typedef struct {
    char **v;
    size_t n, cap;
} path_list;

static void collect(const char *dir, path_list *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            collect(p, out);
            continue;
        }
        size_t len = strlen(p);
        if (len < 3 || strcmp(p + len - 3, ".cu") != 0)
            continue;
        if (out->n == out->cap) {
            out->cap = out->cap ? out->cap * 2 : 64;
            out->v = realloc(out->v, out->cap * sizeof *out->v);
            cr_assert(out->v);
        }
        out->v[out->n++] = strdup(p);
    }
    closedir(d);
}

/* Soundness over every test kernel under its default values: wherever the
 * probe says no access runs, the full analysis traces none. */
Test(reach_probe, none_only_where_the_analysis_reaches_none)
{
    hms_analysis_options o = h100();
    path_list files = {0};
    collect(hms_test_path("kernels"), &files);
    cr_assert_gt(files.n, 10, "too few kernel files found");
    size_t kernels = 0, none = 0;
    for (size_t f = 0; f < files.n; f++) {
        hms_analyzed_file af;
        if (hms_build_file(files.v[f], NULL, &af)) /* else: a bad-input test file */
            for (size_t i = 0; i < af.nkernels; i++) {
                const ir_kernel *k = af.kernels[i];
                kernels++;
                if (!hms_analyze_no_access_runs(k, &o))
                    continue;
                none++;
                cr_expect(analysis_reaches_none(k, &o), "%s: %s: the probe said no access runs",
                          files.v[f], k->name ? k->name : "?");
            }
        hms_analyzed_file_free(&af);
        free(files.v[f]);
    }
    free(files.v);
    cr_log_info("the probe said no access runs for %zu of %zu kernels", none, kernels);
    cr_expect_gt(kernels, 100);
    cr_expect_gt(none, 0, "some kernel reaches no access under its defaults (pyramid_defaults)");
}
