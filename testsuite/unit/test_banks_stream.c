/* hms_banks_stream (runtime/banks_stream.c) keeps each access pattern's
 * bank result and reuses it for records at a base moved by a multiple of
 * hms_banks_period: every record's result must be hms_banks_warp's, on
 * streams that repeat patterns at many bases, on every bank layout. */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime/banks.h"

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

/* A random shared record: a strided, broadcast or scattered pattern of a
 * random width, at a random base (some far above 4 GiB, some near the top
 * of the address space). */
static hms_warp_access random_record(uint64_t *seed)
{
    static const uint8_t widths[] = {1, 2, 4, 8, 16, 3};
    hms_warp_access w;
    memset(&w, 0, sizeof w);
    w.space = HMS_SPACE_SHARED;
    w.kind = HMS_ACCESS_LOAD;
    w.width = widths[next(seed) % 6];
    w.mask = next(seed) % 3 == 0 ? (uint32_t)next(seed) : UINT32_MAX;
    uint64_t base = (next(seed) % 64) * 4;
    switch (next(seed) % 4) {
    case 0:
        base += (next(seed) % 32) * 512; /* the same pattern at other periods */
        break;
    case 1:
        base += (uint64_t)(next(seed) % 8) << 33; /* offsets above 32 bits */
        break;
    case 2:
        base = UINT64_MAX - 200 + next(seed) % 64; /* lanes near the top (some wrap) */
        break;
    default:
        break;
    }
    unsigned kind = (unsigned)(next(seed) % 3), stride = 1u << (next(seed) % 7);
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        if (kind == 0)
            w.addr[l] = base + (uint64_t)l * stride;
        else if (kind == 1)
            w.addr[l] = base + (uint64_t)(l % 4) * 4;
        else
            w.addr[l] = base + next(seed) % 1024;
    }
    if (next(seed) % 8 == 0)
        w.space = HMS_SPACE_GLOBAL; /* not a shared access: left not ok */
    return w;
}

static void check_layout(int banks, int bank_bytes, int cc_major)
{
    hms_arch a;
    memset(&a, 0, sizeof a);
    a.shared_banks = banks;
    a.shared_bank_bytes = bank_bytes;
    a.cc_major = cc_major;
    a.warp_size = 32;
    a.simd_width = 32;
    uint64_t seed = (uint64_t)banks * 131 + (uint64_t)bank_bytes * 7 + (uint64_t)cc_major;
    hms_stream s;
    hms_stream_init(&s);
    hms_warp_access kept[16];
    for (int i = 0; i < 16; i++)
        kept[i] = random_record(&seed);
    for (int i = 0; i < 6000; i++) {
        /* mostly a kept pattern moved by a multiple of the period or not */
        hms_warp_access w = random_record(&seed);
        if (next(&seed) % 4 != 0) {
            w = kept[next(&seed) % 16];
            uint64_t move = (next(&seed) % 5) * hms_banks_period(&a);
            if (next(&seed) % 3 == 0)
                move += 4; /* another pattern: not a whole period */
            for (int l = 0; l < HMS_WARP_LANES; l++)
                w.addr[l] += move;
        }
        cr_assert(hms_stream_push(&s, &w));
    }
    hms_bank_memo *m = NULL;
    cr_assert(hms_banks_stream(&a, &s, &m));
    size_t computed = 0;
    for (size_t i = 0; i < s.n; i++) {
        const hms_warp_access *w = &s.v[i];
        hms_bank_result want;
        memset(&want, 0, sizeof want);
        bool ok = w->space == HMS_SPACE_SHARED && w->mask && hms_banks_warp(&a, w, &want);
        computed += ok;
        cr_assert_eq(m[i].ok, ok, "banks %d x %d B, record %zu", banks, bank_bytes, i);
        cr_assert_eq(memcmp(&m[i].r, &want, sizeof want), 0,
                     "banks %d x %d B cc %d, record %zu: ways %u vs %u, wavefronts %u vs %u, "
                     "cycles %u vs %u",
                     banks, bank_bytes, cc_major, i, m[i].r.ways, want.ways, m[i].r.wavefronts,
                     want.wavefronts, m[i].r.cycles, want.cycles);
    }
    cr_assert_gt(computed, 1000);
    /* the pattern table alone (what the padding search uses): any record,
     * shared or not, with or without an active lane, as hms_banks_warp */
    hms_bank_patterns *pat = hms_bank_patterns_new(&a);
    cr_assert(pat);
    for (size_t i = 0; i < s.n; i++) {
        hms_warp_access w = s.v[i];
        if (i % 97 == 0)
            w.mask = 0;
        hms_bank_result want, got;
        bool ok = hms_banks_warp(&a, &w, &want);
        cr_assert_eq(hms_bank_patterns_warp(pat, &w, &got), ok, "record %zu", i);
        cr_assert_eq(memcmp(&got, &want, sizeof want), 0, "banks %d x %d B cc %d, record %zu",
                     banks, bank_bytes, cc_major, i);
    }
    hms_bank_patterns_free(pat);
    free(m);
    hms_stream_free(&s);
}

Test(banks_stream, every_record_as_hms_banks_warp_gives_it)
{
    check_layout(32, 4, 7);
    check_layout(32, 8, 3); /* Kepler 8-byte mode */
    check_layout(32, 4, 2); /* Fermi: pass cycles by values */
    check_layout(16, 4, 1); /* cc 1.x half-warps, sub-word reads */
    check_layout(24, 4, 7); /* a bank count that is no power of two */
}
