/* Generic cache simulator: geometry, set mapping (Mei & Chu texture L1, bits
 * 7-8), LRU order, the Fermi L1 3:1:1:1 replacement, random replacement,
 * unequal sets, warp-level lookups. Expected values are worked by hand. */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime/cache.h"
#include "testsuite/support/warp_access.h"

static hms_cache_geom geom(uint32_t size, uint32_t line, uint32_t ways, uint32_t sets,
                           uint32_t set_bit_low, hms_replacement repl)
{
    hms_cache_geom g = {0};
    g.size_bytes = size;
    g.line_bytes = line;
    g.ways = ways;
    g.sets = sets;
    g.set_bit_low = set_bit_low;
    g.replacement = repl;
    return g;
}

/* Mei & Chu sec. 4.3, Table V: Fermi/Kepler texture L1, 12 KB, 32-byte lines,
 * 4 sets x 96 ways, set from address bits 7-8, LRU. */
static hms_cache texture_l1(void)
{
    hms_cache c;
    char err[160];
    hms_cache_geom g = geom(12 * 1024, 32, 96, 0, 7, HMS_REPL_LRU);
    cr_assert(hms_cache_init(&c, &g, err, sizeof err), "%s", err);
    return c;
}

static hms_cache make(hms_cache_geom g)
{
    hms_cache c;
    char err[160];
    cr_assert(hms_cache_init(&c, &g, err, sizeof err), "%s", err);
    return c;
}

/* Misses of one pass over n lines at base + i * stride. */
static unsigned pass_misses(hms_cache *c, unsigned n, uint64_t stride)
{
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++)
        m += !hms_cache_access_line(c, (uint64_t)i * stride);
    return m;
}

Test(cache, texture_l1_geometry_and_set_bits_7_8)
{
    hms_cache c = texture_l1();
    cr_assert_eq(c.sets, 4);
    cr_assert_eq(c.entries, 384);
    /* 128-byte blocks go to successive sets... */
    cr_assert_eq(hms_cache_set_of(&c, 0), 0);
    cr_assert_eq(hms_cache_set_of(&c, 128), 1);
    cr_assert_eq(hms_cache_set_of(&c, 256), 2);
    cr_assert_eq(hms_cache_set_of(&c, 384), 3);
    cr_assert_eq(hms_cache_set_of(&c, 512), 0); /* the 5th block wraps to set 0 */
    /* ...and the four 32-byte lines inside one block share its set. */
    cr_assert_eq(hms_cache_set_of(&c, 32), 0);
    cr_assert_eq(hms_cache_set_of(&c, 64), 0);
    cr_assert_eq(hms_cache_set_of(&c, 96), 0);
    cr_assert_eq(hms_cache_set_of(&c, 160), 1);
    hms_cache_free(&c);
}

Test(cache, texture_l1_conflicts_only_past_96_lines_in_one_set)
{
    hms_cache c = texture_l1();
    /* Stride 512 B: every line in set 0. 96 lines fit... */
    cr_assert_eq(pass_misses(&c, 96, 512), 96);
    cr_assert_eq(pass_misses(&c, 96, 512), 0);
    /* ...the 97th evicts the LRU line (line 0), and cycling 97 lines through a
     * 96-way LRU set misses every time. */
    hms_cache_reset(&c);
    cr_assert_eq(pass_misses(&c, 97, 512), 97);
    cr_assert_eq(pass_misses(&c, 97, 512), 97);
    hms_cache_free(&c);
}

Test(cache, texture_mapping_spreads_128_byte_strides_a_conventional_one_does_not)
{
    /* Stride 128 B, 97 lines: bits 7-8 put ~25 lines in each set (all fit);
     * conventional bits 5-6 put all 97 in set 0 (none fit). */
    hms_cache tex = texture_l1();
    pass_misses(&tex, 97, 128);
    cr_assert_eq(pass_misses(&tex, 97, 128), 0);
    hms_cache conv = make(geom(12 * 1024, 32, 96, 0, 0, HMS_REPL_LRU));
    cr_assert_eq(hms_cache_set_of(&conv, 32), 1);
    pass_misses(&conv, 97, 128);
    cr_assert_eq(pass_misses(&conv, 97, 128), 97);
    hms_cache_free(&tex);
    hms_cache_free(&conv);
}

Test(cache, mei_chu_texture_overflow_by_half_a_kilobyte_misses_everything)
{
    /* Sec. 4.3: 12.5 KB read with 32-byte stride: 400 lines, 100 per set
     * (> 96) under bits 7-8, so cyclic LRU misses every line. 12 KB fits. */
    hms_cache c = texture_l1();
    pass_misses(&c, 400, 32);
    cr_assert_eq(pass_misses(&c, 400, 32), 400);
    hms_cache_reset(&c);
    pass_misses(&c, 384, 32);
    cr_assert_eq(pass_misses(&c, 384, 32), 0);
    hms_cache_free(&c);
}

Test(cache, lru_evicts_the_least_recently_used_line)
{
    /* One set of 2 ways, 32-byte lines. A B A C: C evicts B (A was used last). */
    hms_cache c = make(geom(64, 32, 2, 0, 0, HMS_REPL_LRU));
    cr_assert_eq(c.sets, 1);
    const uint64_t A = 0, B = 32, C = 64;
    cr_assert_not(hms_cache_access_line(&c, A));
    cr_assert_not(hms_cache_access_line(&c, B));
    cr_assert(hms_cache_access_line(&c, A + 4));
    cr_assert_not(hms_cache_access_line(&c, C));
    cr_assert(hms_cache_access_line(&c, A));
    cr_assert_not(hms_cache_access_line(&c, B)); /* B was evicted; evicts C now */
    cr_assert(hms_cache_access_line(&c, A));
    cr_assert_not(hms_cache_access_line(&c, C));
    cr_assert_eq(c.stats.accesses, 8);
    cr_assert_eq(c.stats.hits, 3);
    cr_assert_eq(c.stats.misses, 5);
    cr_assert_eq(c.stats.evictions, 3);
    cr_assert_float_eq(hms_cache_hit_rate(&c), 3.0 / 8.0, 1e-12);
    hms_cache_free(&c);
}

/* Fermi L1 (Mei & Chu sec. 4.5, Table V): 16 KB, 128-byte lines, 4 ways. */
static hms_cache_geom fermi_l1_geom(void)
{
    return geom(16 * 1024, 128, 4, 0, 0, HMS_REPL_FERMI_L1);
}

Test(cache, fermi_l1_is_repeatable)
{
    hms_cache a = make(fermi_l1_geom()), b = make(fermi_l1_geom());
    cr_assert_eq(a.sets, 32);
    /* 5 lines cycling through one set (stride 32 sets x 128 B = 4 KB). */
    char trace_a[600], trace_b[600], trace_a2[600];
    for (int i = 0; i < 600; i++) {
        uint64_t addr = (uint64_t)(i % 5) * 4096;
        trace_a[i] = hms_cache_access_line(&a, addr);
        trace_b[i] = hms_cache_access_line(&b, addr);
    }
    cr_assert(memcmp(trace_a, trace_b, sizeof trace_a) == 0);
    hms_cache_reset(&a);
    for (int i = 0; i < 600; i++)
        trace_a2[i] = hms_cache_access_line(&a, (uint64_t)(i % 5) * 4096);
    cr_assert(memcmp(trace_a, trace_a2, sizeof trace_a) == 0);
    hms_cache_free(&a);
    hms_cache_free(&b);
}

Test(cache, fermi_l1_beats_lru_on_a_cyclic_overflow)
{
    /* Mei & Chu sec. 4.5: overflowing a set by one line, LRU misses every
     * access while the Fermi policy keeps some lines. */
    hms_cache lru = make(geom(16 * 1024, 128, 4, 0, 0, HMS_REPL_LRU));
    hms_cache fermi = make(fermi_l1_geom());
    unsigned lru_miss = 0, fermi_miss = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t addr = (uint64_t)(i % 5) * 4096;
        lru_miss += !hms_cache_access_line(&lru, addr);
        fermi_miss += !hms_cache_access_line(&fermi, addr);
    }
    cr_assert_eq(lru_miss, 1000);
    cr_assert_lt(fermi_miss, 1000);
    cr_assert_gt(fermi_miss, 5);
    hms_cache_free(&lru);
    hms_cache_free(&fermi);
}

Test(cache, fermi_l1_replaces_the_hot_way_half_the_time)
{
    /* "Cache way 2 ... is updated once every two cache misses": probability
     * 3/6 for the hot way, 1/6 for each other. Count which way each eviction
     * overwrote, over 6000 evictions in one set with fresh lines each time. */
    hms_cache c = make(fermi_l1_geom());
    for (int i = 0; i < 4; i++)
        hms_cache_access_line(&c, (uint64_t)i * 4096);
    unsigned per_way[4] = {0};
    for (int i = 4; i < 6004; i++) {
        uint64_t before[4];
        for (int w = 0; w < 4; w++) /* set 0's ways */
            before[w] = c.tag[hms_cache_entry(&c, 0, (uint32_t)w)];
        cr_assert_not(hms_cache_access_line(&c, (uint64_t)i * 4096));
        for (int w = 0; w < 4; w++)
            if (c.tag[hms_cache_entry(&c, 0, (uint32_t)w)] != before[w])
                per_way[w]++;
    }
    cr_assert_eq(per_way[0] + per_way[1] + per_way[2] + per_way[3], 6000);
    for (int w = 0; w < 4; w++) {
        double share = per_way[w] / 6000.0;
        double want = w == HMS_FERMI_L1_HOT_WAY ? 0.5 : 1.0 / 6.0;
        cr_assert(share > want - 0.03 && share < want + 0.03, "way %d: %.3f", w, share);
    }
    hms_cache_free(&c);
}

Test(cache, random_replacement_fills_empty_ways_first_and_repeats)
{
    hms_cache a = make(geom(16 * 1024, 128, 4, 0, 0, HMS_REPL_RANDOM));
    cr_assert_eq(pass_misses(&a, 4, 4096), 4);
    cr_assert_eq(pass_misses(&a, 4, 4096), 0);
    cr_assert_eq(a.stats.evictions, 0);
    unsigned m1 = pass_misses(&a, 50, 4096);
    hms_cache_reset(&a);
    pass_misses(&a, 4, 4096);
    pass_misses(&a, 4, 4096);
    cr_assert_eq(pass_misses(&a, 50, 4096), m1);
    hms_cache_free(&a);
}

/* Hit/miss trace of set 1 of a 4-way, 32-set cache under a cyclic overflow
 * (6 lines), with `noise` fresh misses in set 0 before each set-1 lookup. */
static void set1_trace(hms_replacement repl, unsigned noise, char *trace, int n)
{
    hms_cache c = make(geom(16 * 1024, 128, 4, 0, 0, repl));
    uint64_t fresh = 0;
    for (int i = 0; i < n; i++) {
        for (unsigned k = 0; k < noise; k++) /* set 0: lines 32 x j, never seen before */
            hms_cache_access_line(&c, (fresh++ + 1000) * 4096);
        trace[i] = hms_cache_access_line(&c, 128 + (uint64_t)(i % 6) * 4096);
    }
    hms_cache_free(&c);
}

Test(cache, random_sets_are_independent)
{
    /* Each set draws from its own generator: whatever set 0 does (nothing,
     * one eviction or several between set 1's lookups), set 1 hits and misses
     * alike, as independent hardware sets do. */
    hms_replacement policies[] = {HMS_REPL_RANDOM, HMS_REPL_FERMI_L1};
    for (size_t p = 0; p < 2; p++) {
        char quiet[400], busy[400], busier[400];
        set1_trace(policies[p], 0, quiet, 400);
        set1_trace(policies[p], 1, busy, 400);
        set1_trace(policies[p], 3, busier, 400);
        unsigned hits = 0;
        for (int i = 0; i < 400; i++)
            hits += (unsigned)quiet[i];
        cr_assert(hits > 0 && hits < 400 - 6, "policy %zu: %u hits", p, hits);
        cr_assert(memcmp(quiet, busy, sizeof quiet) == 0, "policy %zu", p);
        cr_assert(memcmp(quiet, busier, sizeof quiet) == 0, "policy %zu", p);
    }
}

Test(cache, random_choice_spreads_over_ways_in_every_set)
{
    /* 8 ways, 16 sets: in each set, 4000 evictions of fresh lines overwrite
     * each way about 1/8 of the time; and sets do not repeat one another's
     * choices (each has its own seed). */
    hms_cache c = make(geom(16 * 1024, 128, 8, 0, 0, HMS_REPL_RANDOM));
    cr_assert_eq(c.sets, 16);
    enum { EVICTIONS = 4000 };
    static uint8_t choice[16][EVICTIONS];
    for (uint32_t set = 0; set < 16; set++) {
        uint64_t line = set;
        for (int i = 0; i < 8; i++, line += 16)
            hms_cache_access_line(&c, line * 128);
        unsigned per_way[8] = {0};
        for (int i = 0; i < EVICTIONS; i++, line += 16) {
            uint64_t before[8];
            for (uint32_t w = 0; w < 8; w++)
                before[w] = c.tag[hms_cache_entry(&c, set, w)];
            cr_assert_not(hms_cache_access_line(&c, line * 128));
            unsigned changed = 0;
            for (uint32_t w = 0; w < 8; w++)
                if (c.tag[hms_cache_entry(&c, set, w)] != before[w]) {
                    per_way[w]++;
                    choice[set][i] = (uint8_t)w;
                    changed++;
                }
            cr_assert_eq(changed, 1);
        }
        for (int w = 0; w < 8; w++) {
            double share = per_way[w] / (double)EVICTIONS;
            cr_assert(share > 0.125 - 0.03 && share < 0.125 + 0.03, "set %u way %d: %.3f", set, w,
                      share);
        }
        if (set > 0) /* chance agreement is 1/8 per eviction */
            cr_assert(memcmp(choice[set], choice[set - 1], EVICTIONS) != 0, "set %u", set);
    }
    hms_cache_free(&c);
}

Test(cache, range_access_counts_each_line_touched)
{
    hms_cache c = make(fermi_l1_geom());
    uint32_t h, m;
    hms_cache_access(&c, 120, 16, &h, &m); /* bytes 120..135: lines 0 and 1 */
    cr_assert_eq(h, 0);
    cr_assert_eq(m, 2);
    hms_cache_access(&c, 128, 128, &h, &m);
    cr_assert_eq(h, 1);
    cr_assert_eq(m, 0);
    hms_cache_access(&c, 0, 0, &h, &m);
    cr_assert_eq(h + m, 0);
    hms_cache_free(&c);
}

static hms_warp_access warp(uint64_t base, uint64_t stride, unsigned width, uint32_t mask)
{
    return hms_test_strided(HMS_SPACE_GLOBAL, base, stride, width, mask);
}

Test(cache, warp_hit_needs_every_line_to_hit)
{
    hms_cache c = make(fermi_l1_geom());
    hms_cache_outcome o;
    hms_warp_access unit = warp(0, 4, 4, UINT32_MAX);
    cr_assert(hms_cache_warp(&c, &unit, &o));
    cr_assert_eq(o.lines, 1);
    cr_assert_eq(o.misses, 1);
    cr_assert_not(o.hit);
    cr_assert(hms_cache_warp(&c, &unit, &o));
    cr_assert(o.hit);

    /* Stride 2 floats: lines 0 (cached) and 1 (not): a warp-level miss. */
    hms_warp_access two = warp(0, 8, 4, UINT32_MAX);
    cr_assert(hms_cache_warp(&c, &two, &o));
    cr_assert_eq(o.lines, 2);
    cr_assert_eq(o.hits, 1);
    cr_assert_eq(o.misses, 1);
    cr_assert_not(o.hit);

    hms_warp_access idle = warp(0, 4, 4, 0);
    cr_assert(hms_cache_warp(&c, &idle, &o));
    cr_assert_eq(o.lines, 0);
    cr_assert_eq(c.stats.warp_requests, 3);
    cr_assert_eq(c.stats.warp_hits, 1);

    hms_warp_access bad = warp(0, 4, 0, UINT32_MAX);
    cr_assert_not(hms_cache_warp(&c, &bad, &o));
    cr_assert_eq(c.stats.warp_requests, 3);
    hms_cache_free(&c);
}

Test(cache, unequal_sets_give_set_zero_the_extra_entries)
{
    /* Mei & Chu L2 TLB: 130 MB, 2 MB entries, set 0 of 17 + 6 sets of 8. */
    hms_cache_geom g = geom(130u << 20, 2u << 20, 8, 7, 0, HMS_REPL_LRU);
    g.set0_ways = 17;
    hms_cache c = make(g);
    cr_assert_eq(c.entries, 65);
    cr_assert_eq(c.set_ways[0], 17);
    for (uint32_t s = 1; s < 7; s++)
        cr_assert_eq(c.set_ways[s], 8);
    hms_cache_free(&c);
}

Test(cache, bad_geometries_are_explained)
{
    struct {
        hms_cache_geom g;
        const char *why;
    } cases[] = {
        {geom(0, 32, 4, 0, 0, HMS_REPL_LRU), "absent"},
        {geom(1024, 48, 4, 0, 0, HMS_REPL_LRU), "line_bytes 48 is not a power of two"},
        {geom(1024, 32, 0, 0, 0, HMS_REPL_LRU), "ways is 0"},
        {geom(1000, 32, 4, 0, 0, HMS_REPL_LRU), "not a whole number of 32-byte lines"},
        {geom(1024, 32, 3, 0, 0, HMS_REPL_LRU), "not a whole number of 3-way sets"},
        {geom(1024, 32, 4, 16, 0, HMS_REPL_LRU), "16 sets x 4 ways (set 0: 4) x 32 B do not make"},
        {geom(1024, 32, 4, 4, 0, HMS_REPL_LRU), "4 sets x 4 ways (set 0: 4) x 32 B do not make"},
        {geom(12 * 1024, 32, 96, 0, 3, HMS_REPL_LRU), "set_bit_low 3"},
        {geom(1024, 32, 4, 0, 0, (hms_replacement)9), "unknown replacement policy 9"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hms_cache c;
        char err[160] = "";
        cr_assert_not(hms_cache_init(&c, &cases[i].g, err, sizeof err), "case %zu", i);
        cr_assert(strstr(err, cases[i].why), "case %zu: got '%s'", i, err);
        hms_cache_free(&c); /* safe after a failed init */
    }
    hms_cache c;
    char err[160] = "";
    hms_cache_geom g = geom(130u << 20, 2u << 20, 8, 7, 0, HMS_REPL_LRU);
    g.set0_ways = 8;
    cr_assert_not(hms_cache_init(&c, &g, err, sizeof err));
    cr_assert(strstr(err, "set0_ways 8 must exceed ways 8"), "got '%s'", err);
    g.set0_ways = 17;
    g.sets = 0;
    cr_assert_not(hms_cache_init(&c, &g, err, sizeof err));
    cr_assert(strstr(err, "set0_ways needs sets"), "got '%s'", err);
}
