/* Byte encoding of an hms_file_report (report_wire.h): fixed-width
 * little-endian-as-the-host numbers (both ends are the same process image)
 * and length-prefixed strings, field by field in findings.h's order. */
#include "analyzer/report/report_wire.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NULL_STRING UINT32_MAX

const char *hms_string_pool_intern(hms_string_pool *p, const char *s)
{
    if (!s)
        return NULL;
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->v[i], s) == 0)
            return p->v[i];
    char **nv = realloc(p->v, (p->n + 1) * sizeof *nv);
    if (!nv)
        return NULL;
    p->v = nv;
    char *copy = strdup(s);
    if (!copy)
        return NULL;
    p->v[p->n++] = copy;
    return copy;
}

void hms_string_pool_free(hms_string_pool *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i]);
    free(p->v);
    p->v = NULL;
    p->n = 0;
}

/* ---- writing ---------------------------------------------------------------- */

static void put_bytes(hms_wire_buf *b, const void *p, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        char *nd = realloc(b->data, cap);
        if (!nd) {
            b->failed = true;
            return;
        }
        b->data = nd;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void put_u32(hms_wire_buf *b, uint32_t v)
{
    put_bytes(b, &v, sizeof v);
}

static void put_u64(hms_wire_buf *b, uint64_t v)
{
    put_bytes(b, &v, sizeof v);
}

static void put_f64(hms_wire_buf *b, double v)
{
    put_bytes(b, &v, sizeof v);
}

static void put_str(hms_wire_buf *b, const char *s)
{
    if (!s) {
        put_u32(b, NULL_STRING);
        return;
    }
    size_t n = strlen(s);
    put_u32(b, (uint32_t)n);
    put_bytes(b, s, n);
}

static void put_model(hms_wire_buf *b, const hms_model_figures *m)
{
    const double v[] = {m->data_reuse,
                        m->lat_hiding,
                        m->bw_util,
                        m->ch_skew,
                        m->shm_eff,
                        m->branch_eff,
                        m->mpe,
                        m->t_comp,
                        m->t_mem,
                        m->t_overlap,
                        m->t_pipe,
                        m->amat,
                        m->camat,
                        m->c_h,
                        m->c_m,
                        m->pmr,
                        m->pamp,
                        m->dram_row_hit_rate,
                        m->occupancy,
                        m->predicted_time,
                        m->bound_model,
                        m->bound_dram,
                        m->bound_l2,
                        m->bound_shared,
                        m->bound_fp32,
                        m->bound_issue,
                        m->dram_gbs,
                        m->dram_peak_gbs,
                        m->flops,
                        m->hsm_demand_gbs,
                        m->hsm_supply_gbs,
                        m->overlap_inputs[0],
                        m->overlap_inputs[1],
                        m->overlap_inputs[2],
                        m->overlap_inputs[3],
                        m->overlap_inputs[4],
                        m->overlap_inputs[5],
                        m->overlap_inputs[6],
                        m->mlp};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        put_f64(b, v[i]);
    put_u32(b, m->overlap_inputs_ok);
    put_str(b, m->bound);
    put_str(b, m->binding);
}

static void put_finding(hms_wire_buf *b, const hms_finding *f)
{
    put_str(b, f->check);
    put_u32(b, (uint32_t)f->severity);
    put_str(b, f->message);
    put_str(b, f->file);
    put_u32(b, f->line);
    put_u32(b, f->col);
    put_u32(b, f->end_line);
    put_u32(b, f->end_col);
    put_u64(b, f->nnotes);
    for (size_t i = 0; i < f->nnotes; i++) {
        put_str(b, f->notes[i].message);
        put_str(b, f->notes[i].file);
        put_u32(b, f->notes[i].line);
        put_u32(b, f->notes[i].col);
    }
    put_u64(b, f->nfixits);
    for (size_t i = 0; i < f->nfixits; i++) {
        const hms_fixit *x = &f->fixits[i];
        put_str(b, x->file);
        put_u32(b, x->line);
        put_u32(b, x->col);
        put_u32(b, x->end_line);
        put_u32(b, x->end_col);
        put_str(b, x->replacement);
    }
}

static void put_kernel(hms_wire_buf *b, const hms_kernel_report *k)
{
    put_str(b, k->name);
    put_u32(b, k->line);
    const hms_launch_report *l = &k->launch;
    for (int d = 0; d < 3; d++) {
        put_u32(b, l->grid[d]);
        put_u32(b, l->block[d]);
    }
    put_u32(b, l->shared_bytes);
    put_str(b, l->source);
    put_str(b, l->via);
    put_str(b, l->others);
    put_u32(b, l->others_analysed);
    put_u32(b, k->sampled);
    put_u64(b, k->naccesses);
    for (size_t i = 0; i < k->naccesses; i++) {
        const hms_access_metrics *a = &k->accesses[i];
        put_u32(b, a->line);
        put_u32(b, a->col);
        put_str(b, a->array);
        put_str(b, a->space);
        put_str(b, a->kind);
        put_u32(b, (uint32_t)a->element_bytes);
        put_f64(b, a->requests);
        put_f64(b, a->sectors_per_request);
        put_f64(b, a->lines_per_request);
        put_f64(b, a->bank_wavefronts_per_request);
        put_f64(b, a->distinct_addresses_per_request);
        put_f64(b, a->latency_cycles);
        put_u32(b, a->exact);
    }
    put_u64(b, k->nplacements);
    for (size_t i = 0; i < k->nplacements; i++) {
        const hms_placement *p = &k->placements[i];
        put_str(b, p->array);
        put_str(b, p->current);
        put_str(b, p->best);
        put_u64(b, p->noptions);
        for (size_t o = 0; o < p->noptions; o++) {
            const hms_placement_option *x = &p->options[o];
            put_str(b, x->space);
            put_u32(b, x->legal);
            put_str(b, x->reason);
            put_f64(b, x->predicted_time);
            put_f64(b, x->speedup);
        }
    }
    put_model(b, &k->model);
    put_u64(b, k->ndiagnostics);
    for (size_t i = 0; i < k->ndiagnostics; i++)
        put_finding(b, &k->diagnostics[i]);
    put_f64(b, k->occupancy_blocks_per_sm);
    put_f64(b, k->occupancy_warps_per_sm);
    put_str(b, k->occupancy_limiter);
    put_u32(b, (uint32_t)k->registers_per_thread);
    put_str(b, k->registers_source);
}

static void put_diags(hms_wire_buf *b, hms_diag_sink *s)
{
    if (s)
        pthread_mutex_lock(&s->lock);
    put_u64(b, s ? s->n : 0);
    for (size_t i = 0; s && i < s->n; i++) {
        const hms_diagnostic *d = &s->v[i];
        put_u32(b, (uint32_t)d->level);
        put_str(b, d->file);
        put_u32(b, d->line);
        put_u32(b, d->col);
        put_str(b, d->message);
        put_str(b, d->code);
        put_str(b, d->key);
    }
    if (s)
        pthread_mutex_unlock(&s->lock);
}

void hms_wire_put_result(hms_wire_buf *b, hms_diag_sink *diags, const hms_file_report *r)
{
    put_diags(b, diags);
    put_u64(b, r->nerrors);
    for (size_t i = 0; i < r->nerrors; i++)
        put_str(b, r->errors[i]);
    put_u64(b, r->nkernels);
    for (size_t i = 0; i < r->nkernels; i++)
        put_kernel(b, &r->kernels[i]);
}

/* ---- reading ---------------------------------------------------------------- */

typedef struct {
    const char *p, *end;
    bool bad;
    hms_string_pool *pool;
} reader;

static bool get_bytes(reader *r, void *out, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        memset(out, 0, n);
        return false;
    }
    memcpy(out, r->p, n);
    r->p += n;
    return true;
}

static uint32_t get_u32(reader *r)
{
    uint32_t v;
    get_bytes(r, &v, sizeof v);
    return v;
}

static double get_f64(reader *r)
{
    double v;
    get_bytes(r, &v, sizeof v);
    return v;
}

/* A count of items each at least `min_bytes` long: larger than what is left is malformed. */
static size_t get_count(reader *r, size_t min_bytes)
{
    uint64_t v;
    get_bytes(r, &v, sizeof v);
    if (v > (uint64_t)(r->end - r->p) / min_bytes) {
        r->bad = true;
        return 0;
    }
    return (size_t)v;
}

static char *get_str(reader *r)
{
    uint32_t n = get_u32(r);
    if (r->bad || n == NULL_STRING)
        return NULL;
    if ((size_t)(r->end - r->p) < n) {
        r->bad = true;
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->bad = true;
        return NULL;
    }
    memcpy(s, r->p, n);
    s[n] = '\0';
    r->p += n;
    return s;
}

static const char *get_static(reader *r)
{
    char *s = get_str(r);
    const char *v = s ? hms_string_pool_intern(r->pool, s) : NULL;
    if (s && !v)
        r->bad = true;
    free(s);
    return v;
}

static void *get_array(reader *r, size_t n, size_t size)
{
    if (r->bad || n == 0)
        return NULL;
    void *v = calloc(n, size);
    if (!v)
        r->bad = true;
    return v;
}

static void get_model(reader *r, hms_model_figures *m)
{
    double *v[] = {&m->data_reuse,
                   &m->lat_hiding,
                   &m->bw_util,
                   &m->ch_skew,
                   &m->shm_eff,
                   &m->branch_eff,
                   &m->mpe,
                   &m->t_comp,
                   &m->t_mem,
                   &m->t_overlap,
                   &m->t_pipe,
                   &m->amat,
                   &m->camat,
                   &m->c_h,
                   &m->c_m,
                   &m->pmr,
                   &m->pamp,
                   &m->dram_row_hit_rate,
                   &m->occupancy,
                   &m->predicted_time,
                   &m->bound_model,
                   &m->bound_dram,
                   &m->bound_l2,
                   &m->bound_shared,
                   &m->bound_fp32,
                   &m->bound_issue,
                   &m->dram_gbs,
                   &m->dram_peak_gbs,
                   &m->flops,
                   &m->hsm_demand_gbs,
                   &m->hsm_supply_gbs,
                   &m->overlap_inputs[0],
                   &m->overlap_inputs[1],
                   &m->overlap_inputs[2],
                   &m->overlap_inputs[3],
                   &m->overlap_inputs[4],
                   &m->overlap_inputs[5],
                   &m->overlap_inputs[6],
                   &m->mlp};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        *v[i] = get_f64(r);
    m->overlap_inputs_ok = get_u32(r) != 0;
    m->bound = get_static(r);
    m->binding = get_static(r);
}

static void get_finding(reader *r, hms_finding *f)
{
    f->check = get_static(r);
    f->severity = (hms_severity)get_u32(r);
    if (f->severity > HMS_SEV_ERROR)
        r->bad = true;
    f->message = get_str(r);
    f->file = get_str(r);
    f->line = get_u32(r);
    f->col = get_u32(r);
    f->end_line = get_u32(r);
    f->end_col = get_u32(r);
    size_t nn = get_count(r, 16);
    f->notes = get_array(r, nn, sizeof *f->notes);
    for (size_t i = 0; f->notes && i < nn && !r->bad; i++, f->nnotes++) {
        f->notes[i].message = get_str(r);
        f->notes[i].file = get_str(r);
        f->notes[i].line = get_u32(r);
        f->notes[i].col = get_u32(r);
    }
    size_t nx = get_count(r, 24);
    f->fixits = get_array(r, nx, sizeof *f->fixits);
    for (size_t i = 0; f->fixits && i < nx && !r->bad; i++, f->nfixits++) {
        hms_fixit *x = &f->fixits[i];
        x->file = get_str(r);
        x->line = get_u32(r);
        x->col = get_u32(r);
        x->end_line = get_u32(r);
        x->end_col = get_u32(r);
        x->replacement = get_str(r);
    }
}

static void get_kernel(reader *r, hms_kernel_report *k)
{
    k->name = get_str(r);
    k->line = get_u32(r);
    hms_launch_report *l = &k->launch;
    for (int d = 0; d < 3; d++) {
        l->grid[d] = get_u32(r);
        l->block[d] = get_u32(r);
    }
    l->shared_bytes = get_u32(r);
    l->source = get_static(r);
    l->via = get_str(r);
    l->others = get_str(r);
    l->others_analysed = get_u32(r) != 0;
    k->sampled = get_u32(r) != 0;
    size_t na = get_count(r, 76);
    k->accesses = get_array(r, na, sizeof *k->accesses);
    for (size_t i = 0; k->accesses && i < na && !r->bad; i++, k->naccesses++) {
        hms_access_metrics *a = &k->accesses[i];
        a->line = get_u32(r);
        a->col = get_u32(r);
        a->array = get_str(r);
        a->space = get_static(r);
        a->kind = get_static(r);
        a->element_bytes = (int)get_u32(r);
        a->requests = get_f64(r);
        a->sectors_per_request = get_f64(r);
        a->lines_per_request = get_f64(r);
        a->bank_wavefronts_per_request = get_f64(r);
        a->distinct_addresses_per_request = get_f64(r);
        a->latency_cycles = get_f64(r);
        a->exact = get_u32(r) != 0;
    }
    size_t np = get_count(r, 20);
    k->placements = get_array(r, np, sizeof *k->placements);
    for (size_t i = 0; k->placements && i < np && !r->bad; i++, k->nplacements++) {
        hms_placement *p = &k->placements[i];
        p->array = get_str(r);
        p->current = get_static(r);
        p->best = get_static(r);
        size_t no = get_count(r, 28);
        p->options = get_array(r, no, sizeof *p->options);
        for (size_t o = 0; p->options && o < no && !r->bad; o++, p->noptions++) {
            hms_placement_option *x = &p->options[o];
            x->space = get_static(r);
            x->legal = get_u32(r) != 0;
            x->reason = get_str(r);
            x->predicted_time = get_f64(r);
            x->speedup = get_f64(r);
        }
    }
    get_model(r, &k->model);
    size_t nd = get_count(r, 48);
    k->diagnostics = get_array(r, nd, sizeof *k->diagnostics);
    for (size_t i = 0; k->diagnostics && i < nd && !r->bad; i++, k->ndiagnostics++)
        get_finding(r, &k->diagnostics[i]);
    k->occupancy_blocks_per_sm = get_f64(r);
    k->occupancy_warps_per_sm = get_f64(r);
    k->occupancy_limiter = get_static(r);
    k->registers_per_thread = (int)get_u32(r);
    k->registers_source = get_static(r);
}

static void get_diags(reader *r, hms_diag_sink *s)
{
    size_t n = get_count(r, 24);
    for (size_t i = 0; i < n && !r->bad; i++) {
        hms_diagnostic d;
        d.level = (hms_diag_level)get_u32(r);
        d.file = get_str(r);
        d.line = get_u32(r);
        d.col = get_u32(r);
        d.message = get_str(r);
        d.code = get_str(r);
        d.key = get_str(r);
        if (!r->bad)
            hms_diag_add(s, &d);
        free(d.file);
        free(d.message);
        free(d.code);
        free(d.key);
    }
}

bool hms_wire_get_result(const char *data, size_t len, hms_diag_sink *diags, hms_file_report *out,
                         hms_string_pool *pool)
{
    reader r = {data, data + len, false, pool};
    get_diags(&r, diags);
    size_t ne = get_count(&r, 4);
    for (size_t i = 0; i < ne && !r.bad; i++) {
        char *e = get_str(&r);
        if (e)
            hms_file_add_error(out, "%s", e);
        free(e);
    }
    size_t nk = get_count(&r, 100);
    hms_kernel_report *nv =
        r.bad || nk == 0 ? NULL : realloc(out->kernels, (out->nkernels + nk) * sizeof *nv);
    if (nk && !nv)
        return false;
    if (nv)
        out->kernels = nv;
    for (size_t i = 0; i < nk && !r.bad; i++) {
        hms_kernel_report *k = &out->kernels[out->nkernels++];
        memset(k, 0, sizeof *k);
        get_kernel(&r, k);
    }
    return !r.bad && r.p == r.end;
}
