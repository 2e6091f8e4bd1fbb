/* CuMAPz memory-performance terms and their product, MPE.
 * Source: Kim & Shrivastava, seeds/001_3bb0fc5541bb7adb.txt, Section 5,
 * eqs. 1-8. Each term is "larger is better" and MPE only ranks versions of
 * one kernel against each other (paper Section 8).
 *
 * The term functions take the counts the paper sums over references, buffers
 * and warps; the passes produce most of them from the IR's shared-memory
 * mappings. The stream helpers below compute the counts that follow from
 * addresses alone (bytes transferred, channel skew, bank conflicts). Choices
 * where the paper leaves a case undefined are listed in docs/model.md
 * ("CuMAPz terms") and next to each function. */
#ifndef HMS_RUNTIME_CUMAPZ_H
#define HMS_RUNTIME_CUMAPZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/arch.h"
#include "runtime/banks.h"
#include "runtime/stream.h"
#include "runtime/units_memo.h"

/* ---- the six terms --------------------------------------------------------- */

/* Eq. 1: bytes read from (or written to) shared buffers on behalf of global
 * references / bytes transferred from global memory to fill the buffers.
 * No buffered bytes (a kernel without shared buffers) -> 1: every byte the
 * kernel fetches is used once, the neutral value a version without shared
 * memory is compared against (Table I's "not using shared mem" row). */
double hms_cumapz_data_reuse(double bytes_shmem, double bytes_buffered);

/* Eq. 2: (min(occupancy%, 50) / 50) * sqrt(n_shm_load). occupancy_pct is in
 * percent (0..100). n_shm_load is the number of load instructions that fill
 * shared buffers; 0 (no buffers) counts as 1 so that a kernel without shared
 * memory is scored on occupancy alone instead of collapsing MPE to 0. */
double hms_cumapz_lat_hiding(double occupancy_pct, unsigned n_shm_load);

/* Eq. 3: bytes requested / bytes transferred; 1 when nothing was transferred. */
double hms_cumapz_bw_util(double bytes_access, double bytes_transferred);

/* Eq. 6: (n_half_warp * n_buffer) / n_bk_conflict, 1 when n_bk_conflict is 0
 * (the paper's rule). n_bk_conflict sums, over shared requests analysed per
 * half-warp (per warp on 32-bank arches), the serialisation degree K of each
 * conflicted request (K-way conflict -> K; conflict-free -> 0), so a kernel
 * whose one buffer is read with K-way conflicts everywhere scores 1/K.
 * Clamped to at most 1: no access pattern beats conflict-free. */
double hms_cumapz_shm_eff(uint64_t n_half_warp, uint64_t n_buffer, uint64_t n_bk_conflict);

/* Eq. 7: n_warp / n_path, n_path summing 2 for each (reference, buffer, warp)
 * whose lanes split between buffered and unbuffered addresses, else 1.
 * n_warp must count the same (reference, buffer, warp) triples (the paper's
 * "number of warps" when the kernel has one buffered reference), so that no
 * divergence scores 1 and divergence everywhere scores 1/2. 1 when n_path = 0. */
double hms_cumapz_branch_eff(uint64_t n_warp, uint64_t n_path);

/* ---- MPE --------------------------------------------------------------------- */

typedef struct {
    double bytes_shmem, bytes_buffered;     /* eq. 1 */
    double occupancy_pct;                   /* eq. 2, percent */
    unsigned n_shm_load;                    /* eq. 2 */
    double bytes_access, bytes_transferred; /* eq. 3 */
    double ch_skew;                         /* eq. 5, from hms_cumapz_ch_skew (>= 1; 0 = 1) */
    uint64_t n_half_warp, n_buffer, n_bk_conflict; /* eq. 6 */
    uint64_t n_warp, n_path;                       /* eq. 7 */
} hms_cumapz_profile;

typedef struct {
    double data_reuse, lat_hiding, bw_util, ch_skew, shm_eff, branch_eff;
    double mpe; /* eq. 8 */
} hms_cumapz_terms;

/* Eq. 8: data_reuse * lat_hiding * (bw_util / ch_skew) * branch_eff * sqrt(shm_eff). */
double hms_cumapz_mpe(const hms_cumapz_terms *t);

/* All terms and MPE from a profile. False (terms zeroed) with a reason in err
 * when a count is negative or not a number, or occupancy is above 100%. */
bool hms_cumapz_evaluate(const hms_cumapz_profile *p, hms_cumapz_terms *out, char *err,
                         size_t errlen);

/* ---- counts from per-warp streams ---------------------------------------------- */

/* Bytes requested and bytes moved by the global-memory records of a stream
 * (spaces global and readonly, any kind), per the coalescing model
 * (runtime/coalesce.h: cc 1.x half-warp 32/64/128-byte segments, Fermi
 * 128-byte L1 lines for cached loads, 32-byte sectors otherwise).
 * bytes_access counts the distinct bytes the active lanes touch, so a
 * half-warp broadcast of one word is not "perfect" (paper Section 6.1,
 * MatMul's matrix A). Returns the number of malformed records skipped.
 * `units` (may be NULL): s's memo of per-record coalescing (runtime/
 * units_memo.h). */
uint64_t hms_cumapz_stream_transfer(const hms_arch *a, const hms_stream *s, hms_units_memo *units,
                                    uint64_t *bytes_access, uint64_t *bytes_transferred);

/* Eq. 4: n_channels * min(max_blks, channel_width / (block_x * elem_size)),
 * the ratio rounded down but at least 1 (a block row wider than a channel
 * still occupies one). 0 when an input is 0. */
uint64_t hms_cumapz_blocks_to_check(const hms_arch *a, unsigned max_blks, unsigned block_x,
                                    unsigned elem_size);

typedef struct {
    double ch_skew;          /* eq. 5; 1 when skipped */
    uint64_t blocks_checked; /* eq. 4 */
    bool skipped;            /* fewer blocks in the launch than blocks_checked */
    size_t groups;           /* concurrent access groups that entered the mean */
} hms_cumapz_skew;

/* Eq. 5 over the first blocks_checked blocks (linear ids 0..n-1, the first
 * round the block scheduler hands out). Accesses are concurrent when they are
 * the same execution of the same static site (the k-th execution of site s by
 * a warp), so each such group is scored alone: per channel
 * ((addr / dram_channel_bytes) % dram_channels), the number of distinct
 * blocks touching it; skew = max / max(1, min nonzero), or n_channels when a
 * single channel receives every block (the paper's "all accesses focused on
 * one channel"). Groups touched by one block only say nothing about
 * concurrency and are left out; the result is the mean over groups weighted
 * by their warp requests. total_blocks is the launch's block count.
 * False with a reason on an arch without channels or on allocation failure. */
bool hms_cumapz_ch_skew(const hms_arch *a, const hms_stream *s, uint64_t total_blocks,
                        unsigned max_blks, unsigned block_x, unsigned elem_size,
                        hms_cumapz_skew *out, char *err, size_t errlen);

typedef struct {
    uint64_t n_half_warp;   /* distinct (block, warp, half) groups that accessed shared memory */
    uint64_t n_buffer;      /* distinct shared arrays accessed */
    uint64_t requests;      /* group requests with at least one active lane */
    uint64_t conflicted;    /* of those, requests with a K >= 2 way conflict */
    uint64_t n_bk_conflict; /* sum of K over conflicted requests (eq. 6 denominator) */
    uint64_t invalid;       /* malformed records skipped */
} hms_cumapz_bank_counts;

/* Bank conflicts of the shared records of a stream, per half-warp on
 * 16-bank architectures (cc 1.x, as the paper does) and per warp otherwise
 * (a "half" is then the whole warp). K is the bank model's conflict degree
 * (runtime/banks.h: distinct words in the busiest bank, same word =
 * broadcast, worst phase of a wide access). `known`: the stream's bank
 * results (hms_banks_stream), read per warp instead of recomputed; NULL
 * computes them. False on allocation failure. */
bool hms_cumapz_bank_conflicts(const hms_arch *a, const hms_stream *s, const hms_bank_memo *known,
                               hms_cumapz_bank_counts *out);

/* The same, fed one record at a time in stream order (a pass that reads
 * every record anyway adds them as it goes): init for a stream of n
 * records, add each record (known: its bank result, or NULL), finish once
 * (frees). False from init on allocation failure (nothing to free). */
typedef struct {
    int group;        /* lanes per part: a half-warp on 16-bank parts, else the warp */
    uint64_t *hw;     /* (block, warp, half) of each counted part, runs kept once */
    uint64_t *arrays; /* array of each shared record, runs kept once */
    size_t n_hw, n_arr;
    hms_cumapz_bank_counts counts;
} hms_cumapz_bank_acc;
bool hms_cumapz_bank_acc_init(hms_cumapz_bank_acc *acc, const hms_arch *a, size_t n);
void hms_cumapz_bank_acc_add(hms_cumapz_bank_acc *acc, const hms_arch *a, const hms_warp_access *w,
                             const hms_bank_memo *known);
void hms_cumapz_bank_acc_finish(hms_cumapz_bank_acc *acc, hms_cumapz_bank_counts *out);
void hms_cumapz_bank_acc_free(hms_cumapz_bank_acc *acc);

#endif
