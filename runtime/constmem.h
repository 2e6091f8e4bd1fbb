/* Constant memory: a warp's constant read is served one distinct address at a
 * time (serialisation; Huang & Li replay cause 3, "constant address
 * divergence"), through the per-SM constant cache (replay cause 2, misses).
 * The cache is the generic simulator with arch->constant geometry. */
#ifndef HMS_RUNTIME_CONSTMEM_H
#define HMS_RUNTIME_CONSTMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/arch.h"
#include "runtime/cache.h"
#include "runtime/stream.h"

/* Smallest granule at which lanes count as reading "the same address"; wider
 * elements (double, float4) use their own width. */
#define HMS_CONST_WORD_BYTES 4

typedef struct {
    uint32_t distinct; /* distinct words (max(width, 4) bytes) read by the active lanes */
    uint32_t lines;    /* distinct constant-cache lines touched */
    uint32_t line_hits, line_misses;
    bool hit; /* every line hit */
} hms_const_result;

typedef struct {
    hms_cache cache;
    bool has_cache; /* false when the arch has no constant cache: all lines miss */
    uint32_t line_bytes;
    uint64_t requests; /* records with >= 1 active lane */
    uint64_t invalid;  /* malformed records skipped */
    uint64_t skipped;  /* records of other spaces passed to hms_constmem_feed */
    uint64_t distinct; /* sum over requests */
    uint64_t line_hits, line_misses;
    uint64_t warp_hits, warp_misses;
    bool exact;
} hms_constmem;

/* Sets up the model for `arch`. Returns false with "constant cache: reason"
 * in err when arch->constant is present but malformed. */
bool hms_constmem_init(hms_constmem *c, const hms_arch *arch, char *err, size_t errlen);
void hms_constmem_free(hms_constmem *c);
/* Empties the cache and clears the sums. */
void hms_constmem_reset(hms_constmem *c);

/* Distinct words the active lanes read, a word being max(width, 4) aligned
 * bytes: the number of serialised passes. 0 for no active lane or a malformed
 * record. */
uint32_t hms_constmem_distinct(const hms_warp_access *a);

/* One warp access, whatever its space field says: counts it, looks its lines
 * up in the cache. Returns false (nothing counted) for a malformed record. */
bool hms_constmem_access(hms_constmem *c, const hms_warp_access *a, hms_const_result *out);

/* Every HMS_SPACE_CONSTANT record of a stream, in order; other spaces are
 * counted in c->skipped. Returns the number of malformed records. */
size_t hms_constmem_feed(hms_constmem *c, const hms_stream *s);

double hms_constmem_mean_distinct(const hms_constmem *c);
/* Line misses / line lookups (0 when nothing looked up). */
double hms_constmem_miss_rate(const hms_constmem *c);
/* Line misses per request. */
double hms_constmem_mean_misses(const hms_constmem *c);

#endif
