/* Shared-memory buffer coverage and CuMAPz data-reuse counts (see
 * shared_reuse.h). */
#include "passes/figures/shared_reuse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/merge_sort.h"

/* ---- a set of (mapping, address) pairs, rebuilt per block ---------------------------- */

typedef struct {
    uint64_t *addr;
    uint32_t *map; /* mapping id + 1; 0 = empty slot */
    size_t cap;
} pair_set;

static uint64_t hash_pair(uint64_t addr, uint32_t m)
{
    uint64_t x = addr ^ ((uint64_t)m * 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ull;
    return x ^ (x >> 29);
}

static bool set_reset(pair_set *s, size_t want)
{
    size_t cap = 64;
    while (cap < want * 2)
        cap *= 2;
    if (cap > s->cap) {
        free(s->addr);
        free(s->map);
        s->addr = malloc(cap * sizeof *s->addr);
        s->map = malloc(cap * sizeof *s->map);
        s->cap = s->addr && s->map ? cap : 0;
        if (!s->cap)
            return false;
    }
    memset(s->map, 0, s->cap * sizeof *s->map);
    return true;
}

static void set_add(pair_set *s, uint64_t addr, uint32_t m)
{
    size_t i = hash_pair(addr, m) & (s->cap - 1);
    while (s->map[i]) {
        if (s->map[i] == m + 1 && s->addr[i] == addr)
            return;
        i = (i + 1) & (s->cap - 1);
    }
    s->map[i] = m + 1;
    s->addr[i] = addr;
}

static bool set_has(const pair_set *s, uint64_t addr, uint32_t m)
{
    size_t i = hash_pair(addr, m) & (s->cap - 1);
    while (s->map[i]) {
        if (s->map[i] == m + 1 && s->addr[i] == addr)
            return true;
        i = (i + 1) & (s->cap - 1);
    }
    return false;
}

/* ---- helpers -------------------------------------------------------------------------- */

/* Distinct sector_bytes sectors the active lanes' bytes touch. */
static unsigned distinct_sectors(const hms_warp_access *r, unsigned sector)
{
    uint64_t s[2 * HMS_WARP_LANES];
    unsigned n = 0;
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        if (!(r->mask & (1u << l)))
            continue;
        uint64_t first = r->addr[l] / sector, last = (r->addr[l] + r->width - 1) / sector;
        s[n++] = first;
        if (last != first)
            s[n++] = last; /* widths never exceed a sector twice over (<= 16 bytes usually) */
    }
    return (unsigned)hms_count_distinct_u64(s, n);
}

static bool is_global_load(const hms_warp_access *r)
{
    return r->kind == HMS_ACCESS_LOAD &&
           (r->space == HMS_SPACE_GLOBAL || r->space == HMS_SPACE_READONLY);
}

/* ---- the pass ---------------------------------------------------------------------------- */

typedef struct {
    const ir_kernel *k;
    const hms_kernel_trace *t;
    hms_shared_reuse *o;
    unsigned sector;
    bool *buffer_array;  /* per array: a mapping's shared array */
    bool *access_site;   /* per site: a mapping's shared store */
    uint8_t *pair_state; /* per (site, warp) in the current block: bit0 ran, bit1 split */
    pair_set set;
} reuse_ctx;

static void block_pass(reuse_ctx *c, const hms_traced_block *B)
{
    const ir_kernel *k = c->k;
    hms_shared_reuse *o = c->o;
    const hms_warp_access *v = c->t->stream.v;
    uint32_t wpb = c->t->warps_per_block;
    double w = B->weight;
    for (size_t i = B->first; i < B->first + B->count; i++) {
        const hms_warp_access *r = &v[i];
        if (!o->sites[r->site].fetch)
            continue;
        for (size_t m = 0; m < k->nmappings; m++) {
            if ((uint32_t)k->mappings[m].fetch_site != r->site)
                continue;
            for (int l = 0; l < HMS_WARP_LANES; l++)
                if (r->mask & (1u << l))
                    set_add(&c->set, r->addr[l], (uint32_t)m);
        }
        double lanes = hms_popcount32(r->mask), rw = w * hms_record_reps(r);
        o->bytes_fetched += rw * lanes * r->width;
        o->bytes_buffered += rw * (double)distinct_sectors(r, c->sector) * c->sector;
    }
    memset(c->pair_state, 0, k->nsites * wpb);
    for (size_t i = B->first; i < B->first + B->count; i++) {
        const hms_warp_access *r = &v[i];
        double lanes = hms_popcount32(r->mask), rw = w * hms_record_reps(r);
        if (r->space == HMS_SPACE_SHARED && r->kind == HMS_ACCESS_LOAD &&
            c->buffer_array[r->array] && !c->access_site[r->site])
            o->bytes_shmem_explicit += rw * lanes * r->width;
        hms_site_coverage *S = &o->sites[r->site];
        if (!S->candidate || !is_global_load(r))
            continue;
        uint32_t covered = 0;
        for (size_t m = 0; m < k->nmappings; m++) {
            if ((uint32_t)k->mappings[m].global_array != r->array)
                continue;
            for (int l = 0; l < HMS_WARP_LANES; l++)
                if ((r->mask & (1u << l)) && set_has(&c->set, r->addr[l], (uint32_t)m))
                    covered |= 1u << l;
        }
        o->covered[i] = covered;
        double nc = hms_popcount32(covered);
        S->lanes += rw * lanes;
        S->covered_lanes += rw * nc;
        o->bytes_shmem_covered += rw * nc * r->width;
        if (r->warp < wpb) {
            uint8_t *st = &c->pair_state[(size_t)r->site * wpb + r->warp];
            *st |= 1;
            if (covered && covered != r->mask)
                *st |= 2;
        }
    }
    for (size_t s = 0; s < k->nsites; s++)
        for (uint32_t x = 0; x < wpb; x++) {
            uint8_t st = c->pair_state[s * wpb + x];
            if (!(st & 1))
                continue;
            o->sites[s].warps += w;
            if (st & 2)
                o->sites[s].split_warps += w;
        }
}

bool hms_shared_reuse_compute(const ir_kernel *k, const hms_kernel_trace *t, unsigned sector_bytes,
                              hms_shared_reuse *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!k || !t || t->nsites != k->nsites || t->narrays != k->narrays) {
        snprintf(err, errlen, "shared reuse: the trace does not belong to kernel '%s'",
                 k && k->name ? k->name : "?");
        return false;
    }
    reuse_ctx c = {k, t, out, sector_bytes ? sector_bytes : 32, NULL, NULL, NULL, {0}};
    size_t ns = k->nsites ? k->nsites : 1, na = k->narrays ? k->narrays : 1;
    out->nsites = k->nsites;
    out->ncovered = t->stream.n;
    out->sites = calloc(ns, sizeof *out->sites);
    out->covered = calloc(t->stream.n ? t->stream.n : 1, sizeof *out->covered);
    c.buffer_array = calloc(na, sizeof *c.buffer_array);
    c.access_site = calloc(ns, sizeof *c.access_site);
    c.pair_state = calloc(ns * (t->warps_per_block ? t->warps_per_block : 1), 1);
    bool ok = out->sites && out->covered && c.buffer_array && c.access_site && c.pair_state;
    if (ok) {
        for (size_t m = 0; m < k->nmappings; m++) {
            const ir_mapping *M = &k->mappings[m];
            if (M->fetch_site < 0 || (size_t)M->fetch_site >= k->nsites || M->access_site < 0 ||
                (size_t)M->access_site >= k->nsites || M->shared_array < 0 ||
                (size_t)M->shared_array >= k->narrays)
                continue;
            if (!out->sites[M->fetch_site].fetch)
                out->n_shm_load++;
            out->sites[M->fetch_site].fetch = true;
            c.access_site[M->access_site] = true;
            c.buffer_array[M->shared_array] = true;
        }
        for (size_t s = 0; s < k->nsites; s++) {
            const ir_access *a = k->sites[s];
            if (out->sites[s].fetch || a->kind != HMS_ACCESS_LOAD)
                continue;
            for (size_t m = 0; m < k->nmappings; m++)
                if (k->mappings[m].global_array == a->array)
                    out->sites[s].candidate = true;
        }
        /* Without a mapping nothing is fetched, buffered or covered: every
         * figure stays 0, so the blocks need no pass. */
        for (size_t b = 0; b < t->nblocks && ok && k->nmappings; b++) {
            const hms_traced_block *B = &t->blocks[b];
            size_t fetch_lanes = 0;
            for (size_t i = B->first; i < B->first + B->count; i++)
                if (out->sites[t->stream.v[i].site].fetch)
                    fetch_lanes += (size_t)hms_popcount32(t->stream.v[i].mask);
            ok = set_reset(&c.set, fetch_lanes);
            if (ok)
                block_pass(&c, B);
        }
    }
    for (size_t s = 0; ok && s < k->nsites; s++) {
        out->n_warp += out->sites[s].warps;
        out->n_path += out->sites[s].warps + out->sites[s].split_warps;
    }
    out->bytes_shmem = out->bytes_shmem_explicit + out->bytes_shmem_covered;
    free(c.buffer_array);
    free(c.access_site);
    free(c.pair_state);
    free(c.set.addr);
    free(c.set.map);
    if (!ok) {
        hms_shared_reuse_free(out);
        snprintf(err, errlen, "shared reuse for kernel '%s': out of memory",
                 k->name ? k->name : "?");
    }
    return ok;
}

void hms_shared_reuse_free(hms_shared_reuse *r)
{
    free(r->sites);
    free(r->covered);
    memset(r, 0, sizeof *r);
}
