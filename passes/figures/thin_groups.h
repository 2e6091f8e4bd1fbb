/* Which blocks of a sampled trace the placement model re-simulates when the
 * whole trace is over its work budget (passes/figures/placement_pass.c).
 *
 * The tracer samples a large grid in groups of co-resident blocks (passes/
 * trace/sample.h: in a few waves, every slot of a run of consecutive SMs),
 * so blocks that share lines in L2 (a GEMM's A and B tiles, a stencil's
 * halo) are simulated together, as in the launch. Thinning must keep that:
 * dropping every other block of a group turns the reads a neighbour would
 * have brought into L2 into DRAM misses, which the scale to the grid then
 * multiplies. So the thinned stream keeps whole groups:
 *  - a group is the traced blocks of one wave of resident blocks (block id
 *    / (SMs * blocks per SM)): the scheduler runs them at once;
 *  - the most groups that fit both budgets are kept, spread evenly over the
 *    traced ones (pick j of k at the middle of the j-th of k slices, as the
 *    sampler spreads its picks);
 *  - when not even one group fits, the middle group is kept with fewer warps
 *    in every block (warps 0, s, 2s, ... for the smallest stride s that
 *    fits): each block still meets its neighbours' lines in L2, as in the
 *    launch, while dropping whole blocks would lose them (a GEMM's blocks
 *    share A rows and B columns). If warp 0 alone is over, the caller cuts.
 *    This needs warps that can stand for each other: when the group's warps
 *    issue different numbers of records (a tree reduction's warp 0 runs
 *    every step) the caller thins by blocks instead.
 * The kept records stand for the grid as the traced ones did (the caller
 * scales by the grid's blocks over the kept share of the traced blocks). */
#ifndef HMS_PASSES_FIGURES_THIN_GROUPS_H
#define HMS_PASSES_FIGURES_THIN_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "passes/trace/stream_gen.h"

/* Each traced block's records' work lines, possibly worked out on demand
 * (passes/figures/placement_pass.c counts only the blocks a thinning reads):
 * the lines of block b's records, from its first record; NULL when out of
 * memory. */
typedef struct {
    const size_t *(*block_records)(void *ctx, size_t b);
    void *ctx;
} hms_work_lines;

/* keep[b] for each of t's traced blocks and *warp_stride (1: every warp;
 * 0: no whole group fits and the warps differ, keep[] is unset and the
 * caller thins by blocks). w gives the records' work in cache lines, asked
 * for the blocks weighed only (groups whose records together are over
 * max_records are not counted); `round` is the blocks resident at once
 * (SMs * blocks per SM) the sample was taken with (0: one block per group).
 * False on allocation failure. */
bool hms_thin_by_groups(const hms_kernel_trace *t, const hms_work_lines *w, uint64_t round,
                        size_t max_records, size_t max_lines, bool *keep, uint32_t *warp_stride);

#endif
