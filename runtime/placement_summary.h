/* What every placement re-simulation of one stream asks about it
 * (runtime/placement_events.c): the launch shape (blocks, warps per block)
 * and, per array, which spaces and access kinds its active records use,
 * how many there are and the extent of its shared-memory records. One pass
 * over the records, made once per stream and kept in the events memo,
 * instead of a pass per candidate space (the records are ~300 bytes each:
 * every pass over them is bound by memory). The same pass validates the
 * records. */
#ifndef HMS_RUNTIME_PLACEMENT_SUMMARY_H
#define HMS_RUNTIME_PLACEMENT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/stream.h"

/* Spaces a use is kept under: the hms_space values, and one more for a
 * record whose space is none of them. */
#define HMS_SUMMARY_SPACES (HMS_SPACE_COUNT + 1)

typedef struct {
    /* bit hms_summary_use(space, kind) per active record: the memory path
     * (runtime/mem_hierarchy.h hms_mem_path) tells loads from the rest */
    uint32_t uses;
    size_t active;      /* records with an active lane */
    uint64_t shared_lo; /* lowest address of its shared-space lanes; UINT64_MAX: none */
    uint64_t shared_hi; /* highest address + width of them */
} hms_array_summary;

typedef struct {
    size_t narrays;            /* highest array id + 1 (every record, active or not) */
    hms_array_summary *arrays; /* [narrays] */
    uint64_t nblocks;          /* highest block id + 1 */
    uint32_t warps;            /* highest warp index + 1 */
} hms_stream_summary;

/* The bit of a (space, kind) pair in hms_array_summary.uses. */
static inline uint32_t hms_summary_use(unsigned space, unsigned kind)
{
    unsigned sp = space < HMS_SPACE_COUNT ? space : HMS_SPACE_COUNT;
    return 1u << (sp * 2 + (kind != HMS_ACCESS_LOAD));
}

/* False with "stream record N (site S, array A): reason" when a record
 * fails hms_access_check (runtime/coalesce.h; checked in the same pass),
 * or "out of memory ...". */
bool hms_stream_summary_make(const hms_stream *s, hms_stream_summary *out, char *err,
                             size_t errlen);
void hms_stream_summary_free(hms_stream_summary *s);

#endif
