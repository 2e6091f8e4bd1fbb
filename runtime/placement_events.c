/* Placement event counts by re-simulating a stream with one array moved
 * (Huang & Li, seeds/000_2b7270bf81dd448e.txt, Sections III-B, III-E, IV).
 * See placement_events.h for the rules. */
#include "runtime/placement_events.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/banks.h"
#include "runtime/cache.h"
#include "runtime/coalesce.h"
#include "runtime/constmem.h"
#include "runtime/dram.h"
#include "runtime/issue_order.h"
#include "runtime/mem_hierarchy.h"
#include "runtime/units_memo.h"
#include "runtime/placement_skip.h"
#include "runtime/placement_summary.h"

#define REGION_CONSTANT (1ull << 40)
#define REGION_LOCAL (1ull << 41)
#define REGION_SHARED_SLABS (3ull << 40)
#define SLAB_ALIGN 256u

typedef struct {
    const hms_arch *a;
    const char *origin;
    hms_mem_hier h; /* the caches (runtime/mem_hierarchy.h) */
    bool h_ready;
    hms_units_memo *units; /* the stream's units (may be NULL) */
    /* the bank result of record `at` in its own (shared) space, from
     * opts.banks; NULL: computed */
    const hms_bank_memo *bank;
    hms_dram_model dram;
    bool dram_ready;
    char *err;
    size_t errlen;
    /* Per-record cache outcomes (indexed by `at`, the record being
     * simulated): `keep` records them, `known` replays them instead of
     * simulating the caches and DRAM (see reference_for). */
    size_t at;
    hms_mem_outcome *keep;
    const hms_mem_outcome *known;
    /* `log` records the lookups of the stream as written; `skip` answers a
     * moved run's clean sets from it for records with skip_rec set (those
     * not moved). See runtime/placement_skip.h. */
    hms_skip_log *log;
    hms_skip_run *skip;
    bool skip_rec;
} sim;

/* Each record's cache outcome in one earlier run and that run's DRAM
 * figures. A later run whose records all meet the same caches at the same
 * addresses in the same order replays them instead of simulating: only what
 * the model counts per space (replays, overlap groups, hit latency)
 * differs. */
typedef struct {
    bool done;
    double key[7];                    /* the launch it ran for (launch_key) */
    uint32_t array;                   /* the array moved (unused for the stream as written) */
    hms_space tspace;                 /* where it moved */
    hms_fl_kind route;                /* the cache the moved array's records met */
    hms_mem_outcome *mo;              /* [n] */
    hms_kernel_traffic dram;          /* its row_*, dram_latency, dram_saturated and sums */
    double l2_misses, hit_sum, hit_n; /* its tally (see delta_run) */
    bool exact_sums;                  /* every sum an integer below 2^53 (delta_run) */
} outcomes;

struct hms_placement_events_memo {
    const hms_stream *s; /* what the memo describes (with n and the arch) */
    size_t n;
    const hms_arch *a;
    hms_timed *order;    /* issue order, for order_key */
    double order_key[4]; /* bps, sms, warps_per_sm, cpi */
    /* Positions in `order` of each array's records (array a's are
     * at_pos[at_off[a] .. at_off[a + 1]]), made once per order. */
    size_t *at_off, *at_pos;
    size_t at_narrays;
    double *replay; /* [n] a record's replays in its own space */
    uint8_t *have;  /* [n] replay[i] is known */
    /* A moved record's LSU replays (lines - 1, or the cc 1.x half-warp
     * transactions - 1): the same in every target space read through the
     * LSU, so computed once per record and rule class ([2n], by i x 2 +
     * half-warp rule). */
    double *mv_replay;
    uint8_t *mv_have;
    /* The stream as written (every array in the space its records use) is
     * one simulation whatever array is asked about: it is run once with
     * every array's own counts, and later such calls read them here. */
    bool ident_done;
    double ident_key[7];         /* the launch it was run for */
    hms_kernel_traffic ident_kt; /* kernel-wide, unscaled */
    hms_placement_events *ident; /* [nident] per array, unscaled */
    size_t nident;
    outcomes written; /* the ident run's outcomes */
    hms_skip_log log; /* the ident run's lookups, when log_done */
    bool log_done;
    double log_key[7];
    /* records the log holds, per array and in all (when logged_done) */
    size_t *logged;
    size_t logged_all;
    bool logged_done;
    hms_stream_summary sum; /* when sum_done */
    bool sum_done;
    size_t skip_clean, skip_mixed; /* records the skip answered, for tests */
    size_t deltas;                 /* runs summed by delta_run, for tests */
    outcomes moved;                /* the last run with an array moved */
    /* The last moved-array run: texture1d and texture2d are one stream
     * space, so the second of them is read from here. */
    bool last_done;
    uint32_t last_array;
    hms_space last_space;
    double last_key[9];
    hms_placement_events last; /* unscaled */
    /* Caches of the last simulation, kept for the next one (reset in O(1)
     * instead of allocated and page-faulted in again). */
    bool caches_kept;
    hms_mem_hier h;
};

static const char *arch_origin(const hms_arch *a)
{
    return a->source_path[0] ? a->source_path : a->name[0] ? a->name : "<arch>";
}

/* `keep`: hand the caches to the memo instead of freeing them. */
static void sim_free(sim *m, hms_placement_events_memo *keep)
{
    if (m->h_ready && keep && !keep->caches_kept) {
        keep->caches_kept = true;
        keep->h = m->h;
    } else if (m->h_ready) {
        hms_mem_hier_free(&m->h);
    }
    if (m->dram_ready)
        hms_dram_free(&m->dram);
}

static bool sim_init(sim *m, const hms_arch *a, unsigned sms, hms_placement_events_memo *memo,
                     char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->a = a;
    m->origin = arch_origin(a);
    m->err = err;
    m->errlen = errlen;
    if (memo && memo->caches_kept && memo->h.sms == sms) { /* reuse, emptied */
        m->h = memo->h;
        memo->caches_kept = false;
        hms_mem_hier_reset(&m->h);
    } else {
        if (memo && memo->caches_kept) { /* another SM count: start afresh */
            hms_mem_hier_free(&memo->h);
            memo->caches_kept = false;
        }
        if (!hms_mem_hier_init(&m->h, a, sms, err, errlen))
            return false;
    }
    m->h_ready = true;
    if (!hms_dram_init(&m->dram, a, err, errlen))
        return false;
    m->dram_ready = true;
    return true;
}

/* The SM's first-level cache of kind k (NULL: none, all misses). */
static bool first_level_cache(sim *m, hms_fl_kind k, unsigned sm, hms_cache **out)
{
    if (hms_mem_first_level(&m->h, k, sm, out))
        return true;
    snprintf(m->err, m->errlen, "%s: out of memory for a first-level cache", m->origin);
    return false;
}

/* An L2 miss: a DRAM request at the record's time. */
typedef struct {
    sim *m;
    double time;
} dram_feed;

static bool to_dram(void *ctx, uint64_t addr)
{
    dram_feed *f = ctx;
    if (f->m->log)
        hms_skip_log_miss(f->m->log, addr);
    if (hms_dram_add(&f->m->dram, addr, f->time))
        return true;
    snprintf(f->m->err, f->m->errlen, "%s: out of memory recording DRAM requests", f->m->origin);
    return false;
}

/* One record through a first-level cache (NULL: everything misses) and then
 * L2; L2 misses become DRAM requests at `time`. */
static bool through_caches(sim *m, hms_cache *fl, const hms_warp_access *p, double time,
                           hms_mem_outcome *out)
{
    if (m->known) {
        *out = m->known[m->at];
        return true;
    }
    memset(out, 0, sizeof *out);
    dram_feed f = {m, time};
    bool ok;
    if (m->skip && m->skip_rec) {
        ok = hms_skip_access(m->skip, fl, p, m->at, to_dram, &f, out);
    } else {
        uint64_t buf[HMS_WARP_UNITS_MAX];
        const uint64_t *units;
        size_t n = hms_units_of(m->units, m->at, p, hms_mem_unit(&m->h, fl), buf, &units);
        if (m->log)
            hms_skip_log_begin(m->log, &m->h, fl, m->at);
        ok = hms_mem_access_units(&m->h, fl, units, n, to_dram, &f, out);
        if (m->log)
            hms_skip_log_end(m->log, &m->h, out);
    }
    if (ok && m->keep)
        m->keep[m->at] = *out;
    return ok;
}

/* ---- timing ---------------------------------------------------------------- */

/* ---- filling shared memory --------------------------------------------------- */

typedef struct {
    uint64_t block, line;
} block_line;

static int by_block_line(const void *pa, const void *pb)
{
    const block_line *a = pa, *b = pb;
    if (a->block != b->block)
        return a->block < b->block ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* Bytes the blocks would copy into shared memory: the distinct `line`-byte
 * lines each block touches of the (off-chip) array, summed over blocks. */
static bool shared_fill_bytes(const hms_stream *s, hms_units_memo *memo, uint32_t array,
                              uint64_t line, double *bytes)
{
    uint64_t buf[HMS_WARP_UNITS_MAX];
    const uint64_t *units;
    block_line *v = NULL;
    size_t n = 0, cap = 0;
    *bytes = 0;
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *r = &s->v[i];
        if (r->array != array || r->space == HMS_SPACE_SHARED || r->mask == 0)
            continue;
        size_t k = hms_units_of(memo, i, r, line, buf, &units);
        if (n + k > cap) {
            size_t c = cap ? cap * 2 : 1024;
            while (c < n + k)
                c *= 2;
            block_line *w = realloc(v, c * sizeof *w);
            if (!w) {
                free(v);
                return false;
            }
            v = w;
            cap = c;
        }
        for (size_t j = 0; j < k; j++)
            v[n++] = (block_line){r->block, units[j]};
    }
    if (n)
        qsort(v, n, sizeof *v, by_block_line);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        distinct += i == 0 || by_block_line(&v[i], &v[i - 1]) != 0;
    free(v);
    *bytes = (double)distinct * (double)line;
    return true;
}

/* ---- the simulation --------------------------------------------------------- */

static bool off_chip(hms_space s)
{
    return s != HMS_SPACE_SHARED;
}

static uint32_t lines_touched(const sim *m, const hms_warp_access *p, uint64_t line)
{
    return (uint32_t)hms_units_count(m->units, m->at, p, line);
}

static double global_replays(const hms_coalesce_result *c)
{
    /* one LSU pass per 128-byte line under the sector rule (Kepler on);
     * per transaction under the Fermi-L1 and cc 1.x rules */
    uint32_t n = c->rule == HMS_COALESCE_SECTORS ? c->lines : c->transactions;
    return n > 0 ? n - 1 : 0;
}

/* The launch as the stream and the options describe it. */
typedef struct {
    unsigned sms, wpb, bps;
    double sms_used;     /* SMs the stream's blocks occupy */
    double warps_per_sm; /* resident */
    double cpi;          /* cycles per warp instruction: warp_size / simd_width */
    double scale, mlp;
    uint64_t shared_min; /* the array's lowest shared address; UINT64_MAX if none */
    uint64_t slab;       /* bytes per block when a shared array moves off-chip */
    hms_units_memo *units;
    const hms_bank_memo *banks; /* opts.banks */
    bool full;                  /* no set skip (opts.full_resim) */
    const hms_stream_summary *sum;
} launch;

hms_placement_events_memo *hms_placement_events_memo_new(void)
{
    return calloc(1, sizeof(hms_placement_events_memo));
}

static void memo_clear(hms_placement_events_memo *m)
{
    if (m->caches_kept)
        hms_mem_hier_free(&m->h);
    free(m->order);
    free(m->at_off);
    free(m->at_pos);
    free(m->replay);
    free(m->have);
    free(m->mv_replay);
    free(m->mv_have);
    free(m->ident);
    free(m->written.mo);
    free(m->moved.mo);
    hms_skip_log_free(&m->log);
    free(m->logged);
    hms_stream_summary_free(&m->sum);
    memset(m, 0, sizeof *m);
}

void hms_placement_events_memo_free(hms_placement_events_memo *m)
{
    if (!m)
        return;
    memo_clear(m);
    free(m);
}

size_t hms_placement_events_memo_deltas(const hms_placement_events_memo *m)
{
    return m ? m->deltas : 0;
}

void hms_placement_events_memo_skips(const hms_placement_events_memo *m, size_t *clean,
                                     size_t *mixed)
{
    *clean = m ? m->skip_clean : 0;
    *mixed = m ? m->skip_mixed : 0;
}

/* The memo for this stream and arch (reset when they changed); NULL if none. */
static hms_placement_events_memo *memo_for(hms_placement_events_memo *m, const hms_stream *s,
                                           const hms_arch *a)
{
    if (!m)
        return NULL;
    if (m->s != s || m->n != s->n || m->a != a) {
        memo_clear(m);
        m->s = s;
        m->n = s->n;
        m->a = a;
    }
    if (!m->replay && s->n) {
        m->replay = malloc(s->n * sizeof *m->replay);
        m->have = calloc(s->n, sizeof *m->have);
        m->mv_replay = malloc(2 * s->n * sizeof *m->mv_replay);
        m->mv_have = calloc(2 * s->n, sizeof *m->mv_have);
        if (!m->replay || !m->have || !m->mv_replay || !m->mv_have) {
            memo_clear(m);
            return NULL;
        }
    }
    return m;
}

/* The stream's summary, made once per memo (which validates the records):
 * the memo's, else made in *local (freed by the caller); NULL with the
 * reason in err. */
static const hms_stream_summary *summary_for(const hms_stream *s, hms_placement_events_memo *memo,
                                             hms_stream_summary *local, char *err, size_t errlen)
{
    if (!memo)
        return hms_stream_summary_make(s, local, err, errlen) ? local : NULL;
    if (!memo->sum_done)
        memo->sum_done = hms_stream_summary_make(s, &memo->sum, err, errlen);
    return memo->sum_done ? &memo->sum : NULL;
}

/* Works out the launch from the stream's summary and the options. */
static void read_launch(const hms_stream_summary *sum, const hms_arch *a, uint32_t array,
                        const hms_placement_array *arr, const hms_placement_events_opts *o,
                        launch *L)
{
    hms_placement_events_opts opt = {0};
    if (o)
        opt = *o;
    memset(L, 0, sizeof *L);
    L->sum = sum;
    L->sms = opt.active_sms ? opt.active_sms : (a->sm_count > 0 ? (unsigned)a->sm_count : 1);
    L->wpb = opt.warps_per_block ? opt.warps_per_block : sum->warps;
    uint64_t nblocks = sum->nblocks;
    const hms_array_summary *u = array < sum->narrays ? &sum->arrays[array] : NULL;
    uint64_t shared_max = u ? u->shared_hi : 0;
    L->shared_min = u ? u->shared_lo : UINT64_MAX;
    if (L->wpb == 0)
        L->wpb = 1;
    L->bps = opt.blocks_per_sm;
    if (!L->bps) {
        L->bps = a->max_warps_per_sm > 0 ? (unsigned)a->max_warps_per_sm / L->wpb : 1;
        if (a->max_blocks_per_sm > 0 && L->bps > (unsigned)a->max_blocks_per_sm)
            L->bps = (unsigned)a->max_blocks_per_sm;
        uint64_t per_sm = (nblocks + L->sms - 1) / L->sms;
        if (per_sm > 0 && L->bps > per_sm)
            L->bps = (unsigned)per_sm;
        if (L->bps == 0)
            L->bps = 1;
    }
    L->sms_used = nblocks > 0 && nblocks < L->sms ? (double)nblocks : (double)L->sms;
    L->warps_per_sm = (double)L->bps * L->wpb;
    double ws = a->warp_size > 0 ? a->warp_size : 32;
    L->cpi = a->simd_width > 0 ? ws / a->simd_width : 1;
    L->scale = opt.scale > 0 ? opt.scale : 1;
    L->mlp = opt.mlp > 0 ? opt.mlp : 1;
    L->units = opt.units;
    L->banks = opt.banks;
    L->full = opt.full_resim;
    if (L->shared_min != UINT64_MAX) {
        uint64_t span = shared_max - L->shared_min;
        if (arr && arr->bytes > (double)span)
            span = (uint64_t)arr->bytes;
        L->slab = (span + SLAB_ALIGN - 1) / SLAB_ALIGN * SLAB_ALIGN;
    }
}

/* Record indices with their SM-cycle issue times, in issue order; NULL on
 * allocation failure. */
static hms_timed *issue_order(const hms_stream *s, const launch *L);

/* issue_order, shared through the memo when there is one (the memo keeps
 * ownership: *own says whether the caller must free the result). */
static hms_timed *issue_order_memo(hms_placement_events_memo *m, const hms_stream *s,
                                   const launch *L, bool *own)
{
    *own = true;
    if (!m)
        return issue_order(s, L);
    double key[4] = {L->bps, L->sms, L->warps_per_sm, L->cpi};
    if (!m->order || memcmp(key, m->order_key, sizeof key) != 0) {
        free(m->order);
        free(m->at_off);
        free(m->at_pos);
        m->at_off = m->at_pos = NULL;
        m->order = issue_order(s, L);
        memcpy(m->order_key, key, sizeof key);
    }
    *own = m->order == NULL;
    return m->order;
}

static hms_timed *issue_order(const hms_stream *s, const launch *L)
{
    return hms_stream_issue_order(s, (uint64_t)L->bps * L->sms, L->warps_per_sm, L->cpi);
}

/* The record as the memory system sees it in space `eff`: off-chip records
 * get the address of their region (see placement_events.h). Returns r
 * itself when that changes nothing (its own space, no region offset), else
 * the copy made in *p. */
static const hms_warp_access *to_physical(const hms_warp_access *r, hms_space eff, const launch *L,
                                          hms_warp_access *p)
{
    if (eff == (hms_space)r->space && r->space != HMS_SPACE_CONSTANT && r->space != HMS_SPACE_LOCAL)
        return r;
    /* the header, then every lane moved by one offset (inactive lanes as
     * they are): no struct copy (a slow string move) before the lanes */
    memcpy(p, r, offsetof(hms_warp_access, addr));
    p->space = (uint8_t)eff;
    uint64_t off = 0; /* unsigned wrap-around: the same sum in any order */
    if (off_chip(eff))
        off = r->space == HMS_SPACE_SHARED /* moved off-chip: a slab per block */
                  ? REGION_SHARED_SLABS + (uint64_t)r->block * L->slab - L->shared_min
                  : r->space == HMS_SPACE_CONSTANT ? REGION_CONSTANT
                    : r->space == HMS_SPACE_LOCAL  ? REGION_LOCAL
                                                   : 0;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        p->addr[l] = r->addr[l] + ((r->mask >> l & 1) ? off : 0);
    return p;
}

/* Running sums that are not fields of hms_placement_events. */
typedef struct {
    double l2_misses;
    double hit_sum, hit_n; /* latency of requests a cache served */
} tally;

/* One record (active lanes only) in space p->space; `mine`: the counts of
 * the record's array when that array's own figures are wanted, else NULL. */
static bool simulate(sim *m, const hms_warp_access *p, unsigned sm, double time,
                     hms_placement_events *mine, uint8_t *have, double *known,
                     hms_kernel_traffic *kt, tally *t)
{
    const hms_arch *a = m->a;
    hms_placement_events *out = mine;
    hms_space eff = (hms_space)p->space;
    double replay = 0;
    hms_mem_outcome mo = {0};
    hms_cache *fl = NULL;
    hms_fl_kind used = HMS_FL_NONE;
    bool ok = true;
    double w = hms_record_reps(p); /* executions the record stands for */
    kt->requests += w;
    if (mine)
        out->requests += w;
    switch (eff) {
    case HMS_SPACE_SHARED: {
        if (have && *have) {
            replay = *known;
        } else {
            hms_bank_result b;
            bool banks_ok;
            if (m->bank) {
                banks_ok = m->bank->ok;
                b = m->bank->r;
            } else {
                banks_ok = hms_banks_warp(a, p, &b);
            }
            if (!banks_ok) {
                snprintf(m->err, m->errlen,
                         "%s: shared_banks %d x %d bytes: bank layout not supported", m->origin,
                         a->shared_banks, a->shared_bank_bytes);
                return false;
            }
            replay = hms_banks_replay_slots(a, &b);
        }
        kt->shared_requests += w;
        kt->group_requests[HMS_OVL_SHARED] += w;
        kt->group_events[HMS_OVL_SHARED] += w * replay;
        if (mine)
            out->replay_bank_conflict += w * replay;
        break;
    }
    case HMS_SPACE_CONSTANT: {
        double div;
        if (have && *have) {
            div = *known;
        } else {
            uint32_t distinct = hms_constmem_distinct(p);
            div = distinct > 0 ? distinct - 1 : 0;
            if (have)
                *known = div;
        }
        used = HMS_FL_CONST;
        ok = first_level_cache(m, used, sm, &fl) && through_caches(m, fl, p, time, &mo);
        if (!fl) /* no constant cache: every line misses */
            mo.fl_misses = lines_touched(m, p, m->h.l2_line);
        replay = div + mo.fl_misses;
        kt->group_requests[HMS_OVL_CONSTANT] += w;
        kt->group_events[HMS_OVL_CONSTANT] += w * mo.fl_misses;
        if (mine) {
            out->replay_const_div += w * div;
            out->replay_const_miss += w * mo.fl_misses;
        }
        break;
    }
    case HMS_SPACE_TEXTURE:
    case HMS_SPACE_READONLY: {
        bool ro = eff == HMS_SPACE_READONLY;
        /* On a unified L1/texture a fetch passes the L1 pipeline like an
         * LDG: one pass per line touched. */
        bool lsu = ro || a->unified_l1_texture;
        if (lsu && have && *have) {
            replay = *known;
        } else if (lsu) {
            hms_coalesce_result c;
            hms_units_coalesce(m->units, a, m->at, p, &c);
            replay = global_replays(&c);
        }
        used = ro ? HMS_FL_RO : HMS_FL_TEX;
        ok = first_level_cache(m, used, sm, &fl) && through_caches(m, fl, p, time, &mo);
        if (!fl) /* no texture cache: every line misses */
            mo.fl_misses = lines_touched(m, p, m->h.l2_line);
        kt->group_requests[HMS_OVL_TEXTURE] += w;
        kt->group_events[HMS_OVL_TEXTURE] += w * mo.fl_misses;
        if (mine)
            out->replay_global_div += w * replay;
        break;
    }
    default: { /* global, local */
        if (have && *have) {
            replay = *known;
        } else {
            hms_coalesce_result c;
            hms_units_coalesce(m->units, a, m->at, p, &c);
            replay = global_replays(&c);
        }
        used = hms_mem_path(a, eff, (hms_access_kind)p->kind);
        ok = first_level_cache(m, used, sm, &fl) && through_caches(m, fl, p, time, &mo);
        kt->group_requests[HMS_OVL_GLOBAL] += w;
        kt->group_events[HMS_OVL_GLOBAL] += w * mo.l2_misses;
        if (mine)
            out->replay_global_div += w * replay;
        break;
    }
    }
    if (have && !*have) {
        if (eff != HMS_SPACE_CONSTANT)
            *known = replay;
        *have = 1;
    }
    kt->replays += w * replay;
    if (eff == HMS_SPACE_CONSTANT)
        kt->const_replays += w * replay;
    t->l2_misses += w * mo.l2_misses;
    if (mo.l2_misses > 0)
        kt->dram_requests += w;
    else if (off_chip(eff)) { /* served by a cache */
        double fl_lat = hms_mem_hit_latency(&m->h, used);
        bool fl_hit = fl && mo.fl_misses == 0 && fl_lat > 0;
        t->hit_sum += w * (fl_hit ? fl_lat : m->h.l2_hit_lat);
        t->hit_n += w;
    }
    if (mine) {
        out->cache_hits += w * mo.fl_hits;
        out->cache_misses += w * mo.fl_misses;
    }
    return ok;
}

/* A sampled stream stands for the launch: scale the counts. */
static void scale_counts(hms_placement_events *e, double scale)
{
    hms_kernel_traffic *kt = &e->kernel;
    double *counts[] = {&e->requests,
                        &e->copy_bytes,
                        &e->addr_insts,
                        &e->replay_global_div,
                        &e->replay_const_miss,
                        &e->replay_const_div,
                        &e->replay_bank_conflict,
                        &e->cache_hits,
                        &e->cache_misses,
                        &kt->requests,
                        &kt->dram_requests,
                        &kt->shared_requests,
                        &kt->row_hits,
                        &kt->row_misses,
                        &kt->row_conflicts,
                        &kt->dram_bytes,
                        &kt->replays,
                        &kt->const_replays};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        *counts[i] *= scale;
    for (int g = 0; g < HMS_OVL_GROUPS; g++) {
        kt->group_requests[g] *= scale;
        kt->group_events[g] *= scale;
    }
}

/* Whether moving `array` to `tspace` leaves the stream as written: every
 * active record of the array already uses that space. */
static bool as_written(const hms_stream_summary *sum, uint32_t array, hms_space tspace)
{
    uint32_t uses = array < sum->narrays ? sum->arrays[array].uses : 0;
    return (uses & ~(hms_summary_use(tspace, HMS_ACCESS_LOAD) |
                     hms_summary_use(tspace, HMS_ACCESS_STORE))) == 0;
}

/* The array's own counts (not its space, copy bytes or the kernel's). */
static void own_counts(hms_placement_events *out, const hms_placement_events *src)
{
    out->requests = src->requests;
    out->replay_global_div = src->replay_global_div;
    out->replay_const_miss = src->replay_const_miss;
    out->replay_const_div = src->replay_const_div;
    out->replay_bank_conflict = src->replay_bank_conflict;
    out->cache_hits = src->cache_hits;
    out->cache_misses = src->cache_misses;
}

static void launch_key(const launch *L, double key[7])
{
    double k[7] = {L->bps, L->sms, L->warps_per_sm, L->cpi, L->scale, L->mlp, L->sms_used};
    memcpy(key, k, sizeof k);
}

/* The one first-level cache instance (hms_mem_serving) that every active
 * record of `array` meets when the array is in `space` (as_is: the space
 * each record uses); HMS_FL_NONE when they meet none or several, or when a
 * record's space is simulated as more than a cache lookup of its own
 * addresses (shared, constant and local memory). */
static hms_fl_kind route_of(const hms_stream_summary *sum, const hms_arch *a, uint32_t array,
                            bool as_is, hms_space space)
{
    hms_fl_kind route = HMS_FL_NONE;
    uint32_t uses = array < sum->narrays ? sum->arrays[array].uses : 0;
    for (unsigned u = 0; u < HMS_SUMMARY_SPACES; u++) {
        for (unsigned load = 0; load < 2; load++) {
            hms_access_kind kind = load ? HMS_ACCESS_LOAD : HMS_ACCESS_STORE;
            if (!(uses & hms_summary_use(u, kind)))
                continue;
            hms_space sp = as_is ? (hms_space)u : space;
            if (sp != HMS_SPACE_GLOBAL && sp != HMS_SPACE_READONLY && sp != HMS_SPACE_TEXTURE)
                return HMS_FL_NONE;
            hms_fl_kind k = hms_mem_serving(a, hms_mem_path(a, sp, kind));
            if (k == HMS_FL_NONE || (route != HMS_FL_NONE && k != route))
                return HMS_FL_NONE;
            route = k;
        }
    }
    return route;
}

/* An earlier run whose outcomes the run with `array` moved to `tspace`
 * meets exactly, or NULL. Records other than the array's are simulated the
 * same in every run, and an off-chip record keeps its address whatever
 * off-chip space it is in (to_physical), so the array's records meeting the
 * same cache instance as in that run is enough: the stream as written when
 * they already met it there (a global load moved to the read-only path on a
 * unified L1), else the last moved run of the same array that met it (the
 * read-only path and textures of one array). Sets *route. */
static outcomes *reference_for(const hms_arch *a, uint32_t array, hms_space tspace, const launch *L,
                               hms_placement_events_memo *memo, hms_fl_kind *route)
{
    double key[7];
    launch_key(L, key);
    *route = route_of(L->sum, a, array, false, tspace);
    if (*route == HMS_FL_NONE)
        return NULL;
    outcomes *w = &memo->written, *mv = &memo->moved;
    if (w->done && memcmp(w->key, key, sizeof key) == 0 &&
        route_of(L->sum, a, array, true, tspace) == *route)
        return w;
    if (mv->done && memcmp(mv->key, key, sizeof key) == 0 && mv->array == array &&
        mv->route == *route)
        return mv;
    return NULL;
}

/* Records of arrays other than `array` that the memo's log holds (the
 * counts per array made once per log). */
static size_t logged_others(hms_placement_events_memo *memo, const hms_stream *s,
                            const hms_stream_summary *sum, uint32_t array)
{
    const hms_skip_log *log = &memo->log;
    if (!memo->logged_done) {
        free(memo->logged);
        memo->logged = calloc(sum->narrays ? sum->narrays : 1, sizeof *memo->logged);
        memo->logged_all = 0;
        for (size_t i = 0; memo->logged && i < s->n; i++) {
            memo->logged[s->v[i].array] += log->rec[i].logged;
            memo->logged_all += log->rec[i].logged;
        }
        memo->logged_done = memo->logged != NULL;
    }
    if (memo->logged_done)
        return memo->logged_all - (array < sum->narrays ? memo->logged[array] : 0);
    size_t others = 0; /* no memory for the counts */
    for (size_t i = 0; i < s->n; i++)
        others += s->v[i].array != array && log->rec[i].logged;
    return others;
}

/* The dirty sets of the run with `array` in `tspace` against the log of the
 * stream as written (runtime/placement_skip.h): false when they cannot be
 * worked out (then every lookup is simulated). */
static bool prepare_skip(const hms_stream *s, uint32_t array, hms_space tspace, const launch *L,
                         sim *m, hms_placement_events_memo *memo, hms_skip_run *sk)
{
    /* It pays when the other arrays' records that met the caches outnumber
     * the moved array's: those are simulated whatever, and working out
     * where they may go costs about as much as simulating them. */
    const hms_skip_log *log = &memo->log;
    size_t mine = array < L->sum->narrays ? L->sum->arrays[array].active : 0;
    size_t others = logged_others(memo, s, L->sum, array);
    if (others <= mine || !hms_skip_run_init(sk, log, &m->h))
        return false;
    for (size_t i = 0; sk->ok && i < s->n; i++) {
        const hms_warp_access *r = &s->v[i];
        if (r->array != array || !r->mask)
            continue;
        hms_skip_mark_logged(sk, i);
        hms_warp_access copy;
        const hms_warp_access *p = to_physical(r, tspace, L, &copy);
        hms_cache *fl = NULL;
        if (!off_chip((hms_space)p->space))
            continue;
        if (!first_level_cache(m, hms_mem_path(m->a, (hms_space)p->space, (hms_access_kind)p->kind),
                               r->block % L->sms, &fl))
            sk->ok = false;
        else
            hms_skip_mark_record(sk, fl, p);
    }
    for (size_t i = 0; sk->ok && i < s->n; i++) {
        const hms_warp_access *r = &s->v[i];
        if (r->array == array || !r->mask || !hms_skip_fl_dirty(sk, i))
            continue;
        hms_warp_access copy;
        hms_skip_spread(sk, i, to_physical(r, (hms_space)r->space, L, &copy));
    }
    if (!sk->ok)
        hms_skip_run_free(sk);
    return sk->ok;
}

/* Positions in the memo's issue order of `array`'s records (*n of them),
 * made once per order; NULL when out of memory. */
static const size_t *array_positions(hms_placement_events_memo *memo, const hms_stream *s,
                                     size_t narrays, uint32_t array, size_t *n)
{
    *n = 0;
    if (!memo->at_off) {
        size_t *off = calloc(narrays + 2, sizeof *off);
        size_t *pos = malloc((s->n ? s->n : 1) * sizeof *pos);
        if (!off || !pos) {
            free(off);
            free(pos);
            return NULL;
        }
        for (size_t k = 0; k < s->n; k++) {
            uint32_t x = s->v[memo->order[k].index].array;
            if (x < narrays)
                off[x + 2]++;
        }
        for (size_t x = 2; x < narrays + 2; x++)
            off[x] += off[x - 1];
        for (size_t k = 0; k < s->n; k++) {
            uint32_t x = s->v[memo->order[k].index].array;
            if (x < narrays)
                pos[off[x + 1]++] = k;
        }
        memo->at_off = off;
        memo->at_pos = pos;
        memo->at_narrays = narrays;
    }
    if (array >= memo->at_narrays)
        return memo->at_pos;
    *n = memo->at_off[array + 1] - memo->at_off[array];
    return memo->at_pos + memo->at_off[array];
}

/* An integer in [0, 2^53): sums of such terms below 2^53 never round. */
static bool exact_int(double x)
{
    return x >= 0 && x < 9007199254740992.0 && x == floor(x);
}

/* Whether every sum of a run is an exact integer: each term is a repeat
 * count times an integer (lines, replays, outcomes) or a hit latency, so
 * with integral latencies and sums below 2^53 no addition rounded. */
static bool sums_exact(const hms_mem_hier *h, const hms_kernel_traffic *kt, const tally *t)
{
    bool ok = exact_int(h->l2_hit_lat);
    for (int k = 0; k < HMS_FL_KINDS; k++)
        ok = ok && exact_int(h->hit_lat[k]);
    double v[] = {kt->requests,      kt->dram_requests, kt->shared_requests, kt->replays,
                  kt->const_replays, t->l2_misses,      t->hit_sum,          t->hit_n};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        ok = ok && exact_int(v[i]);
    for (int g = 0; g < HMS_OVL_GROUPS; g++)
        ok = ok && exact_int(kt->group_requests[g]) && exact_int(kt->group_events[g]);
    return ok;
}

/* ref's sum less what `sub` added plus what `add` adds. */
static void traffic_delta(const hms_kernel_traffic *ref, const hms_kernel_traffic *sub,
                          const hms_kernel_traffic *add, hms_kernel_traffic *kt)
{
#define HMS_DELTA(f) kt->f = ref->f - sub->f + add->f
    HMS_DELTA(requests);
    HMS_DELTA(dram_requests);
    HMS_DELTA(shared_requests);
    HMS_DELTA(replays);
    HMS_DELTA(const_replays);
    for (int g = 0; g < HMS_OVL_GROUPS; g++) {
        HMS_DELTA(group_requests[g]);
        HMS_DELTA(group_events[g]);
    }
#undef HMS_DELTA
}

/* A run that replays ref's outcomes (reference_for) differs from ref only
 * in `array`'s records: its sums are ref's, less what those records added
 * there, plus what they add in `tspace`. Only they are simulated, in issue
 * order (so `out`, theirs alone, is summed as a full run sums it). Exact
 * when ref's, both parts' and the result's sums are integers below 2^53 (sums_exact);
 * else *done is false, nothing is changed and the caller runs every
 * record. */
static bool delta_run(sim *m, const hms_stream *s, uint32_t array, hms_space tspace,
                      const launch *L, hms_placement_events_memo *memo, const outcomes *ref,
                      const hms_timed *order, bool lsu_target, hms_placement_events *out, tally *t,
                      bool *done)
{
    *done = false;
    size_t npos;
    const size_t *pos =
        ref->exact_sums ? array_positions(memo, s, L->sum->narrays, array, &npos) : NULL;
    if (!pos)
        return true;
    bool written = ref == &memo->written;
    hms_placement_events mine = *out;
    hms_kernel_traffic sub = {0}, add = {0};
    tally tsub = {0}, tadd = {0};
    bool ok = true;
    for (int pass = 0; ok && pass < 2; pass++) {
        for (size_t j = 0; ok && j < npos; j++) {
            size_t i = order[pos[j]].index;
            const hms_warp_access *r = &s->v[i];
            if (r->mask == 0)
                continue;
            hms_space sp = pass ? tspace : written ? (hms_space)r->space : ref->tspace;
            hms_warp_access copy;
            const hms_warp_access *p = to_physical(r, sp, L, &copy);
            m->at = i;
            m->bank = pass == 0 && written && L->banks ? &L->banks[i] : NULL;
            uint8_t *have = NULL;
            double *known = NULL;
            if (pass && lsu_target && r->space != HMS_SPACE_SHARED) { /* as run_pass */
                size_t x = 2 * i + (hms_coalesce_rule_for(m->a, p) == HMS_COALESCE_HALF_WARP);
                have = &memo->mv_have[x];
                known = &memo->mv_replay[x];
            }
            ok = simulate(m, p, r->block % L->sms, order[pos[j]].time, pass ? &mine : NULL, have,
                          known, pass ? &add : &sub, pass ? &tadd : &tsub);
        }
    }
    if (!ok || !sums_exact(&m->h, &sub, &tsub) || !sums_exact(&m->h, &add, &tadd))
        return ok;
    hms_kernel_traffic kt = mine.kernel;
    traffic_delta(&ref->dram, &sub, &add, &kt);
    tally tt = {ref->l2_misses - tsub.l2_misses + tadd.l2_misses,
                ref->hit_sum - tsub.hit_sum + tadd.hit_sum, ref->hit_n - tsub.hit_n + tadd.hit_n};
    if (!sums_exact(&m->h, &kt, &tt)) /* ref - sub + add may reach 2^54 and round */
        return ok;
    *out = mine;
    out->kernel = kt;
    t->l2_misses = tt.l2_misses;
    t->hit_sum = tt.hit_sum;
    t->hit_n = tt.hit_n;
    memo->deltas++;
    *done = true;
    return true;
}

/* Runs the stream with `array` in `tspace`; `per` (when not NULL, the
 * stream as written) gets every array's own counts, else `out` gets
 * `array`'s. Fills out->kernel. The stream as written logs its lookups;
 * a moved run skips the clean sets when `skip` and a log allow (*broken:
 * the log did not match, the run must be done again without). */
static bool run_pass(const hms_stream *s, const hms_arch *a, uint32_t array, hms_space tspace,
                     const launch *L, hms_placement_events_memo *memo, hms_placement_events *per,
                     hms_placement_events *out, bool skip, bool *broken, char *err, size_t errlen)
{
    sim m;
    bool ok = sim_init(&m, a, L->sms, memo, err, errlen);
    m.units = L->units;
    double lkey[7];
    launch_key(L, lkey);
    hms_skip_run sk = {0};
    /* replay an earlier run's outcomes, or keep this one's for later runs */
    outcomes *ref = NULL, *keep = NULL;
    hms_fl_kind route = HMS_FL_NONE;
    if (ok && memo) {
        ref = per ? NULL : reference_for(a, array, tspace, L, memo, &route);
        keep = ref || (!per && route == HMS_FL_NONE) ? NULL : per ? &memo->written : &memo->moved;
    }
    if (keep) {
        keep->done = false;
        if (!keep->mo)
            keep->mo = malloc((s->n ? s->n : 1) * sizeof *keep->mo);
        m.keep = keep->mo; /* NULL when out of memory: nothing kept */
    }
    if (ref)
        m.known = ref->mo;
    if (ok && memo && per && !L->full) { /* log the stream as written */
        memo->log_done = false;
        memo->logged_done = false;
        hms_skip_log_free(&memo->log);
        hms_skip_log_init(&memo->log, s->n);
        m.log = &memo->log;
    } else if (ok && memo && !per && !ref && skip && !L->full && memo->log_done &&
               memcmp(memo->log_key, lkey, sizeof lkey) == 0 &&
               prepare_skip(s, array, tspace, L, &m, memo, &sk)) {
        m.skip = &sk;
    }
    bool own_order = true;
    hms_timed *order = ok ? issue_order_memo(memo, s, L, &own_order) : NULL;
    if (ok && !order) {
        snprintf(err, errlen, "%s: out of memory ordering %zu stream records", m.origin, s->n);
        ok = false;
    }
    tally t = {0};
    hms_kernel_traffic *kt = &out->kernel;
    /* the moved array's replays are those of an LDG (see simulate) */
    bool lsu_target = tspace == HMS_SPACE_GLOBAL || tspace == HMS_SPACE_LOCAL ||
                      tspace == HMS_SPACE_READONLY ||
                      (tspace == HMS_SPACE_TEXTURE && a->unified_l1_texture);
    bool delta = false; /* the sums worked out from ref's (delta_run) */
    if (ok && ref)
        ok = delta_run(&m, s, array, tspace, L, memo, ref, order, lsu_target, out, &t, &delta);
    for (size_t k = 0; ok && !delta && k < s->n; k++) {
        const hms_warp_access *r = &s->v[order[k].index];
        if (r->mask == 0)
            continue;
        bool moved = !per && r->array == array;
        hms_warp_access copy;
        const hms_warp_access *p = to_physical(r, moved ? tspace : (hms_space)r->space, L, &copy);
        size_t i = order[k].index;
        m.at = i;
        m.skip_rec = !moved;
        m.bank = !moved && L->banks ? &L->banks[i] : NULL;
        hms_placement_events *mine = per ? &per[r->array] : moved ? out : NULL;
        uint8_t *have = memo && !moved ? &memo->have[i] : NULL;
        double *known = memo && !moved ? &memo->replay[i] : NULL;
        if (memo && moved && lsu_target && r->space != HMS_SPACE_SHARED) {
            /* its addresses are the same in every off-chip target */
            size_t j = 2 * i + (hms_coalesce_rule_for(a, p) == HMS_COALESCE_HALF_WARP);
            have = &memo->mv_have[j];
            known = &memo->mv_replay[j];
        }
        ok = simulate(&m, p, r->block % L->sms, order[k].time, mine, have, known, kt, &t);
    }
    if (ok && m.known) { /* the same L2 misses at the same times: the same DRAM figures */
        const hms_kernel_traffic *w = &ref->dram;
        kt->row_hits = w->row_hits;
        kt->row_misses = w->row_misses;
        kt->row_conflicts = w->row_conflicts;
        kt->dram_latency = w->dram_latency;
        kt->dram_saturated = w->dram_saturated;
        kt->dram_bytes = t.l2_misses * (double)m.h.l2_line;
        kt->hit_latency = t.hit_n > 0 ? t.hit_sum / t.hit_n : 0;
    } else if (ok) {
        double lines_per_req = kt->dram_requests > 0 ? t.l2_misses / kt->dram_requests : 1;
        m.dram.max_outstanding = L->warps_per_sm * L->sms_used * L->mlp * lines_per_req;
        m.dram.request_bytes = (double)m.h.l2_line;
        ok = hms_dram_evaluate(&m.dram, err, errlen);
    }
    if (ok && !m.known) {
        kt->row_hits = (double)m.dram.hits;
        kt->row_misses = (double)m.dram.misses;
        kt->row_conflicts = (double)m.dram.conflicts;
        kt->dram_latency = m.dram.latency;
        kt->dram_saturated = m.dram.saturated_banks > 0;
        kt->dram_bytes = t.l2_misses * (double)m.h.l2_line;
        kt->hit_latency = t.hit_n > 0 ? t.hit_sum / t.hit_n : 0;
    }
    /* a run whose skip met a wrong log is not kept: run_stream runs it
     * again in full, and must not find this one to replay */
    if (ok && keep && keep->mo && !(m.skip && sk.broken)) {
        launch_key(L, keep->key);
        keep->array = array;
        keep->tspace = tspace;
        keep->route = route;
        keep->dram = *kt;
        keep->l2_misses = t.l2_misses;
        keep->hit_sum = t.hit_sum;
        keep->hit_n = t.hit_n;
        keep->exact_sums = sums_exact(&m.h, kt, &t);
        keep->done = true;
    }
    if (ok && m.log && memo->log.ok) {
        memo->log_done = true;
        memcpy(memo->log_key, lkey, sizeof lkey);
    }
    if (m.skip) {
        *broken = sk.broken;
        memo->skip_clean += sk.clean;
        memo->skip_mixed += sk.mixed;
        hms_skip_run_free(&sk);
    }
    if (own_order)
        free(order);
    sim_free(&m, ok ? memo : NULL);
    return ok;
}

static bool run_stream(const hms_stream *s, const hms_arch *a, uint32_t array, hms_space tspace,
                       const launch *L, hms_placement_events_memo *memo, hms_placement_events *per,
                       hms_placement_events *out, char *err, size_t errlen)
{
    hms_placement_events before = *out;
    bool broken = false;
    bool ok = run_pass(s, a, array, tspace, L, memo, per, out, true, &broken, err, errlen);
    if (ok && broken) { /* only a wrong log gets here: simulate everything */
        *out = before;
        ok = run_pass(s, a, array, tspace, L, memo, per, out, false, &broken, err, errlen);
    }
    return ok;
}

/* The stream as written, from the memo or run once for every array. */
static bool as_written_events(const hms_stream *s, const hms_arch *a, uint32_t array,
                              hms_space tspace, const launch *L, hms_placement_events_memo *memo,
                              hms_placement_events *out, char *err, size_t errlen)
{
    double key[7] = {L->bps, L->sms, L->warps_per_sm, L->cpi, L->scale, L->mlp, L->sms_used};
    if (!memo->ident_done || memcmp(key, memo->ident_key, sizeof key) != 0) {
        memo->ident_done = false;
        free(memo->ident);
        memo->nident = L->sum->narrays;
        memo->ident = calloc(memo->nident ? memo->nident : 1, sizeof *memo->ident);
        if (!memo->ident) {
            snprintf(err, errlen, "%s: out of memory for %zu arrays' counts", arch_origin(a),
                     memo->nident);
            return false;
        }
        hms_placement_events run = {0};
        if (!run_stream(s, a, array, tspace, L, memo, memo->ident, &run, err, errlen))
            return false;
        memo->ident_kt = run.kernel;
        memcpy(memo->ident_key, key, sizeof key);
        memo->ident_done = true;
    }
    out->kernel = memo->ident_kt;
    if (array < memo->nident)
        own_counts(out, &memo->ident[array]);
    return true;
}

/* `array` moved to `tspace`, from the memo when the last run was the same. */
static bool moved_events(const hms_stream *s, const hms_arch *a, uint32_t array, hms_space tspace,
                         const launch *L, hms_placement_events_memo *memo,
                         hms_placement_events *out, char *err, size_t errlen)
{
    if (!memo)
        return run_stream(s, a, array, tspace, L, NULL, NULL, out, err, errlen);
    double key[9] = {L->bps, L->sms,      L->warps_per_sm,       L->cpi,         L->scale,
                     L->mlp, L->sms_used, (double)L->shared_min, (double)L->slab};
    if (memo->last_done && memo->last_array == array && memo->last_space == tspace &&
        memcmp(key, memo->last_key, sizeof key) == 0) {
        hms_placement_space target = out->space;
        *out = memo->last;
        out->space = target;
        return true;
    }
    memo->last_done = false;
    if (!run_stream(s, a, array, tspace, L, memo, NULL, out, err, errlen))
        return false;
    memo->last = *out;
    memo->last_array = array;
    memo->last_space = tspace;
    memcpy(memo->last_key, key, sizeof key);
    memo->last_done = true;
    return true;
}

bool hms_placement_events_compute(const hms_stream *s, const hms_arch *a, uint32_t array,
                                  hms_placement_space target, const hms_placement_array *arr,
                                  const hms_placement_events_opts *o, hms_placement_events *out,
                                  char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->space = target;
    if (!a) {
        snprintf(err, errlen, "<arch>: no architecture description");
        return false;
    }
    if ((unsigned)target >= HMS_PLACE_COUNT) {
        snprintf(err, errlen, "placement events: unknown target space %d", (int)target);
        return false;
    }
    hms_placement_events_memo *memo = memo_for(o ? o->memo : NULL, s, a);
    hms_stream_summary local;
    const hms_stream_summary *sum = summary_for(s, memo, &local, err, errlen);
    if (!sum)
        return false;
    launch L;
    read_launch(sum, a, array, arr, o, &L);
    hms_space tspace = hms_placement_stream_space(target);
    bool ok = memo && as_written(sum, array, tspace)
                  ? as_written_events(s, a, array, tspace, &L, memo, out, err, errlen)
                  : moved_events(s, a, array, tspace, &L, memo, out, err, errlen);
    if (ok) {
        out->addr_insts = out->requests * hms_placement_addr_insts_on(a, target);
        uint64_t line = a->line_bytes > 0 ? (uint64_t)a->line_bytes : 128;
        if (target == HMS_PLACE_SHARED &&
            !shared_fill_bytes(s, L.units, array, line, &out->copy_bytes)) {
            snprintf(err, errlen, "%s: out of memory sizing the shared-memory fill",
                     arch_origin(a));
            ok = false;
        }
    }
    if (ok)
        scale_counts(out, L.scale);
    if (!ok) {
        memset(out, 0, sizeof *out);
        out->space = target;
    }
    if (sum == &local)
        hms_stream_summary_free(&local);
    return ok;
}
