/* hms-shared-bank-conflict: shared-memory accesses serialised by bank
 * conflicts (runtime/banks.h: wavefronts per request, Mei & Chu, seeds/
 * 002_1cb76b36ded3a9f2.txt Sec. 6.2 and Table VIII; CuMAPz shm_eff, seeds/
 * 001_3bb0fc5541bb7adb.txt eq. 6). For a 2D (or deeper) array it looks for
 * the smallest padding p of the inner dimension that makes the access
 * conflict-free without making the array's other accesses worse, by
 * re-running the bank model on the trace with row stride C + p (CuMAPz
 * Table II: [BLKDIM][BLKDIM+1]), and offers it as a fix-it at the
 * declaration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/checks/check_thresholds.h"
#include "passes/checks/check_util.h"
#include "runtime/banks.h"

/* Wavefronts of the distinct records `rec` (array `id`'s simulated shared
 * records, record rec[j] standing for mult[j] alike) with the inner
 * dimension padded from C to C + pad elements (pad 0: as declared);
 * out[site] gets the sum over the records, phases[site] the conflict-free
 * count. Sums of whole numbers below 2^53: the same in any order and
 * grouping, so mult[j] x a figure is the sum over its records. */
static void padded_wavefronts(const hms_check_ctx *c, hms_bank_patterns *pat, const size_t *rec,
                              const double *mult, size_t nrec, int id, int64_t C, int64_t pad,
                              double *out, double *phases)
{
    const hms_kernel_trace *t = &c->trace;
    const ir_array *a = &c->k->arrays[id];
    uint64_t base = t->arrays[id].base, eb = (uint64_t)a->elem_bytes;
    int eb_shift = (eb & (eb - 1)) == 0 ? __builtin_ctzll(eb) : -1; /* eb > 0 (find_padding) */
    memset(out, 0, c->nsites * sizeof *out);
    memset(phases, 0, c->nsites * sizeof *phases);
    for (size_t j = 0; j < nrec; j++) {
        const hms_warp_access *r = &t->stream.v[rec[j]];
        hms_warp_access p = *r;
        /* A warp's lanes mostly read one row: the last lane's row is kept
         * (its first element row_el), so most lanes need no division. */
        uint64_t row = 0, row_el = 0;
        bool have_row = false;
        for (int l = 0; l < HMS_WARP_LANES; l++) {
            if (!(r->mask >> l & 1) || r->addr[l] < base)
                continue;
            uint64_t off = r->addr[l] - base;
            uint64_t el = eb_shift >= 0 ? off >> eb_shift : off / eb;
            uint64_t byte = off - el * eb;
            if (!have_row || el < row_el || el - row_el >= (uint64_t)C) {
                row = el / (uint64_t)C;
                row_el = row * (uint64_t)C;
                have_row = true;
            }
            uint64_t col = el - row_el;
            p.addr[l] = base + (row * (uint64_t)(C + pad) + col) * eb + byte;
        }
        hms_bank_result b;
        if (pat ? hms_bank_patterns_warp(pat, &p, &b) : hms_banks_warp(c->arch, &p, &b)) {
            out[r->site] += mult[j] * b.wavefronts;
            phases[r->site] += mult[j] * b.phases;
        }
    }
}

/* Bytes of the array's widest access (a float4 or 128-bit copy of a row):
 * a padded row must keep every row start aligned to it, or those vector
 * accesses would fault on a misaligned address. */
static int widest_access(const hms_check_ctx *c, int id)
{
    int w = 1;
    for (size_t j = 0; j < c->nsites; j++)
        if (c->sites[j].acc->array == id && c->sites[j].acc->width > w)
            w = c->sites[j].acc->width;
    return w;
}

/* padded_wavefronts per (array, pad), each computed once for all the sites
 * the check visits: every site of an array reads the same figures. The
 * array's records are listed once (not found again in the whole stream for
 * each pad), and the bank model of the padded records goes through one
 * pattern table: the padded rows repeat a few patterns. */
typedef struct {
    size_t narrays, nsites;
    double **w, **ph; /* [id * (HMS_BANK_MAX_PAD + 1) + pad]; NULL until computed */
    /* Array rec_id's distinct records (-1: none listed yet): the first of
     * each in the stream, and how many records are alike (same site, mask,
     * width and addresses: every block of a launch reads its shared arrays
     * at the same addresses, so most records repeat). */
    size_t *rec;
    double *mult;
    size_t nrec;
    int rec_id;
    hms_bank_patterns *pat; /* NULL: each record computed */
} pad_memo;

static void pad_memo_free(pad_memo *m)
{
    for (size_t k = 0; m->w && m->ph && k < m->narrays * (HMS_BANK_MAX_PAD + 1); k++) {
        free(m->w[k]);
        free(m->ph[k]);
    }
    free(m->w);
    free(m->ph);
    free(m->rec);
    free(m->mult);
    hms_bank_patterns_free(m->pat);
}

/* The records padded_wavefronts reads for array `id`: shared, with an
 * active lane and a site. */
static bool padded_record(const hms_check_ctx *c, const hms_warp_access *r, int id)
{
    return (int)r->array == id && r->space == HMS_SPACE_SHARED && r->mask && r->site < c->nsites;
}

/* What the padded bank model reads of a record: equal for alike records. */
static bool alike(const hms_warp_access *x, const hms_warp_access *y)
{
    return x->site == y->site && hms_same_lanes(x, y);
}

static uint64_t record_hash(const hms_warp_access *r)
{
    uint64_t h =
        ((uint64_t)r->site << 40 ^ (uint64_t)r->mask << 8 ^ r->width) * 0x9e3779b97f4a7c15ull;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        h = (h ^ r->addr[l]) * 0xbf58476d1ce4e5b9ull;
    return h ^ h >> 29;
}

/* Lists array id's distinct records (pad_memo.rec) in stream order. */
static bool list_records(const hms_check_ctx *c, pad_memo *m, int id)
{
    if (m->rec_id == id)
        return true;
    const hms_stream *s = &c->trace.stream;
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += padded_record(c, &s->v[i], id);
    size_t slots = 16;
    while (slots < 2 * n)
        slots *= 2;
    size_t *slot = calloc(slots, sizeof *slot); /* 1 + index into rec; 0 empty */
    size_t *v = realloc(m->rec, (n ? n : 1) * sizeof *v);
    if (v)
        m->rec = v;
    double *mult = v ? realloc(m->mult, (n ? n : 1) * sizeof *mult) : NULL;
    if (mult)
        m->mult = mult;
    if (!mult) {
        free(slot);
        m->rec_id = -1; /* the lists may have moved: list again next time */
        return false;
    }
    m->nrec = 0;
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *r = &s->v[i];
        if (!padded_record(c, r, id))
            continue;
        if (!slot) { /* no room to find alike records: each counted on its own */
            m->rec[m->nrec] = i;
            m->mult[m->nrec++] = 1;
            continue;
        }
        size_t h = (size_t)record_hash(r) & (slots - 1);
        while (slot[h] && !alike(&s->v[m->rec[slot[h] - 1]], r))
            h = (h + 1) & (slots - 1);
        if (slot[h]) {
            m->mult[slot[h] - 1] += 1;
        } else {
            m->rec[m->nrec] = i;
            m->mult[m->nrec++] = 1;
            slot[h] = m->nrec;
        }
    }
    free(slot);
    m->rec_id = id;
    return true;
}

/* The figures of array `id` (rows of C elements: the id's dims, so fixed
 * per id) at `pad` (out: w, ph); false when memory is short. */
static bool padded(const hms_check_ctx *c, pad_memo *m, int id, int64_t C, int64_t pad,
                   const double **w, const double **ph)
{
    if (!m->w) {
        m->narrays = c->trace.narrays;
        m->nsites = c->nsites;
        m->w = calloc(m->narrays * (HMS_BANK_MAX_PAD + 1), sizeof *m->w);
        m->ph = calloc(m->narrays * (HMS_BANK_MAX_PAD + 1), sizeof *m->ph);
        m->pat = hms_bank_patterns_new(c->arch);
        if (!m->w || !m->ph) {
            pad_memo_free(m);
            *m = (pad_memo){.rec_id = -1};
            return false;
        }
    }
    size_t k = (size_t)id * (HMS_BANK_MAX_PAD + 1) + (size_t)pad;
    if (!m->w[k]) {
        double *a = malloc(m->nsites * sizeof *a), *b = malloc(m->nsites * sizeof *b);
        if (!a || !b || !list_records(c, m, id)) {
            free(a);
            free(b);
            return false;
        }
        padded_wavefronts(c, m->pat, m->rec, m->mult, m->nrec, id, C, pad, a, b);
        m->w[k] = a;
        m->ph[k] = b;
    }
    *w = m->w[k];
    *ph = m->ph[k];
    return true;
}

/* Smallest pad that removes the conflict of `site`: preferably one that makes
 * every access of the array conflict-free, else one that at least makes no
 * other access of the array worse; 0 when none up to HMS_BANK_MAX_PAD does.
 * Only pads that keep the rows as aligned as the widest access needs. */
static int64_t find_padding(const hms_check_ctx *c, pad_memo *m, size_t site)
{
    const ir_array *a = c->sites[site].arr;
    int id = c->sites[site].acc->array;
    if (a->ndims < 2 || a->elem_bytes <= 0 || a->dims[a->ndims - 1] <= 0 || !c->trace.arrays ||
        (size_t)id >= c->trace.narrays)
        return 0;
    int64_t C = a->dims[a->ndims - 1];
    const double *w0, *ph, *w;
    int64_t all = 0, mine = 0;
    if (!padded(c, m, id, C, 0, &w0, &ph))
        return 0;
    int64_t align = widest_access(c, id), row = C * a->elem_bytes;
    for (int64_t p = 1; p <= HMS_BANK_MAX_PAD && !all; p++) {
        if (row % align == 0 && ((C + p) * a->elem_bytes) % align != 0)
            continue;
        if (!padded(c, m, id, C, p, &w, &ph))
            return 0;
        if (w[site] > ph[site])
            continue;
        bool worse = false, clean = true;
        for (size_t j = 0; j < c->nsites; j++) {
            worse |= w[j] > w0[j];
            clean &= w[j] <= ph[j];
        }
        if (clean)
            all = p;
        else if (!worse && !mine)
            mine = p;
    }
    return all ? all : mine;
}

static void dims_text(const ir_array *a, int64_t pad, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int d = 0; d < a->ndims && n < len; d++) {
        if (d == a->ndims - 1 && pad)
            n += (size_t)snprintf(buf + n, len - n, "[%lld + %lld]", (long long)a->dims[d],
                                  (long long)pad);
        else
            n += (size_t)snprintf(buf + n, len - n, "[%lld]", (long long)a->dims[d]);
    }
}

/* Does e rest on an unknown value, directly or through a variable assigned
 * one (by_unknown[v])? */
static bool unknown_dependent(const ir_expr *e, const bool *by_unknown)
{
    if (!e)
        return false;
    if (e->kind == IR_UNKNOWN)
        return true;
    if (e->kind == IR_VAR)
        return e->var >= 0 && by_unknown[e->var];
    return unknown_dependent(e->a, by_unknown) || unknown_dependent(e->b, by_unknown) ||
           unknown_dependent(e->c, by_unknown);
}

/* A row of a warp (the lanes of one threadIdx.y) is fine when its lanes alone
 * are conflict-free (hms_only_across_guessed_rows). */
static bool row_conflict_free(const hms_check_ctx *c, const hms_warp_access *row)
{
    hms_bank_result br;
    return hms_banks_warp(c->arch, row, &br) && br.wavefronts <= br.phases;
}

void hms_check_shared_bank_conflict(struct hms_check_ctx *c)
{
    /* variables that hold a value loaded from memory (a compaction offset
     * from a scan, a histogram bin from the data): an index through them
     * is data, and the degree the trace gives it is the stand-in's */
    bool *by_unknown = calloc(c->k->nvars ? c->k->nvars : 1, sizeof *by_unknown);
    if (!by_unknown)
        return;
    while (ir_flag_assignments(c->k->body, by_unknown, c->k->nvars, unknown_dependent))
        ;
    pad_memo memo = {.rec_id = -1};
    for (size_t i = 0; i < c->nsites; i++) {
        const hms_site_metrics *s = &c->sites[i];
        if (s->space != HMS_SPACE_SHARED || s->requests <= 0 || s->phases <= 0)
            continue;
        double degree = s->wavefronts / s->phases;
        if (degree < HMS_BANK_CONFLICT_MIN_RATIO)
            continue;
        /* A degree computed from a stand-in value is the stand-in's, not the
         * kernel's: judged only when the lanes' distance is known anyway
         * (the unknown part is then the same for every lane). */
        bool assumed = hms_expr_assumed(c->k, s->acc->index) ||
                       hms_expr_assumed(c->k, s->acc->index2) ||
                       unknown_dependent(s->acc->index, by_unknown) ||
                       unknown_dependent(s->acc->index2, by_unknown);
        if (assumed && !(s->stride.affine && s->stride.is_const))
            continue; /* hms-analysis-limit names the unknown value */
        if (hms_only_across_guessed_rows(c, i, row_conflict_free))
            continue; /* hms-analysis-limit says the launch is assumed */
        char deg[32], wf[32], ideal[32], lat[32], lat1[32], apart[256] = "";
        double ways = s->wavefronts / s->requests;
        if (s->stride.affine && s->stride.is_const && s->stride.value > 1) {
            char el[64];
            snprintf(
                apart, sizeof apart, "lanes %s apart in '%s'",
                hms_fmt_elems(el, sizeof el, s->arr, (double)s->stride.value, s->acc->elem_stride),
                s->arr->name);
        } else if (s->stride.affine && s->stride.coeff && !s->stride.is_const) {
            char expr[64], el[64], *unit = el;
            ir_expr_format(c->k, s->stride.coeff, expr, sizeof expr);
            hms_fmt_elems(el, sizeof el, s->arr, 2, s->acc->elem_stride);
            while (*unit && *unit != ' ')
                unit++;
            snprintf(apart, sizeof apart, "lanes %s%s apart in '%.100s'", expr, unit, s->arr->name);
        } else {
            snprintf(apart, sizeof apart, "'%s'", s->arr->name);
        }
        int64_t pad = find_padding(c, &memo, i);
        char fixed[160] = "";
        if (pad) {
            char dims[96];
            dims_text(s->arr, pad, dims, sizeof dims);
            snprintf(fixed, sizeof fixed, "; padding the rows to %s removes it", dims);
        }
        char upto[48] = "";
        if (s->ways_max > degree + 0.05)
            snprintf(upto, sizeof upto, " (up to %u-way)", s->ways_max);
        hms_finding *f = hms_ctx_report(
            c, &s->acc->loc,
            "%s-way bank conflict%s: %s wavefronts per request where %s would do (%s); "
            "%s cycles per request instead of %s%s",
            hms_fmt_num(deg, sizeof deg, degree, 1), upto, hms_fmt_num(wf, sizeof wf, ways, 1),
            hms_fmt_num(ideal, sizeof ideal, s->phases / s->requests, 1), apart,
            hms_fmt_num(lat, sizeof lat, hms_banks_latency(c->arch, ways), 0),
            hms_fmt_num(lat1, sizeof lat1, hms_banks_latency(c->arch, s->phases / s->requests), 0),
            fixed);
        if (!f || !pad)
            continue;
        const ir_array *a = s->arr;
        char dims[96], extra[32];
        dims_text(a, pad, dims, sizeof dims);
        double bytes = (double)pad * a->elem_bytes;
        for (int d = 0; d < a->ndims - 1; d++)
            bytes *= (double)a->dims[d];
        hms_ctx_note(c, f, &a->loc,
                     "declare '%s' as %s%s: the row stride becomes %lld elements and this "
                     "access is conflict-free (%s more bytes of shared memory per block)",
                     a->name, a->name, dims, (long long)(a->dims[a->ndims - 1] + pad),
                     hms_fmt_num(extra, sizeof extra, bytes, 0));
        const ir_loc *dl = &a->dim_loc[a->ndims - 1 < 4 ? a->ndims - 1 : 3];
        if (dl->line && dl->end_line) {
            char ins[32];
            snprintf(ins, sizeof ins, " + %lld", (long long)pad);
            hms_finding_add_fixit(f, dl->file ? dl->file : c->k->loc.file, dl->end_line,
                                  dl->end_col, dl->end_line, dl->end_col, ins);
        }
    }
    pad_memo_free(&memo);
    free(by_unknown);
}
