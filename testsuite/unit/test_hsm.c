/* HSM (runtime/hsm.h): the RBH -> utilisation line of the paper's Fig. 3,
 * the memory/compute classifier, normalised progress, HSM-Fair and HSM-QoS
 * SM allocation, and STP / ANTT / fairness
 * (seeds/004_4eecb8baccff2daa.txt, Sections 2 and 4). Expected values are
 * worked out by hand in the comments. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "runtime/hsm.h"

#define EPS 1e-12

Test(hsm, default_line_reproduces_figure3_points)
{
    hms_hsm_coeffs c = hms_hsm_coeffs_for(NULL);
    cr_assert_float_eq(c.c1, 0.5, EPS);
    cr_assert_float_eq(c.c2, 0.36, EPS);
    /* Fig. 3: ~46% utilisation at RBH 0.2 and ~86% at RBH 1.0. */
    cr_assert_float_eq(hms_hsm_utilisation(c, 0.2), 0.46, EPS);
    cr_assert_float_eq(hms_hsm_utilisation(c, 1.0), 0.86, EPS);
}

Test(hsm, coefficients_come_from_the_arch_when_set)
{
    hms_arch a;
    memset(&a, 0, sizeof a);
    hms_hsm_coeffs c = hms_hsm_coeffs_for(&a); /* unset: the defaults */
    cr_assert_float_eq(c.c1, HMS_HSM_C1_DEFAULT, EPS);
    a.hsm_c1 = 0.42;
    a.hsm_c2 = 0.30;
    c = hms_hsm_coeffs_for(&a);
    cr_assert_float_eq(c.c1, 0.42, EPS);
    cr_assert_float_eq(c.c2, 0.30, EPS);
}

/* Demand: I_max/I_k = 2000/1000 = 2; 1e4 accesses x 64 B = 640000 B per
 * epoch; f/E = 1e9 Hz / 1e5 cycles = 1e4 epochs/s -> 2 * 640000 * 1e4 =
 * 12.8e9 B/s. */
static const hms_hsm_demand_in demand_in = {.i_max = 2000,
                                            .i_k = 1000,
                                            .mem_accesses = 1e4,
                                            .req_size = 64,
                                            .freq_hz = 1e9,
                                            .epoch_cycles = 1e5};

Test(hsm, demand_by_hand)
{
    cr_assert_float_eq(hms_hsm_demand(&demand_in), 12.8e9, 1.0);
    hms_hsm_demand_in idle = demand_in;
    idle.i_k = 0;
    cr_assert_float_eq(hms_hsm_demand(&idle), 0.0, EPS);
}

Test(hsm, classifier_on_both_sides_of_the_boundary)
{
    hms_hsm_coeffs c = {0.5, 0.36};
    double bd = hms_hsm_demand(&demand_in);
    /* B_max 20 GB/s: RBH 0.2 supplies 20e9 * 0.46 = 9.2e9 < 12.8e9 -> memory;
     * RBH 1.0 supplies 20e9 * 0.86 = 17.2e9 > 12.8e9 -> compute. */
    double low = hms_hsm_supply(c, 20e9, 0.2), high = hms_hsm_supply(c, 20e9, 1.0);
    cr_assert_float_eq(low, 9.2e9, 1.0);
    cr_assert_float_eq(high, 17.2e9, 1.0);
    cr_assert_eq(hms_hsm_classify(bd, low), HMS_BOUND_MEMORY);
    cr_assert_eq(hms_hsm_classify(bd, high), HMS_BOUND_COMPUTE);
    /* The boundary itself: B_d = B_p is not "exceeds" -> compute-bound.
     * RBH 0.56 gives 20e9 * (0.28 + 0.36) = 12.8e9. */
    cr_assert_eq(hms_hsm_classify(bd, 12.8e9), HMS_BOUND_COMPUTE);
    cr_assert_str_eq(hms_bound_name(HMS_BOUND_MEMORY), "memory");
    cr_assert_str_eq(hms_bound_name(HMS_BOUND_COMPUTE), "compute");
}

Test(hsm, normalised_progress_both_kinds)
{
    /* Eq. 4: 40 of 80 SMs -> 0.5. */
    cr_assert_float_eq(hms_hsm_np_compute(40, 80), 0.5, EPS);
    /* Eq. 5: shared utilisation 0.3 at RBH 0.2 (private 0.46) -> 0.3/0.46. */
    hms_hsm_coeffs c = {0.5, 0.36};
    cr_assert_float_eq(hms_hsm_np_memory(c, 0.3, 0.2), 0.3 / 0.46, EPS);
    cr_assert_float_eq(hms_hsm_np_compute(10, 0), 0.0, EPS);
}

Test(hsm, stp_antt_fairness_by_hand)
{
    const double np[2] = {0.5, 0.8};
    cr_assert_float_eq(hms_hsm_stp(np, 2), 1.3, EPS);
    cr_assert_float_eq(hms_hsm_antt(np, 2), (2.0 + 1.25) / 2.0, EPS); /* 1.625 */
    cr_assert_float_eq(hms_hsm_fairness(np, 2), 0.625, EPS);
    const double stalled[2] = {0.5, 0.0};
    cr_assert(isinf(hms_hsm_antt(stalled, 2)));
    cr_assert_float_eq(hms_hsm_fairness(np, 1), 1.0, EPS);
}

Test(hsm, gradient_is_np_per_sm)
{
    hms_hsm_kernel k = {.sms = 40, .np = 0.9};
    cr_assert_float_eq(hms_hsm_gradient(&k), 0.0225, EPS);
}

Test(hsm, fair_one_step_by_hand)
{
    /* A compute-bound at NP 0.5 on 40 SMs (g 0.0125), B memory-bound at 0.9
     * on 40 (g 0.0225); fairness 0.56 < 0.9. x = 0.4 / 0.035 = 11.43; moving
     * 11 leaves |0.0225*29 - 0.0125*51| = 0.015, moving 12 leaves 0.02 ->
     * 11 SMs from B to A. */
    const hms_hsm_kernel k[2] = {{.sms = 40, .np = 0.5}, {.sms = 40, .np = 0.9}};
    int sms[2];
    char err[128] = "";
    cr_assert_eq(hms_hsm_fair(k, 2, 0.9, sms, err, sizeof err), 11, "%s", err);
    cr_assert_eq(sms[0], 51);
    cr_assert_eq(sms[1], 29);
}

Test(hsm, fair_keeps_a_fair_allocation)
{
    const hms_hsm_kernel k[2] = {{.sms = 40, .np = 0.85}, {.sms = 40, .np = 0.9}};
    int sms[2];
    char err[128];
    cr_assert_eq(hms_hsm_fair(k, 2, 0.9, sms, err, sizeof err), 0); /* 0.944 >= 0.9 */
    cr_assert_eq(sms[0], 40);
    cr_assert_eq(sms[1], 40);
}

/* "True" progress for the convergence test: A compute-bound on an 80-SM GPU
 * (NP = S/80); B memory-bound, saturating at 30 SMs with NP 0.9 (Fig. 2b's
 * shape), so the linear model overestimates what B loses near saturation. */
static double true_np(int kernel, int sms)
{
    if (kernel == 0)
        return sms / 80.0;
    return 0.9 * (sms < 30 ? sms : 30) / 30.0;
}

Test(hsm, fair_converges_over_epochs)
{
    /* Epoch 1 from 40/40: NP 0.5 / 0.9 -> 51/29 (see fair_one_step_by_hand).
     * Epoch 2: A 0.6375, B 0.87 (g 0.03): x = 0.2325/0.0425 = 5.47; 5 leaves
     * |0.72 - 0.70| = 0.02, 6 leaves 0.0225 -> 56/24. Epoch 3: A 0.70,
     * B 0.72, fairness 0.972 >= 0.9: stays. */
    int sms[2] = {40, 40};
    char err[128];
    int moved_total = 0;
    for (int epoch = 0; epoch < 10; epoch++) {
        hms_hsm_kernel k[2] = {{.sms = sms[0], .np = true_np(0, sms[0])},
                               {.sms = sms[1], .np = true_np(1, sms[1])}};
        int moved = hms_hsm_fair(k, 2, 0.9, sms, err, sizeof err);
        cr_assert_geq(moved, 0, "%s", err);
        moved_total += moved;
    }
    cr_assert_eq(sms[0], 56);
    cr_assert_eq(sms[1], 24);
    cr_assert_eq(moved_total, 16);
    double np[2] = {true_np(0, sms[0]), true_np(1, sms[1])};
    cr_assert_geq(hms_hsm_fairness(np, 2), 0.9);
    cr_assert_eq(sms[0] + sms[1], 80, "SMs are conserved");
}

Test(hsm, fair_with_four_kernels_balances_the_extremes)
{
    /* Max NP 0.8 (kernel 2, 20 SMs, g 0.04), min 0.2 (kernel 0, 20 SMs,
     * g 0.01): x = 0.6 / 0.05 = 12 -> 0.04*8 = 0.32 = 0.01*32. */
    const hms_hsm_kernel k[4] = {{.sms = 20, .np = 0.2},
                                 {.sms = 20, .np = 0.5},
                                 {.sms = 20, .np = 0.8},
                                 {.sms = 20, .np = 0.6}};
    int sms[4];
    char err[128];
    cr_assert_eq(hms_hsm_fair(k, 4, 0.9, sms, err, sizeof err), 12);
    cr_assert_eq(sms[0], 32);
    cr_assert_eq(sms[1], 20);
    cr_assert_eq(sms[2], 8);
    cr_assert_eq(sms[3], 20);
}

Test(hsm, fair_rejects_bad_kernels)
{
    int sms[2];
    char err[128] = "";
    const hms_hsm_kernel zero_sms[2] = {{.sms = 0, .np = 0.5}, {.sms = 10, .np = 0.5}};
    cr_assert_eq(hms_hsm_fair(zero_sms, 2, 0.9, sms, err, sizeof err), -1);
    cr_assert(strstr(err, "kernel 0 has 0 SMs") != NULL, "got: %s", err);
    const hms_hsm_kernel bad_np[2] = {{.sms = 5, .np = 0.5}, {.sms = 10, .np = NAN}};
    cr_assert_eq(hms_hsm_fair(bad_np, 2, 0.9, sms, err, sizeof err), -1);
    cr_assert(strstr(err, "kernel 1 has NP") != NULL, "got: %s", err);
    cr_assert_eq(hms_hsm_fair(bad_np, 0, 0.9, sms, err, sizeof err), -1);
}

static const hms_hsm_qos_params qos = {.target = 0.8, .margin = 0.05, .upper = 0.9};

Test(hsm, qos_gives_the_high_priority_kernel_what_its_target_needs)
{
    /* High-priority at NP 0.6 on 40 SMs (g 0.015) misses 0.8: it needs
     * ceil(0.85 / 0.015) = ceil(56.7) = 57 SMs, taken from the other. */
    const hms_hsm_kernel k[2] = {{.sms = 40, .np = 0.6, .high_priority = true},
                                 {.sms = 40, .np = 0.5}};
    int sms[2];
    char err[128] = "";
    cr_assert_eq(hms_hsm_qos(k, 2, &qos, sms, err, sizeof err), 57, "%s", err);
    cr_assert_eq(sms[0], 57);
    cr_assert_eq(sms[1], 23);
    cr_assert_geq(0.015 * sms[0], qos.target, "predicted NP meets the target");
}

Test(hsm, qos_meets_the_target_over_epochs)
{
    /* True NP of the high-priority kernel: linear 0.0125/SM up to 70 SMs.
     * 0.85 / 0.0125 = 68 SMs: one epoch reaches the target and it holds. */
    int sms[2] = {40, 40};
    char err[128];
    for (int epoch = 0; epoch < 5; epoch++) {
        hms_hsm_kernel k[2] = {
            {.sms = sms[0], .np = 0.0125 * (sms[0] < 70 ? sms[0] : 70), .high_priority = true},
            {.sms = sms[1], .np = sms[1] / 80.0}};
        cr_assert_geq(hms_hsm_qos(k, 2, &qos, sms, err, sizeof err), 1, "%s", err);
    }
    cr_assert_eq(sms[0], 68);
    cr_assert_eq(sms[1], 12);
    cr_assert_geq(0.0125 * sms[0], qos.target);
}

Test(hsm, qos_frees_surplus_to_the_steepest_low_priority_kernel)
{
    /* High-priority at 0.95 (> upper 0.9) on 64 SMs: g = 0.0148438,
     * ceil(0.85 / g) = ceil(57.26) = 58 -> 6 SMs freed; kernel 2 has the
     * larger gradient (0.4/8 = 0.05 vs 0.1/8 = 0.0125) and gets them all,
     * which maximises STP under the linear model. */
    const hms_hsm_kernel k[3] = {{.sms = 64, .np = 0.95, .high_priority = true},
                                 {.sms = 8, .np = 0.1},
                                 {.sms = 8, .np = 0.4}};
    int sms[3];
    char err[128];
    cr_assert_eq(hms_hsm_qos(k, 3, &qos, sms, err, sizeof err), 58);
    cr_assert_eq(sms[1], 8);
    cr_assert_eq(sms[2], 14);
}

Test(hsm, qos_takes_from_the_flattest_kernel_first_and_keeps_one_sm)
{
    /* Needs ceil(0.85 / (0.3/10)) = 29 SMs: 19 more. Kernel 1 (g 0.005)
     * gives 9 of its 10, kernel 2 (g 0.05) the remaining 10 of its 20. */
    const hms_hsm_kernel k[3] = {{.sms = 10, .np = 0.3, .high_priority = true},
                                 {.sms = 10, .np = 0.05},
                                 {.sms = 20, .np = 1.0}};
    int sms[3];
    char err[128];
    cr_assert_eq(hms_hsm_qos(k, 3, &qos, sms, err, sizeof err), 29);
    cr_assert_eq(sms[1], 1);
    cr_assert_eq(sms[2], 10);
}

Test(hsm, qos_within_band_keeps_allocation_and_clamps_to_available)
{
    const hms_hsm_kernel ok[2] = {{.sms = 50, .np = 0.85, .high_priority = true},
                                  {.sms = 30, .np = 0.4}};
    int sms[2];
    char err[128];
    cr_assert_eq(hms_hsm_qos(ok, 2, &qos, sms, err, sizeof err), 50);
    cr_assert_eq(sms[1], 30);
    /* Far from target (g 0.001): would need 850 SMs; gets all but one. */
    const hms_hsm_kernel starved[2] = {{.sms = 40, .np = 0.04, .high_priority = true},
                                       {.sms = 40, .np = 0.5}};
    cr_assert_eq(hms_hsm_qos(starved, 2, &qos, sms, err, sizeof err), 79);
    cr_assert_eq(sms[1], 1);
}

Test(hsm, qos_rejects_bad_input)
{
    int sms[2];
    char err[128] = "";
    const hms_hsm_kernel none[2] = {{.sms = 40, .np = 0.5}, {.sms = 40, .np = 0.5}};
    cr_assert_eq(hms_hsm_qos(none, 2, &qos, sms, err, sizeof err), -1);
    cr_assert(strstr(err, "none is marked") != NULL, "got: %s", err);
    const hms_hsm_kernel two[2] = {{.sms = 40, .np = 0.5, .high_priority = true},
                                   {.sms = 40, .np = 0.5, .high_priority = true}};
    cr_assert_eq(hms_hsm_qos(two, 2, &qos, sms, err, sizeof err), -1);
    cr_assert(strstr(err, "both high-priority") != NULL, "got: %s", err);
    const hms_hsm_qos_params inverted = {.target = 0.8, .margin = 0, .upper = 0.5};
    cr_assert_eq(hms_hsm_qos(two, 2, &inverted, sms, err, sizeof err), -1);
    cr_assert(strstr(err, "upper >= target") != NULL, "got: %s", err);
}
