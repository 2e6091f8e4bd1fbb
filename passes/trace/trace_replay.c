/* Replay of access-free loops (see trace_replay.h): finding them, recording
 * a run's inputs and effect, and applying the effect to a repeat. */
#include "passes/trace/trace_replay.h"

#include <stdlib.h>
#include <string.h>

#include "passes/trace/trace_internal.h"

/* ---- finding the loops ------------------------------------------------------- */

typedef struct {
    bool leaves;   /* a barrier, break, continue or return */
    bool accesses; /* an access */
    bool *var;     /* nvars: read or assigned */
    bool *assign;  /* nvars */
    bool *site;    /* nsites: stand-ins read */
    bool *load;    /* nsites: load sites in it */
} loop_scan;

static void scan_expr(const ir_expr *e, loop_scan *c)
{
    for (; e; e = e->a) {
        if (e->kind == IR_VAR)
            c->var[e->var] = true;
        if (e->kind == IR_UNKNOWN && e->site >= 0)
            c->site[e->site] = true;
        scan_expr(e->b, c);
        scan_expr(e->c, c);
    }
}

static void scan_stmt(const ir_stmt *s, void *ctx)
{
    loop_scan *c = ctx;
    switch (s->kind) {
    case IR_S_ACCESS:
        c->accesses = true;
        scan_expr(s->access.index, c);
        scan_expr(s->access.index2, c);
        if (s->access.kind == HMS_ACCESS_LOAD)
            c->load[s->access.id] = true;
        return;
    case IR_S_SYNC:
    case IR_S_BREAK:
    case IR_S_CONTINUE:
    case IR_S_RETURN:
        c->leaves = true;
        return;
    case IR_S_ASSIGN:
        c->var[s->var] = c->assign[s->var] = true;
        scan_expr(s->value, c);
        return;
    case IR_S_IF:
        scan_expr(s->cond, c);
        return;
    case IR_S_LOOP:
        scan_expr(s->cond, c);
        scan_expr(s->trip, c);
        return;
    case IR_S_BLOCK:
        return;
    }
}

static int *list_of(const bool *mark, size_t n, size_t *count)
{
    *count = 0;
    for (size_t i = 0; i < n; i++)
        *count += mark[i];
    int *v = malloc((*count ? *count : 1) * sizeof *v);
    if (!v)
        return NULL;
    size_t j = 0;
    for (size_t i = 0; i < n; i++)
        if (mark[i])
            v[j++] = (int)i;
    return v;
}

static size_t slot_of(const trace_replay *r, const ir_stmt *s)
{
    uint64_t h = (uint64_t)(uintptr_t)s * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 32) & (r->cap - 1);
}

typedef struct {
    trace_replay *r;
    const ir_kernel *k;
    loop_scan scan;
    bool oom;
} find_ctx;

static bool add_loop(find_ctx *f, const ir_stmt *s)
{
    const ir_kernel *k = f->k;
    loop_scan *c = &f->scan;
    memset(c->var, 0, (k->nvars ? k->nvars : 1) * sizeof *c->var);
    memset(c->assign, 0, (k->nvars ? k->nvars : 1) * sizeof *c->assign);
    memset(c->site, 0, (k->nsites ? k->nsites : 1) * sizeof *c->site);
    memset(c->load, 0, (k->nsites ? k->nsites : 1) * sizeof *c->load);
    c->leaves = false;
    c->accesses = false;
    ir_stmt_each(s, scan_stmt, c);
    if (c->leaves)
        return true;
    trace_replay *r = f->r;
    trace_replay_loop *v = realloc(r->loops, (r->n + 1) * sizeof *v);
    if (!v)
        return false;
    r->loops = v;
    trace_replay_loop *L = &v[r->n++];
    memset(L, 0, sizeof *L);
    L->loop = s;
    L->vars = list_of(c->var, k->nvars, &L->nvars);
    L->assigned = list_of(c->assign, k->nvars, &L->nassigned);
    L->sites = list_of(c->site, k->nsites, &L->nsites);
    L->accesses = c->accesses;
    L->loads = list_of(c->load, k->nsites, &L->nloads);
    L->load_out = malloc((L->nloads ? L->nloads : 1) * sizeof *L->load_out);
    size_t nin = L->nvars + L->nsites;
    L->in = malloc((nin ? nin : 1) * sizeof *L->in);
    L->pending = malloc((nin ? nin : 1) * sizeof *L->pending);
    L->out = malloc((L->nassigned ? L->nassigned : 1) * sizeof *L->out);
    L->out_stamp = malloc((L->nassigned ? L->nassigned : 1) * sizeof *L->out_stamp);
    return L->vars && L->assigned && L->sites && L->in && L->pending && L->out && L->out_stamp &&
           L->loads && L->load_out;
}

static void visit_loop(const ir_stmt *s, void *ctx)
{
    find_ctx *f = ctx;
    if (s->kind == IR_S_LOOP && !f->oom && !add_loop(f, s))
        f->oom = true;
}

bool trace_replay_init(trace_replay *r, const ir_kernel *k)
{
    memset(r, 0, sizeof *r);
    find_ctx f = {.r = r, .k = k};
    f.scan.var = calloc(k->nvars ? k->nvars : 1, sizeof *f.scan.var);
    f.scan.assign = calloc(k->nvars ? k->nvars : 1, sizeof *f.scan.assign);
    f.scan.site = calloc(k->nsites ? k->nsites : 1, sizeof *f.scan.site);
    f.scan.load = calloc(k->nsites ? k->nsites : 1, sizeof *f.scan.load);
    if (f.scan.var && f.scan.assign && f.scan.site && f.scan.load)
        ir_stmt_each(k->body, visit_loop, &f);
    else
        f.oom = true;
    free(f.scan.var);
    free(f.scan.assign);
    free(f.scan.site);
    free(f.scan.load);
    if (f.oom)
        return false;
    r->cap = 16;
    while (r->cap < 2 * r->n)
        r->cap *= 2;
    r->slot_stmt = calloc(r->cap, sizeof *r->slot_stmt);
    r->slot_idx = calloc(r->cap, sizeof *r->slot_idx);
    if (!r->slot_stmt || !r->slot_idx)
        return false;
    for (size_t i = 0; i < r->n; i++) {
        size_t h = slot_of(r, r->loops[i].loop);
        while (r->slot_stmt[h])
            h = (h + 1) & (r->cap - 1);
        r->slot_stmt[h] = r->loops[i].loop;
        r->slot_idx[h] = (uint32_t)i;
    }
    return true;
}

void trace_replay_free(trace_replay *r)
{
    for (size_t i = 0; i < r->n; i++) {
        trace_replay_loop *L = &r->loops[i];
        free(L->vars);
        free(L->assigned);
        free(L->sites);
        free(L->in);
        free(L->pending);
        free(L->out);
        free(L->out_stamp);
        free(L->recs);
        free(L->loads);
        free(L->load_out);
    }
    free(r->loops);
    free(r->slot_stmt);
    free(r->slot_idx);
    memset(r, 0, sizeof *r);
}

trace_replay_loop *trace_replay_of(const trace_replay *r, const ir_stmt *s)
{
    if (!r->n)
        return NULL;
    for (size_t h = slot_of(r, s); r->slot_stmt[h]; h = (h + 1) & (r->cap - 1))
        if (r->slot_stmt[h] == s)
            return &r->loops[r->slot_idx[h]];
    return NULL;
}

/* ---- recording and replaying ----------------------------------------------------- */

static bool inexact_context(const trace_warp *w)
{
    return w->inexact_depth > 0 || w->sticky_inexact;
}

/* The stamp of what load site `site` stands in for now (0: nothing). */
static uint64_t site_stamp(const tracer *t, const trace_warp *w, int site)
{
    const trace_load *L = &t->loads[site];
    return L->run == w->run && L->lanes ? L->stamp : 0;
}

static void take_inputs(const tracer *t, const trace_warp *w, const trace_replay_loop *L,
                        uint64_t *in)
{
    for (size_t i = 0; i < L->nvars; i++)
        in[i] = t->stamps.var[L->vars[i]];
    for (size_t i = 0; i < L->nsites; i++)
        in[L->nvars + i] = site_stamp(t, w, L->sites[i]);
}

/* A replay adds steps: it must stay within the budgets the traced run
 * would have met (no cut in the middle of it). */
static bool fits_budget(const tracer *t, const trace_warp *w, const trace_replay_loop *L)
{
    return !w->draining && !w->untimed && w->steps + L->steps <= t->opt.max_steps_per_warp &&
           t->total_steps + L->steps <= t->opt.max_steps &&
           (!L->nrecs || (t->out->stream.n + L->nrecs < t->opt.max_records &&
                          t->total_lines + L->lines < t->opt.max_lines));
}

static bool repeats(const tracer *t, const trace_warp *w, const trace_replay_loop *L)
{
    if (!L->valid || L->run != w->run || L->active != w->active || L->ret != w->ret ||
        L->brk != w->brk || L->cont != w->cont || L->inexact != inexact_context(w))
        return false;
    for (size_t i = 0; i < L->nvars; i++)
        if (L->in[i] != t->stamps.var[L->vars[i]])
            return false;
    for (size_t i = 0; i < L->nsites; i++)
        if (L->in[L->nvars + i] != site_stamp(t, w, L->sites[i]))
            return false;
    return fits_budget(t, w, L);
}

bool trace_replay_apply(tracer *t, trace_warp *w, trace_replay_loop *L, trace_replay_mark *m)
{
    m->check = false;
    if (!repeats(t, w, L))
        return false;
#ifdef HMS_TRACE_VERIFY_MEMO /* trace it anyway; trace_replay_end compares */
    m->check = true;
    return false;
#else
    for (size_t i = 0; i < L->nassigned; i++) {
        w->vars[L->assigned[i]] = L->out[i];
        t->stamps.var[L->assigned[i]] = L->out_stamp[i];
    }
    uint64_t start = w->time;
    for (size_t i = 0; i < L->nrecs; i++) {
        hms_warp_access r = L->recs[i];
        r.time += start;
        if (!trace_push_record(t, w, &r))
            return true; /* out of memory: the warp stopped */
    }
    w->seq += L->nrecs;
    t->total_lines += L->lines;
    for (size_t i = 0; i < L->nloads; i++)
        t->loads[L->loads[i]] = L->load_out[i];
    w->time += L->time;
    w->steps += L->steps;
    t->total_steps += L->steps;
    w->flops += L->flops;
    w->fp_insts += L->fp_insts;
    w->active &= ~w->ret; /* as exec_loop leaves it */
    t->replay.replays++;
    return true;
#endif
}

void trace_replay_begin(tracer *t, trace_warp *w, trace_replay_loop *L, trace_replay_mark *m)
{
    take_inputs(t, w, L, L->pending);
    m->time = w->time;
    m->inserted = w->inserted;
    m->steps = w->steps;
    m->total_steps = t->total_steps;
    m->flops = w->flops;
    m->fp_insts = w->fp_insts;
    m->summaries = w->summaries;
    m->ret = w->ret;
    m->brk = w->brk;
    m->cont = w->cont;
    m->cut = w->cut;
    m->draining = w->draining;
    m->sticky = w->sticky_inexact;
    m->depth = w->inexact_depth;
    m->active = w->active;
    m->lines = t->total_lines;
    m->seq = w->seq;
    m->rec_first = t->out->stream.n;
}

/* A recorded run with accesses must emit the same records on a repeat:
 * none with lanes spread by the record counter (w->seq), none summarised,
 * and no new value-table key (so the records' times move with the loop's
 * start). */
static bool records_repeat(const tracer *t, const trace_warp *w, const trace_replay_mark *m)
{
    const hms_stream *st = &t->out->stream;
    if (w->inserted != m->inserted || st->n < m->rec_first ||
        st->n - m->rec_first != w->seq - m->seq)
        return false;
    for (size_t i = m->rec_first; i < st->n; i++)
        if (st->v[i].spread || st->v[i].extra || st->v[i].time < m->time)
            return false;
    return true;
}

static bool keep_records(trace_replay_loop *L, const tracer *t, const trace_replay_mark *m)
{
    const hms_stream *st = &t->out->stream;
    size_t n = st->n - m->rec_first;
    if (n > L->caprecs) {
        hms_warp_access *v = realloc(L->recs, n * sizeof *v);
        if (!v)
            return false;
        L->recs = v;
        L->caprecs = n;
    }
    for (size_t i = 0; i < n; i++) {
        L->recs[i] = st->v[m->rec_first + i];
        L->recs[i].time -= m->time;
    }
    L->nrecs = n;
    return true;
}

#ifdef HMS_TRACE_VERIFY_MEMO
/* Two load-site states give the same stand-ins (keys of lanes outside
 * `lanes` are left over from earlier executions and never read; the stamp
 * may be another name of the same value). */
static bool same_load(const trace_load *a, const trace_load *b)
{
    if (a->run != b->run || a->lanes != b->lanes)
        return false;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        if ((a->lanes >> l & 1u) && a->key[l] != b->key[l])
            return false;
    return true;
}

/* The traced repeat must have done exactly what the replay would have. */
static void verify_repeat(const tracer *t, const trace_warp *w, const trace_replay_loop *L,
                          const trace_replay_mark *m)
{
    if (w->time - m->time != L->time || w->inserted != m->inserted ||
        w->steps - m->steps != L->steps || w->flops - m->flops != L->flops ||
        w->fp_insts - m->fp_insts != L->fp_insts)
        abort();
    for (size_t i = 0; i < L->nassigned; i++)
        if (!trace_same_value(&w->vars[L->assigned[i]], &L->out[i]))
            abort();
    const hms_stream *st = &t->out->stream;
    if (st->n - m->rec_first != L->nrecs || t->total_lines - m->lines != L->lines ||
        w->seq - m->seq != L->nrecs)
        abort();
    for (size_t i = 0; i < L->nrecs; i++) {
        hms_warp_access r = L->recs[i];
        r.time += m->time;
        if (memcmp(&r, &st->v[m->rec_first + i], sizeof r) != 0)
            abort();
    }
    for (size_t i = 0; i < L->nloads; i++)
        if (!same_load(&t->loads[L->loads[i]], &L->load_out[i]))
            abort();
}
#endif

void trace_replay_end(tracer *t, trace_warp *w, trace_replay_loop *L, const trace_replay_mark *m)
{
    L->valid = false;
    bool clean = !w->stopped && !w->cutting && !t->oom && w->cut == m->cut && !m->draining &&
                 !w->draining && !w->untimed && w->summaries == m->summaries && w->ret == m->ret &&
                 w->brk == m->brk && w->cont == m->cont && w->sticky_inexact == m->sticky &&
                 w->inexact_depth == m->depth &&
                 t->total_steps - m->total_steps == w->steps - m->steps &&
                 (!L->accesses || records_repeat(t, w, m));
#ifdef HMS_TRACE_VERIFY_MEMO
    if (m->check) {
        if (!clean)
            abort();
        verify_repeat(t, w, L, m);
        t->replay.replays++; /* a replay, traced and compared */
    }
#endif
    if (!clean)
        return;
    L->run = w->run;
    L->active = m->active;
    L->ret = m->ret;
    L->brk = m->brk;
    L->cont = m->cont;
    L->inexact = m->depth > 0 || m->sticky;
    uint64_t *in = L->in;
    L->in = L->pending;
    L->pending = in;
    for (size_t i = 0; i < L->nassigned; i++) {
        L->out[i] = w->vars[L->assigned[i]];
        L->out_stamp[i] = t->stamps.var[L->assigned[i]];
    }
    L->time = (w->time - m->time) - (w->inserted - m->inserted);
    L->steps = w->steps - m->steps;
    L->flops = w->flops - m->flops;
    L->fp_insts = w->fp_insts - m->fp_insts;
    L->nrecs = 0;
    L->lines = t->total_lines - m->lines;
    for (size_t i = 0; i < L->nloads; i++)
        L->load_out[i] = t->loads[L->loads[i]];
    if (L->accesses && !keep_records(L, t, m))
        return;
    L->valid = true;
    t->replay.records++;
}
