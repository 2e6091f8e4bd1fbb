/* A warp access's lane pattern: the offsets of its active lanes from the
 * multiple of a period at or below its lowest active address. Two records
 * with the same mask, width and pattern are one moved by a multiple of the
 * period, so a model that such a move leaves unchanged (the bank model:
 * hms_banks_period; coalescing: hms_coalesce_period) gives both one result,
 * and a stream's repeated patterns need computing once (the tables in
 * runtime/banks_stream.c and runtime/units_memo.c). */
#ifndef HMS_RUNTIME_LANE_PATTERN_H
#define HMS_RUNTIME_LANE_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/stream.h"

/* Inline: called once per record of a stream. */

/* Fills rel (0 for inactive lanes); false when an offset does not fit 32
 * bits (the record is then computed, not looked up). a has an active lane
 * and no lane that wraps (hms_access_check); period > 0. */
static inline bool hms_lane_pattern(const hms_warp_access *a, uint64_t period,
                                    uint32_t rel[HMS_WARP_LANES])
{
    uint64_t lo = UINT64_MAX;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        if ((a->mask >> l & 1u) && a->addr[l] < lo)
            lo = a->addr[l];
    uint64_t base = (period & (period - 1)) == 0 ? lo & ~(period - 1) : lo - lo % period;
    bool fits = true;
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        uint64_t d = (a->mask >> l & 1u) ? a->addr[l] - base : 0;
        fits &= d <= UINT32_MAX;
        rel[l] = (uint32_t)d;
    }
    return fits;
}

/* A hash of (pattern, mask, width) for a table of 2^bits slots. */
static inline size_t hms_lane_pattern_slot(const uint32_t rel[HMS_WARP_LANES], uint32_t mask,
                                           uint8_t width, unsigned bits)
{
    uint64_t h = ((uint64_t)mask << 8 | width) * 0x9e3779b97f4a7c15ull;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        h += (uint64_t)rel[l] * (0xbf58476d1ce4e5b9ull + 2ull * (uint64_t)l);
    h ^= h >> 31;
    h *= 0x94d049bb133111ebull;
    return (size_t)(h >> (64 - bits));
}

#endif
