/* Retrying defaults that kill every thread (keep_alive.h). */
#include "analyzer/frontend/keep_alive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

bool hms_analyze_keep_alive(ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out)
{
    bool ok = hms_analyze_kernel(k, o, out);
    if (!ok || !sites_unreached(out))
        return ok;
    int64_t *saved = calloc(k->nvars + 1, sizeof *saved);
    if (!saved)
        return ok;
    char names[256] = "";
    size_t len = 0, n = 0;
    for (size_t v = 0; v < k->nvars; v++) {
        saved[v] = k->vars[v].value;
        if (!small_default(&k->vars[v]))
            continue;
        k->vars[v].value = RETRY_VALUE;
        n++;
        if (len < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "",
                                    k->vars[v].name ? k->vars[v].name : "?");
    }
    hms_kernel_report retry;
    memset(&retry, 0, sizeof retry);
    size_t nlimits = k->nlimits;
    if (n) {
        char why[512];
        snprintf(why, sizeof why,
                 "no thread reached an access with the default %d for %s: analysed with %d "
                 "instead (an assumption; give the real values with --param)",
                 HMS_PARAM_DEFAULT_SMALL, names, RETRY_VALUE);
        ir_add_limit(k, why, "--param=<kernel>.<name>=<value>", k->loc);
    }
    if (n && hms_analyze_kernel(k, o, &retry) && !sites_unreached(&retry)) {
        for (size_t v = 0; v < k->nvars; v++)
            if (k->vars[v].value != saved[v])
                k->vars[v].default_why = "retried at 1: the default left no thread reaching "
                                         "an access";
        hms_kernel_report_free(out);
        *out = retry;
    } else {
        if (n)
            hms_kernel_report_free(&retry);
        for (size_t v = 0; v < k->nvars; v++)
            k->vars[v].value = saved[v];
        k->nlimits = nlimits; /* the retry's note goes with it */
    }
    free(saved);
    return ok;
}
