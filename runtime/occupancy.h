/* Occupancy: how many blocks of a launch fit on one SM at once, and which
 * per-SM resource stops a further block (the CUDA Occupancy Calculator's
 * rules, with the allocation granularities from the architecture file). */
#ifndef HMS_RUNTIME_OCCUPANCY_H
#define HMS_RUNTIME_OCCUPANCY_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/arch.h"

typedef enum {
    HMS_OCC_LIMIT_WARPS = 1 << 0,     /* max_warps_per_sm */
    HMS_OCC_LIMIT_REGISTERS = 1 << 1, /* regs_per_sm after allocation rounding */
    HMS_OCC_LIMIT_SHARED = 1 << 2,    /* shared_per_sm after allocation rounding */
    HMS_OCC_LIMIT_BLOCKS = 1 << 3,    /* max_blocks_per_sm */
} hms_occ_limit;

typedef struct {
    int threads_per_block; /* blockDim.x * blockDim.y * blockDim.z */
    int regs_per_thread;   /* 0 = unknown: the register limit is not applied */
    int shared_static;     /* bytes of __shared__ arrays */
    int shared_dynamic;    /* bytes from the launch's third <<<>>> argument */
} hms_occ_input;

typedef struct {
    int blocks_per_sm; /* active blocks per SM */
    int warps_per_sm;  /* active warps per SM */
    int warps_per_block;
    double occupancy;    /* warps_per_sm / max_warps_per_sm, 0..1 */
    hms_occ_limit limit; /* the binding limit: first of warps, registers, shared, blocks */
    unsigned limits;     /* every hms_occ_limit that allows exactly blocks_per_sm */
    /* Blocks each resource alone would allow; -1 when it does not constrain
     * (no shared memory used, register count unknown). */
    int by_warps, by_registers, by_shared, by_blocks;
    int regs_per_block;   /* allocated, after rounding; 0 if unknown */
    int shared_per_block; /* allocated, after reservation and rounding */
} hms_occupancy;

/* Fills *out. Returns false, with a reason in err, when the block cannot run
 * at all (too many threads, registers or shared bytes for one block) or the
 * input is negative. */
bool hms_occupancy_compute(const hms_arch *a, const hms_occ_input *in, hms_occupancy *out,
                           char *err, size_t errlen);

/* "warps", "registers", "shared memory", "blocks". */
const char *hms_occ_limit_name(hms_occ_limit l);

#endif
