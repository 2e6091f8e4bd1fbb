/* Shared-memory banks: wavefronts and conflict ways of hand-built accesses,
 * and the latency lookup against Mei & Chu (seeds/002_1cb76b36ded3a9f2.txt)
 * Table VIII. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "runtime/banks.h"
#include "testsuite/support/warp_access.h"

static hms_arch banks_arch(int banks, int bank_bytes)
{
    hms_arch a;
    memset(&a, 0, sizeof a);
    a.shared_banks = banks;
    a.shared_bank_bytes = bank_bytes;
    return a;
}

/* Lane i accesses `width` bytes at base + i * stride_bytes. */
static hms_warp_access strided(uint64_t base, uint64_t stride_bytes, unsigned width, uint32_t mask)
{
    return hms_test_strided(HMS_SPACE_SHARED, base, stride_bytes, width, mask);
}

static hms_bank_result eval(const hms_arch *a, const hms_warp_access *w)
{
    hms_bank_result r;
    cr_assert(hms_banks_warp(a, w, &r));
    return r;
}

static unsigned gcd(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

Test(banks, stride_s_words_is_gcd_s_32_way_conflict)
{
    /* Mei & Chu sec. 6.2: conflict ways = gcd(stride, 32) on 32 4-byte banks. */
    hms_arch a = banks_arch(32, 4);
    for (unsigned s = 1; s <= 64; s++) {
        hms_warp_access w = strided(0, 4 * s, 4, UINT32_MAX);
        hms_bank_result r = eval(&a, &w);
        cr_assert_eq(r.ways, gcd(s, 32), "stride %u: %u ways", s, r.ways);
        cr_assert_eq(r.wavefronts, gcd(s, 32), "stride %u", s);
        cr_assert_eq(r.phases, 1);
    }
}

Test(banks, same_word_is_a_broadcast)
{
    hms_arch a = banks_arch(32, 4);
    hms_warp_access w = strided(40, 0, 4, UINT32_MAX);
    hms_bank_result r = eval(&a, &w);
    cr_assert_eq(r.wavefronts, 1);
    cr_assert_eq(r.ways, 1);

    /* Pairs of lanes share a word: 16 words in 16 banks, still one pass. */
    for (int i = 0; i < 32; i++)
        w.addr[i] = (uint64_t)(i / 2) * 4;
    cr_assert_eq(eval(&a, &w).wavefronts, 1);

    /* Half the warp on word 0, half on word 32: same bank, two words. */
    for (int i = 0; i < 32; i++)
        w.addr[i] = i < 16 ? 0 : 128;
    r = eval(&a, &w);
    cr_assert_eq(r.wavefronts, 2);
    cr_assert_eq(r.ways, 2);

    /* Bytes of one word (char s[tid / 4]) are one word on 32 banks. */
    w = strided(0, 1, 1, UINT32_MAX); /* bytes 0..31 -> words 0..7 */
    cr_assert_eq(eval(&a, &w).wavefronts, 1);
}

Test(banks, eight_byte_accesses_run_as_two_half_warp_phases)
{
    hms_arch a = banks_arch(32, 4);
    /* double s[tid]: each half-warp covers 128 B = words 0..31 once. */
    hms_warp_access w = strided(0, 8, 8, UINT32_MAX);
    hms_bank_result r = eval(&a, &w);
    cr_assert_eq(r.phases, 2);
    cr_assert_eq(r.wavefronts, 2);
    cr_assert_eq(r.ways, 1);

    /* double s[2 * tid]: half-warp lanes 0-7 use words {0,1},{4,5},...,{28,29},
     * lanes 8-15 words {32,33},... -> banks 0,1,4,5,.. hold two words each. */
    w = strided(0, 16, 8, UINT32_MAX);
    r = eval(&a, &w);
    cr_assert_eq(r.wavefronts, 4);
    cr_assert_eq(r.ways, 2);

    /* Only the first half-warp active: one phase. */
    w = strided(0, 8, 8, 0x0000ffffu);
    r = eval(&a, &w);
    cr_assert_eq(r.phases, 1);
    cr_assert_eq(r.wavefronts, 1);
}

Test(banks, sixteen_byte_accesses_run_as_four_quarter_warp_phases)
{
    hms_arch a = banks_arch(32, 4);
    /* float4 s[tid]: 8 lanes x 16 B = 128 B per quarter: conflict free. */
    hms_warp_access w = strided(0, 16, 16, UINT32_MAX);
    hms_bank_result r = eval(&a, &w);
    cr_assert_eq(r.phases, 4);
    cr_assert_eq(r.wavefronts, 4);
    cr_assert_eq(r.ways, 1);

    /* float4 s[2 * tid]: a quarter spans 256 B, banks 0-3, 8-11, 16-19, 24-27
     * each hold two words -> 2 per phase. */
    w = strided(0, 32, 16, UINT32_MAX);
    r = eval(&a, &w);
    cr_assert_eq(r.wavefronts, 8);
    cr_assert_eq(r.ways, 2);
}

Test(banks, sixteen_banks_serve_half_warps_separately)
{
    /* cc 1.x: 16 banks, conflicts only within a half-warp, passes summed. */
    hms_arch a = banks_arch(16, 4);
    hms_warp_access w = strided(0, 4, 4, UINT32_MAX);
    hms_bank_result r = eval(&a, &w);
    cr_assert_eq(r.phases, 2);
    cr_assert_eq(r.wavefronts, 2);
    cr_assert_eq(r.ways, 1);

    /* CuMAPz sec. 5.5: float s[16][16] read as s[tx][ty] -> stride 16 words
     * -> 16-way per half-warp. */
    w = strided(0, 64, 4, UINT32_MAX);
    r = eval(&a, &w);
    cr_assert_eq(r.ways, 16);
    cr_assert_eq(r.wavefronts, 32);

    /* ... padded to s[16][17]: stride 17 -> conflict free. */
    w = strided(0, 68, 4, UINT32_MAX);
    r = eval(&a, &w);
    cr_assert_eq(r.ways, 1);
    cr_assert_eq(r.wavefronts, 2);

    /* Stride 2: 2-way in each half-warp. */
    w = strided(0, 8, 4, UINT32_MAX);
    r = eval(&a, &w);
    cr_assert_eq(r.ways, 2);
    cr_assert_eq(r.wavefronts, 4);

    /* Lanes 0 and 16 on the same bank, different words: different
     * half-warps, so no conflict (would be 2-way on 32 banks). */
    w = strided(0, 4, 4, 0x00010001u);
    w.addr[16] = 64; /* word 16: bank 0 of 16 */
    r = eval(&a, &w);
    cr_assert_eq(r.ways, 1);
    cr_assert_eq(r.wavefronts, 2);
}

Test(banks, sixteen_banks_subword_reads_follow_the_cc1x_broadcast_procedure)
{
    /* char s[tid] on cc 1.x: bytes 0..15 of a half-warp sit in words 0..3.
     * Pass 1: broadcast word 0 (lanes 0-3) + lanes 4, 8, 12; pass 2: word 1
     * (5-7) + 9, 13; pass 3: word 2 (10, 11) + 14; pass 4: lane 15. */
    hms_arch a = banks_arch(16, 4);
    hms_warp_access w = strided(0, 1, 1, UINT32_MAX);
    hms_bank_result r = eval(&a, &w);
    cr_assert_eq(r.ways, 4);
    cr_assert_eq(r.wavefronts, 8);

    /* Every lane on one byte: a single broadcast pass per half-warp. */
    w = strided(5, 0, 1, UINT32_MAX);
    r = eval(&a, &w);
    cr_assert_eq(r.ways, 1);
    cr_assert_eq(r.wavefronts, 2);

    /* The same char pattern on 32 banks is a plain broadcast. */
    hms_arch fermi = banks_arch(32, 4);
    w = strided(0, 1, 1, UINT32_MAX);
    cr_assert_eq(eval(&fermi, &w).wavefronts, 1);
}

Test(banks, kepler_eight_byte_mode)
{
    /* Mei & Chu sec. 6.2, Fig. 19, ints with stride s in 8-byte mode: s = 2 no
     * conflict, s = 4 2-way, s = 6 no conflict. */
    hms_arch k = banks_arch(32, 8);
    hms_warp_access w = strided(0, 8, 4, UINT32_MAX);
    cr_assert_eq(eval(&k, &w).ways, 1);
    w = strided(0, 16, 4, UINT32_MAX);
    cr_assert_eq(eval(&k, &w).ways, 2);
    w = strided(0, 24, 4, UINT32_MAX);
    cr_assert_eq(eval(&k, &w).ways, 1);
    /* ... where 4-byte banks (Fermi) give gcd(6, 32) = 2 ways. */
    hms_arch f = banks_arch(32, 4);
    cr_assert_eq(eval(&f, &w).ways, 2);

    /* Two 4-byte words in one 8-byte bank word do not conflict. */
    w = strided(0, 4, 4, UINT32_MAX);
    hms_bank_result r = eval(&k, &w);
    cr_assert_eq(r.wavefronts, 1);
    w = strided(0, 4, 4, 0x3u); /* bytes 0 and 4: one 8-byte bank word */
    cr_assert_eq(eval(&k, &w).wavefronts, 1);
    w.addr[1] = 256; /* 8-byte word 32: bank 0 again, another row */
    cr_assert_eq(eval(&k, &w).wavefronts, 2);
    w.addr[1] = 128; /* 4-byte banks: word 32, bank 0 -> 2; 8-byte: bank 16 -> 1 */
    cr_assert_eq(eval(&k, &w).wavefronts, 1);
    cr_assert_eq(eval(&f, &w).wavefronts, 2);

    /* double s[tid] fills the 32 x 8 B banks in one phase. */
    w = strided(0, 8, 8, UINT32_MAX);
    r = eval(&k, &w);
    cr_assert_eq(r.phases, 1);
    cr_assert_eq(r.wavefronts, 1);

    /* float4 s[tid]: two half-warp phases of 256 B. */
    w = strided(0, 16, 16, UINT32_MAX);
    r = eval(&k, &w);
    cr_assert_eq(r.phases, 2);
    cr_assert_eq(r.wavefronts, 2);
}

Test(banks, no_active_lane_and_bad_records)
{
    hms_arch a = banks_arch(32, 4);
    hms_warp_access w = strided(0, 4, 4, 0);
    hms_bank_result r = eval(&a, &w);
    cr_assert_eq(r.wavefronts, 0);
    cr_assert_eq(r.phases, 0);

    w = strided(0, 4, 5, UINT32_MAX);
    cr_assert_not(hms_banks_warp(&a, &w, &r));
    hms_arch bad = banks_arch(32, 2); /* 2-byte banks do not exist */
    w = strided(0, 4, 4, UINT32_MAX);
    cr_assert_not(hms_banks_warp(&bad, &w, &r));

    /* Unset bank fields default to 32 x 4 B. */
    hms_arch unset = banks_arch(0, 0);
    w = strided(0, 8, 4, UINT32_MAX);
    cr_assert_eq(eval(&unset, &w).ways, 2);
}

/* Mei & Chu Table VIII (cycles): no conflict (sec. 6.2 text), 2..32-way. */
static hms_arch table8(const char *gpu)
{
    static const struct {
        const char *name;
        int lat[6];
    } rows[] = {
        {"GTX980", {28, 30, 34, 42, 58, 90}},
        {"GTX780", {47, 82, 96, 158, 257, 484}},
        {"GTX560Ti", {50, 87, 162, 311, 611, 1209}},
    };
    hms_arch a = banks_arch(32, 4);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (strcmp(rows[i].name, gpu) == 0)
            memcpy(a.shared_latency, rows[i].lat, sizeof a.shared_latency);
    return a;
}

Test(banks, table8_latencies_are_returned_for_measured_ways)
{
    const char *gpus[] = {"GTX980", "GTX780", "GTX560Ti"};
    const double ways[] = {1, 2, 4, 8, 16, 32};
    for (int g = 0; g < 3; g++) {
        hms_arch a = table8(gpus[g]);
        for (int i = 0; i < 6; i++) {
            double want = a.shared_latency[i];
            double got = hms_banks_latency(&a, ways[i]);
            cr_assert(fabs(got - want) <= 0.10 * want, "%s %g-way: %g vs %g", gpus[g], ways[i], got,
                      want);
            cr_assert_float_eq(got, want, 1e-9);
        }
    }
}

Test(banks, latency_interpolates_between_measured_ways)
{
    /* Hand values: 3-way halfway between 2 and 4; 6-way halfway between 4 and 8. */
    hms_arch m = table8("GTX980");
    cr_assert_float_eq(hms_banks_latency(&m, 3), 32.0, 1e-9);  /* (30 + 34) / 2 */
    cr_assert_float_eq(hms_banks_latency(&m, 6), 38.0, 1e-9);  /* (34 + 42) / 2 */
    cr_assert_float_eq(hms_banks_latency(&m, 12), 50.0, 1e-9); /* (42 + 58) / 2 */
    hms_arch k = table8("GTX780");
    cr_assert_float_eq(hms_banks_latency(&k, 3), 89.0, 1e-9);  /* (82 + 96) / 2 */
    cr_assert_float_eq(hms_banks_latency(&k, 6), 127.0, 1e-9); /* (96 + 158) / 2 */
    hms_arch f = table8("GTX560Ti");
    cr_assert_float_eq(hms_banks_latency(&f, 3), 124.5, 1e-9); /* (87 + 162) / 2 */
    cr_assert_float_eq(hms_banks_latency(&f, 6), 236.5, 1e-9); /* (162 + 311) / 2 */
    /* 5-way: a quarter of the way from 4 to 8: 162 + (311 - 162) / 4. */
    cr_assert_float_eq(hms_banks_latency(&f, 5), 199.25, 1e-9);
}

Test(banks, latency_edges)
{
    hms_arch m = table8("GTX980");
    cr_assert_float_eq(hms_banks_latency(&m, 0), 0.0, 1e-9);
    /* Beyond 32 ways: along the 16..32 slope, (90 - 58) / 16 = 2 per way. */
    cr_assert_float_eq(hms_banks_latency(&m, 64), 154.0, 1e-9);

    /* Unmeasured (0) entries are skipped: 1-way 28 and 32-way 90 only. */
    hms_arch sparse = banks_arch(32, 4);
    sparse.shared_latency[0] = 28;
    sparse.shared_latency[5] = 90;
    cr_assert_float_eq(hms_banks_latency(&sparse, 2), 28.0 + 62.0 / 31.0, 1e-9);

    hms_arch none = banks_arch(32, 4);
    cr_assert_float_eq(hms_banks_latency(&none, 4), 0.0, 1e-9);
}

Test(banks, request_latency_uses_the_serialised_passes)
{
    hms_arch f = table8("GTX560Ti");
    hms_warp_access w = strided(0, 8, 4, UINT32_MAX); /* stride 2: 2-way */
    hms_bank_result r = eval(&f, &w);
    cr_assert_float_eq(hms_banks_request_latency(&f, &r), 87.0, 1e-9);
    w = strided(0, 128, 4, UINT32_MAX); /* stride 32: 32-way */
    r = eval(&f, &w);
    cr_assert_float_eq(hms_banks_request_latency(&f, &r), 1209.0, 1e-9);
}

/* Replays in issue slots: on cc 1.x a warp instruction issues over 4 cycles
 * (32 lanes on 8 SPs) and the banks serve a half-warp pass every 2 cycles,
 * so two passes fit one issue; from cc 2.x one full pass is one issue, and
 * a Fermi pass of at most 16 lanes takes half of one. */
Test(banks, replay_slots_follow_passes_per_issue)
{
    hms_arch gt200 = banks_arch(16, 4);
    gt200.cc_major = 1;
    gt200.warp_size = 32;
    gt200.simd_width = 8;
    hms_arch fermi = banks_arch(32, 4);
    fermi.cc_major = 2;
    fermi.warp_size = 32;
    fermi.simd_width = 16;
    hms_arch volta = fermi;
    volta.cc_major = 7;
    cr_assert_float_eq(hms_banks_pass_cycles(&gt200), 2, 1e-12);
    cr_assert_float_eq(hms_banks_pass_cycles(&fermi), 2, 1e-12);
    cr_assert_float_eq(hms_banks_pass_cycles(&volta), 1, 1e-12);

    hms_warp_access row = strided(0, 4, 4, UINT32_MAX);  /* conflict free */
    hms_warp_access col = strided(0, 64, 4, UINT32_MAX); /* s[tx][ty] of a 16 x 16 buffer */
    hms_bank_result r = eval(&gt200, &row);
    cr_assert_float_eq(hms_banks_replay_slots(&gt200, &r), 0, 1e-12, "2 half-warp passes, 1 issue");
    r = eval(&gt200, &col);
    cr_assert_float_eq(hms_banks_replay_slots(&gt200, &r), 15, 1e-12, "32 passes, 16 issues");
    /* stride 16 words on 32 banks: 16-way, 16 passes of 2 lanes at 1 cycle
     * each (hms_banks_pass_cycles_for) = 16 cycles = 8 two-cycle slots */
    r = eval(&fermi, &col);
    cr_assert_eq(r.wavefronts, 16);
    cr_assert_float_eq(hms_banks_replay_slots(&fermi, &r), 7, 1e-12);
    hms_warp_access col32 = strided(0, 128, 4, UINT32_MAX); /* 32-way on 32 banks */
    r = eval(&fermi, &col32); /* 32 one-lane passes = 32 cycles = 16 slots */
    cr_assert_float_eq(hms_banks_replay_slots(&fermi, &r), 15, 1e-12);
    r = eval(&volta, &col32);
    cr_assert_float_eq(hms_banks_replay_slots(&volta, &r), 31, 1e-12);
    hms_bank_result none = {0, 0, 0, 0};
    cr_assert_float_eq(hms_banks_replay_slots(&gt200, &none), 0, 1e-12);
}

/* A replay slot in SM cycles: its passes at the banks' pass time. cc 1.x: 2
 * passes of 2 cycles = 4, the issue time of the SM's one scheduler (so
 * nothing changes there); cc 2.x: 1 pass of 2 cycles, while the SM's two
 * schedulers issue a warp instruction every cycle between them; cc 3.x on:
 * 1 cycle, while four schedulers issue every quarter cycle. */
Test(banks, replay_costs_its_passes_in_sm_cycles)
{
    hms_arch gt200 = banks_arch(16, 4);
    gt200.cc_major = 1;
    gt200.warp_size = 32;
    gt200.simd_width = 8;
    hms_arch fermi = banks_arch(32, 4);
    fermi.cc_major = 2;
    fermi.warp_size = 32;
    fermi.simd_width = 16;
    hms_arch kepler = fermi;
    kepler.cc_major = 3;
    kepler.simd_width = 32;
    hms_arch volta = fermi;
    volta.cc_major = 7;
    cr_assert_float_eq(hms_replay_sm_cycles(&gt200), 4, 1e-12);
    cr_assert_float_eq(hms_replay_sm_cycles(&fermi), 2, 1e-12);
    cr_assert_float_eq(hms_replay_sm_cycles(&kepler), 1, 1e-12);
    cr_assert_float_eq(hms_replay_sm_cycles(&volta), 1, 1e-12);
}

/* Cycles of each pass by the values it delivers (hms_banks_pass_cycles_for).
 * Fermi: 32 banks x 4 B per 2 cycles = 16 values a cycle (its 16 LD/ST
 * units). Conflict-free 32 lanes: 1 pass of 32 values = 2 cycles; 2-way
 * (stride 2): passes of 16 lanes (0-15, then 16-31) = 1 + 1; 32-way: 32
 * passes of one lane = 32 cycles, not 64; a broadcast: one pass of 32
 * values = 2; 8-byte lanes, conflict-free: 2 half-warp passes of 16 x 2
 * values = 2 + 2. cc 1.x keeps 2 cycles a pass; cc 3.0 on, 1. */
Test(banks, pass_cycles_follow_the_values_each_pass_delivers)
{
    hms_arch fermi = banks_arch(32, 4);
    fermi.cc_major = 2;
    fermi.warp_size = 32;
    fermi.simd_width = 16;
    cr_assert_float_eq(hms_banks_pass_cycles_for(&fermi, 32), 2, 1e-12);
    cr_assert_float_eq(hms_banks_pass_cycles_for(&fermi, 17), 2, 1e-12);
    cr_assert_float_eq(hms_banks_pass_cycles_for(&fermi, 16), 1, 1e-12);
    cr_assert_float_eq(hms_banks_pass_cycles_for(&fermi, 1), 1, 1e-12);
    cr_assert_float_eq(hms_banks_pass_cycles_for(&fermi, 0), 1, 1e-12);

    struct {
        uint64_t stride;
        unsigned width;
        uint32_t wavefronts, cycles, replays;
    } c[] = {
        {4, 4, 1, 2, 0},      /* conflict free */
        {8, 4, 2, 2, 0},      /* 2-way: two passes of 16 lanes */
        {16, 4, 4, 4, 1},     /* 4-way: four passes of 8 lanes */
        {128, 4, 32, 32, 15}, /* 32-way: 32 passes of one lane */
        {0, 4, 1, 2, 0},      /* broadcast: one word to 32 lanes */
        {8, 8, 2, 4, 1},      /* 8-byte lanes: two half-warp passes of 32 values */
        {16, 8, 4, 4, 1},     /* 8-byte lanes, 2-way in each half: 4 passes of 16 */
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        hms_warp_access w = strided(0, c[i].stride, c[i].width, UINT32_MAX);
        hms_bank_result r = eval(&fermi, &w);
        cr_assert_eq(r.wavefronts, c[i].wavefronts, "case %zu", i);
        cr_assert_eq(r.cycles, c[i].cycles, "case %zu: %u cycles", i, r.cycles);
        cr_assert_float_eq(hms_banks_replay_slots(&fermi, &r), c[i].replays, 1e-12, "case %zu", i);
    }
    /* Half a warp active, conflict free: one pass of 16 values = 1 cycle. */
    hms_warp_access half = strided(0, 4, 4, 0x0000ffffu);
    cr_assert_eq(eval(&fermi, &half).cycles, 1);
    /* 2-byte lanes, two to a word: one pass of 32 values (one per lane). */
    hms_warp_access shorts = strided(0, 2, 2, UINT32_MAX);
    hms_bank_result sr = eval(&fermi, &shorts);
    cr_assert_eq(sr.wavefronts, 1);
    cr_assert_eq(sr.cycles, 2);
    /* A 2-way conflict whose second pass serves one lane: 31 + 1 values. */
    hms_warp_access odd = strided(0, 4, 4, UINT32_MAX);
    odd.addr[31] = 128; /* bank 0, next to lane 0's word 0 */
    hms_bank_result r = eval(&fermi, &odd);
    cr_assert_eq(r.wavefronts, 2);
    cr_assert_eq(r.cycles, 3);

    hms_arch gt200 = banks_arch(16, 4);
    gt200.cc_major = 1;
    gt200.warp_size = 32;
    gt200.simd_width = 8;
    cr_assert_float_eq(hms_banks_pass_cycles_for(&gt200, 1), 2, 1e-12, "cc 1.x: SP issue");
    hms_warp_access col = strided(0, 64, 4, UINT32_MAX); /* 16-way in each half-warp */
    r = eval(&gt200, &col);
    cr_assert_eq(r.wavefronts, 32);
    cr_assert_eq(r.cycles, 64);
    cr_assert_float_eq(hms_banks_replay_slots(&gt200, &r), 15, 1e-12);

    hms_arch kepler = banks_arch(32, 8);
    kepler.cc_major = 3;
    hms_warp_access col32 = strided(0, 256, 4, UINT32_MAX); /* 32-way on 8-byte banks */
    r = eval(&kepler, &col32);
    cr_assert_eq(r.cycles, r.wavefronts);
    cr_assert_float_eq(hms_banks_pass_cycles_for(&kepler, 32), 1, 1e-12);
}

/* A Fermi pass takes one cycle per 16 values it delivers. 8-byte lanes span
 * two 4-byte bank words each, and both count: 8 lanes = 16 values in one
 * pass (1 cycle), 9 lanes = 18 values (2 cycles), with no conflict. */
Test(banks, fermi_pass_counts_every_word_of_wide_lanes)
{
    hms_arch fermi = banks_arch(32, 4);
    fermi.cc_major = 2;
    fermi.warp_size = 32;
    fermi.simd_width = 16;
    hms_warp_access eight = strided(0, 8, 8, 0xffu);
    hms_bank_result r = eval(&fermi, &eight);
    cr_assert_eq(r.wavefronts, 1);
    cr_assert_eq(r.cycles, 1);
    hms_warp_access nine = strided(0, 8, 8, 0x1ffu);
    r = eval(&fermi, &nine);
    cr_assert_eq(r.wavefronts, 1);
    cr_assert_eq(r.cycles, 2);
    /* 4-byte lanes: one word each; 16 lanes = 1 cycle, 17 lanes = 2 */
    hms_warp_access w16 = strided(4, 4, 4, 0xffffu);
    cr_assert_eq(eval(&fermi, &w16).cycles, 1);
    hms_warp_access w17 = strided(4, 4, 4, 0x1ffffu);
    cr_assert_eq(eval(&fermi, &w17).cycles, 2);
}
