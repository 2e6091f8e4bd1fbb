/* Coalescing: sectors, lines and transactions of hand-built warp accesses.
 * Expected values are worked out by hand from the byte ranges each lane
 * touches; the cc 1.3 cases follow the CUDA 1.x half-warp rules and the three
 * worked examples of the CUDA C Programming Guide (G.3.2.2, Fig. G-2). */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime/coalesce.h"
#include "testsuite/support/warp_access.h"

/* Kepler-style: 32-byte sectors, 128-byte lines, global loads not in L1. */
static hms_arch sector_arch(void)
{
    hms_arch a;
    memset(&a, 0, sizeof a);
    a.sector_bytes = 32;
    a.line_bytes = 128;
    return a;
}

static hms_arch fermi_arch(void)
{
    hms_arch a = sector_arch();
    a.l1_caches_global = true;
    return a;
}

static hms_arch gt200_arch(void)
{
    hms_arch a = sector_arch();
    a.half_warp_segments = true;
    return a;
}

/* Lane i reads `width` bytes at base + i * stride. */
static hms_warp_access strided(uint64_t base, uint64_t stride, unsigned width, uint32_t mask)
{
    return hms_test_strided(HMS_SPACE_GLOBAL, base, stride, width, mask);
}

static hms_coalesce_result eval(const hms_arch *arch, const hms_warp_access *w)
{
    hms_coalesce_result r;
    cr_assert(hms_coalesce_warp(arch, w, &r));
    return r;
}

Test(coalesce, unit_stride_float_is_four_sectors_one_line)
{
    hms_arch a = sector_arch();
    hms_warp_access w = strided(0, 4, 4, UINT32_MAX);
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.active_lanes, 32);
    cr_assert_eq(r.sectors, 4);
    cr_assert_eq(r.lines, 1);
    cr_assert_eq(r.rule, HMS_COALESCE_SECTORS);
    cr_assert_eq(r.transactions, 4);
    cr_assert_eq(r.bytes_requested, 128);
    cr_assert_eq(r.bytes_useful, 128);
    cr_assert_eq(r.bytes_transferred, 128);
}

Test(coalesce, stride_two_floats_is_eight_sectors)
{
    hms_arch a = sector_arch();
    hms_warp_access w = strided(0, 8, 4, UINT32_MAX);
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.sectors, 8); /* 256 bytes spanned, every sector half used */
    cr_assert_eq(r.lines, 2);
    cr_assert_eq(r.bytes_useful, 128);
    cr_assert_eq(r.bytes_transferred, 256);
}

Test(coalesce, stride_32_floats_is_a_sector_and_line_per_lane)
{
    hms_arch a = sector_arch();
    hms_warp_access w = strided(0, 128, 4, UINT32_MAX);
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.sectors, 32);
    cr_assert_eq(r.lines, 32);
    cr_assert_eq(r.bytes_transferred, 1024);
}

Test(coalesce, misaligned_start_touches_one_more_sector_and_line)
{
    hms_arch a = sector_arch();
    hms_warp_access w = strided(4, 4, 4, UINT32_MAX); /* bytes 4..131 */
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.sectors, 5);
    cr_assert_eq(r.lines, 2);
}

Test(coalesce, float4_per_lane_is_sixteen_sectors)
{
    hms_arch a = sector_arch();
    hms_warp_access w = strided(0, 16, 16, UINT32_MAX); /* 512 bytes */
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.sectors, 16);
    cr_assert_eq(r.lines, 4);
    cr_assert_eq(r.bytes_useful, 512);
}

Test(coalesce, unaligned_lane_spanning_two_sectors_counts_both)
{
    hms_arch a = sector_arch();
    /* One lane, 8 bytes at 28: bytes 28..35 straddle sectors 0 and 1. */
    hms_warp_access w = strided(28, 0, 8, 1u);
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.sectors, 2);
    cr_assert_eq(r.lines, 1);
}

Test(coalesce, partial_masks_count_only_active_lanes)
{
    hms_arch a = sector_arch();
    hms_warp_access w = strided(0, 4, 4, 0x000000ffu); /* lanes 0-7: bytes 0..31 */
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.active_lanes, 8);
    cr_assert_eq(r.sectors, 1);
    cr_assert_eq(r.lines, 1);

    w = strided(0, 4, 4, 0x55555555u); /* even lanes: 4 of every 8 bytes */
    r = eval(&a, &w);
    cr_assert_eq(r.sectors, 4);
    cr_assert_eq(r.bytes_useful, 64);
    cr_assert_eq(r.bytes_transferred, 128);

    w = strided(0, 4, 4, 0x80000000u); /* lane 31 alone: byte 124 */
    r = eval(&a, &w);
    cr_assert_eq(r.sectors, 1);

    w = strided(0, 4, 4, 0);
    r = eval(&a, &w);
    cr_assert_eq(r.active_lanes, 0);
    cr_assert_eq(r.sectors, 0);
    cr_assert_eq(r.transactions, 0);
}

Test(coalesce, broadcast_is_one_sector_and_counts_useful_bytes_once)
{
    hms_arch a = sector_arch();
    hms_warp_access w = strided(64, 0, 4, UINT32_MAX);
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.sectors, 1);
    cr_assert_eq(r.bytes_requested, 128);
    cr_assert_eq(r.bytes_useful, 4);
    cr_assert_eq(r.bytes_transferred, 32);
}

Test(coalesce, fermi_l1_loads_move_whole_lines)
{
    hms_arch a = fermi_arch();
    hms_warp_access w = strided(0, 4, 4, UINT32_MAX);
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.rule, HMS_COALESCE_L1_LINES);
    cr_assert_eq(r.transactions, 1);
    cr_assert_eq(r.bytes_transferred, 128);

    w = strided(0, 8, 4, UINT32_MAX); /* stride 2: two lines */
    r = eval(&a, &w);
    cr_assert_eq(r.transactions, 2);
    cr_assert_eq(r.bytes_transferred, 256);

    w = strided(0, 128, 4, UINT32_MAX); /* stride 32: 32 lines, 4 KB for 128 B */
    r = eval(&a, &w);
    cr_assert_eq(r.transactions, 32);
    cr_assert_eq(r.bytes_transferred, 4096);
}

Test(coalesce, fermi_stores_and_texture_use_sectors)
{
    hms_arch a = fermi_arch();
    hms_warp_access w = strided(0, 8, 4, UINT32_MAX);
    w.kind = HMS_ACCESS_STORE;
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.rule, HMS_COALESCE_SECTORS);
    cr_assert_eq(r.transactions, 8);

    w.kind = HMS_ACCESS_LOAD;
    w.space = HMS_SPACE_TEXTURE;
    r = eval(&a, &w);
    cr_assert_eq(r.rule, HMS_COALESCE_SECTORS);
    cr_assert_eq(r.bytes_transferred, 256);
}

Test(coalesce, cc13_aligned_unit_stride_is_one_64_byte_segment_per_half_warp)
{
    hms_arch a = gt200_arch();
    hms_warp_access w = strided(0, 4, 4, 0x0000ffffu); /* one half-warp, 64 B */
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.rule, HMS_COALESCE_HALF_WARP);
    cr_assert_eq(r.transactions, 1);
    cr_assert_eq(r.bytes_transferred, 64);

    w = strided(0, 4, 4, UINT32_MAX); /* both halves: 2 x 64 B */
    r = eval(&a, &w);
    cr_assert_eq(r.transactions, 2);
    cr_assert_eq(r.bytes_transferred, 128);
}

Test(coalesce, cc13_guide_examples)
{
    hms_arch a = gt200_arch();
    /* Guide, left: a permutation of 16 floats inside one aligned 64-byte
     * segment -> one 64-byte transaction. */
    hms_warp_access w = strided(0, 4, 4, 0x0000ffffu);
    for (int i = 0; i < 16; i++)
        w.addr[i] = 64 + (uint64_t)((i * 7) % 16) * 4;
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.transactions, 1);
    cr_assert_eq(r.bytes_transferred, 64);

    /* Centre: misaligned by 4 inside one 128-byte segment (bytes 4..67 use
     * both halves) -> one 128-byte transaction. */
    w = strided(4, 4, 4, 0x0000ffffu);
    r = eval(&a, &w);
    cr_assert_eq(r.transactions, 1);
    cr_assert_eq(r.bytes_transferred, 128);

    /* Right: bytes 68..131 cross into the next segment -> 64 B (upper half
     * of segment 0) + 32 B (bytes 128..131). */
    w = strided(68, 4, 4, 0x0000ffffu);
    r = eval(&a, &w);
    cr_assert_eq(r.transactions, 2);
    cr_assert_eq(r.bytes_transferred, 96);

    /* A full warp misaligned by 4: the first half is the centre case, the
     * second the right case. */
    w = strided(4, 4, 4, UINT32_MAX);
    r = eval(&a, &w);
    cr_assert_eq(r.transactions, 3);
    cr_assert_eq(r.bytes_transferred, 224);
}

Test(coalesce, cc13_segment_size_follows_word_size)
{
    hms_arch a = gt200_arch();
    /* 1-byte words: 32-byte segments; 16 bytes -> one 32 B transaction. */
    hms_warp_access w = strided(0, 1, 1, 0x0000ffffu);
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.transactions, 1);
    cr_assert_eq(r.bytes_transferred, 32);

    /* 2-byte words: 64-byte segment, only its lower half used -> 32 B. */
    w = strided(0, 2, 2, 0x0000ffffu);
    r = eval(&a, &w);
    cr_assert_eq(r.transactions, 1);
    cr_assert_eq(r.bytes_transferred, 32);

    /* 2-byte words at 16..47 use both halves of the 64-byte segment -> 64 B. */
    w = strided(16, 2, 2, 0x0000ffffu);
    r = eval(&a, &w);
    cr_assert_eq(r.bytes_transferred, 64);

    /* Doubles: a half-warp reads 128 B = one 128-byte segment. */
    w = strided(0, 8, 8, 0x0000ffffu);
    r = eval(&a, &w);
    cr_assert_eq(r.transactions, 1);
    cr_assert_eq(r.bytes_transferred, 128);
}

Test(coalesce, cc13_strided_half_warp)
{
    hms_arch a = gt200_arch();
    /* Stride 2 floats: 128 bytes span one segment, both halves -> 128 B. */
    hms_warp_access w = strided(0, 8, 4, 0x0000ffffu);
    hms_coalesce_result r = eval(&a, &w);
    cr_assert_eq(r.transactions, 1);
    cr_assert_eq(r.bytes_transferred, 128);

    /* Stride 32 floats: a segment per lane, each shrunk to 32 B. */
    w = strided(0, 128, 4, UINT32_MAX);
    r = eval(&a, &w);
    cr_assert_eq(r.transactions, 32);
    cr_assert_eq(r.bytes_transferred, 1024);
}

Test(coalesce, summary_means_and_bw_util)
{
    hms_arch a = sector_arch();
    hms_coalesce_summary s;
    hms_coalesce_summary_init(&s);
    hms_warp_access unit = strided(0, 4, 4, UINT32_MAX);
    hms_warp_access wide = strided(0, 128, 4, UINT32_MAX);
    hms_warp_access idle = strided(0, 4, 4, 0);
    cr_assert(hms_coalesce_summary_add(&s, &a, &unit));
    cr_assert(hms_coalesce_summary_add(&s, &a, &wide));
    cr_assert(hms_coalesce_summary_add(&s, &a, &idle)); /* not a request */
    cr_assert_eq(s.requests, 2);
    cr_assert(s.exact);
    cr_assert_float_eq(hms_coalesce_mean_sectors(&s), 18.0, 1e-12); /* (4 + 32) / 2 */
    cr_assert_float_eq(hms_coalesce_mean_lines(&s), 16.5, 1e-12);   /* (1 + 32) / 2 */
    cr_assert_float_eq(hms_coalesce_mean_transactions(&s), 18.0, 1e-12);
    /* 256 useful bytes over (128 + 1024) transferred. */
    cr_assert_float_eq(hms_coalesce_bw_util(&s), 256.0 / 1152.0, 1e-12);

    unit.exact = false;
    cr_assert(hms_coalesce_summary_add(&s, &a, &unit));
    cr_assert_not(s.exact);
    cr_assert_eq(s.requests, 3);
}

Test(coalesce, empty_summary_has_zero_means)
{
    hms_coalesce_summary s;
    hms_coalesce_summary_init(&s);
    cr_assert_float_eq(hms_coalesce_mean_sectors(&s), 0.0, 1e-12);
    cr_assert_float_eq(hms_coalesce_bw_util(&s), 1.0, 1e-12);
}

Test(coalesce, malformed_records_are_rejected_with_a_reason)
{
    hms_arch a = sector_arch();
    hms_warp_access w = strided(0, 4, 3, UINT32_MAX);
    w.site = 7;
    hms_coalesce_result r;
    cr_assert_not(hms_coalesce_warp(&a, &w, &r));
    cr_assert_eq(r.sectors, 0);
    char err[128];
    cr_assert_not(hms_access_check(&w, err, sizeof err));
    cr_assert(strstr(err, "access site 7") && strstr(err, "width 3"), "got: %s", err);

    w = strided(UINT64_MAX - 2, 0, 4, 1u);
    cr_assert_not(hms_access_check(&w, err, sizeof err));
    cr_assert(strstr(err, "wraps"), "got: %s", err);

    hms_coalesce_summary s;
    hms_coalesce_summary_init(&s);
    cr_assert_not(hms_coalesce_summary_add(&s, &a, &w));
    cr_assert_eq(s.invalid, 1);
    cr_assert_eq(s.requests, 0);
}

Test(coalesce, warp_units_are_distinct_and_ascending)
{
    /* Lanes in descending order, two lanes per word. */
    hms_warp_access w = strided(0, 0, 4, UINT32_MAX);
    for (int i = 0; i < 32; i++)
        w.addr[i] = (uint64_t)(31 - i) / 2 * 4;
    uint64_t u[HMS_WARP_UNITS_MAX];
    size_t n = hms_warp_units(&w, 4, u);
    cr_assert_eq(n, 16);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(u[i], i);
}
