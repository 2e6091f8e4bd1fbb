#include "runtime/stream.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

void hms_stream_init(hms_stream *s)
{
    s->v = NULL;
    s->n = s->cap = 0;
}

void hms_stream_free(hms_stream *s)
{
    free(s->v);
    hms_stream_init(s);
}

/* A long stream (tens of MB for a tuned GEMM's trace) is asked to get huge
 * pages where the system gives them on request: first touching its 4 KiB
 * pages one by one cost as much as a tenth of the tracing. */
bool hms_stream_reserve(hms_stream *s, size_t need)
{
    if (need <= s->cap)
        return true;
    size_t cap = s->cap ? s->cap : 256;
    while (cap < need)
        cap *= 2;
    hms_warp_access *v = realloc(s->v, cap * sizeof *v);
    if (!v)
        return false;
    s->v = v;
    s->cap = cap;
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)v + huge - 1) & ~(huge - 1);
    uintptr_t hi = ((uintptr_t)v + cap * sizeof *v) & ~(huge - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* a hint: failure changes nothing */
#endif
    return true;
}

bool hms_stream_grow(hms_stream *s)
{
    return hms_stream_reserve(s, s->n + 1);
}

bool hms_stream_push(hms_stream *s, const hms_warp_access *a)
{
    if (!hms_stream_grow(s))
        return false;
    s->v[s->n++] = *a;
    return true;
}

void hms_stream_permute(hms_warp_access *v, size_t n, size_t *src)
{
    for (size_t k = 0; k < n; k++) {
        if (src[k] == k) /* in place, or its cycle is done */
            continue;
        hms_warp_access hold = v[k];
        size_t j = k;
        while (src[j] != k) {
            size_t from = src[j];
            v[j] = v[from];
            src[j] = j;
            j = from;
        }
        v[j] = hold;
        src[j] = j;
    }
}

const char *hms_space_name(hms_space s)
{
    static const char *const names[HMS_SPACE_COUNT] = {
        "global", "shared", "constant", "texture", "readonly", "local",
    };
    return (unsigned)s < HMS_SPACE_COUNT ? names[s] : "?";
}
