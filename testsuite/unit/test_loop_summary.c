/* Long loops (passes/trace/trace_summary.c, passes/trace/loop_period.h): a periodic loop
 * is summarised from a few traced iterations and its records carry repeat
 * counts; the code after every loop is traced. Kernels: testsuite/kernels/
 * loops/long_loops.cu (a tiled SGEMM, a grid-stride SAXPY, a row sum with a
 * tree and one store per block, a non-affine table walk). The brute-force
 * per-thread comparison of the same kernels is in test_metrics_bruteforce.c. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "passes/trace/stream_gen.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/run.h"

TestSuite(loop_summary, .timeout = 600);

#define LOOPS_CU "kernels/loops/long_loops.cu"

static void analyse(const char *const *extra, hms_analyzed_file *f)
{
    const char *args[16] = {"--arch=h100"};
    size_t n = 1;
    for (size_t i = 0; extra[i] && n < 15; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    cr_assert(hms_analyze_file(hms_test_path(LOOPS_CU), args, f), "%s", f->error);
}

/* The access of kernel report r at source line `line` of the given kind. */
static const hms_access_metrics *site_at(const hms_kernel_report *r, unsigned line,
                                         const char *kind)
{
    for (size_t i = 0; i < r->naccesses; i++)
        if (r->accesses[i].line == line && !strcmp(r->accesses[i].kind, kind))
            return &r->accesses[i];
    cr_assert_fail("no %s at line %u", kind, line);
    return NULL;
}

static bool has_note(const hms_kernel_trace *t, const char *needle)
{
    for (size_t i = 0; i < t->nnotes; i++)
        if (strstr(t->notes[i], needle))
            return true;
    return false;
}

Test(loop_summary, gemm_long_k_loop_reaches_the_epilogue)
{
    /* 4x4 blocks of 16x16 threads (8 warps), K = 4096: 256 iterations of the
     * K loop, 16 of the inner loop each. */
    const char *a[] = {"--launch=sgemmTiled:grid=4,4:block=16,16", "--param=sgemmTiled.M=64",
                       "--param=sgemmTiled.N=64", "--param=sgemmTiled.K=4096", NULL};
    hms_analyzed_file f;
    analyse(a, &f);
    const hms_kernel_report *r = hms_af_report(&f, "sgemmTiled");
    cr_assert(r);
    cr_assert_not(r->sampled, "16 blocks fit the sample once the loop is summarised");
    double warps = 16 * 8, iters = 4096 / 16;
    cr_expect_eq(site_at(r, 19, "load")->requests, warps * iters);      /* A */
    cr_expect_eq(site_at(r, 20, "load")->requests, warps * iters);      /* B */
    cr_expect_eq(site_at(r, 23, "load")->requests, warps * iters * 16); /* As */
    const hms_access_metrics *cl = site_at(r, 26, "load"), *cs = site_at(r, 26, "store");
    cr_expect_eq(cl->requests, warps, "the epilogue's C load runs once per warp");
    cr_expect_eq(cs->requests, warps, "the epilogue's C store runs once per warp");
    /* a warp covers two rows of 16 floats: two 64-byte pieces = 4 sectors */
    cr_expect_eq(cs->sectors_per_request, 4);
    cr_expect_eq(site_at(r, 19, "load")->sectors_per_request, 4);
    /* each iteration moves A by 64 bytes: both alignments cover 4 sectors in
     * 2 lines, so the summary is exact */
    cr_expect(site_at(r, 19, "load")->exact);
    cr_expect(cs->exact);
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(hms_af_kernel(&f, "sgemmTiled"), NULL, &t), "%s", t.error);
    cr_expect(t.loops_summarised);
    cr_expect_not(t.budget_exhausted);
    cr_expect(has_note(&t, "summarised from the last"));
    hms_kernel_trace_free(&t);
    hms_analyzed_file_free(&f);
}

/* Per-site sums over a trace's records, each counted 1 + extra times. */
typedef struct {
    double execs, lanes, sectors, lines, words;
    uint64_t last_time; /* of the site's last record */
} site_sum;

static double chunks(const hms_warp_access *r, uint64_t gran)
{
    uint64_t v[32];
    int n = 0, d = 0;
    for (int l = 0; l < 32; l++)
        if (r->mask >> l & 1)
            v[n++] = r->addr[l] / gran;
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = v[j] == v[i];
        d += !seen;
    }
    return d;
}

static site_sum *sums(const hms_kernel_trace *t)
{
    site_sum *s = calloc(t->nsites ? t->nsites : 1, sizeof *s);
    for (size_t i = 0; i < t->stream.n; i++) {
        const hms_warp_access *r = &t->stream.v[i];
        double reps = hms_record_reps(r);
        site_sum *x = &s[r->site];
        x->execs += reps;
        x->lanes += reps * __builtin_popcount(r->mask);
        x->sectors += reps * chunks(r, 32);
        x->lines += reps * chunks(r, 128);
        x->words += reps * chunks(r, 4);
        if (r->time > x->last_time)
            x->last_time = r->time;
    }
    return s;
}

/* The summarised trace stands for exactly the records the full trace has:
 * per site the same executions, lanes, sectors, lines and words, the same
 * exactness, and the epilogue issued at the same instruction time. */
static void assert_summary_equals_full(const char *kernel, const char *const *args,
                                       const char *note)
{
    hms_analyzed_file f;
    analyse(args, &f);
    const ir_kernel *k = hms_af_kernel(&f, kernel);
    cr_assert(k, "%s", kernel);
    hms_trace_options full = {0};
    full.loop_summary_after = UINT32_MAX;
    hms_kernel_trace ts, tf;
    cr_assert(hms_trace_kernel(k, NULL, &ts), "%s", ts.error);
    cr_assert(hms_trace_kernel(k, &full, &tf), "%s", tf.error);
    cr_assert(ts.loops_summarised, "%s: the loop was summarised", kernel);
    cr_assert(!note || has_note(&ts, note), "%s: a note saying \"%s\"", kernel, note);
    cr_assert_not(tf.loops_summarised);
    cr_assert_not(tf.budget_exhausted || tf.sampled, "%s: the full trace is complete", kernel);
    cr_assert_lt(ts.stream.n * 2, tf.stream.n, "%s: %zu records summarised vs %zu", kernel,
                 ts.stream.n, tf.stream.n);
    site_sum *a = sums(&ts), *b = sums(&tf);
    for (size_t i = 0; i < k->nsites; i++) {
        cr_expect_eq(a[i].execs, b[i].execs, "%s site %zu: %g vs %g executions", kernel, i,
                     a[i].execs, b[i].execs);
        cr_expect_eq(a[i].lanes, b[i].lanes, "%s site %zu lanes", kernel, i);
        cr_expect_eq(a[i].sectors, b[i].sectors, "%s site %zu: %g vs %g sectors", kernel, i,
                     a[i].sectors, b[i].sectors);
        cr_expect_eq(a[i].lines, b[i].lines, "%s site %zu lines", kernel, i);
        cr_expect_eq(a[i].words, b[i].words, "%s site %zu words", kernel, i);
        cr_expect_eq(ts.sites[i].requests, tf.sites[i].requests, "%s site %zu requests", kernel, i);
        cr_expect_eq(ts.sites[i].inexact, tf.sites[i].inexact, "%s site %zu exactness", kernel, i);
        cr_expect_eq(ts.sites[i].partial, tf.sites[i].partial, "%s site %zu partial", kernel, i);
    }
    /* the last site is after the loop: same issue time, barriers included */
    size_t last = k->nsites - 1;
    cr_expect_eq(a[last].last_time, b[last].last_time, "%s: epilogue time %llu vs %llu", kernel,
                 (unsigned long long)a[last].last_time, (unsigned long long)b[last].last_time);
    free(a);
    free(b);
    hms_kernel_trace_free(&ts);
    hms_kernel_trace_free(&tf);
    hms_analyzed_file_free(&f);
}

Test(loop_summary, gemm_summary_equals_full_trace)
{
    const char *a[] = {"--launch=sgemmTiled:grid=2,2:block=16,16", "--param=sgemmTiled.M=32",
                       "--param=sgemmTiled.N=32", "--param=sgemmTiled.K=1024", NULL};
    assert_summary_equals_full("sgemmTiled", a, NULL);
}

Test(loop_summary, grid_stride_summary_equals_full_trace)
{
    /* 512 threads over 65636 elements: 128 full iterations, then a partial one */
    const char *a[] = {"--launch=saxpyGridStride:grid=4:block=128",
                       "--param=saxpyGridStride.n=65636", NULL};
    assert_summary_equals_full("saxpyGridStride", a, NULL);
}

Test(loop_summary, row_sum_summary_equals_full_trace)
{
    const char *a[] = {"--launch=rowSum:grid=4:block=128", "--param=rowSum.n=8197", NULL};
    assert_summary_equals_full("rowSum", a, NULL);
}

Test(loop_summary, sliding_window_period_of_four_equals_full_trace)
{
    const char *a[] = {"--launch=slidingWindow:grid=2:block=64", "--param=slidingWindow.n=203",
                       NULL};
    /* the representatives are the last four traced iterations */
    assert_summary_equals_full("slidingWindow", a, "summarised from the last 4 traced");
}

Test(loop_summary, grid_stride_over_a_huge_n)
{
    /* 2^24 elements, 2048 threads: 8192 iterations per thread */
    const char *a[] = {"--launch=saxpyGridStride:grid=8:block=256",
                       "--param=saxpyGridStride.n=16777216", NULL};
    hms_analyzed_file f;
    analyse(a, &f);
    const hms_kernel_report *r = hms_af_report(&f, "saxpyGridStride");
    cr_assert(r);
    for (size_t i = 0; i < r->naccesses; i++) {
        cr_expect_eq(r->accesses[i].requests, 16777216.0 / 32, "line %u col %u",
                     r->accesses[i].line, r->accesses[i].col);
        cr_expect_eq(r->accesses[i].sectors_per_request, 4);
        cr_expect(r->accesses[i].exact);
    }
    hms_analyzed_file_free(&f);
}

Test(loop_summary, reduction_store_after_long_serial_loop)
{
    /* 8 blocks of 128 threads, rows of 2^20: 8192 iterations per thread */
    const char *a[] = {"--launch=rowSum:grid=8:block=128", "--param=rowSum.n=1048576", NULL};
    hms_analyzed_file f;
    analyse(a, &f);
    const hms_kernel_report *r = hms_af_report(&f, "rowSum");
    cr_assert(r);
    cr_expect_eq(site_at(r, 44, "load")->requests, 8 * 4 * 8192.0);
    cr_expect_eq(site_at(r, 45, "store")->requests, 8 * 4.0, "partial[tid] = sum");
    cr_expect_eq(site_at(r, 53, "store")->requests, 8.0, "if (tid == 0) out[blockIdx.x]");
    cr_expect_eq(site_at(r, 53, "store")->sectors_per_request, 1);
    hms_analyzed_file_free(&f);
}

Test(loop_summary, non_affine_loop_is_cut_and_code_after_it_runs)
{
    /* j = (j * 5 + 1) % n is not affine in the iteration: no summary; each
     * warp's step budget cuts the loop, and the store after it still runs
     * in every warp, with the loop's variables unknown (inexact). */
    const char *a[] = {"--launch=tableWalk:grid=2:block=64", "--param=tableWalk.n=4096",
                       "--param=tableWalk.steps=1000000", NULL};
    hms_analyzed_file f;
    analyse(a, &f);
    const ir_kernel *k = hms_af_kernel(&f, "tableWalk");
    hms_trace_options o = {0};
    o.max_steps_per_warp = 20000;
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, &o, &t), "%s", t.error);
    cr_expect_not(t.loops_summarised);
    cr_expect(t.budget_exhausted);
    cr_expect_not(t.sampled);
    cr_expect(has_note(&t, "the rest of that loop was cut"));
    size_t store = k->nsites - 1;
    cr_assert_eq(k->sites[store]->kind, HMS_ACCESS_STORE);
    cr_expect_eq(t.sites[store].requests, 4, "one store per warp, 2 blocks x 2 warps");
    cr_expect_eq(t.sites[store].inexact, 4);
    cr_expect_gt(t.sites[0].requests, 4 * 1000, "the loop ran until the budget");
    cr_expect_lt(t.sites[0].requests, 4 * 20000);
    hms_kernel_trace_free(&t);
    hms_analyzed_file_free(&f);
}

Test(loop_summary, brute_force_sizes_are_summarised)
{
    /* the sizes test_metrics_bruteforce.c's long_loops compares with the
     * per-thread reference: their reports rest on summarised loops */
    const char *a[] = {"--launch=sgemmTiled:grid=2,2:block=16,16",
                       "--param=sgemmTiled.M=32",
                       "--param=sgemmTiled.N=32",
                       "--param=sgemmTiled.K=512",
                       "--launch=saxpyGridStride:grid=4:block=128",
                       "--param=saxpyGridStride.n=20000",
                       "--launch=rowSum:grid=4:block=128",
                       "--param=rowSum.n=4100",
                       "--launch=slidingWindow:grid=2:block=64",
                       "--param=slidingWindow.n=103",
                       NULL};
    hms_analyzed_file f;
    analyse(a, &f);
    const char *names[] = {"sgemmTiled", "saxpyGridStride", "rowSum", "slidingWindow"};
    for (size_t i = 0; i < 4; i++) {
        hms_kernel_trace t;
        cr_assert(hms_trace_kernel(hms_af_kernel(&f, names[i]), NULL, &t), "%s", t.error);
        cr_expect(t.loops_summarised, "%s", names[i]);
        hms_kernel_trace_free(&t);
    }
    hms_analyzed_file_free(&f);
}
