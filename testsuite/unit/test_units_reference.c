/* The fast paths of the warp-unit and bank-word counts (runtime/coalesce.c:
 * ascending lanes need no sort; runtime/banks.c: distinct words listed per
 * bank) against plain references written here the obvious way: every unit
 * of every active lane, sorted and made distinct. Random records mix
 * ascending, descending, shuffled, broadcast and straddling lanes. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/banks.h"
#include "runtime/coalesce.h"
#include "testsuite/support/xorshift.h"

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t next(void)
{
    return hms_xorshift64(&rng);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Every unit of every lane in `lanes`, sorted, repeats dropped. */
static size_t reference_units(const hms_warp_access *a, uint32_t lanes, uint64_t unit,
                              uint64_t *out)
{
    size_t n = 0;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        if (lanes >> l & 1u)
            for (uint64_t u = a->addr[l] / unit; u <= (a->addr[l] + a->width - 1) / unit; u++)
                out[n++] = u;
    qsort(out, n, sizeof *out, cmp_u64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || out[i] != out[m - 1])
            out[m++] = out[i];
    return m;
}

/* A record of one of several shapes (pattern from the random stream). */
static hms_warp_access random_record(void)
{
    static const unsigned widths[] = {1, 2, 4, 8, 16};
    hms_warp_access a;
    memset(&a, 0, sizeof a);
    a.space = HMS_SPACE_SHARED;
    a.width = (uint8_t)widths[next() % 5];
    a.mask = next() % 4 == 0 ? (uint32_t)next() : UINT32_MAX;
    uint64_t base = (next() % 4096) * (next() % 2 ? 1 : a.width);
    int64_t stride = (int64_t)(next() % 5) * a.width - (next() % 3 == 0 ? 3 * a.width : 0);
    unsigned shape = (unsigned)(next() % 5);
    for (int l = 0; l < HMS_WARP_LANES; l++) {
        switch (shape) {
        case 0: /* strided, maybe descending or broadcast */
            a.addr[l] = base + 4096 + (uint64_t)((int64_t)l * stride);
            break;
        case 1: /* transposed: lanes step by rows */
            a.addr[l] = base + (uint64_t)(l % 8) * 132 + (uint64_t)(l / 8) * a.width;
            break;
        case 2: /* random within a few lines */
            a.addr[l] = base + next() % 512;
            break;
        case 3: /* pairs of lanes on one address, ascending */
            a.addr[l] = base + (uint64_t)(l / 2) * a.width;
            break;
        default: /* unaligned, ascending, straddling units */
            a.addr[l] = base + 3 + (uint64_t)l * (a.width + 1);
            break;
        }
    }
    return a;
}

Test(units_reference, warp_units_match_a_sort_of_every_lanes_units)
{
    static const uint64_t units[] = {1, 2, 4, 8, 32, 128, 3, 96};
    uint64_t got[HMS_WARP_UNITS_MAX], want[HMS_WARP_UNITS_MAX];
    for (int i = 0; i < 20000; i++) {
        hms_warp_access a = random_record();
        uint64_t unit = units[next() % 8];
        uint32_t lanes = next() % 3 == 0 ? a.mask & (uint32_t)next() : a.mask;
        size_t n = hms_warp_units_of(&a, lanes, unit, got);
        size_t m = reference_units(&a, lanes, unit, want);
        cr_assert_eq(n, m, "record %d, unit %llu: %zu units, want %zu", i, (unsigned long long)unit,
                     n, m);
        cr_assert_arr_eq(got, want, n * sizeof *got, "record %d, unit %llu", i,
                         (unsigned long long)unit);
    }
}

/* Passes of one phase: the most distinct words any bank holds. */
static uint32_t reference_passes(const hms_warp_access *a, uint32_t lanes, uint32_t banks,
                                 uint32_t bank_bytes)
{
    uint64_t w[HMS_WARP_UNITS_MAX];
    size_t n = reference_units(a, lanes, bank_bytes, w);
    uint32_t most = 0;
    for (uint32_t b = 0; b < banks; b++) {
        uint32_t k = 0;
        for (size_t i = 0; i < n; i++)
            k += w[i] % banks == b;
        most = k > most ? k : most;
    }
    return most;
}

Test(units_reference, bank_passes_match_distinct_words_per_bank)
{
    static const struct {
        int banks, bytes;
    } layouts[] = {{32, 4}, {32, 8}, {16, 4}, {24, 4}};
    for (int i = 0; i < 20000; i++) {
        hms_warp_access a = random_record();
        hms_arch arch;
        memset(&arch, 0, sizeof arch);
        int k = (int)(next() % 4);
        arch.shared_banks = layouts[k].banks;
        arch.shared_bank_bytes = layouts[k].bytes;
        if (arch.shared_banks == 16 && a.width < 4)
            continue; /* cc 1.x sub-word rule: another path */
        hms_bank_result r;
        cr_assert(hms_banks_warp(&arch, &a, &r));
        /* the phases as banks.h states them */
        uint32_t banks = (uint32_t)arch.shared_banks, bytes = (uint32_t)arch.shared_bank_bytes;
        uint32_t per = banks * bytes / a.width, cap = banks < 32 ? banks : 32;
        per = per > cap ? cap : per ? per : 1;
        uint32_t wavefronts = 0, ways = 0;
        for (uint32_t first = 0; first < HMS_WARP_LANES; first += per) {
            uint32_t group = per >= 32 ? UINT32_MAX : ((1u << per) - 1u) << first;
            if (!(a.mask & group))
                continue;
            uint32_t p = reference_passes(&a, a.mask & group, banks, bytes);
            wavefronts += p;
            ways = p > ways ? p : ways;
        }
        cr_assert_eq(r.wavefronts, wavefronts, "record %d, layout %d", i, k);
        cr_assert_eq(r.ways, ways, "record %d, layout %d", i, k);
    }
}
