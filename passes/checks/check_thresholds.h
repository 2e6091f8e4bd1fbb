/* Thresholds of the checks, in one place. Each check's docs page
 * (docs/checks/<name>.md) lists the ones it uses and why they sit where they
 * do. */
#ifndef HMS_PASSES_CHECK_THRESHOLDS_H
#define HMS_PASSES_CHECK_THRESHOLDS_H

/* hms-uncoalesced-access: fire when a site fetches at least this many times
 * the sectors its useful bytes need (2: half or less of the bytes moved are
 * used). */
#define HMS_UNCOALESCED_MIN_RATIO 2.0
/* ... and at least this many sectors more than needed per request: a warp
 * of a 16 x 16 block reading one element of each of its two rows touches 2
 * sectors where 1 would do, which the L1 absorbs and nobody should rewrite. */
#define HMS_UNCOALESCED_MIN_EXCESS 2.0
/* ... unless at most this many lanes per request take part (a quarter warp:
 * a diagonal element per row, a tile header) and the sectors it wastes are
 * under this share of all the kernel's off-chip sectors: the fix would not
 * change the kernel's traffic. */
#define HMS_UNCOALESCED_FEW_LANES 8.0
#define HMS_UNCOALESCED_NEGLIGIBLE_SHARE 0.02

/* hms-shared-bank-conflict: fire when the mean wavefronts per request are at
 * least this many times the conflict-free count (a 2-way conflict on average). */
#define HMS_BANK_CONFLICT_MIN_RATIO 2.0
/* Largest padding tried for the fix-it (one full bank cycle of 4-byte words). */
#define HMS_BANK_MAX_PAD 32

/* hms-partition-camping: fire when the busiest DRAM channel of a site's
 * concurrent accesses carries at least this many times its even share. */
#define HMS_CAMPING_MIN_FACTOR 4.0

/* hms-constant-divergence: fire when a constant read averages at least this
 * many distinct addresses per request. */
#define HMS_CONST_DIVERGENCE_MIN_DISTINCT 2.0

/* hms-shared-reuse: a buffer is never reported when the direct global reads
 * it replaces would move at least this many times the bytes the fill moves
 * (besides, the model must predict the direct variant faster). */
#define HMS_REUSE_MIN_GAIN 1.25

/* hms-divergent-access: fire when a site under a thread-dependent branch
 * issues at least this many times the requests its active lanes need
 * packed, and at least this many requests are wasted per block on average. */
#define HMS_DIVERGENCE_MIN_RATIO 2.0
#define HMS_DIVERGENCE_MIN_WASTED_PER_BLOCK 1.0
/* ... and the wasted requests are at least this share of all the kernel's
 * warp requests: one lane per warp writing its reduced result (`if (lane ==
 * 0) out[row] = sum;`) beside a row of loads costs nothing worth a change. */
#define HMS_DIVERGENCE_MIN_SHARE 0.10

/* hms-latency-hiding: CuMAPz eq. 2 saturates at 50% occupancy; below it the
 * check fires for kernels with global traffic, when raising occupancy to
 * that level is predicted to gain at least HMS_LATENCY_MIN_GAIN. */
#define HMS_LATENCY_OCCUPANCY_PCT 50.0
#define HMS_LATENCY_MIN_GAIN 1.10
/* ... and for a stated launch: a tail wave counts when the grid runs in at
 * most this many waves and rounding up to whole waves costs at least this
 * factor (1.25: a fifth of the block slots idle). With more waves the tail
 * matters less. */
#define HMS_LATENCY_TAIL_MAX_WAVES 4
#define HMS_LATENCY_TAIL_MIN_LOSS 1.25
/* ... and only when some access runs at least this many times per warp:
 * a thread with several elements of work, which more threads could share. */
#define HMS_LATENCY_SPLIT_MIN_REQUESTS 2.0

/* hms-dram-locality: report only when row-local access is predicted to gain
 * at least this much (after the roofline bounds). */
#define HMS_DRAM_MIN_GAIN 1.10

/* hms-dram-locality: fire below this row-buffer hit rate, when DRAM serves
 * at least HMS_DRAM_MIN_SHARE of the memory requests. */
#define HMS_DRAM_MIN_ROW_HIT_RATE 0.5
#define HMS_DRAM_MIN_SHARE 0.05
/* hms-dram-locality's culprit fetches at least this many times the sectors
 * its useful bytes need (a coalesced access cannot be made row-local). */
#define HMS_DRAM_SCATTER_MIN 1.25
/* ... and causes at least this share of the kernel's row misses and
 * conflicts: the gain is the kernel's with every request a row hit, which
 * an access behind a small share of the misses cannot bring (the rest come
 * from accesses the check cannot judge, e.g. data-dependent gathers). */
#define HMS_DRAM_MIN_CULPRIT_SHARE 0.25

/* hms-placement: an array read once per block counts as coalesced (its
 * shared-memory staging could not pay) when its sites fetch at most this
 * many times the sectors their bytes need. */
#define HMS_STAGING_COALESCED_MAX 1.25

#endif
