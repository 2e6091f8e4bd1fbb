/* A C-AMAT timeline for one SM from a per-warp stream, with the simple issue
 * model described in runtime/camat.h (one warp access per cycle, warps in
 * order, misses not blocking their warp). */
#include "runtime/camat.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    uint64_t key;        /* (block << 32 | warp) + 1; 0 = empty slot */
    uint64_t last_issue; /* cycle of the warp's previous access */
    uint64_t last_time;  /* its `time` field */
} warp_slot;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static warp_slot *find_slot(warp_slot *tab, size_t cap, uint64_t key)
{
    size_t i = (size_t)mix(key) & (cap - 1);
    while (tab[i].key && tab[i].key != key)
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

/* Doubles the warp table (it grows with the warps seen, not the accesses:
 * a table sized for every access would be far larger than the host's caches).
 * False when out of memory (*tab unchanged). */
static bool grow(warp_slot **tab, size_t *cap)
{
    size_t ncap = *cap * 2;
    warp_slot *t = calloc(ncap, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < *cap; i++)
        if ((*tab)[i].key)
            *find_slot(t, ncap, (*tab)[i].key) = (*tab)[i];
    free(*tab);
    *tab = t;
    *cap = ncap;
    return true;
}

bool hms_camat_timeline(const hms_stream *s, const bool *hit, const hms_camat_issue *p,
                        hms_camat_access **out, size_t *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    if (p->n_sms == 0 || p->sm >= p->n_sms) {
        snprintf(err, errlen, "camat: SM %u is not one of %u SMs", p->sm, p->n_sms);
        return false;
    }
    if (p->hit_latency == 0 || p->miss_latency < p->hit_latency) {
        snprintf(err, errlen, "camat: hit latency %u and miss latency %u: need 0 < hit <= miss",
                 p->hit_latency, p->miss_latency);
        return false;
    }
    if (s->n == 0)
        return true;
    /* Sized for every record, so the stream is read once: the pages past
     * the SM's accesses are never touched. */
    size_t count = s->n;
    size_t cap = 16, used = 0;
    warp_slot *tab = calloc(cap, sizeof *tab);
    hms_camat_access *acc = malloc(count * sizeof *acc);
    if (!tab || !acc) {
        free(tab);
        free(acc);
        snprintf(err, errlen, "camat: out of memory for %zu accesses", count);
        return false;
    }
    uint64_t port_free = 0; /* first cycle the load/store unit can issue again */
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *w = &s->v[i];
        if (!w->mask || w->block % p->n_sms != p->sm)
            continue;
        uint64_t key = (((uint64_t)w->block << 32) | w->warp) + 1;
        warp_slot *slot = find_slot(tab, cap, key);
        if (!slot->key && 2 * (used + 1) > cap) { /* a new warp would fill it over half */
            if (!grow(&tab, &cap)) {
                free(tab);
                free(acc);
                snprintf(err, errlen, "camat: out of memory for %zu warps", used + 1);
                return false;
            }
            slot = find_slot(tab, cap, key);
        }
        uint64_t issue = port_free;
        if (slot->key) {
            uint64_t gap = w->time > slot->last_time ? w->time - slot->last_time : 1;
            if (slot->last_issue + gap > issue)
                issue = slot->last_issue + gap;
        } else {
            slot->key = key;
            used++;
        }
        slot->last_issue = issue;
        slot->last_time = w->time;
        port_free = issue + 1;

        uint32_t miss = p->miss_latency;
        if (p->miss_latency_per && p->miss_latency_per[i])
            miss =
                p->miss_latency_per[i] > p->hit_latency ? p->miss_latency_per[i] : p->hit_latency;
        acc[k++] = (hms_camat_access){
            .start = issue,
            .hit_cycles = p->hit_latency,
            .miss_cycles = hit[i] ? 0 : miss - p->hit_latency,
        };
    }
    free(tab);
    if (k == 0) { /* no access on this SM */
        free(acc);
        acc = NULL;
    }
    *out = acc;
    *n = k;
    return true;
}
