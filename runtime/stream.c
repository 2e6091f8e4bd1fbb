#include "runtime/stream.h"

#include <stdlib.h>

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

bool hms_stream_push(hms_stream *s, const hms_warp_access *a)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        hms_warp_access *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return false;
        s->v = v;
        s->cap = cap;
    }
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
