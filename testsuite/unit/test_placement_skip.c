/* The placement re-simulation's set skip (runtime/placement_skip.h) against
 * the full re-simulation: random streams of several arrays in every space,
 * every array moved to every target space, on archs with LRU, Fermi-L1 and
 * random caches and without an L2. The events must be identical, and the
 * skip must have answered records both whole and partly from the log. */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime/arch.h"
#include "runtime/placement_events.h"
#include "runtime/stream.h"

static uint64_t rng = 0x452821e638d01377ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const hms_arch *arch(const char *name)
{
    char err[256];
    const hms_arch *a = hms_arch_get(name, err, sizeof err);
    cr_assert(a, "%s", err);
    return a;
}

/* Array k lives at its own base, offset so that the arrays' L2 and L1 sets
 * overlap in part; `lines` bounds its footprint (small: sets are reused and
 * lines evicted). Lanes go contiguous, strided or scattered; a `narrow`
 * array's records are 32 KB apart, so they share one first-level set with
 * every other narrow array and crowd an L2 set of their own. */
static hms_warp_access record(uint32_t array, hms_space space, uint32_t block, uint32_t warp,
                              uint64_t time, uint64_t lines, bool narrow)
{
    hms_warp_access r;
    memset(&r, 0, sizeof r);
    r.array = array;
    r.site = array * 3 + (uint32_t)(next() % 3);
    r.space = (uint8_t)space;
    r.kind = space == HMS_SPACE_GLOBAL && next() % 4 == 0 ? HMS_ACCESS_STORE : HMS_ACCESS_LOAD;
    r.width = (uint8_t)(4u << (next() % 2));
    r.exact = true;
    r.mask = next() % 5 == 0 ? (uint32_t)next() : UINT32_MAX;
    r.block = block;
    r.warp = warp;
    r.time = time;
    r.extra = next() % 7 == 0 ? (uint32_t)(next() % 3) : 0;
    uint64_t base = space == HMS_SPACE_SHARED ? (uint64_t)array * 4096
                                              : ((uint64_t)array << 26) + array * 37 * 4096ull;
    uint64_t start = base + (next() % lines) * (narrow ? 32768 : 128);
    unsigned how = narrow ? 0 : (unsigned)(next() % 3);
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        uint64_t off = how == 0   ? (uint64_t)l * r.width
                       : how == 1 ? (uint64_t)l * 4 * r.width
                                  : (next() % lines) * 128 + (uint64_t)l % 4 * r.width;
        r.addr[l] = space == HMS_SPACE_SHARED ? base + (start - base + off) % 4096 : start + off;
    }
    return r;
}

static const hms_space spaces[] = {HMS_SPACE_GLOBAL,  HMS_SPACE_GLOBAL,   HMS_SPACE_READONLY,
                                   HMS_SPACE_TEXTURE, HMS_SPACE_CONSTANT, HMS_SPACE_SHARED,
                                   HMS_SPACE_LOCAL};

/* A stream of `arrays` arrays, each in one space, `n` records over 16
 * blocks of 4 warps. */
static void make_stream(hms_stream *s, uint32_t arrays, size_t n, uint64_t lines)
{
    hms_stream_init(s);
    hms_space own[8];
    bool narrow[8];
    for (uint32_t k = 0; k < arrays; k++) {
        own[k] = spaces[next() % (sizeof spaces / sizeof spaces[0])];
        narrow[k] = next() % 2;
    }
    own[0] = HMS_SPACE_GLOBAL; /* at least two global arrays meet in L1 and L2 */
    own[1] = HMS_SPACE_GLOBAL;
    for (size_t i = 0; i < n; i++) {
        uint32_t k = (uint32_t)(next() % arrays);
        hms_warp_access r = record(k, own[k], (uint32_t)(next() % 16), (uint32_t)(next() % 4),
                                   i / 8 + next() % 4, lines, narrow[k]);
        cr_assert(hms_stream_push(s, &r));
    }
}

/* Every array to every target, with and without the skip. */
static size_t deltas; /* runs summed from a replayed run's sums (both memos) */

static void compare(const hms_stream *s, const hms_arch *a, uint32_t arrays, size_t *clean,
                    size_t *mixed)
{
    hms_placement_events_opts skip = {.active_sms = 4, .mlp = 2};
    hms_placement_events_opts full = skip, plain = skip; /* plain: no memo at all */
    full.full_resim = true;
    skip.memo = hms_placement_events_memo_new();
    full.memo = hms_placement_events_memo_new();
    cr_assert(skip.memo && full.memo);
    char err[256];
    for (uint32_t k = 0; k < arrays; k++)
        for (int t = 0; t < HMS_PLACE_COUNT; t++) {
            hms_placement_events e1, e2;
            bool ok1 = hms_placement_events_compute(s, a, k, (hms_placement_space)t, NULL, &skip,
                                                    &e1, err, sizeof err);
            cr_assert(ok1, "%s", err);
            bool ok2 = hms_placement_events_compute(s, a, k, (hms_placement_space)t, NULL, &full,
                                                    &e2, err, sizeof err);
            cr_assert(ok2, "%s", err);
            cr_assert(memcmp(&e1, &e2, sizeof e1) == 0, "%s: array %u to space %d differs", a->name,
                      k, t);
            cr_assert(hms_placement_events_compute(s, a, k, (hms_placement_space)t, NULL, &plain,
                                                   &e2, err, sizeof err),
                      "%s", err);
            cr_assert(memcmp(&e1, &e2, sizeof e1) == 0, "%s: array %u to space %d differs (plain)",
                      a->name, k, t);
        }
    size_t c, m;
    hms_placement_events_memo_skips(full.memo, &c, &m);
    cr_assert_eq(c + m, 0, "the full re-simulation skipped");
    deltas +=
        hms_placement_events_memo_deltas(skip.memo) + hms_placement_events_memo_deltas(full.memo);
    hms_placement_events_memo_skips(skip.memo, &c, &m);
    *clean += c;
    *mixed += m;
    hms_placement_events_memo_free(skip.memo);
    hms_placement_events_memo_free(full.memo);
}

/* The shipped archs, and two with an L2 small enough for the streams to
 * evict from: a random one and an LRU one (where hits reorder a set too). */
Test(placement_skip, same_events_as_full_resimulation)
{
    const char *archs[] = {"h100",  "fermi",  "kepler", "maxwell", "gt200",
                           "fermi", "kepler", "fermi",  "kepler"};
    size_t shipped = 5;
    for (size_t ai = 0; ai < sizeof archs / sizeof archs[0]; ai++) {
        hms_arch small = *arch(archs[ai]);
        if (ai >= shipped) {
            small.l2.size_bytes = ai < shipped + 2 ? 32 * 1024 : 256 * 1024;
            small.l2.sets = 0; /* derived again */
            small.l2.replacement = ai % 2 ? HMS_REPL_LRU : HMS_REPL_RANDOM;
        }
        const hms_arch *a = &small;
        size_t clean = 0, mixed = 0;
        for (int round = 0; round < 6; round++) {
            uint32_t arrays = 3 + (uint32_t)(next() % 4);
            /* small footprints thrash the first-level caches, larger ones spread */
            uint64_t lines = round % 2 ? 64 : 4096;
            hms_stream s;
            make_stream(&s, arrays, 600 + next() % 600, lines);
            compare(&s, a, arrays, &clean, &mixed);
            hms_stream_free(&s);
        }
        cr_assert_gt(clean, 0, "%s: no record answered from the log", archs[ai]);
        cr_assert_gt(mixed, 0, "%s: no record partly simulated", archs[ai]);
    }
    /* the replayed runs' sums worked out from the reference's (delta_run)
     * were compared above with the memo-less runs, which sum every record */
    cr_assert_gt(deltas, 0, "no run summed from a replayed run's sums");
}
