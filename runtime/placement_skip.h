/* Skipping the cache sets a placement re-simulation cannot change.
 *
 * A run with one array moved (runtime/placement_events.c) differs from the
 * run as written only in that array's lookups and in what follows from them.
 * A cache set's outcomes depend only on the sequence of lines looked up in
 * it (LRU orders by use within the set; the random policies draw from the
 * set's own generator, runtime/cache.h), so a set that sees the same
 * sequence in both runs answers the same. Such "clean" sets are answered
 * from a log of the run as written; only the "dirty" ones are simulated:
 *   - every set the moved array's records met as written (from the log) or
 *     may meet where they move (every line they touch, every L2 line under
 *     it), in each first-level cache instance and the L2;
 *   - every L2 set under a first-level line another record looks up in a
 *     dirty first-level set (its outcome, so its L2 lookups, may differ).
 * A record whose lookups all fall in clean sets touches no cache: its
 * outcome and its L2 misses (still fed to DRAM in issue order) are the
 * logged ones. Any other record is simulated with its clean-set lookups
 * answered from the log (hms_mem_hier.lookup). */
#ifndef HMS_RUNTIME_PLACEMENT_SKIP_H
#define HMS_RUNTIME_PLACEMENT_SKIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/mem_hierarchy.h"

/* One record's lookups in the run as written. */
typedef struct {
    uint32_t fl, l2, miss; /* its first entry in fl_set, l2_set, miss */
    uint32_t nfl, nl2;     /* its first-level and L2 lookups; nmiss = mo.l2_misses */
    uint32_t inst;         /* its first-level cache instance's id (0: none; see hms_skip_run) */
    hms_mem_outcome mo;    /* its outcome */
    bool logged;           /* it went through the caches */
} hms_skip_rec;

/* Every lookup of the run as written, by record. */
typedef struct {
    size_t n;
    hms_skip_rec *rec; /* [n], by record index */
    uint32_t *fl_set;  /* set << 1 | hit, per first-level lookup */
    uint32_t *l2_set;  /* set per L2 lookup */
    uint64_t *miss;    /* address per L2 miss (ascending within a record) */
    size_t nfl, nl2, nmiss, capfl, capl2, capmiss;
    bool ok;   /* false after running out of memory: unusable */
    size_t at; /* the record being logged */
    const hms_mem_hier *h;
} hms_skip_log;

/* An empty log for a stream of n records (log->ok false without memory). */
void hms_skip_log_init(hms_skip_log *log, size_t n);
void hms_skip_log_free(hms_skip_log *log);
/* Logs record i's lookups through h and fl (NULL: none) until _end. */
void hms_skip_log_begin(hms_skip_log *log, hms_mem_hier *h, const hms_cache *fl, size_t i);
/* Logs an L2 miss of the record being logged (call from the miss callback). */
void hms_skip_log_miss(hms_skip_log *log, uint64_t addr);
/* Closes the record with its outcome and removes the hook. */
void hms_skip_log_end(hms_skip_log *log, hms_mem_hier *h, const hms_mem_outcome *mo);

/* A re-simulation against a log: the dirty sets and the per-record state. */
typedef struct {
    const hms_skip_log *log;
    hms_mem_hier *h;
    uint32_t ids;      /* cache instances: 0 the L2, 1 + kind x sms + sm the first-level ones */
    uint64_t **dirty;  /* [ids] a bit per set, NULL: none dirty */
    uint8_t *fl_dirty; /* [n] the record looks up a dirty first-level set */
    /* the record being simulated with hms_mem_hier.lookup */
    const uint32_t *flc, *flend;
    const uint64_t *mc, *mend;
    const uint64_t *cur_fl; /* its first-level instance's dirty bits (NULL: none) */
    bool broken;            /* a lookup the log should hold was not there */
    bool ok;                /* false without memory */
    size_t clean, mixed;    /* records answered whole from the log / partly */
} hms_skip_run;

bool hms_skip_run_init(hms_skip_run *r, const hms_skip_log *log, hms_mem_hier *h);
void hms_skip_run_free(hms_skip_run *r);
/* Dirty: every set record i met in the logged run. */
void hms_skip_mark_logged(hms_skip_run *r, size_t i);
/* Dirty: every set p (physical, through fl, NULL: none) may meet. */
void hms_skip_mark_record(hms_skip_run *r, const hms_cache *fl, const hms_warp_access *p);
/* After every mark: flags record i when it looks up a dirty first-level
 * set (true then: call hms_skip_spread). */
bool hms_skip_fl_dirty(hms_skip_run *r, size_t i);
/* Dirties the L2 sets under the lines of flagged record i (p: as simulated,
 * the same as logged) in dirty first-level sets. */
void hms_skip_spread(hms_skip_run *r, size_t i, const hms_warp_access *p);
/* Record i (p, through fl, as logged) in the re-simulation: its logged
 * outcome and misses when all its sets are clean, else simulated with the
 * clean sets answered from the log. Misses go to `miss` in order. */
bool hms_skip_access(hms_skip_run *r, hms_cache *fl, const hms_warp_access *p, size_t i,
                     hms_l2_miss_fn miss, void *ctx, hms_mem_outcome *o);

#endif
