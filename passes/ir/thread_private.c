#include "passes/ir/thread_private.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/merge_sort.h"

typedef struct {
    uint32_t block;
    uint32_t thread;
    uint64_t addr;
} lane_read;

/* (block, addr, thread) order; reads equal in it are identical, so any
 * correct sort gives the same array. */
static inline bool before(const lane_read *a, const lane_read *b)
{
    if (a->block != b->block)
        return a->block < b->block;
    if (a->addr != b->addr)
        return a->addr < b->addr;
    return a->thread < b->thread;
}

HMS_DEFINE_MERGE_SORT(sort_reads, lane_read, before)

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
    if (!sort_reads(v, n)) {
        free(v);
        return HMS_BLOCK_REUSE_UNKNOWN;
    }
    /* per distinct element of a block: read by two threads, or again by one */
    size_t elements = 0, shared = 0, repeat = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        bool sh = false, rep = false;
        for (; j < n && v[j].block == v[i].block && v[j].addr == v[i].addr; j++) {
            if (v[j].thread != v[j - 1].thread)
                sh = true;
            else
                rep = true;
        }
        elements++;
        shared += sh;
        repeat += rep;
        i = j;
    }
    free(v);
    /* a few shared elements (lanes clamped onto the row's last element)
     * are no reason to stage the array */
    return (double)shared >= HMS_BLOCK_REUSE_MIN_SHARED * (double)elements ? HMS_BLOCK_REUSE_SHARED
           : repeat || shared ? HMS_BLOCK_REUSE_OWN_THREAD
                              : HMS_BLOCK_REUSE_NONE;
}
