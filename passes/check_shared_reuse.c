/* hms-shared-reuse: a shared-memory buffer that does not pay for itself.
 * CuMAPz (seeds/001_3bb0fc5541bb7adb.txt, Sec. 3.1 and eq. 1) shows that
 * buffering pays through reuse and through coalescing (Table I: fetching
 * the coalesced reference wins although another has more reuse). So for each
 * buffer (the shared array of an IR mapping) we replay the trace block by
 * block: the mapping's stores say which global element each shared element
 * holds, and every read of the buffer is turned back into the global read it
 * replaces. When those direct reads would move fewer than
 * HMS_REUSE_MIN_GAIN times the bytes the fill moves, the copy, its shared
 * traffic and the barrier buy nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/check_thresholds.h"
#include "passes/check_util.h"
#include "runtime/coalesce.h"

typedef struct {
    double fill_bytes;   /* sectors the fetch sites move, in bytes */
    double direct_bytes; /* sectors the replaced direct reads would move, in bytes */
    double read_bytes;   /* bytes the buffer reads deliver (eq. 1 numerator) */
    double shared_requests;
} buffer_cost;

static bool is_fetch_of(const ir_kernel *k, int site, int sb)
{
    for (size_t m = 0; m < k->nmappings; m++)
        if (k->mappings[m].shared_array == sb && k->mappings[m].fetch_site == site)
            return true;
    return false;
}

static bool replay(const hms_check_ctx *c, int sb, buffer_cost *out)
{
    const ir_kernel *k = c->k;
    const hms_kernel_trace *t = &c->trace;
    const ir_array *a = &k->arrays[sb];
    unsigned sector = c->arch->sector_bytes > 0 ? (unsigned)c->arch->sector_bytes : 32;
    if ((size_t)sb >= t->narrays || a->elem_bytes <= 0)
        return false;
    uint64_t base = t->arrays[sb].base, eb = (uint64_t)a->elem_bytes;
    size_t nel = (size_t)(t->arrays[sb].extent / eb) + 1;
    size_t wpb = t->warps_per_block ? t->warps_per_block : 1, nm = k->nmappings;
    uint64_t *gaddr = calloc(nel, sizeof *gaddr);
    uint32_t *stamp = calloc(nel, sizeof *stamp);
    size_t *last = malloc(wpb * (nm ? nm : 1) * sizeof *last);
    bool ok = gaddr && stamp && last;
    for (size_t b = 0; ok && b < t->nblocks; b++) {
        const hms_traced_block *B = &t->blocks[b];
        uint32_t tag = (uint32_t)b + 1;
        for (size_t j = 0; j < wpb * nm; j++)
            last[j] = SIZE_MAX;
        for (size_t i = B->first; i < B->first + B->count; i++) {
            const hms_warp_access *r = &t->stream.v[i];
            if (r->warp >= wpb || !r->mask)
                continue;
            for (size_t m = 0; m < nm; m++) {
                const ir_mapping *mp = &k->mappings[m];
                if (mp->shared_array != sb)
                    continue;
                if ((int)r->site == mp->fetch_site)
                    last[r->warp * nm + m] = i;
                if ((int)r->site != mp->access_site || last[r->warp * nm + m] == SIZE_MAX)
                    continue;
                const hms_warp_access *f = &t->stream.v[last[r->warp * nm + m]];
                for (int l = 0; l < HMS_WARP_LANES; l++) {
                    if (!((r->mask & f->mask) >> l & 1) || r->addr[l] < base)
                        continue;
                    size_t e = (size_t)((r->addr[l] - base) / eb);
                    if (e < nel) {
                        gaddr[e] = f->addr[l];
                        stamp[e] = tag;
                    }
                }
            }
            if ((int)r->array == sb && r->space == HMS_SPACE_SHARED)
                out->shared_requests += B->weight * hms_record_reps(r);
            if ((int)r->array != sb || r->space != HMS_SPACE_SHARED || r->kind != HMS_ACCESS_LOAD)
                continue;
            hms_warp_access g = *r;
            g.space = HMS_SPACE_GLOBAL;
            g.mask = 0;
            for (int l = 0; l < HMS_WARP_LANES; l++) {
                if (!(r->mask >> l & 1) || r->addr[l] < base)
                    continue;
                size_t e = (size_t)((r->addr[l] - base) / eb);
                if (e < nel && stamp[e] == tag) {
                    g.addr[l] = gaddr[e] + (r->addr[l] - base) % eb;
                    g.mask |= 1u << l;
                }
            }
            out->read_bytes += B->weight * hms_record_reps(r) * hms_popcount32(r->mask) * r->width;
            if (!g.mask || !hms_access_check(&g, NULL, 0))
                continue;
            uint64_t units[HMS_WARP_UNITS_MAX];
            out->direct_bytes +=
                B->weight * hms_record_reps(r) * (double)hms_warp_units(&g, sector, units) * sector;
        }
    }
    free(gaddr);
    free(stamp);
    free(last);
    for (size_t i = 0; ok && i < c->nsites; i++)
        if (is_fetch_of(k, (int)i, sb))
            out->fill_bytes += c->sites[i].sectors * sector;
    return ok;
}

void hms_check_shared_reuse(struct hms_check_ctx *c)
{
    const ir_kernel *k = c->k;
    for (size_t sb = 0; sb < k->narrays; sb++) {
        bool buffer = false;
        for (size_t m = 0; m < k->nmappings; m++)
            buffer |= k->mappings[m].shared_array == (int)sb;
        if (!buffer)
            continue;
        buffer_cost cost = {0};
        if (!replay(c, (int)sb, &cost) || cost.fill_bytes <= 0 || cost.read_bytes <= 0)
            continue;
        double gain = cost.direct_bytes / cost.fill_bytes;
        if (gain >= HMS_REUSE_MIN_GAIN)
            continue;
        const hms_site_metrics *read = NULL;
        for (size_t i = 0; i < c->nsites && !read; i++)
            if (c->sites[i].acc->array == (int)sb && c->sites[i].acc->kind == HMS_ACCESS_LOAD &&
                c->sites[i].requests > 0)
                read = &c->sites[i];
        if (!read)
            continue;
        double blocks = c->trace.blocks_total ? (double)c->trace.blocks_total : 1;
        char direct[32], fill[32], reuse[32], g[32], req[32];
        hms_finding *f = hms_ctx_report(
            c, &read->acc->loc,
            "shared buffer '%s' does not pay: the global reads it replaces would move %s bytes "
            "per block, filling it moves %s (%sx; data reuse %s); reading global memory "
            "directly saves %s shared-memory requests per block and the barrier",
            k->arrays[sb].name, hms_fmt_num(direct, sizeof direct, cost.direct_bytes / blocks, 0),
            hms_fmt_num(fill, sizeof fill, cost.fill_bytes / blocks, 0),
            hms_fmt_num(g, sizeof g, gain, 2),
            hms_fmt_num(reuse, sizeof reuse, cost.read_bytes / cost.fill_bytes, 2),
            hms_fmt_num(req, sizeof req, cost.shared_requests / blocks, 1));
        for (size_t m = 0; f && m < k->nmappings; m++) {
            const ir_mapping *mp = &k->mappings[m];
            if (mp->shared_array != (int)sb || mp->fetch_site < 0 ||
                (size_t)mp->fetch_site >= c->nsites)
                continue;
            hms_ctx_note(c, f, &c->sites[mp->fetch_site].acc->loc, "'%s' is filled here from '%s'",
                         k->arrays[sb].name, k->arrays[mp->global_array].name);
        }
    }
}
