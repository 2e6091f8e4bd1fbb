/* hms-placement: an array the Huang & Li placement model (seeds/
 * 000_2b7270bf81dd448e.txt, T = T_comp + T_mem - T_overlap, eqs. 1-19;
 * runtime/placement.h) predicts faster in another memory space, by at least
 * the --placement threshold. The message ranks every evaluated space by
 * predicted speedup; notes give the illegal ones with their reasons and the
 * accesses the prediction rests on. */
#include <stdio.h>
#include <string.h>

#include "passes/check_util.h"

static const char *headline_name(hms_placement_space s)
{
    switch (s) {
    case HMS_PLACE_READONLY:
        return "the read-only path (__ldg / const __restrict__)";
    case HMS_PLACE_TEXTURE1D:
        return "a 1D texture";
    case HMS_PLACE_TEXTURE2D:
        return "a 2D texture";
    case HMS_PLACE_CONSTANT:
        return "__constant__";
    case HMS_PLACE_SHARED:
        return "__shared__";
    default:
        return "global memory";
    }
}

/* Every request of every site of array id reads a single element. */
static bool broadcast(const hms_check_ctx *c, int id)
{
    bool any = false;
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        if (s->acc->array != id || s->requests <= 0)
            continue;
        any = true;
        if (s->space == HMS_SPACE_CONSTANT) {
            if (s->distinct > s->requests)
                return false;
        } else if (s->space == HMS_SPACE_SHARED) {
            return false;
        } else if (s->bytes_useful > s->requests * s->acc->width) {
            return false;
        }
    }
    return any;
}

void hms_check_placement(struct hms_check_ctx *c)
{
    for (size_t id = 0; id < c->narrays; id++) {
        const hms_array_placement *p = &c->placements[id];
        if (!p->ranked || p->rank.best == p->rank.current)
            continue;
        const hms_placement_candidate_result *best = &p->rank.options[p->rank.best];
        if (!best->evaluated || best->speedup < c->placement_threshold)
            continue;
        const ir_array *a = &c->k->arrays[id];
        /* A shared buffer the kernel fills is scratch, not an input the
         * paper's placements choose a home for; whether it pays is
         * hms-shared-reuse's question. */
        if (p->rank.current == HMS_PLACE_SHARED && (a->written || a->atomic))
            continue;
        char ranking[512] = "", num[32];
        size_t n = 0;
        for (int j = 0; j < HMS_PLACE_COUNT && n < sizeof ranking; j++) {
            const hms_placement_candidate_result *o = &p->rank.options[p->rank.order[j]];
            if (!o->evaluated)
                continue;
            n += (size_t)snprintf(ranking + n, sizeof ranking - n, "%s%s %sx", n ? ", " : "",
                                  hms_placement_space_name(o->space),
                                  hms_fmt_num(num, sizeof num, o->speedup, 2));
        }
        bool ro = !(a->written || a->atomic);
        bool bc = broadcast(c, (int)id);
        char sp[32];
        hms_finding *f = hms_ctx_report(
            c, &a->loc, "array '%s' is %s%s: %s predicted %sx faster than %s (%s)%s", a->name,
            ro ? "read-only" : "written", bc ? " and read at the same address by all lanes" : "",
            headline_name(p->rank.best), hms_fmt_num(sp, sizeof sp, best->speedup, 2),
            headline_name(p->rank.current), ranking,
            p->rank.coefficients_default ? " [default overlap coefficients]" : "");
        if (!f)
            continue;
        char illegal[768] = "";
        n = 0;
        for (int j = 0; j < HMS_PLACE_COUNT && n < sizeof illegal; j++) {
            const hms_placement_candidate_result *o = &p->rank.options[p->rank.order[j]];
            if (!o->legal)
                n += (size_t)snprintf(illegal + n, sizeof illegal - n, "%s%s (%s)", n ? ", " : "",
                                      hms_placement_space_name(o->space),
                                      o->reason[0] ? o->reason : "not allowed");
        }
        if (illegal[0])
            hms_ctx_note(c, f, &a->loc, "not legal for '%s': %s", a->name, illegal);
        const hms_placement_breakdown *cb = &p->rank.options[p->rank.current].model;
        const hms_placement_breakdown *bb = &best->model;
        char v[8][32];
        hms_ctx_note(c, f, &a->loc,
                     "T = T_comp + T_mem - T_overlap (cycles), %s -> %s: T_comp %s -> %s, T_mem "
                     "%s -> %s, T_overlap %s -> %s (AMAT %s -> %s)",
                     hms_placement_space_name(p->rank.current),
                     hms_placement_space_name(p->rank.best),
                     hms_fmt_num(v[0], sizeof v[0], cb->t_comp, 0),
                     hms_fmt_num(v[1], sizeof v[1], bb->t_comp, 0),
                     hms_fmt_num(v[2], sizeof v[2], cb->t_mem, 0),
                     hms_fmt_num(v[3], sizeof v[3], bb->t_mem, 0),
                     hms_fmt_num(v[4], sizeof v[4], cb->t_overlap, 0),
                     hms_fmt_num(v[5], sizeof v[5], bb->t_overlap, 0),
                     hms_fmt_num(v[6], sizeof v[6], cb->amat, 1),
                     hms_fmt_num(v[7], sizeof v[7], bb->amat, 1));
        for (size_t i = 0; i < c->nsites; i++) {
            const hms_site_metrics *s = &c->sites[i];
            if (s->acc->array == (int)id && s->requests > 0) {
                char req[32];
                hms_ctx_note(c, f, &s->acc->loc, "'%s' accessed here (%s requests)", a->name,
                             hms_fmt_num(req, sizeof req, s->requests, 0));
                break;
            }
        }
    }
}
