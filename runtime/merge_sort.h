/* A stable bottom-up merge sort with the comparison inlined, for the hot
 * sorts where qsort's callback was most of the cost. A template:
 *
 *     static inline bool by_key(const T *a, const T *b) { return a->k < b->k; }
 *     HMS_DEFINE_MERGE_SORT(sort_t, T, by_key)
 *
 * defines `static bool sort_t(T *v, size_t n)`, which sorts v by `before`
 * (a strict "a goes before b"), keeping equal elements in their order, as
 * glibc's qsort (a merge sort) does. Runs of 16 are insertion-sorted first;
 * up to 64 elements need no allocation. False (v unsorted) when the scratch
 * cannot be allocated: callers fall back to qsort or report it. */
#ifndef HMS_RUNTIME_MERGE_SORT_H
#define HMS_RUNTIME_MERGE_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Sorts v ascending (the template's instance for 64-bit values; qsort
 * when its scratch cannot be allocated, so it never fails). */
void hms_sort_u64(uint64_t *v, size_t n);

/* Distinct values among v's n; v is left sorted. */
size_t hms_count_distinct_u64(uint64_t *v, size_t n);

#define HMS_DEFINE_MERGE_SORT(name, type, before)                                                  \
    static bool name(type *v, size_t n)                                                            \
    {                                                                                              \
        enum { RUN = 16, LOCAL = 64 };                                                             \
        for (size_t lo = 0; lo < n; lo += RUN) {                                                   \
            size_t hi = lo + RUN < n ? lo + RUN : n;                                               \
            for (size_t i = lo + 1; i < hi; i++) {                                                 \
                type x = v[i];                                                                     \
                size_t j = i;                                                                      \
                for (; j > lo && before(&x, &v[j - 1]); j--)                                       \
                    v[j] = v[j - 1];                                                               \
                v[j] = x;                                                                          \
            }                                                                                      \
        }                                                                                          \
        if (n <= RUN)                                                                              \
            return true;                                                                           \
        type local[LOCAL];                                                                         \
        type *tmp = n <= LOCAL ? local : malloc(n * sizeof *tmp);                                  \
        if (!tmp)                                                                                  \
            return false;                                                                          \
        type *src = v, *dst = tmp;                                                                 \
        for (size_t width = RUN; width < n; width *= 2) {                                          \
            for (size_t lo = 0; lo < n; lo += 2 * width) {                                         \
                size_t mid = lo + width < n ? lo + width : n;                                      \
                size_t hi = lo + 2 * width < n ? lo + 2 * width : n;                               \
                size_t i = lo, j = mid, k = lo;                                                    \
                while (i < mid && j < hi)                                                          \
                    dst[k++] = before(&src[j], &src[i]) ? src[j++] : src[i++];                     \
                while (i < mid)                                                                    \
                    dst[k++] = src[i++];                                                           \
                while (j < hi)                                                                     \
                    dst[k++] = src[j++];                                                           \
            }                                                                                      \
            type *t = src;                                                                         \
            src = dst;                                                                             \
            dst = t;                                                                               \
        }                                                                                          \
        if (src != v)                                                                              \
            memcpy(v, src, n * sizeof *v);                                                         \
        if (tmp != local)                                                                          \
            free(tmp);                                                                             \
        return true;                                                                               \
    }

#endif
