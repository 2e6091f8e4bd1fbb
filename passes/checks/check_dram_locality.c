/* hms-dram-locality: the kernel's DRAM requests rarely find their row open.
 * Row-buffer hits, misses and conflicts come from the DRAM model (Huang &
 * Li, seeds/000_2b7270bf81dd448e.txt, Sec. III-C, eqs. 6-8; runtime/dram.h)
 * run on the L2 misses in issue order. The finding sits at the access with
 * the most row misses and conflicts; the gain is the placement model's time
 * with the DRAM latency every request would see at the row-hit service time
 * (queueing unchanged in proportion).
 *
 * Only an access that fetches more sectors than its useful bytes need can be
 * the culprit: a coalesced access already streams whole sectors of
 * consecutive addresses, and its row misses come from other warps'
 * concurrent rows (and the model's estimated address mapping), which no
 * change to that access removes. A kernel whose row misses all come from
 * such accesses gets no finding. */
#include <stdio.h>

#include "passes/checks/check_thresholds.h"
#include "passes/checks/check_util.h"
#include "passes/ir/vector_loop.h"

static void all_hits(hms_placement_kernel *k, hms_placement_events *e, void *arg)
{
    (void)k;
    e->kernel.dram_latency *= *(double *)arg;
}

void hms_check_dram_locality(struct hms_check_ctx *c)
{
    const hms_kernel_figures *f = &c->fig;
    double rows = f->row_hits + f->row_misses + f->row_conflicts;
    if (!f->dram_ok || rows <= 0 || f->requests <= 0)
        return;
    if (f->row_hit_rate >= HMS_DRAM_MIN_ROW_HIT_RATE ||
        f->dram_requests / f->requests < HMS_DRAM_MIN_SHARE)
        return;
    /* The first request to each bank opens its row: a launch with no more
     * DRAM requests than the GPU has banks (a test kernel writing a few
     * flags) can miss on every one of them whatever its layout. */
    double banks = (double)c->arch->dram_channels * c->arch->dram_banks_per_channel;
    if (f->dram_requests <= banks)
        return;
    const hms_site_metrics *worst = NULL;
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        if (s->ideal_sectors <= 0 || s->sectors <= s->ideal_sectors * HMS_DRAM_SCATTER_MIN)
            continue; /* coalesced: nothing in this access to make row-local */
        /* an index the analysis cannot know (a loaded value, a texture
         * coordinate) was spread over the array: the scatter, and the row
         * misses it makes, are the model's assumption, not a finding; unless
         * each lane walks its own run from that start (a thread per row),
         * which puts a warp's lanes on different rows whatever the start */
        const hms_site_trace *st = &c->trace.sites[i];
        if (st->spread * 2 >= st->requests && !hms_walks_own_run(c->k, s->acc))
            continue;
        if (!worst || s->row_misses + s->row_conflicts > worst->row_misses + worst->row_conflicts)
            worst = s;
    }
    if (!worst || worst->row_misses + worst->row_conflicts <=
                      HMS_DRAM_MIN_CULPRIT_SHARE * (f->row_misses + f->row_conflicts))
        return;
    double service = f->dram_latency; /* mean service + queueing, cycles */
    double factor =
        service > 0 && f->dram_t_hit > 0 && f->dram_t_hit < service ? f->dram_t_hit / service : 1;
    double now = hms_ctx_predict(c, NULL, NULL), then = hms_ctx_predict(c, all_hits, &factor);
    if (now <= 0 || then <= 0 || now / then < HMS_DRAM_MIN_GAIN)
        return; /* row locality would not pay (or bandwidth binds either way) */
    char rate[32], own[32], share[32], lat[32], hit[32], nbad[32], nrows[32], gain[64] = "";
    double bad = f->row_misses + f->row_conflicts;
    double wrows = worst->row_hits + worst->row_misses + worst->row_conflicts;
    if (now > 0 && then > 0) {
        char g[32];
        snprintf(gain, sizeof gain, "; predicted %sx faster with row-local access",
                 hms_fmt_num(g, sizeof g, now / then, 2));
    }
    hms_ctx_report(
        c, &worst->acc->loc,
        "DRAM row-buffer hit rate %s%% (%s misses and conflicts of %s DRAM requests): "
        "this %s '%s' causes %s%% of them (its own hit rate %s%%); mean DRAM latency "
        "%s cycles where an open row serves in %s%s",
        hms_fmt_num(rate, sizeof rate, 100 * f->row_hit_rate, 1),
        hms_fmt_num(nbad, sizeof nbad, bad, 0), hms_fmt_num(nrows, sizeof nrows, rows, 0),
        worst->acc->kind == HMS_ACCESS_STORE ? "store to" : "access to", worst->arr->name,
        hms_fmt_num(share, sizeof share, 100 * (worst->row_misses + worst->row_conflicts) / bad, 1),
        hms_fmt_num(own, sizeof own, wrows > 0 ? 100 * worst->row_hits / wrows : 0, 1),
        hms_fmt_num(lat, sizeof lat, f->dram_latency, 0),
        hms_fmt_num(hit, sizeof hit, f->dram_t_hit, 0), gain);
}
