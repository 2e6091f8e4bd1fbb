/* The merge sort template (runtime/merge_sort.h) against qsort: the same
 * order on random arrays of every size around its run (16) and local
 * scratch (64) boundaries and beyond, and equal keys kept in their input
 * order, as the callers that replaced a stable qsort rely on. */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime/merge_sort.h"
#include "testsuite/support/xorshift.h"

static uint64_t rng = 0x243f6a8885a308d3ull;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* n random values below `range` (small ranges repeat values). */
static void fill(uint64_t *v, size_t n, uint64_t range)
{
    for (size_t i = 0; i < n; i++)
        v[i] = hms_xorshift64(&rng) % range;
}

static const size_t sizes[] = {0, 1, 2, 15, 16, 17, 31, 33, 63, 64, 65, 100, 1000, 4097};

Test(merge_sort, u64_matches_qsort)
{
    static uint64_t v[4097], ref[4097];
    const uint64_t ranges[] = {3, 1000, UINT64_MAX};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t r = 0; r < 3; r++)
            for (int rep = 0; rep < 20; rep++) {
                size_t n = sizes[s];
                fill(v, n, ranges[r]);
                memcpy(ref, v, n * sizeof *v);
                qsort(ref, n, sizeof *ref, cmp_u64);
                hms_sort_u64(v, n);
                cr_assert(memcmp(v, ref, n * sizeof *v) == 0, "size %zu range %llu", n,
                          (unsigned long long)ranges[r]);
            }
}

Test(merge_sort, u64_sorted_and_reversed_input)
{
    static uint64_t v[1000];
    for (size_t i = 0; i < 1000; i++)
        v[i] = 1000 - i;
    hms_sort_u64(v, 1000);
    for (size_t i = 0; i < 1000; i++)
        cr_assert_eq(v[i], i + 1);
    hms_sort_u64(v, 1000);
    for (size_t i = 0; i < 1000; i++)
        cr_assert_eq(v[i], i + 1);
}

typedef struct {
    uint32_t key;
    uint32_t pos; /* input position: not compared */
} item;

static inline bool by_key(const item *a, const item *b)
{
    return a->key < b->key;
}

HMS_DEFINE_MERGE_SORT(sort_items, item, by_key)

static int by_key_then_pos(const void *pa, const void *pb)
{
    const item *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

Test(merge_sort, equal_keys_keep_their_order)
{
    static item v[4097], ref[4097];
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int rep = 0; rep < 20; rep++) {
            size_t n = sizes[s];
            for (size_t i = 0; i < n; i++)
                v[i] = (item){(uint32_t)(hms_xorshift64(&rng) % 7), (uint32_t)i};
            memcpy(ref, v, n * sizeof *v);
            /* the stable order: by key, ties by input position */
            qsort(ref, n, sizeof *ref, by_key_then_pos);
            cr_assert(sort_items(v, n));
            cr_assert(memcmp(v, ref, n * sizeof *v) == 0, "size %zu", n);
        }
}
