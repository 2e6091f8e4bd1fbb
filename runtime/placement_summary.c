/* One pass over a stream for the placement re-simulations
 * (placement_summary.h). */
#include "runtime/placement_summary.h"

#include <stdlib.h>
#include <string.h>

bool hms_stream_summary_make(const hms_stream *s, hms_stream_summary *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < s->n; i++)
        if ((size_t)s->v[i].array + 1 > out->narrays)
            out->narrays = (size_t)s->v[i].array + 1;
    out->arrays = calloc(out->narrays ? out->narrays : 1, sizeof *out->arrays);
    if (!out->arrays)
        return false;
    for (size_t a = 0; a < out->narrays; a++)
        out->arrays[a].shared_lo = UINT64_MAX;
    uint64_t nblocks = 0; /* in registers over the loop */
    uint32_t warps = 0;
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *r = &s->v[i];
        if (r->warp + 1 > warps)
            warps = r->warp + 1;
        if ((uint64_t)r->block + 1 > nblocks)
            nblocks = (uint64_t)r->block + 1;
        if (!r->mask)
            continue;
        hms_array_summary *u = &out->arrays[r->array];
        u->uses |= hms_summary_use(r->space, r->kind);
        u->active++;
        if (r->space != HMS_SPACE_SHARED)
            continue;
        uint64_t lo = u->shared_lo, hi = u->shared_hi;
        for (int l = 0; l < HMS_WARP_LANES; l++)
            if (r->mask >> l & 1) {
                lo = r->addr[l] < lo ? r->addr[l] : lo;
                uint64_t end = r->addr[l] + r->width;
                hi = end > hi ? end : hi;
            }
        u->shared_lo = lo;
        u->shared_hi = hi;
    }
    out->nblocks = nblocks;
    out->warps = warps;
    return true;
}

void hms_stream_summary_free(hms_stream_summary *s)
{
    free(s->arrays);
    memset(s, 0, sizeof *s);
}
