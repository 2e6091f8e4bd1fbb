/* The merge sort template's instance for 64-bit values (merge_sort.h). */
#include "runtime/merge_sort.h"

static inline bool u64_before(const uint64_t *a, const uint64_t *b)
{
    return *a < *b;
}

HMS_DEFINE_MERGE_SORT(sort_u64, uint64_t, u64_before)

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

void hms_sort_u64(uint64_t *v, size_t n)
{
    if (n > 1 && !sort_u64(v, n))
        qsort(v, n, sizeof *v, cmp_u64); /* no scratch: the same order, slower */
}

size_t hms_count_distinct_u64(uint64_t *v, size_t n)
{
    hms_sort_u64(v, n);
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += i == 0 || v[i] != v[i - 1];
    return d;
}
