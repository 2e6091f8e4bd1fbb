/* hms-uncoalesced-access: a global/local/read-only access whose active lanes
 * touch more 32-byte sectors than their bytes need (coalescing, runtime/
 * coalesce.h; CuMAPz bw_util, seeds/001_3bb0fc5541bb7adb.txt eq. 3). The
 * message names the lane stride, symbolically when a size is unknown
 * (passes/stride.h), the sectors per request against the ideal, the share
 * of fetched bytes used, and the traffic a coalesced access would save.
 * Quiet where most of the site's records rest on unknown indices spread over
 * the array: that scatter is the analysis's assumption. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "passes/check_thresholds.h"
#include "passes/check_util.h"

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

void hms_check_uncoalesced_access(struct hms_check_ctx *c)
{
    unsigned sector = c->arch->sector_bytes > 0 ? (unsigned)c->arch->sector_bytes : 32;
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        if (s->requests <= 0 || s->ideal_sectors <= 0)
            continue;
        if (s->space != HMS_SPACE_GLOBAL && s->space != HMS_SPACE_LOCAL &&
            s->space != HMS_SPACE_READONLY)
            continue;
        /* an index the analysis cannot know was spread over the array: the
         * scatter is an assumption (hms-analysis-limit says so), not a finding */
        const hms_site_trace *st = &c->trace.sites[i];
        if (st->spread * 2 >= st->requests)
            continue;
        double ratio = s->sectors / s->ideal_sectors;
        if (ratio < HMS_UNCOALESCED_MIN_RATIO ||
            (s->sectors - s->ideal_sectors) / s->requests < HMS_UNCOALESCED_MIN_EXCESS)
            continue;
        char stride[512], have[32], ideal[32], used[32], gain[32];
        stride_phrase(c, s, sector, stride, sizeof stride);
        double used_pct = 100 * s->bytes_useful / (s->sectors * sector);
        hms_ctx_report(c, &s->acc->loc,
                       "%s%s sectors per request where %s would do (%s%% of fetched bytes used); "
                       "a coalesced %s '%s' would move %sx fewer bytes",
                       stride, hms_fmt_num(have, sizeof have, hms_site_mean(s, s->sectors), 1),
                       hms_fmt_num(ideal, sizeof ideal, hms_site_mean(s, s->ideal_sectors), 1),
                       hms_fmt_num(used, sizeof used, used_pct, 1), kind_word(s->acc->kind),
                       s->arr->name, hms_fmt_num(gain, sizeof gain, ratio, 1));
    }
}
