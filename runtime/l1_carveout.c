/* See l1_carveout.h. */
#include "runtime/l1_carveout.h"

unsigned hms_l1_bytes_for_shared(const hms_arch *a, long long shared_per_sm)
{
    unsigned l1 = a->l1.size_bytes;
    if (!a->l1_unified_bytes || a->l1_unified_bytes <= l1)
        return l1;
    unsigned long long need = shared_per_sm > 0 ? (unsigned long long)shared_per_sm : 0;
    unsigned long long carve =
        (need + HMS_CARVEOUT_STEP - 1) / HMS_CARVEOUT_STEP * HMS_CARVEOUT_STEP;
    if (carve >= a->l1_unified_bytes - l1)
        return l1;
    /* whole sets of the L1's ways and line */
    unsigned long long set_bytes =
        (unsigned long long)a->l1.line_bytes * (a->l1.ways ? a->l1.ways : 1);
    unsigned long long left = a->l1_unified_bytes - carve;
    if (set_bytes > 0)
        left = left / set_bytes * set_bytes;
    return left > l1 ? (unsigned)left : l1;
}

bool hms_arch_with_carveout(const hms_arch *a, long long shared_per_sm, hms_arch *out)
{
    *out = *a;
    unsigned l1 = hms_l1_bytes_for_shared(a, shared_per_sm);
    if (l1 == a->l1.size_bytes || a->l1.set0_ways)
        return false;
    unsigned set_bytes = a->l1.line_bytes * (a->l1.ways ? a->l1.ways : 1);
    if (a->l1.sets && a->l1.sets * set_bytes != a->l1.size_bytes)
        return false; /* sets the file fixed otherwise: keep its geometry */
    out->l1.size_bytes = l1;
    if (a->l1.sets) /* 0: derived from the size when the cache is built */
        out->l1.sets = l1 / set_bytes;
    return true;
}
