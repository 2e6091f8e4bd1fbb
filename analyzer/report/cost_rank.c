/* Cost estimates and --sort=cost (see cost_rank.h). */
#include "analyzer/report/cost_rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double pos(double v)
{
    return v > 0 && isfinite(v) ? v : 0;
}

static double access_time(const hms_access_metrics *a)
{
    return pos(a->requests) * pos(a->latency_cycles);
}

double hms_line_memory_share(const hms_kernel_report *k, unsigned line)
{
    double total = 0, on_line = 0;
    for (size_t i = 0; i < k->naccesses; i++) {
        double t = access_time(&k->accesses[i]);
        total += t;
        if (k->accesses[i].line == line)
            on_line += t;
    }
    return total > 0 ? on_line / total : 0;
}

/* The memory part of the predicted time the line shares are taken of. */
static double memory_time(const hms_kernel_report *k)
{
    double t = pos(k->model.predicted_time);
    double m = pos(k->model.t_mem);
    return m > 0 && m < t ? m : t;
}

/* The waste a check's fix removes, as the access metrics measure it. */
typedef enum { WASTE_NONE = 0, WASTE_SECTORS, WASTE_WAVEFRONTS, WASTE_CONSTANT } waste_kind;

static const struct {
    const char *check;
    waste_kind kind;
} check_waste[] = {
    {"hms-uncoalesced-access", WASTE_SECTORS},      /* sectors a coalesced warp would not fetch */
    {"hms-divergent-access", WASTE_SECTORS},        /* the same, from divergent lanes */
    {"hms-shared-bank-conflict", WASTE_WAVEFRONTS}, /* wavefronts beyond one per request */
    {"hms-constant-divergence", WASTE_CONSTANT},    /* serialised distinct constant addresses */
};

static waste_kind waste_of(const char *check)
{
    for (size_t i = 0; check && i < sizeof check_waste / sizeof check_waste[0]; i++)
        if (!strcmp(check_waste[i].check, check))
            return check_waste[i].kind;
    return WASTE_NONE;
}

/* Fraction of an access's time the fix would not spend (0 when the access
 * is not of the kind the check is about). */
static double waste(const hms_access_metrics *a, waste_kind kind)
{
    const char *sp = a->space ? a->space : "";
    switch (kind) {
    case WASTE_WAVEFRONTS:
        if (strcmp(sp, "shared") || !(a->bank_wavefronts_per_request > 1))
            return 0;
        return 1 - 1 / a->bank_wavefronts_per_request;
    case WASTE_CONSTANT:
        if (strcmp(sp, "constant") || !(a->distinct_addresses_per_request > 1))
            return 0;
        return 1 - 1 / a->distinct_addresses_per_request;
    case WASTE_SECTORS: {
        if (!strcmp(sp, "shared") || !strcmp(sp, "constant") || a->sectors_per_request <= 0 ||
            a->element_bytes <= 0)
            return 0;
        /* The lanes' distinct addresses packed into 32-byte sectors. */
        double distinct =
            a->distinct_addresses_per_request > 0 ? a->distinct_addresses_per_request : 32;
        double ideal = ceil(distinct * a->element_bytes / 32.0);
        if (ideal < 1)
            ideal = 1;
        return a->sectors_per_request > ideal ? 1 - ideal / a->sectors_per_request : 0;
    }
    default:
        return 0;
    }
}

static bool is_placement(const hms_finding *f)
{
    return f->check &&
           (!strcmp(f->check, "hms-placement") || !strcmp(f->check, "hms-shared-reuse"));
}

/* Current minus best predicted time of the placement of an array accessed
 * on the finding's line. */
static double placement_gain(const hms_kernel_report *k, const hms_finding *f)
{
    double best = 0;
    for (size_t p = 0; p < k->nplacements; p++) {
        const hms_placement *pl = &k->placements[p];
        bool on_line = false;
        for (size_t i = 0; i < k->naccesses && !on_line; i++)
            on_line = k->accesses[i].line == f->line && k->accesses[i].array && pl->array &&
                      !strcmp(k->accesses[i].array, pl->array);
        if (!on_line || !pl->current || !pl->best)
            continue;
        double now = -1, then = -1;
        for (size_t o = 0; o < pl->noptions; o++) {
            const hms_placement_option *x = &pl->options[o];
            if (x->space && !strcmp(x->space, pl->current))
                now = x->predicted_time;
            if (x->space && !strcmp(x->space, pl->best) && x->legal)
                then = x->predicted_time;
        }
        if (now > 0 && then >= 0 && now - then > best)
            best = now - then;
    }
    return best;
}

double hms_finding_gain(const hms_kernel_report *k, const hms_finding *f)
{
    double g = 0;
    if (is_placement(f))
        g = placement_gain(k, f);
    waste_kind kind = waste_of(f->check);
    if (g == 0 && f->line && kind != WASTE_NONE) {
        double total = 0, wasted = 0;
        for (size_t i = 0; i < k->naccesses; i++) {
            double t = access_time(&k->accesses[i]);
            total += t;
            if (k->accesses[i].line == f->line)
                wasted += t * waste(&k->accesses[i], kind);
        }
        g = total > 0 ? memory_time(k) * wasted / total : 0;
    }
    double cap = pos(k->model.predicted_time);
    return g < cap ? g : cap;
}

double hms_kernel_gain(const hms_kernel_report *k)
{
    double sum = 0;
    for (size_t d = 0; d < k->ndiagnostics; d++) {
        const hms_finding *f = &k->diagnostics[d];
        /* One fix per line and check: the same finding from several
         * accesses of a line counts once, at its largest. */
        double g = hms_finding_gain(k, f);
        bool counted = true;
        for (size_t e = 0; e < k->ndiagnostics && counted; e++) {
            const hms_finding *o = &k->diagnostics[e];
            if (e == d || o->line != f->line || !o->check || !f->check ||
                strcmp(o->check, f->check))
                continue;
            double go = hms_finding_gain(k, o);
            counted = go < g || (go == g && e > d);
        }
        if (counted)
            sum += g;
    }
    double cap = pos(k->model.predicted_time);
    return sum < cap ? sum : cap;
}

typedef struct {
    double gain, time;
    size_t index;
} ranked;

static int worst_first(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->gain != b->gain)
        return a->gain > b->gain ? -1 : 1;
    if (a->time != b->time)
        return a->time > b->time ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Reorders `n` elements of `size` bytes at `base` by rank[].index. */
static void permute(void *base, size_t n, size_t size, const ranked *rank)
{
    if (n < 2)
        return;
    char *copy = malloc(n * size);
    if (!copy)
        return;
    memcpy(copy, base, n * size);
    for (size_t i = 0; i < n; i++)
        memcpy((char *)base + i * size, copy + rank[i].index * size, size);
    free(copy);
}

void hms_sort_report_by_cost(hms_report *r)
{
    for (size_t i = 0; i < r->nfiles; i++) {
        hms_file_report *fr = &r->files[i];
        for (size_t k = 0; k < fr->nkernels; k++) {
            hms_kernel_report *kr = &fr->kernels[k];
            ranked *rank = calloc(kr->ndiagnostics ? kr->ndiagnostics : 1, sizeof *rank);
            if (!rank)
                continue;
            for (size_t d = 0; d < kr->ndiagnostics; d++)
                rank[d] = (ranked){hms_finding_gain(kr, &kr->diagnostics[d]), 0, d};
            qsort(rank, kr->ndiagnostics, sizeof *rank, worst_first);
            permute(kr->diagnostics, kr->ndiagnostics, sizeof *kr->diagnostics, rank);
            free(rank);
        }
        ranked *rank = calloc(fr->nkernels ? fr->nkernels : 1, sizeof *rank);
        if (!rank)
            continue;
        for (size_t k = 0; k < fr->nkernels; k++)
            rank[k] = (ranked){hms_kernel_gain(&fr->kernels[k]),
                               pos(fr->kernels[k].model.predicted_time), k};
        qsort(rank, fr->nkernels, sizeof *rank, worst_first);
        permute(fr->kernels, fr->nkernels, sizeof *fr->kernels, rank);
        free(rank);
    }
}
