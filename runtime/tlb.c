/* Two-level TLB model (see tlb.h and docs/model.md "TLB"). */
#include "runtime/tlb.h"

#include <stdio.h>
#include <string.h>

#include "runtime/coalesce.h"

static bool init_level(hms_cache *c, bool *present, const hms_cache_geom *g, const char *name,
                       char *err, size_t errlen)
{
    *present = false;
    if (g->size_bytes == 0)
        return true;
    char why[160];
    if (!hms_cache_init(c, g, why, sizeof why)) {
        snprintf(err, errlen, "TLB %s: %s", name, why);
        return false;
    }
    *present = true;
    return true;
}

bool hms_tlb_init(hms_tlb *t, const hms_arch *arch, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (!init_level(&t->l1, &t->has_l1, &arch->tlb_l1, "L1", err, errlen))
        return false;
    if (!init_level(&t->l2, &t->has_l2, &arch->tlb_l2, "L2", err, errlen)) {
        hms_tlb_free(t);
        return false;
    }
    return true;
}

void hms_tlb_free(hms_tlb *t)
{
    if (t->has_l1)
        hms_cache_free(&t->l1);
    if (t->has_l2)
        hms_cache_free(&t->l2);
    memset(t, 0, sizeof *t);
}

void hms_tlb_reset(hms_tlb *t)
{
    if (t->has_l1)
        hms_cache_reset(&t->l1);
    if (t->has_l2)
        hms_cache_reset(&t->l2);
    t->lookups = 0;
    memset(t->by_level, 0, sizeof t->by_level);
}

hms_tlb_level hms_tlb_access(hms_tlb *t, uint64_t addr)
{
    hms_tlb_level level;
    if (!t->has_l1 && !t->has_l2)
        level = HMS_TLB_UNMODELLED;
    else if (t->has_l1 && hms_cache_access_line(&t->l1, addr))
        level = HMS_TLB_L1_HIT;
    else if (t->has_l2)
        /* The L1 lookup above already refilled L1 on its miss. */
        level = hms_cache_access_line(&t->l2, addr) ? HMS_TLB_L2_HIT : HMS_TLB_MISS;
    else
        level = HMS_TLB_MISS;
    t->lookups++;
    t->by_level[level]++;
    return level;
}

/* Page size used to group a warp's addresses: the L1's, else the L2's. */
static uint32_t page_bytes(const hms_tlb *t)
{
    return t->has_l1 ? t->l1.line_bytes : t->l2.line_bytes;
}

uint64_t hms_tlb_page_bytes(const hms_tlb *t)
{
    return t->has_l1 || t->has_l2 ? page_bytes(t) : 0;
}

hms_tlb_level hms_tlb_pages(hms_tlb *t, const uint64_t *pages, size_t n)
{
    if (!t->has_l1 && !t->has_l2)
        return HMS_TLB_UNMODELLED;
    uint64_t page = page_bytes(t);
    hms_tlb_level worst = HMS_TLB_UNMODELLED;
    for (size_t i = 0; i < n; i++) {
        hms_tlb_level l = hms_tlb_access(t, pages[i] * page);
        if (l > worst)
            worst = l;
    }
    return worst;
}

/* A warp whose lanes all lie in one page (the usual case with pages of
 * megabytes) has that page as its only unit: no list to build or sort.
 * a is valid (hms_access_check), so no lane's last byte wraps. */
static bool one_page(const hms_warp_access *a, uint64_t page, uint64_t *v)
{
    if (!a->mask || page == 0 || (page & (page - 1)) != 0)
        return false;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t m = a->mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t last = a->addr[l] + a->width - 1;
        lo = a->addr[l] < lo ? a->addr[l] : lo;
        hi = last > hi ? last : hi;
    }
    int sh = __builtin_ctzll(page);
    if (lo >> sh != hi >> sh)
        return false;
    v[0] = lo >> sh;
    return true;
}

hms_tlb_level hms_tlb_warp(hms_tlb *t, const hms_warp_access *a, uint32_t *pages)
{
    if (pages)
        *pages = 0;
    if ((!t->has_l1 && !t->has_l2) || !hms_access_check(a, NULL, 0))
        return HMS_TLB_UNMODELLED;
    uint64_t page = page_bytes(t);
    uint64_t v[HMS_WARP_UNITS_MAX];
    size_t n = one_page(a, page, v) ? 1 : hms_warp_units(a, page, v);
    hms_tlb_level worst = hms_tlb_pages(t, v, n);
    if (pages)
        *pages = (uint32_t)n;
    return worst;
}

uint64_t hms_tlb_reach(const hms_cache_geom *g)
{
    if (g->size_bytes == 0 || g->line_bytes == 0)
        return 0;
    /* Every entry maps one page; entries = size / page (this covers the
     * unequal L2 sets, whose entries the size counts). */
    return (uint64_t)(g->size_bytes / g->line_bytes) * g->line_bytes;
}
