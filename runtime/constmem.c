/* Constant memory model (see constmem.h and docs/model.md "Constant
 * memory"). */
#include "runtime/constmem.h"

#include <stdio.h>
#include <string.h>

#include "runtime/coalesce.h"

/* Line size assumed when there is no cache, only to count lines touched. */
#define NO_CACHE_LINE_BYTES 64

bool hms_constmem_init(hms_constmem *c, const hms_arch *arch, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->exact = true;
    c->line_bytes = NO_CACHE_LINE_BYTES;
    if (arch->constant.size_bytes == 0)
        return true;
    char why[160];
    if (!hms_cache_init(&c->cache, &arch->constant, why, sizeof why)) {
        snprintf(err, errlen, "constant cache: %s", why);
        return false;
    }
    c->has_cache = true;
    c->line_bytes = c->cache.line_bytes;
    return true;
}

void hms_constmem_free(hms_constmem *c)
{
    if (c->has_cache)
        hms_cache_free(&c->cache);
    memset(c, 0, sizeof *c);
}

void hms_constmem_reset(hms_constmem *c)
{
    if (c->has_cache)
        hms_cache_reset(&c->cache);
    c->requests = c->invalid = c->skipped = c->distinct = 0;
    c->line_hits = c->line_misses = c->warp_hits = c->warp_misses = 0;
    c->exact = true;
}

uint32_t hms_constmem_distinct(const hms_warp_access *a)
{
    if (!hms_access_check(a, NULL, 0))
        return 0;
    /* A word is the accessed element, at least 4 bytes: lanes reading bytes of
     * one 4-byte word, or the same double, share a pass. */
    uint64_t unit = a->width > HMS_CONST_WORD_BYTES ? a->width : HMS_CONST_WORD_BYTES;
    uint64_t words[HMS_WARP_UNITS_MAX];
    return (uint32_t)hms_warp_units(a, unit, words);
}

bool hms_constmem_access(hms_constmem *c, const hms_warp_access *a, hms_const_result *out)
{
    memset(out, 0, sizeof *out);
    if (!hms_access_check(a, NULL, 0)) {
        c->invalid++;
        return false;
    }
    if (a->mask == 0)
        return true;
    out->distinct = hms_constmem_distinct(a);
    if (c->has_cache) {
        hms_cache_outcome o;
        hms_cache_warp(&c->cache, a, &o);
        out->lines = o.lines;
        out->line_hits = o.hits;
        out->line_misses = o.misses;
    } else {
        uint64_t lines[HMS_WARP_UNITS_MAX];
        out->lines = (uint32_t)hms_warp_units(a, c->line_bytes, lines);
        out->line_misses = out->lines;
    }
    out->hit = out->line_misses == 0;

    c->requests++;
    c->distinct += out->distinct;
    c->line_hits += out->line_hits;
    c->line_misses += out->line_misses;
    if (out->hit)
        c->warp_hits++;
    else
        c->warp_misses++;
    if (!a->exact)
        c->exact = false;
    return true;
}

size_t hms_constmem_feed(hms_constmem *c, const hms_stream *s)
{
    size_t bad = 0;
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *a = &s->v[i];
        if (a->space != HMS_SPACE_CONSTANT) {
            c->skipped++;
            continue;
        }
        hms_const_result r;
        if (!hms_constmem_access(c, a, &r))
            bad++;
    }
    return bad;
}

double hms_constmem_mean_distinct(const hms_constmem *c)
{
    return c->requests ? (double)c->distinct / (double)c->requests : 0.0;
}

double hms_constmem_miss_rate(const hms_constmem *c)
{
    uint64_t looked = c->line_hits + c->line_misses;
    return looked ? (double)c->line_misses / (double)looked : 0.0;
}

double hms_constmem_mean_misses(const hms_constmem *c)
{
    return c->requests ? (double)c->line_misses / (double)c->requests : 0.0;
}
