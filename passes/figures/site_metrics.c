/* Per-site metrics from the trace, exactly as docs/model.md (Coalescing, Banks)
 * states them: requests (records, weighted by their block's weight), sectors
 * and lines per request (runtime/coalesce.h), bank wavefronts (runtime/
 * banks.h), distinct constant addresses (runtime/constmem.h); plus the raw
 * figures the checks quote: ideal sectors, conflict degree, the symbolic
 * lane stride (passes/ir/stride.h), the requests a divergent site would need
 * with its lanes packed, and partition camping per site (CuMAPz, seeds/
 * 001_3bb0fc5541bb7adb.txt, eqs. 4-5). */
#include "passes/analyze.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "passes/analyze_internal.h"
#include "runtime/banks.h"
#include "runtime/coalesce.h"
#include "runtime/constmem.h"
#include "runtime/dram.h"
#include "runtime/merge_sort.h"
#include "runtime/units_memo.h"

/* Concurrent groups kept per site for partition camping: the k-th execution
 * of a site by the warps of the first blocks. Loops longer than this are
 * judged on their first iterations. */
#define CAMPING_MAX_GROUPS 512

typedef struct {
    uint32_t *lanes; /* per execution k: active lanes over the block's warps */
    double *reps;    /* per execution k: executions it stands for (summarised loops) */
    size_t cap, used;
} compact_acc;

typedef struct {
    unsigned nblk;     /* blocks checked (eq. 4, at most the launch) */
    size_t ngroups;    /* groups seen */
    size_t capgroups;  /* rows allocated in the tables below */
    uint32_t *count;   /* [group][channel]: distinct blocks */
    uint64_t *stamp;   /* [group][channel]: last block + 1 */
    uint64_t *gstamp;  /* [group]: last block + 1 */
    uint32_t *gblocks; /* [group]: distinct blocks */
    double *greq;      /* [group]: warp requests */
    uint64_t *sec;     /* group << 40 | sector: every sector the group touched */
    size_t nsec, capsec;
} camping_acc;

static bool offchip(hms_space s)
{
    return s == HMS_SPACE_GLOBAL || s == HMS_SPACE_LOCAL || s == HMS_SPACE_TEXTURE ||
           s == HMS_SPACE_READONLY;
}

static bool dram_space(hms_space s)
{
    return s == HMS_SPACE_GLOBAL || s == HMS_SPACE_TEXTURE || s == HMS_SPACE_READONLY;
}

static void init_site(hms_check_ctx *c, size_t i)
{
    const ir_kernel *k = c->k;
    hms_site_metrics *s = &c->sites[i];
    s->acc = k->sites[i];
    s->arr = &k->arrays[s->acc->array];
    s->space = s->arr->space;
    s->sectors_min = UINT32_MAX;
    s->exact = !c->trace.sampled && !c->trace.budget_exhausted;
    /* The stride helper allocates its coefficient in the kernel's arena: the
     * arena is scratch the IR owns, so adding to it leaves the IR unchanged. */
    s->stride = hms_stride_of((ir_kernel *)k, s->acc->index);
    if (s->stride.affine && s->stride.coeff)
        s->stride_known =
            hms_stride_eval(k, &c->topt, s->stride.coeff, &s->stride_val, &s->stride_approx);
}

/* Trace record r's index in the stream (for the per-record memos). */
static size_t record_index(const hms_check_ctx *c, const hms_warp_access *r)
{
    return (size_t)(r - c->trace.stream.v);
}

/* The bank result of trace record r: the one computed for the kernel when
 * there is one. */
static bool record_banks(const hms_check_ctx *c, const hms_warp_access *r, hms_bank_result *out)
{
    if (!c->banks)
        return hms_banks_warp(c->arch, r, out);
    const hms_bank_memo *m = &c->banks[record_index(c, r)];
    *out = m->r;
    return m->ok;
}

/* CuMAPz's transfer sums (hms_cumapz_stream_transfer): whole numbers, the
 * same in any order. */
static void transfer_add(hms_check_ctx *c, const hms_warp_access *r, const hms_coalesce_result *cr)
{
    if ((r->space == HMS_SPACE_GLOBAL || r->space == HMS_SPACE_READONLY) && cr->active_lanes) {
        c->transfer_useful += cr->bytes_useful;
        c->transfer_bytes += cr->bytes_transferred;
    }
}

/* The transfer sums of a record the site figures skip (no site or warp). */
static void transfer_skipped(hms_check_ctx *c, size_t i)
{
    const hms_warp_access *r = &c->trace.stream.v[i];
    hms_coalesce_result cr;
    if (r->mask && (r->space == HMS_SPACE_GLOBAL || r->space == HMS_SPACE_READONLY) &&
        hms_units_coalesce(c->units, c->arch, i, r, &cr))
        transfer_add(c, r, &cr);
}

static void add_record(hms_check_ctx *c, const hms_warp_access *r, double w)
{
    hms_site_metrics *s = &c->sites[r->site];
    int lanes = hms_popcount32(r->mask);
    if (!lanes)
        return;
    s->space = (hms_space)r->space;
    s->sim_requests++;
    s->requests += w;
    s->lanes += w * lanes;
    uint32_t tpb = c->trace.threads_per_block;
    uint32_t first = r->warp * HMS_WARP_LANES;
    uint32_t in_warp = tpb > first ? tpb - first : 0;
    s->threads += w * (in_warp < HMS_WARP_LANES ? in_warp : HMS_WARP_LANES);
    if (!r->exact)
        s->exact = false;
    hms_space sp = (hms_space)r->space;
    if (offchip(sp)) {
        hms_coalesce_result cr;
        if (!hms_units_coalesce(c->units, c->arch, record_index(c, r), r, &cr))
            return;
        uint32_t sb = c->arch->sector_bytes > 0 ? (uint32_t)c->arch->sector_bytes : 32;
        s->sectors += w * cr.sectors;
        s->lines += w * cr.lines;
        s->transactions += w * cr.transactions;
        s->ideal_sectors += w * (double)((cr.bytes_useful + sb - 1) / sb);
        s->bytes_requested += w * (double)cr.bytes_requested;
        s->bytes_useful += w * (double)cr.bytes_useful;
        s->bytes_transferred += w * (double)cr.bytes_transferred;
        if (cr.sectors < s->sectors_min)
            s->sectors_min = cr.sectors;
        if (cr.sectors > s->sectors_max)
            s->sectors_max = cr.sectors;
        transfer_add(c, r, &cr);
    } else if (sp == HMS_SPACE_SHARED) {
        hms_bank_result br;
        if (!record_banks(c, r, &br))
            return;
        s->wavefronts += w * br.wavefronts;
        s->phases += w * br.phases;
        if (br.wavefronts > br.phases)
            s->conflicted += w;
        if (br.ways > s->ways_max)
            s->ways_max = br.ways;
    } else if (sp == HMS_SPACE_CONSTANT) {
        uint32_t d = hms_constmem_distinct(r);
        s->distinct += w * d;
        if (d > s->distinct_max)
            s->distinct_max = d;
    }
}

static bool compact_add(compact_acc *a, size_t k, int lanes, double reps)
{
    if (k >= a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 16;
        while (cap <= k)
            cap *= 2;
        uint32_t *v = realloc(a->lanes, cap * sizeof *v);
        if (!v)
            return false;
        memset(v + a->cap, 0, (cap - a->cap) * sizeof *v);
        a->lanes = v;
        double *r = realloc(a->reps, cap * sizeof *r);
        if (!r)
            return false;
        memset(r + a->cap, 0, (cap - a->cap) * sizeof *r);
        a->reps = r;
        a->cap = cap;
    }
    a->lanes[k] += (uint32_t)lanes;
    if (reps > a->reps[k]) /* the warps' k-th executions of a site repeat alike */
        a->reps[k] = reps;
    if (k + 1 > a->used)
        a->used = k + 1;
    return true;
}

static bool camping_init(hms_check_ctx *c, camping_acc *a, const hms_site_metrics *s)
{
    const hms_arch *ar = c->arch;
    memset(a, 0, sizeof *a);
    if (ar->dram_channels <= 0 || !dram_space(s->arr->space))
        return true;
    unsigned max_blks = c->occ_ok ? (unsigned)c->occ.blocks_per_sm : 1;
    uint64_t nblk =
        hms_cumapz_blocks_to_check(ar, max_blks, c->k->launch.block[0],
                                   (unsigned)(s->arr->elem_bytes > 0 ? s->arr->elem_bytes : 4));
    if (nblk > c->trace.blocks_total)
        nblk = c->trace.blocks_total;
    /* Only blocks 0..n-1 all simulated say what runs concurrently. */
    uint64_t prefix = 0;
    while (prefix < c->trace.nblocks && c->trace.blocks[prefix].id == prefix)
        prefix++;
    if (nblk > prefix)
        nblk = prefix;
    if (nblk < 2)
        return true;
    a->nblk = (unsigned)nblk; /* the per-group tables grow as groups appear (camping_grow) */
    return true;
}

/* Room for group k: the tables grow with the groups a site really has, so
 * thousands of sites executed once each cost one row apiece, not
 * CAMPING_MAX_GROUPS rows. */
static bool camping_grow(camping_acc *a, size_t k, size_t nch)
{
    if (k < a->capgroups)
        return true;
    size_t cap = a->capgroups ? a->capgroups * 2 : 4;
    while (cap <= k)
        cap *= 2;
    if (cap > CAMPING_MAX_GROUPS)
        cap = CAMPING_MAX_GROUPS;
    uint32_t *count = realloc(a->count, cap * nch * sizeof *count);
    if (count)
        a->count = count;
    uint64_t *stamp = count ? realloc(a->stamp, cap * nch * sizeof *stamp) : NULL;
    if (stamp)
        a->stamp = stamp;
    uint64_t *gstamp = stamp ? realloc(a->gstamp, cap * sizeof *gstamp) : NULL;
    if (gstamp)
        a->gstamp = gstamp;
    uint32_t *gblocks = gstamp ? realloc(a->gblocks, cap * sizeof *gblocks) : NULL;
    if (gblocks)
        a->gblocks = gblocks;
    double *greq = gblocks ? realloc(a->greq, cap * sizeof *greq) : NULL;
    if (!greq)
        return false;
    a->greq = greq;
    size_t old = a->capgroups, add = cap - old;
    memset(a->count + old * nch, 0, add * nch * sizeof *a->count);
    memset(a->stamp + old * nch, 0, add * nch * sizeof *a->stamp);
    memset(a->gstamp + old, 0, add * sizeof *a->gstamp);
    memset(a->gblocks + old, 0, add * sizeof *a->gblocks);
    memset(a->greq + old, 0, add * sizeof *a->greq);
    a->capgroups = cap;
    return true;
}

static void camping_free(camping_acc *a)
{
    free(a->count);
    free(a->stamp);
    free(a->gstamp);
    free(a->gblocks);
    free(a->greq);
    free(a->sec);
}

static bool camping_add(hms_check_ctx *c, camping_acc *a, const hms_warp_access *r, size_t k)
{
    if (a->nblk < 2 || r->block >= a->nblk || k >= CAMPING_MAX_GROUPS)
        return true;
    size_t nch = (size_t)c->arch->dram_channels;
    if (!camping_grow(a, k, nch))
        return false;
    uint64_t tag = (uint64_t)r->block + 1;
    if (k + 1 > a->ngroups)
        a->ngroups = k + 1;
    if (a->gstamp[k] != tag) {
        a->gstamp[k] = tag;
        a->gblocks[k]++;
    }
    a->greq[k] += 1;
    uint64_t sb = c->arch->sector_bytes > 0 ? (uint64_t)c->arch->sector_bytes : 32;
    uint64_t buf[HMS_WARP_UNITS_MAX];
    const uint64_t *units;
    size_t nu = hms_units_of(c->units, record_index(c, r), r, sb, buf, &units);
    if (a->nsec + nu > a->capsec) {
        size_t cap = a->capsec ? a->capsec * 2 : 1024;
        while (cap < a->nsec + nu)
            cap *= 2;
        uint64_t *v = realloc(a->sec, cap * sizeof *v);
        if (!v)
            return false;
        a->sec = v;
        a->capsec = cap;
    }
    for (size_t u = 0; u < nu; u++)
        a->sec[a->nsec++] = (uint64_t)k << 40 | (units[u] & ((1ull << 40) - 1));
    hms_channel_memo cm = hms_channel_memo_start(c->arch);
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        if (!(r->mask >> l & 1))
            continue;
        bool same; /* the previous lane's stripe: its channel is stamped */
        size_t ch = hms_channel_memo_of(&cm, r->addr[l], &same);
        if (same)
            continue;
        size_t at = k * nch + ch;
        if (a->stamp[at] != tag) {
            a->stamp[at] = tag;
            a->count[at]++;
        }
    }
    return true;
}

/* Eq. 5 per group (distinct blocks per channel, as CuMAPz counts), and our
 * camping factor: per group, the distinct sectors each channel must serve
 * (a sector several blocks read is fetched from DRAM once), the busiest
 * channel against its even share when the group's bytes are spread over the
 * channels they would span laid out contiguously. Eq. 5 alone ignores idle
 * channels (two equally loaded channels of eight score 1) and counts blocks
 * that share data; the factor does neither, and, like eq. 5, equals the
 * channel count when one channel takes everything. Both are weighted by the
 * group's warp requests. */
static bool camping_finish(hms_check_ctx *c, camping_acc *a, hms_site_metrics *s)
{
    if (!a->count)
        return true;
    size_t nch = (size_t)c->arch->dram_channels;
    double sb = c->arch->sector_bytes > 0 ? c->arch->sector_bytes : 32;
    double cb = c->arch->dram_channel_bytes > 0 ? c->arch->dram_channel_bytes : 256;
    double *load = calloc(nch, sizeof *load);
    if (!load)
        return false;
    hms_sort_u64(a->sec, a->nsec);
    double wsum = 0, skew = 0, camp = 0, worst = 0;
    size_t at = 0;
    for (size_t k = 0; k < a->ngroups; k++) {
        size_t from = at;
        while (at < a->nsec && a->sec[at] >> 40 == k)
            at++;
        if (a->gblocks[k] < 2)
            continue; /* one block says nothing about concurrency */
        double total = 0, max = 0, minnz = 0, sectors = 0, smax = 0;
        unsigned used = 0;
        for (size_t ch = 0; ch < nch; ch++) {
            double n = a->count[k * nch + ch];
            if (!n)
                continue;
            total += n;
            max = n > max ? n : max;
            minnz = minnz == 0 || n < minnz ? n : minnz;
        }
        if (total <= 0)
            continue;
        memset(load, 0, nch * sizeof *load);
        hms_channel_memo cm = hms_channel_memo_start(c->arch);
        for (size_t j = from; j < at; j++) {
            if (j > from && a->sec[j] == a->sec[j - 1])
                continue;
            uint64_t sector = a->sec[j] & ((1ull << 40) - 1);
            bool same;
            load[hms_channel_memo_of(&cm, (uint64_t)(sector * sb), &same)]++;
            sectors++;
        }
        for (size_t ch = 0; ch < nch; ch++) {
            used += load[ch] > 0;
            smax = load[ch] > smax ? load[ch] : smax;
        }
        int nonzero = 0;
        for (size_t ch = 0; ch < nch; ch++)
            nonzero += a->count[k * nch + ch] > 0;
        double g_skew = nonzero == 1 && nch > 1 ? (double)nch : max / (minnz > 1 ? minnz : 1);
        double ideal = ceil(sectors * sb / cb);
        ideal = ideal < (double)nch ? ideal : (double)nch;
        double g_camp = sectors > 0 ? smax * ideal / sectors : 1;
        skew += a->greq[k] * g_skew;
        camp += a->greq[k] * g_camp;
        wsum += a->greq[k];
        if (g_camp > worst) {
            worst = g_camp;
            s->channels_used = used;
            s->channels_ideal = (unsigned)ideal;
        }
    }
    free(load);
    if (wsum > 0) {
        s->ch_skew = skew / wsum;
        s->camping = camp / wsum;
    }
    return true;
}

/* Whether the traced blocks' records are the whole stream, in order (each
 * block's records follow the previous block's): then the block loop below
 * visits every record once. */
static bool blocks_tile_stream(const hms_kernel_trace *t)
{
    size_t at = 0;
    for (size_t b = 0; b < t->nblocks; b++) {
        if (t->blocks[b].first != at)
            return false;
        at += t->blocks[b].count;
    }
    return at == t->stream.n;
}

/* The bank result of every record (c->banks, runtime/banks.h), made as the
 * block loop reads each record for its own figures, when it visits every
 * record (`tiles`); else in a pass of its own. NULL when out of memory: the
 * passes that read it then compute their own. */
static hms_bank_patterns *banks_start(hms_check_ctx *c, bool tiles)
{
    const hms_stream *s = &c->trace.stream;
    if (!tiles || s->n == 0) {
        hms_banks_stream(c->arch, s, &c->banks);
        return NULL;
    }
    c->banks = calloc(s->n, sizeof *c->banks);
    hms_bank_patterns *pat = c->banks ? hms_bank_patterns_new(c->arch) : NULL;
    if (!pat) { /* a lone pass computes each record, with or without its table */
        free(c->banks);
        c->banks = NULL;
        hms_banks_stream(c->arch, s, &c->banks);
    }
    return pat;
}

/* hms_banks_stream's entry for record i, when the block loop makes them,
 * and the record into CuMAPz's bank counts (acc, NULL when not made here):
 * the loop reads the records in stream order. */
static void banks_add(hms_check_ctx *c, hms_bank_patterns *pat, hms_cumapz_bank_acc *acc, size_t i)
{
    const hms_warp_access *r = &c->trace.stream.v[i];
    if (!pat || r->space != HMS_SPACE_SHARED || !r->mask)
        return;
    c->banks[i].ok = hms_bank_patterns_warp(pat, r, &c->banks[i].r);
    if (acc)
        hms_cumapz_bank_acc_add(acc, c->arch, r, &c->banks[i]);
}

bool hms_an_site_metrics(hms_check_ctx *c)
{
    const ir_kernel *k = c->k;
    const hms_kernel_trace *t = &c->trace;
    c->nsites = k->nsites;
    c->sites = calloc(k->nsites ? k->nsites : 1, sizeof *c->sites);
    compact_acc *cmp = calloc(k->nsites ? k->nsites : 1, sizeof *cmp);
    camping_acc *camp = calloc(k->nsites ? k->nsites : 1, sizeof *camp);
    size_t wpb = t->warps_per_block ? t->warps_per_block : 1;
    uint32_t *occ = calloc(wpb * (k->nsites ? k->nsites : 1), sizeof *occ);
    bool ok = c->sites && cmp && camp && occ;
    bool tiles = blocks_tile_stream(t); /* the block loop visits every record */
    hms_bank_patterns *pat = ok ? banks_start(c, tiles) : NULL;
    hms_cumapz_bank_acc bank_acc, *acc = NULL; /* CuMAPz's bank counts, with the banks */
    if (pat && hms_cumapz_bank_acc_init(&bank_acc, c->arch, t->stream.n))
        acc = &bank_acc;
    /* the transfer sums need every record: the blocks must tile the stream */
    c->transfer_ok = ok && tiles;
    c->transfer_useful = c->transfer_bytes = 0;
    for (size_t i = 0; ok && i < k->nsites; i++) {
        init_site(c, i);
        ok = camping_init(c, &camp[i], &c->sites[i]);
    }
    for (size_t b = 0; ok && b < t->nblocks; b++) {
        const hms_traced_block *B = &t->blocks[b];
        memset(occ, 0, wpb * k->nsites * sizeof *occ);
        for (size_t i = B->first; ok && i < B->first + B->count; i++) {
            const hms_warp_access *r = &t->stream.v[i];
            banks_add(c, pat, acc, i);
            if (r->site >= k->nsites || r->warp >= wpb || !r->mask) {
                transfer_skipped(c, i);
                continue;
            }
            add_record(c, r, B->weight * hms_record_reps(r));
            size_t kk = occ[r->warp * k->nsites + r->site]++;
            ok = compact_add(&cmp[r->site], kk, hms_popcount32(r->mask), hms_record_reps(r));
            if (ok && dram_space((hms_space)r->space))
                ok = camping_add(c, &camp[r->site], r, kk);
        }
        for (size_t s = 0; s < k->nsites; s++) {
            compact_acc *a = &cmp[s];
            for (size_t kk = 0; kk < a->used; kk++)
                c->sites[s].compact_requests +=
                    B->weight * a->reps[kk] * ceil((double)a->lanes[kk] / HMS_WARP_LANES);
            if (a->used) {
                memset(a->lanes, 0, a->used * sizeof *a->lanes);
                memset(a->reps, 0, a->used * sizeof *a->reps);
            }
            a->used = 0;
        }
    }
    for (size_t i = 0; ok && i < k->nsites; i++) {
        ok = camping_finish(c, &camp[i], &c->sites[i]);
        if (c->sites[i].sectors_min == UINT32_MAX)
            c->sites[i].sectors_min = 0;
    }
    for (size_t i = 0; cmp && camp && i < k->nsites; i++) {
        free(cmp[i].lanes);
        free(cmp[i].reps);
        camping_free(&camp[i]);
    }
    free(cmp);
    free(camp);
    free(occ);
    hms_bank_patterns_free(pat);
    c->bank_counts_ok = acc && ok;
    if (c->bank_counts_ok)
        hms_cumapz_bank_acc_finish(acc, &c->fig.banks);
    else if (acc)
        hms_cumapz_bank_acc_free(acc);
    c->transfer_ok = c->transfer_ok && ok;
    if (!ok) { /* the loop may have stopped early: no partial bank results */
        free(c->banks);
        c->banks = NULL;
    }
    return ok;
}
