/* Per-record memory units and coalescing parts, computed once per stream
 * (see units_memo.h). */
#include "runtime/units_memo.h"

#include <stdlib.h>
#include <string.h>

/* Rows live in chunks that never move, so a row handed out stays valid; a
 * chunk always has room for the longest row. */
#define CHUNK_UNITS ((size_t)1 << 16)
#define ROW_UNKNOWN UINT16_MAX

/* Per-record state bits. */
enum { CHECKED = 1, VALID = 2, PARTS = 4, SRC_CHECKED = 8, SRC_SAME = 16 };

typedef struct {
    uint64_t unit;        /* 0: slot unused */
    const uint64_t **row; /* [n] the record's units */
    uint16_t *count;      /* [n] their number, ROW_UNKNOWN until computed */
    uint64_t **chunk;     /* pools of rows */
    size_t nchunk, capchunk;
    size_t used; /* entries taken in the last chunk */
} units_table;

struct hms_units_memo {
    const hms_warp_access *v; /* the stream's records */
    size_t n;
    /* A sub-memo (hms_units_memo_new_sub): record i was copied from
     * parent's record src[i]; SRC_SAME once checked that it has the same
     * lanes, width and addresses there. */
    hms_units_memo *parent;
    size_t *src;
    units_table t[HMS_UNITS_MEMO_SIZES];
    uint8_t *state;            /* [n] the flags above */
    hms_coalesce_parts *parts; /* [n] on the keyed arch */
    bool keyed;                /* the arch rules the parts were made for: */
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
    if (!p->mask || memcmp(p->addr, r->addr, sizeof p->addr) == 0)
        return true;
    int l0 = __builtin_ctz(p->mask);
    uint64_t off = p->addr[l0] - r->addr[l0];
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
    m->state = calloc(s->n ? s->n : 1, sizeof *m->state);
    if (!m->src || !m->state) { /* works alone */
        free(m->src);
        m->src = NULL;
        return m;
    }
    memcpy(m->src, src, s->n * sizeof *src);
    m->parent = parent;
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

/* Whether record i is valid (hms_access_check), checked once. */
static bool record_valid(hms_units_memo *m, size_t i)
{
    if (!m->state) {
        m->state = calloc(m->n ? m->n : 1, sizeof *m->state);
        if (!m->state)
            return hms_access_check(&m->v[i], NULL, 0);
    }
    if (!(m->state[i] & CHECKED))
        m->state[i] |= (uint8_t)(CHECKED | (hms_access_check(&m->v[i], NULL, 0) ? VALID : 0));
    return m->state[i] & VALID;
}

/* Record i's units at `unit` into dst: from a row at a size that divides
 * `unit` when the record has one (a valid record's units are whole there),
 * else hms_warp_units. */
static size_t compute_row(hms_units_memo *m, size_t i, uint64_t unit, uint64_t *dst)
{
    for (int k = 0; k < HMS_UNITS_MEMO_SIZES; k++) {
        const units_table *f = &m->t[k];
        if (f->unit && f->unit < unit && unit % f->unit == 0 && f->count[i] != ROW_UNKNOWN &&
            record_valid(m, i))
            return hms_units_coarsen(f->row[i], f->count[i], unit / f->unit, dst);
    }
    return hms_warp_units(&m->v[i], unit, dst);
}

/* Record i's row in the table of `unit` (computed on first use); NULL when
 * it cannot be kept. */
static const uint64_t *row_of(hms_units_memo *m, size_t i, uint64_t unit, size_t *n)
{
    units_table *t = table_of(m, unit);
    if (!t)
        return NULL;
    if (t->count[i] != ROW_UNKNOWN) {
        *n = t->count[i];
        return t->row[i];
    }
    uint64_t *dst = room(t);
    if (!dst)
        return NULL;
    *n = compute_row(m, i, unit, dst);
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
    if (x->src && !(x->state[*i] & SRC_CHECKED)) { /* checked on first use */
        uint64_t same = 1;
        size_t j = x->src[*i];
        if (j < x->parent->n && moved_copy(&x->parent->v[j], r, &same) && same == 0)
            x->state[*i] |= SRC_SAME;
        x->state[*i] |= SRC_CHECKED;
    }
    if (x->src && (x->state[*i] & SRC_SAME)) {
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
     * them whole and neither lane range wraps */
    bool usable = resolve(&m, &i, p, &d) &&
                  (d == 0 || (d % unit == 0 && record_valid(m, i) && hms_access_check(p, NULL, 0)));
    size_t n;
    const uint64_t *row = usable ? row_of(m, i, unit, &n) : NULL;
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

size_t hms_units_count(hms_units_memo *m, size_t i, const hms_warp_access *p, uint64_t unit)
{
    uint64_t buf[HMS_WARP_UNITS_MAX];
    const uint64_t *u;
    return hms_units_of(m, i, p, unit, buf, &u);
}

/* The parts of valid record i on arch a; NULL when a's rules are not the
 * keyed ones or out of memory. */
static const hms_coalesce_parts *parts_of(hms_units_memo *m, const hms_arch *a, size_t i)
{
    if (!m->keyed) {
        m->parts = malloc((m->n ? m->n : 1) * sizeof *m->parts);
        if (!m->parts)
            return NULL;
        m->keyed = true;
        m->sector_bytes = a->sector_bytes;
        m->line_bytes = a->line_bytes;
        m->half_warp_segments = a->half_warp_segments;
    }
    if (m->sector_bytes != a->sector_bytes || m->line_bytes != a->line_bytes ||
        m->half_warp_segments != a->half_warp_segments || !m->state)
        return NULL;
    if (!(m->state[i] & PARTS)) {
        const hms_warp_access *r = &m->v[i];
        uint64_t buf[HMS_WARP_UNITS_MAX];
        const uint64_t *sectors = buf;
        size_t n = 0;
        if (r->mask)
            n = hms_units_of(m, i, r, hms_coalesce_sector_bytes(a), buf, &sectors);
        hms_coalesce_parts_from_sectors(a, r, sectors, n, &m->parts[i]);
        m->state[i] |= PARTS;
    }
    return &m->parts[i];
}

bool hms_units_coalesce(hms_units_memo *m, const hms_arch *a, size_t i, const hms_warp_access *p,
                        hms_coalesce_result *out)
{
    uint64_t d;
    if (!resolve(&m, &i, p, &d) || !hms_coalesce_translation_invariant(a, d) ||
        !record_valid(m, i) || (d != 0 && !hms_access_check(p, NULL, 0)))
        return hms_coalesce_warp(a, p, out); /* also says false for a malformed record */
    const hms_coalesce_parts *parts = parts_of(m, a, i);
    if (!parts)
        return hms_coalesce_warp(a, p, out);
    hms_coalesce_assemble(a, p, parts, out);
    return true;
}
