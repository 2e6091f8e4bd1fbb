/* hms-constant-divergence: a __constant__ read whose lanes read different
 * addresses. The constant cache serves one address per pass, so the warp's
 * read is replayed once per extra address (Huang & Li, seeds/
 * 000_2b7270bf81dd448e.txt, Sec. III-B replay cause 3; runtime/constmem.h).
 * The gain quoted is the latency without the extra passes, and the
 * placement model's best other space when it predicts one faster. */
#include <stdio.h>

#include "passes/checks/check_thresholds.h"
#include "passes/checks/check_util.h"
#include "runtime/constmem.h"

/* A row of a warp (the lanes of one threadIdx.y) is fine when its lanes
 * alone read one address: a broadcast (hms_only_across_guessed_rows). */
static bool row_broadcast(const hms_check_ctx *c, const hms_warp_access *row)
{
    (void)c;
    return hms_constmem_distinct(row) <= 1;
}

void hms_check_constant_divergence(struct hms_check_ctx *c)
{
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        if (s->space != HMS_SPACE_CONSTANT || s->requests <= 0)
            continue;
        double d = s->distinct / s->requests;
        if (d < HMS_CONST_DIVERGENCE_MIN_DISTINCT)
            continue;
        /* distinct only between the rows of a guessed 2D block (c_Table[threadIdx.y]
         * under 16 x 16): hms-analysis-limit says the launch is assumed */
        if (hms_only_across_guessed_rows(c, i, row_broadcast))
            continue;
        double lat = s->latency / s->requests;
        double hit = c->arch->constant_latency_hit > 0 ? (double)c->arch->constant_latency_hit
                                                       : (double)c->arch->constant.hit_latency;
        double lat1 = lat - (d - 1) * hit;
        char dn[32], l0[32], l1[32], move[160] = "";
        const hms_array_placement *p = &c->placements[s->acc->array];
        if (p->ranked && p->rank.best != p->rank.current) {
            char sp[32];
            snprintf(move, sizeof move, "; the placement model predicts %s %sx faster for '%s'",
                     hms_placement_space_name(p->rank.best),
                     hms_fmt_num(sp, sizeof sp, p->rank.options[p->rank.best].speedup, 2),
                     s->arr->name);
        }
        hms_ctx_report(c, &s->acc->loc,
                       "lanes of a warp read %s different addresses of __constant__ '%s' per "
                       "request: the read is serialised into %s passes where 1 would do (%s "
                       "cycles per request instead of %s)%s",
                       hms_fmt_num(dn, sizeof dn, d, 1), s->arr->name, dn,
                       hms_fmt_num(l0, sizeof l0, lat, 0),
                       hms_fmt_num(l1, sizeof l1, lat1 > 0 ? lat1 : hit, 0), move);
    }
}
