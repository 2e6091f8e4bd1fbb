/* Shared-memory bank conflicts counted the CuMAPz way
 * (seeds/001_3bb0fc5541bb7adb.txt, Section 5.5, eq. 6): per half-warp on
 * 16-bank devices, K different words in one bank serialise the request K
 * times. The bank rules themselves (broadcast, phases of wide accesses, bank
 * modes) are the bank model's (runtime/banks.h). */
#include "runtime/banks.h"
#include "runtime/cumapz.h"
#include "runtime/merge_sort.h"

#include <stdlib.h>

bool hms_cumapz_bank_conflicts(const hms_arch *a, const hms_stream *s, const hms_bank_memo *known,
                               hms_cumapz_bank_counts *out)
{
    *out = (hms_cumapz_bank_counts){0};
    int group =
        (a->half_warp_segments || a->shared_banks == 16) ? HMS_WARP_LANES / 2 : HMS_WARP_LANES;
    if (s->n == 0)
        return true;
    /* Sized for every record being shared, so the stream is read once: the
     * pages past what is written are never touched. */
    uint64_t *hw = malloc(s->n * (HMS_WARP_LANES / group) * sizeof *hw);
    uint64_t *arrays = malloc(s->n * sizeof *arrays);
    if (!hw || !arrays) {
        free(hw);
        free(arrays);
        return false;
    }
    size_t n_hw = 0, n_arr = 0;
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *w = &s->v[i];
        if (w->space != HMS_SPACE_SHARED || !w->mask)
            continue;
        /* Runs of one value are kept once: the distinct counts below are the same. */
        if (n_arr == 0 || arrays[n_arr - 1] != w->array)
            arrays[n_arr++] = w->array;
        /* per warp: the part is the record, whose result may be known */
        const hms_bank_memo *kn = group == HMS_WARP_LANES && known ? &known[i] : NULL;
        for (int g = 0; g < HMS_WARP_LANES; g += group) {
            uint32_t mask = w->mask & (uint32_t)((((uint64_t)1 << group) - 1) << g);
            if (!mask)
                continue;
            hms_bank_result r = kn ? kn->r : (hms_bank_result){0};
            bool ok = kn ? kn->ok : false;
            if (!kn) {
                hms_warp_access part = *w;
                part.mask = mask;
                ok = hms_banks_warp(a, &part, &r);
            }
            if (!ok) {
                out->invalid++;
                continue;
            }
            out->requests++;
            uint64_t key =
                ((uint64_t)w->block << 32) | ((uint64_t)w->warp << 1) | (uint64_t)(g > 0);
            if (n_hw == 0 || hw[n_hw - 1] != key)
                hw[n_hw++] = key;
            /* K: the worst phase's serialised passes (1 = conflict-free). */
            if (r.ways >= 2) {
                out->conflicted++;
                out->n_bk_conflict += r.ways;
            }
        }
    }
    out->n_half_warp = hms_count_distinct_u64(hw, n_hw);
    out->n_buffer = hms_count_distinct_u64(arrays, n_arr);
    free(hw);
    free(arrays);
    return true;
}
