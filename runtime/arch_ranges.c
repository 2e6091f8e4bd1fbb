/* Plausible ranges of architecture values: legal YAML such as
 * `dram.channels: 2147483647` or `dram.row_bytes: 1` describes no GPU and
 * would drive the models into absurd allocations or divisions. Each bound
 * is far beyond any GPU built so far (H100: 132 SMs, 64 warps per SM,
 * 50 MB L2, 2 KiB DRAM rows), so a real or future part still passes. */
#include <stdio.h>
#include <string.h>

#include "runtime/arch_internal.h"

typedef struct {
    const char *path; /* a "*" segment matches any one segment */
    double lo, hi;
} value_range;

static const value_range ranges[] = {
    {"multiprocessor.count", 1, 4096},
    {"multiprocessor.clock_ghz", 0.01, 20},
    {"multiprocessor.warp_size", 1, 64},
    {"multiprocessor.max_warps", 1, 1024},
    {"multiprocessor.max_blocks", 1, 1024},
    {"multiprocessor.max_threads_per_block", 1, 8192},
    {"multiprocessor.simd_width", 1, 64},
    {"multiprocessor.schedulers_per_sm", 1, 1024},
    {"multiprocessor.fp32_lanes", 1, 4096},
    {"multiprocessor.registers", 1, 16 << 20},
    {"multiprocessor.registers_per_block", 1, 16 << 20},
    {"multiprocessor.max_registers_per_thread", 1, 4096},
    {"multiprocessor.register_alloc_unit", 1, 1 << 16},
    {"multiprocessor.warp_alloc_granularity", 1, 1024},
    {"shared.per_sm", 1, 64 << 20},
    {"shared.per_block", 1, 64 << 20},
    {"shared.alloc_unit", 1, 1 << 20},
    {"shared.reserved_per_block", 0, 1 << 20},
    {"shared.banks", 1, 1024},
    {"shared.bank_bytes", 1, 64},
    {"shared.latency", 0, 1e6},
    {"global.sector_bytes", 4, 4096},
    {"global.line_bytes", 4, 65536},
    {"global.dram_latency", 1, 1e6},
    {"global.tlb_miss_latency", 0, 1e6},
    {"caches.*.size", 1, 256 << 20},
    {"caches.*.line", 4, 65536},
    {"caches.*.ways", 1, 4096},
    {"caches.*.sets", 1, 1 << 24},
    {"caches.*.set_bit_low", 0, 63},
    {"caches.*.set0_ways", 1, 4096},
    {"caches.*.latency", 0, 1e6},
    {"caches.*.miss_latency", 1, 1e6},
    {"caches.l2.bytes_per_clock", 1e-3, 1e6},
    {"tlb.*.entries", 1, 1 << 24},
    {"tlb.*.page", 256, 1u << 31},
    {"tlb.*.ways", 1, 4096},
    {"tlb.*.sets", 1, 1 << 24},
    {"tlb.*.set0_ways", 1, 4096},
    {"tlb.*.latency", 0, 1e6},
    {"dram.channels", 1, 1024},
    {"dram.channel_bytes", 4, 1 << 20},
    {"dram.banks_per_channel", 1, 1024},
    {"dram.row_bytes", 64, 1 << 20},
    {"dram.row_hit_ns", 1e-3, 1e6},
    {"dram.row_miss_ns", 1e-3, 1e6},
    {"dram.row_conflict_ns", 1e-3, 1e6},
    {"dram.bandwidth_gbs", 1e-3, 1e6},
    {"dram.measured_bandwidth_gbs", 0, 1e6},
    {"coefficients.*.*", -1e6, 1e6},
};

static bool path_matches(const char *pattern, const char *path)
{
    while (*pattern && *path) {
        if (*pattern == '*') {
            while (*path && *path != '.')
                path++;
            pattern++;
            continue;
        }
        if (*pattern++ != *path++)
            return false;
    }
    return !*pattern && !*path;
}

bool hms_arch_check_range(const char *path, double v, const char *origin, int line,
                          hms_file_error *err)
{
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++) {
        const value_range *r = &ranges[i];
        if (!path_matches(r->path, path))
            continue;
        if (v >= r->lo && v <= r->hi)
            return true;
        return hms_arch_fail(err, origin, line, path,
                             "%.15g is outside the plausible range %.15g to %.15g of any GPU", v,
                             r->lo, r->hi);
    }
    return true;
}
