/* The off-chip memory hierarchy one warp access passes through: a per-SM
 * first-level cache chosen by space and access kind, the shared L2, and the
 * L2 misses handed to the caller (the DRAM model). Mei & Chu (docs/model.md
 * "Caches"), Sec. 4:
 *   constant   the SM's constant cache;
 *   texture    the SM's texture cache;
 *   readonly   the SM's read-only cache (the texture cache when the arch has
 *              none: Kepler's read-only path is the texture hardware);
 *   local      the SM's L1, loads and stores (local memory is cached in L1);
 *   global     loads through the L1 when the arch caches global loads;
 *              stores and atomics go to L2.
 * Where the L1 also serves texture and read-only fetches (arch
 * unified_l1_texture) the three share one cache and its capacity.
 * A first-level miss fetches its whole line, i.e. every L2 line it overlaps;
 * with no first-level cache the L2 lines the lanes touch are looked up.
 *
 * Used by the kernel's memory simulation (passes/figures/memory_sim.c) and the
 * placement re-simulations (runtime/placement_events.c), so both see one
 * hierarchy and reject a bad cache geometry the same way: at init, with the
 * arch file, the cache and the reason. */
#ifndef HMS_RUNTIME_MEM_HIERARCHY_H
#define HMS_RUNTIME_MEM_HIERARCHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/arch.h"
#include "runtime/cache.h"
#include "runtime/stream.h"

typedef enum {
    HMS_FL_L1 = 0,
    HMS_FL_TEX,
    HMS_FL_RO,
    HMS_FL_CONST,
    HMS_FL_KINDS,
    HMS_FL_NONE = HMS_FL_KINDS /* straight to L2 */
} hms_fl_kind;

typedef struct {
    const hms_arch *a;
    unsigned sms;
    const hms_cache_geom *geom[HMS_FL_KINDS];
    double hit_lat[HMS_FL_KINDS]; /* cycles */
    double l2_hit_lat;
    hms_cache *fl[HMS_FL_KINDS]; /* [sms] each, created on first use */
    bool *fl_ready[HMS_FL_KINDS];
    hms_cache l2;
    bool has_l2;
    uint64_t l2_line; /* bytes of an L2 line (the sector size without an L2) */
    /* When set, answers each line lookup hms_mem_access makes (true: a hit)
     * in place of hms_cache_access_line: runtime/placement_skip.h records
     * lookups through it and answers the sets a re-simulation can skip.
     * NULL after init; whoever sets it clears it. */
    bool (*lookup)(void *ctx, hms_cache *c, uint64_t addr);
    void *lookup_ctx;
} hms_mem_hier;

typedef struct {
    uint32_t fl_hits, fl_misses; /* first-level lines */
    uint32_t l2_hits, l2_misses; /* L2 lines */
} hms_mem_outcome;

/* Called for each L2 miss (the line's address); false stops the access. */
typedef bool (*hms_l2_miss_fn)(void *ctx, uint64_t addr);

/* Validates every cache geometry of `a` and builds the L2; per-SM caches
 * are made when first used. False with "arch file: cache: reason". */
bool hms_mem_hier_init(hms_mem_hier *h, const hms_arch *a, unsigned sms, char *err, size_t errlen);
/* Empties every cache in O(1) (for the next simulation of the same arch). */
void hms_mem_hier_reset(hms_mem_hier *h);
void hms_mem_hier_free(hms_mem_hier *h);

/* The first-level cache kind a record of this space and access kind uses. */
hms_fl_kind hms_mem_path(const hms_arch *a, hms_space space, hms_access_kind kind);
/* The kind whose cache instance serves kind k (HMS_FL_L1 for texture and
 * read-only fetches on a unified L1), HMS_FL_NONE when no cache does. Two
 * kinds with the same answer meet the same cache state. */
hms_fl_kind hms_mem_serving(const hms_arch *a, hms_fl_kind k);
/* The SM's cache of kind k (NULL when the arch has none: all misses). False
 * only when out of memory. */
bool hms_mem_first_level(hms_mem_hier *h, hms_fl_kind k, unsigned sm, hms_cache **out);
/* Hit latency of first-level kind k (0 when unknown). */
double hms_mem_hit_latency(const hms_mem_hier *h, hms_fl_kind k);

/* Record p's lines through fl (may be NULL) and the L2, adding to *o. */
bool hms_mem_access(hms_mem_hier *h, hms_cache *fl, const hms_warp_access *p, hms_l2_miss_fn miss,
                    void *ctx, hms_mem_outcome *o);
/* The unit hms_mem_access looks a record up by: fl's line, or the L2's
 * without fl. */
uint64_t hms_mem_unit(const hms_mem_hier *h, const hms_cache *fl);
/* hms_mem_access with the record's distinct units at hms_mem_unit(h, fl)
 * given, ascending (hms_warp_units, or a memo of them: runtime/units_memo.h). */
bool hms_mem_access_units(hms_mem_hier *h, hms_cache *fl, const uint64_t *units, size_t n,
                          hms_l2_miss_fn miss, void *ctx, hms_mem_outcome *o);

#endif
