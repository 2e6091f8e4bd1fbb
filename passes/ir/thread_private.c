#include "passes/ir/thread_private.h"

#include <stdlib.h>

typedef struct {
    uint32_t block;
    uint32_t thread;
    uint64_t addr;
} lane_read;

/* Open-addressing sets over the lane reads: one entry per distinct
 * (block, element), one per distinct (block, element, thread). Hashing
 * gives the same counts as sorting the reads, without the n log n. */
typedef struct {
    uint64_t addr;
    uint32_t block;
    uint32_t thread; /* element table: the first thread that read it */
    bool used;       /* false marks an empty slot */
    bool shared;     /* element table: a second thread read it */
    bool repeat;     /* element table: some thread read it twice */
} read_slot;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    return x ^ (x >> 32);
}

/* The slot holding (block, addr[, thread]) or the empty slot where it goes. */
static read_slot *find_slot(read_slot *t, size_t mask, uint32_t block, uint64_t addr,
                            bool by_thread, uint32_t thread)
{
    uint64_t h = mix(addr ^ ((uint64_t)block << 56) ^ (by_thread ? (uint64_t)thread << 32 : 0));
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        read_slot *e = &t[i];
        if (!e->used ||
            (e->block == block && e->addr == addr && (!by_thread || e->thread == thread)))
            return e;
    }
}

static bool chosen(const uint32_t *blocks, int n, uint32_t b)
{
    for (int i = 0; i < n; i++)
        if (blocks[i] == b)
            return true;
    return false;
}

hms_block_reuse hms_array_block_reuse(const hms_stream *s, uint32_t array, int warp_size)
{
    uint32_t blocks[HMS_THREAD_PRIVATE_BLOCKS];
    int nblocks = 0;
    lane_read *v = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *r = &s->v[i];
        if (r->array != array || r->kind != HMS_ACCESS_LOAD || r->space == HMS_SPACE_SHARED ||
            r->mask == 0)
            continue;
        if (!chosen(blocks, nblocks, r->block)) {
            if (nblocks == HMS_THREAD_PRIVATE_BLOCKS)
                continue;
            blocks[nblocks++] = r->block;
        }
        if (n + HMS_WARP_LANES > cap) {
            size_t c = cap ? cap * 2 : 1024;
            lane_read *w = realloc(v, c * sizeof *w);
            if (!w) {
                free(v);
                return HMS_BLOCK_REUSE_UNKNOWN;
            }
            v = w;
            cap = c;
        }
        for (int l = 0; l < HMS_WARP_LANES; l++)
            if (r->mask & (1u << l))
                v[n++] =
                    (lane_read){r->block, r->warp * (uint32_t)warp_size + (uint32_t)l, r->addr[l]};
    }
    if (n == 0) {
        free(v);
        return HMS_BLOCK_REUSE_UNKNOWN;
    }
    /* tables at most half full: n distinct entries at most in each */
    size_t size = 16;
    while (size < 2 * n)
        size *= 2;
    read_slot *elems = calloc(size, sizeof *elems), *pairs = calloc(size, sizeof *pairs);
    if (!elems || !pairs) {
        free(elems);
        free(pairs);
        free(v);
        return HMS_BLOCK_REUSE_UNKNOWN;
    }
    /* per distinct element of a block: read by two threads, or again by one */
    size_t elements = 0, shared = 0, repeat = 0;
    for (size_t i = 0; i < n; i++) {
        const lane_read *r = &v[i];
        read_slot *e = find_slot(elems, size - 1, r->block, r->addr, false, 0);
        if (!e->used) {
            *e = (read_slot){r->addr, r->block, r->thread, true, false, false};
            elements++;
        } else if (e->thread != r->thread && !e->shared) {
            e->shared = true;
            shared++;
        }
        read_slot *p = find_slot(pairs, size - 1, r->block, r->addr, true, r->thread);
        if (!p->used)
            *p = (read_slot){r->addr, r->block, r->thread, true, false, false};
        else if (!e->repeat) {
            e->repeat = true;
            repeat++;
        }
    }
    free(elems);
    free(pairs);
    free(v);
    /* a few shared elements (lanes clamped onto the row's last element)
     * are no reason to stage the array */
    return (double)shared >= HMS_BLOCK_REUSE_MIN_SHARED * (double)elements ? HMS_BLOCK_REUSE_SHARED
           : repeat || shared ? HMS_BLOCK_REUSE_OWN_THREAD
                              : HMS_BLOCK_REUSE_NONE;
}
