/* Block sampling (passes/trace/sample.h) and its effect on traces: sampled figures
 * must agree with full enumeration within 1%, and the work must not grow
 * with the grid. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "passes/trace/sample.h"
#include "passes/trace/stream_gen.h"
#include "testsuite/support/ir_fixtures.h"

/* ---- the sample itself ---------------------------------------------------------------- */

static double weight_sum(const hms_block_sample *s)
{
    double w = 0;
    for (size_t i = 0; i < s->n; i++)
        w += s->v[i].weight;
    return w;
}

static void assert_ascending_in_grid(const hms_block_sample *s)
{
    for (size_t i = 0; i < s->n; i++) {
        cr_assert_lt(s->v[i].id, s->total);
        if (i)
            cr_assert_gt(s->v[i].id, s->v[i - 1].id, "ids ascend and are distinct");
    }
}

Test(sampling, small_grid_is_enumerated)
{
    hms_block_sample s;
    cr_assert(hms_sample_blocks(200, 66, 256, &s));
    cr_assert_not(s.sampled);
    cr_assert_eq(s.n, 200);
    for (size_t i = 0; i < s.n; i++) {
        cr_assert_eq(s.v[i].id, i);
        cr_assert_float_eq(s.v[i].weight, 1.0, 1e-12);
    }
    hms_block_sample_free(&s);
}

Test(sampling, first_wave_then_even_spread)
{
    /* 10000 blocks, 66 resident at once, budget 256: blocks 0..65 weight 1,
     * then 190 picks over the other 9934 blocks, weight 9934/190 each. */
    hms_block_sample s;
    cr_assert(hms_sample_blocks(10000, 66, 256, &s));
    cr_assert(s.sampled);
    cr_assert_eq(s.n, 256);
    for (size_t i = 0; i < 66; i++) {
        cr_assert_eq(s.v[i].id, i);
        cr_assert_float_eq(s.v[i].weight, 1.0, 1e-12);
    }
    for (size_t i = 66; i < 256; i++)
        cr_assert_float_eq(s.v[i].weight, 9934.0 / 190.0, 1e-9);
    cr_assert_float_eq(weight_sum(&s), 10000.0, 1e-6);
    assert_ascending_in_grid(&s);
    /* even: gaps between consecutive picks of the spread differ by at most 1
     * (slice width 9934/190 = 52.28) */
    uint64_t gmin = UINT64_MAX, gmax = 0;
    for (size_t i = 67; i < 256; i++) {
        uint64_t g = s.v[i].id - s.v[i - 1].id;
        gmin = g < gmin ? g : gmin;
        gmax = g > gmax ? g : gmax;
    }
    cr_assert_leq(gmax - gmin, 1);
    cr_assert_geq(gmin, 52);
    cr_assert_lt(s.v[66].id - 66, 53, "first pick in the first slice");
    cr_assert_gt(s.v[255].id, 10000 - 53, "last pick in the last slice");
    hms_block_sample_free(&s);
}

Test(sampling, wave_larger_than_budget_spreads_whole_grid)
{
    hms_block_sample s;
    cr_assert(hms_sample_blocks(100000, 2112, 256, &s)); /* H100: 132 SMs x 16 blocks */
    cr_assert_eq(s.n, 256);
    cr_assert_float_eq(s.v[0].weight, 100000.0 / 256.0, 1e-9);
    cr_assert_float_eq(weight_sum(&s), 100000.0, 1e-6);
    assert_ascending_in_grid(&s);
    hms_block_sample_free(&s);

    cr_assert(hms_sample_blocks(1000, 0, 10, &s)); /* no wave: 10 mid-slice picks */
    for (size_t i = 0; i < 10; i++)
        cr_assert_eq(s.v[i].id, 50 + 100 * i);
    hms_block_sample_free(&s);

    cr_assert_not(hms_sample_blocks(0, 0, 10, &s), "an empty grid has nothing to sample");
    hms_block_sample_free(&s);
}

Test(sampling, huge_grid_stays_in_range)
{
    /* 2^31-1 x 65535 x 65535 blocks: no overflow in the spread */
    uint64_t total = 2147483647ull * 65535ull * 65535ull;
    hms_block_sample s;
    cr_assert(hms_sample_blocks(total, 1000, 256, &s));
    assert_ascending_in_grid(&s);
    cr_assert_float_eq(weight_sum(&s) / (double)total, 1.0, 1e-9);
    hms_block_sample_free(&s);
}

/* The v100 stencil case: 1024 blocks, 80 SMs x 8 resident blocks = 640 a
 * wave, over the budget. The sample takes groups: in a wave, every slot of
 * a run of consecutive SMs, so each sampled block has its co-resident blocks
 * (same SM, ids 80 apart) and its neighbours (adjacent ids) with it. */
Test(sampling, resident_groups_keep_co_resident_blocks_and_neighbours)
{
    hms_residency r = {80, 8};
    hms_block_sample s;
    cr_assert(hms_sample_blocks_resident(1024, 640, &r, 256, &s));
    cr_assert(s.sampled);
    cr_assert_leq(s.n, 256);
    cr_assert_geq(s.n, 128);
    assert_ascending_in_grid(&s);
    cr_assert_float_eq(weight_sum(&s), 1024.0, 1e-6);
    bool *in = calloc(1024, sizeof *in);
    cr_assert(in);
    for (size_t i = 0; i < s.n; i++)
        in[s.v[i].id] = true;
    cr_assert(in[1023], "the sample reaches the grid's last block");
    for (size_t i = 0; i < s.n; i++) {
        uint64_t id = s.v[i].id, wave = id / 640, sm = id % 80;
        /* every block the same SM holds in this wave is sampled too */
        for (uint64_t b = wave * 640 + sm; b < (wave + 1) * 640 && b < 1024; b += 80)
            cr_assert(in[b], "block %llu sampled without co-resident block %llu",
                      (unsigned long long)id, (unsigned long long)b);
    }
    size_t runs = 0; /* maximal runs of consecutive ids */
    for (size_t i = 0; i < s.n; i++)
        runs += i == 0 || s.v[i].id != s.v[i - 1].id + 1;
    cr_assert_leq(runs, s.n / 8, "neighbours come in runs, not isolated picks");
    free(in);
    hms_block_sample_free(&s);
}

Test(sampling, resident_groups_keep_the_first_wave)
{
    hms_residency r = {13, 8}; /* a 13-SM part: 104 blocks a wave, under the budget */
    hms_block_sample s;
    cr_assert(hms_sample_blocks_resident(10000, 104, &r, 256, &s));
    cr_assert_leq(s.n, 256);
    assert_ascending_in_grid(&s);
    for (size_t i = 0; i < 104; i++) {
        cr_assert_eq(s.v[i].id, i);
        cr_assert_float_eq(s.v[i].weight, 1.0, 1e-12);
    }
    cr_assert_float_eq(weight_sum(&s), 10000.0, 1e-6);
    cr_assert_eq(s.v[s.n - 1].id, 9999);
    hms_block_sample_free(&s);
}

Test(sampling, resident_groups_fall_back_and_stay_in_range)
{
    hms_block_sample a, b;
    cr_assert(hms_sample_blocks_resident(10000, 66, NULL, 256, &a));
    cr_assert(hms_sample_blocks(10000, 66, 256, &b));
    cr_assert_eq(a.n, b.n, "no residency: the even spread");
    for (size_t i = 0; i < a.n; i++)
        cr_assert_eq(a.v[i].id, b.v[i].id);
    hms_block_sample_free(&a);
    hms_block_sample_free(&b);
    hms_residency r = {132, 64}; /* a budget too small for one SM's slots per group */
    cr_assert(hms_sample_blocks_resident(100000, 0, &r, 32, &a));
    cr_assert_eq(a.n, 32);
    cr_assert_float_eq(weight_sum(&a), 100000.0, 1e-6);
    hms_block_sample_free(&a);
    uint64_t total = 2147483647ull * 65535ull * 65535ull;
    hms_residency h = {132, 16};
    cr_assert(hms_sample_blocks_resident(total, 2112, &h, 256, &a));
    assert_ascending_in_grid(&a);
    cr_assert_float_eq(weight_sum(&a) / (double)total, 1.0, 1e-9);
    hms_block_sample_free(&a);
}

/* ---- sampled vs full traces ------------------------------------------------------------ */

typedef struct {
    double requests; /* weighted */
    double sectors;  /* weighted distinct 32-byte sectors */
    double lines;    /* weighted distinct 128-byte lines */
} site_metric;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static unsigned distinct(const hms_warp_access *r, uint64_t gran)
{
    uint64_t v[32];
    unsigned n = 0, d = 0;
    for (int l = 0; l < 32; l++)
        if (r->mask & (1u << l))
            v[n++] = r->addr[l] / gran;
    qsort(v, n, sizeof *v, cmp_u64);
    for (unsigned i = 0; i < n; i++)
        d += i == 0 || v[i] != v[i - 1];
    return d;
}

/* The per-site metrics (docs/model.md) computed directly from a trace, weighted by blocks. */
static void site_metrics(const hms_kernel_trace *t, site_metric *m, size_t nsites)
{
    memset(m, 0, nsites * sizeof *m);
    for (size_t b = 0; b < t->nblocks; b++) {
        const hms_traced_block *B = &t->blocks[b];
        for (size_t i = B->first; i < B->first + B->count; i++) {
            const hms_warp_access *r = &t->stream.v[i];
            m[r->site].requests += B->weight;
            m[r->site].sectors += B->weight * distinct(r, 32);
            m[r->site].lines += B->weight * distinct(r, 128);
        }
    }
}

static void assert_close(double full, double sampled, const char *what, size_t site)
{
    double rel = full != 0 ? fabs(sampled - full) / fabs(full) : fabs(sampled);
    cr_assert_leq(rel, 0.01, "site %zu %s: full %.4f sampled %.4f (%.2f%%)", site, what, full,
                  sampled, rel * 100);
}

static void compare_sampled_with_full(ir_kernel *k, uint64_t first_wave)
{
    hms_trace_options full = {0}, samp = {0};
    full.max_blocks = (uint64_t)k->launch.grid[0] * k->launch.grid[1];
    full.max_records = (size_t)1 << 22;
    full.first_wave_blocks = samp.first_wave_blocks = first_wave;
    hms_kernel_trace tf, ts;
    cr_assert(hms_trace_kernel(k, &full, &tf), "%s", tf.error);
    cr_assert(hms_trace_kernel(k, &samp, &ts), "%s", ts.error);
    cr_assert_not(tf.sampled);
    cr_assert(ts.sampled);
    cr_assert_eq(ts.blocks_simulated, HMS_SAMPLE_DEFAULT_BUDGET);
    cr_assert_float_eq(ts.scale, (double)tf.blocks_total / HMS_SAMPLE_DEFAULT_BUDGET, 1e-9);
    size_t n = k->nsites;
    site_metric *mf = calloc(n, sizeof *mf), *ms = calloc(n, sizeof *ms);
    site_metrics(&tf, mf, n);
    site_metrics(&ts, ms, n);
    for (size_t s = 0; s < n; s++) {
        cr_assert_gt(mf[s].requests, 0);
        assert_close(mf[s].requests, ms[s].requests, "requests", s);
        assert_close(mf[s].sectors / mf[s].requests, ms[s].sectors / ms[s].requests,
                     "sectors per request", s);
        assert_close(mf[s].lines / mf[s].requests, ms[s].lines / ms[s].requests,
                     "lines per request", s);
        assert_close((double)tf.sites[s].requests, ts.sites[s].weighted_requests,
                     "weighted requests", s);
    }
    free(mf);
    free(ms);
    hms_kernel_trace_free(&tf);
    hms_kernel_trace_free(&ts);
}

Test(sampling, transpose_sampled_agrees_with_full)
{
    /* 64 x 128 = 8192 blocks of (32, 8) over a 2048 x 1024 matrix */
    ir_kernel *k = fx_transpose_naive(64, 128, 2048, 1024);
    compare_sampled_with_full(k, 66);
    ir_kernel_free(k);
}

Test(sampling, stencil_sampled_agrees_with_full)
{
    /* 1024 x 1024 grid points, 32 x 128 blocks; the boundary guard makes the
     * edge blocks differ from the interior ones. */
    ir_kernel *k = fx_stencil(32, 128, 1024, 1024);
    compare_sampled_with_full(k, 40);
    ir_kernel_free(k);
}

Test(sampling, tiled_transpose_sampled_agrees_with_full)
{
    ir_kernel *k = fx_transpose_tiled(24, 24 * 32, false); /* 576 blocks */
    compare_sampled_with_full(k, 30);
    ir_kernel_free(k);
}

/* ---- budgets and scaling ----------------------------------------------------------------- */

Test(sampling, record_budget_shrinks_the_sample)
{
    /* each block issues 16 records; 1000 records fit 62 blocks */
    ir_kernel *k = fx_transpose_naive(64, 64, 2048, 2048);
    hms_trace_options o = {0};
    o.max_records = 1000;
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, &o, &t), "%s", t.error);
    cr_assert_eq(t.blocks_simulated, 62);
    cr_assert_eq(t.stream.n, 62 * 16);
    cr_assert_not(t.budget_exhausted, "the smaller sample fits");
    double w = 0;
    for (size_t b = 0; b < t.nblocks; b++)
        w += t.blocks[b].weight;
    cr_assert_float_eq(w, 4096.0, 1e-6);
    cr_assert_float_eq(hms_trace_record_weight(&t, 0), 4096.0 / 62, 1e-9);
    bool noted = false;
    for (size_t i = 0; i < t.nnotes; i++)
        noted |= strstr(t.notes[i], "reduced from 256 to 62 blocks") != NULL;
    cr_assert(noted);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

Test(sampling, work_does_not_grow_with_the_grid)
{
    /* 256 x 256 vs 16384 x 16384 blocks: the same number of blocks simulated.
     * Times are printed, not asserted. */
    ir_kernel *small = fx_transpose_naive(256, 256, 256 * 32, 256 * 8);
    ir_kernel *huge = fx_transpose_naive(16384, 16384, 16384ll * 32, 16384ll * 8);
    hms_trace_options o = {0};
    o.first_wave_blocks = 132 * 8;
    hms_kernel_trace ts, th;
    double t0 = seconds();
    cr_assert(hms_trace_kernel(small, &o, &ts), "%s", ts.error);
    double t1 = seconds();
    cr_assert(hms_trace_kernel(huge, &o, &th), "%s", th.error);
    double t2 = seconds();
    cr_assert_eq(ts.blocks_total, 65536);
    cr_assert_eq(th.blocks_total, 16384ull * 16384ull);
    cr_assert_eq(ts.blocks_simulated, HMS_SAMPLE_DEFAULT_BUDGET);
    cr_assert_eq(th.blocks_simulated, HMS_SAMPLE_DEFAULT_BUDGET);
    cr_assert_eq(ts.stream.n, th.stream.n);
    fprintf(stderr, "trace 256x256 grid: %.2f ms; 16384x16384 grid: %.2f ms (ratio %.2f)\n",
            (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t2 - t1) / (t1 - t0));
    hms_kernel_trace_free(&ts);
    hms_kernel_trace_free(&th);
    ir_kernel_free(small);
    ir_kernel_free(huge);
}
