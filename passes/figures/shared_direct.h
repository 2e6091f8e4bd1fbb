/* The kernel without one shared-memory buffer: the variant that reads
 * global memory directly, which hms-shared-reuse and the published-results
 * tests compare with the kernel as written, by the same model.
 *
 * From an access stream (in issue order, each block's records contiguous)
 * and the kernel's CuMAPz mappings (passes/ir/ir.h), for buffer `sb`:
 *  - the mapping's fetches (global loads) and fills (shared stores into sb)
 *    are dropped;
 *  - every load of sb becomes a global load of the element the block's fill
 *    put there: the fill's store lane l holds the fetch's lane l address of
 *    the same warp's last fetch of that mapping. A load wider than an
 *    element stays one load when its elements came from consecutive global
 *    addresses, else it splits into one load per element. Lanes reading an
 *    element no fill of this block wrote are dropped (nothing to read
 *    directly), and a load left with no lane is dropped;
 *  - every other record is copied unchanged.
 * The barrier after the fill is not in the stream, so its cost is not
 * counted either way. */
#ifndef HMS_PASSES_SHARED_DIRECT_H
#define HMS_PASSES_SHARED_DIRECT_H

#include <stdbool.h>
#include <stddef.h>

#include "passes/ir/ir.h"
#include "runtime/stream.h"

typedef struct {
    size_t fetches_dropped; /* global loads of the fill, records */
    size_t stores_dropped;  /* shared stores of the fill, records */
    size_t loads_in;        /* shared loads of the buffer, records */
    size_t loads_out;       /* global loads they became, records */
} hms_direct_counts;

/* Whether buffer sb has a direct-read variant: some mapping fills it, and
 * every store to it is a mapping's fill. A buffer the kernel also writes
 * (a reduction's partial sums) holds values no global element has. */
bool hms_direct_applicable(const ir_kernel *k, int sb);

/* base and extent: the buffer's layout in the stream's shared space (the
 * trace's hms_array_layout). `src` (may be NULL) receives, per output
 * record, the index of the input record it came from (caller frees). False
 * with a reason on allocation failure or a buffer that is no mapping's. */
bool hms_direct_variant(const ir_kernel *k, const hms_stream *in, int sb, uint64_t base,
                        uint64_t extent, hms_stream *out, size_t **src, hms_direct_counts *counts,
                        char *err, size_t errlen);

/* Only the variant's records of array sb (the global loads that replace the
 * buffer's reads), in the same order with the same `src` and counts: what a
 * figure over those loads needs, without copying the whole stream. */
bool hms_direct_reads(const ir_kernel *k, const hms_stream *in, int sb, uint64_t base,
                      uint64_t extent, hms_stream *out, size_t **src, hms_direct_counts *counts,
                      char *err, size_t errlen);

#endif
