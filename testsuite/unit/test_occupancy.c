/* Occupancy against values worked out by hand with the CUDA Occupancy
 * Calculator's rules (the arithmetic is in each test's comment). */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime/arch.h"
#include "runtime/occupancy.h"

static const hms_arch *arch(const char *name)
{
    char err[640];
    const hms_arch *a = hms_arch_get(name, err, sizeof err);
    cr_assert(a != NULL, "%s", err);
    return a;
}

static hms_occupancy occ(const char *name, int threads, int regs, int shared_static,
                         int shared_dynamic)
{
    hms_occ_input in = {threads, regs, shared_static, shared_dynamic};
    hms_occupancy o;
    char err[256];
    cr_assert(hms_occupancy_compute(arch(name), &in, &o, err, sizeof err), "%s", err);
    return o;
}

static void expect_error(const char *name, int threads, int regs, int shared, const char *text)
{
    hms_occ_input in = {threads, regs, shared, 0};
    hms_occupancy o;
    char err[256];
    cr_assert(!hms_occupancy_compute(arch(name), &in, &o, err, sizeof err));
    cr_assert(strstr(err, text) != NULL, "got: %s", err);
}

Test(occupancy, full_on_sm70)
{
    /* 256 threads = 8 warps: 64 / 8 = 8 blocks by warps. 32 regs x 32 lanes =
     * 1024 per warp; 65536 / 1024 = 64 warps = 8 blocks. No shared. -> 8 blocks,
     * 64 warps, 100%, warps and registers both binding. */
    hms_occupancy o = occ("sm_70", 256, 32, 0, 0);
    cr_assert_eq(o.blocks_per_sm, 8);
    cr_assert_eq(o.warps_per_sm, 64);
    cr_assert_float_eq(o.occupancy, 1.0, 1e-12);
    cr_assert_eq(o.limit, HMS_OCC_LIMIT_WARPS);
    cr_assert_eq(o.limits, HMS_OCC_LIMIT_WARPS | HMS_OCC_LIMIT_REGISTERS);
    cr_assert_eq(o.by_shared, -1);
    cr_assert_eq(o.by_registers, 8);
    cr_assert_eq(o.by_blocks, 32);
    cr_assert_str_eq(hms_occ_limit_name(o.limit), "warps");
}

Test(occupancy, shared_limited_on_sm70)
{
    /* 40 KB per block (a multiple of the 256-byte unit); 96 KB / 40 KB = 2
     * blocks of 4 warps = 8 warps = 12.5%. Warps would allow 16, registers
     * (32 regs) 16. */
    hms_occupancy o = occ("sm_70", 128, 32, 40 * 1024, 0);
    cr_assert_eq(o.blocks_per_sm, 2);
    cr_assert_eq(o.warps_per_sm, 8);
    cr_assert_float_eq(o.occupancy, 0.125, 1e-12);
    cr_assert_eq(o.limit, HMS_OCC_LIMIT_SHARED);
    cr_assert_eq(o.by_warps, 16);
    cr_assert_eq(o.by_registers, 16);
    cr_assert_str_eq(hms_occ_limit_name(o.limit), "shared memory");
}

Test(occupancy, register_limited_on_sm70)
{
    /* 64 regs x 32 = 2048 per warp; 65536 / 2048 = 32 warps = 4 blocks of 8 warps. */
    hms_occupancy o = occ("sm_70", 256, 64, 0, 0);
    cr_assert_eq(o.blocks_per_sm, 4);
    cr_assert_eq(o.warps_per_sm, 32);
    cr_assert_float_eq(o.occupancy, 0.5, 1e-12);
    cr_assert_eq(o.limit, HMS_OCC_LIMIT_REGISTERS);
    cr_assert_eq(o.regs_per_block, 16384);
}

Test(occupancy, register_rounding_and_warp_granularity)
{
    /* 37 regs x 32 = 1184, rounded up to the 256 unit = 1280 per warp;
     * 65536 / 1280 = 51 warps, down to a multiple of 4 = 48; blocks of 3 warps
     * (96 threads) -> 16 blocks, 48 warps, 75%. Without the rounding it would be
     * 55 -> 52 warps -> 17 blocks. */
    hms_occupancy o = occ("v100", 96, 37, 0, 0);
    cr_assert_eq(o.blocks_per_sm, 16);
    cr_assert_eq(o.warps_per_sm, 48);
    cr_assert_float_eq(o.occupancy, 0.75, 1e-12);
    cr_assert_eq(o.limit, HMS_OCC_LIMIT_REGISTERS);
    cr_assert_eq(o.by_warps, 21);
}

Test(occupancy, block_limited_small_blocks)
{
    /* 1-warp blocks: warps allow 64, registers (16 x 32 = 512 per warp) 128,
     * the 32-block cap binds -> 32 warps, 50%. */
    hms_occupancy o = occ("v100", 32, 16, 0, 0);
    cr_assert_eq(o.blocks_per_sm, 32);
    cr_assert_eq(o.warps_per_sm, 32);
    cr_assert_eq(o.limit, HMS_OCC_LIMIT_BLOCKS);
    cr_assert_str_eq(hms_occ_limit_name(o.limit), "blocks");
}

Test(occupancy, partial_warp_counts_as_a_warp)
{
    /* 100 threads occupy 4 warps; 64 / 4 = 16 blocks = 64 warps (registers unknown). */
    hms_occupancy o = occ("v100", 100, 0, 0, 0);
    cr_assert_eq(o.warps_per_block, 4);
    cr_assert_eq(o.blocks_per_sm, 16);
    cr_assert_eq(o.by_registers, -1);
    cr_assert_float_eq(o.occupancy, 1.0, 1e-12);
}

Test(occupancy, sm80_reserves_1kb_per_block)
{
    /* 48 KB dynamic + 1 KB reserved = 50176 B (a multiple of 128); 164 KB =
     * 167936 / 50176 = 3 blocks of 8 warps = 24 warps = 37.5%. */
    hms_occupancy o = occ("a100", 256, 0, 0, 48 * 1024);
    cr_assert_eq(o.shared_per_block, 50176);
    cr_assert_eq(o.blocks_per_sm, 3);
    cr_assert_float_eq(o.occupancy, 0.375, 1e-12);
    cr_assert_eq(o.limit, HMS_OCC_LIMIT_SHARED);
    /* The reservation applies with no shared arrays too: 167936 / 1024 = 164. */
    cr_assert_eq(occ("a100", 256, 0, 0, 0).by_shared, 164);
    /* Static and dynamic add: 24 KB + 24 KB is the same 3 blocks. */
    cr_assert_eq(occ("a100", 256, 0, 24 * 1024, 24 * 1024).blocks_per_sm, 3);
}

Test(occupancy, sm13_allocates_registers_per_block)
{
    /* cc 1.3: 8 warps x 32 x 20 regs = 5120 (a multiple of 512); 16384 / 5120 =
     * 3 blocks = 24 of 32 warps = 75%. With 16 regs: 4096 -> 4 blocks = 100%. */
    hms_occupancy o = occ("gt200", 256, 20, 0, 0);
    cr_assert_eq(o.blocks_per_sm, 3);
    cr_assert_float_eq(o.occupancy, 0.75, 1e-12);
    cr_assert_eq(o.limit, HMS_OCC_LIMIT_REGISTERS);
    o = occ("gt200", 256, 16, 0, 0);
    cr_assert_eq(o.blocks_per_sm, 4);
    cr_assert_float_eq(o.occupancy, 1.0, 1e-12);
    /* 3 warps round up to 4: 4 x 32 x 20 = 2560; 16384 / 2560 = 6 blocks = 18
     * warps (without the rounding: 1920 -> 2048 -> 8 blocks). */
    o = occ("gt200", 96, 20, 0, 0);
    cr_assert_eq(o.blocks_per_sm, 6);
    cr_assert_eq(o.warps_per_sm, 18);
    /* Shared rounds to 512 B: 5000 -> 5120; 16384 / 5120 = 3 blocks. */
    cr_assert_eq(occ("gt200", 64, 0, 5000, 0).by_shared, 3);
}

Test(occupancy, sm21_register_unit_64)
{
    /* 21 regs x 32 = 672 -> 704 (64 unit); 32768 / 704 = 46 warps (even, granularity
     * 2); 6-warp blocks -> 7 blocks = 42 of 48 warps = 87.5%. */
    hms_occupancy o = occ("fermi", 192, 21, 0, 0);
    cr_assert_eq(o.blocks_per_sm, 7);
    cr_assert_eq(o.warps_per_sm, 42);
    cr_assert_float_eq(o.occupancy, 0.875, 1e-12);
    cr_assert_eq(o.limit, HMS_OCC_LIMIT_REGISTERS);
}

Test(occupancy, sm37_register_file_is_twice_kepler)
{
    /* 1024 threads x 64 regs = 65536 per block on both; the K80's 128 K file
     * holds 2 such blocks (100%), the GTX780's 64 K one (50%). */
    cr_assert_eq(occ("k80", 1024, 64, 0, 0).blocks_per_sm, 2);
    cr_assert_float_eq(occ("k80", 1024, 64, 0, 0).occupancy, 1.0, 1e-12);
    cr_assert_eq(occ("kepler", 1024, 64, 0, 0).blocks_per_sm, 1);
    cr_assert_float_eq(occ("kepler", 1024, 64, 0, 0).occupancy, 0.5, 1e-12);
}

Test(occupancy, impossible_blocks_are_errors)
{
    expect_error("v100", 2048, 32, 0, "2048 threads per block: v100 allows 1 to 1024");
    expect_error("v100", 0, 32, 0, "0 threads per block");
    expect_error("v100", 256, 300, 0, "300 registers per thread: v100 allows at most 255");
    expect_error("fermi", 256, 64, 0, "64 registers per thread: fermi allows at most 63");
    expect_error("v100", 256, 32, 100 * 1024,
                 "102400 bytes of shared memory per block: v100 allows at most 98304");
    expect_error("v100", 256, 32, -1, "shared memory per block");
    /* 512 threads x 64 regs = 32768 > the 16384 a GT200 block may have. */
    expect_error("gt200", 512, 64, 0, "need 32768 registers per block: gt200 allows 16384");
    /* 1024 threads x 255 regs -> 8192 per warp x 32 = 262144 > 65536. */
    expect_error("h100", 1024, 255, 0, "need 262144 registers per block");
}
