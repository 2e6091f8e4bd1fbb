/* The Huang & Li placement model (seeds/000_2b7270bf81dd448e.txt, eqs. 1-5,
 * 11-19): hand-worked predictions, legality and ranking. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "passes/ir/thread_private.h"
#include "runtime/placement.h"

#define NEAR(a, b, tol) (fabs((double)(a) - (double)(b)) <= (tol))

/* One scheduler issuing a warp instruction per cycle (warp_size = simd_width),
 * L2 hit 200 cycles, shared 50, no bandwidth figure (no MWP_peak_bw bound),
 * no overlap coefficients (defaults: w = 0.8/64, intercept 0.1). */
static hms_arch tiny_arch(void)
{
    hms_arch a;
    memset(&a, 0, sizeof a);
    strcpy(a.name, "tiny");
    a.warp_size = 32;
    a.simd_width = 32;
    a.max_warps_per_sm = 64;
    a.clock_ghz = 1.0;
    a.shared_per_block = 48 * 1024;
    a.shared_latency[0] = 50;
    a.global_latency_l2_hit = 200;
    a.readonly.size_bytes = 12 * 1024;
    return a;
}

/* 100 warps on 10 SMs, 8 resident per SM, 400 issued instructions and 10
 * memory instructions per warp, avg_inst_lat 10, ILP = MLP = 1. */
static hms_placement_kernel tiny_kernel(void)
{
    hms_placement_kernel k = {.total_warps = 100,
                              .active_sms = 10,
                              .warps_per_sm = 8,
                              .inst_issued = 400,
                              .mem_insts = 10,
                              .ilp = 1,
                              .mlp = 1,
                              .avg_inst_lat = 10};
    return k;
}

/* The array in global memory: 1000 requests, 4 lines each (3 replays each),
 * half of the kernel's 1000 requests reach DRAM at 800 cycles load-to-use. */
static hms_placement_events global_events(void)
{
    hms_placement_events e = {
        .space = HMS_PLACE_GLOBAL, .requests = 1000, .addr_insts = 2000, .replay_global_div = 3000};
    e.kernel.requests = 1000;
    e.kernel.dram_requests = 500;
    /* load-to-use, the L2 lookup's 200 included: a miss costs 800, so the
     * AMAT is the same as a 600-cycle DRAM latency added to the hit */
    e.kernel.dram_latency = 800;
    e.kernel.group_requests[HMS_OVL_GLOBAL] = 1000;
    return e;
}

/* The same array in constant memory, read as a broadcast: 1 addressing
 * instruction per access, 10 constant-cache misses (10 replays), 10 requests
 * reach DRAM. */
static hms_placement_events constant_events(void)
{
    hms_placement_events e = {.space = HMS_PLACE_CONSTANT,
                              .requests = 1000,
                              .addr_insts = 1000,
                              .replay_const_miss = 10,
                              .cache_hits = 990,
                              .cache_misses = 10};
    e.kernel.requests = 1000;
    e.kernel.dram_requests = 10;
    /* load-to-use, the L2 lookup's 200 included: a miss costs 800, so the
     * AMAT is the same as a 600-cycle DRAM latency added to the hit */
    e.kernel.dram_latency = 800;
    e.kernel.group_requests[HMS_OVL_CONSTANT] = 1000;
    e.kernel.group_events[HMS_OVL_CONSTANT] = 10;
    return e;
}

static hms_placement_array input_array(void)
{
    hms_placement_array arr = {.name = "w",
                               .current = HMS_PLACE_GLOBAL,
                               .written = false,
                               .bytes = 4096,
                               .elements = 1024};
    return arr;
}

/* Current placement (global), by hand:
 *   inst = 400; ITILP = min(1*8, 10/(32/32)) = 8
 *   T_comp = 400*100/10 * 10/8 = 5000
 *   AMAT = 800*0.5 + 200*0.5 = 500 (a miss costs DRAM_lat alone)
 *   CWP = min((10*500 + 400)/400, 8) = 8; MWP = N = 8; MWP_cp = 7; ITMLP = 7
 *   T_mem = 10*100/(10*7) * 500 = 7142.857
 *   ratio = 0.0125*8 + 0.1 = 0.2; T_overlap = 1428.571
 *   T = 5000 + 7142.857 - 1428.571 = 10714.286 */
Test(placement, hand_worked_current_placement)
{
    hms_arch a = tiny_arch();
    hms_placement_kernel k = tiny_kernel();
    hms_placement_events g = global_events();
    hms_placement_breakdown b;
    bool dflt = false;
    char err[256];
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, &dflt, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.inst, 400, 1e-9));
    cr_assert(NEAR(b.itilp, 8, 1e-12));
    cr_assert(NEAR(b.t_comp, 5000, 1e-9), "t_comp %g", b.t_comp);
    cr_assert(NEAR(b.amat, 500, 1e-9));
    cr_assert(NEAR(b.cwp, 8, 1e-12));
    cr_assert(NEAR(b.itmlp, 7, 1e-12));
    cr_assert(NEAR(b.t_mem, 50000.0 / 7, 1e-6), "t_mem %g", b.t_mem);
    cr_assert(NEAR(b.overlap_ratio, 0.2, 1e-12));
    cr_assert_not(b.overlap_clamped);
    cr_assert(NEAR(b.t_overlap, 10000.0 / 7, 1e-6));
    cr_assert(NEAR(b.time, 75000.0 / 7, 1e-6), "time %g", b.time);
    cr_assert(dflt, "no overlap coefficients in the arch: defaults must be flagged");
}

/* Replays as memory-pipe throughput: four schedulers (cc 3.x, warp_size =
 * simd_width) issue a warp instruction every 0.25 cycles; the 100 replays
 * per warp are passes of the SM's one memory pipe (1 cycle each), not
 * dependent instructions. 64 resident warps: ITILP = min(64, 10 / 0.25) =
 * 40, 0.25 cycles per instruction; T_comp = 300 * 0.25 * 100 / 10 = 750
 * (the replays are not charged as latency); the pipe bound is every pass:
 * (10 requests + 100 replays) x 1 cycle x 100 / 10 = 1100 per SM. Without
 * replays T_comp = 400 * 0.25 * 10 = 1000 and the pipe 10 x 10 = 100.
 * With 390 replays (only 10 other instructions) the pipe, 4000, binds. */
Test(placement, replays_are_memory_pipe_throughput)
{
    hms_arch a = tiny_arch();
    a.cc_major = 3;
    a.schedulers_per_sm = 4;
    hms_placement_kernel k = tiny_kernel();
    k.warps_per_sm = 64;
    hms_placement_events g = global_events();
    g.kernel.replays = 100 * k.total_warps;
    hms_placement_breakdown b;
    char err[256];
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.itilp, 40, 1e-12));
    cr_assert(NEAR(b.t_comp, 750, 1e-9), "t_comp %g", b.t_comp);
    cr_assert(NEAR(b.t_pipe, 1100, 1e-9), "t_pipe %g", b.t_pipe);
    cr_assert(NEAR(b.time, fmax(b.t_comp + b.t_mem - b.t_overlap, b.t_pipe), 1e-9));
    g.kernel.replays = 0;
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.t_comp, 1000, 1e-9), "t_comp %g", b.t_comp);
    cr_assert(NEAR(b.t_pipe, 100, 1e-9), "t_pipe %g", b.t_pipe);
    g.kernel.replays = 390 * k.total_warps;
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.t_comp, 25, 1e-9), "t_comp %g", b.t_comp);
    cr_assert(NEAR(b.t_pipe, 4000, 1e-9), "t_pipe %g", b.t_pipe);
    cr_assert(b.t_comp + b.t_mem - b.t_overlap < b.t_pipe, "the pipe should bind here");
    cr_assert(NEAR(b.time, 4000, 1e-9), "time %g", b.time);
}

/* Constant replays (misses, divergent addresses) are the constant cache's,
 * outside the L1 / shared pipe: they stay in T_comp at no less than a pass
 * each, and constant requests take no pipe pass. 100 constant replays per
 * warp, as above: T_comp = (300 x 0.25 + 100 x 1) x 10 = 1750; the pipe
 * holds nothing. */
Test(placement, constant_replays_stay_in_t_comp)
{
    hms_arch a = tiny_arch();
    a.cc_major = 3;
    a.schedulers_per_sm = 4;
    hms_placement_kernel k = tiny_kernel();
    k.warps_per_sm = 64;
    hms_placement_events c = constant_events();
    c.kernel.replays = c.kernel.const_replays = 100 * k.total_warps;
    hms_placement_breakdown b;
    char err[256];
    cr_assert(hms_placement_predict(&a, &k, &c, &c, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.t_comp, 1750, 1e-9), "t_comp %g", b.t_comp);
    cr_assert(NEAR(b.t_pipe, 0, 1e-9), "t_pipe %g", b.t_pipe);
}

/* Constant candidate, by hand:
 *   inst = 400 + ((1000 + 10) - (2000 + 3000))/100 = 360.1
 *   T_comp = 360.1*100/10 * 10/8 = 4501.25
 *   AMAT = 800*0.01 + 200*0.99 = 206
 *   CWP = (10*206 + 360.1)/360.1 = 6.7206 (< N); MWP_cp = CWP - 1 = 5.7206 = ITMLP
 *   T_mem = 10*100/(10*ITMLP) * 206 = 100 * 360.1 / 10 = 3601
 *   T_overlap = 0.2 * 3601 = 720.2; T = 4501.25 + 3601 - 720.2 = 7382.05
 *   speedup = 10714.286 / 7382.05 = 1.45140 */
Test(placement, hand_worked_constant_candidate)
{
    hms_arch a = tiny_arch();
    hms_placement_kernel k = tiny_kernel();
    hms_placement_events g = global_events(), c = constant_events();
    hms_placement_breakdown b;
    char err[256];
    cr_assert(hms_placement_predict(&a, &k, &g, &c, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.inst, 360.1, 1e-9), "inst %g", b.inst);
    cr_assert(NEAR(b.t_comp, 4501.25, 1e-9));
    cr_assert(NEAR(b.amat, 206, 1e-9));
    cr_assert(NEAR(b.cwp, 2420.1 / 360.1, 1e-9));
    cr_assert(NEAR(b.t_mem, 3601, 1e-6), "t_mem %g", b.t_mem);
    cr_assert(NEAR(b.time, 7382.05, 1e-6), "time %g", b.time);

    hms_placement_array arr = input_array();
    hms_placement_events cands[] = {g, c};
    hms_placement_ranking r;
    cr_assert(hms_placement_rank(&a, &k, &arr, cands, 2, &r, err, sizeof err), "%s", err);
    cr_assert_eq(r.best, HMS_PLACE_CONSTANT);
    cr_assert_eq(r.current, HMS_PLACE_GLOBAL);
    cr_assert(NEAR(r.options[HMS_PLACE_CONSTANT].speedup, (75000.0 / 7) / 7382.05, 1e-9));
    cr_assert(NEAR(r.options[HMS_PLACE_GLOBAL].speedup, 1, 1e-12));
    cr_assert(r.coefficients_default);
}

/* The bandwidth bound: 240 GB/s at 1 GHz over 10 SMs = 24 bytes/cycle per
 * SM; 128 DRAM bytes per request and AMAT 500: MWP_peak_bw = 24*500/128 =
 * 93.75 > N, no effect. At 2.4 GB/s: 0.9375 -> ITMLP = 0.9375 and
 * T_mem = 10*100/(10*0.9375) * 500 = 53333.3 (bandwidth-bound). */
Test(placement, bandwidth_bound_limits_itmlp)
{
    hms_arch a = tiny_arch();
    hms_placement_kernel k = tiny_kernel();
    hms_placement_events g = global_events();
    g.kernel.dram_bytes = 128 * 1000;
    hms_placement_breakdown b;
    char err[256];
    a.dram_bandwidth_gbs = 240;
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.itmlp, 7, 1e-12));
    a.dram_bandwidth_gbs = 2.4;
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.itmlp, 0.9375, 1e-12), "itmlp %g", b.itmlp);
    cr_assert(NEAR(b.t_mem, 160000.0 / 3, 1e-6), "t_mem %g", b.t_mem);
    /* a measured bandwidth takes precedence over the theoretical one */
    a.dram_bandwidth_meas_gbs = 240;
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.itmlp, 7, 1e-12));
}

/* Arch coefficients are used as given: g = -0.1 per (L2 misses + global
 * requests)/request, w = 0.02, intercept 0.3. Events: 1000 global requests
 * and 500 L2 misses over 1000 requests -> e_g = 1.5.
 * ratio = -0.15 + 0.16 + 0.3 = 0.31. An intercept of 5 clamps the ratio to 1:
 * T_overlap = T_mem and T = T_comp = 5000. */
Test(placement, overlap_coefficients_from_the_arch)
{
    hms_arch a = tiny_arch();
    a.overlap_coeff[HMS_OVERLAP_GLOBAL] = -0.1;
    a.overlap_coeff[HMS_OVERLAP_WARPS] = 0.02;
    a.overlap_coeff[HMS_OVERLAP_INTERCEPT] = 0.3;
    a.overlap_coeffs_default = false;
    hms_placement_kernel k = tiny_kernel();
    hms_placement_events g = global_events();
    g.kernel.group_events[HMS_OVL_GLOBAL] = 500;
    hms_placement_breakdown b;
    bool dflt = true;
    char err[256];
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, &dflt, err, sizeof err), "%s", err);
    cr_assert_not(dflt);
    cr_assert(NEAR(b.overlap_ratio, 0.31, 1e-12), "ratio %g", b.overlap_ratio);
    a.overlap_coeff[HMS_OVERLAP_INTERCEPT] = 5;
    a.overlap_coeffs_default = true; /* shipped defaults are flagged even when non-zero */
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, &dflt, err, sizeof err), "%s", err);
    cr_assert(dflt);
    cr_assert(NEAR(b.overlap_ratio, 1, 0));
    cr_assert(b.overlap_clamped);
    cr_assert(NEAR(b.t_overlap, 50000.0 / 7, 1e-6));
    cr_assert(NEAR(b.time, 5000, 1e-6), "time %g", b.time);
}

/* Shared candidate (all requests to shared, none to DRAM) with a 12800-byte
 * fill: inst = 400 + (1000 - 5000)/100 = 360; AMAT = 50 (shared requests
 * look up no cache: no hit latency); CWP = (10*50 + 360)/360, ITMLP =
 * CWP - 1 = 500/360 = 1.389; t_copy = (12800/128 lines) / (10 SMs * 1.389)
 * * 800 = 5760 cycles, the current placement's load-to-use DRAM latency (it
 * includes the L2 lookup) per line. */
Test(placement, shared_fill_is_charged)
{
    hms_arch a = tiny_arch();
    hms_placement_kernel k = tiny_kernel();
    a.line_bytes = 128;
    hms_placement_events g = global_events();
    hms_placement_events sh = {
        .space = HMS_PLACE_SHARED, .requests = 1000, .addr_insts = 1000, .copy_bytes = 12800};
    sh.kernel.requests = 1000;
    sh.kernel.shared_requests = 1000;
    sh.kernel.group_requests[HMS_OVL_SHARED] = 1000;
    hms_placement_breakdown b;
    char err[256];
    cr_assert(hms_placement_predict(&a, &k, &g, &sh, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.amat, 50, 1e-9), "amat %g", b.amat);
    cr_assert(NEAR(b.itmlp, 500.0 / 360, 1e-9), "itmlp %g", b.itmlp);
    cr_assert(NEAR(b.t_copy, 5760, 1e-6), "t_copy %g", b.t_copy);
    cr_assert(NEAR(b.time, b.t_comp + b.t_mem - b.t_overlap + 5760, 1e-6));
    /* a shared array staying in shared pays no fill */
    cr_assert(hms_placement_predict(&a, &k, &sh, &sh, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.t_copy, 0, 0));
}

Test(placement, addressing_mode_instructions)
{
    /* paper Section III-B: global 2, 1D texture 0, constant 1, shared 1 */
    cr_assert_eq(hms_placement_addr_insts(HMS_PLACE_GLOBAL), 2);
    cr_assert_eq(hms_placement_addr_insts(HMS_PLACE_TEXTURE1D), 0);
    cr_assert_eq(hms_placement_addr_insts(HMS_PLACE_CONSTANT), 1);
    cr_assert_eq(hms_placement_addr_insts(HMS_PLACE_SHARED), 1);
    cr_assert_eq(hms_placement_addr_insts(HMS_PLACE_READONLY), 2);
    cr_assert_eq(hms_placement_addr_insts(HMS_PLACE_TEXTURE2D), 2);
    cr_assert_str_eq(hms_placement_space_name(HMS_PLACE_TEXTURE2D), "texture2d");
    cr_assert_eq(hms_placement_stream_space(HMS_PLACE_TEXTURE2D), HMS_SPACE_TEXTURE);
    hms_placement_space p;
    cr_assert(hms_placement_from_space(HMS_SPACE_TEXTURE, 2, &p));
    cr_assert_eq(p, HMS_PLACE_TEXTURE2D);
    cr_assert(hms_placement_from_space(HMS_SPACE_TEXTURE, 1, &p));
    cr_assert_eq(p, HMS_PLACE_TEXTURE1D);
    cr_assert(hms_placement_from_space(HMS_SPACE_READONLY, 0, &p));
    cr_assert_eq(p, HMS_PLACE_READONLY);
    cr_assert_not(hms_placement_from_space(HMS_SPACE_LOCAL, 0, &p));
}

Test(placement, written_array_cannot_move_to_read_only_spaces)
{
    hms_arch a = tiny_arch();
    hms_placement_kernel k = tiny_kernel();
    hms_placement_array arr = input_array();
    arr.written = true;
    char why[200];
    hms_placement_space ro[] = {HMS_PLACE_CONSTANT, HMS_PLACE_TEXTURE1D, HMS_PLACE_TEXTURE2D,
                                HMS_PLACE_READONLY};
    for (size_t i = 0; i < 4; i++) {
        cr_assert_not(hms_placement_legal(&a, &k, &arr, ro[i], why, sizeof why));
        cr_assert(strstr(why, "writes w") && strstr(why, "read-only"), "got: %s", why);
    }
    cr_assert_not(hms_placement_legal(&a, &k, &arr, HMS_PLACE_SHARED, why, sizeof why));
    cr_assert(strstr(why, "outlive the block"), "got: %s", why);
    cr_assert(hms_placement_legal(&a, &k, &arr, HMS_PLACE_GLOBAL, why, sizeof why));

    /* ranking a written array with a constant candidate: illegal, ranked last */
    hms_placement_events cands[] = {global_events(), constant_events()};
    hms_placement_ranking r;
    char err[256];
    cr_assert(hms_placement_rank(&a, &k, &arr, cands, 2, &r, err, sizeof err), "%s", err);
    cr_assert_eq(r.best, HMS_PLACE_GLOBAL);
    cr_assert_not(r.options[HMS_PLACE_CONSTANT].legal);
    cr_assert_not(r.options[HMS_PLACE_CONSTANT].evaluated);
    cr_assert(strstr(r.options[HMS_PLACE_CONSTANT].reason, "writes w"));
    cr_assert_eq(r.order[0], HMS_PLACE_GLOBAL);
    /* global evaluated; shared illegal (written); readonly/texture illegal; so
     * everything after the first entry is illegal */
    for (int i = 1; i < HMS_PLACE_COUNT; i++)
        cr_assert_not(r.options[r.order[i]].legal, "order[%d] = %s", i,
                      hms_placement_space_name(r.order[i]));
}

Test(placement, capacity_limits)
{
    hms_arch a = tiny_arch();
    hms_placement_kernel k = tiny_kernel();
    hms_placement_array arr = input_array();
    char why[200];

    arr.bytes = 65536; /* exactly 64 KB fits */
    cr_assert(hms_placement_legal(&a, &k, &arr, HMS_PLACE_CONSTANT, why, sizeof why), "%s", why);
    arr.bytes = 65537;
    cr_assert_not(hms_placement_legal(&a, &k, &arr, HMS_PLACE_CONSTANT, why, sizeof why));
    cr_assert(strstr(why, "65537") && strstr(why, "65536"), "got: %s", why);
    arr.bytes = 60000; /* fits alone, not next to 8000 bytes of other constants */
    k.constant_bytes_used = 8000;
    cr_assert_not(hms_placement_legal(&a, &k, &arr, HMS_PLACE_CONSTANT, why, sizeof why));
    cr_assert(strstr(why, "8000 used"), "got: %s", why);
    arr.bytes = 0; /* unknown size */
    cr_assert_not(hms_placement_legal(&a, &k, &arr, HMS_PLACE_CONSTANT, why, sizeof why));
    cr_assert(strstr(why, "unknown"), "got: %s", why);

    /* shared: 48 KB per block on this arch */
    arr.bytes = 64 * 1024;
    cr_assert_not(hms_placement_legal(&a, &k, &arr, HMS_PLACE_SHARED, why, sizeof why));
    cr_assert(strstr(why, "49152"), "got: %s", why);
    arr.shared_bytes_per_block = 16 * 1024; /* the per-block footprint is what counts */
    cr_assert(hms_placement_legal(&a, &k, &arr, HMS_PLACE_SHARED, why, sizeof why), "%s", why);
    k.shared_bytes_per_block_used = 40 * 1024;
    cr_assert_not(hms_placement_legal(&a, &k, &arr, HMS_PLACE_SHARED, why, sizeof why));

    /* 1D texture: 2^27 texels */
    arr.elements = 134217729;
    cr_assert_not(hms_placement_legal(&a, &k, &arr, HMS_PLACE_TEXTURE1D, why, sizeof why));
    cr_assert(hms_placement_legal(&a, &k, &arr, HMS_PLACE_TEXTURE2D, why, sizeof why), "%s", why);

    /* no read-only cache (before sm_35) */
    a.readonly.size_bytes = 0;
    cr_assert_not(hms_placement_legal(&a, &k, &arr, HMS_PLACE_READONLY, why, sizeof why));
    cr_assert(strstr(why, "read-only data cache"), "got: %s", why);
}

Test(placement, ranking_orders_evaluated_then_unevaluated_then_illegal)
{
    hms_arch a = tiny_arch();
    hms_placement_kernel k = tiny_kernel();
    hms_placement_array arr = input_array();
    arr.bytes = 100000; /* too big for constant */
    /* texture1d: like global but no replays or addressing -> faster */
    hms_placement_events t = global_events();
    t.space = HMS_PLACE_TEXTURE1D;
    t.addr_insts = 0;
    t.replay_global_div = 0;
    hms_placement_events cands[] = {global_events(), t, constant_events()};
    hms_placement_ranking r;
    char err[256];
    cr_assert(hms_placement_rank(&a, &k, &arr, cands, 3, &r, err, sizeof err), "%s", err);
    cr_assert_eq(r.order[0], HMS_PLACE_TEXTURE1D);
    cr_assert_eq(r.order[1], HMS_PLACE_GLOBAL);
    cr_assert(r.options[HMS_PLACE_TEXTURE1D].speedup > 1);
    /* readonly and texture2d are legal but have no events; constant and
     * shared (100000 bytes > 48 KB per block) are illegal, in enum order */
    for (int i = 2; i < 4; i++) {
        const hms_placement_candidate_result *o = &r.options[r.order[i]];
        cr_assert(o->legal && !o->evaluated, "order[%d] = %s", i,
                  hms_placement_space_name(o->space));
        cr_assert(strstr(o->reason, "not evaluated"));
    }
    cr_assert_eq(r.order[2], HMS_PLACE_READONLY);
    cr_assert_eq(r.order[3], HMS_PLACE_TEXTURE2D);
    cr_assert_eq(r.order[4], HMS_PLACE_CONSTANT);
    cr_assert_eq(r.order[5], HMS_PLACE_SHARED);
    cr_assert_not(r.options[HMS_PLACE_CONSTANT].legal);
    cr_assert_not(r.options[HMS_PLACE_SHARED].legal);
}

Test(placement, ties_keep_the_current_placement)
{
    hms_arch a = tiny_arch();
    hms_placement_kernel k = tiny_kernel();
    hms_placement_array arr = input_array();
    arr.current = HMS_PLACE_TEXTURE1D;
    hms_placement_events g = global_events(), t = global_events();
    t.space = HMS_PLACE_TEXTURE1D; /* identical events: identical time */
    hms_placement_events cands[] = {g, t};
    hms_placement_ranking r;
    char err[256];
    cr_assert(hms_placement_rank(&a, &k, &arr, cands, 2, &r, err, sizeof err), "%s", err);
    cr_assert(NEAR(r.options[HMS_PLACE_GLOBAL].time, r.options[HMS_PLACE_TEXTURE1D].time, 0));
    cr_assert_eq(r.best, HMS_PLACE_TEXTURE1D);
}

Test(placement, bad_input_is_refused_with_a_reason)
{
    hms_arch a = tiny_arch();
    hms_placement_kernel k = tiny_kernel();
    hms_placement_array arr = input_array();
    hms_placement_ranking r;
    char err[256];
    hms_placement_events only_const[] = {constant_events()};
    cr_assert_not(hms_placement_rank(&a, &k, &arr, only_const, 1, &r, err, sizeof err));
    cr_assert(strstr(err, "no events for its current space global"), "got: %s", err);

    hms_placement_events dup[] = {global_events(), global_events()};
    cr_assert_not(hms_placement_rank(&a, &k, &arr, dup, 2, &r, err, sizeof err));
    cr_assert(strstr(err, "two candidates"), "got: %s", err);

    hms_placement_events g = global_events();
    hms_placement_breakdown b;
    k.total_warps = 0;
    cr_assert_not(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err));
    cr_assert(strstr(err, "total_warps"), "got: %s", err);

    k = tiny_kernel();
    k.inst_issued = 10; /* less than the array's own 50 per warp */
    hms_placement_events c = constant_events();
    cr_assert_not(hms_placement_predict(&a, &k, &g, &c, &b, NULL, err, sizeof err));
    cr_assert(strstr(err, "inst_issued"), "got: %s", err);

    k = tiny_kernel();
    g.kernel.dram_requests = 2000; /* more than all requests */
    cr_assert_not(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err));
    cr_assert(strstr(err, "exceed"), "got: %s", err);

    g = global_events();
    g.replay_global_div = NAN;
    cr_assert_not(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err));
    cr_assert(strstr(err, "finite"), "got: %s", err);
}

/* ---- event counts from streams (runtime/placement_events.h) ----------------- */

#include "runtime/placement_events.h"

/* A small Kepler-like GPU: 2 SMs; texture/read-only caches 12 KB of 32-byte
 * lines in 4 sets (Mei & Chu); constant cache 8 KB of 64-byte lines; a 64 KB
 * L2 of 32-byte lines; K80 DRAM mapping and row latencies (Huang & Li). */
static hms_arch kepler_like(void)
{
    hms_arch a = tiny_arch();
    strcpy(a.name, "kepler-like");
    a.sm_count = 2;
    a.max_blocks_per_sm = 16;
    a.shared_banks = 32;
    a.shared_bank_bytes = 4;
    a.sector_bytes = 32;
    a.line_bytes = 128;
    a.tex_l1 = (hms_cache_geom){
        .size_bytes = 12288, .line_bytes = 32, .ways = 96, .set_bit_low = 7, .hit_latency = 110};
    a.readonly = a.tex_l1;
    a.constant =
        (hms_cache_geom){.size_bytes = 8192, .line_bytes = 64, .ways = 4, .hit_latency = 48};
    a.l2 = (hms_cache_geom){.size_bytes = 65536, .line_bytes = 32, .ways = 16, .hit_latency = 198};
    a.global_latency_l2_hit = 198;
    a.constant_latency_hit = 48;
    a.texture_latency_hit = 110;
    a.dram_channels = 6;
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

static void push(hms_stream *s, uint32_t array, hms_space space, hms_access_kind kind,
                 uint32_t block, uint32_t warp, uint64_t time, uint64_t base, uint64_t lane_stride)
{
    hms_warp_access r;
    memset(&r, 0, sizeof r);
    r.array = array;
    r.site = array;
    r.space = (uint8_t)space;
    r.kind = (uint8_t)kind;
    r.width = 4;
    r.exact = true;
    r.mask = 0xFFFFFFFFu;
    r.block = block;
    r.warp = warp;
    r.time = time;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        r.addr[l] = base + (uint64_t)l * lane_stride;
    cr_assert(hms_stream_push(s, &r));
}

#define COEF 0x10000ull
#define OUT 0x100000ull

/* 2 blocks x 2 warps. Array 0 (coef, 16 floats): every warp reads coef[k],
 * k = 0..15, as a broadcast at time 2k. Array 1 (out): each warp stores 32
 * consecutive floats at time 40. */
static void broadcast_kernel(hms_stream *s)
{
    hms_stream_init(s);
    for (uint32_t b = 0; b < 2; b++)
        for (uint32_t w = 0; w < 2; w++) {
            for (uint32_t k = 0; k < 16; k++)
                push(s, 0, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, b, w, 2 * k, COEF + 4 * k, 0);
            push(s, 1, HMS_SPACE_GLOBAL, HMS_ACCESS_STORE, b, w, 40,
                 OUT + (uint64_t)(b * 64 + w * 32) * 4, 4);
        }
}

static hms_placement_events events_for(const hms_stream *s, const hms_arch *a, uint32_t array,
                                       hms_placement_space sp)
{
    hms_placement_events e;
    char err[256];
    cr_assert(hms_placement_events_compute(s, a, array, sp, NULL, NULL, &e, err, sizeof err),
              "%s: %s", hms_placement_space_name(sp), err);
    return e;
}

/* Global: 64 requests on coef, 2 addressing instructions each, one 128-byte
 * line each (no replay). L2 (32-byte lines): coef's two lines miss once,
 * everything else on coef hits; out's 4 warps x 4 sectors miss. DRAM-served
 * requests: 2 (coef) + 4 (out) = 6; DRAM bytes 18 * 32 = 576; hit latency
 * is the L2's for the 62 coef requests L2 served. */
Test(placement_events, broadcast_array_in_global)
{
    hms_arch a = kepler_like();
    hms_stream s;
    broadcast_kernel(&s);
    hms_placement_events e = events_for(&s, &a, 0, HMS_PLACE_GLOBAL);
    cr_assert(NEAR(e.requests, 64, 0));
    cr_assert(NEAR(e.addr_insts, 128, 0));
    cr_assert(NEAR(e.replay_global_div, 0, 0));
    cr_assert(NEAR(e.kernel.requests, 68, 0));
    cr_assert(NEAR(e.kernel.dram_requests, 6, 0), "got %g", e.kernel.dram_requests);
    cr_assert(NEAR(e.kernel.dram_bytes, 576, 0), "got %g", e.kernel.dram_bytes);
    cr_assert(NEAR(e.kernel.group_requests[HMS_OVL_GLOBAL], 68, 0));
    cr_assert(NEAR(e.kernel.group_events[HMS_OVL_GLOBAL], 18, 0));
    cr_assert(NEAR(e.kernel.hit_latency, 198, 1e-9));
    cr_assert(NEAR(e.kernel.row_hits + e.kernel.row_misses + e.kernel.row_conflicts, 18, 0));
    cr_assert(e.kernel.dram_latency > 0);
    hms_stream_free(&s);
}

/* Constant: 64-byte constant lines hold all of coef, so each SM misses once
 * (2 replays), 62 hits; divergence 0 (broadcast). SM 0's miss fetches both
 * 32-byte L2 lines from DRAM, SM 1's hits L2: DRAM-served requests 1 + 4.
 * Hit latency: 62 constant hits at 48, SM 1's miss served by L2 at 198:
 * (62*48 + 198)/63 = 50.381. */
Test(placement_events, broadcast_array_in_constant)
{
    hms_arch a = kepler_like();
    hms_stream s;
    broadcast_kernel(&s);
    hms_placement_events e = events_for(&s, &a, 0, HMS_PLACE_CONSTANT);
    cr_assert(NEAR(e.addr_insts, 64, 0));
    cr_assert(NEAR(e.replay_const_div, 0, 0));
    cr_assert(NEAR(e.replay_const_miss, 2, 0), "got %g", e.replay_const_miss);
    cr_assert(NEAR(e.cache_hits, 62, 0));
    cr_assert(NEAR(e.cache_misses, 2, 0));
    cr_assert(NEAR(e.kernel.dram_requests, 5, 0), "got %g", e.kernel.dram_requests);
    cr_assert(NEAR(e.kernel.group_requests[HMS_OVL_CONSTANT], 64, 0));
    cr_assert(NEAR(e.kernel.group_events[HMS_OVL_CONSTANT], 2, 0));
    cr_assert(NEAR(e.kernel.hit_latency, 3174.0 / 63, 1e-9), "got %g", e.kernel.hit_latency);
    hms_stream_free(&s);
}

/* Texture: 32-byte texture lines, coef spans two, so each SM misses twice:
 * 4 misses, 60 hits, no replays, no addressing instructions. SM 0's misses
 * go to DRAM, SM 1's hit L2: (60*110 + 2*198)/62 = 112.839. */
Test(placement_events, broadcast_array_in_texture)
{
    hms_arch a = kepler_like();
    hms_stream s;
    broadcast_kernel(&s);
    hms_placement_events e = events_for(&s, &a, 0, HMS_PLACE_TEXTURE1D);
    cr_assert(NEAR(e.addr_insts, 0, 0));
    cr_assert(NEAR(hms_placement_replays(&e), 0, 0));
    cr_assert(NEAR(e.cache_misses, 4, 0), "got %g", e.cache_misses);
    cr_assert(NEAR(e.cache_hits, 60, 0));
    cr_assert(NEAR(e.kernel.dram_requests, 6, 0));
    cr_assert(NEAR(e.kernel.hit_latency, 6996.0 / 62, 1e-9), "got %g", e.kernel.hit_latency);
    /* shared: a broadcast is one wavefront; no off-chip traffic for coef */
    e = events_for(&s, &a, 0, HMS_PLACE_SHARED);
    cr_assert(NEAR(e.replay_bank_conflict, 0, 0));
    cr_assert(NEAR(e.kernel.shared_requests, 64, 0));
    cr_assert(NEAR(e.kernel.dram_requests, 4, 0));
    /* each block copies the one 128-byte line of coef it reads */
    cr_assert(NEAR(e.copy_bytes, 256, 0), "got %g", e.copy_bytes);
    hms_stream_free(&s);
}

static hms_placement_kernel small_kernel(void)
{
    hms_placement_kernel k = {.total_warps = 4,
                              .active_sms = 2,
                              .warps_per_sm = 2,
                              .inst_issued = 50,
                              .mem_insts = 17,
                              .avg_inst_lat = 10};
    return k;
}

static void rank_all(const hms_stream *s, const hms_arch *a, const hms_placement_kernel *k,
                     const hms_placement_array *arr, hms_placement_ranking *r)
{
    hms_placement_events c[HMS_PLACE_COUNT];
    size_t n = 0;
    char why[200], err[256];
    for (int sp = 0; sp < HMS_PLACE_COUNT; sp++)
        if (hms_placement_legal(a, k, arr, (hms_placement_space)sp, why, sizeof why))
            c[n++] = events_for(s, a, 0, (hms_placement_space)sp);
    cr_assert(hms_placement_rank(a, k, arr, c, n, r, err, sizeof err), "%s", err);
}

Test(placement_events, broadcast_read_array_ranks_constant_first)
{
    hms_arch a = kepler_like();
    hms_stream s;
    broadcast_kernel(&s);
    hms_placement_kernel k = small_kernel();
    hms_placement_array arr = {
        .name = "coef", .current = HMS_PLACE_GLOBAL, .bytes = 64, .elements = 16};
    hms_placement_ranking r;
    rank_all(&s, &a, &k, &arr, &r);
    cr_assert_eq(r.best, HMS_PLACE_CONSTANT, "best: %s", hms_placement_space_name(r.best));
    cr_assert(r.options[HMS_PLACE_CONSTANT].speedup > 1);
    for (int sp = 0; sp < HMS_PLACE_COUNT; sp++)
        cr_assert(r.options[sp].evaluated, "%s: %s", hms_placement_space_name(sp),
                  r.options[sp].reason);
    hms_stream_free(&s);
}

/* Each warp streams through 16 consecutive 128-byte chunks of `in`: in
 * constant memory every request reads 32 distinct addresses (31 replays). */
static void streaming_kernel(hms_stream *s)
{
    hms_stream_init(s);
    for (uint32_t b = 0; b < 2; b++)
        for (uint32_t w = 0; w < 2; w++) {
            uint64_t base = COEF + (uint64_t)(b * 2 + w) * 16 * 128;
            for (uint32_t k = 0; k < 16; k++)
                push(s, 0, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, b, w, 2 * k, base + 128 * k, 4);
            push(s, 1, HMS_SPACE_GLOBAL, HMS_ACCESS_STORE, b, w, 40,
                 OUT + (uint64_t)(b * 64 + w * 32) * 4, 4);
        }
}

Test(placement_events, streaming_array_does_not_rank_constant_first)
{
    hms_arch a = kepler_like();
    hms_stream s;
    streaming_kernel(&s);
    hms_placement_events c = events_for(&s, &a, 0, HMS_PLACE_CONSTANT);
    cr_assert(NEAR(c.replay_const_div, 64 * 31, 0), "got %g", c.replay_const_div);
    hms_placement_kernel k = small_kernel();
    k.inst_issued = 50;
    hms_placement_array arr = {
        .name = "in", .current = HMS_PLACE_GLOBAL, .bytes = 8192, .elements = 2048};
    hms_placement_ranking r;
    rank_all(&s, &a, &k, &arr, &r);
    cr_assert_neq(r.best, HMS_PLACE_CONSTANT);
    cr_assert(r.options[HMS_PLACE_CONSTANT].evaluated);
    cr_assert(r.options[HMS_PLACE_CONSTANT].speedup < 1, "constant speedup %g",
              r.options[HMS_PLACE_CONSTANT].speedup);
    cr_assert(r.options[HMS_PLACE_CONSTANT].time > r.options[HMS_PLACE_GLOBAL].time);
    hms_stream_free(&s);
}

/* Lanes 128 bytes apart in shared memory with 32 4-byte banks all hit bank
 * 0: 32 wavefronts, 31 replays per request (Mei & Chu: gcd(32, 32)-way). */
Test(placement_events, strided_array_conflicts_in_shared)
{
    hms_arch a = kepler_like();
    hms_stream s;
    hms_stream_init(&s);
    for (uint32_t k = 0; k < 4; k++)
        push(&s, 0, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, 0, 0, k, COEF + 4 * k, 128);
    hms_placement_events e = events_for(&s, &a, 0, HMS_PLACE_SHARED);
    cr_assert(NEAR(e.replay_bank_conflict, 4 * 31, 0), "got %g", e.replay_bank_conflict);
    cr_assert(NEAR(e.kernel.group_events[HMS_OVL_SHARED], 4 * 31, 0));
    cr_assert(NEAR(e.kernel.replays, 4 * 31, 0));
    /* in global: 32 lines per request -> 31 replays as well */
    e = events_for(&s, &a, 0, HMS_PLACE_GLOBAL);
    cr_assert(NEAR(e.replay_global_div, 4 * 31, 0), "got %g", e.replay_global_div);
    hms_stream_free(&s);
}

/* A shared array (current space shared) moved to global gets per-block slabs:
 * it now reaches DRAM and leaves shared memory. */
Test(placement_events, shared_array_moved_off_chip)
{
    hms_arch a = kepler_like();
    hms_stream s;
    hms_stream_init(&s);
    for (uint32_t b = 0; b < 2; b++)
        for (uint32_t k = 0; k < 4; k++)
            push(&s, 0, HMS_SPACE_SHARED, HMS_ACCESS_LOAD, b, 0, k, 128 * k, 4);
    hms_placement_events sh = events_for(&s, &a, 0, HMS_PLACE_SHARED);
    cr_assert(NEAR(sh.kernel.shared_requests, 8, 0));
    cr_assert(NEAR(sh.kernel.dram_requests, 0, 0));
    hms_placement_events g = events_for(&s, &a, 0, HMS_PLACE_GLOBAL);
    cr_assert(NEAR(g.kernel.shared_requests, 0, 0));
    /* 512 bytes per block, two blocks in separate slabs: every request misses L2 */
    cr_assert(NEAR(g.kernel.dram_requests, 8, 0), "got %g", g.kernel.dram_requests);
    cr_assert(NEAR(g.kernel.dram_bytes, 8 * 128, 0));
    hms_stream_free(&s);
}

Test(placement_events, scale_and_untimed_streams)
{
    hms_arch a = kepler_like();
    hms_stream s;
    broadcast_kernel(&s);
    for (size_t i = 0; i < s.n; i++)
        s.v[i].time = 0; /* no issue times: positions in each warp stand in */
    hms_placement_events_opts o = {.scale = 2.5};
    hms_placement_events e;
    char err[256];
    cr_assert(
        hms_placement_events_compute(&s, &a, 0, HMS_PLACE_GLOBAL, NULL, &o, &e, err, sizeof err),
        "%s", err);
    cr_assert(NEAR(e.requests, 64 * 2.5, 0));
    cr_assert(NEAR(e.kernel.requests, 68 * 2.5, 0));
    cr_assert(NEAR(e.kernel.dram_requests, 6 * 2.5, 0));
    cr_assert(isfinite(e.kernel.dram_latency) && e.kernel.dram_latency > 0);
    hms_stream_free(&s);
}

Test(placement_events, bad_records_and_arch_are_reported)
{
    hms_arch a = kepler_like();
    hms_stream s;
    broadcast_kernel(&s);
    s.v[5].width = 3;
    hms_placement_events e;
    char err[256];
    cr_assert_not(
        hms_placement_events_compute(&s, &a, 0, HMS_PLACE_GLOBAL, NULL, NULL, &e, err, sizeof err));
    cr_assert(strstr(err, "stream record 5"), "got: %s", err);
    s.v[5].width = 4;
    a.dram_channels = 0;
    strcpy(a.source_path, "my-gpu.yaml");
    cr_assert_not(
        hms_placement_events_compute(&s, &a, 0, HMS_PLACE_GLOBAL, NULL, NULL, &e, err, sizeof err));
    cr_assert(strstr(err, "my-gpu.yaml") && strstr(err, "dram_channels"), "got: %s", err);
    a = kepler_like();
    a.tex_l1.line_bytes = 48; /* not a power of two */
    cr_assert_not(hms_placement_events_compute(&s, &a, 0, HMS_PLACE_TEXTURE1D, NULL, NULL, &e, err,
                                               sizeof err));
    cr_assert(strstr(err, "texture cache"), "got: %s", err);
    hms_stream_free(&s);
}

/* Where the L1 also serves texture and read-only fetches (Maxwell, Volta on),
 * a 1D texture is the __ldg path with a longer hit latency: the same
 * addressing instructions, the same lines - 1 replays for a scattered read,
 * the same cache (shared with global loads), so it never ranks above
 * read-only. On a separate texture path (Kepler) it keeps the paper's
 * figures: no addressing instructions, no replays. */
Test(placement_events, unified_l1_texture_is_the_readonly_path)
{
    hms_stream s;
    hms_stream_init(&s);
    for (uint32_t b = 0; b < 2; b++)
        for (uint32_t w = 0; w < 2; w++)
            for (uint32_t k = 0; k < 8; k++) /* lanes 128 bytes apart: 32 lines a request */
                push(&s, 0, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, b, w, 2 * k,
                     COEF + (uint64_t)(b * 2 + w) * 4 + 4096ull * k, 128);
    hms_arch sep = kepler_like();
    hms_placement_events t = events_for(&s, &sep, 0, HMS_PLACE_TEXTURE1D);
    hms_placement_events ro = events_for(&s, &sep, 0, HMS_PLACE_READONLY);
    cr_expect(NEAR(t.addr_insts, 0, 0), "got %g", t.addr_insts);
    cr_expect(NEAR(t.replay_global_div, 0, 0), "got %g", t.replay_global_div);
    cr_expect(NEAR(ro.replay_global_div, 32 * 31, 0), "got %g", ro.replay_global_div);

    hms_arch uni = kepler_like();
    uni.unified_l1_texture = true;
    uni.l1_caches_global = true;
    uni.l1 = (hms_cache_geom){.size_bytes = 12288, .line_bytes = 128, .ways = 4, .hit_latency = 30};
    uni.readonly = uni.l1;
    t = events_for(&s, &uni, 0, HMS_PLACE_TEXTURE1D);
    ro = events_for(&s, &uni, 0, HMS_PLACE_READONLY);
    hms_placement_events g = events_for(&s, &uni, 0, HMS_PLACE_GLOBAL);
    cr_expect(NEAR(t.addr_insts, ro.addr_insts, 0), "%g vs %g", t.addr_insts, ro.addr_insts);
    cr_expect(NEAR(t.replay_global_div, ro.replay_global_div, 0));
    cr_expect(NEAR(t.replay_global_div, 32 * 31, 0), "got %g", t.replay_global_div);
    cr_expect(NEAR(t.cache_hits, ro.cache_hits, 0) && NEAR(t.cache_misses, ro.cache_misses, 0));
    cr_expect(NEAR(t.cache_hits, g.cache_hits, 0) && NEAR(t.cache_misses, g.cache_misses, 0));
    hms_placement_kernel k = small_kernel();
    k.inst_issued = 200;
    hms_placement_array arr = {
        .name = "in", .current = HMS_PLACE_GLOBAL, .bytes = 65536, .elements = 16384};
    hms_placement_ranking r;
    rank_all(&s, &uni, &k, &arr, &r);
    cr_expect(r.options[HMS_PLACE_TEXTURE1D].evaluated && r.options[HMS_PLACE_READONLY].evaluated);
    cr_expect_leq(r.options[HMS_PLACE_TEXTURE1D].speedup, r.options[HMS_PLACE_READONLY].speedup,
                  "texture %g, read-only %g", r.options[HMS_PLACE_TEXTURE1D].speedup,
                  r.options[HMS_PLACE_READONLY].speedup);
    hms_stream_free(&s);
}

/* Staging in shared memory that cannot pay is not a legal placement: reuse
 * that is each thread's own, or elements read once by coalesced loads. */
Test(placement, shared_needs_staging_that_can_pay)
{
    hms_arch a = tiny_arch();
    hms_placement_kernel k = tiny_kernel();
    hms_placement_array arr = input_array();
    char why[200];
    cr_assert(hms_placement_legal(&a, &k, &arr, HMS_PLACE_SHARED, why, sizeof why), "%s", why);
    arr.staging = HMS_STAGING_OWN_THREAD;
    cr_assert_not(hms_placement_legal(&a, &k, &arr, HMS_PLACE_SHARED, why, sizeof why));
    cr_assert(strstr(why, "keep them in registers"), "got: %s", why);
    arr.staging = HMS_STAGING_READ_ONCE;
    cr_assert_not(hms_placement_legal(&a, &k, &arr, HMS_PLACE_SHARED, why, sizeof why));
    cr_assert(strstr(why, "read once per block"), "got: %s", why);
    /* the other spaces do not depend on it */
    cr_assert(hms_placement_legal(&a, &k, &arr, HMS_PLACE_READONLY, why, sizeof why), "%s", why);
}

/* How a block's threads reuse an array's elements, from the stream. */
Test(placement, block_reuse_from_the_stream)
{
    hms_stream s;
    /* each warp reads 32 consecutive floats twice: its own lanes again */
    hms_stream_init(&s);
    for (uint32_t w = 0; w < 2; w++)
        for (int pass = 0; pass < 2; pass++)
            push(&s, 0, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, 0, w, (uint64_t)pass, 128u * w, 4);
    cr_expect_eq(hms_array_block_reuse(&s, 0, 32), HMS_BLOCK_REUSE_OWN_THREAD);
    /* the second pass shifted by one element: neighbours' elements */
    hms_stream_free(&s);
    hms_stream_init(&s);
    push(&s, 0, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, 0, 0, 0, 0, 4);
    push(&s, 0, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, 0, 0, 1, 4, 4);
    cr_expect_eq(hms_array_block_reuse(&s, 0, 32), HMS_BLOCK_REUSE_SHARED);
    /* two blocks each reading the same 32 floats once: not reuse within a block */
    hms_stream_free(&s);
    hms_stream_init(&s);
    push(&s, 0, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, 0, 0, 0, 0, 4);
    push(&s, 0, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, 1, 0, 0, 0, 4);
    cr_expect_eq(hms_array_block_reuse(&s, 0, 32), HMS_BLOCK_REUSE_NONE);
    /* nothing read */
    cr_expect_eq(hms_array_block_reuse(&s, 1, 32), HMS_BLOCK_REUSE_UNKNOWN);
    hms_stream_free(&s);
}

/* T_overlap from Hong & Kim's cases (arch overlap_hong_kim), each by hand
 * on the tiny kernel: P = mem_insts / MLP = 10 periods, R = 100 / (8 * 10)
 * = 1.25 repetitions, T_comp = C x N x R. */
Test(placement, hong_kim_overlap_cases)
{
    hms_arch a = tiny_arch();
    a.overlap_hong_kim = true;
    hms_placement_kernel k = tiny_kernel();
    hms_placement_events g = global_events();
    hms_placement_breakdown b;
    char err[256];

    /* MWP = N = CWP = 8 (no bandwidth bound): C x (1 + 7/10) / 8 of T_comp
     * exposed = 5000 * 1.7 / 8 = 1062.5; T_overlap = 5000 - 1062.5 = 3937.5;
     * T = 5000 + 50000/7 - 3937.5 */
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.mwp, 8, 1e-12) && NEAR(b.cwp, 8, 1e-12));
    cr_assert(NEAR(b.t_overlap, 3937.5, 1e-9), "t_overlap %g", b.t_overlap);
    cr_assert(NEAR(b.time, 5000 + 50000.0 / 7 - 3937.5, 1e-6), "time %g", b.time);

    /* Memory bound: 64 DRAM bytes per request and 5.12 GB/s over 10 SMs at
     * 1 GHz give MWP_peak_bw = 0.512 * 500 / 64 = 4 < CWP = 8; ITMLP = 4,
     * T_mem = 100 * 500 = 50000 / 4 = 12500; exposed = 5000 * 3 / (8 * 10)
     * = 187.5; T = 12500 + 187.5 */
    a.dram_bandwidth_gbs = 5.12;
    g.kernel.dram_bytes = 64000;
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.mwp, 4, 1e-9), "mwp %g", b.mwp);
    cr_assert(NEAR(b.t_mem, 12500, 1e-6), "t_mem %g", b.t_mem);
    cr_assert(NEAR(b.time, 12687.5, 1e-6), "time %g", b.time);

    /* Compute bound: 4000 instructions per warp, CWP = (5000 + 4000) / 4000
     * = 2.25 < MWP = 8; T_comp = 50000, ITMLP = 1.25, T_mem = 40000; the
     * memory hides under compute but for one AMAT per repetition:
     * T = 50000 + 500 * 1.25 */
    a.dram_bandwidth_gbs = 0;
    k.inst_issued = 4000;
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.cwp, 2.25, 1e-12), "cwp %g", b.cwp);
    cr_assert(NEAR(b.t_comp, 50000, 1e-6) && NEAR(b.t_mem, 40000, 1e-6));
    cr_assert(NEAR(b.time, 50625, 1e-6), "time %g", b.time);

    /* the default (eq. 11) is unchanged by the field's absence */
    a.overlap_hong_kim = false;
    cr_assert(hms_placement_predict(&a, &k, &g, &g, &b, NULL, err, sizeof err), "%s", err);
    cr_assert(NEAR(b.t_overlap, 0.2 * 40000, 1e-6), "t_overlap %g", b.t_overlap);
}
