/* The merge sort template's instance for 64-bit values (merge_sort.h). */
#include "runtime/merge_sort.h"

static inline bool u64_before(const uint64_t *a, const uint64_t *b)
{
    return *a < *b;
}

HMS_DEFINE_MERGE_SORT(sort_u64, uint64_t, u64_before)

bool hms_sort_u64(uint64_t *v, size_t n)
{
    return sort_u64(v, n);
}
