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
        char why[768];
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

/* What an inline-assembly result (ir_build_asm.c) is assumed to be, in the
 * order tried, when every access waits on it. Such results that bound loops
 * are mostly bit indexes, lane numbers or small counts (bfind, clz, popc,
 * %laneid: 0..32); 8 keeps a loop over `1 << (r + 1)` elements modest. */
static const int64_t asm_assumed[] = {8, 1};

typedef struct {
    ir_expr **v;
    size_t n, cap;
} expr_set;

static void add_asm_results(expr_set *s, ir_expr *e)
{
    if (!e)
        return;
    if (e->kind == IR_UNKNOWN && e->reason &&
        !strncmp(e->reason, IRB_ASM_INTO, sizeof IRB_ASM_INTO - 1)) {
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
    add_asm_results(s, e->a);
    add_asm_results(s, e->b);
    add_asm_results(s, e->c);
}

static void collect_asm_results(expr_set *s, ir_stmt *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->items.n; i++)
        collect_asm_results(s, st->items.v[i]);
    add_asm_results(s, st->value);
    add_asm_results(s, st->cond);
    add_asm_results(s, st->trip);
    if (st->kind == IR_S_ACCESS) {
        add_asm_results(s, st->access.index);
        add_asm_results(s, st->access.index2);
    }
    collect_asm_results(s, st->then);
    collect_asm_results(s, st->els);
    collect_asm_results(s, st->init);
    collect_asm_results(s, st->body);
    collect_asm_results(s, st->step);
}

/* The unknowns computed by inline assembly are made the constant v in place
 * (every expression holding one shares the node); reason NULL puts them back. */
static void set_asm_results(const expr_set *s, const char *const *reasons, int64_t v)
{
    for (size_t i = 0; i < s->n; i++) {
        s->v[i]->kind = reasons ? IR_UNKNOWN : IR_CONST;
        s->v[i]->value = reasons ? 0 : v;
        if (reasons)
            s->v[i]->reason = reasons[i];
    }
}

/* Every access waits on values computed by inline assembly (cdpBitonicSort:
 * `len2 = 1 << (__btflo(len - 1) + 1)` bounds every loop): each assumed
 * value in turn, the first that reaches an access kept, with a note. */
static void retry_asm(ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out)
{
    expr_set s = {0};
    collect_asm_results(&s, k->body);
    const char **reasons = s.n ? calloc(s.n, sizeof *reasons) : NULL;
    if (!reasons) {
        free(s.v);
        return;
    }
    char names[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < s.n; i++) {
        reasons[i] = s.v[i]->reason;
        append(names, sizeof names, &len, s.v[i]->reason + sizeof IRB_ASM_INTO - 1);
    }
    for (size_t t = 0; t < sizeof asm_assumed / sizeof *asm_assumed; t++) {
        size_t nlimits = k->nlimits;
        char why[512];
        snprintf(why, sizeof why,
                 "no thread reached an access while the values inline assembly computes (%s) "
                 "were unknown: analysed with each assumed %lld (an assumption the analysis "
                 "cannot check)",
                 names, (long long)asm_assumed[t]);
        ir_add_limit(k, why, NULL, k->loc);
        set_asm_results(&s, NULL, asm_assumed[t]);
        hms_kernel_report again;
        memset(&again, 0, sizeof again);
        bool ran = hms_analyze_kernel(k, o, &again);
        if (ran && !sites_unreached(&again)) {
            hms_kernel_report_free(out);
            *out = again;
            break; /* the IR keeps the assumed values, as the report does */
        }
        if (ran)
            hms_kernel_report_free(&again);
        set_asm_results(&s, reasons, 0);
        k->nlimits = nlimits;
    }
    free(reasons);
    free(s.v);
}

bool hms_analyze_keep_alive(ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out)
{
    bool ok = hms_analyze_kernel(k, o, out);
    if (!ok || !sites_unreached(out) || retry(k, o, out, NULL))
        return ok;
    /* Every small default at 1 did not do it either (`filter_radius < width`
     * with width from another default): those the guards on the path to the
     * accesses need large (guard_lean.h) keep their default. */
    int *votes = calloc(k->nvars + 1, sizeof *votes);
    bool *keep = calloc(k->nvars + 1, sizeof *keep);
    if (votes && keep) {
        hms_guard_lean(k, votes);
        bool any = false;
        for (size_t v = 0; v < k->nvars; v++) {
            keep[v] = votes[v] > 0 && small_default(&k->vars[v]);
            any |= keep[v];
        }
        if (any)
            retry(k, o, out, keep);
    }
    free(votes);
    free(keep);
    if (sites_unreached(out))
        retry_asm(k, o, out);
    return ok;
}
