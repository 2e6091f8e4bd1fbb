/* Shared-memory bank conflicts counted the CuMAPz way
 * (seeds/001_3bb0fc5541bb7adb.txt, Section 5.5, eq. 6): per half-warp on
 * 16-bank devices, K different words in one bank serialise the request K
 * times. The bank rules themselves (broadcast, phases of wide accesses, bank
 * modes) are the bank model's (runtime/banks.h). */
#include "runtime/banks.h"
#include "runtime/cumapz.h"
#include "runtime/merge_sort.h"

#include <stdlib.h>

bool hms_cumapz_bank_acc_init(hms_cumapz_bank_acc *acc, const hms_arch *a, size_t n)
{
    *acc = (hms_cumapz_bank_acc){0};
    acc->group =
        (a->half_warp_segments || a->shared_banks == 16) ? HMS_WARP_LANES / 2 : HMS_WARP_LANES;
    if (n == 0)
        return true;
    /* Sized for every record being shared, so the stream is read once: the
     * pages past what is written are never touched. */
    acc->hw = malloc(n * (HMS_WARP_LANES / acc->group) * sizeof *acc->hw);
    acc->arrays = malloc(n * sizeof *acc->arrays);
    if (!acc->hw || !acc->arrays) {
        hms_cumapz_bank_acc_free(acc);
        return false;
    }
    return true;
}

void hms_cumapz_bank_acc_add(hms_cumapz_bank_acc *acc, const hms_arch *a, const hms_warp_access *w,
                             const hms_bank_memo *known)
{
    if (w->space != HMS_SPACE_SHARED || !w->mask)
        return;
    int group = acc->group;
    hms_cumapz_bank_counts *out = &acc->counts;
    /* Runs of one value are kept once: the distinct counts below are the same. */
    if (acc->n_arr == 0 || acc->arrays[acc->n_arr - 1] != w->array)
        acc->arrays[acc->n_arr++] = w->array;
    /* per warp: the part is the record, whose result may be known */
    const hms_bank_memo *kn = group == HMS_WARP_LANES ? known : NULL;
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
        uint64_t key = ((uint64_t)w->block << 32) | ((uint64_t)w->warp << 1) | (uint64_t)(g > 0);
        if (acc->n_hw == 0 || acc->hw[acc->n_hw - 1] != key)
            acc->hw[acc->n_hw++] = key;
        /* K: the worst phase's serialised passes (1 = conflict-free). */
        if (r.ways >= 2) {
            out->conflicted++;
            out->n_bk_conflict += r.ways;
        }
    }
}

void hms_cumapz_bank_acc_finish(hms_cumapz_bank_acc *acc, hms_cumapz_bank_counts *out)
{
    *out = acc->counts;
    out->n_half_warp = hms_count_distinct_u64(acc->hw, acc->n_hw);
    out->n_buffer = hms_count_distinct_u64(acc->arrays, acc->n_arr);
    hms_cumapz_bank_acc_free(acc);
}

void hms_cumapz_bank_acc_free(hms_cumapz_bank_acc *acc)
{
    free(acc->hw);
    free(acc->arrays);
    acc->hw = acc->arrays = NULL;
    acc->n_hw = acc->n_arr = 0;
}

bool hms_cumapz_bank_conflicts(const hms_arch *a, const hms_stream *s, const hms_bank_memo *known,
                               hms_cumapz_bank_counts *out)
{
    *out = (hms_cumapz_bank_counts){0};
    hms_cumapz_bank_acc acc;
    if (!hms_cumapz_bank_acc_init(&acc, a, s->n))
        return false;
    for (size_t i = 0; i < s->n; i++)
        hms_cumapz_bank_acc_add(&acc, a, &s->v[i], known ? &known[i] : NULL);
    hms_cumapz_bank_acc_finish(&acc, out);
    return true;
}
