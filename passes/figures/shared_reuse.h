/* CuMAPz shared-memory buffers over a trace (Kim & Shrivastava,
 * seeds/001_3bb0fc5541bb7adb.txt, Section 4 "For shared memory usage" and
 * Section 5.1): a mapping pairs a fetch reference (global load) with an
 * access reference (shared store) that fills a buffer. From the trace this
 * computes
 *  - the counts of eq. 1, data_reuse = bytes_shmem / bytes_buffered:
 *      bytes_buffered: bytes moved from global memory by the fetch
 *        references (distinct sector_bytes sectors per warp request, the
 *        "bytes transferred" of Section 5.3 on sector-based GPUs; cc 1.x
 *        callers can recompute it with hms_cumapz_transfer over the records
 *        of the fetch sites, flagged in sites[].fetch);
 *      bytes_shmem: bytes read from buffers on behalf of global references:
 *        (a) loads from a buffer array by sites other than the mapping
 *        stores (the buffer reads the programmer wrote), plus (b) bytes of
 *        other global loads of a buffered array whose element the block's
 *        fetch already loaded ("if a global memory address accessed by a
 *        global memory access reference is already mapped to one of buffers
 *        within the same block, then the counter is increased");
 *  - per global load site, the lanes covered by a buffer, and the
 *    (site, warp) pairs whose lanes split between covered and uncovered
 *    addresses, which diverge (eq. 7: n_path = 2, else 1).
 * "Within the same block" takes the block's fetches as a whole: correct
 * code reads a buffer after the __syncthreads that follows its fill.
 * All sums are weighted by the block weights, i.e. scaled to the launch. */
#ifndef HMS_PASSES_SHARED_REUSE_H
#define HMS_PASSES_SHARED_REUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "passes/ir/ir.h"
#include "passes/trace/stream_gen.h"

typedef struct {
    bool fetch;           /* the fetch reference of some mapping */
    bool candidate;       /* a global/read-only load of a buffered array, not a fetch */
    double lanes;         /* candidate: active lanes over its records */
    double covered_lanes; /* of those, lanes whose element the block's fetch loaded */
    double warps;         /* candidate: (block, warp) pairs that executed it */
    double split_warps;   /* of those, pairs with a record split between covered and not */
} hms_site_coverage;

typedef struct {
    double bytes_fetched;  /* bytes the fetch sites' active lanes loaded */
    double bytes_buffered; /* eq. 1 denominator (see above) */
    double bytes_shmem_explicit, bytes_shmem_covered;
    double bytes_shmem;       /* eq. 1 numerator: the two above */
    unsigned n_shm_load;      /* distinct fetch sites: eq. 2's n_shm_load */
    double n_warp, n_path;    /* eq. 7 over candidate sites: pairs, and pairs + split pairs */
    hms_site_coverage *sites; /* by site id */
    size_t nsites;
    uint32_t *covered; /* per trace record: lanes served from a buffer (candidates only) */
    size_t ncovered;
} hms_shared_reuse;

/* sector_bytes: transfer granularity for bytes_buffered (the arch's sector
 * size; 0 means 32). False with a reason in err on allocation failure or a
 * trace that does not belong to k. */
bool hms_shared_reuse_compute(const ir_kernel *k, const hms_kernel_trace *t, unsigned sector_bytes,
                              hms_shared_reuse *out, char *err, size_t errlen);
void hms_shared_reuse_free(hms_shared_reuse *r);

#endif
