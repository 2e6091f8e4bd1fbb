/* Kernel-level model figures: the CuMAPz terms and MPE (Kim & Shrivastava,
 * seeds/001_3bb0fc5541bb7adb.txt, eqs. 1-8; runtime/cumapz.h) and the HSM
 * memory-/compute-bound class (Zhao et al., seeds/004_4eecb8baccff2daa.txt,
 * eqs. 2-3; runtime/hsm.h).
 *
 * HSM's eq. 2 needs I_max, the instructions the kernel's SMs could issue in
 * an epoch of E cycles. We take the peak issue rate the placement model
 * assumes (schedulers_per_sm warp instructions per warp_size / SIMD_width
 * cycles per SM, Huang & Li eq. 15 with one issue unit per scheduler) and E = the kernel's
 * predicted time, so the demand is the kernel's DRAM bytes over the time it would take at peak
 * issue rate. */
#include "passes/analyze.h"

#include <math.h>
#include <stdio.h>

#include "passes/analyze_internal.h"

static unsigned global_elem_bytes(const ir_kernel *k)
{
    for (size_t i = 0; i < k->nsites; i++) {
        const ir_array *a = &k->arrays[k->sites[i]->array];
        if (a->space == HMS_SPACE_GLOBAL && a->elem_bytes > 0)
            return (unsigned)a->elem_bytes;
    }
    return 4;
}

static void cumapz(hms_check_ctx *c)
{
    const hms_arch *a = c->arch;
    hms_kernel_figures *f = &c->fig;
    char err[256];
    unsigned sector = a->sector_bytes > 0 ? (unsigned)a->sector_bytes : 32;
    c->reuse_ok = hms_shared_reuse_compute(c->k, &c->trace, sector, &c->reuse, err, sizeof err);
    if (!c->reuse_ok)
        hms_ctx_add_limit(c, "shared-memory reuse not analysed: %s", err);
    hms_cumapz_profile p = {0};
    if (c->reuse_ok) {
        p.bytes_shmem = c->reuse.bytes_shmem;
        p.bytes_buffered = c->reuse.bytes_buffered;
        p.n_shm_load = c->reuse.n_shm_load;
        p.n_warp = (uint64_t)llround(c->reuse.n_warp);
        p.n_path = (uint64_t)llround(c->reuse.n_path);
    }
    p.occupancy_pct = c->occ_ok ? c->occ.occupancy * 100 : 0;
    uint64_t ba = c->transfer_useful, bt = c->transfer_bytes; /* summed by site metrics */
    if (!c->transfer_ok)
        hms_cumapz_stream_transfer(a, &c->trace.stream, c->units, &ba, &bt);
    p.bytes_access = (double)ba;
    p.bytes_transferred = (double)bt;
    unsigned max_blks = c->occ_ok ? (unsigned)c->occ.blocks_per_sm : 1;
    if (a->dram_channels > 0 &&
        hms_cumapz_ch_skew(a, &c->trace.stream, c->trace.blocks_total, max_blks,
                           c->k->launch.block[0], global_elem_bytes(c->k), &f->skew, err,
                           sizeof err))
        p.ch_skew = f->skew.ch_skew;
    else
        p.ch_skew = 1;
    if (c->bank_counts_ok || hms_cumapz_bank_conflicts(a, &c->trace.stream, c->banks, &f->banks)) {
        p.n_half_warp = f->banks.n_half_warp;
        p.n_buffer = f->banks.n_buffer;
        p.n_bk_conflict = f->banks.n_bk_conflict;
    }
    f->cumapz_ok = hms_cumapz_evaluate(&p, &f->cumapz, err, sizeof err);
    if (!f->cumapz_ok)
        hms_ctx_add_limit(c, "CuMAPz terms not evaluated: %s", err);
}

static void hsm(hms_check_ctx *c)
{
    const hms_arch *a = c->arch;
    hms_kernel_figures *f = &c->fig;
    hms_launch_geom g = hms_ctx_geom(c);
    f->hsm_coeffs = hms_hsm_coeffs_for(a);
    f->hsm_default = a->hsm_coeffs_default || (a->hsm_c1 == 0 && a->hsm_c2 == 0);
    double issued = (f->time_ok ? f->pk.inst_issued : f->inst_per_warp) * g.total_warps;
    double scheds = a->schedulers_per_sm > 0 ? a->schedulers_per_sm : 1;
    double rate = g.sms * scheds / (g.cpi > 0 ? g.cpi : 1); /* warp instructions per cycle */
    double e = issued / rate;                               /* the epoch: the whole kernel ... */
    if (f->time_ok && f->time.time > e)
        e = f->time.time; /* ... at its predicted time */
    double line = a->l2.line_bytes ? a->l2.line_bytes : 32;
    hms_hsm_demand_in in = {rate * e, issued, f->dram_bytes / line, line, a->clock_ghz * 1e9, e};
    f->hsm_demand = hms_hsm_demand(&in);
    f->hsm_supply = hms_hsm_supply(f->hsm_coeffs, a->dram_bandwidth_gbs * 1e9, f->row_hit_rate);
    f->bound = hms_hsm_classify(f->hsm_demand, f->hsm_supply);
}

bool hms_an_model_figures(hms_check_ctx *c)
{
    cumapz(c);
    hsm(c);
    return c->fig.cumapz_ok;
}
