/* Which blocks of a launch to simulate, and what each one stands for.
 *
 * Large launches are sampled in whole blocks so analysis time does not
 * grow with the grid (the figures are then estimates, labelled so):
 *  - a grid of at most `budget` blocks is enumerated fully (weight 1 each);
 *  - otherwise every block of the first resident wave (blocks 0 ..
 *    first_wave-1, the ones the block scheduler starts at once:
 *    active blocks per SM * SM count, supplied by the caller) is taken with
 *    weight 1, and the remaining budget is spread evenly over the rest of the
 *    grid: pick j of r sits at the middle of the j-th of r equal slices,
 *    weight (rest / r);
 *  - when the first wave alone exceeds the budget, `budget` blocks are
 *    spread evenly over the whole grid, weight total / budget.
 * Weights always sum to the number of blocks in the grid, so a weighted sum
 * over the sampled blocks estimates the full launch's total. */
#ifndef HMS_PASSES_SAMPLE_H
#define HMS_PASSES_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HMS_SAMPLE_DEFAULT_BUDGET 256
/* Most groups of resident blocks the spread stratum is cut into. */
#define HMS_SAMPLE_MIN_RUNS 4

typedef struct {
    uint64_t id;    /* linear block id, x fastest */
    double weight;  /* how many blocks of the full grid this one stands for */
    uint32_t group; /* 0: the first-wave stratum; 1, 2, ...: the spread's groups of
                       co-resident blocks in sample order (an even spread, with no
                       residency, is one group) */
} hms_sampled_block;

typedef struct {
    hms_sampled_block *v; /* ascending id */
    size_t n;
    uint64_t total; /* blocks in the grid */
    bool sampled;   /* false when every block is in v */
} hms_block_sample;

/* Chooses the blocks. budget 0 means HMS_SAMPLE_DEFAULT_BUDGET; first_wave
 * 0 means "no resident-wave stratum". False only on allocation failure or
 * total == 0. Free with hms_block_sample_free. */
bool hms_sample_blocks(uint64_t total, uint64_t first_wave, uint64_t budget, hms_block_sample *out);
/* How the block scheduler places blocks: block b on SM b % sms, up to
 * blocks_per_sm at once, so ids [w * sms * blocks_per_sm, (w + 1) * ...)
 * form wave w. */
typedef struct {
    uint32_t sms, blocks_per_sm;
} hms_residency;

/* As hms_sample_blocks, but the spread stratum is taken in groups of
 * resident blocks: in each of a few waves spread from the stratum's first
 * to its last, every slot of a run of consecutive SMs, so the sampled blocks
 * share caches with the neighbours and co-resident blocks they have in the
 * full launch. Falls back to hms_sample_blocks when `r` is NULL or zero or
 * the budget cannot hold one SM's slots per group. */
bool hms_sample_blocks_resident(uint64_t total, uint64_t first_wave, const hms_residency *r,
                                uint64_t budget, hms_block_sample *out);
void hms_block_sample_free(hms_block_sample *s);

#endif
