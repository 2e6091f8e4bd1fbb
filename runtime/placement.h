/* The Huang & Li placement model: predicted kernel time for each candidate
 * memory space of one array, T = T_comp + T_mem - T_overlap.
 * Source: seeds/000_2b7270bf81dd448e.txt, eqs. 1-5, 11-19 (Sections III-B to
 * III-D and the Appendix); docs/model.md "Placement model" lists every
 * default and choice made where the paper is silent.
 *
 * Inputs: the kernel under its current placement (hms_placement_kernel), the
 * array (hms_placement_array), and for each candidate space the event counts
 * of the kernel with the array moved there (hms_placement_events, produced by
 * runtime/placement_events.h from an access stream). All counts are totals
 * over the launch unless the field says "per warp". */
#ifndef HMS_RUNTIME_PLACEMENT_H
#define HMS_RUNTIME_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/arch.h"
#include "runtime/stream.h"

typedef enum {
    HMS_PLACE_GLOBAL = 0,
    HMS_PLACE_READONLY, /* __ldg / const __restrict__ through the read-only cache */
    HMS_PLACE_TEXTURE1D,
    HMS_PLACE_TEXTURE2D,
    HMS_PLACE_CONSTANT,
    HMS_PLACE_SHARED,
    HMS_PLACE_COUNT
} hms_placement_space;

/* JSON names: global, readonly, texture1d, texture2d, constant, shared. */
const char *hms_placement_space_name(hms_placement_space s);
/* The stream space an access takes in this placement. */
hms_space hms_placement_stream_space(hms_placement_space s);
/* The placement of an array the IR puts in stream space `s` (tex_dims: 1 or
 * 2 for textures). False for local memory, which is not a placement choice. */
bool hms_placement_from_space(hms_space s, int tex_dims, hms_placement_space *out);

/* Addressing-mode instructions to form one element address (paper Section
 * III-B, Fig. 2): global 2, 1D texture 0, constant 1, shared 1. Not in the
 * paper: read-only 2 (the same 64-bit address arithmetic as global, only the
 * load differs) and 2D texture 2 (tex2D takes float coordinates: two integer
 * to float conversions). */
int hms_placement_addr_insts(hms_placement_space s);
/* The same on architecture a: where texture fetches, __ldg and global loads
 * share one L1 (a->unified_l1_texture, Volta on), a 1D texture fetch is
 * charged what a read-only load is. The paper's saving of the index-to-
 * address arithmetic was measured on Kepler's separate texture path; on the
 * unified one the fetch is issued through the same L1 pipeline and the
 * texture unit handles fewer lanes per clock than the L1 does, so the model
 * credits it nothing over __ldg (our choice; not measured). */
int hms_placement_addr_insts_on(const hms_arch *a, hms_placement_space s);

/* Capacity limits (CUDA C Programming Guide): 64 KB of __constant__ per
 * program; 2^27 texels for a 1D texture bound to linear memory. */
#define HMS_CONSTANT_CAPACITY 65536.0
#define HMS_TEXTURE1D_MAX_TEXELS 134217728.0

/* What staging an off-chip array in shared memory could gain: it pays
 * through reuse by other threads of the block, or by coalescing reads
 * the threads make uncoalesced. */
typedef enum {
    HMS_STAGING_MAY_PAY = 0, /* the model decides */
    HMS_STAGING_OWN_THREAD,  /* reuse is each thread's own: a register's to serve */
    HMS_STAGING_READ_ONCE,   /* each element read once per block, by coalesced loads */
} hms_staging_use;

/* The kernel under its current placement; the same for every candidate. */
typedef struct {
    double total_warps;  /* warps in the launch */
    double active_sms;   /* SMs with work */
    double warps_per_sm; /* N: resident warps per SM */
    double inst_issued;  /* issued instructions per warp, current placement:
                            executed + every replay (paper: #inst counts issued) */
    double mem_insts;    /* memory instructions per warp, all arrays (placement-independent) */
    double ilp, mlp;     /* 0 -> 1 (one independent instruction / memory request per warp) */
    double avg_inst_lat; /* cycles; 0 -> HMS_PLACEMENT_DEFAULT_INST_LAT */
    double w_serial;     /* cycles: sync + SFU + divergence (eq. 16), same in every placement */
    double dram_channel_factor; /* partition camping: the DRAM bandwidth the launch can use is
                                   the peak over this (>= 1; 0 -> 1), placement-independent */
    double constant_bytes_used; /* by the kernel's other __constant__ arrays */
    double shared_bytes_per_block_used; /* by the other shared arrays (static + dynamic) */
} hms_placement_kernel;

/* Paper: "the latency of FP operations approximates avg_inst_lat". No
 * figure is printed; 10 cycles is a typical dependent FP32 latency on
 * Kepler to Hopper. Only matters when ILP * N < avg_inst_lat (low occupancy). */
#define HMS_PLACEMENT_DEFAULT_INST_LAT 10.0

typedef struct {
    const char *name;
    hms_placement_space current;
    bool written;                  /* stored to or updated atomically by the kernel */
    double bytes;                  /* whole array; <= 0 unknown */
    double shared_bytes_per_block; /* what one block would need in shared; <= 0 -> bytes */
    double elements;               /* <= 0 unknown */
    hms_staging_use staging;       /* what a shared-memory copy could gain */
} hms_placement_array;

/* Groups of the overlap model (eq. 11). readonly fetches go through the
 * texture cache hardware (Mei & Chu), so they count as texture. */
typedef enum {
    HMS_OVL_GLOBAL = 0,
    HMS_OVL_CONSTANT,
    HMS_OVL_TEXTURE,
    HMS_OVL_SHARED,
    HMS_OVL_GROUPS
} hms_overlap_group;

/* arch->overlap_coeff[] is indexed by HMS_OVERLAP_* (runtime/arch.h). The
 * event terms are divided by the kernel's memory requests; warps is the raw
 * count of resident warps per SM, as in eq. 11.
 * Defaults used when an arch carries no overlap coefficients (all zero):
 * no event terms, w = 0.8 / max_warps_per_sm, intercept 0.1, so the ratio
 * runs from 0.1 (one warp) to 0.9 (a full SM). Not fitted. */
void hms_overlap_default_coeffs(const hms_arch *a, double out[HMS_OVERLAP_COUNT]);

/* The kernel's memory traffic with the array in one space. Event terms of
 * eq. 11 are divided by `requests` (the paper: "event ratio instead of the
 * absolute event numbers"), so coefficients carry over between kernels. */
typedef struct {
    double requests;        /* warp-level memory requests, all spaces */
    double dram_requests;   /* requests with >= 1 transaction served by DRAM */
    double shared_requests; /* requests to shared memory */
    double group_requests[HMS_OVL_GROUPS];
    double group_events[HMS_OVL_GROUPS];        /* L2 misses of global accesses; constant
                                                   cache misses; texture/read-only cache
                                                   misses; shared bank conflicts */
    double row_hits, row_misses, row_conflicts; /* DRAM row-buffer outcomes */
    double dram_latency;                        /* cycles, eq. 7 */
    double hit_latency;   /* mean latency of the off-chip requests a cache served (cycles);
                             0 -> the L2 hit latency for every cache, as in the paper */
    double dram_bytes;    /* bytes moved between L2 and DRAM (MWP_peak_bw) */
    double replays;       /* replays (1)-(4) of every access of the kernel: executed + replays =
                             issued instructions */
    double const_replays; /* the constant cache's share of `replays` (misses, divergent
                             addresses): its own unit, not the L1 / shared-memory pipe */
    bool dram_saturated;  /* a DRAM bank queue had rho >= 1 */
} hms_kernel_traffic;

/* The inputs eq. 11 weighs, in HMS_OVERLAP_* order: the event ratios
 * (events + requests) / requests per group, row misses and conflicts per
 * request (all 0 without requests), `warps` (resident warps per SM) and 1
 * for the intercept. `hms-lint calibrate` fits the coefficients to them. */
void hms_overlap_inputs(const hms_kernel_traffic *t, double warps, double x[HMS_OVERLAP_COUNT]);

/* One array in one space. */
typedef struct {
    hms_placement_space space;
    double requests;   /* warp-level memory instructions on this array */
    double addr_insts; /* addressing-mode instructions: requests * hms_placement_addr_insts */
    double replay_global_div;        /* (1) sum of (transactions - 1) over requests */
    double replay_const_miss;        /* (2) constant cache misses */
    double replay_const_div;         /* (3) sum of (distinct addresses - 1) */
    double replay_bank_conflict;     /* (4) sum of (wavefronts - 1) */
    double cache_hits, cache_misses; /* in the space's own cache (L1 / texture / read-only /
                                        constant); 0 for shared */
    double copy_bytes; /* shared target of an off-chip array: the bytes every block copies
                          in from global memory before use, summed over blocks */
    hms_kernel_traffic kernel;
} hms_placement_events;

/* Replays (1)-(4) of one event record. */
double hms_placement_replays(const hms_placement_events *e);

/* Legality of moving `arr` to `s`: capacity (64 KB constant in all, shared
 * per block from the arch, 2^27 texels for a 1D texture), write-ability
 * (arrays the kernel writes cannot live in constant, texture or read-only
 * memory, and a written array does not move into shared memory, whose
 * contents die with the block), and the read-only cache's presence. The
 * current space is always legal. Writes a reason either way (for legal ones,
 * a short note such as "current placement"). An off-chip array does not
 * move into shared memory when its staging cannot pay (arr->staging): reuse
 * that is each thread's own is a register's (or the L1's) to serve, and
 * elements read once by coalesced loads would only be copied. */
bool hms_placement_legal(const hms_arch *a, const hms_placement_kernel *k,
                         const hms_placement_array *arr, hms_placement_space s, char *reason,
                         size_t reasonlen);

/* The model's figures for one placement. */
typedef struct {
    double inst;            /* issued instructions per warp (eq. 3 applied) */
    double itilp;           /* eq. 14 */
    double t_comp;          /* eq. 2, cycles */
    double amat;            /* eq. 5 */
    double mwp, cwp, itmlp; /* eqs. 18-19 */
    double eff_requests;    /* eq. 17 */
    double t_mem;           /* eq. 4 */
    double overlap_ratio;   /* eq. 11, clamped to [0, 1] */
    bool overlap_clamped;
    double t_overlap; /* eq. 12, or Hong & Kim's cases (arch overlap_hong_kim) */
    double t_pipe;    /* memory-pipe passes per SM (requests + replays) x pass cycles */
    double t_copy;    /* filling shared memory from global (paper Section III-B) */
    double time;      /* max(eq. 1, t_pipe), plus t_copy */
} hms_placement_breakdown;

/* Predicts one placement: `current` holds the array's events in its current
 * space (the sample placement), `target` those in the candidate space.
 * Moving an off-chip array to shared memory adds the initialisation copy the
 * paper estimates from data size and bandwidth: copy_bytes in line-sized
 * requests at DRAM latency (+ hit latency), as many in flight per SM as
 * ITMLP allows, not overlapped (a barrier follows the fill). False
 * with a reason on inconsistent input. `coefficients_default` (may be NULL)
 * says whether the overlap coefficients were defaults. */
bool hms_placement_predict(const hms_arch *a, const hms_placement_kernel *k,
                           const hms_placement_events *current, const hms_placement_events *target,
                           hms_placement_breakdown *out, bool *coefficients_default, char *err,
                           size_t errlen);

typedef struct {
    hms_placement_space space;
    bool legal;
    bool evaluated; /* legal and events were given */
    char reason[200];
    hms_placement_breakdown model;
    double time;    /* = model.time, 0 unless evaluated */
    double speedup; /* time(current) / time, 0 unless evaluated */
} hms_placement_candidate_result;

typedef struct {
    hms_placement_candidate_result options[HMS_PLACE_COUNT]; /* indexed by space */
    hms_placement_space order[HMS_PLACE_COUNT];              /* ranking: evaluated options by
                                                                 time, then legal unevaluated,
                                                                 then illegal */
    hms_placement_space current, best;
    bool coefficients_default;
} hms_placement_ranking;

/* Ranks every space for one array. `cands` holds events for any subset of
 * spaces (at most one per space) and must include the current space. Legal
 * spaces without events are listed as not evaluated. Ties keep the current
 * placement first. False with a reason on bad input. */
bool hms_placement_rank(const hms_arch *a, const hms_placement_kernel *k,
                        const hms_placement_array *arr, const hms_placement_events *cands,
                        size_t ncands, hms_placement_ranking *out, char *err, size_t errlen);

#endif
