/* Per-warp access streams: the only input the model core takes from the
 * passes. One record is one dynamic execution of one static access site by
 * one warp: 32 lane byte addresses and the mask of lanes that took part. */
#ifndef HMS_RUNTIME_STREAM_H
#define HMS_RUNTIME_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HMS_WARP_LANES 32

typedef enum {
    HMS_SPACE_GLOBAL = 0,
    HMS_SPACE_SHARED,
    HMS_SPACE_CONSTANT,
    HMS_SPACE_TEXTURE,  /* texture fetch (1D or 2D) */
    HMS_SPACE_READONLY, /* global read through the read-only path (__ldg, const __restrict__) */
    HMS_SPACE_LOCAL,
    HMS_SPACE_COUNT
} hms_space;

typedef enum { HMS_ACCESS_LOAD = 0, HMS_ACCESS_STORE, HMS_ACCESS_ATOMIC } hms_access_kind;

typedef struct {
    uint32_t site;                 /* static access site id (index into the kernel's sites) */
    uint32_t array;                /* array id within the kernel */
    uint8_t space;                 /* hms_space */
    uint8_t kind;                  /* hms_access_kind */
    uint8_t width;                 /* bytes per lane: 1,2,4,8,16 */
    bool exact;                    /* false if an unknown value entered any lane's address */
    bool spread;                   /* some lane's unknown index was spread over the array */
    uint32_t mask;                 /* active lanes (bit i = lane i) */
    uint32_t block;                /* linear block id */
    uint32_t warp;                 /* warp index within the block */
    uint64_t time;                 /* issue order: instructions executed by this warp before it */
    uint32_t extra;                /* further executions this record stands for: iterations of
                                      a periodic loop that were summarised, not traced (0 for
                                      an ordinary record; see passes/trace/stream_gen.h) */
    uint64_t addr[HMS_WARP_LANES]; /* byte addresses; space-relative, base of array included */
} hms_warp_access;

/* A growable array of records, in the order the warps issue them. */
typedef struct {
    hms_warp_access *v;
    size_t n, cap;
} hms_stream;

void hms_stream_init(hms_stream *s);
void hms_stream_free(hms_stream *s);
/* Appends a copy; returns false on allocation failure (stream unchanged). */
bool hms_stream_push(hms_stream *s, const hms_warp_access *a);
/* Room for `need` records, the capacity doubled as often as that takes
 * (false on allocation failure, stream unchanged), for writers that fill
 * slots in place; hms_stream_grow: room for one more (the growth
 * hms_stream_push uses). */
bool hms_stream_reserve(hms_stream *s, size_t need);
bool hms_stream_grow(hms_stream *s);
/* Reorders v[0..n) in place so that position k holds the record that was at
 * src[k] (src a permutation of 0..n-1): each record moves once, cycle by
 * cycle, with no second stream. src is left as the identity. */
void hms_stream_permute(hms_warp_access *v, size_t n, size_t *src);

static inline int hms_popcount32(uint32_t m)
{
    return __builtin_popcount(m);
}

/* Greatest common divisor (periods of address patterns). */
static inline uint64_t hms_gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Whether two records' lanes are the same: mask, width and every address. */
static inline bool hms_same_lanes(const hms_warp_access *x, const hms_warp_access *y)
{
    return x->mask == y->mask && x->width == y->width &&
           memcmp(x->addr, y->addr, sizeof x->addr) == 0;
}

/* Dynamic executions record r stands for: itself plus its summarised repeats. */
static inline double hms_record_reps(const hms_warp_access *r)
{
    return 1.0 + (double)r->extra;
}

const char *hms_space_name(hms_space s);

#endif
