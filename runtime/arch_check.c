/* Cross-field validation of a parsed architecture and the fields derived from
 * others (cache sets, latencies mirrored from the cache descriptions). The
 * per-value checks (positive, power of two) happen while parsing. */
#include <stdio.h>
#include <string.h>

#include "runtime/arch_internal.h"

typedef struct {
    const hms_arch_src *src;
    const char *origin;
    hms_file_error *err;
} checker;

static bool fail_at(checker *k, const char *path, const char *fmt, const char *detail)
{
    return hms_arch_fail(k->err, k->origin, hms_arch_src_line(k->src, path), path, fmt, detail);
}

#define FAILF(k, path, ...)                                                                        \
    hms_arch_fail((k)->err, (k)->origin, hms_arch_src_line((k)->src, path), path, __VA_ARGS__)

static unsigned log2u(uint64_t v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

/* Geometry of one cache or TLB level; derives `sets` when not written. */
static bool check_geom(checker *k, const char *sect, hms_cache_geom *g, bool tlb)
{
    if (g->size_bytes == 0)
        return true; /* written as "none" */
    char p_ways[64], p_sets[64], p_set0[64], p_low[64], p_size[64];
    snprintf(p_ways, sizeof p_ways, "%s.ways", sect);
    snprintf(p_sets, sizeof p_sets, "%s.sets", sect);
    snprintf(p_set0, sizeof p_set0, "%s.set0_ways", sect);
    snprintf(p_low, sizeof p_low, "%s.set_bit_low", sect);
    snprintf(p_size, sizeof p_size, "%s.%s", sect, tlb ? "entries" : "size");
    uint64_t lines = g->size_bytes / g->line_bytes;
    if ((uint64_t)g->size_bytes % g->line_bytes)
        return FAILF(k, p_size, "%u bytes is not a whole number of %u-byte lines", g->size_bytes,
                     g->line_bytes);
    if (g->set0_ways) {
        /* Unequal sets (Mei & Chu L2 TLB): set 0 larger, all others `ways`. */
        if (!g->sets)
            return FAILF(k, p_set0, "needs %s.sets as well", sect);
        if (g->set0_ways <= g->ways)
            return FAILF(k, p_set0, "%u must exceed %s (%u); leave it out for equal sets",
                         g->set0_ways, p_ways, g->ways);
        uint64_t want = (uint64_t)g->ways * (g->sets - 1) + g->set0_ways;
        if (lines != want)
            return FAILF(k, p_size, "%llu %s do not match set0_ways + (sets - 1) x ways = %llu",
                         (unsigned long long)lines, tlb ? "entries" : "lines",
                         (unsigned long long)want);
    } else if (g->sets) {
        if (lines != (uint64_t)g->sets * g->ways)
            return FAILF(k, p_sets, "%u sets x %u ways = %llu %s, but the size holds %llu", g->sets,
                         g->ways, (unsigned long long)g->sets * g->ways, tlb ? "entries" : "lines",
                         (unsigned long long)lines);
    } else {
        if (lines % g->ways)
            return FAILF(k, p_ways, "%llu %s do not divide into %u ways", (unsigned long long)lines,
                         tlb ? "entries" : "lines", g->ways);
        g->sets = (uint32_t)(lines / g->ways);
    }
    if (g->set_bit_low && (g->set_bit_low < log2u(g->line_bytes) || g->set_bit_low > 40))
        return FAILF(k, p_low, "bit %u is inside the %u-byte line offset or above bit 40",
                     g->set_bit_low, g->line_bytes);
    return true;
}

static bool check_multiprocessor(checker *k, const hms_arch *a)
{
    if (a->warp_size != 32)
        return FAILF(k, "multiprocessor.warp_size", "expected 32 (every CUDA GPU), got %d",
                     a->warp_size);
    long long threads_per_sm = (long long)a->max_warps_per_sm * a->warp_size;
    if (a->max_threads_per_block % a->warp_size || a->max_threads_per_block > threads_per_sm)
        return FAILF(k, "multiprocessor.max_threads_per_block",
                     "%d is not a multiple of 32 at most max_warps x 32 = %lld",
                     a->max_threads_per_block, threads_per_sm);
    if (a->simd_width > a->warp_size)
        return FAILF(k, "multiprocessor.simd_width", "%d exceeds the warp size", a->simd_width);
    if (a->schedulers_per_sm > a->max_warps_per_sm)
        return FAILF(k, "multiprocessor.schedulers_per_sm", "%d exceeds max_warps (%d)",
                     a->schedulers_per_sm, a->max_warps_per_sm);
    if (a->regs_per_block > a->regs_per_sm)
        return FAILF(k, "multiprocessor.registers_per_block", "%d exceeds registers (%d)",
                     a->regs_per_block, a->regs_per_sm);
    if (a->max_regs_per_thread > 255)
        return FAILF(k, "multiprocessor.max_registers_per_thread",
                     "%d exceeds the 255 an instruction can name", a->max_regs_per_thread);
    if (a->reg_alloc_unit > a->regs_per_block)
        return FAILF(k, "multiprocessor.register_alloc_unit", "%d exceeds registers_per_block",
                     a->reg_alloc_unit);
    return true;
}

static bool check_shared(checker *k, const hms_arch *a)
{
    if (a->shared_per_block > a->shared_per_sm)
        return FAILF(k, "shared.per_block", "%d bytes exceed shared.per_sm (%d)",
                     a->shared_per_block, a->shared_per_sm);
    if ((long long)a->shared_per_block + a->shared_reserved_per_block > a->shared_per_sm)
        return FAILF(k, "shared.reserved_per_block",
                     "per_block + reserved_per_block exceed per_sm (%d)", a->shared_per_sm);
    if (a->shared_bank_bytes != 4 && a->shared_bank_bytes != 8)
        return FAILF(k, "shared.bank_bytes", "expected 4 or 8, got %d", a->shared_bank_bytes);
    for (int i = 1; i < HMS_ARCH_MAX_CONFLICT_WAYS; i++)
        if (a->shared_latency[i] < a->shared_latency[i - 1])
            return FAILF(k, "shared.latency",
                         "entry %d (%d cycles) is below entry %d (%d): more conflict ways "
                         "cannot be faster",
                         i + 1, a->shared_latency[i], i, a->shared_latency[i - 1]);
    return true;
}

static bool check_memory(checker *k, hms_arch *a)
{
    if (a->line_bytes % a->sector_bytes)
        return FAILF(k, "global.line_bytes", "%d is not a multiple of sector_bytes (%d)",
                     a->line_bytes, a->sector_bytes);
    if (a->l1_caches_global && a->l1.size_bytes == 0)
        return fail_at(k, "global.l1_caches_global", "%s", "true, but caches.l1 is none");
    struct {
        const char *path;
        hms_cache_geom *g;
        bool tlb;
    } geoms[] = {
        {"caches.l1", &a->l1, false},
        {"caches.texture", &a->tex_l1, false},
        {"caches.readonly", &a->readonly, false},
        {"caches.constant", &a->constant, false},
        {"caches.l2", &a->l2, false},
        {"tlb.l1", &a->tlb_l1, true},
        {"tlb.l2", &a->tlb_l2, true},
    };
    for (size_t i = 0; i < sizeof geoms / sizeof geoms[0]; i++)
        if (!check_geom(k, geoms[i].path, geoms[i].g, geoms[i].tlb))
            return false;
    if (a->dram_bank_bits_mask & a->dram_row_bits_mask)
        return FAILF(k, "dram.row_bits", "bits overlap dram.bank_bits (0x%llx)",
                     (unsigned long long)(a->dram_bank_bits_mask & a->dram_row_bits_mask));
    if (a->dram_row_hit_ns > a->dram_row_miss_ns)
        return fail_at(k, "dram.row_hit_ns", "%s", "a row hit cannot be slower than a row miss");
    if (a->dram_row_miss_ns > a->dram_row_conflict_ns)
        return fail_at(k, "dram.row_conflict_ns", "%s",
                       "a row conflict cannot be faster than a row miss");
    if (a->dram_bandwidth_meas_gbs > a->dram_bandwidth_gbs)
        return fail_at(k, "dram.measured_bandwidth_gbs", "%s",
                       "exceeds the theoretical dram.bandwidth_gbs");
    return true;
}

bool hms_arch_check(hms_arch *a, const hms_arch_src *src, const char *origin, hms_file_error *err)
{
    checker k = {src, origin, err};
    if (!check_multiprocessor(&k, a) || !check_shared(&k, a) || !check_memory(&k, a))
        return false;
    /* HSM: supply = B_max * (c1 * RBH + c2) cannot exceed B_max at RBH = 1. */
    if (a->hsm_c1 + a->hsm_c2 > 1.0)
        return fail_at(&k, "coefficients.hsm.c2", "%s",
                       "c1 + c2 above 1 predicts more than 100% bandwidth utilisation");

    if (a->probe_format > HMS_PROBE_FORMAT)
        return FAILF(&k, "probe.format",
                     "written by a newer hms-probe (format %d; this hms-lint reads up to %d): "
                     "update hms-lint or re-run the probe that came with it",
                     a->probe_format, HMS_PROBE_FORMAT);
    if (a->probe_format > 0 && !a->probe_device[0])
        return fail_at(&k, "probe.device", "%s", "a probe section must name the GPU it measured");

    /* One value, two names: the cache hit latencies are also the access latencies. */
    a->global_latency_l1_hit = (int)a->l1.hit_latency;
    a->global_latency_l2_hit = (int)a->l2.hit_latency;
    a->constant_latency_hit = (int)a->constant.hit_latency;
    a->texture_latency_hit = (int)a->tex_l1.hit_latency;
    return true;
}
