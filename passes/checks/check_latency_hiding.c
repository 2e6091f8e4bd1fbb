/* hms-latency-hiding: too few resident warps to hide memory latency.
 * CuMAPz's lat_hiding (seeds/001_3bb0fc5541bb7adb.txt, eq. 2) stops
 * improving at 50% occupancy; below it, and for kernels with off-chip
 * traffic, the Huang & Li model (seeds/000_2b7270bf81dd448e.txt, eqs.
 * 17-19: MWP/CWP and the overlap ratio both grow with resident warps) is
 * re-evaluated with the occupancy raised to that level, and the check fires
 * when that is predicted to gain at least HMS_LATENCY_MIN_GAIN. When
 * registers limit the occupancy, the raised variant has fewer registers per
 * thread, so its register arrays and the ILP/MLP they give shrink too.
 * A stated launch whose grid itself is too small (fewer resident warps than
 * the GPU holds, below the same 50%), or whose last wave leaves much of the
 * GPU idle, is reported first, with the numbers, when the same model (with
 * the roofline bounds) predicts the work spread over a full GPU to gain at
 * least HMS_LATENCY_MIN_GAIN. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "passes/analyze_internal.h"
#include "passes/checks/check_thresholds.h"
#include "passes/checks/check_util.h"

static void raise_warps(hms_placement_kernel *k, hms_placement_events *e, void *arg)
{
    (void)e;
    k->warps_per_sm = *(double *)arg;
}

/* More resident warps when registers limit them: each thread gets fewer, so
 * the register arrays (accumulators, register tiles) shrink to what is
 * left beside the scalars, and with them the independent chains that give
 * the model its ILP and MLP (passes/figures/registers.h). Keeping the ILP would
 * credit the kernel with both the occupancy and the tiles it must give up. */
typedef struct {
    double warps, ilp, load_mlp;
} fewer_regs;

static void raise_warps_fewer_regs(hms_placement_kernel *k, hms_placement_events *e, void *arg)
{
    (void)e;
    const fewer_regs *r = arg;
    k->warps_per_sm = r->warps;
    k->ilp = r->ilp;
    k->mlp = r->ilp > r->load_mlp ? r->ilp : r->load_mlp;
}

static double ilp_at(const struct hms_check_ctx *c, double warps)
{
    const hms_register_estimate *r = &c->reg;
    if (c->occ.limit != HMS_OCC_LIMIT_REGISTERS || r->array_words <= 0 || !(r->ilp > 1) ||
        !(warps > 0) || c->fig.pk.warps_per_sm <= 0)
        return c->fig.pk.ilp;
    double regs = c->regs_per_thread * c->fig.pk.warps_per_sm / warps;
    double left = regs - (c->regs_per_thread - r->array_words);
    double ilp = r->ilp * (left > 0 ? left : 0) / r->array_words;
    return ilp > 1 ? ilp : 1;
}

static const ir_array *largest_shared(const ir_kernel *k)
{
    const ir_array *best = NULL;
    double most = 0;
    for (size_t i = 0; i < k->narrays; i++) {
        const ir_array *a = &k->arrays[i];
        if (a->space != HMS_SPACE_SHARED)
            continue;
        double n = a->elem_bytes;
        for (int d = 0; d < a->ndims; d++)
            n *= (double)(a->dims[d] > 0 ? a->dims[d] : 0);
        if (n > most || !best) {
            most = n;
            best = a;
        }
    }
    return best;
}

/* The launch's work spread over `warps` warps (arg) on every SM: per-warp
 * counts shrink as the warps grow, so the total work stays the same. */
typedef struct {
    double warps, warps_per_sm, sms;
} spread_to;

static void spread(hms_placement_kernel *k, hms_placement_events *e, void *arg)
{
    (void)e;
    const spread_to *s = arg;
    double f = k->total_warps / s->warps;
    k->inst_issued *= f;
    k->mem_insts *= f;
    k->total_warps = s->warps;
    k->warps_per_sm = s->warps_per_sm;
    k->active_sms = s->sms;
}

/* Predicted speedup of the same work in a grid that fills every SM: `now`
 * the launch as written, the variant the work in `fill` blocks of the
 * same size, one full wave of the block's occupancy or whole waves.
 * `tail` (> 1) charges the written launch's last, partial wave: the
 * latency model averages the work over the SMs, which a tail wave does
 * not (the busiest SM runs ceil(waves) waves). 0 when the model cannot say. */
static double fill_gain(hms_check_ctx *c, double fill, double tail)
{
    double now = hms_ctx_predict(c, NULL, NULL);
    if (now <= 0)
        return 0;
    double model_now = c->fig.time.time > 0 ? c->fig.time.time * tail : 0;
    if (model_now > 0)
        now = fmax(now, hms_ctx_bounded(c, model_now));
    /* CuMAPz's lat_hiding gains nothing past HMS_LATENCY_OCCUPANCY_PCT: the
     * variant's SMs hold no more warps than that. */
    double wpb = c->occ.warps_per_block > 0 ? c->occ.warps_per_block : 1;
    double per_sm = fmin(c->occ.blocks_per_sm,
                         ceil(c->arch->max_warps_per_sm * HMS_LATENCY_OCCUPANCY_PCT / 100 / wpb));
    /* fewer blocks than a full wave (the work splits no further) sit on
     * fewer SMs, fewer per SM */
    double sms = fmin(c->arch->sm_count, fill);
    per_sm = fmin(per_sm, ceil(fill / (sms > 0 ? sms : 1)));
    spread_to s = {fill * wpb, per_sm * wpb, sms};
    double then = hms_ctx_predict_over(c, spread, &s, fill);
    return then > 0 ? now / then : 0;
}

/* A stated launch whose grid leaves warp slots of the GPU empty: fewer
 * blocks than the SMs hold at once (idle SMs or SMs below their occupancy),
 * or a short tail wave, and the model predicts the same work spread over a
 * full GPU to gain at least HMS_LATENCY_MIN_GAIN (a compute-bound tuned
 * GEMM at a quarter of the warp slots gains nothing from more warps).
 * True when it reported. */
/* Does e rest on a value the analysis does not know (a loaded or opaque
 * value)? */
static bool has_unknown(const ir_expr *e)
{
    return e &&
           (e->kind == IR_UNKNOWN || has_unknown(e->a) || has_unknown(e->b) || has_unknown(e->c));
}

/* Does e name a thread or block coordinate or size, or an unknown? */
static bool launch_dependent(const ir_expr *e)
{
    return e && (e->kind == IR_SYM || e->kind == IR_UNKNOWN || launch_dependent(e->a) ||
                 launch_dependent(e->b) || launch_dependent(e->c));
}

/* Does any value assigned in s (an assignment or a block of them: a loop's
 * init and step) satisfy pred? */
static bool assigns_value(const ir_stmt *s, bool (*pred)(const ir_expr *))
{
    if (!s)
        return false;
    if (s->kind == IR_S_ASSIGN)
        return pred(s->value);
    if (s->kind == IR_S_BLOCK)
        for (size_t i = 0; i < s->items.n; i++)
            if (assigns_value(s->items.v[i], pred))
                return true;
    return false;
}

/* A loop each thread runs the same small constant number of times from a
 * start and step of its own (`for (face = 0; face < 6; face++)`, a
 * filter's taps, a pixel's channels): the element's fixed work, the same
 * at any problem size. Its trip count is a constant of the source, not a
 * problem size (a parameter, even one folded from the host call), and at
 * most a warp's width of iterations. Block- and grid-stride loops (start
 * or step from the thread's coordinates) share the data out and are not. */
#define HMS_LATENCY_ELEMENT_LOOP_MAX 32
static bool element_loop(const ir_stmt *s)
{
    if (s->trip_count <= 0 || s->trip_count > HMS_LATENCY_ELEMENT_LOOP_MAX || !s->trip ||
        s->trip->kind != IR_CONST)
        return false;
    return !assigns_value(s->init, launch_dependent) && !assigns_value(s->step, launch_dependent);
}

/* Per site: whether it sits in a loop whose condition rests on data
 * (`while (!stack.empty())`, a Newton iteration until it converges: a
 * thread's own sequential search, whose steps depend on each other and
 * cannot be handed to other threads), and the product of the trip counts
 * of the element loops around it. */
typedef struct {
    bool *in_search;
    bool *grid_stride; /* in a grid-stride loop over a problem-sized extent */
    double *element_trips;
    size_t nsites;
} loop_marks;

/* Does e name the grid's size (gridDim)? */
static bool grid_sized(const ir_expr *e)
{
    if (!e)
        return false;
    if (e->kind == IR_SYM)
        return e->sym >= IR_SYM_GDIM_X && e->sym <= IR_SYM_GDIM_Z;
    return grid_sized(e->a) || grid_sized(e->b) || grid_sized(e->c);
}

/* A loop that steps by the whole grid (`pos += blockDim.x * gridDim.x`) up
 * to a bound that is not a constant of the source (a parameter: the data's
 * size): the kernel takes any amount of data with whatever grid it is
 * given, so its grid is the launch's choice and more blocks share the data
 * out, however few iterations an assumed size gives each thread. */
static bool grid_stride_loop(const ir_stmt *s)
{
    return assigns_value(s->step, grid_sized) && !(s->trip && s->trip->kind == IR_CONST);
}

static void mark_loops(const ir_stmt *s, bool search, bool grid, double trips, loop_marks *m)
{
    if (!s)
        return;
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            mark_loops(s->items.v[i], search, grid, trips, m);
        break;
    case IR_S_ACCESS:
        if (s->access.id >= 0 && (size_t)s->access.id < m->nsites) {
            m->in_search[s->access.id] = search;
            m->grid_stride[s->access.id] = grid;
            m->element_trips[s->access.id] = trips;
        }
        break;
    case IR_S_IF:
        mark_loops(s->then, search, grid, trips, m);
        mark_loops(s->els, search, grid, trips, m);
        break;
    case IR_S_LOOP:
        search = search || has_unknown(s->cond);
        grid = grid || grid_stride_loop(s);
        if (element_loop(s))
            trips *= (double)s->trip_count;
        mark_loops(s->init, search, grid, trips, m);
        mark_loops(s->body, search, grid, trips, m);
        mark_loops(s->step, search, grid, trips, m);
        break;
    default:
        break;
    }
}

/* How many times over the launch's work could be split: a thread's work
 * splits at most down to one iteration of its loop per thread, so the most
 * any off-chip access runs per warp is the factor (1: one element per
 * thread, nothing splits). Repeats that rest on what the analysis does not
 * know do not count: addresses spread by an unknown index, local memory
 * (the thread's own stack), loops whose trip rests on data (a per-thread
 * search). Nor do accesses whose address does not depend on the block
 * (blockIdx, gridDim): more blocks would repeat that work, not share it (a
 * kernel written for one block, `<<<1, 32>>>` summing a few values). Without count_element_loops,
 * an element's fixed loops do not count either: a grid of a thread per pixel that runs the same six
 * faces for every pixel grows with the image, so when it under-fills the GPU the image is small (a
 * 64 x 64 cubemap cannot fill an H100, whatever the launch); a grid whose threads walk a
 * problem-sized extent (block- or grid-stride, a row of n per thread) does not grow with the data,
 * and its under-fill is the launch's choice. */
static double split_factor(const hms_check_ctx *c, bool count_element_loops)
{
    double warps = c->fig.pk.total_warps, most = 0;
    size_t n = c->nsites ? c->nsites : 1;
    loop_marks m = {calloc(n, sizeof *m.in_search), calloc(n, sizeof *m.grid_stride),
                    calloc(n, sizeof *m.element_trips), c->nsites};
    bool *by_block = calloc(c->k->nvars ? c->k->nvars : 1, sizeof *by_block);
    if (m.in_search && m.grid_stride && m.element_trips && by_block) {
        mark_loops(c->k->body, false, false, 1, &m);
        while (ir_flag_assignments(c->k->body, by_block, c->k->nvars, hms_expr_block_dependent))
            ;
        for (size_t i = 0; i < c->nsites && warps > 0; i++) {
            const hms_site_metrics *s = &c->sites[i];
            const hms_site_trace *st = &c->trace.sites[i];
            int id = s->acc->id;
            if (m.in_search[id] ||
                !(hms_expr_block_dependent(s->acc->index, by_block) ||
                  hms_expr_block_dependent(s->acc->index2, by_block)) ||
                s->space == HMS_SPACE_LOCAL || s->space == HMS_SPACE_SHARED ||
                s->space == HMS_SPACE_CONSTANT ||
                (st->requests > 0 && st->spread * 2 >= st->requests))
                continue;
            if (m.grid_stride[id]) {
                most = INFINITY; /* the grid is the launch's choice */
                break;
            }
            double trips =
                !count_element_loops && m.element_trips[id] >= 1 ? m.element_trips[id] : 1;
            most = fmax(most, s->requests / warps / trips);
        }
    }
    free(by_block);
    free(m.grid_stride);
    free(m.in_search);
    free(m.element_trips);
    return most;
}

static bool underfilled_grid(hms_check_ctx *c)
{
    if (c->k->launch.source == IR_LAUNCH_DEFAULT || c->k->launch.partial)
        return false; /* an assumed grid says nothing about the real one */
    /* One block is a deliberate single-block design (the last pass of a
     * reduction over the blocks' partial sums, a serial setup step, a
     * recursive launch's root): more blocks means another algorithm, not
     * another launch, and the input it sizes for is not known here. */
    if (c->trace.blocks_total <= 1)
        return false;
    double split = split_factor(c, true);
    if (split < HMS_LATENCY_SPLIT_MIN_REQUESTS)
        return false;
    double blocks = (double)c->trace.blocks_total;
    double sms = c->arch->sm_count, bps = c->occ.blocks_per_sm, wpb = c->occ.warps_per_block;
    double slots = sms * c->arch->max_warps_per_sm; /* warps the GPU holds */
    double wave = sms * bps;                        /* blocks resident at once */
    char p[32], w[32], g[32];
    if (blocks < wave) {
        double resident = blocks * wpb;
        if (100 * resident / slots >= HMS_LATENCY_OCCUPANCY_PCT)
            return false;
        /* the grid is the data's: the data is small, not the launch */
        double per_element = split_factor(c, false);
        if (per_element < HMS_LATENCY_SPLIT_MIN_REQUESTS)
            return false;
        /* no more blocks than the work splits into */
        double fill = fmin(wave, floor(blocks * per_element));
        double gain = fill_gain(c, fill, 1);
        if (gain < HMS_LATENCY_MIN_GAIN)
            return false;
        unsigned busy = blocks < sms ? (unsigned)blocks : (unsigned)sms;
        hms_finding *f = hms_ctx_report(
            c, &c->k->loc,
            "grid of %.0f blocks under-fills the GPU: %u of %d SMs busy, %.0f resident warps "
            "where %s's SMs hold %.0f (%s%%), too few to hide memory latency; the same work "
            "%s is predicted %sx faster",
            blocks, busy, c->arch->sm_count, resident, c->arch->name, slots,
            hms_fmt_num(p, sizeof p, 100 * resident / slots, 1),
            fill < wave ? "split to one loop iteration per thread" : "over a full GPU",
            hms_fmt_num(g, sizeof g, gain, 2));
        if (f)
            hms_ctx_note(c, f, c->k->launch.loc.line ? &c->k->launch.loc : NULL,
                         "%.0f blocks of %.0f warps fill every SM (%.0f per SM at this block's "
                         "occupancy); give the launch more blocks (less work per block) or "
                         "batch more work into it",
                         wave, wpb, bps);
        return true;
    }
    double waves = blocks / wave, full = ceil(waves);
    if (full > HMS_LATENCY_TAIL_MAX_WAVES || full / waves < HMS_LATENCY_TAIL_MIN_LOSS)
        return false;
    double gain = fill_gain(c, full * wave, full / waves);
    if (gain < HMS_LATENCY_MIN_GAIN)
        return false;
    hms_ctx_report(c, &c->k->loc,
                   "grid of %.0f blocks runs in %.0f waves of %.0f: the last wave fills %s%% of "
                   "the GPU, so %s%% of the launch's block slots stay idle; the same work in "
                   "whole waves is predicted %sx faster",
                   blocks, full, wave, hms_fmt_num(p, sizeof p, 100 * (waves - (full - 1)), 1),
                   hms_fmt_num(w, sizeof w, 100 * (1 - waves / full), 1),
                   hms_fmt_num(g, sizeof g, gain, 2));
    return true;
}

void hms_check_latency_hiding(struct hms_check_ctx *c)
{
    if (!c->occ_ok || !c->traced || !c->fig.time_ok)
        return;
    if (c->fig.global_requests + c->fig.tex_requests > 0 && underfilled_grid(c))
        return;
    double pct = 100 * c->occ.occupancy;
    if (pct >= HMS_LATENCY_OCCUPANCY_PCT || c->fig.global_requests + c->fig.tex_requests <= 0)
        return;
    double target = c->arch->max_warps_per_sm * HMS_LATENCY_OCCUPANCY_PCT / 100;
    double sms = c->fig.pk.active_sms > 0 ? c->fig.pk.active_sms : 1;
    double avail = c->fig.pk.total_warps / sms; /* no more than the grid holds */
    if (target > avail)
        target = avail;
    if (target <= c->fig.pk.warps_per_sm)
        return;
    double now = hms_ctx_predict(c, NULL, NULL);
    fewer_regs fr = {target, ilp_at(c, target), c->fig.load_mlp};
    double then = fr.ilp < c->fig.pk.ilp ? hms_ctx_predict(c, raise_warps_fewer_regs, &fr)
                                         : hms_ctx_predict(c, raise_warps, &target);
    if (now <= 0 || then <= 0 || now / then < HMS_LATENCY_MIN_GAIN)
        return;
    const char *lim = hms_occ_limit_name(c->occ.limit);
    char p[32], lh[32], sp[32], tp[32];
    hms_finding *f = hms_ctx_report(
        c, &c->k->loc,
        "occupancy %s%% (%d of %d warps per SM, limited by %s) hides too little memory latency "
        "(CuMAPz lat_hiding %s); at %s%% occupancy the model predicts %sx faster",
        hms_fmt_num(p, sizeof p, pct, 1), c->occ.warps_per_sm, c->arch->max_warps_per_sm, lim,
        hms_fmt_num(lh, sizeof lh, c->fig.cumapz.lat_hiding, 2),
        hms_fmt_num(tp, sizeof tp, 100 * target / c->arch->max_warps_per_sm, 1),
        hms_fmt_num(sp, sizeof sp, now / then, 2));
    if (!f)
        return;
    const ir_array *sh = largest_shared(c->k);
    switch (c->occ.limit) {
    case HMS_OCC_LIMIT_SHARED:
        hms_ctx_note(c, f, sh ? &sh->loc : NULL,
                     "each block allocates %d bytes of shared memory%s%s%s: %d blocks fit an SM",
                     c->occ.shared_per_block, sh ? " ('" : "", sh ? sh->name : "",
                     sh ? "' is the largest array)" : "", c->occ.by_shared);
        break;
    case HMS_OCC_LIMIT_BLOCKS:
        hms_ctx_note(c, f, c->k->launch.loc.line ? &c->k->launch.loc : NULL,
                     "blocks of %d warps: at most %d blocks per SM; use larger blocks",
                     c->occ.warps_per_block, c->arch->max_blocks_per_sm);
        break;
    case HMS_OCC_LIMIT_REGISTERS:
        hms_ctx_note(c, f, NULL, "%d registers per thread%s: %d blocks fit an SM",
                     c->regs_per_thread,
                     c->reg.source == HMS_REGS_ASSUMED     ? " (assumed)"
                     : c->reg.source == HMS_REGS_ESTIMATED ? " (estimated from the IR)"
                                                           : "",
                     c->occ.by_registers);
        break;
    default:
        hms_ctx_note(c, f, c->k->launch.loc.line ? &c->k->launch.loc : NULL,
                     "the grid has too few blocks to fill the SMs");
        break;
    }
}
