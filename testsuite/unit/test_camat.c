/* C-AMAT on an SM timeline (runtime/camat.h): the paper's Figure 3 example
 * (seeds/003_b03420075c499a6c.txt, Section 2.2), the equality of its two
 * forms, and the issue model that builds a timeline from a stream. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "runtime/camat.h"

#define EPS 1e-12

/* Figure 3, reconstructed from the paper's text (the figure itself is not in
 * the OCR). Facts stated there: 10 accesses, 2 hit cycles each; accesses 1,
 * 3, 5, 8 hit; 2, 4, 7, 10 have a 3-cycle miss penalty, 6 and 9 a 7-cycle
 * one; pure-miss cycles per access 4:1, 6:3, 7:1, 9:5, 10:3 (2 has none);
 * T_MemCycle 17; 20 hit cycles over 11 cycles; two pure-miss phases holding
 * 13 pure-miss access-cycles over 6 cycles. Start cycles (1-based) that meet
 * all of these, with hit phases [s, s+1] and misses after them:
 *   1: 1 hit            2: 2 hit, miss 4-6     3: 3 hit
 *   4: 4 hit, miss 6-8  5: 5 hit               6: 6 hit, miss 8-14
 *   7: 9 hit, miss 11-13  8: 9 hit             9: 9 hit, miss 11-17
 *  10: 11 hit, miss 13-15
 * Hit cycles 1-7 and 9-12 (11); pure-miss cycle 8 (accesses 4, 6) and
 * cycles 13-17 (6,7,9,10 / 6,9,10 / 9,10 / 9 / 9): 2 + 11 = 13 over 6 cycles.
 * Phases: hit 1-3, hit/miss 4-7, pure miss 8, hit/miss 9-12, pure miss 13-17,
 * the three kinds the paper names. */
static const hms_camat_access figure3[10] = {
    {1, 2, 0}, {2, 2, 3}, {3, 2, 0}, {4, 2, 3}, {5, 2, 0},
    {6, 2, 7}, {9, 2, 3}, {9, 2, 0}, {9, 2, 7}, {11, 2, 3},
};

Test(camat, figure3_every_published_number)
{
    hms_camat_result r;
    uint64_t pure[10];
    char err[128] = "";
    cr_assert(hms_camat_evaluate(figure3, 10, &r, pure, err, sizeof err), "%s", err);
    cr_assert_eq(r.accesses, 10);
    cr_assert_eq(r.hits, 4);
    cr_assert_eq(r.misses, 6);
    cr_assert_eq(r.mem_cycles, 17);        /* "17 cycles out of 10 accesses" */
    cr_assert_eq(r.hit_access_cycles, 20); /* "20 hits over 11 memory cycles" */
    cr_assert_eq(r.hit_cycles, 11);
    cr_assert_eq(r.pure_access_cycles, 13); /* "13 pure misses on 6 cycles" */
    cr_assert_eq(r.pure_cycles, 6);
    cr_assert_eq(r.pure_misses, 5);
    cr_assert_float_eq(r.h, 2.0, EPS);
    cr_assert_float_eq(r.c_h, 20.0 / 11.0, EPS);
    cr_assert_float_eq(r.c_m, 13.0 / 6.0, EPS);
    cr_assert_float_eq(r.pamp, 13.0 / 5.0, EPS);
    cr_assert_float_eq(r.pmr, 5.0 / 10.0, EPS);
    cr_assert_float_eq(r.camat, 1.7, EPS);
    cr_assert_float_eq(r.camat5, 1.7, EPS);
    /* Per access, as the paper lists them (1-based in the paper). */
    const uint64_t want[10] = {0, 0, 0, 1, 0, 3, 1, 0, 5, 3};
    for (int i = 0; i < 10; i++)
        cr_assert_eq(pure[i], want[i], "access %d: %llu pure cycles, want %llu", i + 1,
                     (unsigned long long)pure[i], (unsigned long long)want[i]);
}

Test(camat, order_of_accesses_does_not_matter)
{
    hms_camat_access rev[10];
    for (int i = 0; i < 10; i++)
        rev[i] = figure3[9 - i];
    hms_camat_result r;
    char err[128];
    cr_assert(hms_camat_evaluate(rev, 10, &r, NULL, err, sizeof err));
    cr_assert_eq(r.pure_misses, 5);
    cr_assert_float_eq(r.camat, 1.7, EPS);
    cr_assert_float_eq(r.camat5, 1.7, EPS);
}

Test(camat, serial_hits_cost_their_hit_time)
{
    /* Three back-to-back 2-cycle hits: 6 cycles / 3 accesses, no concurrency. */
    const hms_camat_access a[3] = {{0, 2, 0}, {2, 2, 0}, {4, 2, 0}};
    hms_camat_result r;
    char err[128];
    cr_assert(hms_camat_evaluate(a, 3, &r, NULL, err, sizeof err));
    cr_assert_float_eq(r.camat, 2.0, EPS);
    cr_assert_float_eq(r.c_h, 1.0, EPS);
    cr_assert_float_eq(r.pmr, 0.0, EPS);
    cr_assert_float_eq(r.camat5, 2.0, EPS);
}

Test(camat, idle_cycles_are_not_memory_cycles)
{
    /* A hit at 0-1 and a miss at 100-101 + 4 penalty: 2 + 6 active cycles;
     * the miss's 4 penalty cycles are all pure (nothing else is active). */
    const hms_camat_access a[2] = {{0, 2, 0}, {100, 2, 4}};
    hms_camat_result r;
    uint64_t pure[2];
    char err[128];
    cr_assert(hms_camat_evaluate(a, 2, &r, pure, err, sizeof err));
    cr_assert_eq(r.mem_cycles, 8);
    cr_assert_eq(pure[1], 4);
    cr_assert_float_eq(r.pmr, 0.5, EPS);
    cr_assert_float_eq(r.pamp, 4.0, EPS);
    cr_assert_float_eq(r.c_m, 1.0, EPS);
    cr_assert_float_eq(r.camat, 4.0, EPS);
    cr_assert_float_eq(r.camat5, 4.0, EPS);
}

Test(camat, hidden_miss_is_not_a_pure_miss)
{
    /* The miss's penalty (cycles 2-4) is covered by hits at 2-3 and 4-5. */
    const hms_camat_access a[3] = {{0, 2, 3}, {2, 2, 0}, {4, 2, 0}};
    hms_camat_result r;
    char err[128];
    cr_assert(hms_camat_evaluate(a, 3, &r, NULL, err, sizeof err));
    cr_assert_eq(r.misses, 1);
    cr_assert_eq(r.pure_misses, 0);
    cr_assert_float_eq(r.camat, 2.0, EPS); /* 6 cycles / 3 */
    cr_assert_float_eq(r.camat5, 2.0, EPS);
}

Test(camat, two_forms_agree_on_an_irregular_timeline)
{
    /* A deterministic mix of hit times 1-4, penalties 0-40 and overlaps: the
     * identity H/C_H + pMR*pAMP/C_M = T/C holds with H the mean hit time. */
    hms_camat_access a[300];
    uint32_t x = 12345;
    uint64_t t = 0;
    for (int i = 0; i < 300; i++) {
        x = x * 1103515245u + 12345u;
        t += (x >> 16) % 5; /* 0-4 cycles after the previous start */
        a[i] = (hms_camat_access){t, 1 + (x >> 8) % 4, ((x >> 20) % 3 == 0) ? (x >> 4) % 41 : 0};
    }
    hms_camat_result r;
    char err[128];
    cr_assert(hms_camat_evaluate(a, 300, &r, NULL, err, sizeof err));
    cr_assert(r.pure_misses > 0 && r.hits > 0, "the mix must exercise both terms");
    cr_assert_float_eq(r.camat, r.camat5, 1e-9, "camat %.12f vs five-parameter %.12f", r.camat,
                       r.camat5);
}

Test(camat, empty_timeline_and_bad_access)
{
    hms_camat_result r;
    char err[128] = "";
    cr_assert(hms_camat_evaluate(NULL, 0, &r, NULL, err, sizeof err));
    cr_assert_eq(r.accesses, 0);
    cr_assert_float_eq(r.camat, 0.0, EPS);
    const hms_camat_access bad[1] = {{5, 0, 3}};
    cr_assert_not(hms_camat_evaluate(bad, 1, &r, NULL, err, sizeof err));
    cr_assert(strstr(err, "no hit phase") != NULL, "got: %s", err);
}

/* ---- timeline from a stream ---- */

static void push(hms_stream *s, uint32_t block, uint32_t warp, uint64_t time)
{
    hms_warp_access w;
    memset(&w, 0, sizeof w);
    w.space = HMS_SPACE_GLOBAL;
    w.width = 4;
    w.mask = 0xffffffffu;
    w.block = block;
    w.warp = warp;
    w.time = time;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        w.addr[l] = 4u * (uint64_t)l;
    cr_assert(hms_stream_push(s, &w));
}

Test(camat, issue_model_one_per_cycle_warps_in_order)
{
    hms_stream s;
    hms_stream_init(&s);
    push(&s, 0, 0, 0);  /* port free: cycle 0 */
    push(&s, 0, 1, 0);  /* port busy at 0: cycle 1 */
    push(&s, 0, 0, 1);  /* warp 0 ready at 0 + 1, port at 2: cycle 2 */
    push(&s, 0, 0, 10); /* warp 0 ready at 2 + 9 = 11 */
    push(&s, 1, 0, 0);  /* block 1: SM 1 of 2, left out */
    push(&s, 2, 0, 0);  /* block 2: SM 0; port free at 12 */
    const bool hit[6] = {true, false, true, false, true, true};
    hms_camat_issue p = {.hit_latency = 2, .miss_latency = 5, .sm = 0, .n_sms = 2};
    hms_camat_access *acc;
    size_t n;
    char err[128] = "";
    cr_assert(hms_camat_timeline(&s, hit, &p, &acc, &n, err, sizeof err), "%s", err);
    cr_assert_eq(n, 5);
    const uint64_t start[5] = {0, 1, 2, 11, 12};
    const uint32_t miss[5] = {0, 3, 0, 3, 0};
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(acc[i].start, start[i], "access %zu starts at %llu", i,
                     (unsigned long long)acc[i].start);
        cr_assert_eq(acc[i].hit_cycles, 2);
        cr_assert_eq(acc[i].miss_cycles, miss[i]);
    }
    /* Hit activity at 0-3 and 11-13; access 1 waits 3-5 (3 is covered by
     * access 2's hit phase, 4-5 pure), access 3 waits 13-15 (14-15 pure):
     * 7 + 4 = 11 memory cycles. */
    hms_camat_result r;
    cr_assert(hms_camat_evaluate(acc, n, &r, NULL, err, sizeof err));
    cr_assert_eq(r.mem_cycles, 11);
    cr_assert_eq(r.pure_cycles, 4);
    cr_assert_eq(r.pure_misses, 2);
    cr_assert_float_eq(r.camat, r.camat5, 1e-12);
    free(acc);
    hms_stream_free(&s);
}

Test(camat, per_record_miss_latency_override)
{
    hms_stream s;
    hms_stream_init(&s);
    push(&s, 0, 0, 0);
    push(&s, 0, 1, 0);
    const bool hit[2] = {false, false};
    const uint32_t lat[2] = {0, 400}; /* first uses the default */
    hms_camat_issue p = {
        .hit_latency = 30, .miss_latency = 200, .miss_latency_per = lat, .n_sms = 1};
    hms_camat_access *acc;
    size_t n;
    char err[128];
    cr_assert(hms_camat_timeline(&s, hit, &p, &acc, &n, err, sizeof err));
    cr_assert_eq(n, 2);
    cr_assert_eq(acc[0].miss_cycles, 170);
    cr_assert_eq(acc[1].miss_cycles, 370);
    free(acc);
    hms_stream_free(&s);
}

Test(camat, issue_model_rejects_bad_parameters)
{
    hms_stream s;
    hms_stream_init(&s);
    push(&s, 0, 0, 0);
    const bool hit[1] = {true};
    hms_camat_access *acc = NULL;
    size_t n = 0;
    char err[128] = "";
    hms_camat_issue p = {.hit_latency = 2, .miss_latency = 5, .sm = 3, .n_sms = 2};
    cr_assert_not(hms_camat_timeline(&s, hit, &p, &acc, &n, err, sizeof err));
    cr_assert(strstr(err, "SM 3 is not one of 2 SMs") != NULL, "got: %s", err);
    p = (hms_camat_issue){.hit_latency = 9, .miss_latency = 5, .n_sms = 1};
    cr_assert_not(hms_camat_timeline(&s, hit, &p, &acc, &n, err, sizeof err));
    cr_assert(strstr(err, "need 0 < hit <= miss") != NULL, "got: %s", err);
    cr_assert_null(acc);
    hms_stream_free(&s);
}
