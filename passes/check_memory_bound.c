/* hms-memory-bound: one note per kernel with its class and the figures
 * behind it. HSM (Zhao et al., seeds/004_4eecb8baccff2daa.txt, eqs. 2-3):
 * memory-bound when the DRAM bandwidth the kernel would draw at its peak
 * issue rate exceeds what DRAM supplies at its row-buffer hit rate,
 * B_max * (c1 * RBH + c2). C-AMAT (Zhang et al., seeds/
 * 003_b03420075c499a6c.txt, eq. 2) on one SM's timeline says how much of the
 * memory latency concurrency hides. */
#include <stdio.h>

#include "passes/check_util.h"

void hms_check_memory_bound(struct hms_check_ctx *c)
{
    if (!c->traced || hms_ctx_no_access_ran(c)) /* no verdict on nothing (hms-analysis-limit) */
        return;
    const hms_kernel_figures *f = &c->fig;
    char d[32], s[32], rbh[32], camat[32], ch[32], cm[32], pmr[32], pamp[32], t[32], amat[32];
    char model[160] = "";
    if (f->time_ok)
        snprintf(model, sizeof model, "; predicted %s cycles (AMAT %s cycles)",
                 hms_fmt_num(t, sizeof t, f->time.time, 0),
                 hms_fmt_num(amat, sizeof amat, f->time.amat, 1));
    char cam[200] = "";
    if (f->camat_ok)
        snprintf(cam, sizeof cam,
                 "; C-AMAT %s cycles per access (hit concurrency %s, pure-miss ratio %s, "
                 "%s pure-miss cycles per miss at concurrency %s)",
                 hms_fmt_num(camat, sizeof camat, f->camat.camat, 2),
                 hms_fmt_num(ch, sizeof ch, f->camat.c_h, 2),
                 hms_fmt_num(pmr, sizeof pmr, f->camat.pmr, 2),
                 hms_fmt_num(pamp, sizeof pamp, f->camat.pamp, 1),
                 hms_fmt_num(cm, sizeof cm, f->camat.c_m, 2));
    bool mem = f->bound == HMS_BOUND_MEMORY;
    hms_ctx_report(c, &c->k->loc,
                   "%s-bound (HSM): DRAM demand %s GB/s %s the %s GB/s DRAM supplies at a %s%% "
                   "row-buffer hit rate%s%s%s",
                   mem ? "memory" : "compute", hms_fmt_num(d, sizeof d, f->hsm_demand / 1e9, 1),
                   mem ? "exceeds" : "is within", hms_fmt_num(s, sizeof s, f->hsm_supply / 1e9, 1),
                   hms_fmt_num(rbh, sizeof rbh, 100 * f->row_hit_rate, 1),
                   f->hsm_default ? " (default HSM coefficients)" : "", cam, model);
}
