/* hms-placement: an array the Huang & Li placement model (seeds/
 * 000_2b7270bf81dd448e.txt, T = T_comp + T_mem - T_overlap, eqs. 1-19;
 * runtime/placement.h) predicts faster in another memory space, by at least
 * the --placement threshold. The message ranks every evaluated space by
 * predicted speedup; notes give the illegal ones with their reasons and the
 * accesses the prediction rests on. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/checks/check_util.h"

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

/* The kernel's time in a placement: the model's T raised to the roofline
 * bounds no placement moves (the launch's FP32 work and instruction issue).
 * A compute-bound kernel (a curand loop beside a handful of option reads)
 * gains nothing from a faster home for its few loads, however much faster
 * those loads get. */
static double placed_time(const hms_check_ctx *c, double t)
{
    if (!c->fig.roof_ok)
        return t;
    return fmax(t, fmax(c->fig.roof.bound[HMS_RL_FP32], c->fig.roof.bound[HMS_RL_ISSUE]));
}

/* Predicted speedup of option o over the placement as written, whole kernel. */
static double kernel_speedup(const hms_check_ctx *c, const hms_placement_ranking *r,
                             const hms_placement_candidate_result *o)
{
    double now = placed_time(c, r->options[r->current].time), then = placed_time(c, o->time);
    return now > 0 && then > 0 ? now / then : o->speedup;
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

/* The size of a pointer parameter is not in the code: the placement model
 * takes the bytes the simulated launch touched. That footprint stands for
 * the whole array only when no access index rests on an assumed value and,
 * when blocks were sampled, none depends on the block; otherwise the 64 KB
 * constant-memory limit cannot be checked (a GEMM operand under assumed
 * sizes and sampled blocks looks like a few KB). A filter read at [j] for
 * a constant j range is the same in every block. */
static bool footprint_is_guess(const hms_check_ctx *c, int id)
{
    const ir_array *a = &c->k->arrays[id];
    if (a->ndims > 0)
        return false; /* declared extents */
    bool *by_block = calloc(c->k->nvars ? c->k->nvars : 1, sizeof *by_block);
    if (!by_block)
        return true;
    while (ir_flag_assignments(c->k->body, by_block, c->k->nvars, hms_expr_block_dependent))
        ;
    bool guess = false;
    for (size_t i = 0; i < c->nsites && !guess; i++) {
        const ir_access *acc = c->sites[i].acc;
        if (acc->array != id)
            continue;
        guess = hms_expr_assumed(c->k, acc->index) || hms_expr_assumed(c->k, acc->index2) ||
                (c->trace.sampled && (hms_expr_block_dependent(acc->index, by_block) ||
                                      hms_expr_block_dependent(acc->index2, by_block)));
    }
    free(by_block);
    return guess;
}

void hms_check_placement(struct hms_check_ctx *c)
{
    /* The model's T rests on the grid (resident warps, MWP/CWP, how often
     * each access runs); under an assumed launch (none found) a one-thread
     * kernel reading a flag looks like 64K broadcast reads. A placement
     * verdict there is not credible: hms-analysis-limit says the launch is
     * assumed, and an annotation or --grid/--block brings the check back. */
    if (c->k->launch.source == IR_LAUNCH_DEFAULT)
        return;
    for (size_t id = 0; id < c->narrays; id++) {
        const hms_array_placement *p = &c->placements[id];
        if (!p->ranked || p->rank.best == p->rank.current)
            continue;
        const hms_placement_candidate_result *best = &p->rank.options[p->rank.best];
        if (!best->evaluated || kernel_speedup(c, &p->rank, best) < c->placement_threshold)
            continue;
        const ir_array *a = &c->k->arrays[id];
        if (p->rank.best == HMS_PLACE_CONSTANT && footprint_is_guess(c, (int)id))
            continue; /* hms-analysis-limit names the assumed values */
        /* A shared buffer the kernel fills is scratch, not an input the
         * paper's placements choose a home for; whether it pays is
         * hms-shared-reuse's question. */
        if (p->rank.current == HMS_PLACE_SHARED && (a->written || a->atomic))
            continue;
        /* A shared array starts every block empty: one the kernel reads but
         * never visibly writes is filled by what the analysis does not see
         * (cp.async or ldmatrix in inline assembly), so its traffic, and any
         * verdict on where it should live, is missing. */
        if (p->rank.current == HMS_PLACE_SHARED && a->space == HMS_SPACE_SHARED)
            continue;
        char ranking[512] = "", num[32];
        size_t n = 0;
        for (int j = 0; j < HMS_PLACE_COUNT && n < sizeof ranking; j++) {
            const hms_placement_candidate_result *o = &p->rank.options[p->rank.order[j]];
            if (!o->evaluated)
                continue;
            n += (size_t)snprintf(ranking + n, sizeof ranking - n, "%s%s %sx", n ? ", " : "",
                                  hms_placement_space_name(o->space),
                                  hms_fmt_num(num, sizeof num, kernel_speedup(c, &p->rank, o), 2));
        }
        bool ro = !(a->written || a->atomic);
        bool bc = broadcast(c, (int)id);
        char sp[32];
        hms_finding *f = hms_ctx_report(
            c, &a->loc, "array '%s' is %s%s: %s predicted %sx faster than %s (%s)%s", a->name,
            ro ? "read-only" : "written", bc ? " and read at the same address by all lanes" : "",
            headline_name(p->rank.best),
            hms_fmt_num(sp, sizeof sp, kernel_speedup(c, &p->rank, best), 2),
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
