/* Logging the run as written and skipping clean cache sets in a placement
 * re-simulation (see placement_skip.h). */
#include "runtime/placement_skip.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/coalesce.h"

/* ---- instances ---------------------------------------------------------- */

/* 0 for the L2, 1 + kind x sms + sm for a first-level instance. */
static uint32_t inst_of(const hms_mem_hier *h, const hms_cache *c)
{
    for (uint32_t k = 0; k < HMS_FL_KINDS; k++)
        if (h->fl[k] && c >= h->fl[k] && c < h->fl[k] + h->sms)
            return 1 + k * h->sms + (uint32_t)(c - h->fl[k]);
    return 0;
}

/* The instance numbered id, made if need be (NULL: absent or no memory). */
static hms_cache *cache_by_id(hms_mem_hier *h, uint32_t id)
{
    if (id == 0)
        return h->has_l2 ? &h->l2 : NULL;
    hms_cache *c = NULL;
    hms_mem_first_level(h, (hms_fl_kind)((id - 1) / h->sms), (id - 1) % h->sms, &c);
    return c;
}

static bool grow(void **v, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap * 2 : 4096;
    while (c < need)
        c *= 2;
    if (c > UINT32_MAX) /* entries are indexed with 32 bits */
        return false;
    void *w = realloc(*v, c * elem);
    if (!w)
        return false;
    *v = w;
    *cap = c;
    return true;
}

/* ---- the log ------------------------------------------------------------ */

void hms_skip_log_init(hms_skip_log *log, size_t n)
{
    memset(log, 0, sizeof *log);
    log->n = n;
    log->rec = calloc(n ? n : 1, sizeof *log->rec);
    log->ok = log->rec != NULL;
}

void hms_skip_log_free(hms_skip_log *log)
{
    free(log->rec);
    free(log->fl_set);
    free(log->l2_set);
    free(log->miss);
    memset(log, 0, sizeof *log);
}

static bool log_lookup(void *ctx, hms_cache *c, uint64_t addr)
{
    hms_skip_log *log = ctx;
    uint32_t set = hms_cache_set_of(c, addr);
    bool hit = hms_cache_access_line_in(c, addr, set);
    if (!log->ok)
        return hit;
    if (c == &log->h->l2) {
        if (grow((void **)&log->l2_set, &log->capl2, log->nl2 + 1, sizeof *log->l2_set))
            log->l2_set[log->nl2++] = set;
        else
            log->ok = false;
    } else if (grow((void **)&log->fl_set, &log->capfl, log->nfl + 1, sizeof *log->fl_set)) {
        log->fl_set[log->nfl++] = set << 1 | (uint32_t)hit;
    } else {
        log->ok = false;
    }
    return hit;
}

void hms_skip_log_begin(hms_skip_log *log, hms_mem_hier *h, const hms_cache *fl, size_t i)
{
    if (!log->ok || i >= log->n) {
        log->ok = false;
        return;
    }
    log->at = i;
    log->h = h;
    hms_skip_rec *r = &log->rec[i];
    r->fl = (uint32_t)log->nfl;
    r->l2 = (uint32_t)log->nl2;
    r->miss = (uint32_t)log->nmiss;
    r->inst = fl ? inst_of(h, fl) : 0;
    h->lookup = log_lookup;
    h->lookup_ctx = log;
}

void hms_skip_log_miss(hms_skip_log *log, uint64_t addr)
{
    if (log->ok && grow((void **)&log->miss, &log->capmiss, log->nmiss + 1, sizeof *log->miss))
        log->miss[log->nmiss++] = addr;
    else
        log->ok = false;
}

void hms_skip_log_end(hms_skip_log *log, hms_mem_hier *h, const hms_mem_outcome *mo)
{
    h->lookup = NULL;
    h->lookup_ctx = NULL;
    log->h = NULL; /* the hierarchy belongs to the run, not to the log */
    if (!log->ok)
        return;
    hms_skip_rec *r = &log->rec[log->at];
    r->nfl = (uint32_t)(log->nfl - r->fl);
    r->nl2 = (uint32_t)(log->nl2 - r->l2);
    r->mo = *mo;
    r->logged = true;
    /* every miss reached the callback (a failed access ends the run) */
    if (log->nmiss - r->miss != mo->l2_misses)
        log->ok = false;
}

/* ---- dirty sets ---------------------------------------------------------- */

static bool is_dirty(const uint64_t *bits, uint32_t set)
{
    return bits && bits[set >> 6] >> (set & 63) & 1;
}

static void mark(hms_skip_run *r, uint32_t id, uint32_t set)
{
    if (!r->ok || id >= r->ids)
        return;
    if (!r->dirty[id]) {
        const hms_cache *c = cache_by_id(r->h, id);
        if (!c || !(r->dirty[id] = calloc((c->sets + 63) / 64, sizeof **r->dirty))) {
            r->ok = false;
            return;
        }
    }
    r->dirty[id][set >> 6] |= 1ull << (set & 63);
}

/* Every L2 line under [lo, lo + len). */
static void mark_l2_under(hms_skip_run *r, uint64_t lo, uint64_t len)
{
    hms_mem_hier *h = r->h;
    if (!h->has_l2)
        return;
    for (uint64_t a = lo / h->l2_line * h->l2_line; a < lo + len; a += h->l2_line)
        mark(r, 0, hms_cache_set_of(&h->l2, a));
}

bool hms_skip_run_init(hms_skip_run *r, const hms_skip_log *log, hms_mem_hier *h)
{
    memset(r, 0, sizeof *r);
    r->log = log;
    r->h = h;
    r->ids = 1 + HMS_FL_KINDS * h->sms;
    r->dirty = calloc(r->ids, sizeof *r->dirty);
    r->fl_dirty = calloc(log->n ? log->n : 1, 1);
    r->ok = r->dirty && r->fl_dirty;
    if (!r->ok)
        hms_skip_run_free(r);
    return r->ok;
}

void hms_skip_run_free(hms_skip_run *r)
{
    for (uint32_t i = 0; r->dirty && i < r->ids; i++)
        free(r->dirty[i]);
    free(r->dirty);
    free(r->fl_dirty);
    memset(r, 0, sizeof *r);
}

void hms_skip_mark_logged(hms_skip_run *r, size_t i)
{
    const hms_skip_rec *rec = &r->log->rec[i];
    if (!rec->logged)
        return;
    for (uint32_t j = 0; j < rec->nfl; j++)
        mark(r, rec->inst, r->log->fl_set[rec->fl + j] >> 1);
    for (uint32_t j = 0; j < rec->nl2; j++)
        mark(r, 0, r->log->l2_set[rec->l2 + j]);
}

void hms_skip_mark_record(hms_skip_run *r, const hms_cache *fl, const hms_warp_access *p)
{
    uint64_t units[HMS_WARP_UNITS_MAX];
    uint64_t line = fl ? fl->line_bytes : r->h->l2_line;
    size_t n = hms_warp_units(p, line, units);
    uint32_t id = fl ? inst_of(r->h, fl) : 0;
    for (size_t j = 0; j < n; j++) {
        if (fl)
            mark(r, id, hms_cache_set_of(fl, units[j] * line));
        mark_l2_under(r, units[j] * line, line);
    }
}

bool hms_skip_fl_dirty(hms_skip_run *r, size_t i)
{
    const hms_skip_rec *rec = &r->log->rec[i];
    if (!rec->logged || !rec->inst || !r->dirty[rec->inst])
        return false;
    const uint64_t *bits = r->dirty[rec->inst];
    const uint32_t *e = r->log->fl_set + rec->fl;
    for (uint32_t j = 0; j < rec->nfl; j++)
        if (is_dirty(bits, e[j] >> 1)) {
            r->fl_dirty[i] = 1;
            return true;
        }
    return false;
}

void hms_skip_spread(hms_skip_run *r, size_t i, const hms_warp_access *p)
{
    const hms_skip_rec *rec = &r->log->rec[i];
    if (!r->fl_dirty[i] || !r->h->has_l2)
        return;
    const uint64_t *bits = r->dirty[rec->inst];
    const uint32_t *e = r->log->fl_set + rec->fl;
    const hms_cache *fl = cache_by_id(r->h, rec->inst);
    uint64_t units[HMS_WARP_UNITS_MAX];
    uint64_t line = fl ? fl->line_bytes : 0;
    size_t n = fl ? hms_warp_units(p, line, units) : 0;
    if (n != rec->nfl) { /* not the record logged */
        r->ok = false;
        return;
    }
    for (size_t j = 0; j < n; j++)
        if (is_dirty(bits, e[j] >> 1))
            mark_l2_under(r, units[j] * line, line);
}

/* ---- the re-simulation --------------------------------------------------- */

/* hms_mem_hier.lookup for a record with dirty sets: those are simulated,
 * the clean ones answered as logged (an L2 line in a clean set was looked
 * up as written, and hit unless it is among the record's logged misses). */
static bool run_lookup(void *ctx, hms_cache *c, uint64_t addr)
{
    hms_skip_run *r = ctx;
    if (c == &r->h->l2) {
        uint32_t set = hms_cache_set_of(c, addr);
        if (is_dirty(r->dirty[0], set))
            return hms_cache_access_line_in(c, addr, set);
        while (r->mc < r->mend && *r->mc < addr)
            r->mc++;
        if (r->mc < r->mend && *r->mc == addr) {
            r->mc++;
            return false;
        }
        return true;
    }
    if (r->flc == r->flend) { /* lines come as logged, one lookup each */
        r->broken = true;
        return hms_cache_access_line(c, addr);
    }
    uint32_t e = *r->flc++;
    if (e >> 1 != hms_cache_set_of(c, addr)) { /* not the line logged here */
        r->broken = true;
        return hms_cache_access_line(c, addr);
    }
    if (is_dirty(r->cur_fl, e >> 1)) /* the set as logged: the same line, the same cache */
        return hms_cache_access_line_in(c, addr, e >> 1);
    return e & 1;
}

bool hms_skip_access(hms_skip_run *r, hms_cache *fl, const hms_warp_access *p, size_t i,
                     hms_l2_miss_fn miss, void *ctx, hms_mem_outcome *o)
{
    const hms_skip_log *log = r->log;
    const hms_skip_rec *rec = &log->rec[i];
    hms_mem_hier *h = r->h;
    if (!rec->logged || rec->inst != (fl ? inst_of(h, fl) : 0)) {
        r->broken = true; /* not as logged: the caller runs everything again */
        return hms_mem_access(h, fl, p, miss, ctx, o);
    }
    bool clean = !r->fl_dirty[i];
    const uint32_t *l2 = log->l2_set + rec->l2;
    for (uint32_t j = 0; clean && r->dirty[0] && j < rec->nl2; j++)
        clean = !is_dirty(r->dirty[0], l2[j]);
    const uint64_t *m = log->miss + rec->miss;
    if (clean) {
        r->clean++;
        o->fl_hits += rec->mo.fl_hits;
        o->fl_misses += rec->mo.fl_misses;
        o->l2_hits += rec->mo.l2_hits;
        o->l2_misses += rec->mo.l2_misses;
        for (uint32_t j = 0; j < rec->mo.l2_misses; j++)
            if (miss && !miss(ctx, m[j]))
                return false;
        return true;
    }
    r->mixed++;
    r->flc = log->fl_set + rec->fl;
    r->flend = r->flc + rec->nfl;
    r->mc = m;
    r->mend = m + rec->mo.l2_misses;
    r->cur_fl = rec->inst ? r->dirty[rec->inst] : NULL;
    h->lookup = run_lookup;
    h->lookup_ctx = r;
    bool ok = hms_mem_access(h, fl, p, miss, ctx, o);
    h->lookup = NULL;
    h->lookup_ctx = NULL;
    if (r->flc != r->flend) /* fewer first-level lookups than logged */
        r->broken = true;
    return ok;
}
