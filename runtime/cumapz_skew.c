/* CuMAPz channel skew (partition camping): seeds/001_3bb0fc5541bb7adb.txt,
 * Section 5.4, eqs. 4-5. Successive channel_width-byte regions map to
 * successive channels (256 B on the Tesla C1060); the first blocks the
 * scheduler hands out run together, so the channels their concurrent
 * accesses land in show whether the bus is used evenly. */
#include "runtime/cumapz.h"

#include <stdio.h>
#include <stdlib.h>

#include "runtime/dram.h"
#include "runtime/merge_sort.h"

uint64_t hms_cumapz_blocks_to_check(const hms_arch *a, unsigned max_blks, unsigned block_x,
                                    unsigned elem_size)
{
    if (a->dram_channels <= 0 || a->dram_channel_bytes <= 0 || max_blks == 0 || block_x == 0 ||
        elem_size == 0)
        return 0;
    /* Eq. 4: how many successive blocks fit in one channel's width. */
    uint64_t per_channel = (uint64_t)a->dram_channel_bytes / ((uint64_t)block_x * elem_size);
    if (per_channel < 1)
        per_channel = 1;
    if (per_channel > max_blks)
        per_channel = max_blks;
    return (uint64_t)a->dram_channels * per_channel;
}

typedef struct {
    uint32_t site, block, warp;
    uint64_t occ;    /* k-th execution of `site` by this warp */
    size_t ch_first; /* its distinct channels: chans[ch_first, ch_first + ch_n) */
    uint32_t ch_n;
} rec_key;

/* Executions counted so far per (block, warp, site): an open-addressing
 * map, so each record's occurrence number (its rank by stream position
 * among its warp's records of that site) comes in one pass, no sort. */
typedef struct {
    uint32_t site, block, warp;
    bool used;
    uint64_t count;
} occ_slot;

typedef struct {
    occ_slot *t;
    size_t cap, used; /* cap a power of two, kept above 2 * used */
} occ_map;

static occ_slot *occ_find(occ_slot *t, size_t mask, uint32_t site, uint32_t block, uint32_t warp)
{
    uint64_t h = ((uint64_t)block << 32 | warp) * 0x9e3779b97f4a7c15ull ^ site;
    h = (h ^ h >> 29) * 0xbf58476d1ce4e5b9ull;
    size_t i = (size_t)(h ^ h >> 32) & mask;
    while (t[i].used && !(t[i].site == site && t[i].block == block && t[i].warp == warp))
        i = (i + 1) & mask;
    return &t[i];
}

/* The counter of (site, block, warp), 0 when new; NULL when out of memory.
 * The map grows with the warps seen, so the stream need not be counted
 * first to size it. */
static uint64_t *occ_counter(occ_map *m, uint32_t site, uint32_t block, uint32_t warp)
{
    occ_slot *e = occ_find(m->t, m->cap - 1, site, block, warp);
    if (e->used)
        return &e->count;
    if (2 * (m->used + 1) > m->cap) {
        size_t cap = m->cap * 2;
        occ_slot *t = calloc(cap, sizeof *t);
        if (!t)
            return NULL;
        for (size_t i = 0; i < m->cap; i++)
            if (m->t[i].used)
                *occ_find(t, cap - 1, m->t[i].site, m->t[i].block, m->t[i].warp) = m->t[i];
        free(m->t);
        m->t = t;
        m->cap = cap;
        e = occ_find(t, cap - 1, site, block, warp);
    }
    *e = (occ_slot){site, block, warp, true, 0};
    m->used++;
    return &e->count;
}

static int cmp_group(const void *pa, const void *pb)
{
    const rec_key *a = pa, *b = pb;
    if (a->site != b->site)
        return a->site < b->site ? -1 : 1;
    if (a->occ != b->occ)
        return a->occ < b->occ ? -1 : 1;
    return (a->block > b->block) - (a->block < b->block);
}

/* cmp_group as the merge sort's "goes before". The groups' figures read
 * only site, occ, block and the channels, and records tied on site, occ and
 * block are counted as one block whatever their order. */
static inline bool group_before(const rec_key *a, const rec_key *b)
{
    return cmp_group(a, b) < 0;
}

HMS_DEFINE_MERGE_SORT(sort_groups, rec_key, group_before)

/* The distinct channels of w's active lanes, appended to chans[*n...]; how many. */
static uint32_t record_channels(const hms_arch *a, const hms_warp_access *w, uint32_t *chans,
                                size_t *n)
{
    size_t first = *n;
    hms_channel_memo cm = hms_channel_memo_start(a);
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        if (!(w->mask >> l & 1u))
            continue;
        bool same;
        uint32_t ch = hms_channel_memo_of(&cm, w->addr[l], &same);
        if (same)
            continue; /* the previous lane's stripe: its channel is listed */
        bool seen = false;
        for (size_t k = first; k < *n && !seen; k++)
            seen = chans[k] == ch;
        if (!seen)
            chans[(*n)++] = ch;
    }
    return (uint32_t)(*n - first);
}

static bool is_global(const hms_warp_access *w)
{
    return w->space == HMS_SPACE_GLOBAL || w->space == HMS_SPACE_READONLY;
}

/* Eq. 5 for one group, given distinct blocks per channel. */
static double group_skew(const uint64_t *per_channel, unsigned n_channels)
{
    uint64_t max = 0, min = UINT64_MAX;
    unsigned used = 0;
    for (unsigned c = 0; c < n_channels; c++) {
        if (!per_channel[c])
            continue;
        used++;
        if (per_channel[c] > max)
            max = per_channel[c];
        if (per_channel[c] < min)
            min = per_channel[c];
    }
    if (used == 0)
        return 1.0;
    if (used == 1)
        return (double)n_channels; /* everything camps on one channel */
    return (double)max / (double)(min > 1 ? min : 1);
}

bool hms_cumapz_ch_skew(const hms_arch *a, const hms_stream *s, uint64_t total_blocks,
                        unsigned max_blks, unsigned block_x, unsigned elem_size,
                        hms_cumapz_skew *out, char *err, size_t errlen)
{
    out->ch_skew = 1.0;
    out->groups = 0;
    out->skipped = true;
    out->blocks_checked = hms_cumapz_blocks_to_check(a, max_blks, block_x, elem_size);
    if (a->dram_channels <= 0 || a->dram_channel_bytes <= 0) {
        snprintf(err, errlen,
                 "cumapz: arch '%s' has no DRAM channels (dram_channels %d, "
                 "dram_channel_bytes %d)",
                 a->name, a->dram_channels, a->dram_channel_bytes);
        return false;
    }
    uint64_t n_check = out->blocks_checked;
    /* The paper skips the analysis when the launch has fewer blocks. */
    if (n_check == 0 || total_blocks < n_check)
        return true;
    out->skipped = false;

    /* recs sized for every record, so the stream is read once (pages past
     * the records kept are never touched); the channel lists grow. */
    rec_key *recs = malloc((s->n ? s->n : 1) * sizeof *recs);
    size_t capch = 1024;
    uint32_t *chans = malloc(capch * sizeof *chans);
    uint64_t *per_channel = calloc((size_t)a->dram_channels, sizeof *per_channel);
    uint64_t *stamp = calloc((size_t)a->dram_channels, sizeof *stamp);
    occ_map occ = {calloc(16, sizeof(occ_slot)), 16, 0};
    bool ok = recs && chans && per_channel && stamp && occ.t;
    /* Number each warp's executions of each site in issue order, and list
     * each record's channels (in stream order, so the records are read once
     * and in turn). */
    size_t m = 0, nch = 0;
    for (size_t i = 0; ok && i < s->n; i++) {
        const hms_warp_access *w = &s->v[i];
        if (!is_global(w) || !w->mask || w->block >= n_check)
            continue;
        if (nch + HMS_WARP_LANES > capch) {
            uint32_t *v = realloc(chans, 2 * capch * sizeof *v);
            ok = v != NULL;
            if (!ok)
                break;
            chans = v;
            capch *= 2;
        }
        uint64_t *k = occ_counter(&occ, w->site, w->block, w->warp);
        ok = k != NULL;
        if (!ok)
            break;
        size_t first = nch;
        uint32_t n = record_channels(a, w, chans, &nch);
        recs[m++] = (rec_key){.site = w->site,
                              .block = w->block,
                              .warp = w->warp,
                              .occ = (*k)++,
                              .ch_first = first,
                              .ch_n = n};
    }
    free(occ.t);
    if (!ok) {
        free(recs);
        free(chans);
        free(per_channel);
        free(stamp);
        snprintf(err, errlen, "cumapz: out of memory analysing channel skew");
        return false;
    }
    if (m > 1 && !sort_groups(recs, m))
        qsort(recs, m, sizeof *recs, cmp_group);

    double weighted = 0, weight = 0;
    size_t r = 0;
    uint64_t tag = 0; /* stamp[c] == tag: channel c counted for the current block */
    while (r < m) {
        /* One group: the same execution of the same site across warps, its
         * records by block, so a block's records are adjacent. */
        size_t r_end = r;
        uint64_t blocks = 0;
        for (int c = 0; c < a->dram_channels; c++)
            per_channel[c] = 0;
        while (r_end < m && recs[r_end].site == recs[r].site && recs[r_end].occ == recs[r].occ) {
            if (r_end == r || recs[r_end].block != recs[r_end - 1].block) {
                blocks++;
                tag++;
            }
            const rec_key *q = &recs[r_end];
            for (uint32_t x = 0; x < q->ch_n; x++) {
                uint32_t ch = chans[q->ch_first + x];
                if (stamp[ch] != tag) { /* distinct blocks per channel */
                    stamp[ch] = tag;
                    per_channel[ch]++;
                }
            }
            r_end++;
        }
        if (blocks >= 2) {
            double n_req = (double)(r_end - r);
            weighted += n_req * group_skew(per_channel, (unsigned)a->dram_channels);
            weight += n_req;
            out->groups++;
        }
        r = r_end;
    }
    if (weight > 0)
        out->ch_skew = weighted / weight;
    free(recs);
    free(chans);
    free(per_channel);
    free(stamp);
    return true;
}
