/* Set-associative cache simulator (see cache.h and docs/model.md "Caches"). */
#include "runtime/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coalesce.h"

/* Beyond this many lines the simulator's tables get too big to be worth it. */
#define MAX_ENTRIES (1u << 24)
/* Mei & Chu sec. 4.5: the hot Fermi L1 way is replaced 3x as often as each
 * other way (probability 1/2 of 4 ways: "updated once every two misses"). */
#define FERMI_HOT_WEIGHT 3u

static bool is_pow2(uint32_t x)
{
    return x && !(x & (x - 1));
}

static uint32_t log2u(uint32_t x)
{
    uint32_t n = 0;
    while (x >>= 1)
        n++;
    return n;
}

/* A set's first generator state: HMS_CACHE_SEED and the set index mixed by
 * the splitmix64 finaliser, so neighbouring sets start far apart. Never 0
 * (xorshift would stay there). */
static uint64_t set_seed(uint32_t set)
{
    uint64_t z = HMS_CACHE_SEED + (uint64_t)(set + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return z ? z : HMS_CACHE_SEED;
}

/* xorshift64* on a set's own state: small, fast, and reproducible. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 2685821657736338717ull;
}

/* Unequal sets: deal line residues (line % entries) to the sets round-robin,
 * skipping sets that are full. For 17 + 6 x 8 entries, residues 0..55 go
 * r % 7 and 56..64 to set 0, so a run of 65 consecutive pages fits exactly and
 * each further page overflows the next set in turn: the piecewise-linear miss
 * curve of Mei & Chu Fig. 10 (17 entries missed at 132 MB, 8 more per 2 MB). */
static bool deal_residues(hms_cache *c)
{
    uint32_t *filled = calloc(c->sets, sizeof *filled);
    if (!filled)
        return false;
    uint32_t s = 0;
    for (uint32_t r = 0; r < c->entries; r++) {
        while (filled[s] == c->set_ways[s])
            s = (s + 1) % c->sets;
        c->residue_set[r] = s;
        filled[s]++;
        s = (s + 1) % c->sets;
    }
    free(filled);
    return true;
}

static bool fail(hms_cache *c, char *err, size_t errlen, const char *msg)
{
    snprintf(err, errlen, "%s", msg);
    hms_cache_free(c);
    return false;
}

bool hms_cache_init(hms_cache *c, const hms_cache_geom *g, char *err, size_t errlen)
{
    char msg[160];
    memset(c, 0, sizeof *c);
    if (g->size_bytes == 0)
        return fail(c, err, errlen, "cache is absent (size_bytes 0)");
    if (!is_pow2(g->line_bytes)) {
        snprintf(msg, sizeof msg, "line_bytes %u is not a power of two", g->line_bytes);
        return fail(c, err, errlen, msg);
    }
    if (g->ways == 0)
        return fail(c, err, errlen, "ways is 0");
    if (g->size_bytes % g->line_bytes) {
        snprintf(msg, sizeof msg, "size_bytes %u is not a whole number of %u-byte lines",
                 g->size_bytes, g->line_bytes);
        return fail(c, err, errlen, msg);
    }
    uint32_t lines = g->size_bytes / g->line_bytes;
    uint32_t sets = g->sets;
    uint32_t set0 = g->ways; /* ways of set 0 */
    if (g->set0_ways) {
        /* Unequal sets (Mei & Chu L2 TLB): set 0 larger, all others `ways`. */
        if (sets == 0)
            return fail(c, err, errlen, "set0_ways needs sets as well");
        if (g->set0_ways <= g->ways) {
            snprintf(msg, sizeof msg, "set0_ways %u must exceed ways %u", g->set0_ways, g->ways);
            return fail(c, err, errlen, msg);
        }
        set0 = g->set0_ways;
    } else if (sets == 0) {
        if (lines % g->ways) {
            snprintf(msg, sizeof msg, "size_bytes %u is not a whole number of %u-way sets of %u B",
                     g->size_bytes, g->ways, g->line_bytes);
            return fail(c, err, errlen, msg);
        }
        sets = lines / g->ways;
    }
    if ((uint64_t)set0 + (uint64_t)(sets - 1) * g->ways != lines) {
        snprintf(msg, sizeof msg, "%u sets x %u ways (set 0: %u) x %u B do not make size_bytes %u",
                 sets, g->ways, set0, g->line_bytes, g->size_bytes);
        return fail(c, err, errlen, msg);
    }
    if (set0 > UINT16_MAX) { /* a set's fill is two bytes */
        snprintf(msg, sizeof msg, "%u ways is more than the simulator handles (%u)", set0,
                 UINT16_MAX);
        return fail(c, err, errlen, msg);
    }
    if (lines > MAX_ENTRIES) {
        snprintf(msg, sizeof msg, "%u lines is more than the simulator handles (%u)", lines,
                 MAX_ENTRIES);
        return fail(c, err, errlen, msg);
    }
    uint32_t line_bits = log2u(g->line_bytes);
    if (g->set_bit_low != 0 && (g->set_bit_low < line_bits || g->set_bit_low >= 64)) {
        snprintf(msg, sizeof msg, "set_bit_low %u is outside bits %u..63 above the line offset",
                 g->set_bit_low, line_bits);
        return fail(c, err, errlen, msg);
    }
    if (g->replacement != HMS_REPL_LRU && g->replacement != HMS_REPL_FERMI_L1 &&
        g->replacement != HMS_REPL_RANDOM) {
        snprintf(msg, sizeof msg, "unknown replacement policy %d", (int)g->replacement);
        return fail(c, err, errlen, msg);
    }

    c->line_bytes = g->line_bytes;
    c->line_shift = line_bits;
    c->sets = sets;
    c->set_shift = g->set_bit_low ? g->set_bit_low : line_bits;
    c->replacement = g->replacement;
    c->entries = lines;
    c->set_ways = malloc(sets * sizeof *c->set_ways);
    c->set_first = malloc(sets * sizeof *c->set_first);
    c->tag = malloc(lines * sizeof *c->tag);
    c->stamp = malloc(lines * sizeof *c->stamp);
    c->fill = calloc(sets, sizeof *c->fill);
    bool random = g->replacement != HMS_REPL_LRU;
    if (random)
        c->set_rng = malloc(sets * sizeof *c->set_rng);
    bool unequal = set0 != g->ways;
    c->uniform_ways = unequal ? 0 : g->ways;
    if (unequal)
        c->residue_set = malloc(lines * sizeof *c->residue_set);
    if (!c->set_ways || !c->set_first || !c->tag || !c->stamp || !c->fill ||
        (unequal && !c->residue_set) || (random && !c->set_rng))
        return fail(c, err, errlen, "out of memory");
    uint32_t first = 0;
    for (uint32_t s = 0; s < sets; s++) {
        c->set_ways[s] = s == 0 ? set0 : g->ways;
        c->set_first[s] = first;
        first += c->set_ways[s];
    }
    if (unequal && !deal_residues(c))
        return fail(c, err, errlen, "out of memory");
    hms_cache_reset(c);
    return true;
}

void hms_cache_free(hms_cache *c)
{
    free(c->set_ways);
    free(c->set_first);
    free(c->residue_set);
    free(c->tag);
    free(c->stamp);
    free(c->fill);
    free(c->set_rng);
    memset(c, 0, sizeof *c);
}

void hms_cache_reset(hms_cache *c)
{
    memset(c->fill, 0, c->sets * sizeof *c->fill);
    c->clock = 0;
    memset(&c->stats, 0, sizeof c->stats);
}

uint32_t hms_cache_set_of(const hms_cache *c, uint64_t addr)
{
    if (c->residue_set)
        return c->residue_set[(addr >> c->line_shift) % c->entries];
    return (uint32_t)((addr >> c->set_shift) % c->sets);
}

uint32_t hms_cache_entry(const hms_cache *c, uint32_t set, uint32_t way)
{
    return c->set_first[set] + way;
}

/* The way to refill in a full set, by policy. */
static uint32_t victim(hms_cache *c, uint32_t set, uint32_t first, uint32_t ways)
{
    switch (c->replacement) {
    case HMS_REPL_FERMI_L1:
        if (ways > HMS_FERMI_L1_HOT_WAY) {
            /* Hot way weight 3, each other way weight 1. */
            uint64_t r = next_random(&c->set_rng[set]) % (ways - 1 + FERMI_HOT_WEIGHT);
            if (r < FERMI_HOT_WEIGHT)
                return HMS_FERMI_L1_HOT_WAY;
            uint32_t w = (uint32_t)(r - FERMI_HOT_WEIGHT); /* 0 .. ways-2 */
            return w < HMS_FERMI_L1_HOT_WAY ? w : w + 1;
        }
        return (uint32_t)(next_random(&c->set_rng[set]) % ways);
    case HMS_REPL_RANDOM:
        return (uint32_t)(next_random(&c->set_rng[set]) % ways);
    case HMS_REPL_LRU:
    default: {
        const uint64_t *stamp = c->stamp + first;
        uint32_t best = 0;
        for (uint32_t w = 1; w < ways; w++)
            if (stamp[w] < stamp[best])
                best = w;
        return best;
    }
    }
}

bool hms_cache_access_line(hms_cache *c, uint64_t addr)
{
    return hms_cache_access_line_in(c, addr, hms_cache_set_of(c, addr));
}

bool hms_cache_access_line_in(hms_cache *c, uint64_t addr, uint32_t set)
{
    uint64_t line = addr >> c->line_shift;
    uint32_t ways = c->uniform_ways ? c->uniform_ways : c->set_ways[set];
    uint32_t first = c->uniform_ways ? set * c->uniform_ways : c->set_first[set];
    uint32_t fill = c->fill[set];
    c->clock++;
    c->stats.accesses++;
    bool lru = c->replacement == HMS_REPL_LRU; /* only LRU reads the stamps */
    uint64_t *tag = c->tag + first;
    uint64_t *stamp = c->stamp + first;
    for (uint32_t w = 0; w < fill; w++) {
        if (tag[w] == line) {
            if (lru)
                stamp[w] = c->clock;
            c->stats.hits++;
            return true;
        }
    }
    c->stats.misses++;
    uint32_t w = fill; /* the first empty way */
    if (w == ways) {
        w = victim(c, set, first, ways);
        c->stats.evictions++;
    } else {
        if (fill == 0 && c->set_rng) /* the set's first line since the reset */
            c->set_rng[set] = set_seed(set);
        c->fill[set] = (uint16_t)(fill + 1);
    }
    tag[w] = line;
    if (lru)
        stamp[w] = c->clock;
    return false;
}

void hms_cache_access(hms_cache *c, uint64_t addr, uint32_t size, uint32_t *hits, uint32_t *misses)
{
    uint32_t h = 0, m = 0;
    if (size > 0) {
        uint64_t last = addr > UINT64_MAX - (size - 1) ? UINT64_MAX : addr + (size - 1);
        for (uint64_t l = addr / c->line_bytes; l <= last / c->line_bytes; l++) {
            if (hms_cache_access_line(c, l * c->line_bytes))
                h++;
            else
                m++;
            if (l == UINT64_MAX / c->line_bytes)
                break;
        }
    }
    if (hits)
        *hits = h;
    if (misses)
        *misses = m;
}

bool hms_cache_warp(hms_cache *c, const hms_warp_access *a, hms_cache_outcome *out)
{
    memset(out, 0, sizeof *out);
    if (!hms_access_check(a, NULL, 0))
        return false;
    if (a->mask == 0)
        return true;
    uint64_t lines[HMS_WARP_UNITS_MAX];
    size_t n = hms_warp_units(a, c->line_bytes, lines);
    for (size_t i = 0; i < n; i++) {
        if (hms_cache_access_line(c, lines[i] * c->line_bytes))
            out->hits++;
        else
            out->misses++;
    }
    out->lines = (uint32_t)n;
    out->hit = out->misses == 0;
    c->stats.warp_requests++;
    if (out->hit)
        c->stats.warp_hits++;
    return true;
}

double hms_cache_hit_rate(const hms_cache *c)
{
    return c->stats.accesses ? (double)c->stats.hits / (double)c->stats.accesses : 0.0;
}
