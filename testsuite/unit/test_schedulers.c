/* multiprocessor.schedulers_per_sm: every built-in carries it, it is required
 * and validated, and the placement model's issue throughput (Huang & Li
 * eqs. 13-15, ITILP_max and T_comp) scales with it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/arch.h"
#include "runtime/placement.h"
#include "testsuite/support/run.h"

#define NEAR(a, b, tol) (fabs((double)(a) - (double)(b)) <= (tol))

static const hms_arch *get(const char *name)
{
    char err[640];
    const hms_arch *a = hms_arch_get(name, err, sizeof err);
    cr_assert(a != NULL, "%s: %s", name, err);
    return a;
}

/* Peak warp instructions per SM cycle: schedulers x simd_width / warp_size. */
static double issue_rate(const hms_arch *a)
{
    return (double)a->schedulers_per_sm * a->simd_width / a->warp_size;
}

Test(schedulers, every_builtin_has_at_least_one)
{
    for (size_t i = 0; i < hms_arch_builtin_count(); i++) {
        const hms_arch *a = hms_arch_builtin(i);
        cr_assert_geq(a->schedulers_per_sm, 1, "%s", a->name);
        cr_assert_leq(a->schedulers_per_sm, a->max_warps_per_sm, "%s", a->name);
    }
}

Test(schedulers, whitepaper_issue_rates)
{
    /* GT200: one warp instruction per 4 cycles on 8 SPs */
    cr_assert(NEAR(issue_rate(get("gt200")), 0.25, 1e-12));
    /* GF114: 2 schedulers on 16-lane groups (dual issue not modelled) */
    cr_assert(NEAR(issue_rate(get("fermi")), 1, 1e-12));
    /* GK110, GM204, GH100: 4 schedulers on 32 lanes each */
    cr_assert(NEAR(issue_rate(get("kepler")), 4, 1e-12));
    cr_assert(NEAR(issue_rate(get("maxwell")), 4, 1e-12));
    cr_assert(NEAR(issue_rate(get("h100")), 4, 1e-12));
    /* GV100, GA100: 4 processing blocks with 16 FP32 lanes each */
    cr_assert(NEAR(issue_rate(get("v100")), 2, 1e-12));
    cr_assert(NEAR(issue_rate(get("a100")), 2, 1e-12));
}

static char *kepler_text(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/runtime/arches/kepler.yaml", HMS_SOURCE_DIR);
    char *text = hms_read_file(path, NULL);
    cr_assert(text != NULL, "cannot read %s", path);
    return text;
}

/* Replaces the value of the schedulers_per_sm line (repl NULL: drops the line). */
static char *with_schedulers(const char *text, const char *repl)
{
    const char *p = strstr(text, "  schedulers_per_sm:");
    cr_assert(p != NULL);
    const char *end = strchr(p, '\n');
    cr_assert(end != NULL);
    size_t head = (size_t)(p - text);
    char *out = malloc(strlen(text) + 64);
    memcpy(out, text, head);
    out[head] = 0;
    if (repl)
        snprintf(out + head, 64, "  schedulers_per_sm: %s", repl);
    else
        end++;
    strcat(out, end);
    return out;
}

static void expect_error(const char *repl, const char *want)
{
    char *orig = kepler_text();
    char *text = with_schedulers(orig, repl);
    hms_arch a;
    char err[640] = "";
    bool ok = hms_arch_parse(text, strlen(text), "k.yaml", &a, err, sizeof err);
    free(text);
    free(orig);
    cr_assert(!ok, "expected an error for %s", repl ? repl : "a missing key");
    cr_assert(strstr(err, want) != NULL, "got '%s', want '%s'", err, want);
}

Test(schedulers, required_and_validated)
{
    expect_error(NULL, "multiprocessor.schedulers_per_sm: required key missing");
    expect_error("0", "multiprocessor.schedulers_per_sm");
    expect_error("-2", "multiprocessor.schedulers_per_sm");
    expect_error("0.25", "multiprocessor.schedulers_per_sm");
    expect_error("65", "multiprocessor.schedulers_per_sm: 65 exceeds max_warps (64)");
    char *orig = kepler_text();
    char *text = with_schedulers(orig, "2");
    hms_arch a;
    char err[640] = "";
    cr_assert(hms_arch_parse(text, strlen(text), "k.yaml", &a, err, sizeof err), "%s", err);
    cr_assert_eq(a.schedulers_per_sm, 2);
    free(text);
    free(orig);
}

/* Hand-worked: 100 warps on 10 SMs, 8 resident, 400 instructions per warp,
 * avg_inst_lat 10, ILP 4 (ILP * N = 32), simd_width = warp_size. With one
 * scheduler ITILP_max = 10 / 1 = 10 caps ITILP: T_comp = 400 * 100 / 10 *
 * 10 / 10 = 4000. With four, ITILP_max = 10 / (1 / 4) = 40, ITILP = 32:
 * T_comp = 4000 * 10 / 32 = 1250. */
Test(schedulers, t_comp_scales_with_issue_units)
{
    hms_arch a;
    memset(&a, 0, sizeof a);
    a.warp_size = 32;
    a.simd_width = 32;
    a.max_warps_per_sm = 64;
    a.clock_ghz = 1.0;
    a.shared_latency[0] = 50;
    a.global_latency_l2_hit = 200;
    hms_placement_kernel k = {.total_warps = 100,
                              .active_sms = 10,
                              .warps_per_sm = 8,
                              .inst_issued = 400,
                              .mem_insts = 10,
                              .ilp = 4,
                              .mlp = 1,
                              .avg_inst_lat = 10};
    hms_placement_events e = {.space = HMS_PLACE_GLOBAL, .requests = 1000, .addr_insts = 2000};
    e.kernel.requests = 1000;
    e.kernel.dram_requests = 500;
    e.kernel.dram_latency = 600;
    e.kernel.group_requests[HMS_OVL_GLOBAL] = 1000;
    hms_placement_breakdown b1, b4;
    char err[256];
    a.schedulers_per_sm = 1;
    cr_assert(hms_placement_predict(&a, &k, &e, &e, &b1, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b1.itilp, 10, 1e-9), "%g", b1.itilp);
    cr_assert(NEAR(b1.t_comp, 4000, 1e-6), "%g", b1.t_comp);
    a.schedulers_per_sm = 4;
    cr_assert(hms_placement_predict(&a, &k, &e, &e, &b4, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b4.itilp, 32, 1e-9), "%g", b4.itilp);
    cr_assert(NEAR(b4.t_comp, 1250, 1e-6), "%g", b4.t_comp);
    /* unset (0) counts as one scheduler */
    a.schedulers_per_sm = 0;
    cr_assert(hms_placement_predict(&a, &k, &e, &e, &b1, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b1.t_comp, 4000, 1e-6), "%g", b1.t_comp);
}
