/* Two-level TLB with Mei & Chu's measured structure (sec. 4.4, Table V):
 * L1 16 entries fully associative, 2 MB pages; L2 one 17-entry set + six
 * 8-entry sets, LRU, 130 MB reach. */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime/tlb.h"

#define MB (1024ull * 1024ull)
#define PAGE (2 * MB)

static hms_arch mei_chu_tlb(void)
{
    hms_arch a;
    memset(&a, 0, sizeof a);
    a.tlb_l1 = (hms_cache_geom){.size_bytes = 32 * MB, .line_bytes = PAGE, .ways = 16, .sets = 1};
    a.tlb_l2 = (hms_cache_geom){
        .size_bytes = 130 * MB, .line_bytes = PAGE, .ways = 8, .sets = 7, .set0_ways = 17};
    return a;
}

static hms_tlb make(const hms_arch *a)
{
    hms_tlb t;
    char err[200];
    cr_assert(hms_tlb_init(&t, a, err, sizeof err), "%s", err);
    return t;
}

Test(tlb, reach_is_entries_times_page_size)
{
    hms_arch a = mei_chu_tlb();
    cr_assert_eq(hms_tlb_reach(&a.tlb_l1), 32 * MB);  /* 16 x 2 MB */
    cr_assert_eq(hms_tlb_reach(&a.tlb_l2), 130 * MB); /* 65 x 2 MB */
    hms_cache_geom none = {0};
    cr_assert_eq(hms_tlb_reach(&none), 0);
}

Test(tlb, levels_fill_and_hit)
{
    hms_arch a = mei_chu_tlb();
    hms_tlb t = make(&a);
    cr_assert_eq(t.l2.set_ways[0], 17);
    cr_assert_eq(hms_tlb_access(&t, 5 * MB), HMS_TLB_MISS);
    cr_assert_eq(hms_tlb_access(&t, 4 * MB), HMS_TLB_L1_HIT); /* same 2 MB page */
    cr_assert_eq(hms_tlb_access(&t, 6 * MB), HMS_TLB_MISS);   /* next page */
    cr_assert_eq(t.lookups, 3);
    cr_assert_eq(t.by_level[HMS_TLB_MISS], 2);
    cr_assert_eq(t.by_level[HMS_TLB_L1_HIT], 1);
    hms_tlb_free(&t);
}

Test(tlb, seventeen_pages_overflow_l1_but_hit_l2)
{
    /* Cycling 17 pages through a 16-entry LRU L1 misses L1 every time; all
     * 17 pages fit in the L2 (65 entries), so after the first round each
     * lookup is an L2 hit. */
    hms_arch a = mei_chu_tlb();
    hms_tlb t = make(&a);
    for (int p = 0; p < 17; p++)
        cr_assert_eq(hms_tlb_access(&t, (uint64_t)p * PAGE), HMS_TLB_MISS);
    for (int round = 0; round < 3; round++)
        for (int p = 0; p < 17; p++)
            cr_assert_eq(hms_tlb_access(&t, (uint64_t)p * PAGE), HMS_TLB_L2_HIT, "page %d", p);
    /* 16 pages fit the L1. */
    hms_tlb_reset(&t);
    for (int round = 0; round < 2; round++)
        for (int p = 0; p < 16; p++)
            hms_tlb_access(&t, (uint64_t)p * PAGE);
    cr_assert_eq(t.by_level[HMS_TLB_L1_HIT], 16);
    hms_tlb_free(&t);
}

/* L2 misses in one steady-state pass over n pages with a 2 MB stride (the
 * P-chase of Mei & Chu Fig. 10), after two warm-up passes. */
static unsigned l2_misses_per_pass(unsigned n)
{
    hms_arch a = mei_chu_tlb();
    hms_tlb t = make(&a);
    for (int warm = 0; warm < 2; warm++)
        for (unsigned p = 0; p < n; p++)
            hms_tlb_access(&t, p * PAGE);
    uint64_t before = t.by_level[HMS_TLB_MISS];
    for (unsigned p = 0; p < n; p++)
        hms_tlb_access(&t, p * PAGE);
    unsigned m = (unsigned)(t.by_level[HMS_TLB_MISS] - before);
    hms_tlb_free(&t);
    return m;
}

Test(tlb, l2_miss_curve_is_piecewise_linear_like_fig10)
{
    /* Up to 130 MB (65 pages) everything fits. At 132 MB the 17-entry set
     * overflows (18 pages cycle through 17 ways: all 18 miss); each further
     * 2 MB overflows one more 8-entry set (9 more misses), until 144 MB
     * (72 pages) where every set overflows and every lookup misses. Mei & Chu
     * count missed entries (ways): 17, then +8 per 2 MB. */
    cr_assert_eq(l2_misses_per_pass(60), 0);
    cr_assert_eq(l2_misses_per_pass(65), 0);
    cr_assert_eq(l2_misses_per_pass(66), 18);
    for (unsigned n = 67; n <= 72; n++)
        cr_assert_eq(l2_misses_per_pass(n), 18 + 9 * (n - 66), "%u pages", n);
    cr_assert_eq(l2_misses_per_pass(72), 72);
}

Test(tlb, warp_translates_each_page_once_and_reports_the_slowest)
{
    hms_arch a = mei_chu_tlb();
    hms_tlb t = make(&a);
    hms_warp_access w;
    memset(&w, 0, sizeof w);
    w.width = 4;
    w.mask = UINT32_MAX;
    for (int i = 0; i < 32; i++)
        w.addr[i] = (i < 16 ? 0 : PAGE) + (uint64_t)i * 4; /* two pages */
    uint32_t pages;
    cr_assert_eq(hms_tlb_warp(&t, &w, &pages), HMS_TLB_MISS);
    cr_assert_eq(pages, 2);
    cr_assert_eq(hms_tlb_warp(&t, &w, &pages), HMS_TLB_L1_HIT);
    w.addr[31] = 40 * MB; /* one lane on a new page */
    cr_assert_eq(hms_tlb_warp(&t, &w, &pages), HMS_TLB_MISS);
    cr_assert_eq(pages, 3);
    w.mask = 0;
    cr_assert_eq(hms_tlb_warp(&t, &w, &pages), HMS_TLB_UNMODELLED);
    cr_assert_eq(pages, 0);
    hms_tlb_free(&t);
}

/* Lanes in any order inside one page translate one page; a lane whose last
 * byte crosses into the next page, or a lane on another page, adds it. */
Test(tlb, warp_pages_when_lanes_share_a_page_or_straddle)
{
    hms_arch a = mei_chu_tlb();
    hms_tlb t = make(&a);
    hms_warp_access w;
    memset(&w, 0, sizeof w);
    w.width = 4;
    w.mask = 0xfffffff0u;
    for (int i = 0; i < 32; i++)
        w.addr[i] = 5 * PAGE + (uint64_t)(31 - i) * 4096 + (uint64_t)(i % 3) * 64;
    uint32_t pages;
    cr_assert_eq(hms_tlb_warp(&t, &w, &pages), HMS_TLB_MISS);
    cr_assert_eq(pages, 1);
    cr_assert_eq(hms_tlb_warp(&t, &w, &pages), HMS_TLB_L1_HIT);
    cr_assert_eq(pages, 1);
    w.addr[9] = 6 * PAGE - 2; /* its last two bytes are on page 6 */
    cr_assert_eq(hms_tlb_warp(&t, &w, &pages), HMS_TLB_MISS);
    cr_assert_eq(pages, 2);
    w.addr[9] = 6 * PAGE - 4; /* all four on page 5 */
    cr_assert_eq(hms_tlb_warp(&t, &w, &pages), HMS_TLB_L1_HIT);
    cr_assert_eq(pages, 1);
    w.addr[3] = 9 * PAGE; /* an inactive lane elsewhere: no page */
    cr_assert_eq(hms_tlb_warp(&t, &w, &pages), HMS_TLB_L1_HIT);
    cr_assert_eq(pages, 1);
    hms_tlb_free(&t);
}

Test(tlb, missing_levels)
{
    hms_arch none;
    memset(&none, 0, sizeof none);
    hms_tlb t = make(&none);
    cr_assert_eq(hms_tlb_access(&t, 0), HMS_TLB_UNMODELLED);
    hms_tlb_free(&t);

    /* L1 only: an L1 miss is a full miss. */
    hms_arch l1only = mei_chu_tlb();
    memset(&l1only.tlb_l2, 0, sizeof l1only.tlb_l2);
    t = make(&l1only);
    cr_assert_eq(hms_tlb_access(&t, 0), HMS_TLB_MISS);
    cr_assert_eq(hms_tlb_access(&t, 0), HMS_TLB_L1_HIT);
    hms_tlb_free(&t);

    /* L2 only. */
    hms_arch l2only = mei_chu_tlb();
    memset(&l2only.tlb_l1, 0, sizeof l2only.tlb_l1);
    t = make(&l2only);
    cr_assert_eq(hms_tlb_access(&t, 0), HMS_TLB_MISS);
    cr_assert_eq(hms_tlb_access(&t, 0), HMS_TLB_L2_HIT);
    hms_tlb_free(&t);
}

Test(tlb, bad_geometry_names_the_level)
{
    hms_arch a = mei_chu_tlb();
    a.tlb_l2.set0_ways = 16; /* 16 + 6 x 8 = 64 entries, not 65 */
    hms_tlb t;
    char err[200] = "";
    cr_assert_not(hms_tlb_init(&t, &a, err, sizeof err));
    cr_assert(strstr(err, "TLB L2: 7 sets x 8 ways (set 0: 16)"), "got: %s", err);
    hms_tlb_free(&t);
}
