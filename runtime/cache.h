/* A generic set-associative cache simulator built from an hms_cache_geom:
 * line size, ways, sets, the address bit the set index starts at, and the
 * replacement policies Mei & Chu measured (LRU; Fermi L1's 3:1:1:1 weighted
 * choice; pseudo-random for the non-LRU L2). Also unequal sets, for the L2
 * TLB's one 17-entry set + six 8-entry sets. Deterministic: the same accesses
 * after init/reset always give the same hits and misses. */
#ifndef HMS_RUNTIME_CACHE_H
#define HMS_RUNTIME_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/arch.h"
#include "runtime/stream.h"

/* Seed of the replacement choice for HMS_REPL_FERMI_L1 / HMS_REPL_RANDOM;
 * each set draws from its own generator, seeded from this and its index. */
#define HMS_CACHE_SEED 0x9e3779b97f4a7c15ull
/* Index (0-based) of the Fermi L1 way replaced 3x as often as the others:
 * Mei & Chu sec. 4.5 name it "cache way 2" (numbering from 1). */
#define HMS_FERMI_L1_HOT_WAY 1

typedef struct {
    uint64_t accesses; /* line lookups */
    uint64_t hits, misses;
    uint64_t evictions;     /* misses that replaced a valid line */
    uint64_t warp_requests; /* hms_cache_warp calls with >= 1 active lane */
    uint64_t warp_hits;     /* ... whose lines all hit */
} hms_cache_stats;

typedef struct {
    uint32_t line_bytes;
    uint32_t sets;
    uint32_t set_shift; /* set index = (addr >> set_shift) % sets, when uniform */
    hms_replacement replacement;
    uint32_t *set_ways; /* ways of each set */
    /* Index of each set's way 0 in tag/stamp. Sets are stored set by set
     * (way w of set s at set_first[s] + w): a lookup of the 50 MB L2, far
     * larger than the host's caches, then reads one or two host lines of
     * tags, where storing way by way (w x sets + s, so that way 0 of
     * consecutive sets shared host lines) read one per valid way. */
    uint32_t *set_first;
    uint32_t line_shift;   /* log2(line_bytes) */
    uint32_t *residue_set; /* unequal sets only: line % entries -> set; else NULL */
    uint32_t entries;      /* total lines */
    uint64_t *tag;         /* line number (addr / line_bytes); ways below the set's fill valid */
    uint64_t *stamp;       /* last use, for LRU */
    /* Valid ways of each set: ways fill in order and are only replaced,
     * never emptied, so they are a prefix and a lookup reads only these tags
     * (stale tag/stamp entries beyond it need no clearing). Two bytes a set,
     * so the table stays in the host's cache: the H100 L2's 102400 sets take
     * 200 KB (an 8-byte state per set missed the host's cache on most
     * lookups of scattered records). Reset zeroes it. */
    uint16_t *fill;
    /* Each set's own replacement generator (random policies only, else NULL),
     * seeded when the set takes its first line after a reset: sets never
     * share draws, so what one set does cannot change another's evictions, as
     * in hardware. Read only by evictions. */
    uint64_t *set_rng;
    uint32_t uniform_ways; /* every set's ways when all sets are alike (set s's way 0 is then
                              entry s x ways: no table read per lookup); 0 otherwise */
    uint64_t clock;
    hms_cache_stats stats;
} hms_cache;

/* Builds a cache from a geometry. sets == 0 derives sets = size / (line *
 * ways); set0_ways != 0 makes set 0 that many ways and the others `ways`
 * (Mei & Chu's L2 TLB: size 130 MB, line 2 MB, sets 7, ways 8, set0_ways 17).
 * Lines must add up to size_bytes. set_bit_low == 0 takes the set index from
 * the bits just above the line offset; otherwise from set_bit_low up (Mei &
 * Chu texture L1: bits 7-8); unequal sets ignore it (see docs/model.md).
 * Returns false with "reason" in err for an absent (size 0) or inconsistent
 * geometry; c is then safe to free. */
bool hms_cache_init(hms_cache *c, const hms_cache_geom *g, char *err, size_t errlen);
void hms_cache_free(hms_cache *c);
/* Empties the cache, clears stats and reseeds every set's replacement choice. */
void hms_cache_reset(hms_cache *c);

/* The set a byte address maps to. */
uint32_t hms_cache_set_of(const hms_cache *c, uint64_t addr);
/* Index in tag/stamp of way `way` of set `set`. */
uint32_t hms_cache_entry(const hms_cache *c, uint32_t set, uint32_t way);
/* Looks up the line holding `addr`, filling it on a miss; true on a hit. */
bool hms_cache_access_line(hms_cache *c, uint64_t addr);
/* The same when the caller has the set already (set == hms_cache_set_of). */
bool hms_cache_access_line_in(hms_cache *c, uint64_t addr, uint32_t set);
/* Looks up every line touched by [addr, addr + size); counts in *hits and
 * *misses (either may be NULL). size 0 touches nothing. */
void hms_cache_access(hms_cache *c, uint64_t addr, uint32_t size, uint32_t *hits, uint32_t *misses);

typedef struct {
    uint32_t lines; /* distinct lines the active lanes touched */
    uint32_t hits, misses;
    bool hit; /* warp-level hit (C-AMAT, Zhang et al.): every line hit */
} hms_cache_outcome;

/* One warp access: each distinct line touched by the active lanes is looked up
 * once, in ascending address order. Returns false (cache untouched, *out
 * zeroed) for a malformed record; a record with no active lane is a no-op. */
bool hms_cache_warp(hms_cache *c, const hms_warp_access *a, hms_cache_outcome *out);

/* hits / accesses over line lookups; 0 when nothing was looked up. */
double hms_cache_hit_rate(const hms_cache *c);

#endif
