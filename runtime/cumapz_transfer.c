/* Bytes requested vs bytes moved by a stream's global accesses: the inputs of
 * CuMAPz bw_util (seeds/001_3bb0fc5541bb7adb.txt, Section 5.3, eq. 3). The
 * transaction rules (cc 1.x half-warp segments, Fermi L1 lines, sectors)
 * are the coalescing model's (runtime/coalesce.h). */
#include "runtime/coalesce.h"
#include "runtime/cumapz.h"
#include "runtime/units_memo.h"

uint64_t hms_cumapz_stream_transfer(const hms_arch *a, const hms_stream *s, hms_units_memo *units,
                                    uint64_t *bytes_access, uint64_t *bytes_transferred)
{
    hms_coalesce_summary sum;
    hms_coalesce_summary_init(&sum);
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *w = &s->v[i];
        hms_coalesce_result r;
        if (w->space == HMS_SPACE_GLOBAL || w->space == HMS_SPACE_READONLY)
            hms_coalesce_summary_add_result(&sum, w,
                                            hms_units_coalesce(units, a, i, w, &r) ? &r : NULL);
    }
    /* Distinct bytes used, so a broadcast of one word is not "perfect"
     * (paper Section 6.1: MatMul's matrix A is uncoalesced). */
    *bytes_access = sum.bytes_useful;
    *bytes_transferred = sum.bytes_transferred;
    return sum.invalid;
}
