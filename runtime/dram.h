/* DRAM: channel, bank and row from an address; row-buffer outcomes; a G/G/1
 * queue per bank (Kingman); the arrival-weighted DRAM latency.
 * Source: Huang & Li, seeds/000_2b7270bf81dd448e.txt, Section III-C, eqs. 6-10.
 *
 * Times are SM cycles. The paper approximates the inter-arrival time of two
 * DRAM requests by the number of instructions between them; callers that only
 * have instruction counts pass them as cycles (one issued instruction = one
 * cycle). Row-buffer latencies come from the arch in ns and are converted with
 * clock_ghz. */
#ifndef HMS_RUNTIME_DRAM_H
#define HMS_RUNTIME_DRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/arch.h"

typedef enum {
    HMS_ROW_HIT = 0,  /* the bank has this row open */
    HMS_ROW_MISS,     /* the bank has no row open (first access to it) */
    HMS_ROW_CONFLICT, /* another row is open: write back, then activate */
} hms_row_outcome;

const char *hms_row_outcome_name(hms_row_outcome o);

/* Copy the bits of x selected by mask into the low bits, in order (a
 * software PEXT). */
uint64_t hms_bits_extract(uint64_t x, uint64_t mask);

/* Partition / memory controller: (addr / dram_channel_bytes) % dram_channels,
 * the interleave CuMAPz describes (256-byte channels on the C1060). */
unsigned hms_dram_channel(const hms_arch *a, uint64_t addr);

/* hms_dram_channel over addresses that mostly stay in one channel stripe
 * (dram_channel_bytes, > 0), as a warp's lanes do: the last stripe's channel
 * is reused, so a stripe costs one lookup. */
typedef struct {
    const hms_arch *a;
    uint64_t lo; /* first byte of the stripe looked up last */
    unsigned ch; /* its channel */
    bool valid;
} hms_channel_memo;

static inline hms_channel_memo hms_channel_memo_start(const hms_arch *a)
{
    return (hms_channel_memo){a, 0, 0, false};
}

/* The channel of addr; *same says whether it is the last lookup's stripe. */
static inline unsigned hms_channel_memo_of(hms_channel_memo *m, uint64_t addr, bool *same)
{
    uint64_t cb = (uint64_t)m->a->dram_channel_bytes;
    *same = m->valid && addr - m->lo < cb; /* addr below lo wraps: not the same */
    if (!*same) {
        m->lo = addr - addr % cb;
        m->ch = hms_dram_channel(m->a, addr);
        m->valid = true;
    }
    return m->ch;
}

/* Bank id: the address bits in dram_bank_bits_mask (Huang & Li: the bits that
 * are neither row, column nor byte-offset bits identify channel, rank and bank
 * together). When the mask is 0 the fallback interleave is documented in
 * docs/model.md: channel * B + (addr / (channel_bytes * channels)) % B. */
uint64_t hms_dram_bank(const hms_arch *a, uint64_t addr);

/* Row id: the address bits in dram_row_bits_mask; when the mask is 0,
 * addr / (channels * banks_per_channel * row_bytes). */
uint64_t hms_dram_row(const hms_arch *a, uint64_t addr);

/* ns -> SM cycles with arch->clock_ghz. */
double hms_dram_ns_to_cycles(const hms_arch *a, double ns);

/* Kingman's G/G/1 mean waiting time, textbook form:
 *   Wq = ((c_a^2 + c_s^2) / 2) * (rho / (1 - rho)) * tau_s,  rho = tau_s / tau_a.
 * The paper prints ((c_a + c_s)/2) * (rho/(1-rho)) * tau_a (eq. 9): the
 * coefficients of variation are not squared and the scale is tau_a; both
 * differ from Kingman (1962) and the printed form does not reduce to the
 * exact M/M/1 result. Returns false (and *wq = INFINITY) when rho >= 1 or an
 * input is negative/NaN or tau_a is 0; the caller decides how to bound it. */
bool hms_kingman_wq(double c_a, double c_s, double tau_a, double tau_s, double *wq);

/* One bank after hms_dram_evaluate. */
typedef struct {
    uint64_t id;      /* bank id (hms_dram_bank) */
    unsigned channel; /* channel of its first request */
    size_t requests, hits, misses, conflicts;
    double tau_a,
        c_a; /* inter-arrival mean (cycles) and coefficient of variation; 0 if < 2 requests */
    double tau_s, c_s;  /* service mean = eq. 8, and its coefficient of variation */
    double rho;         /* tau_s / tau_a (eq. 10); INFINITY if requests arrive together */
    double queue_delay; /* Kingman, capped (cycles); see hms_dram_evaluate */
    double latency;     /* queue_delay + tau_s (eq. 6) */
    bool saturated;     /* rho >= 1: Kingman has no steady state, delay = cap */
    bool capped;        /* the cap bound the delay (always true when saturated) */
} hms_dram_bank_stats;

typedef struct {
    uint64_t addr;
    double time;
} hms_dram_request;

/* Feed requests with hms_dram_add (any order; hms_dram_evaluate serves them
 * in time order, ties in feed order), then read the figures. */
typedef struct {
    const hms_arch *arch;
    double t_hit, t_miss, t_conflict; /* cycles */

    hms_dram_request *req;
    size_t nreq, capreq;
    bool unordered;   /* some request was fed earlier than the one before it */
    uint8_t *outcome; /* hms_row_outcome per request, feed order (after evaluate) */

    hms_dram_bank_stats *banks;
    size_t nbanks, capbanks;
    size_t *slots; /* open-addressing hash: bank id -> index + 1 */
    size_t nslots;
    /* Bank ids below ndirect (a bank mask of at most 16 bits, or the
     * fallback's channels x banks) are looked up here instead: id -> index
     * + 1, no hashing. 0: ids may be larger, the hash is used. */
    uint32_t *direct;
    size_t ndirect;

    /* Closed-loop bound, set by the caller before evaluating (0 = none): how
     * many DRAM requests the resident warps can have in flight at once. */
    double max_outstanding;
    double request_bytes; /* bytes per request for the bandwidth bound; 0 -> sector_bytes */

    uint64_t *channel_requests; /* [arch->dram_channels]: partition camping */
    unsigned nchannels;

    /* whole-stream figures (after evaluate) */
    size_t hits, misses, conflicts;
    double row_hit_rate; /* hits / requests; 0 with no requests */
    double service;      /* arrival-weighted mean service (cycles) */
    double queue_delay;  /* arrival-weighted mean queue delay (cycles) */
    double latency;      /* DRAM_lat, eq. 7 (cycles) */
    size_t saturated_banks;
    bool any_capped;
} hms_dram_model;

/* Validates the arch's DRAM fields; on error writes "file: field: reason". */
bool hms_dram_init(hms_dram_model *m, const hms_arch *a, char *err, size_t errlen);
/* Records one request; false on allocation failure or a negative/NaN time. */
bool hms_dram_add(hms_dram_model *m, uint64_t addr, double time);
/* Classifies every request and computes all figures; can be re-run after
 * more hms_dram_add calls. False (with err) only on allocation failure.
 * A bank's queue delay is Kingman's, capped at the smaller of
 *   (n-1)/2 * tau_s  the mean FIFO wait if all n of its requests arrived at
 *                    once (no arrival pattern of n requests waits longer);
 *   (N-1) * tau_s    the wait behind every other request that can be in
 *                    flight at the bank in a closed system, N = max(1, its
 *                    share n/total of max_outstanding);
 *   max_outstanding * request_bytes / bandwidth
 *                    the time the whole DRAM system needs, at the arch's
 *                    peak bandwidth (measured if known), to drain every
 *                    request that can be outstanding (Little's law). The
 *                    paper's service times are access latencies, not bank
 *                    occupancy, so without this bound a streaming kernel
 *                    would be held to a small fraction of the real bandwidth.
 * The last two apply only with max_outstanding > 0 (the last also needs a
 * bandwidth in the arch).
 * Saturated banks (rho >= 1) take the cap and are flagged. */
bool hms_dram_evaluate(hms_dram_model *m, char *err, size_t errlen);
/* Outcome of the i-th request fed (feed order); valid after evaluate. */
hms_row_outcome hms_dram_outcome(const hms_dram_model *m, size_t i);
const hms_dram_bank_stats *hms_dram_find_bank(const hms_dram_model *m, uint64_t bank_id);
void hms_dram_free(hms_dram_model *m);

#endif
