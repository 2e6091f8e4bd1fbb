/* hms-memory-bound: one note per kernel with its predicted time, the bound
 * that sets it, and its class. The time is the largest of the Huang & Li
 * model's and every roofline bound (runtime/roofline.h); the DRAM rate is
 * the kernel's DRAM bytes over that time, so it never exceeds the peak.
 * HSM (Zhao et al., seeds/004_4eecb8baccff2daa.txt, eqs. 2-3): memory-bound
 * when the DRAM bandwidth the kernel would draw at its peak issue rate
 * exceeds what DRAM supplies at its row-buffer hit rate, B_max * (c1 * RBH +
 * c2); the message gives that as a ratio (a demand, not a rate anything
 * reaches). C-AMAT and the bound table are in --explain and JSON. */
#include <stdio.h>

#include "passes/checks/check_util.h"

static const char *binding_words(hms_roofline_kind k)
{
    switch (k) {
    case HMS_RL_DRAM:
        return "DRAM bandwidth";
    case HMS_RL_L2:
        return "L2 bandwidth";
    case HMS_RL_SHARED:
        return "shared-memory bandwidth";
    case HMS_RL_FP32:
        return "FP32 throughput";
    case HMS_RL_ISSUE:
        return "instruction issue";
    default:
        return "latency (no bandwidth or throughput bound reached)";
    }
}

void hms_check_memory_bound(struct hms_check_ctx *c)
{
    if (!c->traced || hms_ctx_no_access_ran(c)) /* no verdict on nothing (hms-analysis-limit) */
        return;
    const hms_kernel_figures *f = &c->fig;
    char t[32], us[32], mb[32], gbs[32], peak[32], ratio[32];
    char timing[320] = "";
    if (f->roof_ok)
        snprintf(timing, sizeof timing,
                 ": predicted %s cycles (%s us, an estimate), set by %s; DRAM %s MB at %s GB/s "
                 "of the %s GB/s peak",
                 hms_fmt_num(t, sizeof t, f->roof.time, 0),
                 hms_fmt_num(us, sizeof us, f->roof.time / (c->arch->clock_ghz * 1e3), 1),
                 binding_words(f->roof.binding),
                 hms_fmt_num(mb, sizeof mb, f->roof_in.dram_bytes / 1e6, 1),
                 hms_fmt_num(gbs, sizeof gbs, f->dram_gbs, 1),
                 hms_fmt_num(peak, sizeof peak, c->arch->dram_bandwidth_gbs, 0));
    bool mem = f->bound == HMS_BOUND_MEMORY;
    double r = f->hsm_supply > 0 ? f->hsm_demand / f->hsm_supply : 0;
    hms_ctx_report(c, &c->k->loc,
                   "%s-bound (HSM: at its peak issue rate it would need %sx the DRAM bandwidth "
                   "available at its %s%% row-buffer hit rate%s)%s",
                   mem ? "memory" : "compute", hms_fmt_num(ratio, sizeof ratio, r, 2),
                   hms_fmt_num(peak, sizeof peak, 100 * f->row_hit_rate, 1),
                   f->hsm_default ? ", default coefficients" : "", timing);
}
