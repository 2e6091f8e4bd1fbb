/* One pass over a stream for the placement re-simulations
 * (placement_summary.h). */
#include "runtime/placement_summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coalesce.h"

/* Room for array ids below n (new entries empty); false without memory. */
static bool grow(hms_stream_summary *out, size_t *cap, size_t n)
{
    if (n <= *cap)
        return true;
    size_t c = *cap ? *cap : 16;
    while (c < n)
        c *= 2;
    hms_array_summary *v = realloc(out->arrays, c * sizeof *v);
    if (!v)
        return false;
    for (size_t a = *cap; a < c; a++)
        v[a] = (hms_array_summary){.shared_lo = UINT64_MAX};
    out->arrays = v;
    *cap = c;
    return true;
}

bool hms_stream_summary_make(const hms_stream *s, hms_stream_summary *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    uint64_t nblocks = 0; /* in registers over the loop */
    uint32_t warps = 0;
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *r = &s->v[i];
        char why[160];
        if (!hms_access_check(r, why, sizeof why)) {
            snprintf(err, errlen, "stream record %zu (site %u, array %u): %s", i, r->site, r->array,
                     why);
            hms_stream_summary_free(out);
            return false;
        }
        if (!grow(out, &cap, (size_t)r->array + 1)) {
            snprintf(err, errlen, "out of memory summarising %zu stream records", s->n);
            hms_stream_summary_free(out);
            return false;
        }
        if ((size_t)r->array + 1 > out->narrays)
            out->narrays = (size_t)r->array + 1;
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
