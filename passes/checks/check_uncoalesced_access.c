/* hms-uncoalesced-access: a global/local/read-only access whose active lanes
 * touch more 32-byte sectors than their bytes need (coalescing, runtime/
 * coalesce.h; CuMAPz bw_util, seeds/001_3bb0fc5541bb7adb.txt eq. 3). The
 * message names the lane stride, symbolically when a size is unknown
 * (passes/ir/stride.h), the sectors per request against the ideal, the share
 * of fetched bytes used, and the traffic a coalesced access would save.
 * Quiet where most of the site's records rest on unknown indices spread over
 * the array: that scatter is the analysis's assumption. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "passes/ir/byte_siblings.h"
#include "passes/checks/check_thresholds.h"
#include "passes/checks/check_util.h"
#include "passes/ir/vector_loop.h"

static const char *kind_word(hms_access_kind k)
{
    return k == HMS_ACCESS_STORE ? "store to" : k == HMS_ACCESS_ATOMIC ? "atomic on" : "load of";
}

/* "stride of 32 floats between lanes: " and friends; "" when the stride does
 * not explain the pattern (stride 0 or 1, or not affine in threadIdx.x). */
static void stride_phrase(const hms_check_ctx *c, const hms_site_metrics *s, unsigned sector,
                          char *buf, size_t len)
{
    buf[0] = '\0';
    const ir_access *acc = s->acc;
    if (!s->stride.affine || !s->stride.coeff)
        return;
    char elems[64];
    if (s->stride.is_const) {
        if (llabs(s->stride.value) <= 1)
            return;
        snprintf(
            buf, len, "stride of %s between lanes: ",
            hms_fmt_elems(elems, sizeof elems, s->arr, (double)s->stride.value, acc->elem_stride));
        return;
    }
    char expr[96];
    ir_expr_format(c->k, s->stride.coeff, expr, sizeof expr);
    double limit = acc->elem_stride > 0 ? (double)sector / acc->elem_stride : 0;
    char lim[32];
    hms_fmt_num(lim, sizeof lim, floor(limit), 0);
    /* "floats" from a count that is not 1 */
    hms_fmt_elems(elems, sizeof elems, s->arr, 2, acc->elem_stride);
    const char *unit = elems;
    while (*unit && *unit != ' ')
        unit++;
    if (*unit)
        unit++;
    if (s->stride_known && !s->stride_approx)
        snprintf(buf, len, "stride of %s = %lld %s between lanes: ", expr, (long long)s->stride_val,
                 unit);
    else if (limit >= 1)
        snprintf(
            buf, len,
            "stride of %s %s between lanes: uncoalesced for any %s > %s; with %s = %lld (assumed) ",
            expr, unit, expr, lim, expr, (long long)s->stride_val);
    else
        snprintf(buf, len, "stride of %s %s between lanes: ", expr, unit);
}

/* Bytes per lane the compiler fetches for this access, or the accesses of
 * the same request count fill together: a vector component (`v[i].x`) whose
 * sibling components are read at the same index is one vector load of them
 * all, as nvcc emits it; accesses at the same byte address up to a small
 * constant (a packed RGB pixel, a stencil's shifted reads, a struct's
 * fields) fill each lane's neighbouring bytes (passes/ir/byte_siblings.h). So
 * is a short constant loop over the lane's consecutive elements, or over its
 * consecutive 16-byte vectors (passes/vector_loop.h). */
static int merged_width(const hms_check_ctx *c, const hms_site_metrics *s)
{
    int run = hms_vector_loop_bytes(c->k, s->acc);
    if (run > s->acc->width)
        return run;
    run = hms_vector_chunk_bytes(c->k, s->acc);
    if (run > s->acc->width)
        return run;
    return hms_sibling_bytes(c, s);
}

static bool off_chip(hms_space sp)
{
    return sp == HMS_SPACE_GLOBAL || sp == HMS_SPACE_LOCAL || sp == HMS_SPACE_READONLY;
}

/* A site run by a few lanes of each warp (a diagonal element per row, a
 * per-tile header) wastes at most a sector per lane; when that waste is a
 * negligible share of the sectors the whole kernel moves, making it
 * coalesced would not change the kernel's traffic (and such reads mostly
 * hit lines the kernel's main loops just brought in). */
static bool negligible(const hms_site_metrics *s, double wasted, double kernel_sectors)
{
    /* local memory excepted: a thread-private array indexed by the lane
     * (`result[lane]`) lives in local memory only because of that index,
     * which costs more than the bytes the site moves */
    return s->space != HMS_SPACE_LOCAL && s->lanes <= HMS_UNCOALESCED_FEW_LANES * s->requests &&
           wasted < HMS_UNCOALESCED_NEGLIGIBLE_SHARE * kernel_sectors;
}

void hms_check_uncoalesced_access(struct hms_check_ctx *c)
{
    unsigned sector = c->arch->sector_bytes > 0 ? (unsigned)c->arch->sector_bytes : 32;
    double kernel_sectors = 0;
    for (size_t i = 0; i < c->nsites; i++)
        if (off_chip(c->sites[i].space))
            kernel_sectors += c->sites[i].sectors;
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        if (s->requests <= 0 || s->ideal_sectors <= 0)
            continue;
        if (!off_chip(s->space))
            continue;
        /* an index the analysis cannot know was spread over the array: the
         * scatter is an assumption (hms-analysis-limit says so), not a finding;
         * unless each lane walks a long run of its own from the unknown start
         * (`wte[token * C + c]` over c, a thread per row): the lanes sit on
         * different runs whatever the unknown values are */
        const hms_site_trace *st = &c->trace.sites[i];
        if (st->spread * 2 >= st->requests && !hms_walks_own_run(c->k, s->acc))
            continue;
        /* the sectors a merged vector access would need, at most those fetched */
        double merged = (double)merged_width(c, s) / (s->acc->width > 0 ? s->acc->width : 1);
        double need = s->ideal_sectors * merged;
        if (need > s->sectors)
            need = s->sectors;
        double ratio = s->sectors / need;
        if (ratio < HMS_UNCOALESCED_MIN_RATIO ||
            (s->sectors - need) / s->requests < HMS_UNCOALESCED_MIN_EXCESS ||
            negligible(s, s->sectors - need, kernel_sectors))
            continue;
        char stride[512], have[32], ideal[32], used[32], gain[32];
        stride_phrase(c, s, sector, stride, sizeof stride);
        /* bytes used by the merged access (its siblings, its loop) */
        double used_pct = 100 * s->bytes_useful * merged / (s->sectors * sector);
        if (used_pct > 100)
            used_pct = 100;
        hms_ctx_report(c, &s->acc->loc,
                       "%s%s sectors per request where %s would do (%s%% of fetched bytes used); "
                       "a coalesced %s '%s' would move %sx fewer bytes",
                       stride, hms_fmt_num(have, sizeof have, hms_site_mean(s, s->sectors), 1),
                       hms_fmt_num(ideal, sizeof ideal, hms_site_mean(s, need), 1),
                       hms_fmt_num(used, sizeof used, used_pct, 1), kind_word(s->acc->kind),
                       s->arr->name, hms_fmt_num(gain, sizeof gain, ratio, 1));
    }
}
