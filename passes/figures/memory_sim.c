/* The kernel's stream through the memory hierarchy in issue order, to give
 * each site its cache, DRAM row-buffer and latency figures and the kernel
 * its DRAM figures and C-AMAT timeline.
 *
 * Issue order and cycle of a record: the placement events' rule (runtime/
 * placement_events.h), so both simulations see the same traffic: wave w of
 * resident blocks, t instructions into its warp -> cycle (w * span + t) *
 * warps_per_SM * (warp_size / SIMD_width). Block b runs on SM b % SMs.
 *
 * Path of a record: shared memory by bank wavefronts, latency by conflict
 * degree (Mei & Chu Table VIII); constant, each extra distinct address one
 * more pass (one more hit latency); everything off-chip through the one
 * cache hierarchy of runtime/mem_hierarchy.h (the placement events use it
 * too: which first-level cache, L2, and the L2 misses that are DRAM
 * requests (runtime/dram.h, Huang & Li eqs. 6-10), closed-loop bounded as
 * the placement events do. Latency of a request: the first level's hit
 * latency if all its lines hit there, else the L2 hit latency, plus the
 * modelled DRAM latency when any line missed L2 (AMAT eq. 5's structure),
 * plus the TLB's extra cycles (Mei & Chu Sec. 4.4). */
#include "passes/analyze.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/analyze_internal.h"
#include "runtime/banks.h"
#include "runtime/cache.h"
#include "runtime/coalesce.h"
#include "runtime/constmem.h"
#include "runtime/dram.h"
#include "runtime/issue_order.h"
#include "runtime/mem_hierarchy.h"
#include "runtime/tlb.h"
#include "runtime/units_memo.h"

/* REC_SIM: the record went through simulate() or settle_on_chip(), so the
 * finish reads its site and space from the arrays below, not from the
 * stream. REC_SKIP: no active lane or no site, nothing to simulate. */
enum { REC_DRAM = 1, REC_HIT = 2, REC_SIM = 4, REC_SKIP = 8 };

typedef struct {
    hms_check_ctx *c;
    const hms_arch *a;
    hms_launch_geom g;
    hms_mem_hier h; /* the caches (runtime/mem_hierarchy.h) */
    bool h_ready;
    uint64_t l2_line;
    double l2_lat;
    hms_tlb tlb;
    bool has_tlb;
    hms_dram_model dram;
    bool dram_ok;
    size_t *dram_rec; /* stream record of each DRAM request fed */
    size_t ndram, capdram;
    /* Partition camping: DRAM requests per (round of resident blocks,
     * channel), weighted; NULL when the arch's channels are hashed or
     * unknown (docs/model.md "Partition camping"). */
    double *chan;
    size_t nwin;
    uint64_t round_blocks;
    float *lat;     /* per record: latency without the DRAM part */
    uint8_t *flags; /* per record: REC_* */
    double *weight; /* per record: block weight (times its repeats once simulated) */
    uint32_t *site; /* per simulated record: its site */
    uint8_t *space; /* per simulated record: its hms_space */
} msim;

static double pick(double a, double b)
{
    return a > 0 ? a : b;
}

static bool setup(msim *m, hms_check_ctx *c)
{
    const hms_arch *a = c->arch;
    size_t n = c->trace.stream.n;
    memset(m, 0, sizeof *m);
    m->c = c;
    m->a = a;
    m->g = hms_ctx_geom(c);
    char err[256];
    m->h_ready = hms_mem_hier_init(&m->h, a, m->g.sms, err, sizeof err);
    if (!m->h_ready) {
        hms_ctx_add_limit(c, "memory hierarchy unavailable: %s", err);
        return false;
    }
    m->l2_line = m->h.l2_line;
    m->l2_lat = m->h.l2_hit_lat;
    m->has_tlb = hms_tlb_init(&m->tlb, a, err, sizeof err);
    m->dram_ok = hms_dram_init(&m->dram, a, err, sizeof err);
    if (!m->dram_ok)
        hms_ctx_add_limit(c, "DRAM model unavailable for %s: %s", a->name, err);
    m->round_blocks = (uint64_t)m->g.bps * m->g.sms;
    if (a->dram_channels > 1 && a->dram_channel_bytes > 0 && !a->dram_address_hashed &&
        m->round_blocks > 0) {
        m->nwin = (size_t)(c->trace.blocks_total / m->round_blocks + 1);
        if (m->nwin * (size_t)a->dram_channels <= ((size_t)1 << 22))
            m->chan = calloc(m->nwin * (size_t)a->dram_channels, sizeof *m->chan);
    }
    m->lat = calloc(n ? n : 1, sizeof *m->lat);
    m->flags = calloc(n ? n : 1, sizeof *m->flags);
    m->weight = calloc(n ? n : 1, sizeof *m->weight);
    m->site = malloc((n ? n : 1) * sizeof *m->site);
    m->space = malloc((n ? n : 1) * sizeof *m->space);
    return m->lat && m->flags && m->weight && m->site && m->space;
}

static void teardown(msim *m)
{
    if (m->h_ready)
        hms_mem_hier_free(&m->h);
    hms_tlb_free(&m->tlb);
    hms_dram_free(&m->dram);
    free(m->dram_rec);
    free(m->chan);
    free(m->lat);
    free(m->flags);
    free(m->weight);
    free(m->site);
    free(m->space);
}

/* An L2 miss: a DRAM request of record `rec` at `time`. */
typedef struct {
    msim *m;
    double time;
    size_t rec;
} dram_feed;

static bool to_dram(void *ctx, uint64_t addr)
{
    dram_feed *f = ctx;
    msim *m = f->m;
    if (!m->dram_ok)
        return true;
    if (m->ndram == m->capdram) {
        size_t cap = m->capdram ? m->capdram * 2 : 1024;
        size_t *v = realloc(m->dram_rec, cap * sizeof *v);
        if (!v)
            return false;
        m->dram_rec = v;
        m->capdram = cap;
    }
    if (!hms_dram_add(&m->dram, addr, f->time))
        return false;
    if (m->chan) {
        const hms_warp_access *r = &m->c->trace.stream.v[f->rec];
        size_t win = (size_t)(r->block / m->round_blocks);
        uint64_t ch = addr / (uint64_t)m->a->dram_channel_bytes % (uint64_t)m->a->dram_channels;
        if (win < m->nwin)
            m->chan[win * (size_t)m->a->dram_channels + ch] += m->weight[f->rec];
    }
    m->dram_rec[m->ndram++] = f->rec;
    return true;
}

/* hms_tlb_warp's extra cycles for record i (p), its pages from the units
 * memo: most records' lanes are then not read here. */
static double tlb_extra(msim *m, size_t i, const hms_warp_access *p)
{
    uint64_t page = m->has_tlb ? hms_tlb_page_bytes(&m->tlb) : 0;
    if (!page || !hms_units_valid(m->c->units, i, p))
        return 0; /* hms_tlb_warp: unmodelled */
    uint64_t buf[HMS_WARP_UNITS_MAX];
    const uint64_t *pages;
    size_t n = hms_units_of(m->c->units, i, p, page, buf, &pages);
    switch (hms_tlb_pages(&m->tlb, pages, n)) {
    case HMS_TLB_L2_HIT:
        return m->a->tlb_l2.hit_latency;
    case HMS_TLB_MISS:
        return m->a->global_latency_tlb_miss;
    default:
        return 0;
    }
}

/* Record i (p, active, with a site) in shared memory: its latency by bank
 * conflict degree; it meets no cache, so no other record changes it. */
static void simulate_shared(msim *m, size_t i, const hms_warp_access *p)
{
    m->weight[i] *= hms_record_reps(p);
    m->site[i] = p->site;
    m->space[i] = p->space;
    double lat = 0;
    hms_bank_result b;
    const hms_bank_memo *known = m->c->banks ? &m->c->banks[i] : NULL;
    bool ok = known ? known->ok : hms_banks_warp(m->a, p, &b);
    if (known)
        b = known->r;
    if (ok)
        lat = hms_banks_request_latency(m->a, &b);
    m->lat[i] = (float)lat;
    m->flags[i] = REC_HIT | REC_SIM;
}

/* Record i (active, with a site, off-chip) through the caches at `time`. */
static bool simulate(msim *m, size_t i, double time)
{
    const hms_warp_access *p = &m->c->trace.stream.v[i];
    hms_site_metrics *s = &m->c->sites[p->site];
    double w = m->weight[i] * hms_record_reps(p);
    m->weight[i] = w;
    m->site[i] = p->site;
    m->space[i] = p->space;
    unsigned sm = (unsigned)(p->block % m->g.sms);
    hms_mem_outcome o = {0};
    hms_cache *fl = NULL;
    double lat = 0, extra = 0;
    hms_space sp = (hms_space)p->space;
    hms_fl_kind kind = hms_mem_path(m->a, sp, (hms_access_kind)p->kind);
    if (!hms_mem_first_level(&m->h, kind, sm, &fl))
        return false;
    if (sp != HMS_SPACE_CONSTANT)
        extra = tlb_extra(m, i, p);
    dram_feed feed = {m, time, i};
    uint64_t buf[HMS_WARP_UNITS_MAX];
    const uint64_t *units;
    size_t nu = hms_units_of(m->c->units, i, p, hms_mem_unit(&m->h, fl), buf, &units);
    if (!hms_mem_access_units(&m->h, fl, units, nu, to_dram, &feed, &o))
        return false;
    if (fl && o.fl_misses == 0)
        lat = hms_mem_hit_latency(&m->h, kind);
    else if (kind == HMS_FL_CONST)
        lat = pick(m->a->constant_latency_miss, m->l2_lat);
    else
        lat = m->l2_lat;
    if (sp == HMS_SPACE_CONSTANT) {
        uint32_t d = hms_constmem_distinct(p);
        lat += (d > 1 ? d - 1 : 0) * hms_mem_hit_latency(&m->h, HMS_FL_CONST);
    }
    m->lat[i] = (float)(lat + extra);
    m->flags[i] =
        (uint8_t)(REC_SIM | (o.l2_misses > 0 ? REC_DRAM : 0) |
                  (o.l2_misses == 0 && (fl ? o.fl_misses == 0 : o.l2_misses == 0) ? REC_HIT : 0));
    s->fl_hits += w * o.fl_hits;
    s->fl_misses += w * o.fl_misses;
    s->l2_hits += w * o.l2_hits;
    s->l2_misses += w * o.l2_misses;
    if (o.l2_misses > 0)
        s->dram_requests += w;
    return true;
}

/* Records in issue order (runtime/issue_order.h), and each record's block
 * weight (simulate() multiplies in the record's repeats: it reads the record
 * anyway). */
static hms_timed *issue_order(msim *m)
{
    const hms_kernel_trace *t = &m->c->trace;
    for (size_t b = 0; b < t->nblocks; b++) {
        const hms_traced_block *B = &t->blocks[b];
        for (size_t i = B->first; i < B->first + B->count; i++)
            m->weight[i] = B->weight;
    }
    return hms_stream_issue_order(&t->stream, (uint64_t)m->g.bps * m->g.sms, m->g.warps_per_sm,
                                  m->g.cpi);
}

/* Records that meet no cache, settled in stream order before the issue-order
 * pass: skipped ones (REC_SKIP) and shared-memory ones, whose figures
 * depend on no other record. A sequential read of the records and bank
 * results; the issue-order pass then reads only their flag, not the
 * 304-byte record at a scattered place (most of runner.cu's records are
 * shared). */
static void settle_on_chip(msim *m)
{
    const hms_stream *s = &m->c->trace.stream;
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *p = &s->v[i];
        if (!p->mask || p->site >= m->c->nsites)
            m->flags[i] = REC_SKIP;
        else if (p->space == HMS_SPACE_SHARED)
            simulate_shared(m, i, p);
    }
}

/* Partition camping (CuMAPz Sec. 5.4; Ruetsch & Micikevicius, "Optimizing
 * Matrix Transpose in CUDA"): the blocks resident at once share the DRAM
 * channels, and a channel moves only its share of the peak bandwidth. Over
 * each round of resident blocks, the busiest channel's requests times the
 * channel count over all requests: 1 when every round spreads evenly, the
 * channel count when each round uses one channel. */
static double channel_factor(const msim *m)
{
    if (!m->chan)
        return 1;
    /* Only rounds whose every block was simulated: a sampled launch keeps
     * its first resident wave whole (passes/trace/sample.h), the later rounds are
     * represented by a few blocks each, which would look camped. */
    const hms_kernel_trace *t = &m->c->trace;
    uint32_t *have = calloc(m->nwin, sizeof *have);
    if (!have)
        return 1;
    for (size_t b = 0; b < t->nblocks; b++)
        if (t->blocks[b].id / m->round_blocks < m->nwin)
            have[t->blocks[b].id / m->round_blocks]++;
    size_t C = (size_t)m->a->dram_channels;
    double busiest = 0, all = 0;
    for (size_t w = 0; w < m->nwin; w++) {
        uint64_t first = (uint64_t)w * m->round_blocks;
        uint64_t want =
            t->blocks_total - first < m->round_blocks ? t->blocks_total - first : m->round_blocks;
        if (first >= t->blocks_total || have[w] != want)
            continue;
        double mx = 0;
        for (size_t ch = 0; ch < C; ch++) {
            mx = fmax(mx, m->chan[w * C + ch]);
            all += m->chan[w * C + ch];
        }
        busiest += mx;
    }
    free(have);
    return all > 0 ? fmax(1.0, busiest * (double)C / all) : 1;
}

/* DRAM figures, then each record's full latency into its site. */
static void finish(msim *m)
{
    hms_check_ctx *c = m->c;
    hms_kernel_figures *f = &c->fig;
    const hms_stream *s = &c->trace.stream;
    double dram_lat = 0;
    if (m->dram_ok && m->ndram) {
        double dram_reqs = 0;
        for (size_t i = 0; i < s->n; i++)
            dram_reqs += m->flags[i] & REC_DRAM ? 1 : 0;
        double lines_per_req = dram_reqs > 0 ? (double)m->ndram / dram_reqs : 1;
        m->dram.max_outstanding = m->g.warps_per_sm * m->g.sms * lines_per_req;
        m->dram.request_bytes = m->l2_line;
        char err[256];
        if (hms_dram_evaluate(&m->dram, err, sizeof err)) {
            f->dram_ok = true;
            dram_lat = m->dram.latency;
            for (size_t j = 0; j < m->ndram; j++) {
                size_t i = m->dram_rec[j];
                double w = m->weight[i];
                hms_site_metrics *site = &c->sites[m->site[i]];
                switch (hms_dram_outcome(&m->dram, j)) {
                case HMS_ROW_HIT:
                    site->row_hits += w;
                    f->row_hits += w;
                    break;
                case HMS_ROW_MISS:
                    site->row_misses += w;
                    f->row_misses += w;
                    break;
                default:
                    site->row_conflicts += w;
                    f->row_conflicts += w;
                    break;
                }
            }
        } else {
            hms_ctx_add_limit(c, "DRAM model: %s", err);
        }
    }
    double rows = f->row_hits + f->row_misses + f->row_conflicts;
    f->row_hit_rate = rows > 0 ? f->row_hits / rows : 0;
    f->dram_latency = dram_lat;
    f->dram_t_hit = m->dram_ok ? m->dram.t_hit : 0;
    f->l2_hit_latency = m->l2_lat;
    for (size_t i = 0; i < s->n; i++) {
        if (!(m->flags[i] & REC_SIM)) /* no active lane, or no site */
            continue;
        double w = m->weight[i];
        /* dram_lat is load-to-use (it includes the L2 lookup the record
         * already holds): a miss costs the larger of the two (runtime/amat.c) */
        double lat = m->lat[i] + (m->flags[i] & REC_DRAM ? fmax(0.0, dram_lat - m->l2_lat) : 0);
        m->lat[i] = (float)lat;
        c->sites[m->site[i]].latency += w * lat;
        f->requests += w;
        switch ((hms_space)m->space[i]) {
        case HMS_SPACE_SHARED:
            f->shared_requests += w;
            break;
        case HMS_SPACE_CONSTANT:
            f->const_requests += w;
            break;
        case HMS_SPACE_TEXTURE:
            f->tex_requests += w;
            break;
        default:
            f->global_requests += w;
            break;
        }
        if (m->flags[i] & REC_DRAM)
            f->dram_requests += w;
    }
    for (size_t i = 0; i < c->nsites; i++)
        f->dram_bytes += c->sites[i].l2_misses * m->l2_line;
    f->dram_channel_factor = channel_factor(m);
}

/* C-AMAT (Zhang et al., seeds/003_b03420075c499a6c.txt, eqs. 1-2) on one SM's
 * timeline: a warp access hits when it is served at its first level. */
static void camat(msim *m)
{
    hms_check_ctx *c = m->c;
    const hms_stream *s = &c->trace.stream;
    bool *hit = malloc((s->n ? s->n : 1) * sizeof *hit);
    uint32_t *miss = malloc((s->n ? s->n : 1) * sizeof *miss);
    if (!hit || !miss) {
        free(hit);
        free(miss);
        return;
    }
    double hl = pick(hms_mem_hit_latency(&m->h, HMS_FL_L1), c->arch->shared_latency[0]);
    uint32_t hit_lat = hl >= 1 ? (uint32_t)hl : 1;
    for (size_t i = 0; i < s->n; i++) {
        hit[i] = m->flags[i] & REC_HIT;
        double l = m->lat[i];
        miss[i] = l > hit_lat ? (uint32_t)lround(l) : hit_lat;
    }
    /* The SM of the first simulated block: a sampled launch need not have
     * simulated any block of SM 0. */
    unsigned sm = c->trace.nblocks ? (unsigned)(c->trace.blocks[0].id % m->g.sms) : 0;
    hms_camat_issue p = {hit_lat, (uint32_t)lround(m->l2_lat > hit_lat ? m->l2_lat : hit_lat), miss,
                         sm, m->g.sms};
    hms_camat_access *acc = NULL;
    size_t n = 0;
    char err[256];
    if (hms_camat_timeline(s, hit, &p, &acc, &n, err, sizeof err) &&
        hms_camat_evaluate(acc, n, &c->fig.camat, NULL, err, sizeof err))
        c->fig.camat_ok = true;
    free(acc);
    free(hit);
    free(miss);
}

bool hms_an_memory_sim(hms_check_ctx *c)
{
    msim m;
    bool ok = setup(&m, c);
    hms_timed *order = ok ? issue_order(&m) : NULL;
    ok = ok && order;
    if (ok)
        settle_on_chip(&m);
    for (size_t j = 0; ok && j < c->trace.stream.n; j++)
        if (!m.flags[order[j].index]) /* else settled */
            ok = simulate(&m, order[j].index, order[j].time);
    free(order);
    if (ok) {
        finish(&m);
        camat(&m);
    } else if (m.h_ready) { /* else setup said why */
        hms_ctx_add_limit(c, "memory simulation ran out of memory: cache and DRAM figures absent");
    }
    teardown(&m);
    return ok;
}
