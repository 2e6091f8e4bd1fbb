/* Coalescing rules per architecture (see coalesce.h and docs/model.md
 * "Coalescing"). */
#include "runtime/coalesce.h"

#include <stdio.h>
#include <string.h>

#define DEFAULT_SECTOR_BYTES 32
#define DEFAULT_LINE_BYTES 128
#define HALF_WARP 16
/* cc 1.2/1.3 segments: the smallest transaction size a segment shrinks to,
 * and the largest segment. */
#define MIN_SEGMENT_BYTES 32
#define HALF_WARP_SEGMENT_MAX 128

static bool width_ok(unsigned w)
{
    return w == 1 || w == 2 || w == 4 || w == 8 || w == 16;
}

bool hms_access_check(const hms_warp_access *a, char *err, size_t errlen)
{
    if (!width_ok(a->width)) {
        if (err)
            snprintf(err, errlen, "access site %u: width %u bytes is not 1, 2, 4, 8 or 16", a->site,
                     a->width);
        return false;
    }
    uint64_t limit = UINT64_MAX - a->width;
    /* every lane's address is at most the OR of all of them: below the
     * limit (any address under 2^63 is) no lane can wrap */
    uint64_t any = 0;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        any |= a->addr[l];
    if (any <= limit)
        return true;
    bool wraps = false;
    for (int l = 0; l < HMS_WARP_LANES; l++) /* no early exit: the common case vectorises */
        wraps |= (a->mask >> l & 1u) && a->addr[l] > limit;
    for (int l = 0; wraps && l < HMS_WARP_LANES; l++) {
        if ((a->mask >> l & 1u) && a->addr[l] > limit) {
            if (err)
                snprintf(err, errlen,
                         "access site %u: lane %d address 0x%llx wraps the address space", a->site,
                         l, (unsigned long long)a->addr[l]);
            return false;
        }
    }
    return true;
}

/* Sorts ascending and drops duplicates; returns the new length. Inputs are
 * small (<= HMS_WARP_UNITS_MAX), usually ascending and full of repeats, so
 * each value is appended, found (a repeat: dropped) by binary search in the
 * unique prefix, or inserted there. */
static size_t sort_unique(uint64_t *v, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = v[i];
        if (m == 0 || x > v[m - 1]) {
            v[m++] = x;
            continue;
        }
        if (x == v[m - 1]) /* the last unit again (a broadcast, a lane in its neighbour's) */
            continue;
        size_t lo = 0, hi = m - 1; /* v[hi] >= x: first index with v[j] >= x */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (v[mid] < x)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (v[lo] == x)
            continue;
        memmove(v + lo + 1, v + lo, (m - lo) * sizeof *v);
        v[lo] = x;
        m++;
    }
    return m;
}

/* A bitmap over a small span of units or bytes: lanes that do not come in
 * ascending order are marked in it and read back in order, instead of
 * sorted (a transposed or scattered tile spans a few hundred units). */
#define SPAN_BITS 4096
typedef struct {
    uint64_t lo;  /* the value of bit 0 */
    size_t words; /* in use */
    uint64_t w[SPAN_BITS / 64];
} span_bitmap;

/* For values lo..hi, hi - lo < SPAN_BITS. */
static void span_init(span_bitmap *b, uint64_t lo, uint64_t hi)
{
    b->lo = lo;
    b->words = (size_t)((hi - lo) / 64 + 1);
    memset(b->w, 0, b->words * sizeof *b->w);
}

/* Marks x .. x + len - 1 (1 <= len <= 64, inside the span). */
static void span_mark(span_bitmap *b, uint64_t x, unsigned len)
{
    uint64_t o = x - b->lo;
    size_t i = (size_t)(o >> 6);
    unsigned s = (unsigned)(o & 63);
    uint64_t bits = len >= 64 ? ~0ull : (1ull << len) - 1;
    b->w[i] |= bits << s;
    if (s + len > 64)
        b->w[i + 1] |= bits >> (64 - s);
}

/* The marked values, ascending, into out; returns how many. */
static size_t span_read(const span_bitmap *b, uint64_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < b->words; i++)
        for (uint64_t w = b->w[i]; w; w &= w - 1)
            out[n++] = b->lo + i * 64 + (uint64_t)__builtin_ctzll(w);
    return n;
}

static size_t span_count(const span_bitmap *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->words; i++)
        n += (size_t)__builtin_popcountll(b->w[i]);
    return n;
}

size_t hms_units_coarsen(const uint64_t *fine, size_t n, uint64_t k, uint64_t *out)
{
    size_t m = 0;
    uint64_t prev = 0;
    int sh = k && !(k & (k - 1)) ? __builtin_ctzll(k) : -1; /* a shift, not a division */
    for (size_t i = 0; i < n; i++) {
        uint64_t u = sh >= 0 ? fine[i] >> sh : fine[i] / k;
        if (m > 0 && u == prev)
            continue;
        if (out)
            out[m] = u;
        prev = u;
        m++;
    }
    return m;
}

size_t hms_warp_units(const hms_warp_access *a, uint64_t unit, uint64_t *out)
{
    return hms_warp_units_of(a, a->mask, unit, out);
}

/* Appends the units of lanes `lanes` to out[0..n) in lane order and sorts
 * the whole. `sh` >= 0: unit is 1 << sh (a shift, not a division). */
static size_t units_sorted_after(const hms_warp_access *a, uint32_t lanes, uint64_t unit, int sh,
                                 uint64_t *out, size_t n)
{
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        if (!(lanes >> l & 1u))
            continue;
        uint64_t end = a->addr[l] + a->width - 1;
        uint64_t first = sh >= 0 ? a->addr[l] >> sh : a->addr[l] / unit;
        uint64_t last = sh >= 0 ? end >> sh : end / unit;
        if (sh >= 0 && n > 0 && first == out[n - 1]) /* a neighbour's unit: usual when coalesced */
            first++;
        for (uint64_t u = first; u <= last && n < HMS_WARP_UNITS_MAX; u++)
            out[n++] = u;
    }
    return sort_unique(out, n);
}

/* The units of lanes `lanes` when they do not ascend (unit = 1 << sh,
 * width <= HMS_ACCESS_MAX_WIDTH): marked in a bitmap when they span few
 * units and no lane wraps, else listed in lane order and sorted. */
static size_t units_unordered(const hms_warp_access *a, uint32_t lanes, uint64_t unit, int sh,
                              uint64_t *out)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    bool wraps = false;
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t end = a->addr[l] + a->width - 1;
        wraps |= end < a->addr[l];
        lo = a->addr[l] >> sh < lo ? a->addr[l] >> sh : lo;
        hi = end >> sh > hi ? end >> sh : hi;
    }
    if (wraps || !lanes || hi - lo >= SPAN_BITS)
        return units_sorted_after(a, lanes, unit, sh, out, 0);
    span_bitmap b;
    span_init(&b, lo, hi);
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t first = a->addr[l] >> sh, last = (a->addr[l] + a->width - 1) >> sh;
        span_mark(&b, first, (unsigned)(last - first + 1));
    }
    return span_read(&b, out);
}

size_t hms_warp_units_of(const hms_warp_access *a, uint32_t lanes, uint64_t unit, uint64_t *out)
{
    size_t n = 0;
    int sh = unit && !(unit & (unit - 1)) ? __builtin_ctzll(unit) : -1;
    /* Power of two, and a width whose lanes cannot overflow `out`: while the
     * lanes' first units ascend, each lane adds only the units past the
     * highest so far, which leaves `out` sorted and distinct without a sort.
     * A lane that goes back hands the rest to the general path. */
    if (sh >= 0 && a->width <= HMS_ACCESS_MAX_WIDTH) {
        uint64_t mask = lanes;
        uint64_t prev_first = 0;
        while (mask) {
            int l = __builtin_ctzll(mask);
            uint64_t first = a->addr[l] >> sh;
            uint64_t last = (a->addr[l] + a->width - 1) >> sh;
            if (first < prev_first) /* start again with every lane */
                return units_unordered(a, lanes, unit, sh, out);
            mask &= mask - 1;
            prev_first = first;
            if (n > 0 && first <= out[n - 1])
                first = out[n - 1] + 1;
            for (uint64_t u = first; u <= last; u++)
                out[n++] = u;
        }
        return n;
    }
    return units_sorted_after(a, lanes, unit, sh, out, n);
}

/* Distinct bytes covered by the active lanes: union of [addr, addr+width). */
static uint64_t distinct_bytes(const hms_warp_access *a)
{
    uint64_t start[HMS_WARP_LANES];
    size_t n = 0;
    bool ascending = true;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t m = a->mask; m; m &= m - 1) {
        uint64_t x = a->addr[__builtin_ctz(m)];
        ascending &= n == 0 || x >= start[n - 1];
        start[n++] = x;
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    if (!ascending && hi - lo + a->width <= SPAN_BITS) { /* a bitmap of the bytes */
        span_bitmap b;
        span_init(&b, lo, hi + a->width - 1);
        for (size_t i = 0; i < n; i++)
            span_mark(&b, start[i], a->width);
        return span_count(&b);
    }
    /* Equal starts cover equal bytes; with one width for all lanes the ends
     * are sorted too, so a single sweep merges the intervals. */
    if (!ascending)
        n = sort_unique(start, n);
    uint64_t total = 0, covered_to = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t lo = (i > 0 && start[i] < covered_to) ? covered_to : start[i];
        uint64_t hi = start[i] + a->width;
        total += hi - lo;
        covered_to = hi;
    }
    return total;
}

hms_coalesce_rule hms_coalesce_rule_for(const hms_arch *arch, const hms_warp_access *a)
{
    if (a->space == HMS_SPACE_TEXTURE || a->space == HMS_SPACE_READONLY)
        return HMS_COALESCE_SECTORS;
    if (arch->half_warp_segments)
        return HMS_COALESCE_HALF_WARP;
    if (arch->l1_caches_global && a->kind == HMS_ACCESS_LOAD)
        return HMS_COALESCE_L1_LINES;
    return HMS_COALESCE_SECTORS;
}

/* One segment of a half-warp under the cc 1.2/1.3 rules: its index and the
 * lowest and highest byte offset touched inside it. */
typedef struct {
    uint64_t seg;
    uint32_t lo, hi;
} segment_use;

/* CUDA C Programming Guide (3.x), G.3.2.2, cc 1.2/1.3: per half-warp, the
 * segment size is 32 B for 1-byte words, 64 B for 2-byte, 128 B for 4/8/16-
 * byte; every segment holding a requested byte is one transaction, shrunk to
 * the lower or upper half while the touched bytes fit in it, down to 32 B.
 * The guide services segments in the order of the lowest-numbered remaining
 * lane; the set of segments, and so the count and sizes, do not depend on it. */
static void half_warp_transactions(const hms_warp_access *a, int first_lane, hms_coalesce_result *r)
{
    uint32_t seg_bytes = a->width == 1 ? 32 : a->width == 2 ? 64 : 128;
    segment_use use[HALF_WARP * 2];
    size_t n = 0;
    for (int l = first_lane; l < first_lane + HALF_WARP; l++) {
        if (!(a->mask >> l & 1u))
            continue;
        uint64_t b = a->addr[l], end = a->addr[l] + a->width; /* [b, end) */
        while (b < end) {
            uint64_t seg = b / seg_bytes;
            uint64_t seg_end = (seg + 1) * seg_bytes;
            uint64_t piece_end = end < seg_end ? end : seg_end;
            uint32_t lo = (uint32_t)(b - seg * seg_bytes);
            uint32_t hi = (uint32_t)(piece_end - 1 - seg * seg_bytes);
            size_t i = 0;
            while (i < n && use[i].seg != seg)
                i++;
            if (i == n) {
                use[n++] = (segment_use){seg, lo, hi};
            } else {
                if (lo < use[i].lo)
                    use[i].lo = lo;
                if (hi > use[i].hi)
                    use[i].hi = hi;
            }
            b = piece_end;
        }
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t size = seg_bytes, base = 0; /* window [base, base+size) inside the segment */
        while (size > MIN_SEGMENT_BYTES) {
            uint32_t half = size / 2;
            if (use[i].hi < base + half)
                size = half; /* lower half only */
            else if (use[i].lo >= base + half) {
                base += half; /* upper half only */
                size = half;
            } else
                break;
        }
        r->transactions++;
        r->bytes_transferred += size;
    }
}

uint64_t hms_coalesce_sector_bytes(const hms_arch *arch)
{
    return arch->sector_bytes > 0 ? (uint64_t)arch->sector_bytes : DEFAULT_SECTOR_BYTES;
}

static uint64_t line_bytes_of(const hms_arch *arch)
{
    return arch->line_bytes > 0 ? (uint64_t)arch->line_bytes : DEFAULT_LINE_BYTES;
}

bool hms_coalesce_translation_invariant(const hms_arch *arch, uint64_t d)
{
    return d % hms_coalesce_sector_bytes(arch) == 0 && d % line_bytes_of(arch) == 0 &&
           d % HALF_WARP_SEGMENT_MAX == 0;
}

uint64_t hms_coalesce_period(const hms_arch *arch)
{
    uint64_t p = hms_coalesce_sector_bytes(arch), l = line_bytes_of(arch);
    p = p / hms_gcd64(p, l) * l;
    return p / hms_gcd64(p, HALF_WARP_SEGMENT_MAX) * HALF_WARP_SEGMENT_MAX;
}

void hms_coalesce_parts_from_sectors(const hms_arch *arch, const hms_warp_access *a,
                                     const uint64_t *sectors, size_t nsectors,
                                     hms_coalesce_parts *out)
{
    memset(out, 0, sizeof *out);
    if (a->mask == 0)
        return;
    uint64_t sector = hms_coalesce_sector_bytes(arch), line = line_bytes_of(arch);
    out->sectors = (uint32_t)nsectors;
    if (line % sector == 0 && out->sectors < HMS_WARP_UNITS_MAX) {
        /* the lines are the sorted sectors' lines: no second sort */
        out->lines = (uint32_t)hms_units_coarsen(sectors, nsectors, line / sector, NULL);
    } else {
        uint64_t units[HMS_WARP_UNITS_MAX];
        out->lines = (uint32_t)hms_warp_units(a, line, units);
    }
    out->bytes_useful = (uint32_t)distinct_bytes(a);
    if (arch->half_warp_segments) {
        hms_coalesce_result hw;
        memset(&hw, 0, sizeof hw);
        half_warp_transactions(a, 0, &hw);
        half_warp_transactions(a, HALF_WARP, &hw);
        out->half_warp_transactions = hw.transactions;
        out->half_warp_bytes = (uint32_t)hw.bytes_transferred;
    }
}

void hms_coalesce_assemble(const hms_arch *arch, const hms_warp_access *a,
                           const hms_coalesce_parts *parts, hms_coalesce_result *out)
{
    memset(out, 0, sizeof *out);
    out->rule = hms_coalesce_rule_for(arch, a);
    out->active_lanes = (uint32_t)hms_popcount32(a->mask);
    if (out->active_lanes == 0)
        return;
    out->sectors = parts->sectors;
    out->lines = parts->lines;
    out->bytes_requested = (uint64_t)out->active_lanes * a->width;
    out->bytes_useful = parts->bytes_useful;
    switch (out->rule) {
    case HMS_COALESCE_HALF_WARP:
        out->transactions = parts->half_warp_transactions;
        out->bytes_transferred = parts->half_warp_bytes;
        break;
    case HMS_COALESCE_L1_LINES:
        out->transactions = out->lines;
        out->bytes_transferred = out->lines * line_bytes_of(arch);
        break;
    case HMS_COALESCE_SECTORS:
        out->transactions = out->sectors;
        out->bytes_transferred = out->sectors * hms_coalesce_sector_bytes(arch);
        break;
    }
}

bool hms_coalesce_warp(const hms_arch *arch, const hms_warp_access *a, hms_coalesce_result *out)
{
    memset(out, 0, sizeof *out);
    if (!hms_access_check(a, NULL, 0))
        return false;
    hms_coalesce_parts parts;
    uint64_t units[HMS_WARP_UNITS_MAX];
    size_t n = a->mask ? hms_warp_units(a, hms_coalesce_sector_bytes(arch), units) : 0;
    hms_coalesce_parts_from_sectors(arch, a, units, n, &parts);
    hms_coalesce_assemble(arch, a, &parts, out);
    return true;
}

void hms_coalesce_summary_init(hms_coalesce_summary *s)
{
    memset(s, 0, sizeof *s);
    s->exact = true;
}

bool hms_coalesce_summary_add(hms_coalesce_summary *s, const hms_arch *arch,
                              const hms_warp_access *a)
{
    hms_coalesce_result r;
    bool ok = hms_coalesce_warp(arch, a, &r);
    hms_coalesce_summary_add_result(s, a, ok ? &r : NULL);
    return ok;
}

void hms_coalesce_summary_add_result(hms_coalesce_summary *s, const hms_warp_access *a,
                                     const hms_coalesce_result *result)
{
    if (!result) {
        s->invalid++;
        return;
    }
    hms_coalesce_result r = *result;
    if (r.active_lanes == 0)
        return;
    s->requests++;
    s->sectors += r.sectors;
    s->lines += r.lines;
    s->transactions += r.transactions;
    s->bytes_requested += r.bytes_requested;
    s->bytes_useful += r.bytes_useful;
    s->bytes_transferred += r.bytes_transferred;
    if (!a->exact)
        s->exact = false;
}

static double mean(uint64_t sum, uint64_t n)
{
    return n ? (double)sum / (double)n : 0.0;
}

double hms_coalesce_mean_sectors(const hms_coalesce_summary *s)
{
    return mean(s->sectors, s->requests);
}

double hms_coalesce_mean_lines(const hms_coalesce_summary *s)
{
    return mean(s->lines, s->requests);
}

double hms_coalesce_mean_transactions(const hms_coalesce_summary *s)
{
    return mean(s->transactions, s->requests);
}

double hms_coalesce_bw_util(const hms_coalesce_summary *s)
{
    return s->bytes_transferred ? (double)s->bytes_useful / (double)s->bytes_transferred : 1.0;
}
