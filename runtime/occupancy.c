/* Occupancy per the CUDA Occupancy Calculator's rules. CuMAPz eq. 2 and
 * Huang & Li's N (warps per SM, eqs. 14-19) read the result. */
#include "runtime/occupancy.h"

#include <stdio.h>

static int round_up(int v, int unit)
{
    return unit > 1 ? (v + unit - 1) / unit * unit : v;
}

static int round_down(int v, int unit)
{
    return unit > 1 ? v / unit * unit : v;
}

const char *hms_occ_limit_name(hms_occ_limit l)
{
    switch (l) {
    case HMS_OCC_LIMIT_WARPS:
        return "warps";
    case HMS_OCC_LIMIT_REGISTERS:
        return "registers";
    case HMS_OCC_LIMIT_SHARED:
        return "shared memory";
    case HMS_OCC_LIMIT_BLOCKS:
        return "blocks";
    }
    return "?";
}

/* Blocks the register file allows, or -1 if unknown; 0 if one block cannot fit. */
static int blocks_by_registers(const hms_arch *a, int regs, int warps, int *regs_per_block)
{
    if (regs == 0) {
        *regs_per_block = 0;
        return -1;
    }
    if (a->reg_alloc_per_block) {
        /* cc 1.x: one allocation per block, warps rounded up to the granularity. */
        int per_block = round_up(round_up(warps, a->warp_alloc_granularity) * a->warp_size * regs,
                                 a->reg_alloc_unit);
        *regs_per_block = per_block;
        return per_block > a->regs_per_block ? 0 : a->regs_per_sm / per_block;
    }
    /* cc >= 2.0: per warp; the warps that fit round down to the granularity
     * (a warp's registers live in one scheduler's slice of the file). */
    int per_warp = round_up(regs * a->warp_size, a->reg_alloc_unit);
    *regs_per_block = per_warp * warps;
    if (*regs_per_block > a->regs_per_block)
        return 0;
    int warps_fit = round_down(a->regs_per_sm / per_warp, a->warp_alloc_granularity);
    return warps_fit / warps;
}

bool hms_occupancy_compute(const hms_arch *a, const hms_occ_input *in, hms_occupancy *out,
                           char *err, size_t errlen)
{
    *out = (hms_occupancy){0};
    int shared = in->shared_static + in->shared_dynamic;
    if (in->threads_per_block < 1 || in->threads_per_block > a->max_threads_per_block) {
        snprintf(err, errlen, "%d threads per block: %s allows 1 to %d", in->threads_per_block,
                 a->name, a->max_threads_per_block);
        return false;
    }
    if (in->regs_per_thread < 0 || in->regs_per_thread > a->max_regs_per_thread) {
        snprintf(err, errlen, "%d registers per thread: %s allows at most %d", in->regs_per_thread,
                 a->name, a->max_regs_per_thread);
        return false;
    }
    if (in->shared_static < 0 || in->shared_dynamic < 0 || shared > a->shared_per_block) {
        snprintf(err, errlen, "%d bytes of shared memory per block: %s allows at most %d", shared,
                 a->name, a->shared_per_block);
        return false;
    }

    int warps = (in->threads_per_block + a->warp_size - 1) / a->warp_size;
    out->warps_per_block = warps;
    out->by_warps = a->max_warps_per_sm / warps;
    out->by_blocks = a->max_blocks_per_sm;
    out->by_registers = blocks_by_registers(a, in->regs_per_thread, warps, &out->regs_per_block);
    if (out->by_registers == 0) {
        snprintf(err, errlen, "%d threads x %d registers need %d registers per block: %s allows %d",
                 in->threads_per_block, in->regs_per_thread, out->regs_per_block, a->name,
                 a->regs_per_block);
        return false;
    }
    /* cc >= 8.0 keeps shared_reserved_per_block for the runtime in every block
     * (CUDA C Programming Guide), used or not. */
    int reserved = shared + a->shared_reserved_per_block;
    out->shared_per_block = reserved ? round_up(reserved, a->shared_alloc_unit) : 0;
    out->by_shared = reserved ? a->shared_per_sm / out->shared_per_block : -1;
    if (out->by_shared == 0) {
        snprintf(err, errlen, "%d bytes of shared memory per block (%d allocated): %s has %d",
                 shared, out->shared_per_block, a->name, a->shared_per_sm);
        return false;
    }

    int blocks = out->by_warps;
    const int by[4] = {out->by_warps, out->by_registers, out->by_shared, out->by_blocks};
    for (int i = 1; i < 4; i++)
        if (by[i] >= 0 && by[i] < blocks)
            blocks = by[i];
    for (int i = 3; i >= 0; i--) {
        if (by[i] == blocks) {
            out->limits |= 1u << i;
            out->limit = (hms_occ_limit)(1u << i);
        }
    }
    out->blocks_per_sm = blocks;
    out->warps_per_sm = blocks * warps;
    out->occupancy = (double)out->warps_per_sm / a->max_warps_per_sm;
    return true;
}
