/* The variant of a kernel that reads global memory instead of one shared
 * buffer (see shared_direct.h). */
#include "passes/figures/shared_direct.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const ir_kernel *k;
    int sb;
    uint64_t base, eb;
    size_t nel;
    uint64_t *gaddr; /* per buffer element: the global address its fill read */
    uint32_t *stamp; /* per buffer element: block tag of that fill */
    size_t *last;    /* per (warp, mapping): index of the warp's last fetch record */
    size_t wpb;      /* warps `last` has rows for: grows with the warps seen */
    hms_stream *out;
    size_t **src, nsrc, capsrc;
    hms_direct_counts *n;
    bool reads_only; /* emit only the records of array sb */
} direct_ctx;

static bool emit(direct_ctx *c, const hms_warp_access *r, size_t from)
{
    if (!hms_stream_push(c->out, r))
        return false;
    if (!c->src)
        return true;
    if (c->nsrc == c->capsrc) {
        size_t cap = c->capsrc ? 2 * c->capsrc : 1024;
        size_t *p = realloc(*c->src, cap * sizeof *p);
        if (!p)
            return false;
        *c->src = p;
        c->capsrc = cap;
    }
    (*c->src)[c->nsrc++] = from;
    return true;
}

static bool element_of(const direct_ctx *c, uint64_t addr, size_t *e)
{
    if (addr < c->base)
        return false;
    *e = (size_t)((addr - c->base) / c->eb);
    return *e < c->nel;
}

/* A fill store: record which global address each stored element came from. */
static void fill(direct_ctx *c, const hms_warp_access *r, const hms_warp_access *f, uint32_t tag)
{
    unsigned per = r->width < f->width ? r->width : f->width;
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        size_t e;
        if (!((r->mask & f->mask) >> l & 1) || !element_of(c, r->addr[l], &e))
            continue;
        for (unsigned j = 0; j * c->eb < per && e + j < c->nel; j++) {
            c->gaddr[e + j] = f->addr[l] + j * c->eb;
            c->stamp[e + j] = tag;
        }
    }
}

/* A load of the buffer as the global load(s) it stands for. */
static bool convert(direct_ctx *c, const hms_warp_access *r, size_t from, uint32_t tag)
{
    unsigned parts = r->width > c->eb ? (unsigned)(r->width / c->eb) : 1;
    bool contiguous = true;
    for (int l = 0; l < HMS_WARP_LANES && parts > 1; l++) {
        size_t e;
        if (!(r->mask >> l & 1) || !element_of(c, r->addr[l], &e))
            continue;
        for (unsigned j = 1; j < parts; j++)
            if (e + j >= c->nel || c->stamp[e + j] != tag ||
                c->gaddr[e + j] != c->gaddr[e] + j * c->eb)
                contiguous = false;
    }
    unsigned n = contiguous ? 1 : parts;
    c->n->loads_in++;
    for (unsigned j = 0; j < n; j++) {
        hms_warp_access g = *r;
        g.space = HMS_SPACE_GLOBAL;
        g.width = (uint8_t)(contiguous ? r->width : c->eb);
        g.mask = 0;
        for (int l = 0; l < HMS_WARP_LANES; l++) {
            size_t e;
            if (!(r->mask >> l & 1) || !element_of(c, r->addr[l], &e) || e + j >= c->nel ||
                c->stamp[e + j] != tag)
                continue;
            g.addr[l] = c->gaddr[e + j] + (r->addr[l] - c->base) % c->eb;
            g.mask |= 1u << l;
        }
        if (!g.mask)
            continue;
        if (!emit(c, &g, from))
            return false;
        c->n->loads_out++;
    }
    return true;
}

/* Rows of `last` up to warp w, new ones empty. */
static bool room_for_warp(direct_ctx *c, uint32_t w)
{
    size_t nm = c->k->nmappings, wpb = c->wpb;
    if (w < wpb || nm == 0)
        return true;
    while (wpb <= w)
        wpb *= 2;
    size_t *v = realloc(c->last, wpb * nm * sizeof *v);
    if (!v)
        return false;
    for (size_t j = c->wpb * nm; j < wpb * nm; j++)
        v[j] = SIZE_MAX;
    c->last = v;
    c->wpb = wpb;
    return true;
}

static bool block_pass(direct_ctx *c, const hms_stream *in, size_t first, size_t end, uint32_t tag)
{
    const ir_kernel *k = c->k;
    size_t nm = k->nmappings;
    for (size_t j = 0; j < c->wpb * nm; j++)
        c->last[j] = SIZE_MAX;
    for (size_t i = first; i < end; i++) {
        const hms_warp_access *r = &in->v[i];
        bool drop = false;
        if (!room_for_warp(c, r->warp))
            return false;
        for (size_t m = 0; m < nm; m++) {
            const ir_mapping *mp = &k->mappings[m];
            if (mp->shared_array != c->sb)
                continue;
            size_t *last = &c->last[r->warp * nm + m];
            if ((int)r->site == mp->fetch_site) {
                *last = i;
                drop = true;
            }
            if ((int)r->site == mp->access_site) {
                if (*last != SIZE_MAX)
                    fill(c, r, &in->v[*last], tag);
                drop = true;
            }
        }
        bool ours = (int)r->array == c->sb && r->space == HMS_SPACE_SHARED;
        if (drop) {
            if (ours)
                c->n->stores_dropped++;
            else
                c->n->fetches_dropped++;
            continue;
        }
        if (ours && r->kind == HMS_ACCESS_LOAD) {
            if (!convert(c, r, i, tag))
                return false;
            continue;
        }
        if ((!c->reads_only || (int)r->array == c->sb) && !emit(c, r, i))
            return false;
    }
    return true;
}

bool hms_direct_applicable(const ir_kernel *k, int sb)
{
    bool mapped = false;
    for (size_t m = 0; m < k->nmappings; m++)
        mapped |= k->mappings[m].shared_array == sb;
    if (!mapped)
        return false;
    for (size_t s = 0; s < k->nsites; s++) {
        const ir_access *a = k->sites[s];
        if (a->array != sb || a->kind == HMS_ACCESS_LOAD)
            continue;
        bool fill = false;
        for (size_t m = 0; m < k->nmappings; m++)
            fill |= k->mappings[m].shared_array == sb && k->mappings[m].access_site == (int)s;
        if (!fill)
            return false;
    }
    return true;
}

static bool build_variant(const ir_kernel *k, const hms_stream *in, int sb, uint64_t base,
                          uint64_t extent, bool reads_only, hms_stream *out, size_t **src,
                          hms_direct_counts *counts, char *err, size_t errlen)
{
    memset(counts, 0, sizeof *counts);
    hms_stream_init(out);
    if (src)
        *src = NULL;
    if (sb < 0 || (size_t)sb >= k->narrays || !hms_direct_applicable(k, sb) ||
        k->arrays[sb].elem_bytes <= 0) {
        snprintf(err, errlen,
                 "kernel '%s': array %d is no shared buffer filled only by its mappings",
                 k->name ? k->name : "?", sb);
        return false;
    }
    direct_ctx c = {0};
    c.k = k;
    c.sb = sb;
    c.base = base;
    c.eb = (uint64_t)k->arrays[sb].elem_bytes;
    c.nel = (size_t)(extent / c.eb) + 1;
    c.out = out;
    c.src = src;
    c.n = counts;
    c.reads_only = reads_only;
    c.wpb = 1; /* grown by room_for_warp, so the stream is read once */
    size_t nm = k->nmappings;
    c.gaddr = calloc(c.nel, sizeof *c.gaddr);
    c.stamp = calloc(c.nel, sizeof *c.stamp);
    c.last = malloc(c.wpb * (nm ? nm : 1) * sizeof *c.last);
    bool ok = c.gaddr && c.stamp && c.last;
    uint32_t tag = 0;
    for (size_t i = 0; ok && i < in->n;) {
        size_t end = i + 1;
        while (end < in->n && in->v[end].block == in->v[i].block)
            end++;
        ok = block_pass(&c, in, i, end, ++tag);
        i = end;
    }
    free(c.gaddr);
    free(c.stamp);
    free(c.last);
    if (!ok) {
        hms_stream_free(out);
        if (src) {
            free(*src);
            *src = NULL;
        }
        snprintf(err, errlen, "kernel '%s': out of memory building the direct-read variant",
                 k->name ? k->name : "?");
    }
    return ok;
}

bool hms_direct_variant(const ir_kernel *k, const hms_stream *in, int sb, uint64_t base,
                        uint64_t extent, hms_stream *out, size_t **src, hms_direct_counts *counts,
                        char *err, size_t errlen)
{
    return build_variant(k, in, sb, base, extent, false, out, src, counts, err, errlen);
}

bool hms_direct_reads(const ir_kernel *k, const hms_stream *in, int sb, uint64_t base,
                      uint64_t extent, hms_stream *out, size_t **src, hms_direct_counts *counts,
                      char *err, size_t errlen)
{
    return build_variant(k, in, sb, base, extent, true, out, src, counts, err, errlen);
}
