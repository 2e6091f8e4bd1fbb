/* DRAM address mapping, row-buffer outcomes, Kingman queueing and the
 * arrival-weighted DRAM latency (Huang & Li, seeds/000_2b7270bf81dd448e.txt,
 * eqs. 6-10). Architectures are built by hand; expected values are worked
 * out in the comments. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/dram.h"

#define NEAR(a, b, tol) (fabs((double)(a) - (double)(b)) <= (tol))

/* Byte bits 0-2, bank bit 3, columns 4-7, row bits 8-11; 6 channels of
 * 256 bytes; K80 row-buffer latencies (paper Section III-C2: 352/742/1008 ns). */
static hms_arch small_arch(double clock_ghz)
{
    hms_arch a;
    memset(&a, 0, sizeof a);
    strcpy(a.name, "test");
    strcpy(a.source_path, "test-arch.yaml");
    a.clock_ghz = clock_ghz;
    a.dram_channels = 6;
    a.dram_channel_bytes = 256;
    a.dram_banks_per_channel = 16;
    a.dram_row_bytes = 2048;
    a.dram_bank_bits_mask = 0x8;
    a.dram_row_bits_mask = 0xF00;
    a.dram_row_hit_ns = 352;
    a.dram_row_miss_ns = 742;
    a.dram_row_conflict_ns = 1008;
    return a;
}

static void init_ok(hms_dram_model *m, const hms_arch *a)
{
    char err[256];
    cr_assert(hms_dram_init(m, a, err, sizeof err), "%s", err);
}

static void evaluate_ok(hms_dram_model *m)
{
    char err[256];
    cr_assert(hms_dram_evaluate(m, err, sizeof err), "%s", err);
}

Test(dram, bits_extract_packs_selected_bits)
{
    /* x = 101101b, mask = 111000b -> bits 5,4,3 of x = 1,0,1 -> 101b */
    cr_assert_eq(hms_bits_extract(0x2D, 0x38), 5);
    /* non-contiguous mask: bits 1 and 8 of 0x102 are both set -> 11b */
    cr_assert_eq(hms_bits_extract(0x102, 0x102), 3);
    cr_assert_eq(hms_bits_extract(0xFFFF, 0), 0);
}

Test(dram, channel_is_interleaved_by_channel_bytes)
{
    hms_arch a = small_arch(1.0);
    cr_assert_eq(hms_dram_channel(&a, 0), 0);
    cr_assert_eq(hms_dram_channel(&a, 255), 0);
    cr_assert_eq(hms_dram_channel(&a, 256), 1);
    cr_assert_eq(hms_dram_channel(&a, 5 * 256), 5);
    cr_assert_eq(hms_dram_channel(&a, 6 * 256), 0); /* wraps after 6 partitions */
}

Test(dram, fallback_mapping_without_bit_masks)
{
    hms_arch a = small_arch(1.0);
    a.dram_bank_bits_mask = a.dram_row_bits_mask = 0;
    a.dram_channels = 2;
    a.dram_banks_per_channel = 4;
    a.dram_row_bytes = 1024;
    /* bank = channel * 4 + (addr / 512) % 4; row = addr / (2*4*1024) */
    cr_assert_eq(hms_dram_bank(&a, 0), 0);
    cr_assert_eq(hms_dram_bank(&a, 256), 4);
    cr_assert_eq(hms_dram_bank(&a, 512), 1);
    cr_assert_eq(hms_dram_bank(&a, 512 * 4), 0);
    cr_assert_eq(hms_dram_row(&a, 8191), 0);
    cr_assert_eq(hms_dram_row(&a, 8192), 1);
}

/* Huang & Li Algorithm 1 on the K80 mapping: byte bits 0-2, row and column
 * bits 8-21 and 30-32, every other bit a bank bit. The paper does not say
 * which of those are rows; this test takes 14-21 and 30-32 as row bits. Two
 * requests differing in one bit: a bank bit -> miss, miss; a column bit ->
 * miss, hit; a row bit -> miss, conflict. */
Test(dram, k80_mapping_reproduces_algorithm_1)
{
    hms_arch a = small_arch(1.0);
    uint64_t rowcol = 0x3FFF00ull | (0x7ull << 30);
    a.dram_row_bits_mask = 0x3FC000ull | (0x7ull << 30);
    a.dram_bank_bits_mask = ~(rowcol | 0x7ull) & ((1ull << 40) - 1);
    struct {
        int bit;
        hms_row_outcome second;
    } cases[] = {{5, HMS_ROW_MISS},      {25, HMS_ROW_MISS},     {10, HMS_ROW_HIT},
                 {31, HMS_ROW_CONFLICT}, {16, HMS_ROW_CONFLICT}, {9, HMS_ROW_HIT}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hms_dram_model m;
        init_ok(&m, &a);
        uint64_t base = 1ull << 36;
        cr_assert(hms_dram_add(&m, base, 0));
        cr_assert(hms_dram_add(&m, base | (1ull << cases[i].bit), 1000));
        evaluate_ok(&m);
        cr_assert_eq(hms_dram_outcome(&m, 0), HMS_ROW_MISS);
        cr_assert_eq(hms_dram_outcome(&m, 1), cases[i].second, "bit %d: got %s", cases[i].bit,
                     hms_row_outcome_name(hms_dram_outcome(&m, 1)));
        hms_dram_free(&m);
    }
}

/* Kingman with c_a = c_s = 1 is exact for M/M/1: Wq = rho/(1-rho) * tau_s.
 * tau_a = 10, tau_s = 8: rho = 0.8, Wq = 4 * 8 = 32 cycles. (The paper's
 * printed eq. 9 would give (1+1)/2 * 4 * tau_a = 40.) */
Test(dram, kingman_matches_mm1)
{
    double wq;
    cr_assert(hms_kingman_wq(1, 1, 10, 8, &wq));
    cr_assert(NEAR(wq, 32.0, 1e-12), "got %g", wq);
    /* M/M/1 at rho = 0.5, tau_s = 3: Wq = 1 * 3 */
    cr_assert(hms_kingman_wq(1, 1, 6, 3, &wq));
    cr_assert(NEAR(wq, 3.0, 1e-12), "got %g", wq);
}

/* Deterministic arrivals (c_a = 0): tau_a = 10, tau_s = 5, rho = 0.5.
 * c_s = 1: Wq = (0 + 1)/2 * 1 * 5 = 2.5; c_s = 0.5: (0.25/2) * 5 = 0.625;
 * D/D/1 (c_s = 0) never waits. */
Test(dram, kingman_deterministic_arrivals)
{
    double wq;
    cr_assert(hms_kingman_wq(0, 1, 10, 5, &wq));
    cr_assert(NEAR(wq, 2.5, 1e-12), "got %g", wq);
    cr_assert(hms_kingman_wq(0, 0.5, 10, 5, &wq));
    cr_assert(NEAR(wq, 0.625, 1e-12), "got %g", wq);
    cr_assert(hms_kingman_wq(0, 0, 10, 5, &wq));
    cr_assert(NEAR(wq, 0.0, 1e-12));
}

Test(dram, kingman_refuses_saturation_and_bad_input)
{
    double wq = 0;
    cr_assert_not(hms_kingman_wq(1, 1, 10, 10, &wq)); /* rho = 1 */
    cr_assert(isinf(wq));
    cr_assert_not(hms_kingman_wq(1, 1, 10, 20, &wq)); /* rho = 2 */
    cr_assert_not(hms_kingman_wq(1, 1, 0, 5, &wq));
    cr_assert_not(hms_kingman_wq(-1, 1, 10, 5, &wq));
    cr_assert_not(hms_kingman_wq(NAN, 1, 10, 5, &wq));
}

/* Bank bit 3, row bits 8-11:
 *   t=0  0x000 bank 0 row 0: miss (bank closed)
 *   t=10 0x020 bank 0 row 0: hit
 *   t=20 0x100 bank 0 row 1: conflict
 *   t=30 0x008 bank 1 row 0: miss
 *   t=40 0x108 bank 1 row 1: conflict
 *   t=50 0x120 bank 0 row 1: hit
 * 2 hits, 2 misses, 2 conflicts: row hit rate 1/3. */
Test(dram, row_buffer_classification)
{
    hms_arch a = small_arch(1.0);
    hms_dram_model m;
    init_ok(&m, &a);
    const uint64_t addr[] = {0x000, 0x020, 0x100, 0x008, 0x108, 0x120};
    const hms_row_outcome want[] = {HMS_ROW_MISS, HMS_ROW_HIT,      HMS_ROW_CONFLICT,
                                    HMS_ROW_MISS, HMS_ROW_CONFLICT, HMS_ROW_HIT};
    for (int i = 0; i < 6; i++)
        cr_assert(hms_dram_add(&m, addr[i], 10.0 * i));
    evaluate_ok(&m);
    for (int i = 0; i < 6; i++)
        cr_assert_eq(hms_dram_outcome(&m, i), want[i], "request %d: %s", i,
                     hms_row_outcome_name(hms_dram_outcome(&m, i)));
    cr_assert_eq(m.hits, 2);
    cr_assert_eq(m.misses, 2);
    cr_assert_eq(m.conflicts, 2);
    cr_assert(NEAR(m.row_hit_rate, 1.0 / 3.0, 1e-12));
    cr_assert_eq(m.nbanks, 2);
    const hms_dram_bank_stats *b0 = hms_dram_find_bank(&m, 0);
    cr_assert_not_null(b0);
    cr_assert_eq(b0->requests, 4);
    /* eq. 8 at 1 GHz: (742 + 352 + 1008 + 352) / 4 = 613.5 cycles */
    cr_assert(NEAR(b0->tau_s, 613.5, 1e-9), "got %g", b0->tau_s);
    hms_dram_free(&m);
}

Test(dram, requests_are_served_in_time_order)
{
    hms_arch a = small_arch(1.0);
    hms_dram_model m;
    init_ok(&m, &a);
    /* fed late-first: the t=0 request opens row 0, the t=20 one conflicts */
    cr_assert(hms_dram_add(&m, 0x100, 20));
    cr_assert(hms_dram_add(&m, 0x000, 0));
    evaluate_ok(&m);
    cr_assert_eq(hms_dram_outcome(&m, 0), HMS_ROW_CONFLICT);
    cr_assert_eq(hms_dram_outcome(&m, 1), HMS_ROW_MISS);
    cr_assert_not(hms_dram_add(&m, 0x0, -1.0));
    cr_assert_not(hms_dram_add(&m, 0x0, NAN));
    hms_dram_free(&m);
}

/* K80 latencies at 0.875 GHz: hit 352 ns = 308 cycles, miss 742 ns =
 * 649.25, conflict 1008 ns = 882. One bank, miss then hit then conflict,
 * 1e9 cycles apart (rho ~ 6e-7, queueing negligible): service =
 * (649.25 + 308 + 882) / 3 = 613.083 cycles = 700.67 ns. */
Test(dram, k80_row_latencies)
{
    hms_arch a = small_arch(0.875);
    hms_dram_model m;
    init_ok(&m, &a);
    cr_assert(NEAR(m.t_hit, 308.0, 1e-9));
    cr_assert(NEAR(m.t_miss, 649.25, 1e-9));
    cr_assert(NEAR(m.t_conflict, 882.0, 1e-9));
    cr_assert(hms_dram_add(&m, 0x000, 0));
    cr_assert(hms_dram_add(&m, 0x010, 1e9));
    cr_assert(hms_dram_add(&m, 0x200, 2e9));
    evaluate_ok(&m);
    cr_assert(NEAR(m.service, 1839.25 / 3.0, 1e-9), "got %g", m.service);
    cr_assert(m.queue_delay < 1e-3, "got %g", m.queue_delay);
    cr_assert(NEAR(m.latency / a.clock_ghz, 2102.0 / 3.0, 1e-3), "got %g ns",
              m.latency / a.clock_ghz);
    hms_dram_free(&m);
}

/* Eq. 7 weighting. Bank 0: three same-row requests at t = 0, 1000, 2000
 * (miss, hit, hit at 1 GHz: 742, 352, 352). tau_s = 482, sigma_s^2 = 33800,
 * tau_a = 1000, c_a = 0, rho = 0.482. Kingman with c_a = 0 reduces to
 * sigma_s^2 / (2 tau_a (1 - rho)) = 33800 / 1036 = 32.6255 cycles (below the
 * (n-1)/2 * tau_s = 482 cap). Bank 1: one request, a miss, no queue: 742.
 * DRAM_lat = 3/4 * (482 + 32.6255) + 1/4 * 742 = 571.469. */
Test(dram, latency_is_arrival_weighted_over_banks)
{
    hms_arch a = small_arch(1.0);
    hms_dram_model m;
    init_ok(&m, &a);
    cr_assert(hms_dram_add(&m, 0x00, 0));
    cr_assert(hms_dram_add(&m, 0x20, 1000));
    cr_assert(hms_dram_add(&m, 0x40, 2000));
    cr_assert(hms_dram_add(&m, 0x08, 500));
    evaluate_ok(&m);
    const hms_dram_bank_stats *b0 = hms_dram_find_bank(&m, 0);
    const hms_dram_bank_stats *b1 = hms_dram_find_bank(&m, 1);
    cr_assert(b0 && b1);
    cr_assert(NEAR(b0->tau_a, 1000, 1e-9));
    cr_assert(NEAR(b0->c_a, 0, 1e-12));
    cr_assert(NEAR(b0->rho, 0.482, 1e-12));
    cr_assert(NEAR(b0->queue_delay, 33800.0 / 1036.0, 1e-9), "got %g", b0->queue_delay);
    cr_assert_not(b0->capped);
    cr_assert(NEAR(b1->latency, 742, 1e-12));
    cr_assert(NEAR(b1->queue_delay, 0, 1e-12));
    double want = 0.75 * (482 + 33800.0 / 1036.0) + 0.25 * 742;
    cr_assert(NEAR(m.latency, want, 1e-9), "got %g want %g", m.latency, want);
    cr_assert_eq(m.saturated_banks, 0);
    hms_dram_free(&m);
}

/* Four same-row requests at the same instant: tau_a = 0, rho infinite.
 * Services 742, 352, 352, 352: tau_s = 449.5. The delay is capped at
 * (n-1)/2 * tau_s = 1.5 * 449.5 = 674.25 and the bank flagged saturated. */
Test(dram, saturated_bank_is_capped_and_flagged)
{
    hms_arch a = small_arch(1.0);
    hms_dram_model m;
    init_ok(&m, &a);
    for (int i = 0; i < 4; i++)
        cr_assert(hms_dram_add(&m, 0x10 * (uint64_t)i, 7));
    evaluate_ok(&m);
    const hms_dram_bank_stats *b = hms_dram_find_bank(&m, 0);
    cr_assert(b->saturated && b->capped);
    cr_assert(isinf(b->rho));
    cr_assert(NEAR(b->queue_delay, 674.25, 1e-9), "got %g", b->queue_delay);
    cr_assert_eq(m.saturated_banks, 1);
    cr_assert(m.any_capped);
    cr_assert(isfinite(m.latency));
    hms_dram_free(&m);
}

/* The closed-loop cap: the same four simultaneous requests, but the warps
 * can only have 2 DRAM requests in flight. The bank takes all of them, so
 * N = 2 and the cap is min((4-1)/2, 2-1) * tau_s = 449.5. With less than
 * one request in flight per bank (N = max(1, 0.5) = 1) nothing waits. */
Test(dram, closed_loop_cap)
{
    hms_arch a = small_arch(1.0);
    hms_dram_model m;
    init_ok(&m, &a);
    for (int i = 0; i < 4; i++)
        cr_assert(hms_dram_add(&m, 0x10 * (uint64_t)i, 7));
    m.max_outstanding = 2;
    evaluate_ok(&m);
    const hms_dram_bank_stats *b = hms_dram_find_bank(&m, 0);
    cr_assert(b->saturated && b->capped);
    cr_assert(NEAR(b->queue_delay, 449.5, 1e-9), "got %g", b->queue_delay);
    m.max_outstanding = 0.5;
    evaluate_ok(&m);
    b = hms_dram_find_bank(&m, 0);
    cr_assert(NEAR(b->queue_delay, 0, 0), "got %g", b->queue_delay);
    cr_assert(NEAR(m.latency, 449.5, 1e-9), "got %g", m.latency);
    hms_dram_free(&m);
}

/* The bandwidth bound: 4 requests can be outstanding, 32 bytes each, at
 * 64 GB/s and 1 GHz (64 bytes/cycle): draining them all takes 4*32/64 = 2
 * cycles, which caps the saturated bank's delay. Without a bandwidth figure
 * the closed-loop cap (4-1, capped by (4-1)/2) * 449.5 = 674.25 applies. */
Test(dram, bandwidth_cap)
{
    hms_arch a = small_arch(1.0);
    a.dram_bandwidth_gbs = 64;
    a.sector_bytes = 32;
    hms_dram_model m;
    init_ok(&m, &a);
    for (int i = 0; i < 4; i++)
        cr_assert(hms_dram_add(&m, 0x10 * (uint64_t)i, 7));
    m.max_outstanding = 4;
    evaluate_ok(&m);
    const hms_dram_bank_stats *b = hms_dram_find_bank(&m, 0);
    cr_assert(b->saturated && b->capped);
    cr_assert(NEAR(b->queue_delay, 2, 1e-12), "got %g", b->queue_delay);
    m.request_bytes = 128; /* 4*128/64 = 8 cycles */
    evaluate_ok(&m);
    cr_assert(NEAR(hms_dram_find_bank(&m, 0)->queue_delay, 8, 1e-12));
    a.dram_bandwidth_gbs = 0;
    evaluate_ok(&m);
    cr_assert(NEAR(hms_dram_find_bank(&m, 0)->queue_delay, 674.25, 1e-9));
    hms_dram_free(&m);
}

/* rho > 1 with distinct arrival times: same row every 100 cycles, service
 * 742 then 352 (rho ~ 4): saturated, capped at (n-1)/2 * tau_s. */
Test(dram, overloaded_bank_is_saturated)
{
    hms_arch a = small_arch(1.0);
    hms_dram_model m;
    init_ok(&m, &a);
    for (int i = 0; i < 5; i++)
        cr_assert(hms_dram_add(&m, 0x10 * (uint64_t)i, 100.0 * i));
    evaluate_ok(&m);
    const hms_dram_bank_stats *b = hms_dram_find_bank(&m, 0);
    double tau_s = (742 + 4 * 352) / 5.0;
    cr_assert(b->saturated);
    cr_assert(NEAR(b->rho, tau_s / 100, 1e-12));
    cr_assert(NEAR(b->queue_delay, 2 * tau_s, 1e-9), "got %g", b->queue_delay);
    hms_dram_free(&m);
}

Test(dram, per_channel_request_counts)
{
    hms_arch a = small_arch(1.0);
    hms_dram_model m;
    init_ok(&m, &a);
    /* channels: 0, 1, 2, 1 (256 + 6*256 wraps to channel 1) */
    const uint64_t addr[] = {0, 256, 512, 256 + 1536};
    for (int i = 0; i < 4; i++)
        cr_assert(hms_dram_add(&m, addr[i], i));
    evaluate_ok(&m);
    cr_assert_eq(m.nchannels, 6);
    cr_assert_eq(m.channel_requests[0], 1);
    cr_assert_eq(m.channel_requests[1], 2);
    cr_assert_eq(m.channel_requests[2], 1);
    cr_assert_eq(m.channel_requests[3], 0);
    /* re-evaluating after another request recounts from scratch */
    cr_assert(hms_dram_add(&m, 3 * 256, 9));
    evaluate_ok(&m);
    cr_assert_eq(m.channel_requests[1], 2);
    cr_assert_eq(m.channel_requests[3], 1);
    hms_dram_free(&m);
}

Test(dram, empty_stream_has_zero_latency)
{
    hms_arch a = small_arch(1.0);
    hms_dram_model m;
    init_ok(&m, &a);
    evaluate_ok(&m);
    cr_assert_eq(m.nbanks, 0);
    cr_assert(NEAR(m.latency, 0, 0));
    cr_assert(NEAR(m.row_hit_rate, 0, 0));
    hms_dram_free(&m);
}

Test(dram, many_banks_grow_the_table)
{
    hms_arch a = small_arch(1.0);
    a.dram_bank_bits_mask = 0xFFFF8; /* bits 3-19: up to 2^17 banks */
    a.dram_row_bits_mask = 0xF00000;
    hms_dram_model m;
    init_ok(&m, &a);
    for (uint64_t i = 0; i < 1000; i++)
        cr_assert(hms_dram_add(&m, i * 8, (double)i));
    evaluate_ok(&m);
    cr_assert_eq(m.nbanks, 1000);
    cr_assert_eq(m.misses, 1000);
    cr_assert(NEAR(m.latency, 742, 1e-9));
    cr_assert_not_null(hms_dram_find_bank(&m, 999));
    cr_assert_null(hms_dram_find_bank(&m, 1000));
    hms_dram_free(&m);
}

Test(dram, bad_arch_is_named_with_the_field)
{
    char err[256];
    hms_dram_model m;
    hms_arch a = small_arch(1.0);
    a.dram_channels = 0;
    cr_assert_not(hms_dram_init(&m, &a, err, sizeof err));
    cr_assert(strstr(err, "test-arch.yaml") && strstr(err, "dram_channels"), "got: %s", err);

    a = small_arch(1.0);
    a.dram_row_bits_mask = 0x18; /* overlaps bank bit 3 */
    cr_assert_not(hms_dram_init(&m, &a, err, sizeof err));
    cr_assert(strstr(err, "overlaps"), "got: %s", err);

    a = small_arch(0);
    cr_assert_not(hms_dram_init(&m, &a, err, sizeof err));
    cr_assert(strstr(err, "clock_ghz"), "got: %s", err);

    cr_assert_not(hms_dram_init(&m, NULL, err, sizeof err));
}

/* The evaluation's channel of a request (a remainder by multiplication)
 * is hms_dram_channel's plain `%` for channel counts that are and are not
 * powers of two, over addresses up to 2^64 - 1: per-channel counts agree. */
Test(dram, channel_counts_match_the_plain_remainder)
{
    const int channels[] = {1, 2, 6, 7, 80, 96, 1000003};
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t c = 0; c < sizeof channels / sizeof channels[0]; c++) {
        hms_arch a = small_arch(1.0);
        a.dram_channels = channels[c];
        hms_dram_model m;
        init_ok(&m, &a);
        uint64_t *want = calloc((size_t)channels[c], sizeof *want);
        cr_assert_not_null(want);
        for (int i = 0; i < 4000; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
            uint64_t addr = i < 8 ? UINT64_MAX - (uint64_t)i * 255 : i % 3 ? x : x >> 20;
            cr_assert(hms_dram_add(&m, addr, (double)i));
            want[hms_dram_channel(&a, addr)]++;
        }
        evaluate_ok(&m);
        for (int k = 0; k < channels[c]; k++)
            cr_assert_eq(m.channel_requests[k], want[k], "%d channels: channel %d", channels[c], k);
        free(want);
        hms_dram_free(&m);
    }
}
