/* Two-level TLB (Mei & Chu sec. 4.4): L1 TLB 16 entries fully associative,
 * 2 MB pages; L2 TLB one 17-entry set plus six 8-entry sets, LRU, ~130 MB
 * reach. Built from arch->tlb_l1 / arch->tlb_l2 (line_bytes = page size) with
 * the generic cache simulator; the unequal L2 sets come from set0_ways
 * (size 130 MB, line 2 MB, sets 7, ways 8, set0_ways 17). */
#ifndef HMS_RUNTIME_TLB_H
#define HMS_RUNTIME_TLB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/arch.h"
#include "runtime/cache.h"
#include "runtime/stream.h"

typedef enum {
    HMS_TLB_UNMODELLED = 0, /* the arch describes no TLB */
    HMS_TLB_L1_HIT = 1,
    HMS_TLB_L2_HIT = 2,
    HMS_TLB_MISS = 3, /* both levels missed: page-table walk */
} hms_tlb_level;

typedef struct {
    hms_cache l1, l2;
    bool has_l1, has_l2;
    uint64_t lookups;
    uint64_t by_level[4]; /* indexed by hms_tlb_level */
} hms_tlb;

/* Returns false with "TLB L1: reason" / "TLB L2: reason" in err when a present
 * level is malformed. Absent levels (size 0) are skipped: with neither, every
 * lookup is HMS_TLB_UNMODELLED. */
bool hms_tlb_init(hms_tlb *t, const hms_arch *arch, char *err, size_t errlen);
void hms_tlb_free(hms_tlb *t);
void hms_tlb_reset(hms_tlb *t);

/* Translates one byte address: L1, then L2 on an L1 miss; a miss fills the
 * levels that missed (an L2 hit refills L1). */
hms_tlb_level hms_tlb_access(hms_tlb *t, uint64_t addr);

/* One warp access: every distinct page the active lanes touch is translated
 * once, ascending; returns the slowest level any of them needed
 * (HMS_TLB_UNMODELLED for no active lane or no TLB). pages, if not NULL,
 * receives how many pages were looked up. Malformed records look up nothing. */
hms_tlb_level hms_tlb_warp(hms_tlb *t, const hms_warp_access *a, uint32_t *pages);
/* Page size of the TLB (0 when it has no level). */
uint64_t hms_tlb_page_bytes(const hms_tlb *t);
/* hms_tlb_warp of a valid record whose distinct page numbers (address /
 * hms_tlb_page_bytes, ascending: hms_warp_units) are pages[0..n): a caller
 * with them memoised (runtime/units_memo.h) need not read the lanes. */
hms_tlb_level hms_tlb_pages(hms_tlb *t, const uint64_t *pages, size_t n);

/* Reach of one TLB level: entries * page size, in bytes (0 if absent or
 * malformed). Mei & Chu: L1 16 x 2 MB = 32 MB, L2 65 x 2 MB = 130 MB. */
uint64_t hms_tlb_reach(const hms_cache_geom *g);

#endif
