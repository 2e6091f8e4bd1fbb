/* hms-shared-reuse: a shared-memory buffer that does not pay for itself.
 * CuMAPz (seeds/001_3bb0fc5541bb7adb.txt, Sec. 3.1 and eq. 1) shows that
 * buffering pays through reuse and through coalescing (Table I: fetching
 * the coalesced reference wins although another has more reuse), and a
 * byte count alone misses what the target's caches give the direct reads.
 * So the advice is judged by the model: the placement pass predicts the
 * kernel with the buffer replaced by direct global reads through the
 * target's L1/L2 (passes/figures/shared_direct.h, same stream and model as the
 * kernel as written), and the check fires only when that variant is
 * predicted faster by the --placement-threshold, and the direct reads
 * would move fewer than HMS_REUSE_MIN_GAIN times the bytes the fill moves
 * (the model has no L1 bandwidth limit, so it under-prices direct reads
 * that move many times the fill's bytes). The message gives both. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/checks/check_thresholds.h"
#include "passes/checks/check_util.h"
#include "passes/figures/shared_direct.h"
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

/* The byte figures of the message, over the whole trace with block weights. */
static bool bytes_of(const hms_check_ctx *c, int sb, buffer_cost *out)
{
    const hms_kernel_trace *t = &c->trace;
    unsigned sector = c->arch->sector_bytes > 0 ? (unsigned)c->arch->sector_bytes : 32;
    if ((size_t)sb >= t->narrays)
        return false;
    hms_stream v;
    size_t *src = NULL;
    hms_direct_counts n;
    char err[256];
    if (!hms_direct_reads(c->k, &t->stream, sb, t->arrays[sb].base, t->arrays[sb].extent, &v, &src,
                          &n, err, sizeof err))
        return false;
    for (size_t i = 0; i < t->stream.n; i++) {
        const hms_warp_access *r = &t->stream.v[i];
        if ((int)r->array != sb || r->space != HMS_SPACE_SHARED)
            continue;
        double w = hms_trace_record_block(t, i)->weight * hms_record_reps(r);
        out->shared_requests += w;
        if (r->kind == HMS_ACCESS_LOAD)
            out->read_bytes += w * hms_popcount32(r->mask) * r->width;
    }
    for (size_t i = 0; i < v.n; i++) {
        const hms_warp_access *g = &v.v[i];
        uint64_t units[HMS_WARP_UNITS_MAX];
        if ((int)g->array != sb || g->space != HMS_SPACE_GLOBAL || !hms_access_check(g, NULL, 0))
            continue;
        double w = hms_trace_record_block(t, src[i])->weight * hms_record_reps(g);
        out->direct_bytes += w * (double)hms_warp_units(g, sector, units) * sector;
    }
    hms_stream_free(&v);
    free(src);
    for (size_t i = 0; i < c->nsites; i++)
        if (is_fetch_of(c->k, (int)i, sb))
            out->fill_bytes += c->sites[i].sectors * sector;
    return true;
}

void hms_check_shared_reuse(struct hms_check_ctx *c)
{
    const ir_kernel *k = c->k;
    for (size_t sb = 0; sb < k->narrays && sb < c->narrays; sb++) {
        const hms_array_placement *p = &c->placements[sb];
        if (!p->direct_ok || !c->fig.time_ok || !(p->direct.time > 0))
            continue;
        double speedup = c->fig.time.time / p->direct.time;
        if (speedup < c->placement_threshold)
            continue;
        buffer_cost cost = {0};
        if (!bytes_of(c, (int)sb, &cost) || cost.fill_bytes <= 0 || cost.read_bytes <= 0)
            continue;
        /* The model has no L1 bandwidth limit, so direct reads that move
         * several times the fill's bytes through L1 look cheaper than they
         * are: such a buffer is never called a loss. */
        if (cost.direct_bytes >= HMS_REUSE_MIN_GAIN * cost.fill_bytes)
            continue;
        const hms_site_metrics *read = NULL;
        for (size_t i = 0; i < c->nsites && !read; i++)
            if (c->sites[i].acc->array == (int)sb && c->sites[i].acc->kind == HMS_ACCESS_LOAD &&
                c->sites[i].requests > 0)
                read = &c->sites[i];
        if (!read)
            continue;
        double blocks = c->trace.blocks_total ? (double)c->trace.blocks_total : 1;
        char sp[32], tc[32], td[32], direct[32], fill[32], reuse[32], req[32];
        hms_finding *f = hms_ctx_report(
            c, &read->acc->loc,
            "shared buffer '%s' does not pay: the kernel is predicted %sx faster reading global "
            "memory directly (%s -> %s cycles); the direct reads would move %s bytes per block, "
            "filling it moves %s (data reuse %s), and they save %s shared-memory requests per "
            "block and the barrier",
            k->arrays[sb].name, hms_fmt_num(sp, sizeof sp, speedup, 2),
            hms_fmt_num(tc, sizeof tc, c->fig.time.time, 0),
            hms_fmt_num(td, sizeof td, p->direct.time, 0),
            hms_fmt_num(direct, sizeof direct, cost.direct_bytes / blocks, 0),
            hms_fmt_num(fill, sizeof fill, cost.fill_bytes / blocks, 0),
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
