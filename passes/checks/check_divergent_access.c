/* hms-divergent-access: an access under a branch whose condition depends on
 * the thread, where the branch leaves so few lanes of each warp active that
 * the site issues far more warp requests than its active lanes need. The
 * SIMT cost CuMAPz's branch_eff stands for (seeds/001_3bb0fc5541bb7adb.txt,
 * Sec. 5.6, eq. 7), measured on the trace: requests against the requests
 * with each block's active lanes of one execution packed into whole warps
 * (e.g. the interleaved against the sequential-addressing reduction), when
 * the waste is a noticeable share of the kernel's requests. A site that
 * only ever runs on one lane per warp (a leader acting for its warp) is
 * left alone, and so is a per-warp write-back: a store under a guard no
 * loop varies (a reduction's epilogue by a few lanes of each warp). */
#include <stdio.h>

#include "passes/checks/check_thresholds.h"
#include "passes/checks/check_util.h"

static bool uses_loop_var(const ir_kernel *k, const ir_expr *e)
{
    if (!e)
        return false;
    if (e->kind == IR_VAR && e->var >= 0 && (size_t)e->var < k->nvars &&
        k->vars[e->var].kind == IR_VAR_LOOP)
        return true;
    return uses_loop_var(k, e->a) || uses_loop_var(k, e->b) || uses_loop_var(k, e->c);
}

/* Does e (an index) depend on the thread only through its lane, so that
 * every warp of a block reads the same elements (`shared_val[lane_id]`)?
 * threadIdx.x counts as a lane under `% d` or `& (d - 1)` with d dividing
 * 32; block-uniform symbols, constants and parameters are the same for
 * every warp; anything else (other thread indices, loop or local
 * variables, unknowns) is not known to be. */
static bool lane_only_v(const ir_kernel *k, const ir_expr *e, bool loops);

static bool lane_only(const ir_kernel *k, const ir_expr *e)
{
    return lane_only_v(k, e, false);
}

/* The same, loop variables allowed (`lane < i` of a loop halving i). */
static bool lane_only_loops(const ir_kernel *k, const ir_expr *e)
{
    return lane_only_v(k, e, true);
}

static bool lane_only_v(const ir_kernel *k, const ir_expr *e, bool loops)
{
    if (!e)
        return true;
    switch (e->kind) {
    case IR_CONST:
        return true;
    case IR_SYM:
        return e->sym != IR_SYM_TID_X && e->sym != IR_SYM_TID_Y && e->sym != IR_SYM_TID_Z;
    case IR_VAR:
        return e->var >= 0 && (size_t)e->var < k->nvars &&
               (k->vars[e->var].kind == IR_VAR_PARAM ||
                (loops && k->vars[e->var].kind == IR_VAR_LOOP));
    case IR_BINARY: {
        const ir_expr *a = e->a, *b = e->b;
        bool tid_x = a && a->kind == IR_SYM && a->sym == IR_SYM_TID_X;
        if (tid_x && b && b->kind == IR_CONST && b->value > 0 &&
            ((e->op == IR_OP_MOD && 32 % b->value == 0) ||
             (e->op == IR_OP_AND && 32 % (b->value + 1) == 0)))
            return true;
        return lane_only_v(k, a, loops) && lane_only_v(k, b, loops);
    }
    case IR_UNARY:
        return lane_only_v(k, e->a, loops);
    case IR_SELECT:
        return lane_only_v(k, e->a, loops) && lane_only_v(k, e->b, loops) &&
               lane_only_v(k, e->c, loops);
    default:
        return false;
    }
}

void hms_check_divergent_access(struct hms_check_ctx *c)
{
    double blocks = c->trace.blocks_total ? (double)c->trace.blocks_total : 1;
    double all = 0;
    for (size_t i = 0; i < c->nsites; i++)
        all += c->sites[i].requests;
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        if (!s->branch || s->requests <= 0 || s->compact_requests <= 0 || s->threads <= 0)
            continue;
        /* A warp-collective instruction (load_matrix_sync of a tile with
         * fewer pieces than lanes) runs on the converged warp; the lanes it
         * leaves idle are the instruction's, no regrouping of threads helps. */
        if (s->collective)
            continue;
        /* One lane per request throughout: a warp leader acting for its
         * warp (warp-aggregated atomics, `if (lane == 0) out[w] = sum`).
         * Packing the leaders of several warps into one would take another
         * exchange through shared memory and a barrier, not a regrouping. */
        if (s->lanes <= s->requests)
            continue;
        /* A store by a few lanes of each warp under a guard no loop varies
         * (`if (lane < k)`, `if (warp_d == 0)` after a shuffle reduction):
         * the values live in those lanes' registers, so packing them into
         * fewer warps takes the same exchange. A guard a loop varies (the
         * interleaved reduction's `tid % (2 * s) == 0`) can be re-indexed. */
        if (s->acc->kind == HMS_ACCESS_STORE && !uses_loop_var(c->k, s->branch->cond))
            continue;
        /* A load every warp makes of the same elements by lane (the second
         * stage of a block reduction: `lane < num_warps ? sv[lane] : 0`):
         * each warp needs the values in its own lanes, packing cannot help. */
        if (s->acc->kind == HMS_ACCESS_LOAD && !uses_loop_var(c->k, s->branch->cond) &&
            lane_only(c->k, s->acc->index))
            continue;
        /* A load under such a guard whose requests each fetch only the
         * sectors their active lanes' bytes need: each warp reads one piece
         * of its own range (the remainder of a row after a vectorised loop,
         * `if (4 * quads + lane <= last) x[4 * quads + lane]`). Packing the
         * pieces of several warps into one request saves issue slots, not
         * bytes, and the values are needed in the lanes of the warp that
         * owns the row. */
        if (!uses_loop_var(c->k, s->branch->cond) && s->sectors <= s->ideal_sectors)
            continue;
        /* A guard that depends on the thread only through its lane (loop
         * variables allowed: `if (lane < i)` of a warp's own tree reduction
         * in shared memory): every warp works on its own values with its
         * first lanes, already packed; merging warps would take an exchange.
         * Warp shuffles, not a re-indexing, are the fix there. */
        if (lane_only_loops(c->k, s->branch->cond))
            continue;
        double ratio = s->requests / s->compact_requests;
        double wasted = (s->requests - s->compact_requests) / blocks;
        if (ratio < HMS_DIVERGENCE_MIN_RATIO || wasted < HMS_DIVERGENCE_MIN_WASTED_PER_BLOCK ||
            wasted * blocks < HMS_DIVERGENCE_MIN_SHARE * all)
            continue;
        char eff[32], req[32], ideal[32], g[32];
        const char *what = s->acc->kind == HMS_ACCESS_STORE ? "store to" : "load of";
        hms_finding *f = hms_ctx_report(
            c, &s->acc->loc,
            "thread-dependent branch leaves %s%% of the lanes active in this %s '%s': %s "
            "requests per block where %s would do with the active lanes packed into whole "
            "warps (%sx fewer)",
            hms_fmt_num(eff, sizeof eff, 100 * s->lanes / s->threads, 1), what, s->arr->name,
            hms_fmt_num(req, sizeof req, s->requests / blocks, 1),
            hms_fmt_num(ideal, sizeof ideal, s->compact_requests / blocks, 1),
            hms_fmt_num(g, sizeof g, ratio, 1));
        char cond[160];
        ir_expr_format(c->k, s->branch->cond, cond, sizeof cond);
        hms_ctx_note(c, f, &s->branch->loc,
                     "the condition `%s` depends on the thread and splits the warp; let "
                     "consecutive threads take the same side (e.g. index with a contiguous "
                     "thread range)",
                     cond);
    }
}
