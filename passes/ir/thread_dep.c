/* Which branches split a warp: an if whose condition depends on the thread
 * (threadIdx, the lane id, or a value loaded from memory, which may differ
 * from lane to lane), directly or through variables assigned from such
 * values. GPUDrano-style thread-dependence, on the IR. Control dependence
 * (a variable assigned differently on the two arms of a thread-dependent
 * branch) is not followed: the trace's lane masks show its effect anyway. */
#include "passes/analyze.h"

#include <stdlib.h>

#include "passes/analyze_internal.h"

bool hms_expr_thread_dependent(const ir_expr *e, const bool *var_dep)
{
    if (!e)
        return false;
    switch (e->kind) {
    case IR_CONST:
        return false;
    case IR_SYM:
        return e->sym == IR_SYM_TID_X || e->sym == IR_SYM_TID_Y || e->sym == IR_SYM_TID_Z ||
               e->sym == IR_SYM_LANEID;
    case IR_VAR:
        return var_dep && e->var >= 0 && var_dep[e->var];
    case IR_UNKNOWN:
        return true;
    default:
        return hms_expr_thread_dependent(e->a, var_dep) ||
               hms_expr_thread_dependent(e->b, var_dep) || hms_expr_thread_dependent(e->c, var_dep);
    }
}

static void mark(hms_check_ctx *c, const ir_stmt *s, const bool *dep, const ir_stmt *branch,
                 bool collective)
{
    if (!s)
        return;
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            mark(c, s->items.v[i], dep, branch, collective);
        break;
    case IR_S_ACCESS:
        if (s->access.id >= 0 && (size_t)s->access.id < c->nsites) {
            c->sites[s->access.id].branch = branch;
            c->sites[s->access.id].collective = collective;
        }
        break;
    case IR_S_IF: {
        /* An instruction's own lane mask (s->lane_mask) does not split the warp. */
        const ir_stmt *inner =
            !s->lane_mask && hms_expr_thread_dependent(s->cond, dep) ? s : branch;
        mark(c, s->then, dep, inner, collective || s->lane_mask);
        mark(c, s->els, dep, inner, collective || s->lane_mask);
        break;
    }
    case IR_S_LOOP:
        mark(c, s->init, dep, branch, collective);
        mark(c, s->body, dep, branch, collective);
        mark(c, s->step, dep, branch, collective);
        break;
    default:
        break;
    }
}

void hms_an_branches(hms_check_ctx *c)
{
    const ir_kernel *k = c->k;
    bool *dep = calloc(k->nvars ? k->nvars : 1, sizeof *dep);
    if (!dep)
        return;
    for (size_t round = 0; round <= k->nvars &&
                           ir_flag_assignments(k->body, dep, k->nvars, hms_expr_thread_dependent);
         round++)
        ;
    mark(c, k->body, dep, NULL, false);
    free(dep);
}
