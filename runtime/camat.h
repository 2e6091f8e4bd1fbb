/* C-AMAT (Concurrent Average Memory Access Time) on one SM's timeline.
 * Source: Zhang, Jiang, Sun & Song, seeds/003_b03420075c499a6c.txt,
 * Section 2.2, eqs. 1-2 (after Sun & Wang 2014):
 *   C-AMAT = T_MemCycle / C_MemAcc = H / C_H + pMR * pAMP / C_M.
 * An access is one warp-level access: a hit when every lane hits, else a miss.
 * Each access occupies `hit_cycles` cycles of hit activity from its start;
 * a miss then waits `miss_cycles` more (its miss penalty). A cycle with a miss
 * waiting and no hit activity is a pure-miss cycle (on a GPU: no warp on the
 * SM has a memory access making progress). */
#ifndef HMS_RUNTIME_CAMAT_H
#define HMS_RUNTIME_CAMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/stream.h"

typedef struct {
    uint64_t start;       /* first cycle of the access */
    uint32_t hit_cycles;  /* hit phase: cycles [start, start + hit_cycles) */
    uint32_t miss_cycles; /* miss penalty after the hit phase; 0 for a hit */
} hms_camat_access;

typedef struct {
    uint64_t accesses;           /* C_MemAcc */
    uint64_t mem_cycles;         /* T_MemCycle: cycles with >= 1 access outstanding */
    uint64_t hits, misses;       /* warp-level hits and misses */
    uint64_t hit_cycles;         /* cycles with hit activity */
    uint64_t hit_access_cycles;  /* sum over accesses of hit-phase cycles */
    uint64_t pure_cycles;        /* pure-miss cycles */
    uint64_t pure_access_cycles; /* sum over accesses of their pure-miss cycles */
    uint64_t pure_misses;        /* accesses with at least one pure-miss cycle */
    double h;                    /* mean hit time: hit_access_cycles / accesses */
    double c_h;                  /* hit concurrency: hit_access_cycles / hit_cycles */
    double pmr;                  /* pure miss ratio: pure_misses / accesses */
    double pamp;                 /* pure-miss cycles per pure-miss access */
    double c_m;                  /* pure-miss concurrency: pure_access_cycles / pure_cycles */
    double camat;                /* eq. 1: mem_cycles / accesses */
    double camat5;               /* eq. 2: h / c_h + pmr * pamp / c_m (equal to camat) */
} hms_camat_result;

/* Evaluates a timeline (any order). With no accesses every figure is 0; the
 * pure-miss term is 0 when there is no pure miss. pure_per_access, if not
 * NULL, receives each access's pure-miss cycles (n entries). False with a
 * reason on an access with hit_cycles = 0 or on allocation failure. */
bool hms_camat_evaluate(const hms_camat_access *acc, size_t n, hms_camat_result *out,
                        uint64_t *pure_per_access, char *err, size_t errlen);

/* Issue model for building a timeline from a stream (docs/model.md, C-AMAT):
 *  - an SM runs the blocks with block % n_sms == sm (round-robin CTA
 *    assignment, as the paper describes the block scheduler); n_sms = 1
 *    puts every record on one SM;
 *  - the SM's load/store unit issues one warp access per cycle, in stream
 *    order (the order the warps issue in);
 *  - a warp issues in order: its next access can start no earlier than
 *    (previous issue cycle) + (difference of the records' `time` fields),
 *    at least one cycle later; a warp does not wait for its own misses
 *    (loads block only at first use, which the stream does not carry);
 *  - an access takes hit_latency cycles of hit activity, and a miss then
 *    miss_latency - hit_latency more (miss_latency is the whole latency of a
 *    miss; a per-record override may be given). */
typedef struct {
    uint32_t hit_latency;             /* cycles */
    uint32_t miss_latency;            /* cycles, >= hit_latency */
    const uint32_t *miss_latency_per; /* optional, one per stream record; 0 = use miss_latency */
    unsigned sm, n_sms;
} hms_camat_issue;

/* hit[i] tells whether record i of the stream was a warp-level hit. Records
 * with no active lane are skipped. Returns a malloc'd array in *out (free it)
 * and its length in *n. False with a reason on bad parameters (n_sms = 0,
 * sm >= n_sms, miss latency below hit latency, hit latency 0) or on
 * allocation failure. */
bool hms_camat_timeline(const hms_stream *s, const bool *hit, const hms_camat_issue *p,
                        hms_camat_access **out, size_t *n, char *err, size_t errlen);

#endif
