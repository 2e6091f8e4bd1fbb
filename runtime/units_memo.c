/* Per-record memory units and coalescing parts, computed once per stream
 * (see units_memo.h). */
#include "runtime/units_memo.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/lane_pattern.h"

/* Rows live in chunks that never move, so a row handed out stays valid; a
 * chunk always has room for the longest row. */
#define CHUNK_UNITS ((size_t)1 << 16)
#define ROW_UNKNOWN UINT16_MAX

/* Per-record state bits. */
enum { CHECKED = 1, VALID = 2, PARTS = 4 };

typedef struct {
    uint64_t unit;        /* 0: slot unused */
    const uint64_t **row; /* [n] the record's units */
    uint16_t *count;      /* [n] their number, ROW_UNKNOWN until computed */
    uint64_t **chunk;     /* pools of rows */
    size_t nchunk, capchunk;
    size_t used; /* entries taken in the last chunk */
} units_table;

/* 1024 slots of ~170 bytes: a table that stays in the host's L2. */
#define PATTERN_BITS 10

struct parts_slot {
    uint32_t rel[HMS_WARP_LANES];
    uint32_t mask;
    uint8_t width;
    bool used;
    hms_coalesce_parts parts;
};

struct hms_units_memo {
    const hms_warp_access *v; /* the stream's records */
    size_t n;
    /* A sub-memo (hms_units_memo_new_sub): record i is parent's record
     * src[i] (same lanes, width and addresses) unless src[i] == SIZE_MAX. */
    hms_units_memo *parent;
    size_t *src;
    units_table t[HMS_UNITS_MEMO_SIZES];
    uint8_t *state;            /* [n] the flags above */
    hms_coalesce_parts *parts; /* [n] on the keyed arch */
    /* The parts of each lane pattern met (runtime/lane_pattern.h), on the
     * keyed arch: a record with a met pattern is a copy of that record moved
     * by a multiple of hms_coalesce_period, so its parts are the same. NULL
     * until parts are asked (or when out of memory: each record computed). */
    struct parts_slot *pattern;
    uint64_t period;
    bool keyed; /* the arch rules the parts were made for: */
    int sector_bytes, line_bytes;
    bool half_warp_segments;
};

hms_units_memo *hms_units_memo_new(const hms_stream *s)
{
    hms_units_memo *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->v = s->v;
    m->n = s->n;
    return m;
}

/* Whether p is r with every active lane moved by one offset *d that did
 * not wrap (same lanes, same width). */
static bool moved_copy(const hms_warp_access *r, const hms_warp_access *p, uint64_t *d)
{
    if (p->mask != r->mask || p->width != r->width)
        return false;
    *d = 0;
    if (!p->mask)
        return true;
    int l0 = __builtin_ctz(p->mask);
    uint64_t off = p->addr[l0] - r->addr[l0];
    if (off == 0 && memcmp(p->addr, r->addr, sizeof p->addr) == 0) /* a verbatim copy */
        return true;
    bool same = true;
    for (int l = 0; l < HMS_WARP_LANES; l++) /* no early exit: vectorises */
        same &=
            !(p->mask >> l & 1u) || (p->addr[l] - r->addr[l] == off && p->addr[l] >= r->addr[l]);
    *d = off;
    return same;
}

hms_units_memo *hms_units_memo_new_sub(const hms_stream *s, hms_units_memo *parent,
                                       const size_t *src)
{
    hms_units_memo *m = hms_units_memo_new(s);
    if (!m || !parent || !src)
        return m;
    m->src = malloc((s->n ? s->n : 1) * sizeof *m->src);
    if (!m->src)
        return m; /* works alone */
    m->parent = parent;
    /* checked here, in order (a sequential read of both streams): the
     * simulations visit records in issue order, where the parent's would
     * be cold */
    for (size_t i = 0; i < s->n; i++) {
        uint64_t d = 1;
        bool same = src[i] < parent->n && moved_copy(&parent->v[src[i]], &s->v[i], &d) && d == 0;
        m->src[i] = same ? src[i] : SIZE_MAX;
    }
    return m;
}

void hms_units_memo_free(hms_units_memo *m)
{
    if (!m)
        return;
    free(m->src);
    for (int k = 0; k < HMS_UNITS_MEMO_SIZES; k++) {
        units_table *t = &m->t[k];
        for (size_t c = 0; c < t->nchunk; c++)
            free(t->chunk[c]);
        free(t->chunk);
        free(t->row);
        free(t->count);
    }
    free(m->state);
    free(m->parts);
    free(m->pattern);
    free(m);
}

/* The table of `unit`, made on first use; NULL when every slot holds
 * another size or out of memory. */
static units_table *table_of(hms_units_memo *m, uint64_t unit)
{
    for (int k = 0; k < HMS_UNITS_MEMO_SIZES; k++) {
        units_table *t = &m->t[k];
        if (t->unit == unit)
            return t;
        if (t->unit)
            continue;
        t->row = malloc((m->n ? m->n : 1) * sizeof *t->row);
        t->count = malloc((m->n ? m->n : 1) * sizeof *t->count);
        if (!t->row || !t->count) {
            free(t->row);
            free(t->count);
            t->row = NULL;
            t->count = NULL;
            return NULL;
        }
        memset(t->count, 0xff, (m->n ? m->n : 1) * sizeof *t->count); /* ROW_UNKNOWN */
        t->unit = unit;
        return t;
    }
    return NULL;
}

/* Room for one more row at the end of the last chunk; NULL when out of
 * memory. */
static uint64_t *room(units_table *t)
{
    if (t->nchunk && t->used + HMS_WARP_UNITS_MAX <= CHUNK_UNITS)
        return t->chunk[t->nchunk - 1] + t->used;
    if (t->nchunk == t->capchunk) {
        size_t cap = t->capchunk ? t->capchunk * 2 : 8;
        uint64_t **c = realloc(t->chunk, cap * sizeof *c);
        if (!c)
            return NULL;
        t->chunk = c;
        t->capchunk = cap;
    }
    uint64_t *c = malloc(CHUNK_UNITS * sizeof *c);
    if (!c)
        return NULL;
    t->chunk[t->nchunk++] = c;
    t->used = 0;
    return c;
}

/* Whether record i is valid (hms_access_check), checked once on q, which
 * has its lanes, width and addresses. */
static bool record_valid(hms_units_memo *m, size_t i, const hms_warp_access *q)
{
    if (!m->state) {
        m->state = calloc(m->n ? m->n : 1, sizeof *m->state);
        if (!m->state)
            return hms_access_check(q, NULL, 0);
    }
    if (!(m->state[i] & CHECKED))
        m->state[i] |= (uint8_t)(CHECKED | (hms_access_check(q, NULL, 0) ? VALID : 0));
    return m->state[i] & VALID;
}

/* Record i's units at `unit` into dst, computed from q, the record moved by
 * d (0, or a multiple of unit with q valid): from a row of the record at a
 * size that divides `unit` when it has one and is valid (its units are
 * whole there), else from q's lanes, which are in cache when the caller
 * holds q and the record's may not be. */
static size_t compute_row(hms_units_memo *m, size_t i, const hms_warp_access *q, uint64_t d,
                          uint64_t unit, uint64_t *dst)
{
    for (int k = 0; k < HMS_UNITS_MEMO_SIZES; k++) {
        const units_table *f = &m->t[k];
        if (f->unit && f->unit < unit && unit % f->unit == 0 && f->count[i] != ROW_UNKNOWN &&
            f->row[i] && (d != 0 || record_valid(m, i, q)))
            return hms_units_coarsen(f->row[i], f->count[i], unit / f->unit, dst);
    }
    size_t n = hms_warp_units(q, unit, dst);
    for (size_t k = 0; d && k < n; k++)
        dst[k] -= d / unit;
    return n;
}

/* Record i's row in the table of `unit` (computed from q on first use);
 * NULL when it cannot be kept. */
static const uint64_t *row_of(hms_units_memo *m, size_t i, const hms_warp_access *q, uint64_t d,
                              uint64_t unit, size_t *n)
{
    units_table *t = table_of(m, unit);
    if (!t)
        return NULL;
    if (t->count[i] != ROW_UNKNOWN && t->row[i]) {
        *n = t->count[i];
        return t->row[i];
    }
    uint64_t *dst = room(t);
    if (!dst)
        return NULL;
    *n = compute_row(m, i, q, d, unit, dst);
    t->used += *n;
    t->row[i] = dst;
    t->count[i] = (uint16_t)*n;
    return dst;
}

/* Where p's answers are kept: record *i of *m, or of its parent when the
 * record is the same there, p being that record moved by *d (0: the same
 * lanes, width and addresses, so the same answers). False when p is
 * neither record i nor such a copy of it. */
static bool resolve(hms_units_memo **m, size_t *i, const hms_warp_access *p, uint64_t *d)
{
    hms_units_memo *x = *m;
    *d = 0;
    if (!x || *i >= x->n)
        return false;
    const hms_warp_access *r = &x->v[*i];
    if (p != r && !moved_copy(r, p, d))
        return false;
    if (x->src && x->src[*i] != SIZE_MAX) {
        *i = x->src[*i];
        *m = x->parent;
    }
    return true;
}

size_t hms_units_of(hms_units_memo *m, size_t i, const hms_warp_access *p, uint64_t unit,
                    uint64_t *buf, const uint64_t **out)
{
    uint64_t d;
    /* a moved copy's units are the record's moved by d / unit when d keeps
     * them whole and no lane wraps (p valid: then so is the record, whose
     * lanes are p's less d) */
    bool usable =
        resolve(&m, &i, p, &d) && (d == 0 || (d % unit == 0 && hms_access_check(p, NULL, 0)));
    size_t n;
    const uint64_t *row = usable ? row_of(m, i, p, d, unit, &n) : NULL;
    if (!row) {
        *out = buf;
        return hms_warp_units(p, unit, buf);
    }
    if (d == 0) {
        *out = row;
        return n;
    }
    for (size_t k = 0; k < n; k++)
        buf[k] = row[k] + d / unit;
    *out = buf;
    return n;
}

bool hms_units_valid(hms_units_memo *m, size_t i, const hms_warp_access *p)
{
    uint64_t d;
    if (!resolve(&m, &i, p, &d) || d != 0)
        return hms_access_check(p, NULL, 0);
    return record_valid(m, i, p);
}

size_t hms_units_count(hms_units_memo *m, size_t i, const hms_warp_access *p, uint64_t unit)
{
    uint64_t buf[HMS_WARP_UNITS_MAX], d;
    hms_units_memo *o = m;
    size_t j = i;
    units_table *t = resolve(&o, &j, p, &d) && d == 0 ? table_of(o, unit) : NULL;
    if (t) {
        /* a count asked alone keeps only the count (row NULL): a record
         * only counted (a work estimate) costs no row */
        if (t->count[j] == ROW_UNKNOWN) {
            t->count[j] = (uint16_t)compute_row(o, j, p, 0, unit, buf);
            t->row[j] = NULL;
        }
        return t->count[j];
    }
    const uint64_t *u;
    return hms_units_of(m, i, p, unit, buf, &u);
}

/* The parts of valid record i on arch a, computed from q (the record moved
 * by an offset that keeps them: hms_coalesce_translation_invariant) on
 * first use; NULL when a's rules are not the keyed ones or out of memory. */
static const hms_coalesce_parts *parts_of(hms_units_memo *m, const hms_arch *a, size_t i,
                                          const hms_warp_access *q)
{
    if (!m->keyed) {
        m->parts = malloc((m->n ? m->n : 1) * sizeof *m->parts);
        if (!m->parts)
            return NULL;
        m->keyed = true;
        m->sector_bytes = a->sector_bytes;
        m->line_bytes = a->line_bytes;
        m->half_warp_segments = a->half_warp_segments;
        m->pattern = calloc((size_t)1 << PATTERN_BITS, sizeof *m->pattern);
        m->period = hms_coalesce_period(a);
    }
    if (!m->state)
        m->state = calloc(m->n ? m->n : 1, sizeof *m->state);
    if (m->sector_bytes != a->sector_bytes || m->line_bytes != a->line_bytes ||
        m->half_warp_segments != a->half_warp_segments || !m->state)
        return NULL;
    if (!(m->state[i] & PARTS)) {
        struct parts_slot *slot = NULL;
        uint32_t rel[HMS_WARP_LANES];
        if (m->pattern && q->mask && hms_lane_pattern(q, m->period, rel)) {
            slot = &m->pattern[hms_lane_pattern_slot(rel, q->mask, q->width, PATTERN_BITS)];
            if (slot->used && slot->mask == q->mask && slot->width == q->width &&
                memcmp(slot->rel, rel, sizeof rel) == 0) {
                m->parts[i] = slot->parts;
                m->state[i] |= PARTS;
                return &m->parts[i];
            }
        }
        uint64_t buf[HMS_WARP_UNITS_MAX], sector = hms_coalesce_sector_bytes(a);
        const uint64_t *sectors = buf;
        size_t n = 0;
        units_table *t = q->mask ? table_of(m, sector) : NULL;
        if (t && t->count[i] != ROW_UNKNOWN && t->row[i]) { /* the record's: same count, lines */
            sectors = t->row[i];
            n = t->count[i];
        } else if (q->mask) { /* not kept: parts are often all a record is asked for */
            n = hms_warp_units(q, sector, buf);
        }
        hms_coalesce_parts_from_sectors(a, q, sectors, n, &m->parts[i]);
        m->state[i] |= PARTS;
        if (slot) {
            memcpy(slot->rel, rel, sizeof rel);
            slot->mask = q->mask;
            slot->width = q->width;
            slot->used = true;
            slot->parts = m->parts[i];
        }
    }
    return &m->parts[i];
}

bool hms_units_coalesce(hms_units_memo *m, const hms_arch *a, size_t i, const hms_warp_access *p,
                        hms_coalesce_result *out)
{
    uint64_t d;
    /* p valid: so is the record (d == 0: the same lanes; else p's lanes are
     * the record's moved up without wrapping) */
    if (!resolve(&m, &i, p, &d) || !hms_coalesce_translation_invariant(a, d) ||
        !(d == 0 ? record_valid(m, i, p) : hms_access_check(p, NULL, 0)))
        return hms_coalesce_warp(a, p, out); /* also says false for a malformed record */
    const hms_coalesce_parts *parts = parts_of(m, a, i, p);
    if (!parts)
        return hms_coalesce_warp(a, p, out);
    hms_coalesce_assemble(a, p, parts, out);
    return true;
}
