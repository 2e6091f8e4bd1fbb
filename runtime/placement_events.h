/* Event counts for the placement model (runtime/placement.h): re-simulate a
 * kernel's access stream with one array moved to a candidate space, as Huang
 * & Li do with their trace analysis and cache models (seeds/
 * 000_2b7270bf81dd448e.txt, Sections III-E and IV).
 *
 * Every record of the stream is simulated (the whole kernel shares L2 and
 * DRAM); the records of the chosen array take the candidate space, the others
 * keep theirs:
 *   global/local  coalescing (replays: 128-byte lines - 1, or transactions - 1
 *                 under the Fermi-L1 and cc 1.x rules), the L1 when the arch
 *                 caches global loads, then L2;
 *   readonly      lines - 1 replays (an LDG), the read-only cache (the texture
 *                 cache's geometry when the arch has none), then L2;
 *   texture 1D/2D the texture cache, then L2, no replays (lines - 1, as an
 *                 LDG, where arch->unified_l1_texture); 2D textures are
 *                 simulated with the linear addresses (the tiled layout is
 *                 not modelled);
 *   constant      distinct addresses - 1 and constant-cache misses as replays,
 *                 misses go to L2;
 *   shared        bank passes beyond the request's own issue as replays
 *                 (hms_banks_replay_slots); no L2 or DRAM traffic.
 * L2 misses (one per L2 line) are DRAM requests for runtime/dram.h. Per-SM
 * caches are per SM (block b runs on SM b % active_sms).
 *
 * Addresses (paper Section III-E): an array moving between off-chip spaces
 * keeps its addresses; constant and local records live in their own regions
 * (offset by 2^40 and 2^41, above every DRAM bank/row bit the shipped
 * architectures use); a shared array moving off-chip gets one slab per block
 * (its size, 256-byte aligned) in a region of its own at 3 * 2^40, the paper's
 * "address range after the largest allocated address". An off-chip array moving to shared keeps
 * its addresses modulo 256, which is all bank mapping depends on.
 *
 * Time: a record issued after t instructions of its warp, in wave w of
 * resident blocks, issues at SM cycle (w * span + t) * warps_per_sm *
 * (warp_size / simd_width), span being the longest warp. When every record
 * has time 0 the record's position in its warp's sequence is used instead.
 * The DRAM queues are closed-loop bounded (dram.h): the resident warps, MLP
 * requests each, of the mean number of DRAM lines per DRAM-served request. */
#ifndef HMS_RUNTIME_PLACEMENT_EVENTS_H
#define HMS_RUNTIME_PLACEMENT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/arch.h"
#include "runtime/banks.h"
#include "runtime/placement.h"
#include "runtime/stream.h"
#include "runtime/units_memo.h"

/* Work shared by calls on one stream and arch (validation, issue order, the
 * per-record replays of records left in their own space): results are the
 * same with or without it. Make one per stream; free it with the stream. */
typedef struct hms_placement_events_memo hms_placement_events_memo;
hms_placement_events_memo *hms_placement_events_memo_new(void);
void hms_placement_events_memo_free(hms_placement_events_memo *m);
/* Records of moved runs answered whole from the run as written (clean) and
 * partly (mixed) so far, by the set skip. */
void hms_placement_events_memo_skips(const hms_placement_events_memo *m, size_t *clean,
                                     size_t *mixed);
/* Runs so far that replayed an earlier run's outcomes and simulated only
 * the moved array's records (the other records' sums taken from it). */
size_t hms_placement_events_memo_deltas(const hms_placement_events_memo *m);

typedef struct {
    unsigned active_sms;             /* 0 -> arch->sm_count */
    unsigned warps_per_block;        /* 0 -> highest warp index in the stream + 1 */
    unsigned blocks_per_sm;          /* resident blocks per SM; 0 -> as many as max_warps_per_sm
                                        and max_blocks_per_sm allow, and no more than the
                                        stream's blocks (highest block id + 1) spread over
                                        the SMs */
    double scale;                    /* counts are multiplied by this (a sampled stream -> the
                                        launch); 0 -> 1 */
    double mlp;                      /* outstanding memory requests per warp; 0 -> 1 */
    hms_placement_events_memo *memo; /* optional; NULL -> nothing shared */
    hms_units_memo *units;           /* optional: the stream's units (runtime/units_memo.h);
                                               NULL -> computed */
    const hms_bank_memo *banks;      /* optional: per record of the stream, its
                                        hms_banks_stream result; NULL -> computed */
    bool full_resim;                 /* simulate every lookup of a moved run, no set skip
                                        (runtime/placement_skip.h): the same results, for tests */
} hms_placement_events_opts;

/* Fills `out` for array `array` in space `target`. `arr` gives the array's
 * size (for a shared array moving off-chip; may be NULL). `o` may be NULL.
 * False with "stream record N: reason" or "arch: reason" on bad input. */
bool hms_placement_events_compute(const hms_stream *s, const hms_arch *a, uint32_t array,
                                  hms_placement_space target, const hms_placement_array *arr,
                                  const hms_placement_events_opts *o, hms_placement_events *out,
                                  char *err, size_t errlen);

#endif
