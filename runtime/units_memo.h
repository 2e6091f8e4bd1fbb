/* One memo of each stream record's memory units, shared by every figure
 * that reads them: the distinct unit-byte units a record's lanes touch
 * (hms_warp_units) at each unit size asked for, and its coalescing parts on
 * one arch (hms_coalesce_parts). Site metrics, the memory simulation, every
 * placement re-simulation and the CuMAPz transfer ask for the same sectors
 * and lines of the same records; the memo computes each once, on first use.
 *
 * Answers are hms_warp_units' and hms_coalesce_warp's exactly, for any
 * record p: the memo is read when p is record i of its stream, or a copy of
 * record i in another space whose lanes all moved by one offset that keeps
 * the units whole (runtime/placement_events.c moves constant and local
 * records to regions 2^40 apart); any other p is computed. m may be NULL
 * (everything computed).
 *
 * Size: a row per record asked about, at up to HMS_UNITS_MEMO_SIZES unit
 * sizes: 8 bytes per unit plus 10 per record (row pointer and count) and a
 * byte of state, and 20 bytes per record for the coalescing parts. Units of 32 bytes or more are at
 * most the 32-byte lines the stream touches (the tracer's line budget, 2^20 at the default
 * --analysis-budget: 8 MB a size); whatever the unit, at most
 * HMS_WARP_UNITS_MAX a record. Freed with the memo. */
#ifndef HMS_RUNTIME_UNITS_MEMO_H
#define HMS_RUNTIME_UNITS_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/arch.h"
#include "runtime/coalesce.h"
#include "runtime/stream.h"

/* Unit sizes kept per memo; further sizes are computed each time. */
#define HMS_UNITS_MEMO_SIZES 4

typedef struct hms_units_memo hms_units_memo;

/* A memo of stream s, which must not change while the memo lives; NULL
 * when out of memory (callers then compute). */
hms_units_memo *hms_units_memo_new(const hms_stream *s);
/* A memo of stream s whose record j was copied from record src[j] of the
 * stream `parent` describes (the placement model's thinned trace): rows
 * and parts of a record with its source's lanes, width and addresses are
 * kept in parent, which must outlive this memo. */
hms_units_memo *hms_units_memo_new_sub(const hms_stream *s, hms_units_memo *parent,
                                       const size_t *src);
void hms_units_memo_free(hms_units_memo *m);

/* hms_warp_units(p, unit, buf): *out points at the memo's row (valid until
 * the memo is freed) or at buf, which must hold HMS_WARP_UNITS_MAX. */
size_t hms_units_of(hms_units_memo *m, size_t i, const hms_warp_access *p, uint64_t unit,
                    uint64_t *buf, const uint64_t **out);
/* hms_access_check(p, NULL, 0), memoised per record like the rows. */
bool hms_units_valid(hms_units_memo *m, size_t i, const hms_warp_access *p);
/* How many: the return value of hms_units_of. */
size_t hms_units_count(hms_units_memo *m, size_t i, const hms_warp_access *p, uint64_t unit);
/* hms_coalesce_warp(a, p, out). The parts are kept for one arch's sector,
 * line and segment rules (the first asked); other arches are computed. */
bool hms_units_coalesce(hms_units_memo *m, const hms_arch *a, size_t i, const hms_warp_access *p,
                        hms_coalesce_result *out);

#endif
