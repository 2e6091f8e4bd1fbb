/* One memory hierarchy for every simulation (see mem_hierarchy.h). */
#include "runtime/mem_hierarchy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coalesce.h"

static const char *arch_origin(const hms_arch *a)
{
    return a->source_path[0] ? a->source_path : a->name[0] ? a->name : "<arch>";
}

static double latency_or(uint32_t geom_latency, int arch_latency)
{
    return geom_latency ? (double)geom_latency : arch_latency > 0 ? (double)arch_latency : 0;
}

static const char *fl_name(hms_fl_kind k)
{
    static const char *const n[HMS_FL_KINDS] = {"L1 cache", "texture cache", "read-only cache",
                                                "constant cache"};
    return n[k];
}

/* Where the L1 also serves texture and read-only fetches, they use it. */
static hms_fl_kind cache_of_arch(const hms_arch *a, hms_fl_kind k)
{
    if (a->unified_l1_texture && (k == HMS_FL_TEX || k == HMS_FL_RO) && a->l1.size_bytes)
        return HMS_FL_L1;
    return k;
}

static hms_fl_kind cache_of(const hms_mem_hier *h, hms_fl_kind k)
{
    return cache_of_arch(h->a, k);
}

/* The geometry of first-level kind k (k < HMS_FL_KINDS). Kepler's read-only
 * cache is the texture cache hardware (Mei & Chu). */
static const hms_cache_geom *geom_of(const hms_arch *a, hms_fl_kind k)
{
    switch (k) {
    case HMS_FL_L1:
        return &a->l1;
    case HMS_FL_TEX:
        return &a->tex_l1;
    case HMS_FL_RO:
        return a->readonly.size_bytes ? &a->readonly : &a->tex_l1;
    default:
        return &a->constant;
    }
}

hms_fl_kind hms_mem_serving(const hms_arch *a, hms_fl_kind k)
{
    if (k >= HMS_FL_KINDS)
        return HMS_FL_NONE;
    k = cache_of_arch(a, k);
    return geom_of(a, k)->size_bytes ? k : HMS_FL_NONE;
}

bool hms_mem_hier_init(hms_mem_hier *h, const hms_arch *a, unsigned sms, char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    h->a = a;
    h->sms = sms ? sms : 1;
    for (int k = 0; k < HMS_FL_KINDS; k++)
        h->geom[k] = geom_of(a, (hms_fl_kind)k);
    h->hit_lat[HMS_FL_L1] = latency_or(a->l1.hit_latency, a->global_latency_l1_hit);
    h->hit_lat[HMS_FL_TEX] = latency_or(a->tex_l1.hit_latency, a->texture_latency_hit);
    h->hit_lat[HMS_FL_RO] = latency_or(h->geom[HMS_FL_RO]->hit_latency, a->texture_latency_hit);
    h->hit_lat[HMS_FL_CONST] = latency_or(a->constant.hit_latency, a->constant_latency_hit);
    h->l2_hit_lat = latency_or(a->l2.hit_latency, a->global_latency_l2_hit);
    char why[200];
    for (int k = 0; k < HMS_FL_KINDS; k++) { /* a bad geometry is an error, whatever uses it */
        if (!h->geom[k]->size_bytes)
            continue; /* absent: every access misses */
        hms_cache probe;
        bool ok = hms_cache_init(&probe, h->geom[k], why, sizeof why);
        hms_cache_free(&probe); /* safe after a failed init */
        if (!ok) {
            snprintf(err, errlen, "%s: %s: %s", arch_origin(a), fl_name((hms_fl_kind)k), why);
            return false;
        }
    }
    for (int k = 0; k < HMS_FL_KINDS; k++) {
        h->fl[k] = calloc(h->sms, sizeof *h->fl[k]);
        h->fl_ready[k] = calloc(h->sms, sizeof *h->fl_ready[k]);
        if (!h->fl[k] || !h->fl_ready[k]) {
            snprintf(err, errlen, "%s: out of memory for %u SMs' caches", arch_origin(a), h->sms);
            hms_mem_hier_free(h);
            return false;
        }
    }
    if (a->l2.size_bytes) {
        if (!hms_cache_init(&h->l2, &a->l2, why, sizeof why)) {
            snprintf(err, errlen, "%s: L2 cache: %s", arch_origin(a), why);
            hms_mem_hier_free(h);
            return false;
        }
        h->has_l2 = true;
        h->l2_line = h->l2.line_bytes;
    } else {
        h->l2_line = a->sector_bytes > 0 ? (uint64_t)a->sector_bytes : 32;
    }
    return true;
}

void hms_mem_hier_reset(hms_mem_hier *h)
{
    for (int k = 0; k < HMS_FL_KINDS; k++)
        for (unsigned i = 0; h->fl[k] && i < h->sms; i++)
            if (h->fl_ready[k][i])
                hms_cache_reset(&h->fl[k][i]);
    if (h->has_l2)
        hms_cache_reset(&h->l2);
}

void hms_mem_hier_free(hms_mem_hier *h)
{
    for (int k = 0; k < HMS_FL_KINDS; k++) {
        for (unsigned i = 0; h->fl[k] && h->fl_ready[k] && i < h->sms; i++)
            if (h->fl_ready[k][i])
                hms_cache_free(&h->fl[k][i]);
        free(h->fl[k]);
        free(h->fl_ready[k]);
        h->fl[k] = NULL;
        h->fl_ready[k] = NULL;
    }
    if (h->has_l2)
        hms_cache_free(&h->l2);
    h->has_l2 = false;
}

hms_fl_kind hms_mem_path(const hms_arch *a, hms_space space, hms_access_kind kind)
{
    switch (space) {
    case HMS_SPACE_CONSTANT:
        return HMS_FL_CONST;
    case HMS_SPACE_TEXTURE:
        return HMS_FL_TEX;
    case HMS_SPACE_READONLY:
        return HMS_FL_RO;
    case HMS_SPACE_LOCAL:
        return HMS_FL_L1;
    case HMS_SPACE_SHARED:
        return HMS_FL_NONE; /* on chip: not this hierarchy */
    default:
        return a->l1_caches_global && kind == HMS_ACCESS_LOAD ? HMS_FL_L1 : HMS_FL_NONE;
    }
}

bool hms_mem_first_level(hms_mem_hier *h, hms_fl_kind k, unsigned sm, hms_cache **out)
{
    *out = NULL;
    if (k >= HMS_FL_KINDS)
        return true;
    k = cache_of(h, k);
    if (h->geom[k]->size_bytes == 0)
        return true;
    sm %= h->sms;
    if (!h->fl_ready[k][sm]) {
        char why[200];
        if (!hms_cache_init(&h->fl[k][sm], h->geom[k], why, sizeof why))
            return false; /* the geometry passed init: only memory can fail */
        h->fl_ready[k][sm] = true;
    }
    *out = &h->fl[k][sm];
    return true;
}

double hms_mem_hit_latency(const hms_mem_hier *h, hms_fl_kind k)
{
    return k < HMS_FL_KINDS ? h->hit_lat[k] : h->l2_hit_lat;
}

static bool line_lookup(hms_mem_hier *h, hms_cache *c, uint64_t addr)
{
    return h->lookup ? h->lookup(h->lookup_ctx, c, addr) : hms_cache_access_line(c, addr);
}

static bool l2_lookup(hms_mem_hier *h, uint64_t addr, hms_l2_miss_fn miss, void *ctx,
                      hms_mem_outcome *o)
{
    if (h->has_l2 && line_lookup(h, &h->l2, addr)) {
        o->l2_hits++;
        return true;
    }
    o->l2_misses++;
    return miss ? miss(ctx, addr) : true;
}

uint64_t hms_mem_unit(const hms_mem_hier *h, const hms_cache *fl)
{
    return fl ? fl->line_bytes : h->l2_line;
}

bool hms_mem_access(hms_mem_hier *h, hms_cache *fl, const hms_warp_access *p, hms_l2_miss_fn miss,
                    void *ctx, hms_mem_outcome *o)
{
    uint64_t units[HMS_WARP_UNITS_MAX];
    size_t n = hms_warp_units(p, hms_mem_unit(h, fl), units);
    return hms_mem_access_units(h, fl, units, n, miss, ctx, o);
}

bool hms_mem_access_units(hms_mem_hier *h, hms_cache *fl, const uint64_t *units, size_t n,
                          hms_l2_miss_fn miss, void *ctx, hms_mem_outcome *o)
{
    if (!fl) {
        for (size_t i = 0; i < n; i++)
            if (!l2_lookup(h, units[i] * h->l2_line, miss, ctx, o))
                return false;
        return true;
    }
    uint64_t line = fl->line_bytes;
    uint64_t next = 0; /* lines come ascending: skip L2 lines already looked up */
    for (size_t i = 0; i < n; i++) {
        uint64_t lo = units[i] * line;
        if (line_lookup(h, fl, lo)) {
            o->fl_hits++;
            continue;
        }
        o->fl_misses++;
        uint64_t a = lo / h->l2_line * h->l2_line;
        if (a < next)
            a = next;
        for (; a < lo + line; a += h->l2_line)
            if (!l2_lookup(h, a, miss, ctx, o))
                return false;
        next = a;
    }
    return true;
}
