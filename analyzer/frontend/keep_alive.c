/* Retrying defaults that kill every thread (keep_alive.h). */
#include "analyzer/frontend/keep_alive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/guard_lean.h"
#include "analyzer/frontend/ir_build_impl.h"

/* The value a small default is retried with: the least positive count. */
#define RETRY_VALUE 1

static bool sites_unreached(const hms_kernel_report *r)
{
    if (!r->naccesses)
        return false; /* no access at all: nothing to keep alive */
    for (size_t i = 0; i < r->naccesses; i++)
        if (r->accesses[i].requests > 0)
            return false;
    return true;
}

/* A small default (HMS_PARAM_DEFAULT_SMALL, no role found): default_why
 * NULL. Thread-index bounds keep theirs (1 would leave one thread). */
static bool small_default(const ir_var *v)
{
    return v->kind == IR_VAR_PARAM && v->value_source && !strcmp(v->value_source, "default") &&
           !v->default_why && v->value > RETRY_VALUE;
}

static void append(char *buf, size_t cap, size_t *len, const char *name)
{
    if (*len < cap)
        *len +=
            (size_t)snprintf(buf + *len, cap - *len, "%s%s", *len ? ", " : "", name ? name : "?");
}

/* One retry: the small defaults at RETRY_VALUE, except those `keep` marks
 * (a guard on the path to the accesses needs them large; NULL: none). When
 * it reaches an access it becomes *out (true); else k is left as it was. */
static bool retry(ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out,
                  const bool *keep)
{
    int64_t *saved = calloc(k->nvars + 1, sizeof *saved);
    if (!saved)
        return false;
    char set[256] = "", kept[256] = "";
    size_t nset = 0, nkept = 0, n = 0;
    for (size_t v = 0; v < k->nvars; v++) {
        saved[v] = k->vars[v].value;
        if (!small_default(&k->vars[v]))
            continue;
        if (keep && keep[v]) {
            append(kept, sizeof kept, &nkept, k->vars[v].name);
            continue;
        }
        k->vars[v].value = RETRY_VALUE;
        append(set, sizeof set, &nset, k->vars[v].name);
        n++;
    }
    size_t nlimits = k->nlimits;
    if (n) {
        char why[1280]; /* the text plus set and kept (twice each) */
        if (keep)
            snprintf(why, sizeof why,
                     "no thread reached an access with the default %d for %s, %s: analysed with "
                     "%s at %d and %s at %d, so that the comparisons guarding the accesses hold "
                     "(an assumption; give the real values with --param)",
                     HMS_PARAM_DEFAULT_SMALL, set, kept, set, RETRY_VALUE, kept,
                     HMS_PARAM_DEFAULT_SMALL);
        else
            snprintf(why, sizeof why,
                     "no thread reached an access with the default %d for %s: analysed with %d "
                     "instead (an assumption; give the real values with --param)",
                     HMS_PARAM_DEFAULT_SMALL, set, RETRY_VALUE);
        ir_add_limit(k, why, "--param=<kernel>.<name>=<value>", k->loc);
    }
    hms_kernel_report again;
    memset(&again, 0, sizeof again);
    bool reached = n && hms_analyze_kernel(k, o, &again) && !sites_unreached(&again);
    if (reached) {
        for (size_t v = 0; v < k->nvars; v++)
            if (k->vars[v].value != saved[v])
                k->vars[v].default_why = "retried at 1: the default left no thread reaching "
                                         "an access";
        hms_kernel_report_free(out);
        *out = again;
    } else {
        if (n)
            hms_kernel_report_free(&again);
        for (size_t v = 0; v < k->nvars; v++)
            k->vars[v].value = saved[v];
        k->nlimits = nlimits; /* the retry's note goes with it */
    }
    free(saved);
    return reached;
}

/* ---- values computed by inline assembly -------------------------------------- */

/* What an inline-assembly result (ir_build_asm.c) that steers control flow
 * is assumed to be, in the order tried until one reaches an access. Such
 * results are mostly bit indexes, lane numbers or small counts (bfind, clz,
 * popc, %laneid: 0..32); 8 keeps a loop over `1 << (r + 1)` elements modest. */
static const int64_t asm_assumed[] = {8, 1};

typedef struct {
    ir_expr **v;
    size_t n, cap;
} expr_set;

static bool is_asm_result(const ir_expr *e)
{
    return e->kind == IR_UNKNOWN && e->reason &&
           !strncmp(e->reason, IRB_ASM_INTO, sizeof IRB_ASM_INTO - 1);
}

/* The asm results in e into s; the variables e reads marked in vars. */
static void scan_expr(expr_set *s, bool *vars, size_t nvars, ir_expr *e)
{
    if (!e)
        return;
    if (e->kind == IR_VAR && e->var >= 0 && (size_t)e->var < nvars)
        vars[e->var] = true;
    if (is_asm_result(e)) {
        for (size_t i = 0; i < s->n; i++)
            if (s->v[i] == e)
                return;
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 8;
            ir_expr **v = realloc(s->v, cap * sizeof *v);
            if (!v)
                return;
            s->v = v;
            s->cap = cap;
        }
        s->v[s->n++] = e;
        return;
    }
    scan_expr(s, vars, nvars, e->a);
    scan_expr(s, vars, nvars, e->b);
    scan_expr(s, vars, nvars, e->c);
}

/* Conditions and trip counts (control) or the values assigned to the
 * variables marked in vars (values). */
static void scan_stmt(expr_set *s, bool *vars, size_t nvars, ir_stmt *st, bool control)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->items.n; i++)
        scan_stmt(s, vars, nvars, st->items.v[i], control);
    if (control) {
        scan_expr(s, vars, nvars, st->cond);
        scan_expr(s, vars, nvars, st->trip);
    } else if (st->kind == IR_S_ASSIGN && st->var >= 0 && (size_t)st->var < nvars &&
               vars[st->var]) {
        scan_expr(s, vars, nvars, st->value);
    }
    scan_stmt(s, vars, nvars, st->then, control);
    scan_stmt(s, vars, nvars, st->els, control);
    scan_stmt(s, vars, nvars, st->init, control);
    scan_stmt(s, vars, nvars, st->body, control);
    scan_stmt(s, vars, nvars, st->step, control);
}

/* The asm results that branch and loop conditions depend on, directly or
 * through the variables assigned from them. */
static void steering_asm_results(ir_kernel *k, expr_set *s)
{
    bool *vars = calloc(k->nvars + 1, sizeof *vars);
    if (!vars)
        return;
    scan_stmt(s, vars, k->nvars, k->body, true);
    for (int round = 0; round < 4; round++) /* locals assigned from locals */
        scan_stmt(s, vars, k->nvars, k->body, false);
    free(vars);
}

/* The asm results made the constant v in place (every expression holding
 * one shares the node); with `reasons`, put back as the unknowns they were. */
static void set_asm_results(const expr_set *s, const char *const *reasons, int64_t v)
{
    for (size_t i = 0; i < s->n; i++) {
        s->v[i]->kind = reasons ? IR_UNKNOWN : IR_CONST;
        s->v[i]->value = reasons ? 0 : v;
        if (reasons)
            s->v[i]->reason = reasons[i];
    }
}

/* Branches and loops steered by values inline assembly computes
 * (cdpBitonicSort: `len2 = 1 << (__btflo(len - 1) + 1)` bounds every loop):
 * analysed with those values assumed, like a parameter's default, each
 * assumed value in turn until one reaches an access, with a note; if none
 * does, as unknowns. */
static bool analyze_asm_assumed(ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out)
{
    expr_set s = {0};
    steering_asm_results(k, &s);
    const char **reasons = s.n ? calloc(s.n, sizeof *reasons) : NULL;
    if (!reasons) {
        free(s.v);
        return hms_analyze_kernel(k, o, out);
    }
    char names[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < s.n; i++) {
        reasons[i] = s.v[i]->reason;
        append(names, sizeof names, &len, s.v[i]->reason + sizeof IRB_ASM_INTO - 1);
    }
    bool done = false, ok = true;
    for (size_t t = 0; t < sizeof asm_assumed / sizeof *asm_assumed && !done; t++) {
        size_t nlimits = k->nlimits;
        char why[512];
        snprintf(why, sizeof why,
                 "branches and loops depend on values inline assembly computes (%s), which the "
                 "analysis cannot run: analysed with each assumed %lld (an assumption)",
                 names, (long long)asm_assumed[t]);
        ir_add_limit(k, why, NULL, k->loc);
        set_asm_results(&s, NULL, asm_assumed[t]);
        memset(out, 0, sizeof *out);
        ok = hms_analyze_kernel(k, o, out);
        done = ok && !sites_unreached(out); /* the IR keeps the values, as the report does */
        if (!done) {
            hms_kernel_report_free(out);
            set_asm_results(&s, reasons, 0);
            k->nlimits = nlimits;
        }
    }
    if (!done) {
        memset(out, 0, sizeof *out);
        ok = hms_analyze_kernel(k, o, out);
    } else { /* the front end's notes that those values are unknown no longer hold */
        size_t n = 0;
        for (size_t i = 0; i < k->nlimits; i++)
            if (!k->limits[i].reason || !strstr(k->limits[i].reason, IRB_ASM_INTO))
                k->limits[n++] = k->limits[i];
        k->nlimits = n;
    }
    free(reasons);
    free(s.v);
    return ok;
}

/* Whether some variable would be retried (small_default). */
static bool any_small_default(const ir_kernel *k)
{
    for (size_t v = 0; v < k->nvars; v++)
        if (small_default(&k->vars[v]))
            return true;
    return false;
}

/* The first analysis is needed only when no retry keeps, if it reaches no
 * access: a probe that stops at the first access (hms_analyze_no_access_runs)
 * tells so far more cheaply than the full analysis (hotspot's 64-iteration
 * loop of barriers in every block). Kernels whose branches depend on asm
 * results are analysed first as before (analyze_asm_assumed). */
static bool first_reaches_nothing(ir_kernel *k, const hms_analysis_options *o)
{
    if (!any_small_default(k))
        return false;
    expr_set s = {0};
    steering_asm_results(k, &s);
    free(s.v);
    return !s.n && hms_analyze_no_access_runs(k, o);
}

/* The retries after a first analysis that reached no access; true when one
 * reached an access and is *out. */
static bool retry_all(ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out)
{
    if (retry(k, o, out, NULL))
        return true;
    /* Every small default at 1 did not do it either (`filter_radius < width`
     * with width from another default): those the guards on the path to the
     * accesses need large (guard_lean.h) keep their default. */
    int *votes = calloc(k->nvars + 1, sizeof *votes);
    bool *keep = calloc(k->nvars + 1, sizeof *keep);
    bool reached = false;
    if (votes && keep) {
        hms_guard_lean(k, votes);
        bool any = false;
        for (size_t v = 0; v < k->nvars; v++) {
            keep[v] = votes[v] > 0 && small_default(&k->vars[v]);
            any |= keep[v];
        }
        if (any)
            reached = retry(k, o, out, keep);
    }
    free(votes);
    free(keep);
    return reached;
}

bool hms_analyze_keep_alive(ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out)
{
    if (first_reaches_nothing(k, o)) { /* the retries first; the first analysis if none keeps */
        if (retry_all(k, o, out))
            return true;
        return hms_analyze_kernel(k, o, out);
    }
    bool ok = analyze_asm_assumed(k, o, out);
    if (ok && sites_unreached(out))
        retry_all(k, o, out);
    return ok;
}
