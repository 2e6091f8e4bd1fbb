/* AMAT, Huang & Li eq. 5 (seeds/000_2b7270bf81dd448e.txt). Values by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "runtime/amat.h"

#define NEAR(a, b) (fabs((a) - (b)) <= 1e-9)

/* DRAM_lat 600, miss 0.25, hit 200, shmem 50 at 0.4. DRAM_lat is a
 * load-to-use latency that already includes the L2 lookup, so a miss costs
 * 600, not 600 + 200; the hit latency weighs the 0.35 that hit (a shared
 * request looks up no cache):
 * 600*0.25 + 200*0.35 + 50*0.4 = 150 + 70 + 20 = 240 cycles. */
Test(amat, equation_5)
{
    hms_amat_inputs in = {.dram_latency = 600,
                          .miss_ratio = 0.25,
                          .hit_latency = 200,
                          .shmem_latency = 50,
                          .shmem_ratio = 0.4};
    cr_assert(NEAR(hms_amat(&in), 240), "got %g", hms_amat(&in));
    /* all requests hit: AMAT is the hit latency */
    in.miss_ratio = in.shmem_ratio = 0;
    cr_assert(NEAR(hms_amat(&in), 200));
    /* all requests shared: the shared latency alone */
    in.shmem_ratio = 1;
    cr_assert(NEAR(hms_amat(&in), 50), "got %g", hms_amat(&in));
    /* all requests miss: DRAM_lat alone, the L2 lookup counted once */
    in.shmem_ratio = 0;
    in.miss_ratio = 1;
    cr_assert(NEAR(hms_amat(&in), 600), "got %g", hms_amat(&in));
    /* a DRAM latency under the hit latency (an estimated row-hit time):
     * a miss still costs at least a hit */
    in.dram_latency = 150;
    cr_assert(NEAR(hms_amat(&in), 200), "got %g", hms_amat(&in));
}

/* 1000 requests, 100 served by DRAM, 300 shared: miss 0.1, shmem 0.3, so
 * 0.6 hit. DRAM 571.5, hit 190, shmem 47: 57.15 + 190*0.6 + 14.1 = 185.25
 * cycles. */
Test(amat, from_counts)
{
    hms_amat_inputs in;
    char err[128];
    cr_assert(hms_amat_from_counts(1000, 100, 300, 571.5, 190, 47, &in, err, sizeof err), "%s",
              err);
    cr_assert(NEAR(in.miss_ratio, 0.1));
    cr_assert(NEAR(in.shmem_ratio, 0.3));
    cr_assert(NEAR(hms_amat(&in), 185.25), "got %g", hms_amat(&in));
    /* no requests: ratios 0, AMAT = hit latency */
    cr_assert(hms_amat_from_counts(0, 0, 0, 571.5, 190, 47, &in, err, sizeof err));
    cr_assert(NEAR(hms_amat(&in), 190));
}

Test(amat, inconsistent_inputs_are_refused)
{
    hms_amat_inputs in;
    char err[128];
    cr_assert_not(hms_amat_from_counts(10, 8, 5, 500, 200, 50, &in, err, sizeof err));
    cr_assert(strstr(err, "exceed"), "got: %s", err);
    cr_assert_not(hms_amat_from_counts(-1, 0, 0, 500, 200, 50, &in, err, sizeof err));

    hms_amat_inputs bad = {.dram_latency = 500, .miss_ratio = 1.5, .hit_latency = 200};
    cr_assert_not(hms_amat_check(&bad, err, sizeof err));
    cr_assert(strstr(err, "miss_ratio"), "got: %s", err);
    bad.miss_ratio = 0.5;
    bad.hit_latency = NAN;
    cr_assert_not(hms_amat_check(&bad, err, sizeof err));
    cr_assert(strstr(err, "hit_latency"), "got: %s", err);
    bad.hit_latency = 200;
    bad.shmem_ratio = 0.6;
    cr_assert_not(hms_amat_check(&bad, err, sizeof err));
    bad.shmem_ratio = 0.5;
    cr_assert(hms_amat_check(&bad, err, sizeof err), "%s", err);
}
