/* hms-partition-camping: a global access whose concurrent requests from the
 * first blocks the scheduler runs pile onto few DRAM channels (partitions).
 * CuMAPz channel skew, seeds/001_3bb0fc5541bb7adb.txt eqs. 4-5 and Table III
 * (a column-wise store: ~3934 ms against ~46 ms row-wise). The figure that
 * decides is the busiest channel's load against its even share
 * (site_metrics.c), which also sees idle channels; eq. 5's ch_skew is quoted
 * next to it. The finding is judged by the model: the kernel's predicted
 * time with the site's DRAM traffic served at the busiest channel's pace
 * (its bytes take `camping` times as long) must exceed the time with it
 * spread by --placement-threshold; camping that another bound or latency
 * hides costs nothing and is not reported. */
#include <stdio.h>

#include "passes/checks/check_thresholds.h"
#include "passes/checks/check_util.h"
#include "runtime/roofline.h"

/* Predicted time with the site camped over the time as modelled (spread
 * channels); 0 when the kernel has no predicted time to compare with. */
static double camped_slowdown(const hms_check_ctx *c, const hms_site_metrics *s)
{
    if (!c->fig.roof_ok || c->fig.roof.time <= 0)
        return 0;
    double l2_line = c->arch->l2.line_bytes ? c->arch->l2.line_bytes : 32;
    hms_roofline_in in = c->fig.roof_in;
    in.dram_bytes += s->l2_misses * l2_line * (s->camping - 1);
    hms_roofline r;
    hms_roofline_compute(c->arch, &in, &r);
    return r.time / c->fig.roof.time;
}

void hms_check_partition_camping(struct hms_check_ctx *c)
{
    if (!hms_camping_judged(c, NULL))
        return; /* hms-analysis-limit says why */
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        if (s->requests <= 0 || s->camping < HMS_CAMPING_MIN_FACTOR)
            continue;
        double slow = camped_slowdown(c, s);
        if (slow > 0 && slow < c->placement_threshold)
            continue; /* another bound or latency hides it */
        char camp[32], skew[32], eq5[160] = "", gain[96] = "";
        if (slow > 0)
            snprintf(gain, sizeof gain, " (the kernel predicted %.2gx faster)", slow);
        const char *what = s->acc->kind == HMS_ACCESS_STORE ? "stores to" : "reads of";
        hms_fmt_num(camp, sizeof camp, s->camping, 1);
        hms_fmt_num(skew, sizeof skew, s->ch_skew, 1);
        /* Eq. 5 compares only the channels in use: equal loads on few
         * channels score 1 there although the rest sit idle. */
        if (s->ch_skew > 0 && s->ch_skew * 1.5 < s->camping)
            snprintf(eq5, sizeof eq5,
                     "; CuMAPz channel skew %s: the channels in use are evenly loaded, the "
                     "others idle",
                     skew);
        else if (s->ch_skew > 0)
            snprintf(eq5, sizeof eq5, " (CuMAPz channel skew %s)", skew);
        hms_ctx_report(c, &s->acc->loc,
                       "concurrent %s '%s' from the first resident blocks fall on %u of %d DRAM "
                       "channels where they could use %u: the busiest channel carries %sx its "
                       "even share%s; spreading them (e.g. diagonal block order) gives this "
                       "access up to %sx the DRAM parallelism%s",
                       what, s->arr->name, s->channels_used, c->arch->dram_channels,
                       s->channels_ideal, camp, eq5, camp, gain);
    }
}
