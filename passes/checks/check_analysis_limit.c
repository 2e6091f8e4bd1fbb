/* hms-analysis-limit: what the analysis could not see exactly, and what
 * would fix it: one note per construct the front end could not represent
 * (ir_limit, with its hint), per launch taken from the default, per scalar
 * parameter without a value, and per assumption the trace or the models
 * made (sampling, indirect indices, budgets, failed steps). */
#include <stdio.h>
#include <string.h>

#include "passes/checks/check_thresholds.h"
#include "passes/checks/check_util.h"

static bool stmt_uses_var(const ir_stmt *s, int var)
{
    if (!s)
        return false;
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            if (stmt_uses_var(s->items.v[i], var))
                return true;
        return false;
    case IR_S_ACCESS:
        return ir_expr_uses_var(s->access.index, var) || ir_expr_uses_var(s->access.index2, var);
    case IR_S_ASSIGN:
        return ir_expr_uses_var(s->value, var);
    case IR_S_IF:
        return ir_expr_uses_var(s->cond, var) || stmt_uses_var(s->then, var) ||
               stmt_uses_var(s->els, var);
    case IR_S_LOOP:
        return ir_expr_uses_var(s->cond, var) || stmt_uses_var(s->init, var) ||
               stmt_uses_var(s->step, var) || stmt_uses_var(s->body, var);
    default:
        return false;
    }
}

static bool param_defaulted(const ir_var *v)
{
    return v->kind == IR_VAR_PARAM &&
           (!v->has_value || (v->value_source && !strcmp(v->value_source, "default")));
}

/* Every access site was skipped by every simulated thread: say under which
 * assumptions, instead of the memory verdict hms-memory-bound then omits. */
static void report_nothing_ran(hms_check_ctx *c)
{
    const ir_kernel *k = c->k;
    char assumed[400] = "";
    size_t n = 0;
    for (size_t i = 0; i < k->nvars && n + 40 < sizeof assumed; i++) {
        const ir_var *v = &k->vars[i];
        if (!param_defaulted(v) || !stmt_uses_var(k->body, (int)i))
            continue;
        int64_t val = 0;
        bool approx = false;
        hms_trace_param_value(k, &c->topt, (int)i, &val, &approx);
        int w = snprintf(assumed + n, sizeof assumed - n, "%s%s = %lld", n ? ", " : "", v->name,
                         (long long)val);
        n = w < 0 || (size_t)w >= sizeof assumed - n ? sizeof assumed - 1 : n + (size_t)w;
    }
    if (k->launch.source == IR_LAUNCH_DEFAULT && n + 60 < sizeof assumed) {
        const uint32_t *g = k->launch.grid, *b = k->launch.block;
        snprintf(assumed + n, sizeof assumed - n, "%sgrid(%u,%u,%u) block(%u,%u,%u)", n ? ", " : "",
                 g[0], g[1], g[2], b[0], b[1], b[2]);
        n = strlen(assumed);
    }
    char blocks[64] = "";
    if (c->trace.sampled)
        snprintf(blocks, sizeof blocks, " in the %llu simulated blocks",
                 (unsigned long long)c->trace.blocks_simulated);
    if (n)
        hms_ctx_report(c, &k->loc,
                       "no access ran%s under the assumed values (%s): every thread left before "
                       "its first access, so there is no memory verdict; give the real values "
                       "(--param, --launch or `// hms-lint:` annotations)",
                       blocks, assumed);
    else
        hms_ctx_report(c, &k->loc,
                       "no access ran%s with this launch and these parameter values: every "
                       "thread left before its first access, so there is no memory verdict",
                       blocks);
}

void hms_check_analysis_limit(struct hms_check_ctx *c)
{
    const ir_kernel *k = c->k;
    /* One note for an assumed launch, with the hint spelled out: the front
     * end's own note (if any) is reworded rather than repeated. */
    bool dflt = k->launch.source == IR_LAUNCH_DEFAULT;
    const char *camp_why = NULL;
    bool camp_skipped = false; /* a site hms-partition-camping would have flagged */
    if (!hms_camping_judged(c, &camp_why))
        for (size_t i = 0; i < c->nsites; i++)
            camp_skipped |=
                c->sites[i].requests > 0 && c->sites[i].camping >= HMS_CAMPING_MIN_FACTOR;
    char launch_hint[400];
    snprintf(launch_hint, sizeof launch_hint,
             "state it with `// hms-lint: launch grid(X,Y) block(X,Y)` above the kernel or "
             "--launch=%s:grid=X,Y,Z:block=X,Y,Z%s",
             k->name,
             dflt && camp_skipped ? "; hms-partition-camping is not judged until then" : "");
    bool launch_said = false;
    for (size_t i = 0; i < k->nlimits; i++) {
        const ir_limit *l = &k->limits[i];
        bool is_launch = dflt && !launch_said && l->reason && strstr(l->reason, "launch") != NULL;
        launch_said |= is_launch;
        const char *hint = is_launch ? launch_hint : l->hint;
        hms_ctx_report(c, &l->loc, "%s%s%s", l->reason ? l->reason : "not analysed",
                       hint ? "; " : "", hint ? hint : "");
    }
    if (dflt && !launch_said) {
        const uint32_t *g = k->launch.grid, *b = k->launch.block;
        hms_ctx_report(c, &k->loc,
                       "launch configuration unknown: assumed grid(%u,%u,%u) block(%u,%u,%u); %s",
                       g[0], g[1], g[2], b[0], b[1], b[2], launch_hint);
    }
    if (!dflt && camp_skipped) {
        const uint32_t *g = k->launch.grid, *b = k->launch.block;
        hms_ctx_report(c, &k->loc,
                       "hms-partition-camping not judged: %s (grid(%u,%u,%u) block(%u,%u,%u))",
                       camp_why, g[0], g[1], g[2], b[0], b[1], b[2]);
    }
    for (size_t i = 0; i < k->nvars; i++) {
        const ir_var *v = &k->vars[i];
        if (!param_defaulted(v) || !stmt_uses_var(k->body, (int)i))
            continue;
        int64_t val = 0;
        bool approx = false;
        hms_trace_param_value(k, &c->topt, (int)i, &val, &approx);
        char why[200] = "";
        if (v->default_why && v->has_value && val == v->value)
            snprintf(why, sizeof why, " (%s)", v->default_why);
        hms_ctx_report(c, &v->loc,
                       "parameter '%s' has no value: assumed %lld%s, figures that depend on it "
                       "are estimates; set it with `// hms-lint: param %s=<value>` or "
                       "--param=%s.%s=<value>",
                       v->name, (long long)val, why, v->name, k->name, v->name);
    }
    if (hms_ctx_no_access_ran(c))
        report_nothing_ran(c);
    for (size_t i = 0; c->traced && i < c->trace.nnotes; i++) {
        if (strncmp(c->trace.notes[i], "parameter '", 11) == 0)
            continue; /* reported above, at the parameter */
        hms_ctx_report(c, &k->loc, "%s", c->trace.notes[i]);
    }
    for (size_t i = 0; i < c->nlimits; i++)
        hms_ctx_report(c, &k->loc, "%s", c->limits[i]);
}
