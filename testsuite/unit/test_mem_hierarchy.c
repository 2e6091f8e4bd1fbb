/* runtime/mem_hierarchy.h: the one cache hierarchy the memory simulation
 * and the placement events share. */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime/arch.h"
#include "runtime/mem_hierarchy.h"

static hms_arch arch_named(const char *name)
{
    char err[256];
    const hms_arch *a = hms_arch_get(name, err, sizeof err);
    cr_assert(a, "%s", err);
    return *a;
}

static hms_warp_access coalesced(uint64_t base, hms_space space, hms_access_kind kind)
{
    hms_warp_access p;
    memset(&p, 0, sizeof p);
    p.mask = 0xffffffffu;
    p.width = 4;
    p.space = (uint8_t)space;
    p.kind = (uint8_t)kind;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        p.addr[l] = base + 4u * (unsigned)l;
    return p;
}

static uint64_t misses;
static bool count_miss(void *ctx, uint64_t addr)
{
    (void)ctx;
    (void)addr;
    misses++;
    return true;
}

Test(mem_hierarchy, paths_by_space_and_kind)
{
    hms_arch a = arch_named("kepler"); /* L1 serves local, not global */
    cr_expect_eq(hms_mem_path(&a, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD), HMS_FL_NONE);
    cr_expect_eq(hms_mem_path(&a, HMS_SPACE_LOCAL, HMS_ACCESS_STORE), HMS_FL_L1);
    cr_expect_eq(hms_mem_path(&a, HMS_SPACE_CONSTANT, HMS_ACCESS_LOAD), HMS_FL_CONST);
    cr_expect_eq(hms_mem_path(&a, HMS_SPACE_READONLY, HMS_ACCESS_LOAD), HMS_FL_RO);
    hms_arch f = arch_named("fermi"); /* L1 caches global loads, not stores */
    cr_expect_eq(hms_mem_path(&f, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD), HMS_FL_L1);
    cr_expect_eq(hms_mem_path(&f, HMS_SPACE_GLOBAL, HMS_ACCESS_STORE), HMS_FL_NONE);
}

Test(mem_hierarchy, second_read_hits_first_level_and_misses_reach_dram_once)
{
    hms_arch a = arch_named("fermi");
    hms_mem_hier h;
    char err[256];
    cr_assert(hms_mem_hier_init(&h, &a, 2, err, sizeof err), "%s", err);
    hms_cache *fl = NULL;
    cr_assert(hms_mem_first_level(&h, HMS_FL_L1, 0, &fl));
    cr_assert_not_null(fl);
    hms_warp_access p = coalesced(4096, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD);
    hms_mem_outcome o = {0};
    misses = 0;
    cr_assert(hms_mem_access(&h, fl, &p, count_miss, NULL, &o));
    cr_expect_eq(o.fl_misses, 1); /* one 128-byte line */
    cr_expect_eq(o.l2_misses, misses);
    cr_expect_gt(misses, 0);
    memset(&o, 0, sizeof o);
    cr_assert(hms_mem_access(&h, fl, &p, count_miss, NULL, &o));
    cr_expect_eq(o.fl_hits, 1);
    cr_expect_eq(o.l2_hits + o.l2_misses, 0); /* served by L1 */
    hms_mem_hier_reset(&h);                   /* emptied: misses again */
    memset(&o, 0, sizeof o);
    cr_assert(hms_mem_access(&h, fl, &p, count_miss, NULL, &o));
    cr_expect_eq(o.fl_misses, 1);
    hms_mem_hier_free(&h);
}

Test(mem_hierarchy, unified_l1_texture_shares_one_cache)
{
    hms_arch a = arch_named("v100");
    cr_assert(a.unified_l1_texture);
    hms_mem_hier h;
    char err[256];
    cr_assert(hms_mem_hier_init(&h, &a, 1, err, sizeof err), "%s", err);
    hms_cache *l1 = NULL, *tex = NULL, *ro = NULL;
    cr_assert(hms_mem_first_level(&h, HMS_FL_L1, 0, &l1));
    cr_assert(hms_mem_first_level(&h, HMS_FL_TEX, 0, &tex));
    cr_assert(hms_mem_first_level(&h, HMS_FL_RO, 0, &ro));
    cr_expect_eq(l1, tex);
    cr_expect_eq(l1, ro);
    hms_mem_hier_free(&h);
}

Test(mem_hierarchy, bad_geometry_is_rejected_naming_the_cache)
{
    hms_arch a = arch_named("kepler");
    a.tex_l1.line_bytes = 48; /* not a power of two */
    hms_mem_hier h;
    char err[256] = "";
    cr_assert_not(hms_mem_hier_init(&h, &a, 1, err, sizeof err));
    cr_expect(strstr(err, "texture cache") != NULL, "%s", err);
    cr_expect(strstr(err, "power of two") != NULL, "%s", err);
}
