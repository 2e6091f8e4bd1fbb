/* Shared-memory bank conflicts of one warp access: wavefronts (serialised
 * bank passes) per request as docs/model.md "Shared-memory banks" defines them, the
 * conflict degree, and the access latency Mei & Chu measured by degree
 * (Table VIII). */
#ifndef HMS_RUNTIME_BANKS_H
#define HMS_RUNTIME_BANKS_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/arch.h"
#include "runtime/stream.h"

typedef struct {
    uint32_t wavefronts; /* passes over the banks, summed over phases */
    uint32_t ways;       /* conflict degree: the most passes any one phase needed */
    uint32_t phases;     /* lane groups served separately (phases with an active lane) */
    uint32_t cycles;     /* SM cycles of all passes (hms_banks_pass_cycles_for), summed */
} hms_bank_result;

/* Evaluates one shared-memory warp access on `arch`:
 * - bank word = bank_bytes-aligned word (4 B; 8 B in Kepler 8-byte mode),
 *   bank = word % banks; a phase needs as many passes as the most distinct
 *   words any bank holds among its lanes (same word = broadcast);
 * - lanes are served in phases of banks * bank_bytes / width lanes, at most
 *   one half-warp on 16-bank (cc 1.x) parts and one warp otherwise: with 32
 *   4-byte banks, 8-byte accesses run as two half-warp phases and 16-byte ones
 *   as four quarter-warp phases; phases are summed;
 * - on 16-bank parts, 1- and 2-byte accesses follow the cc 1.x broadcast
 *   procedure (one broadcast word per pass, one address per other bank);
 * - each pass takes hms_banks_pass_cycles_for the 32-bit values it
 *   delivers to lanes; a bank serves its distinct words in the order their
 *   lowest lanes come.
 * Returns false (and zeroes *out) for a malformed record. No active lane gives
 * all zeros. */
bool hms_banks_warp(const hms_arch *arch, const hms_warp_access *a, hms_bank_result *out);

/* One record's bank result, computed once per stream and read by every
 * model that needs it (site metrics, memory simulation, CuMAPz): ok is
 * false for a record that is not a shared access with an active lane, or
 * that hms_banks_warp rejects. */
typedef struct {
    hms_bank_result r;
    bool ok;
} hms_bank_memo;

/* hms_banks_warp for every record of s, in record order; *out is NULL for
 * an empty stream. False (and *out NULL) on allocation failure. Free with
 * free(). */
bool hms_banks_stream(const hms_arch *arch, const hms_stream *s, hms_bank_memo **out);

/* hms_banks_warp through a table of the access patterns seen
 * (runtime/banks_stream.c): a record whose active lanes sit at the offsets of
 * one seen before from a multiple of hms_banks_period, with the same mask and
 * width, gets that one's result. The answers are hms_banks_warp's. NULL from
 * _new when out of memory. */
typedef struct hms_bank_patterns hms_bank_patterns;
hms_bank_patterns *hms_bank_patterns_new(const hms_arch *arch);
bool hms_bank_patterns_warp(hms_bank_patterns *m, const hms_warp_access *a, hms_bank_result *out);
void hms_bank_patterns_free(hms_bank_patterns *m);

/* banks * bank_bytes: hms_banks_warp gives the same result for a record
 * with every lane moved by a multiple of this many bytes (same banks, same
 * words told apart). */
uint64_t hms_banks_period(const hms_arch *arch);

/* Cycles the banks take for one pass (wavefront), CUDA C Programming Guide,
 * shared-memory sections by compute capability: each bank delivers 32 bits
 * per two clock cycles on cc 1.x and 2.x, 64 bits per clock on 3.x and 32
 * bits per clock from 5.x on: 2 cycles before cc 3.0, else 1. */
double hms_banks_pass_cycles(const hms_arch *arch);

/* Cycles of one pass that delivers `lane_words` 32-bit values to lanes (a
 * lane's 8-byte value counts 2, a broadcast word once per lane reading it).
 * From cc 2.0 the Guide's rate is that of the load/store datapath: banks x
 * 32 bits per hms_banks_pass_cycles cycles is 16 values a cycle on cc 2.x,
 * the SM's 16 LD/ST units (Fermi whitepaper), which a full pass fills. A
 * pass that delivers fewer (a conflict's replay) takes ceil(lane_words /
 * values per cycle) cycles, at least 1: the M2090's published transpose
 * bandwidth bounds a one-lane pass below 2 cycles (docs/validation.md).
 * cc 1.x keeps hms_banks_pass_cycles: its 8 SPs issue each half-warp pass.
 * Never above hms_banks_pass_cycles; 1 from cc 3.0 on (docs/model.md
 * "Replays as memory-pipe throughput"). */
double hms_banks_pass_cycles_for(const hms_arch *arch, uint32_t lane_words);

/* Issue slots a shared request takes beyond its own instruction (Huang &
 * Li's replay cause 4). A warp instruction occupies its scheduler for
 * warp_size / simd_width cycles, during which the banks serve that many
 * cycles over hms_banks_pass_cycles passes: on cc 1.x (4 cycles, 2 per
 * half-warp pass) the two half-warp passes of a conflict-free access fit in
 * the one issue, and every further two passes cost one slot. From cc 2.x to
 * 6.x one pass fits one issue (Fermi: 2 and 2 cycles; Kepler, Maxwell,
 * Pascal: 1 and 1), so each extra pass is one replay; from cc 7.0 on the
 * model keeps one slot per extra pass. Result: ceil(cycles / the cycles
 * of one slot, hms_replay_sm_cycles) - 1, never below 0: with full passes
 * ceil(wavefronts / passes per issue) - 1. */
double hms_banks_replay_slots(const hms_arch *arch, const hms_bank_result *b);

/* SM cycles one replay slot costs: the passes it stands for, at
 * hms_banks_pass_cycles each. A replay is served by the SM's one memory
 * unit (shared-memory banks, the L1 that shares their array, the constant
 * cache), which all of the SM's warp schedulers share, so replays from
 * different schedulers do not overlap each other (docs/model.md "Replays
 * in SM time"). */
double hms_replay_sm_cycles(const hms_arch *arch);

/* Shared access latency (cycles) for `ways` serialised passes, from
 * arch->shared_latency[] at 1, 2, 4, 8, 16, 32 ways, linear between the
 * neighbouring measured points and along the last segment beyond 32. Table
 * entries of 0 are treated as unmeasured and skipped. 0 when ways <= 0 or the
 * table is empty. */
double hms_banks_latency(const hms_arch *arch, double ways);

/* Latency of a whole request: the passes are serialised, so it is the latency
 * of `wavefronts` ways. */
double hms_banks_request_latency(const hms_arch *arch, const hms_bank_result *r);

#endif
