/* Speed-ups that must not change results (lazily cleared cache sets, the
 * placement-events memo), the work budgets, empty streams, and the launch
 * and partition-camping notes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyzer/cli/config.h"
#include "analyzer/cli/options.h"
#include "passes/analyze.h"
#include "passes/trace/stream_gen.h"
#include "runtime/arch.h"
#include "runtime/cache.h"
#include "runtime/coalesce.h"
#include "runtime/placement_events.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/ir_fixtures.h"
#include "testsuite/support/run.h"

TestSuite(model_speed, .timeout = 300);

static const hms_arch *arch(const char *name)
{
    char err[256];
    const hms_arch *a = hms_arch_get(name, err, sizeof err);
    cr_assert(a, "%s", err);
    return a;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A reset cache behaves exactly like a fresh one, and resetting an
 * H100-sized L2 (1.6M lines) costs nothing like touching every line. */
Test(model_speed, reset_cache_is_a_fresh_cache)
{
    const hms_arch *a = arch("h100");
    char err[256];
    hms_cache used, fresh;
    cr_assert(hms_cache_init(&used, &a->l2, err, sizeof err), "%s", err);
    cr_assert(hms_cache_init(&fresh, &a->l2, err, sizeof err), "%s", err);
    uint64_t x = 12345;
    for (int i = 0; i < 200000; i++) { /* fill and thrash some sets */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        hms_cache_access_line(&used, (x >> 20) % (64ull << 20));
    }
    double t0 = seconds();
    for (int i = 0; i < 1000; i++)
        hms_cache_reset(&used);
    double dt = seconds() - t0;
    cr_expect_lt(dt, 0.5, "1000 resets of a %u-line cache took %.3f s", used.entries, dt);
    x = 99;
    for (int i = 0; i < 100000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t addr = (x >> 20) % (8ull << 20);
        cr_assert_eq(hms_cache_access_line(&used, addr), hms_cache_access_line(&fresh, addr),
                     "access %d", i);
    }
    cr_expect_eq(used.stats.hits, fresh.stats.hits);
    cr_expect_eq(used.stats.evictions, fresh.stats.evictions);
    hms_cache_free(&used);
    hms_cache_free(&fresh);
}

/* LRU caches (stamps matter) too: a reset set forgets its old lines. */
Test(model_speed, reset_lru_cache_forgets)
{
    hms_cache_geom g = {0};
    g.size_bytes = 4 * 2 * 128;
    g.line_bytes = 128;
    g.ways = 2;
    g.replacement = HMS_REPL_LRU;
    char err[256];
    hms_cache c;
    cr_assert(hms_cache_init(&c, &g, err, sizeof err), "%s", err);
    cr_assert_not(hms_cache_access_line(&c, 0));
    cr_assert(hms_cache_access_line(&c, 0));
    hms_cache_reset(&c);
    cr_assert_not(hms_cache_access_line(&c, 0), "a reset cache holds nothing");
    cr_assert_not(hms_cache_access_line(&c, 4 * 128)); /* same set, second way */
    cr_assert(hms_cache_access_line(&c, 0));
    cr_assert_not(hms_cache_access_line(&c, 8 * 128)); /* evicts the LRU line 4*128 */
    cr_assert(hms_cache_access_line(&c, 0));
    cr_assert_not(hms_cache_access_line(&c, 4 * 128));
    hms_cache_free(&c);
}

/* Distinct units, ascending, whatever the lane order. */
Test(model_speed, warp_units_sorted_unique)
{
    hms_warp_access w;
    memset(&w, 0, sizeof w);
    w.mask = 0xffffffffu;
    w.width = 4;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        w.addr[l] = (uint64_t)((l * 7) % 32) * 32 + (l % 2) * 4096; /* scrambled, repeats */
    uint64_t u[HMS_WARP_UNITS_MAX];
    size_t n = hms_warp_units(&w, 32, u);
    for (size_t i = 1; i < n; i++)
        cr_assert_lt(u[i - 1], u[i]);
    cr_assert_eq(n, 32);           /* 16 even lanes in 0..1023, 16 odd ones 4096 above */
    n = hms_warp_units(&w, 96, u); /* not a power of two */
    for (size_t i = 1; i < n; i++)
        cr_assert_lt(u[i - 1], u[i]);
}

/* The memo changes nothing: every array in every legal space, with and
 * without it. */
Test(model_speed, placement_memo_same_results)
{
    const hms_arch *a = arch("h100");
    ir_kernel *k = fx_transpose_tiled(8, 8 * 32, true);
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, NULL, &t), "%s", t.error);
    hms_placement_events_opts plain = {0}, memo = {0};
    memo.memo = hms_placement_events_memo_new();
    cr_assert(memo.memo);
    char err[256];
    int compared = 0;
    for (int rep = 0; rep < 2; rep++)
        for (uint32_t arr = 0; arr < k->narrays; arr++)
            for (int s = 0; s < HMS_PLACE_COUNT; s++) {
                hms_placement_events e1, e2;
                bool ok1 = hms_placement_events_compute(&t.stream, a, arr, (hms_placement_space)s,
                                                        NULL, &plain, &e1, err, sizeof err);
                bool ok2 = hms_placement_events_compute(&t.stream, a, arr, (hms_placement_space)s,
                                                        NULL, &memo, &e2, err, sizeof err);
                cr_assert_eq(ok1, ok2);
                cr_assert(memcmp(&e1, &e2, sizeof e1) == 0, "array %u space %d differs", arr, s);
                compared++;
            }
    cr_expect_gt(compared, 4);
    hms_placement_events_memo_free(memo.memo);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

/* Scattered accesses hit the line budget: tracing stops, the figures are
 * marked inexact, and the note says how to bound the kernel. */
Test(model_speed, line_budget_stops_tracing)
{
    ir_kernel *k = fx_transpose_naive(64, 64, 2048, 2048); /* stores: 32 lines each */
    hms_trace_options o = {0};
    o.max_blocks = 4096;
    o.max_lines = 20000;
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, &o, &t), "%s", t.error);
    bool noted = false;
    for (size_t i = 0; i < t.nnotes; i++)
        noted |= strstr(t.notes[i], "work budget") != NULL && strstr(t.notes[i], "--param") != NULL;
    bool reduced = false;
    for (size_t i = 0; i < t.nnotes; i++)
        reduced |= strstr(t.notes[i], "block sample reduced") != NULL;
    cr_expect(noted || reduced, "no budget note");
    uint64_t lines = 0, units[HMS_WARP_UNITS_MAX];
    for (size_t i = 0; i < t.stream.n; i++)
        lines += hms_warp_units(&t.stream.v[i], HMS_TRACE_LINE_BYTES, units);
    cr_expect_leq(lines, 20000 + 32 * 17, "%llu lines traced", (unsigned long long)lines);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

/* A kernel with no memory access analyses cleanly (no qsort of NULL). */
Test(model_speed, zero_access_kernel)
{
    hms_analyzed_file f;
    const char *args[] = {"--arch=h100", NULL};
    cr_assert(hms_analyze_file(hms_test_path("kernels/checks/modelfix/zero_access.cu"), args, &f),
              "%s", f.error);
    cr_assert_eq(f.nkernels, 1);
    hms_analyzed_file_free(&f);
}

static size_t count(const hms_kernel_report *r, const char *check, const char *text)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ndiagnostics; i++)
        n += !strcmp(r->diagnostics[i].check, check) &&
             (!text || strstr(r->diagnostics[i].message, text));
    return n;
}

/* An assumed launch: one note with the exact hint, no partition camping. */
Test(model_speed, default_launch_one_note_no_camping)
{
    hms_analyzed_file f;
    const char *args[] = {"--arch=h100", NULL};
    cr_assert(
        hms_analyze_file(hms_test_path("kernels/checks/modelfix/default_launch.cu"), args, &f),
        "%s", f.error);
    const hms_kernel_report *r = hms_af_report(&f, "columnStoreNoLaunch");
    cr_assert(r);
    cr_expect_eq(count(r, "hms-partition-camping", NULL), 0);
    cr_expect_eq(count(r, "hms-analysis-limit", "launch"), 1, "launch notes");
    cr_expect_eq(count(r, "hms-analysis-limit", "--launch=columnStoreNoLaunch:grid=X,Y,Z"), 1);
    cr_expect_eq(count(r, "hms-analysis-limit", "// hms-lint: launch grid(X,Y) block(X,Y)"), 1);
    hms_analyzed_file_free(&f);
}

/* Four 32-thread blocks: no partition camping warning, and the note says why. */
Test(model_speed, tiny_launch_no_camping)
{
    hms_analyzed_file f;
    const char *args[] = {"--arch=h100", NULL};
    cr_assert(hms_analyze_file(hms_test_path("kernels/checks/modelfix/tiny_launch.cu"), args, &f),
              "%s", f.error);
    const hms_kernel_report *r = hms_af_report(&f, "tinyColumnStore");
    cr_assert(r);
    cr_expect_eq(count(r, "hms-partition-camping", NULL), 0);
    hms_analyzed_file_free(&f);
}

/* --placement-threshold, and a typed --arch / --fail-on beat a config file
 * even when they name the built-in default. */
Test(model_speed, placement_threshold_and_typed_options)
{
    char *argv[] = {
        "hms-lint", "--placement-threshold=1.5", "--arch=h100", "--fail-on=warning", "x.cu", NULL};
    hms_options o;
    cr_assert_eq(hms_options_parse(5, argv, &o), 0);
    cr_expect_float_eq(o.placement_threshold, 1.5, 1e-12);
    cr_expect(o.arch_given && o.fail_on_given);
    hms_config cfg;
    hms_file_error err;
    const char *text = "arch: gt200\nfail-on: never\n";
    cr_assert(hms_config_parse(text, strlen(text), "cfg", &cfg, &err), "%s", err.message);
    hms_merged_options m;
    hms_config_merge(&cfg, &o, &m);
    cr_expect_str_eq(m.opts.arch, "h100");
    cr_expect_eq(m.opts.fail_on, HMS_FAIL_WARNING);
    cr_expect_float_eq(m.opts.placement_threshold, 1.5, 1e-12);
    hms_merged_options_free(&m);
    hms_config_free(&cfg);
    hms_options_free(&o);

    char *argv2[] = {"hms-lint", "x.cu", NULL};
    hms_options d;
    cr_assert_eq(hms_options_parse(2, argv2, &d), 0);
    cr_expect_float_eq(d.placement_threshold, 1.10, 1e-12);
    cr_expect_not(d.arch_given || d.fail_on_given);
    cr_assert(hms_config_parse(text, strlen(text), "cfg", &cfg, &err), "%s", err.message);
    hms_config_merge(&cfg, &d, &m);
    cr_expect_str_eq(m.opts.arch, "gt200");
    cr_expect_eq(m.opts.fail_on, HMS_FAIL_NEVER);
    hms_merged_options_free(&m);
    hms_config_free(&cfg);
    hms_options_free(&d);

    char *bad[] = {"hms-lint", "--placement-threshold=abc", "x.cu", NULL};
    hms_options b;
    cr_expect_eq(hms_options_parse(3, bad, &b), 2);
    hms_options_free(&b);
}
