/* hms-probe inference (runtime/infer.h) on traces from the model core's own
 * simulators with known parameters: exact on noiseless traces; with +-3
 * cycles of jitter and one 1000-cycle spike per thousand accesses, still
 * exact (the documented tolerance, docs/probe.md). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "runtime/cache.h"
#include "runtime/dram.h"
#include "runtime/infer.h"
#include "runtime/tlb.h"

/* ---- deterministic noise ---------------------------------------------------- */

typedef struct {
    uint64_t state;
    double jitter;       /* uniform +-jitter cycles */
    double outlier_rate; /* probability of a spike */
    double spike;        /* cycles added by a spike */
} noise;

static double next_unit(noise *n)
{
    uint64_t z = (n->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static double noisy(noise *n, double lat)
{
    if (!n)
        return lat;
    lat += (2 * next_unit(n) - 1) * n->jitter;
    if (next_unit(n) < n->outlier_rate)
        lat += n->spike;
    return lat;
}

/* ---- a cache behind a P-chase ------------------------------------------------ */

typedef struct {
    hms_cache c;
    double hit, miss;
    noise *nz;
} cache_bench;

static bool cache_pchase(void *ctx, uint64_t bytes, uint64_t stride, unsigned passes, double *lat)
{
    cache_bench *b = ctx;
    hms_cache_reset(&b->c);
    size_t n = (size_t)((bytes + stride - 1) / stride), k = 0;
    for (unsigned p = 0; p < passes; p++)
        for (size_t i = 0; i < n; i++) {
            bool hit = hms_cache_access_line(&b->c, (uint64_t)i * stride);
            if (p > 0)
                lat[k++] = noisy(b->nz, hit ? b->hit : b->miss);
        }
    return true;
}

static hms_cache_geom geom(uint32_t size, uint32_t line, uint32_t ways, uint32_t set_bit_low,
                           hms_replacement r)
{
    hms_cache_geom g = {0};
    g.size_bytes = size;
    g.line_bytes = line;
    g.ways = ways;
    g.set_bit_low = set_bit_low;
    g.replacement = r;
    return g;
}

static hms_infer_cache_result infer(hms_cache_geom g, uint64_t elem, noise *nz, unsigned passes,
                                    unsigned min_miss)
{
    cache_bench b = {.hit = 30, .miss = 200, .nz = nz};
    char err[256];
    cr_assert(hms_cache_init(&b.c, &g, err, sizeof err), "%s", err);
    hms_infer_cache_opts o = {elem, 4ull * g.size_bytes, 115, passes, min_miss, 800};
    hms_infer_cache_result r;
    bool ok = hms_infer_cache(cache_pchase, &b, &o, &r, err, sizeof err);
    hms_cache_free(&b.c);
    cr_assert(ok, "%s", err);
    return r;
}

static void assert_geometry(hms_infer_cache_result r, hms_cache_geom g, uint32_t sets)
{
    cr_assert_eq(r.size_bytes, g.size_bytes, "size %llu", (unsigned long long)r.size_bytes);
    cr_assert_eq(r.line_bytes, g.line_bytes, "line %u", r.line_bytes);
    cr_assert_eq(r.ways, g.ways, "ways %u", r.ways);
    cr_assert_eq(r.sets, sets, "sets %u", r.sets);
    cr_assert_eq(r.set_bit_low, g.set_bit_low, "set bit %u", r.set_bit_low);
    cr_assert_eq(r.replacement, g.replacement, "replacement %d", (int)r.replacement);
}

Test(infer, lru_l1_exact_on_a_noiseless_trace)
{
    /* Mei & Chu Fermi L1 shape: 16 KB, 128-byte lines, 4 ways, 32 sets. */
    hms_cache_geom g = geom(16 * 1024, 128, 4, 0, HMS_REPL_LRU);
    hms_infer_cache_result r = infer(g, 4, NULL, 0, 0);
    assert_geometry(r, g, 32);
    cr_assert_float_eq(r.hit_latency, 30, 1e-9);
    cr_assert_float_eq(r.miss_latency, 200, 1e-9);
}

Test(infer, texture_set_bits_7_8_are_found)
{
    /* Mei & Chu Sec. 4.3 texture L1: 12 KB, 32-byte lines, 96 ways, 4 sets, bits 7-8. */
    hms_cache_geom g = geom(12 * 1024, 32, 96, 7, HMS_REPL_LRU);
    assert_geometry(infer(g, 4, NULL, 0, 0), g, 4);
}

Test(infer, fully_associative_cache)
{
    hms_cache_geom g = geom(4 * 1024, 64, 64, 0, HMS_REPL_LRU);
    assert_geometry(infer(g, 8, NULL, 0, 0), g, 1);
}

Test(infer, non_lru_l2_is_told_apart)
{
    /* Random replacement (Mei & Chu: the L2 is not LRU): 32 KB, 32-byte lines, 8 ways. */
    hms_cache_geom g = geom(32 * 1024, 32, 8, 0, HMS_REPL_RANDOM);
    assert_geometry(infer(g, 32, NULL, 64, 0), g, 128);
}

Test(infer, exact_with_jitter_and_outliers)
{
    noise nz = {12345, 3.0, 0.001, 1000.0};
    hms_cache_geom g = geom(16 * 1024, 128, 4, 0, HMS_REPL_LRU);
    hms_infer_cache_result r = infer(g, 4, &nz, 0, 0);
    assert_geometry(r, g, 32);
    cr_assert(fabs(r.hit_latency - 30) < 1.0, "hit %.2f", r.hit_latency);
    cr_assert(fabs(r.miss_latency - 200) < 1.0, "miss %.2f", r.miss_latency);
    hms_cache_geom t = geom(12 * 1024, 32, 96, 7, HMS_REPL_LRU);
    assert_geometry(infer(t, 4, &nz, 0, 0), t, 4);
}

Test(infer, moderate_spikes_need_a_miss_in_several_passes)
{
    /* A hit now and then takes 150 cycles more: above the threshold, below
     * the outlier cut. Counting an offset as missing only when it missed in
     * 3 of 7 passes keeps the LRU geometry exact. */
    noise nz = {4242, 3.0, 0.001, 150.0};
    hms_cache_geom g = geom(16 * 1024, 128, 4, 0, HMS_REPL_LRU);
    assert_geometry(infer(g, 4, &nz, 8, 3), g, 32);
}

Test(infer, bad_threshold_is_an_error_not_a_guess)
{
    cache_bench b = {.hit = 30, .miss = 200, .nz = NULL};
    char err[256];
    hms_cache_geom g = geom(4096, 64, 4, 0, HMS_REPL_LRU);
    cr_assert(hms_cache_init(&b.c, &g, err, sizeof err));
    hms_infer_cache_result r;
    hms_infer_cache_opts above = {4, 16384, 500, 0, 0, 0}; /* above the miss latency */
    cr_assert_not(hms_infer_cache(cache_pchase, &b, &above, &r, err, sizeof err));
    cr_assert(strstr(err, "no miss up to 16384 bytes"), "%s", err);
    hms_infer_cache_opts below = {4, 16384, 10, 0, 0, 0}; /* below the hit latency */
    cr_assert_not(hms_infer_cache(cache_pchase, &b, &below, &r, err, sizeof err));
    cr_assert(strstr(err, "below the hit latency"), "%s", err);
    hms_cache_free(&b.c);
}

/* ---- TLB levels ---------------------------------------------------------------- */

typedef struct {
    hms_tlb t;
    double base, l2_extra, walk_extra;
    noise *nz;
} tlb_bench;

static bool tlb_pchase(void *ctx, uint64_t bytes, uint64_t stride, unsigned passes, double *lat)
{
    tlb_bench *b = ctx;
    hms_tlb_reset(&b->t);
    size_t n = (size_t)((bytes + stride - 1) / stride), k = 0;
    for (unsigned p = 0; p < passes; p++)
        for (size_t i = 0; i < n; i++) {
            hms_tlb_level l = hms_tlb_access(&b->t, (uint64_t)i * stride);
            double v = b->base + (l == HMS_TLB_L2_HIT ? b->l2_extra
                                  : l == HMS_TLB_MISS ? b->walk_extra
                                                      : 0);
            if (p > 0)
                lat[k++] = noisy(b->nz, v);
        }
    return true;
}

Test(infer, two_tlb_levels_page_size_and_entries)
{
    /* L1: 16 entries of 2 MB, fully associative; L2: 64 entries, 8 ways, 8 sets. */
    hms_arch a;
    memset(&a, 0, sizeof a);
    a.tlb_l1 = geom(16u * 2 * 1024 * 1024, 2u * 1024 * 1024, 16, 0, HMS_REPL_LRU);
    a.tlb_l2 = geom(64u * 2 * 1024 * 1024, 2u * 1024 * 1024, 8, 0, HMS_REPL_LRU);
    noise nz = {99, 2.0, 0.001, 800.0};
    tlb_bench b = {.base = 500, .l2_extra = 40, .walk_extra = 300, .nz = &nz};
    char err[256];
    cr_assert(hms_tlb_init(&b.t, &a, err, sizeof err), "%s", err);

    /* Thresholds from three reference walks: inside L1 reach, past L1 but
     * inside L2, past both (one access per page). */
    const uint64_t page_guess = 1024 * 1024, MB = 1024 * 1024;
    double in_l1[7 * 4], in_l2[7 * 64], past[7 * 256];
    cr_assert(tlb_pchase(&b, 4 * MB, page_guess, 8, in_l1));
    cr_assert(tlb_pchase(&b, 64 * MB, 2 * MB, 8, in_l2));
    cr_assert(tlb_pchase(&b, 512 * MB, 2 * MB, 8, past));
    double t1 = hms_infer_threshold(in_l1, 7 * 4, in_l2, 7 * 32);
    double t2 = hms_infer_threshold(in_l2, 7 * 32, past, 7 * 256);

    hms_infer_cache_result r1, r2;
    hms_infer_cache_opts o1 = {256 * 1024, 256 * MB, t1, 8, 0, 1200};
    cr_assert(hms_infer_cache(tlb_pchase, &b, &o1, &r1, err, sizeof err), "%s", err);
    cr_assert_eq(r1.size_bytes, 32 * MB);
    cr_assert_eq(r1.line_bytes, 2 * MB); /* the page size */
    cr_assert_eq(r1.ways, 16);
    cr_assert_eq(r1.sets, 1);
    hms_infer_cache_opts o2 = {256 * 1024, 512 * MB, t2, 8, 0, 1200};
    cr_assert(hms_infer_cache(tlb_pchase, &b, &o2, &r2, err, sizeof err), "%s", err);
    cr_assert_eq(r2.size_bytes, 128 * MB); /* reach of 64 entries */
    cr_assert_eq(r2.line_bytes, 2 * MB);
    cr_assert_eq(r2.ways, 8);
    cr_assert_eq(r2.sets, 8);
    cr_assert(fabs(r2.miss_latency - 800) < 1.0, "walk %.2f", r2.miss_latency);
    hms_tlb_free(&b.t);
}

/* ---- DRAM: Algorithm 1 ------------------------------------------------------- */

typedef struct {
    const hms_arch *a;
    noise *nz;
} dram_bench;

static bool dram_pair(void *ctx, uint64_t first, uint64_t second, double *lat)
{
    dram_bench *b = ctx;
    hms_dram_model m;
    char err[256];
    if (!hms_dram_init(&m, b->a, err, sizeof err))
        return false;
    bool ok = hms_dram_add(&m, first, 0) && hms_dram_add(&m, second, 1) &&
              hms_dram_evaluate(&m, err, sizeof err);
    if (ok) {
        hms_row_outcome o = hms_dram_outcome(&m, 1);
        *lat = noisy(b->nz, o == HMS_ROW_HIT    ? m.t_hit
                            : o == HMS_ROW_MISS ? m.t_miss
                                                : m.t_conflict);
    }
    hms_dram_free(&m);
    return ok;
}

static hms_arch k80_like(void)
{
    /* Huang & Li's K80 mapping as h100.yaml writes it: bank bits 3-7 and
     * 22-29, row bits 16-21 and 30-32, columns 8-15 (and bytes 0-2). */
    hms_arch a;
    memset(&a, 0, sizeof a);
    strcpy(a.name, "k80like");
    a.clock_ghz = 1.0;
    a.dram_channels = 8;
    a.dram_channel_bytes = 256;
    a.dram_banks_per_channel = 16;
    a.dram_row_bytes = 2048;
    a.dram_bank_bits_mask = 0xF8ull | (0xFFull << 22);
    a.dram_row_bits_mask = (0x3Full << 16) | (0x7ull << 30);
    a.dram_row_hit_ns = 352;
    a.dram_row_miss_ns = 742;
    a.dram_row_conflict_ns = 1008;
    return a;
}

static void check_dram(noise *nz, size_t nbases)
{
    hms_arch a = k80_like();
    dram_bench b = {&a, nz};
    uint64_t bases[8] = {0,
                         0x12345000ull,
                         0x0ABCD000ull,
                         0x1F00F000ull,
                         0x05555000ull,
                         0x0AAAA000ull,
                         0x13579000ull,
                         0x02468000ull};
    hms_infer_dram_opts o = {3, 32, bases, nbases};
    hms_infer_dram_result r;
    char err[256];
    cr_assert(hms_infer_dram(dram_pair, &b, &o, &r, err, sizeof err), "%s", err);
    uint64_t tested = ((1ull << 33) - 1) & ~0x7ull;
    cr_assert_eq(r.bank_bits, a.dram_bank_bits_mask & tested, "bank %llx",
                 (unsigned long long)r.bank_bits);
    cr_assert_eq(r.row_bits, a.dram_row_bits_mask, "row %llx", (unsigned long long)r.row_bits);
    cr_assert_eq(r.column_bits, 0xFF00ull, "column %llx", (unsigned long long)r.column_bits);
    double tol = nz ? 3.5 : 1e-9;
    cr_assert(fabs(r.hit - 352) <= tol, "hit %.2f", r.hit);
    cr_assert(fabs(r.miss - 742) <= tol, "miss %.2f", r.miss);
    cr_assert(fabs(r.conflict - 1008) <= tol, "conflict %.2f", r.conflict);
}

Test(infer, algorithm_1_recovers_row_column_and_bank_bits)
{
    check_dram(NULL, 1);
}

Test(infer, algorithm_1_with_noise_and_outliers)
{
    noise nz = {7, 3.0, 0.05, 2000.0}; /* one pair in twenty spikes */
    check_dram(&nz, 8);
}

Test(infer, algorithm_1_needs_three_groups)
{
    hms_arch a = k80_like();
    dram_bench b = {&a, NULL};
    uint64_t base = 0;
    hms_infer_dram_opts o = {8, 15, &base, 1}; /* columns only */
    hms_infer_dram_result r;
    char err[256];
    cr_assert_not(hms_infer_dram(dram_pair, &b, &o, &r, err, sizeof err));
    cr_assert(strstr(err, "fewer than three latency groups"), "%s", err);
}

Test(infer, median_and_threshold)
{
    double v[] = {5, 1, 1000, 3, 2};
    cr_assert_float_eq(hms_infer_median(v, 5), 3, 1e-12);
    cr_assert_float_eq(hms_infer_median(v, 4), 4, 1e-12); /* {1, 3, 5, 1000} */
    double lo[] = {30, 31, 29}, hi[] = {200, 5000, 199};
    cr_assert_float_eq(hms_infer_threshold(lo, 3, hi, 3), 115, 1e-12);
    cr_assert(isnan(hms_infer_median(v, 0)));
}
