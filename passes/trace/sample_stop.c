/* Sequential sampling's stopping rule (see sample_stop.h). */
#include "passes/trace/sample_stop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/banks.h"

bool hms_group_figures_init(hms_group_figures *g, size_t nfig)
{
    memset(g, 0, sizeof *g);
    g->nfig = nfig;
    return nfig > 0;
}

void hms_group_figures_free(hms_group_figures *g)
{
    free(g->x);
    memset(g, 0, sizeof *g);
}

bool hms_group_figures_add(hms_group_figures *g, const double *per_block)
{
    double *x = realloc(g->x, (g->ngroups + 1) * g->nfig * sizeof *x);
    if (!x)
        return false;
    g->x = x;
    memcpy(x + g->ngroups * g->nfig, per_block, g->nfig * sizeof *x);
    g->ngroups++;
    return true;
}

double hms_group_figures_rse(const hms_group_figures *g, size_t *which)
{
    if (which)
        *which = 0;
    size_t n = g->ngroups;
    if (n < 2)
        return INFINITY;
    double worst = 0;
    for (size_t f = 0; f < g->nfig; f++) {
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += g->x[i * g->nfig + f];
        double mean = sum / (double)n;
        if (mean == 0) /* figures are counts (>= 0): 0 in every group */
            continue;
        double ss = 0;
        for (size_t i = 0; i < n; i++) {
            double d = g->x[i * g->nfig + f] - mean;
            ss += d * d;
        }
        /* standard error of the mean of n group values, relative */
        double rse = sqrt(ss / (double)(n - 1) / (double)n) / fabs(mean);
        if (rse > worst) {
            worst = rse;
            if (which)
                *which = f;
        }
    }
    return worst;
}

bool hms_group_figures_converged(const hms_group_figures *g, double tolerance)
{
    return tolerance > 0 && g->ngroups >= HMS_STOP_MIN_GROUPS &&
           hms_group_figures_rse(g, NULL) <= tolerance;
}

void hms_group_figures_of(const hms_kernel_trace *t, size_t first, size_t end, const hms_arch *arch,
                          double *out)
{
    size_t nfig = HMS_STOP_FIG_SITES + t->nsites;
    for (size_t f = 0; f < nfig; f++)
        out[f] = 0;
    if (end <= first)
        return;
    for (size_t b = first; b < end; b++) {
        const hms_traced_block *B = &t->blocks[b];
        out[HMS_STOP_FIG_LINES] += (double)B->lines;
        out[HMS_STOP_FIG_INSTS] += B->insts;
        for (size_t i = B->first; i < B->first + B->count; i++) {
            const hms_warp_access *r = &t->stream.v[i];
            double reps = hms_record_reps(r);
            out[HMS_STOP_FIG_REQUESTS] += reps;
            if (r->site < t->nsites)
                out[HMS_STOP_FIG_SITES + r->site] += reps;
            hms_bank_result br;
            if (arch && r->space == HMS_SPACE_SHARED && r->mask && hms_banks_warp(arch, r, &br))
                out[HMS_STOP_FIG_BANK_PASSES] += reps * (double)br.wavefronts;
        }
    }
    for (size_t f = 0; f < nfig; f++)
        out[f] /= (double)(end - first);
}
