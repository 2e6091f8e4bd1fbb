/* Coalescing of one warp's global/local/texture access: which aligned memory
 * units its active lanes touch (32-byte sectors, 128-byte lines) and how many
 * memory transactions the architecture issues for it, plus the bytes asked for
 * against the bytes moved (CuMAPz bw_util, eq. 3). */
#ifndef HMS_RUNTIME_COALESCE_H
#define HMS_RUNTIME_COALESCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/arch.h"
#include "runtime/stream.h"

/* Largest per-lane access width a record may carry (float4 / int4). */
#define HMS_ACCESS_MAX_WIDTH 16
/* Upper bound on the distinct units one warp access can touch, for any unit
 * size >= 1: a lane of <= 16 bytes touches at most 16 units (17 if the unit
 * is larger and the lane straddles a boundary). Size buffers for
 * hms_warp_units() with this. */
#define HMS_WARP_UNITS_MAX (HMS_WARP_LANES * (HMS_ACCESS_MAX_WIDTH + 1))

/* true when the record is well formed: width is 1, 2, 4, 8 or 16 and no
 * active lane's bytes wrap past the top of the address space. On false,
 * writes the reason into err (if err != NULL). */
bool hms_access_check(const hms_warp_access *a, char *err, size_t errlen);

/* Distinct `unit`-byte aligned units (unit index = address / unit) touched by
 * the bytes of the active lanes; writes them ascending into out (which must
 * hold HMS_WARP_UNITS_MAX entries) and returns how many. unit must be > 0 and
 * the record valid (hms_access_check). */
size_t hms_warp_units(const hms_warp_access *a, uint64_t unit, uint64_t *out);
/* The same for the lanes in `lanes` only (a subset of a->mask: one phase). */
size_t hms_warp_units_of(const hms_warp_access *a, uint32_t lanes, uint64_t unit, uint64_t *out);
/* A valid record's units at k times the unit size from its n ascending
 * units (hms_warp_units at the smaller size): each divided by k, repeats
 * dropped. Writes them to out unless out is NULL; returns how many. */
size_t hms_units_coarsen(const uint64_t *fine, size_t n, uint64_t k, uint64_t *out);

/* Which transaction rule an access follows on an architecture. */
typedef enum {
    HMS_COALESCE_SECTORS = 0, /* Kepler and later, Fermi stores/uncached: 32-byte sectors */
    HMS_COALESCE_L1_LINES,    /* Fermi loads cached in L1: 128-byte line transactions */
    HMS_COALESCE_HALF_WARP,   /* cc 1.2/1.3: 32/64/128-byte segments per half-warp */
} hms_coalesce_rule;

typedef struct {
    uint32_t active_lanes;
    uint32_t sectors;      /* distinct sector_bytes-aligned sectors */
    uint32_t lines;        /* distinct line_bytes-aligned lines */
    uint32_t transactions; /* memory transactions under `rule` */
    hms_coalesce_rule rule;
    uint64_t bytes_requested;   /* active lanes * width (what the program asked for) */
    uint64_t bytes_useful;      /* distinct bytes touched (broadcast counted once) */
    uint64_t bytes_transferred; /* sum of the transaction sizes */
} hms_coalesce_result;

/* The rule for a record on `arch`: half-warp segments when
 * arch->half_warp_segments; 128-byte lines for global/local loads when
 * arch->l1_caches_global; 32-byte sectors otherwise (texture and read-only
 * fetches always use 32-byte sectors: Mei & Chu, 32-byte texture lines). */
hms_coalesce_rule hms_coalesce_rule_for(const hms_arch *arch, const hms_warp_access *a);

/* Evaluates one warp access. Returns false (and zeroes *out) when the record
 * is malformed (see hms_access_check). A record with no active lane gives all
 * zeros and true. */
bool hms_coalesce_warp(const hms_arch *arch, const hms_warp_access *a, hms_coalesce_result *out);

/* The parts of a record's result that do not depend on its space or access
 * kind, only on its lanes and the arch's sector, line and segment rules: a
 * memo keeps these per record (runtime/units_memo.h), and a moved copy of
 * the record in another space assembles its own result from them. */
typedef struct {
    uint32_t sectors, lines;
    uint32_t bytes_useful;
    uint32_t half_warp_transactions, half_warp_bytes; /* arch->half_warp_segments only */
} hms_coalesce_parts;

/* The parts of valid record a, given its distinct sector_bytes units
 * (hms_warp_units, ascending). */
void hms_coalesce_parts_from_sectors(const hms_arch *arch, const hms_warp_access *a,
                                     const uint64_t *sectors, size_t nsectors,
                                     hms_coalesce_parts *out);
/* hms_coalesce_warp's result for valid record a from its parts (or those
 * of a copy of a at addresses moved by a translation-invariant offset). */
void hms_coalesce_assemble(const hms_arch *arch, const hms_warp_access *a,
                           const hms_coalesce_parts *parts, hms_coalesce_result *out);
/* The arch's sector size (32 bytes when the arch leaves it unset). */
uint64_t hms_coalesce_sector_bytes(const hms_arch *arch);
/* true when moving every lane of a record by d bytes leaves its parts
 * unchanged: d is a multiple of the sector, the line and the largest
 * half-warp segment, so every unit and segment moves whole. */
bool hms_coalesce_translation_invariant(const hms_arch *arch, uint64_t d);
/* The least such d > 0: the sector's, the line's and the largest half-warp
 * segment's common multiple (every d it divides is translation-invariant). */
uint64_t hms_coalesce_period(const hms_arch *arch);

/* Sums over many requests; requests with no active lane are not counted. */
typedef struct {
    uint64_t requests;
    uint64_t invalid; /* malformed records skipped */
    uint64_t sectors, lines, transactions;
    uint64_t bytes_requested, bytes_useful, bytes_transferred;
    bool exact; /* false once any record with exact == false was added */
} hms_coalesce_summary;

void hms_coalesce_summary_init(hms_coalesce_summary *s);
/* Evaluates `a` on `arch` and adds it; returns false for a malformed record
 * (counted in s->invalid). */
bool hms_coalesce_summary_add(hms_coalesce_summary *s, const hms_arch *arch,
                              const hms_warp_access *a);
/* The same with a's result already evaluated (NULL: malformed). */
void hms_coalesce_summary_add_result(hms_coalesce_summary *s, const hms_warp_access *a,
                                     const hms_coalesce_result *r);
double hms_coalesce_mean_sectors(const hms_coalesce_summary *s);
double hms_coalesce_mean_lines(const hms_coalesce_summary *s);
double hms_coalesce_mean_transactions(const hms_coalesce_summary *s);
/* CuMAPz eq. 3, bytes_access / bytes_transferred, with bytes_access = the
 * distinct bytes used so a broadcast cannot push it above 1. 1 when nothing
 * was transferred. */
double hms_coalesce_bw_util(const hms_coalesce_summary *s);

#endif
