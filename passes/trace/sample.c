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
            out->v[i] = (hms_sampled_block){i, 1.0};
        out->n = total;
        return true;
    }
    out->sampled = true;
    if (first_wave >= budget || first_wave == 0) {
        spread(out, 0, total, budget);
        return true;
    }
    for (uint64_t i = 0; i < first_wave; i++)
        out->v[out->n++] = (hms_sampled_block){i, 1.0};
    spread(out, first_wave, total - first_wave, budget - first_wave);
    return true;
}

void hms_block_sample_free(hms_block_sample *s)
{
    free(s->v);
    s->v = NULL;
    s->n = 0;
}
