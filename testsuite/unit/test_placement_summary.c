/* The one-pass stream summary the placement re-simulations share
 * (runtime/placement_summary.h): launch shape, each array's space/kind uses,
 * active records and shared extent, and the record check in the same pass. */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime/placement_summary.h"

static hms_warp_access rec(uint32_t array, hms_space space, hms_access_kind kind, uint32_t mask,
                           uint32_t block, uint32_t warp, uint64_t base)
{
    hms_warp_access r;
    memset(&r, 0, sizeof r);
    r.array = array;
    r.space = (uint8_t)space;
    r.kind = (uint8_t)kind;
    r.width = 4;
    r.mask = mask;
    r.block = block;
    r.warp = warp;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        r.addr[l] = base + 4u * (unsigned)l;
    return r;
}

Test(placement_summary, counts_uses_extents_and_launch_shape)
{
    hms_stream s;
    hms_stream_init(&s);
    hms_warp_access v[] = {
        rec(0, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, 0xffffffffu, 0, 0, 4096),
        rec(0, HMS_SPACE_READONLY, HMS_ACCESS_LOAD, 0xffu, 3, 1, 4096),
        rec(1, HMS_SPACE_SHARED, HMS_ACCESS_STORE, 0x6u, 1, 5, 100),     /* lanes 1-2: 104..112 */
        rec(1, HMS_SPACE_SHARED, HMS_ACCESS_LOAD, 0x80000000u, 2, 0, 0), /* lane 31: 124..128 */
        rec(1, HMS_SPACE_SHARED, HMS_ACCESS_LOAD, 0, 9, 0, 0),      /* no lane: no use, no extent */
        rec(4, HMS_SPACE_GLOBAL, HMS_ACCESS_ATOMIC, 0x1u, 0, 2, 0), /* arrays 2, 3 unused */
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        cr_assert(hms_stream_push(&s, &v[i]));
    hms_stream_summary sum;
    char err[256] = "";
    cr_assert(hms_stream_summary_make(&s, &sum, err, sizeof err), "%s", err);
    cr_assert_eq(sum.narrays, 5);
    cr_assert_eq(sum.nblocks, 10, "an inactive record still counts for the launch");
    cr_assert_eq(sum.warps, 6);
    const hms_array_summary *a = sum.arrays;
    cr_assert_eq(a[0].active, 2);
    cr_assert_eq(a[0].uses, hms_summary_use(HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD) |
                                hms_summary_use(HMS_SPACE_READONLY, HMS_ACCESS_LOAD));
    cr_assert_eq(a[0].shared_lo, UINT64_MAX, "no shared record");
    cr_assert_eq(a[1].active, 2);
    cr_assert_eq(a[1].uses, hms_summary_use(HMS_SPACE_SHARED, HMS_ACCESS_STORE) |
                                hms_summary_use(HMS_SPACE_SHARED, HMS_ACCESS_LOAD));
    cr_assert_eq(a[1].shared_lo, 104);
    cr_assert_eq(a[1].shared_hi, 128);
    cr_assert_eq(a[2].uses, 0);
    cr_assert_eq(a[2].active, 0);
    cr_assert_eq(a[4].uses, hms_summary_use(HMS_SPACE_GLOBAL, HMS_ACCESS_STORE),
                 "an atomic takes the path of a store");
    /* the memory path tells loads from the rest only */
    cr_assert_eq(hms_summary_use(HMS_SPACE_GLOBAL, HMS_ACCESS_ATOMIC),
                 hms_summary_use(HMS_SPACE_GLOBAL, HMS_ACCESS_STORE));
    cr_assert_neq(hms_summary_use(HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD),
                  hms_summary_use(HMS_SPACE_GLOBAL, HMS_ACCESS_STORE));
    cr_assert_eq(hms_summary_use(200, HMS_ACCESS_LOAD), hms_summary_use(HMS_SPACE_COUNT, 0),
                 "a space out of range has a bit of its own");
    hms_stream_summary_free(&sum);
    hms_stream_free(&s);
}

Test(placement_summary, a_bad_record_is_named)
{
    hms_stream s;
    hms_stream_init(&s);
    for (uint32_t i = 0; i < 4; i++) {
        hms_warp_access r = rec(i, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, 1, 0, 0, 0);
        if (i == 2)
            r.width = 3;
        cr_assert(hms_stream_push(&s, &r));
    }
    hms_stream_summary sum;
    char err[256] = "";
    cr_assert_not(hms_stream_summary_make(&s, &sum, err, sizeof err));
    cr_assert(strstr(err, "stream record 2 (site 0, array 2)") != NULL, "%s", err);
    cr_assert(strstr(err, "width 3") != NULL, "%s", err);
    cr_assert_null(sum.arrays, "nothing left to free");
    hms_stream_free(&s);
}
