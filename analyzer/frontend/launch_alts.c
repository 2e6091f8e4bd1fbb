/* Worst of several launch configurations (launch_alts.h). */
#include "analyzer/frontend/launch_alts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/ir_build_impl.h"
#include "analyzer/frontend/keep_alive.h"

/* The parameter values as built, to fall back on where a path passes none. */
typedef struct {
    int64_t *values;
    const char **sources;
} param_state;

/* k's launch and scalar parameters set to configuration a. */
static void apply(ir_kernel *k, const ir_launch_alt *a, const param_state *orig)
{
    ir_launch *l = &k->launch;
    memcpy(l->grid, a->grid, sizeof l->grid);
    memcpy(l->block, a->block, sizeof l->block);
    l->via = a->via;
    int root = -1;
    for (size_t i = 0; i < k->narrays && root < 0; i++)
        if (k->arrays[i].is_extern_shared && k->arrays[i].base_array < 0)
            root = (int)i;
    if (a->shared_known)
        l->shared_bytes = a->shared_bytes;
    else if (root >= 0) /* the build's assumption: one element per thread */
        l->shared_bytes = (uint32_t)((uint64_t)a->block[0] * a->block[1] * a->block[2] *
                                     (uint64_t)k->arrays[root].elem_bytes);
    if (root >= 0 && k->arrays[root].elem_bytes > 0)
        for (size_t i = 0; i < k->narrays; i++)
            if (k->arrays[i].is_extern_shared && k->arrays[i].ndims >= 1) {
                int64_t room = (int64_t)l->shared_bytes - k->arrays[i].base_offset;
                k->arrays[i].dims[0] = room > 0 ? room / k->arrays[i].elem_bytes : 0;
            }
    bool *unset = k->nvars ? calloc(k->nvars, sizeof *unset) : NULL;
    for (size_t v = 0; v < k->nvars; v++) {
        ir_var *x = &k->vars[v];
        if (x->kind != IR_VAR_PARAM)
            continue;
        x->value = orig->values[v];
        x->value_source = orig->sources[v];
        if (x->value_source && !strcmp(x->value_source, "host-call") && a->known && a->known[v])
            x->value = a->values[v];
        else if (unset && x->value_source && !strcmp(x->value_source, "default"))
            unset[v] = true; /* its default may follow the launch (threads along x) */
    }
    if (unset)
        irb_role_defaults(k, unset);
    free(unset);
}

static void config_text(const ir_launch_alt *a, char *buf, size_t len)
{
    snprintf(buf, len, "grid(%u,%u,%u) block(%u,%u,%u)", a->grid[0], a->grid[1], a->grid[2],
             a->block[0], a->block[1], a->block[2]);
}

bool hms_analyze_launch_alts(ir_kernel *k, const hms_analysis_options *o, hms_kernel_report *out)
{
    size_t n = k->launch.nalts;
    if (n < 2)
        return hms_analyze_keep_alive(k, o, out);
    param_state orig = {calloc(k->nvars + 1, sizeof *orig.values),
                        calloc(k->nvars + 1, sizeof *orig.sources)};
    hms_kernel_report *reps = calloc(n, sizeof *reps);
    bool *ok = calloc(n, sizeof *ok);
    if (!orig.values || !orig.sources || !reps || !ok) {
        free(orig.values);
        free(orig.sources);
        free(reps);
        free(ok);
        return hms_analyze_keep_alive(k, o, out);
    }
    for (size_t v = 0; v < k->nvars; v++)
        orig.values[v] = k->vars[v].value, orig.sources[v] = k->vars[v].value_source;
    size_t worst = n;
    for (size_t i = 0; i < n; i++) {
        apply(k, &k->launch.alts[i], &orig);
        ok[i] = hms_analyze_keep_alive(k, o, &reps[i]);
        if (ok[i] &&
            (worst == n || reps[i].model.predicted_time > reps[worst].model.predicted_time))
            worst = i;
    }
    bool result = worst < n;
    if (!result)
        worst = 0;
    apply(k, &k->launch.alts[worst], &orig);
    *out = reps[worst];
    memset(&reps[worst], 0, sizeof reps[worst]);
    /* the others, with what they predict: "grid(..) block(..): 1234 cycles; ..." */
    size_t cap = 64 + n * 96, len = 0;
    char *others = malloc(cap);
    for (size_t i = 0; others && i < n; i++) {
        if (i == worst)
            continue;
        char c[96];
        config_text(&k->launch.alts[i], c, sizeof c);
        if (ok[i])
            len += (size_t)snprintf(others + len, cap - len, "%s%s: %.0f cycles", len ? "; " : "",
                                    c, reps[i].model.predicted_time);
        else
            len +=
                (size_t)snprintf(others + len, cap - len, "%s%s: not analysed", len ? "; " : "", c);
    }
    if (others && len) {
        char c[96];
        config_text(&k->launch.alts[worst], c, sizeof c);
        char *full = NULL;
        if (asprintf(&full, "analysed, slowest reported (%s: %.0f cycles); others: %s", c,
                     out->model.predicted_time, others) >= 0) {
            free(out->launch.others);
            out->launch.others = full;
            out->launch.others_analysed = true;
        }
    }
    free(others);
    for (size_t i = 0; i < n; i++)
        hms_kernel_report_free(&reps[i]);
    free(reps);
    free(ok);
    free(orig.values);
    free(orig.sources);
    return result;
}
