/* Occupancy per the CUDA Occupancy Calculator's rules. CuMAPz eq. 2 and
 * Huang & Li's N (warps per SM, eqs. 14-19) read the result. Products are
 * 64-bit: a user file may describe an SM far larger than any real one. */
#include "runtime/occupancy.h"

#include <limits.h>
#include <stdio.h>

static long long round_up(long long v, int unit)
{
    return unit > 1 ? (v + unit - 1) / unit * unit : v;
}

static long long round_down(long long v, int unit)
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
static int blocks_by_registers(const hms_arch *a, int regs, int warps, long long *per_block)
{
    *per_block = 0;
    if (regs == 0)
        return -1;
    if (a->reg_alloc_per_block) {
        /* cc 1.x: one allocation per block, warps rounded up to the granularity. */
        *per_block = round_up(round_up(warps, a->warp_alloc_granularity) * a->warp_size * regs,
                              a->reg_alloc_unit);
        return *per_block > a->regs_per_block ? 0 : (int)(a->regs_per_sm / *per_block);
    }
    /* cc >= 2.0: per warp; the warps that fit round down to the granularity
     * (a warp's registers live in one scheduler's slice of the file). */
    long long per_warp = round_up((long long)regs * a->warp_size, a->reg_alloc_unit);
    *per_block = per_warp * warps;
    if (*per_block > a->regs_per_block)
        return 0;
    return (int)(round_down(a->regs_per_sm / per_warp, a->warp_alloc_granularity) / warps);
}

bool hms_occupancy_compute(const hms_arch *a, const hms_occ_input *in, hms_occupancy *out,
                           char *err, size_t errlen)
{
    *out = (hms_occupancy){0};
    long long shared = (long long)in->shared_static + in->shared_dynamic;
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
        snprintf(err, errlen, "%lld bytes of shared memory per block: %s allows at most %d", shared,
                 a->name, a->shared_per_block);
        return false;
    }

    int warps = (in->threads_per_block + a->warp_size - 1) / a->warp_size;
    long long regs_per_block;
    out->warps_per_block = warps;
    out->by_warps = a->max_warps_per_sm / warps;
    out->by_blocks = a->max_blocks_per_sm;
    out->by_registers = blocks_by_registers(a, in->regs_per_thread, warps, &regs_per_block);
    out->regs_per_block = regs_per_block > INT_MAX ? INT_MAX : (int)regs_per_block;
    if (out->by_registers == 0) {
        snprintf(
            err, errlen, "%d threads x %d registers need %lld registers per block: %s allows %d",
            in->threads_per_block, in->regs_per_thread, regs_per_block, a->name, a->regs_per_block);
        return false;
    }
    /* cc >= 8.0 keeps shared_reserved_per_block for the runtime in every block
     * (CUDA C Programming Guide), used or not. */
    long long reserved = shared + a->shared_reserved_per_block;
    long long alloc = reserved ? round_up(reserved, a->shared_alloc_unit) : 0;
    out->shared_per_block = alloc > INT_MAX ? INT_MAX : (int)alloc;
    out->by_shared = alloc ? (int)(a->shared_per_sm / alloc) : -1;
    if (out->by_shared == 0) {
        snprintf(err, errlen, "%lld bytes of shared memory per block (%lld allocated): %s has %d",
                 shared, alloc, a->name, a->shared_per_sm);
        return false;
    }

    /* The fewest blocks any limit allows; ties report the first of warps,
     * registers, shared memory, blocks. */
    const int by[4] = {out->by_warps, out->by_registers, out->by_shared, out->by_blocks};
    int blocks = out->by_warps;
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
