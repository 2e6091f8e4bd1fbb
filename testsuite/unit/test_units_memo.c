/* The per-record units memo (runtime/units_memo.h) against the functions it
 * stands in for: every row against hms_warp_units and every coalescing
 * against hms_coalesce_warp, on random records of every width and mask at
 * many unit sizes, for the records themselves, for copies moved to other
 * spaces and addresses, and through a sub-memo; and the figures of its
 * consumers (placement re-simulation, CuMAPz transfer) the same with and
 * without it. */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime/arch.h"
#include "runtime/coalesce.h"
#include "runtime/cumapz.h"
#include "runtime/placement_events.h"
#include "runtime/units_memo.h"
#include "testsuite/support/xorshift.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
    return hms_xorshift64(&rng);
}

static const hms_arch *arch(const char *name)
{
    char err[256];
    const hms_arch *a = hms_arch_get(name, err, sizeof err);
    cr_assert(a, "%s", err);
    return a;
}

/* A record of a random shape: coalesced, strided, descending, broadcast,
 * scattered or straddling; any width; full, partial or empty mask. */
static hms_warp_access random_record(uint32_t array)
{
    static const unsigned widths[] = {1, 2, 4, 8, 16};
    static const hms_space spaces[] = {HMS_SPACE_GLOBAL, HMS_SPACE_READONLY, HMS_SPACE_TEXTURE,
                                       HMS_SPACE_LOCAL,  HMS_SPACE_CONSTANT, HMS_SPACE_SHARED};
    hms_warp_access a;
    memset(&a, 0, sizeof a);
    a.array = array;
    a.site = array;
    a.space = (uint8_t)spaces[array % 6];
    a.kind = next() % 3 == 0 ? HMS_ACCESS_STORE : HMS_ACCESS_LOAD;
    a.exact = true;
    a.width = (uint8_t)widths[next() % 5];
    unsigned m = (unsigned)(next() % 8);
    a.mask = m == 0 ? 0 : m < 3 ? (uint32_t)next() : UINT32_MAX;
    a.block = (uint32_t)(next() % 4);
    a.warp = (uint32_t)(next() % 2);
    a.time = next() % 64;
    uint64_t base = (uint64_t)array << 20 | (next() % 8192) * (next() % 2 ? 1 : a.width);
    unsigned shape = (unsigned)(next() % 6);
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        switch (shape) {
        case 0: /* unit stride */
            a.addr[l] = base + (uint64_t)l * a.width;
            break;
        case 1: /* strided by rows */
            a.addr[l] = base + (uint64_t)l * (next() % 2 ? 132 : 1024);
            break;
        case 2: /* descending */
            a.addr[l] = base + (uint64_t)(31 - l) * a.width;
            break;
        case 3: /* broadcast */
            a.addr[l] = base;
            break;
        case 4: /* scattered over a few KB */
            a.addr[l] = base + next() % 4096;
            break;
        default: /* unaligned, straddling */
            a.addr[l] = base + 3 + (uint64_t)l * (a.width + 1);
            break;
        }
    }
    return a;
}

static void random_stream(hms_stream *s, size_t n, uint32_t arrays)
{
    hms_stream_init(s);
    for (size_t i = 0; i < n; i++) {
        hms_warp_access r = random_record((uint32_t)(next() % arrays));
        cr_assert(hms_stream_push(s, &r));
    }
}

/* Unit sizes, more than the memo keeps, in an order where a later size is
 * a multiple of an earlier one (rows coarsened) and one where it is not. */
static const uint64_t sizes[] = {32, 128, 4096, 1, 4, 96, 64, 2};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static void expect_units(hms_units_memo *m, size_t i, const hms_warp_access *p, uint64_t unit)
{
    uint64_t want[HMS_WARP_UNITS_MAX], buf[HMS_WARP_UNITS_MAX];
    size_t nw = hms_warp_units(p, unit, want);
    const uint64_t *got;
    size_t ng = hms_units_of(m, i, p, unit, buf, &got);
    cr_assert_eq(ng, nw, "record %zu unit %llu: %zu units, want %zu", i, (unsigned long long)unit,
                 ng, nw);
    cr_assert(ng == 0 || memcmp(got, want, ng * sizeof *got) == 0,
              "record %zu unit %llu: units differ", i, (unsigned long long)unit);
    cr_assert_eq(hms_units_count(m, i, p, unit), nw);
}

static void expect_coalesce(hms_units_memo *m, const hms_arch *a, size_t i,
                            const hms_warp_access *p)
{
    hms_coalesce_result want, got;
    bool okw = hms_coalesce_warp(a, p, &want);
    bool okg = hms_units_coalesce(m, a, i, p, &got);
    cr_assert_eq(okg, okw, "record %zu on %s: valid %d, want %d", i, a->name, okg, okw);
    cr_assert(memcmp(&got, &want, sizeof got) == 0, "record %zu on %s: result differs", i, a->name);
}

Test(units_memo, rows_match_warp_units_at_every_size)
{
    hms_stream s;
    random_stream(&s, 3000, 6);
    for (int order = 0; order < 2; order++) {
        hms_units_memo *m = hms_units_memo_new(&s);
        cr_assert(m);
        uint64_t buf[HMS_WARP_UNITS_MAX];
        for (size_t i = 0; order == 1 && i < s.n; i += 2) /* counts kept before rows */
            cr_assert_eq(hms_units_count(m, i, &s.v[i], 32), hms_warp_units(&s.v[i], 32, buf));
        for (int pass = 0; pass < 2; pass++) /* computed, then read back */
            for (size_t k = 0; k < NSIZES; k++) {
                uint64_t unit = sizes[order ? NSIZES - 1 - k : k];
                for (size_t i = 0; i < s.n; i++)
                    expect_units(m, i, &s.v[i], unit);
            }
        hms_units_memo_free(m);
    }
    hms_stream_free(&s);
}

Test(units_memo, coalescing_matches_on_every_rule)
{
    const char *names[] = {"h100", "fermi", "gt200", "kepler"};
    hms_stream s;
    random_stream(&s, 2000, 6);
    hms_units_memo *m = hms_units_memo_new(&s);
    cr_assert(m);
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) /* keyed on the first */
            for (size_t i = 0; i < s.n; i++)
                expect_coalesce(m, arch(names[k]), i, &s.v[i]);
    hms_units_memo_free(m);
    hms_stream_free(&s);
}

/* A stream that repeats a few records' lane patterns at bases moved by
 * multiples of hms_coalesce_period (one parts pattern each: the memo's
 * pattern table answers them) and by offsets that are not (other patterns):
 * every record's coalescing as hms_coalesce_warp's, on each rule. */
Test(units_memo, repeated_patterns_at_moved_bases)
{
    const char *names[] = {"h100", "fermi", "gt200", "kepler"};
    static const uint64_t off[] = {0, 4, 32, 64, 96};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const hms_arch *a = arch(names[k]);
        uint64_t period = hms_coalesce_period(a);
        cr_assert(period > 0 && hms_coalesce_translation_invariant(a, period));
        cr_assert(!hms_coalesce_translation_invariant(a, period / 2), "%s: not the least", a->name);
        hms_warp_access kept[12];
        for (size_t j = 0; j < 12; j++)
            kept[j] = random_record((uint32_t)(j % 5)); /* no shared records: those fail */
        hms_stream s;
        hms_stream_init(&s);
        for (size_t i = 0; i < 3000; i++) {
            hms_warp_access r = kept[next() % 12];
            uint64_t move = (next() % 64) * period + off[next() % 5];
            for (int l = 0; l < HMS_WARP_LANES; l++)
                r.addr[l] += move;
            cr_assert(hms_stream_push(&s, &r));
        }
        hms_units_memo *m = hms_units_memo_new(&s);
        cr_assert(m);
        for (int pass = 0; pass < 2; pass++)
            for (size_t i = 0; i < s.n; i++)
                expect_coalesce(m, a, i, &s.v[i]);
        hms_units_memo_free(m);
        hms_stream_free(&s);
    }
}

/* Copies as the placement model makes them (another space; addresses moved
 * by a region offset, by one that splits units, or not at all) and ones
 * that are not copies of the record asked about. */
Test(units_memo, moved_copies_and_strangers)
{
    static const uint64_t offsets[] = {0, 1ull << 40, 3ull << 40, 96, 4, 1ull << 12};
    const hms_arch *archs[] = {arch("h100"), arch("gt200")};
    hms_stream s;
    random_stream(&s, 1500, 6);
    for (size_t ai = 0; ai < 2; ai++) {
        hms_units_memo *m = hms_units_memo_new(&s);
        cr_assert(m);
        for (size_t i = 0; i < s.n; i++) {
            for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
                hms_warp_access p = s.v[i];
                p.space = (uint8_t)(next() % HMS_SPACE_COUNT);
                for (int l = 0; l < HMS_WARP_LANES; l++)
                    p.addr[l] += offsets[o];
                expect_coalesce(m, archs[ai], i, &p);
                for (size_t k = 0; k < NSIZES; k++)
                    expect_units(m, i, &p, sizes[k]);
            }
            /* one lane moved differently, and another record entirely */
            hms_warp_access q = s.v[i];
            q.addr[5] += 1ull << 40;
            expect_coalesce(m, archs[ai], i, &q);
            expect_units(m, i, &q, 32);
            const hms_warp_access *other = &s.v[(i + 7) % s.n];
            expect_coalesce(m, archs[ai], i, other);
            expect_units(m, i, other, 128);
        }
        hms_units_memo_free(m);
    }
    hms_stream_free(&s);
}

/* Malformed records (a width of 3, lanes that wrap the address space, a
 * copy moved past the top) give what the plain functions give. */
Test(units_memo, malformed_records)
{
    const hms_arch *a = arch("h100");
    hms_stream s;
    hms_stream_init(&s);
    hms_warp_access r = random_record(0);
    r.mask = UINT32_MAX;
    r.width = 3;
    cr_assert(hms_stream_push(&s, &r));
    r = random_record(0);
    r.mask = UINT32_MAX;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        r.addr[l] = UINT64_MAX - 40 + (uint64_t)l;
    cr_assert(hms_stream_push(&s, &r));
    r = random_record(0);
    cr_assert(hms_stream_push(&s, &r));
    hms_units_memo *m = hms_units_memo_new(&s);
    for (size_t i = 0; i < s.n; i++) {
        expect_coalesce(m, a, i, &s.v[i]);
        for (size_t k = 0; k < NSIZES; k++)
            expect_units(m, i, &s.v[i], sizes[k]);
    }
    hms_warp_access p = s.v[2];
    p.mask = UINT32_MAX;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        p.addr[l] = (UINT64_MAX - 4096 + (uint64_t)l * 128) & ~(uint64_t)127;
    hms_warp_access q = p;
    q.addr[31] = UINT64_MAX - 2; /* wraps */
    expect_coalesce(m, a, 2, &q);
    expect_units(m, 2, &q, 32);
    hms_units_memo_free(m);
    hms_stream_free(&s);
}

/* A sub-memo of a thinned copy reads its parent's rows; a wrong source
 * index is caught (the record differs) and answered right. */
Test(units_memo, sub_memo_reads_the_parent)
{
    const hms_arch *a = arch("h100");
    hms_stream s, t;
    random_stream(&s, 1200, 6);
    hms_stream_init(&t);
    size_t src[600];
    for (size_t j = 0; j < 600; j++) {
        src[j] = (j * 2 + 1) % s.n;
        cr_assert(hms_stream_push(&t, &s.v[src[j]]));
    }
    src[10] = 0; /* lies */
    src[11] = SIZE_MAX;
    hms_units_memo *parent = hms_units_memo_new(&s);
    hms_units_memo *sub = hms_units_memo_new_sub(&t, parent, src);
    cr_assert(parent && sub);
    for (int pass = 0; pass < 2; pass++)
        for (size_t j = 0; j < t.n; j++) {
            expect_coalesce(sub, a, j, &t.v[j]);
            expect_units(sub, j, &t.v[j], 32);
            expect_units(sub, j, &t.v[j], 128);
            expect_units(parent, src[j] < s.n ? src[j] : 0, &s.v[src[j] < s.n ? src[j] : 0], 128);
        }
    hms_units_memo_free(sub);
    hms_units_memo_free(parent);
    hms_stream_free(&t);
    hms_stream_free(&s);
}

/* Every array in every space of the placement model, and the CuMAPz
 * transfer: the same figures with the memo and without. */
Test(units_memo, consumers_same_with_and_without)
{
    const char *names[] = {"h100", "fermi", "gt200", "kepler"};
    hms_stream s;
    random_stream(&s, 1500, 6);
    char err[256];
    int compared = 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const hms_arch *a = arch(names[k]);
        hms_units_memo *m = hms_units_memo_new(&s);
        cr_assert(m);
        hms_placement_events_opts plain = {0}, memo = {0};
        plain.active_sms = memo.active_sms = 4;
        memo.units = m;
        for (uint32_t arr = 0; arr < 6; arr++)
            for (int sp = 0; sp < HMS_PLACE_COUNT; sp++) {
                hms_placement_events e1, e2;
                bool ok1 = hms_placement_events_compute(&s, a, arr, (hms_placement_space)sp, NULL,
                                                        &plain, &e1, err, sizeof err);
                bool ok2 = hms_placement_events_compute(&s, a, arr, (hms_placement_space)sp, NULL,
                                                        &memo, &e2, err, sizeof err);
                cr_assert_eq(ok1, ok2);
                cr_assert(memcmp(&e1, &e2, sizeof e1) == 0, "%s array %u space %d differs",
                          names[k], arr, sp);
                compared += ok1;
            }
        uint64_t acc1, tr1, acc2, tr2;
        cr_assert_eq(hms_cumapz_stream_transfer(a, &s, NULL, &acc1, &tr1),
                     hms_cumapz_stream_transfer(a, &s, m, &acc2, &tr2));
        cr_assert_eq(acc1, acc2);
        cr_assert_eq(tr1, tr2);
        cr_assert_gt(tr1, 0);
        hms_units_memo_free(m);
    }
    cr_expect_gt(compared, 40);
    hms_stream_free(&s);
}

/* Distinct bytes (bytes_useful) against every byte of every lane listed,
 * sorted and counted: spans inside and beyond the bitmap's. */
Test(units_memo, bytes_useful_matches_a_count_of_every_byte)
{
    const hms_arch *a = arch("h100");
    for (int i = 0; i < 4000; i++) {
        hms_warp_access r = random_record((uint32_t)(i % 6));
        if (i % 3 == 0) /* beyond any small span */
            for (int l = 0; l < HMS_WARP_LANES; l++)
                r.addr[l] += (next() % 64) << 14;
        uint64_t bytes[HMS_WARP_LANES * HMS_ACCESS_MAX_WIDTH];
        size_t n = 0;
        for (int l = 0; l < HMS_WARP_LANES; l++)
            for (unsigned b = 0; (r.mask >> l & 1u) && b < r.width; b++)
                bytes[n++] = r.addr[l] + b;
        for (size_t x = 1; x < n; x++) /* insertion sort: small and obviously right */
            for (size_t y = x; y > 0 && bytes[y - 1] > bytes[y]; y--) {
                uint64_t t = bytes[y];
                bytes[y] = bytes[y - 1];
                bytes[y - 1] = t;
            }
        uint64_t distinct = 0;
        for (size_t x = 0; x < n; x++)
            distinct += x == 0 || bytes[x] != bytes[x - 1];
        hms_coalesce_result c;
        cr_assert(hms_coalesce_warp(a, &r, &c));
        cr_assert_eq(c.bytes_useful, distinct, "record %d: %llu distinct bytes, want %llu", i,
                     (unsigned long long)c.bytes_useful, (unsigned long long)distinct);
    }
}
