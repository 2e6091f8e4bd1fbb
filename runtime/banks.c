/* Shared-memory bank model (see banks.h and docs/model.md "Shared-memory
 * banks"). */
#include "runtime/banks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coalesce.h"

#define MAX_BANKS 64
#define DEFAULT_BANKS 32
#define DEFAULT_BANK_BYTES 4

/* Passes for the lanes in `lanes` (a mask within one phase) under the generic
 * rule: max over banks of the distinct bank words held. Each bank keeps a
 * list of its distinct words (a lane's word is looked for only among its
 * bank's, which are few unless the access conflicts), so no sort is needed.
 * A bank serves its k-th distinct word (in the order of the lowest lane
 * reading it) in pass k; values[k], unless values is NULL, is set to the
 * 32-bit values that pass delivers to lanes. The record is valid (width <=
 * 16), and bank_bytes is 4 or 8. */
static uint32_t passes_by_words(const hms_warp_access *a, uint32_t lanes, uint32_t banks,
                                uint32_t bank_bytes, uint32_t values[HMS_WARP_UNITS_MAX])
{
    uint64_t word[HMS_WARP_UNITS_MAX];
    uint16_t next[HMS_WARP_UNITS_MAX]; /* the bank's previous distinct word, or NONE */
    uint16_t pass[HMS_WARP_UNITS_MAX]; /* the pass that serves the word */
    enum { NONE = 0xffff };
    uint16_t head[MAX_BANKS];
    uint32_t per_bank[MAX_BANKS];
    memset(head, 0xff, banks * sizeof *head);
    memset(per_bank, 0, banks * sizeof *per_bank);
    int sh = __builtin_ctz(bank_bytes);
    uint32_t bank_mask = (banks & (banks - 1)) == 0 ? banks - 1 : 0; /* power of two: a mask */
    uint32_t most = 0;
    uint16_t n = 0;
    while (lanes) {
        int l = __builtin_ctz(lanes);
        lanes &= lanes - 1;
        uint64_t lo = a->addr[l], hi = a->addr[l] + a->width; /* the lane's bytes [lo, hi) */
        uint64_t first = lo >> sh, last = (hi - 1) >> sh;
        for (uint64_t u = first; u <= last; u++) {
            uint32_t b = bank_mask ? (uint32_t)(u & bank_mask) : (uint32_t)(u % banks);
            uint16_t i = head[b];
            while (i != NONE && word[i] != u)
                i = next[i];
            if (i == NONE) { /* a new word: its bank's next pass serves it */
                word[n] = u;
                next[n] = head[b];
                pass[n] = (uint16_t)per_bank[b];
                if (values && pass[n] == most) /* the first word of a new pass */
                    values[most] = 0;
                head[b] = i = n++;
                if (++per_bank[b] > most)
                    most = per_bank[b];
            } /* else this word again: one access serves both */
            if (values) {
                uint32_t lane_values = (a->width + 3u) / 4u; /* the lane's bytes in word u */
                if (first != last) {
                    uint64_t from = u << sh > lo ? u << sh : lo,
                             to = (u + 1) << sh < hi ? (u + 1) << sh : hi;
                    lane_values = (uint32_t)(to - from + 3) / 4;
                }
                values[pass[i]] += lane_values;
            }
        }
    }
    return most;
}

/* cc 1.x sub-word reads (CUDA C Programming Guide 3.x, G.3.3): each pass
 * picks one broadcast word, serving every lane that reads inside it, plus one
 * address for each other bank. So distinct bytes in one non-broadcast word
 * still serialise. The guide does not say which word is picked; we take the
 * word of the lowest-numbered lane still waiting. */
static uint32_t passes_cc1x_subword(const hms_warp_access *a, uint32_t lanes, uint32_t banks,
                                    uint32_t bank_bytes, uint32_t values[HMS_WARP_UNITS_MAX])
{
    uint32_t passes = 0;
    while (lanes) {
        passes++;
        int l0 = __builtin_ctz(lanes);
        uint64_t bword = a->addr[l0] / bank_bytes;
        uint32_t bank_done = 1u << (bword % banks); /* banks banks <= 16 here */
        uint32_t served = 0;
        for (int l = 0; l < HMS_WARP_LANES; l++)
            if ((lanes >> l & 1u) && a->addr[l] / bank_bytes == bword)
                served |= 1u << l;
        for (int l = 0; l < HMS_WARP_LANES; l++) {
            if (!(lanes >> l & 1u) || (served >> l & 1u))
                continue;
            uint32_t bank = (uint32_t)((a->addr[l] / bank_bytes) % banks);
            if (bank_done >> bank & 1u)
                continue;
            bank_done |= 1u << bank;
            for (int m = l; m < HMS_WARP_LANES; m++) /* lanes sharing the address */
                if ((lanes >> m & 1u) && a->addr[m] == a->addr[l])
                    served |= 1u << m;
        }
        lanes &= ~served;
        values[passes - 1] = (uint32_t)__builtin_popcount(served); /* one value per lane */
    }
    return passes;
}

bool hms_banks_warp(const hms_arch *arch, const hms_warp_access *a, hms_bank_result *out)
{
    memset(out, 0, sizeof *out);
    uint32_t banks = arch->shared_banks > 0 ? (uint32_t)arch->shared_banks : DEFAULT_BANKS;
    uint32_t bank_bytes =
        arch->shared_bank_bytes > 0 ? (uint32_t)arch->shared_bank_bytes : DEFAULT_BANK_BYTES;
    if (banks > MAX_BANKS || (bank_bytes != 4 && bank_bytes != 8))
        return false;
    if (!hms_access_check(a, NULL, 0))
        return false;

    /* Lanes per phase: as many as fill the banks once, at most one half-warp
     * on 16-bank parts (cc 1.x serves half-warps separately) and one warp
     * otherwise. */
    uint32_t group_cap = banks < HMS_WARP_LANES ? banks : HMS_WARP_LANES;
    uint32_t per_phase = banks * bank_bytes / a->width;
    if (per_phase > group_cap)
        per_phase = group_cap;
    if (per_phase == 0)
        per_phase = 1;
    bool cc1x_subword = banks == 16 && a->width < 4;
    /* Cycles a pass: by its values on cc 2.x, else the same for every pass. */
    double full = hms_banks_pass_cycles(arch);
    bool by_values = full > 1 && hms_banks_pass_cycles_for(arch, 1) < full;

    for (uint32_t first = 0; first < HMS_WARP_LANES; first += per_phase) {
        uint32_t group = per_phase >= 32 ? UINT32_MAX : ((1u << per_phase) - 1u) << first;
        uint32_t lanes = a->mask & group;
        if (!lanes)
            continue;
        uint32_t values[HMS_WARP_UNITS_MAX]; /* [pass]: each set before use */
        uint32_t p = cc1x_subword
                         ? passes_cc1x_subword(a, lanes, banks, bank_bytes, values)
                         : passes_by_words(a, lanes, banks, bank_bytes, by_values ? values : NULL);
        if (!by_values)
            out->cycles += p * (uint32_t)full;
        for (uint32_t k = 0; by_values && k < p; k++)
            out->cycles += (uint32_t)hms_banks_pass_cycles_for(arch, values[k]);
        out->phases++;
        out->wavefronts += p;
        if (p > out->ways)
            out->ways = p;
    }
    return true;
}

uint64_t hms_banks_period(const hms_arch *arch)
{
    uint64_t banks = arch->shared_banks > 0 ? (uint64_t)arch->shared_banks : DEFAULT_BANKS;
    uint64_t bytes =
        arch->shared_bank_bytes > 0 ? (uint64_t)arch->shared_bank_bytes : DEFAULT_BANK_BYTES;
    return banks * bytes;
}

/* Mei & Chu Table VIII columns: no conflict, 2, 4, 8, 16, 32 ways. */
static const double table_ways[HMS_ARCH_MAX_CONFLICT_WAYS] = {1, 2, 4, 8, 16, 32};

double hms_banks_latency(const hms_arch *arch, double ways)
{
    if (!(ways > 0))
        return 0.0;
    double x[HMS_ARCH_MAX_CONFLICT_WAYS], y[HMS_ARCH_MAX_CONFLICT_WAYS];
    int n = 0;
    for (int i = 0; i < HMS_ARCH_MAX_CONFLICT_WAYS; i++) {
        if (arch->shared_latency[i] > 0) {
            x[n] = table_ways[i];
            y[n] = arch->shared_latency[i];
            n++;
        }
    }
    if (n == 0)
        return 0.0;
    if (n == 1 || ways <= x[0])
        return y[0]; /* below the first measured point: no faster than it */
    int hi = 1;
    while (hi < n - 1 && x[hi] < ways)
        hi++;
    /* [x[hi-1], x[hi]] brackets `ways`, or is the last segment to extrapolate. */
    double t = (ways - x[hi - 1]) / (x[hi] - x[hi - 1]);
    return y[hi - 1] + t * (y[hi] - y[hi - 1]);
}

double hms_banks_request_latency(const hms_arch *arch, const hms_bank_result *r)
{
    return hms_banks_latency(arch, (double)r->wavefronts);
}

double hms_banks_pass_cycles(const hms_arch *arch)
{
    return arch->cc_major > 0 && arch->cc_major < 3 ? 2.0 : 1.0;
}

double hms_banks_pass_cycles_for(const hms_arch *arch, uint32_t lane_words)
{
    double full = hms_banks_pass_cycles(arch);
    /* cc 1.x has no load/store units: the 8 SPs issue the access, a pass is
     * a half-warp issue (16 lanes over 8 SPs) whatever lanes it serves. */
    if (arch->cc_major > 0 && arch->cc_major < 2)
        return full;
    uint32_t banks = arch->shared_banks > 0 ? (uint32_t)arch->shared_banks : DEFAULT_BANKS;
    uint32_t bank_bytes =
        arch->shared_bank_bytes > 0 ? (uint32_t)arch->shared_bank_bytes : DEFAULT_BANK_BYTES;
    /* 32-bit values the array delivers per cycle: cc 2.x 32 x 4 B / 2 = 16,
     * the width of its 16 LD/ST units. */
    double per_cycle = banks * (bank_bytes / 4.0) / full;
    return fmin(full, fmax(1.0, ceil(lane_words / per_cycle)));
}

/* Bank passes one issue slot covers (hms_banks_replay_slots). */
static double passes_per_issue(const hms_arch *arch)
{
    double per_issue = 1;
    if (arch->cc_major > 0 && arch->cc_major < 7 && arch->simd_width > 0 && arch->warp_size > 0) {
        double issue_cycles = (double)arch->warp_size / arch->simd_width;
        per_issue = floor(issue_cycles / hms_banks_pass_cycles(arch));
        if (per_issue < 1)
            per_issue = 1;
    }
    return per_issue;
}

double hms_banks_replay_slots(const hms_arch *arch, const hms_bank_result *b)
{
    if (b->wavefronts == 0)
        return 0;
    return fmax(0.0, ceil(b->cycles / hms_replay_sm_cycles(arch)) - 1);
}

double hms_replay_sm_cycles(const hms_arch *arch)
{
    return passes_per_issue(arch) * hms_banks_pass_cycles(arch);
}
