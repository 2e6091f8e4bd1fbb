/* Per-check summary line (see check_summary.h). */
#include "analyzer/report/check_summary.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/report/finding_groups.h"
#include "passes/checks/checks.h"

typedef struct {
    const char *check;
    size_t n;
    size_t order; /* registry position, for ties */
} check_count;

static int most_first(const void *pa, const void *pb)
{
    const check_count *a = pa, *b = pb;
    if (a->n != b->n)
        return a->n > b->n ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static size_t registry_position(const char *check)
{
    size_t n;
    const hms_check_def *defs = hms_check_registry(&n);
    for (size_t i = 0; check && i < n; i++)
        if (!strcmp(defs[i].name, check))
            return i;
    return n;
}

/* Counts of severity `sev` by check into v (at most cap entries). */
static size_t count_checks(const hms_report *r, hms_severity sev, check_count *v, size_t cap)
{
    size_t nv = 0;
    for (size_t i = 0; i < r->nfiles; i++) {
        const hms_file_report *fr = &r->files[i];
        hms_finding_groups g;
        hms_group_findings(fr, &g);
        for (size_t k = 0; k < fr->nkernels; k++)
            for (size_t d = 0; d < fr->kernels[k].ndiagnostics; d++) {
                const hms_finding_ref *ref = hms_finding_ref_of(&g, k, d);
                const hms_finding *f = &fr->kernels[k].diagnostics[d];
                if ((ref && ref->group != g.offset[k] + d) || f->severity != sev)
                    continue;
                const char *check = f->check ? f->check : "hms-unknown";
                size_t j = 0;
                while (j < nv && strcmp(v[j].check, check))
                    j++;
                if (j == nv) {
                    if (nv == cap)
                        continue;
                    v[nv++] = (check_count){check, 0, registry_position(check)};
                }
                v[j].n++;
            }
        hms_finding_groups_free(&g);
    }
    qsort(v, nv, sizeof *v, most_first);
    return nv;
}

void hms_write_check_summary(const hms_report *r, size_t suppressed, FILE *out)
{
    static const struct {
        hms_severity sev;
        const char *word;
    } order[] = {{HMS_SEV_ERROR, "error"}, {HMS_SEV_WARNING, "warning"}, {HMS_SEV_NOTE, "note"}};
    check_count v[64];
    bool any = false;
    for (size_t s = 0; s < sizeof order / sizeof order[0]; s++) {
        size_t nv = count_checks(r, order[s].sev, v, sizeof v / sizeof v[0]);
        size_t total = 0;
        for (size_t j = 0; j < nv; j++)
            total += v[j].n;
        if (!total)
            continue;
        fprintf(out, "%s%zu %s%s:", any ? "; " : "", total, order[s].word, total == 1 ? "" : "s");
        for (size_t j = 0; j < nv; j++)
            fprintf(out, "%s %zu %s", j ? "," : "", v[j].n, v[j].check);
        any = true;
    }
    if (suppressed)
        fprintf(out, "%s%zu suppressed", any ? "; " : "", suppressed);
    if (any || suppressed)
        fputs(".\n", out);
}
