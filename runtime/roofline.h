/* Roofline bounds of a kernel's time: no launch can finish faster than its
 * DRAM bytes at peak DRAM bandwidth, its L2 bytes at peak L2 bandwidth, its
 * shared-memory wavefronts at one per cycle per SM, its FLOPs at the FP32
 * peak, or its warp instructions at the peak issue rate. The per-SM
 * resources (shared, FP32, issue) are charged to the busiest SM: the one that
 * runs ceil(blocks / SMs) blocks, which is the grid's wave/tail effect.
 * The kernel's predicted time is max(model time, every bound); the binding
 * bound is reported (docs/model.md "Roofline bounds"). */
#ifndef HMS_RUNTIME_ROOFLINE_H
#define HMS_RUNTIME_ROOFLINE_H

#include <stdbool.h>

#include "runtime/arch.h"

typedef enum {
    HMS_RL_MODEL = 0, /* the latency model's own time (nothing saturated) */
    HMS_RL_DRAM,
    HMS_RL_L2,
    HMS_RL_SHARED,
    HMS_RL_FP32,
    HMS_RL_ISSUE,
    HMS_RL_COUNT
} hms_roofline_kind;

/* Totals over the whole launch (scaled when blocks were sampled). */
typedef struct {
    double model_time;          /* cycles, the latency model's prediction */
    double dram_bytes;          /* moved between L2 and DRAM */
    double l2_bytes;            /* looked up in L2 */
    double shared_wavefronts;   /* shared-memory wavefronts (bank passes) */
    double flops;               /* FP32 operations, an FMA counting 2 */
    double warp_insts;          /* issued warp instructions */
    double blocks;              /* in the grid */
    double dram_channel_factor; /* partition camping: B_dram moves the bytes at the peak over
                                   this (>= 1; 0 -> 1) */
} hms_roofline_in;

typedef struct {
    double bound[HMS_RL_COUNT]; /* cycles; bound[HMS_RL_MODEL] = model_time */
    double time;                /* max of them all */
    hms_roofline_kind binding;  /* which one is the max (the first on ties) */
    double busiest_sm_share;    /* fraction of the per-SM work the busiest SM runs */
} hms_roofline;

/* Peaks in units per SM cycle, from the architecture; 0 when unknown (that
 * bound is then 0 and never binds). */
double hms_roofline_dram_bytes_per_cycle(const hms_arch *a);
double hms_roofline_flops_per_cycle_per_sm(const hms_arch *a);
double hms_roofline_issue_per_cycle_per_sm(const hms_arch *a);

/* Fills *out; negative or non-finite inputs count as 0. */
void hms_roofline_compute(const hms_arch *a, const hms_roofline_in *in, hms_roofline *out);

/* "model", "dram", "l2", "shared", "fp32", "issue". */
const char *hms_roofline_name(hms_roofline_kind k);

#endif
