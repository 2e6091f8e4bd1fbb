/* Block sampling: first resident wave plus an even spread (see sample.h). */
#include "passes/trace/sample.h"

#include <stdlib.h>

/* Appends `count` picks spread evenly over [lo, lo + span), each standing
 * for span / count blocks. Mid-slice picks avoid always starting at a slice
 * edge (which would over-represent e.g. the first column of a 2D grid). */
static void spread(hms_block_sample *s, uint64_t lo, uint64_t span, uint64_t count)
{
    double weight = (double)span / (double)count;
    for (uint64_t j = 0; j < count; j++) {
        /* (2j+1) * span / (2 count), in 128-bit to avoid overflow on huge grids */
        unsigned __int128 mid = ((unsigned __int128)(2 * j + 1) * span) / (2 * count);
        s->v[s->n].id = lo + (uint64_t)mid;
        s->v[s->n].weight = weight;
        s->v[s->n].group = 1;
        s->n++;
    }
}

bool hms_sample_blocks(uint64_t total, uint64_t first_wave, uint64_t budget, hms_block_sample *out)
{
    out->v = NULL;
    out->n = 0;
    out->total = total;
    out->sampled = false;
    if (total == 0)
        return false;
    if (budget == 0)
        budget = HMS_SAMPLE_DEFAULT_BUDGET;
    uint64_t n = total < budget ? total : budget;
    out->v = malloc(n * sizeof *out->v);
    if (!out->v)
        return false;
    if (total <= budget) {
        for (uint64_t i = 0; i < total; i++)
            out->v[i] = (hms_sampled_block){i, 1.0, 0};
        out->n = total;
        return true;
    }
    out->sampled = true;
    if (first_wave >= budget || first_wave == 0) {
        spread(out, 0, total, budget);
        return true;
    }
    for (uint64_t i = 0; i < first_wave; i++)
        out->v[out->n++] = (hms_sampled_block){i, 1.0, 0};
    spread(out, first_wave, total - first_wave, budget - first_wave);
    return true;
}

/* ---- sampling with the GPU's residency ---------------------------------------------------- */

/* The ids of wave w's slot k on SMs [s0, s0 + m), clipped to [lo, hi). */
static void take_group(hms_block_sample *s, uint64_t w, uint64_t s0, uint64_t m,
                       const hms_residency *r, uint64_t lo, uint64_t hi, uint64_t cap,
                       uint32_t group)
{
    uint64_t round = (uint64_t)r->sms * r->blocks_per_sm;
    for (uint64_t k = 0; k < r->blocks_per_sm; k++)
        for (uint64_t j = 0; j < m && s->n < cap; j++) {
            uint64_t id = w * round + k * r->sms + s0 + j;
            if (id >= lo && id < hi)
                s->v[s->n++] = (hms_sampled_block){id, 0, group};
        }
}

/* `count` blocks of [lo, lo + span) as groups: group g takes, in one wave
 * of resident blocks, every slot of a run of m consecutive SMs. Consecutive
 * ids are what the scheduler issues together (block b runs on SM b % SMs),
 * so within a group neighbours share L2 lines (a stencil's halo rows) and
 * each SM's first-level cache is shared by as many blocks as in the full
 * launch; isolated picks miss on lines their neighbours would fetch, and
 * runs of single blocks per SM leave each cache uncontended. The groups sit
 * in waves spread evenly from the span's first wave to its last (so the
 * sample reaches as far into each array as the grid). Every block stands
 * for span / (blocks taken). False when a group cannot hold one SM's slots. */
static bool spread_groups(hms_block_sample *s, uint64_t lo, uint64_t span, uint64_t count,
                          const hms_residency *r)
{
    uint64_t round = (uint64_t)r->sms * r->blocks_per_sm;
    uint64_t w_lo = lo / round, w_hi = (lo + span - 1) / round;
    uint64_t groups = HMS_SAMPLE_MIN_RUNS;
    if (groups > w_hi - w_lo + 1)
        groups = w_hi - w_lo + 1;
    uint64_t m = count / (groups * r->blocks_per_sm);
    while (m == 0 && groups > 1)
        m = count / (--groups * r->blocks_per_sm);
    if (m == 0)
        return false;
    if (m > r->sms)
        m = r->sms;
    size_t start = s->n;
    for (uint64_t g = 0; g < groups; g++) {
        uint64_t w = groups > 1
                         ? w_lo + (uint64_t)((unsigned __int128)(w_hi - w_lo) * g / (groups - 1))
                         : w_lo + (w_hi - w_lo) / 2;
        uint64_t s0 = (r->sms - m) / 2;
        if (g + 1 == groups) {
            /* end on the grid's last block: its SM is the run's last */
            uint64_t last = (lo + span - 1) % round % r->sms;
            s0 = last + 1 >= m ? last + 1 - m : 0;
        }
        take_group(s, w, s0, m, r, lo, lo + span, start + count, (uint32_t)g + 1);
    }
    size_t taken = s->n - start;
    if (taken == 0)
        return false;
    for (size_t i = start; i < s->n; i++)
        s->v[i].weight = (double)span / (double)taken;
    return true;
}

bool hms_sample_blocks_resident(uint64_t total, uint64_t first_wave, const hms_residency *r,
                                uint64_t budget, hms_block_sample *out)
{
    if (!r || r->sms == 0 || r->blocks_per_sm == 0)
        return hms_sample_blocks(total, first_wave, budget, out);
    if (budget == 0)
        budget = HMS_SAMPLE_DEFAULT_BUDGET;
    if (!hms_sample_blocks(total, first_wave, budget, out) || !out->sampled)
        return out->v != NULL;
    /* Keep the first-wave stratum the even spread chose; regroup the rest. */
    size_t keep = first_wave > 0 && first_wave < budget ? (size_t)first_wave : 0;
    uint64_t lo = keep, span = total - keep, count = budget - keep;
    out->n = keep;
    if (!spread_groups(out, lo, span, count, r)) {
        hms_block_sample_free(out);
        return hms_sample_blocks(total, first_wave, budget, out);
    }
    return true;
}

void hms_block_sample_free(hms_block_sample *s)
{
    free(s->v);
    s->v = NULL;
    s->n = 0;
}
