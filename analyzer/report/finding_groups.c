/* See finding_groups.h. */
#include "analyzer/report/finding_groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const hms_file_report *fr;
    const hms_finding_ref *v;
} sort_ctx;

static const hms_finding *finding(const hms_file_report *fr, const hms_finding_ref *r)
{
    return &fr->kernels[r->kernel].diagnostics[r->index];
}

static int cmp_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static _Thread_local const hms_file_report *sort_fr;
static _Thread_local const hms_finding_ref *sort_v;

/* By place and check, then kernel order: candidates for a group end up adjacent. */
static int by_place(const void *pa, const void *pb)
{
    const hms_finding_ref *a = &sort_v[*(const size_t *)pa], *b = &sort_v[*(const size_t *)pb];
    const hms_finding *fa = finding(sort_fr, a), *fb = finding(sort_fr, b);
    int c = cmp_str(fa->file, fb->file);
    if (!c)
        c = fa->line != fb->line ? (fa->line < fb->line ? -1 : 1) : 0;
    if (!c)
        c = fa->col != fb->col ? (fa->col < fb->col ? -1 : 1) : 0;
    if (!c)
        c = cmp_str(fa->check, fb->check);
    if (!c)
        c = *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
    return c;
}

/* The message with the kernel's name (and its name without template
 * arguments) replaced by a marker. */
static char *without_kernel(const char *msg, const char *kernel)
{
    char base[256];
    snprintf(base, sizeof base, "%s", kernel ? kernel : "");
    char *lt = strchr(base, '<');
    if (lt)
        *lt = '\0';
    size_t cap = strlen(msg ? msg : "") + 1, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    for (const char *p = msg ? msg : ""; *p;) {
        size_t kl = kernel ? strlen(kernel) : 0, bl = strlen(base);
        if (kl && !strncmp(p, kernel, kl)) {
            out[len++] = '\x01';
            p += kl;
        } else if (bl && !strncmp(p, base, bl)) {
            out[len++] = '\x01';
            p += bl;
        } else {
            out[len++] = *p++;
        }
    }
    out[len] = '\0';
    return out;
}

static bool same_diagnostic(const hms_file_report *fr, const hms_finding_ref *a,
                            const hms_finding_ref *b)
{
    const hms_finding *fa = finding(fr, a), *fb = finding(fr, b);
    if (cmp_str(fa->file, fb->file) || fa->line != fb->line || fa->col != fb->col ||
        cmp_str(fa->check, fb->check) || fa->severity != fb->severity)
        return false;
    if (a->kernel == b->kernel)
        return false; /* one kernel's own findings are never merged */
    char *ma = without_kernel(fa->message, fr->kernels[a->kernel].name);
    char *mb = without_kernel(fb->message, fr->kernels[b->kernel].name);
    bool same = ma && mb && !strcmp(ma, mb);
    free(ma);
    free(mb);
    return same;
}

void hms_group_findings(const hms_file_report *fr, hms_finding_groups *g)
{
    memset(g, 0, sizeof *g);
    size_t n = 0;
    for (size_t k = 0; k < fr->nkernels; k++)
        n += fr->kernels[k].ndiagnostics;
    g->offset = calloc(fr->nkernels ? fr->nkernels : 1, sizeof *g->offset);
    g->v = calloc(n ? n : 1, sizeof *g->v);
    size_t *order = calloc(n ? n : 1, sizeof *order);
    if (!g->offset || !g->v || !order) {
        free(order);
        hms_finding_groups_free(g);
        return;
    }
    for (size_t k = 0; k < fr->nkernels; k++) {
        g->offset[k] = g->n;
        for (size_t d = 0; d < fr->kernels[k].ndiagnostics; d++, g->n++) {
            g->v[g->n] = (hms_finding_ref){k, d, g->n, 1};
            order[g->n] = g->n;
        }
    }
    sort_fr = fr;
    sort_v = g->v;
    qsort(order, n, sizeof *order, by_place);
    /* Within a run of one place and check, each finding joins the first
     * earlier one it matches (the run is in kernel order). */
    for (size_t i = 0; i < n; i++) {
        hms_finding_ref *r = &g->v[order[i]];
        for (size_t j = i; j-- > 0;) {
            const hms_finding_ref *o = &g->v[order[j]];
            const hms_finding *fr_, *fo;
            fr_ = finding(fr, r);
            fo = finding(fr, o);
            if (fr_->line != fo->line || fr_->col != fo->col || cmp_str(fr_->check, fo->check) ||
                cmp_str(fr_->file, fo->file))
                break;
            if (o->group == order[j] && same_diagnostic(fr, o, r)) {
                r->group = order[j];
                g->v[order[j]].size++;
                break;
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        g->v[i].size = g->v[g->v[i].group].size;
    free(order);
}

const hms_finding_ref *hms_finding_ref_of(const hms_finding_groups *g, size_t kernel, size_t index)
{
    if (!g->v || !g->offset)
        return NULL;
    size_t i = g->offset[kernel] + index;
    return i < g->n ? &g->v[i] : NULL;
}

char *hms_finding_group_kernels(const hms_file_report *fr, const hms_finding_groups *g,
                                const hms_finding_ref *r, bool except_self)
{
    size_t cap = 64, len = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t i = r->group; i < g->n; i++) {
        if (g->v[i].group != r->group || (except_self && &g->v[i] == r))
            continue;
        const char *name = fr->kernels[g->v[i].kernel].name;
        name = name ? name : "?";
        size_t need = len + strlen(name) + 3;
        if (need > cap) {
            cap = need * 2;
            char *ns = realloc(s, cap);
            if (!ns) {
                free(s);
                return NULL;
            }
            s = ns;
        }
        len += (size_t)snprintf(s + len, cap - len, "%s%s", len ? ", " : "", name);
    }
    return s;
}

void hms_finding_groups_free(hms_finding_groups *g)
{
    free(g->v);
    free(g->offset);
    memset(g, 0, sizeof *g);
}
