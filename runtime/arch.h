/* GPU architecture descriptions: the numbers every model in runtime/ reads.
 * One YAML file per GPU under runtime/arches/, embedded in the binary
 * (arch_embedded.h) and selectable by name, sm_XX alias, or a file path. */
#ifndef HMS_RUNTIME_ARCH_H
#define HMS_RUNTIME_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/file_error.h"

#define HMS_ARCH_MAX_CONFLICT_WAYS 6 /* latency table: 1,2,4,8,16,32-way */
#define HMS_ARCH_MAX_ALIASES 4

/* Huang & Li eq. 11: T_overlap_ratio = g*e_global + c*e_const + t*e_tex + s*e_shared
 * + r_miss*e_row_miss + r_conflict*e_row_conflict + w*#warps + intercept. */
enum {
    HMS_OVERLAP_GLOBAL = 0,   /* L2 misses + global requests */
    HMS_OVERLAP_CONSTANT,     /* constant cache misses + constant requests */
    HMS_OVERLAP_TEXTURE,      /* texture cache misses + texture requests */
    HMS_OVERLAP_SHARED,       /* bank conflicts + shared requests */
    HMS_OVERLAP_ROW_MISS,     /* DRAM row-buffer misses */
    HMS_OVERLAP_ROW_CONFLICT, /* DRAM row-buffer conflicts */
    HMS_OVERLAP_WARPS,        /* warps per SM */
    HMS_OVERLAP_INTERCEPT,    /* the constant term */
    HMS_OVERLAP_COUNT
};

typedef enum {
    HMS_REPL_LRU = 0,
    HMS_REPL_FERMI_L1, /* Mei & Chu: one way replaced ~3x as often as the others */
    HMS_REPL_RANDOM,   /* non-LRU L2: modelled as pseudo-random, deterministic seed */
} hms_replacement;

/* A set-associative cache or TLB level. size_bytes == 0 means "absent". */
typedef struct {
    uint32_t size_bytes;
    uint32_t line_bytes;
    uint32_t ways;
    uint32_t sets;        /* derived if 0: size / (line * ways) */
    uint32_t set_bit_low; /* lowest address bit of the set index (0 = line-size bit) */
    uint32_t set0_ways;   /* ways of set 0 when it is larger than the others (Mei & Chu:
                             L2 TLB set 0 has 17 entries, sets 1-6 have 8); 0 = equal sets */
    hms_replacement replacement;
    uint32_t hit_latency; /* cycles */
} hms_cache_geom;

typedef struct {
    char name[32];                          /* "kepler" */
    char sm[16];                            /* "sm_35" */
    char product[64];                       /* "GeForce GTX 780" */
    char aliases[HMS_ARCH_MAX_ALIASES][32]; /* other names that select it ("gtx780") */
    int alias_count;
    int cc_major, cc_minor; /* derived from sm */

    /* SM resources */
    int sm_count;
    int warp_size;
    int max_warps_per_sm;
    int max_blocks_per_sm;
    int max_threads_per_block;
    int regs_per_sm;
    int regs_per_block;
    int max_regs_per_thread;
    /* allocation rules (CUDA Occupancy Calculator): registers come in units of
     * reg_alloc_unit per warp (per block on cc 1.x, warps rounded up to
     * warp_alloc_granularity); warps per SM by registers round down to it. */
    int reg_alloc_unit;
    bool reg_alloc_per_block;
    int warp_alloc_granularity;
    int shared_alloc_unit;         /* bytes */
    int shared_reserved_per_block; /* bytes the CUDA runtime keeps per block (1 KB on cc >= 8.0) */
    int shared_per_sm;             /* bytes */
    int shared_per_block;          /* bytes */
    int simd_width;                /* lanes issued per cycle per scheduler (Huang & Li ITILP_max) */
    int schedulers_per_sm;         /* warp schedulers per SM, each issuing one warp instruction
                                      every warp_size / simd_width cycles: the SM's peak issue
                                      rate is schedulers_per_sm * simd_width / warp_size warp
                                      instructions per cycle; 0 (unset) counts as 1 */
    double clock_ghz;              /* SM clock */
    int fp32_lanes;                /* FP32 lanes per SM, one FMA (2 FLOPs) each per cycle: the
                                      roofline's FP32 peak; 0 (unset) = simd_width *
                                      schedulers_per_sm */

    /* shared memory */
    int shared_banks;                               /* 16 on cc 1.x, 32 later */
    int shared_bank_bytes;                          /* 4, or 8 (Kepler 8-byte mode) */
    int shared_latency[HMS_ARCH_MAX_CONFLICT_WAYS]; /* no conflict, 2,4,8,16,32-way (cycles) */

    /* global access granularity */
    int sector_bytes;        /* 32 */
    int line_bytes;          /* 128 */
    bool half_warp_segments; /* cc 1.x coalescing rules (32/64/128-byte segments per half-warp) */
    bool l1_caches_global;   /* global loads cached in L1 (128-byte transactions on Fermi) */
    bool unified_l1_texture; /* texture fetches, __ldg and global loads share one L1 (Volta on) */

    /* caches */
    hms_cache_geom l1;
    hms_cache_geom tex_l1;
    hms_cache_geom readonly; /* Kepler+ read-only data cache (__ldg) */
    hms_cache_geom constant; /* constant cache (per SM) */
    hms_cache_geom l2;
    hms_cache_geom tlb_l1; /* line_bytes = page size; hit_latency = 0 (in the base figures) */
    hms_cache_geom tlb_l2; /* hit_latency = extra cycles when L1 TLB misses, L2 hits (P2-P1) */

    /* latencies (cycles); the *_hit ones mirror the caches' hit_latency */
    int global_latency_l1_hit;
    int global_latency_l2_hit;
    int global_latency_dram;     /* unloaded DRAM latency, TLB hit */
    int global_latency_tlb_miss; /* extra cycles when both TLB levels miss */
    int constant_latency_hit;
    int constant_latency_miss;
    int texture_latency_hit;

    /* DRAM */
    int dram_channels;        /* memory controllers / partitions */
    int dram_channel_bytes;   /* partition interleave granularity (CuMAPz: 256 B on C1060) */
    bool dram_address_hashed; /* channels chosen by a hash of upper address bits, not by
                                 address / channel_bytes modulo channels: no partition camping */
    int dram_banks_per_channel;
    int dram_row_bytes;           /* row-buffer (page) size per bank */
    uint64_t dram_bank_bits_mask; /* address bits selecting the bank (Huang & Li) */
    uint64_t dram_row_bits_mask;  /* address bits selecting the row */
    double dram_row_hit_ns, dram_row_miss_ns, dram_row_conflict_ns;
    double dram_bandwidth_gbs;      /* theoretical */
    double dram_bandwidth_meas_gbs; /* measured maximum, 0 if unknown */
    double l2_bytes_per_clock;      /* L2 bandwidth (all slices, SM clock); 0 = no L2 bound */
    uint32_t l1_unified_bytes;      /* L1 and shared memory are one array of this size (Volta on):
                                       the L1 is what the kernel's shared carve-out leaves; 0 = the
                                       L1 is always caches.l1.size */

    /* regression coefficients: defaults unless refitted (see docs/model.md) */
    double hsm_c1, hsm_c2;
    bool hsm_coeffs_default;
    double overlap_coeff[HMS_OVERLAP_COUNT]; /* Huang & Li T_overlap ratio model, eq. 11-12 */
    bool overlap_coeffs_default;
    /* T_overlap from Hong & Kim's MWP/CWP cases (runtime/placement.c
     * hong_kim_overlap) instead of eq. 11's coefficients; false by default */
    bool overlap_hong_kim;

    /* optional section probe: written by hms-probe (runtime/probe/); format 0 = absent */
    int probe_format;
    char probe_device[96]; /* the GPU it measured, as cudaGetDeviceProperties names it */
    char probe_date[32];

    char source_path[256]; /* "<builtin>" or the file it was loaded from */
} hms_arch;

/* Look an architecture up by name ("kepler"), alias ("sm_35") or YAML path.
 * On failure returns NULL and fills err: the file, line and "field: reason"
 * for a bad file; no file and "name: reason" for an unknown name. */
const hms_arch *hms_arch_find(const char *name_or_path, hms_file_error *err);
/* Same, the error as one line of text ("file:line: field: reason"). */
const hms_arch *hms_arch_get(const char *name_or_path, char *err, size_t errlen);

/* Parse a YAML architecture description from memory; `origin` names it in
 * errors (the file of err). */
bool hms_arch_parse_at(const char *yaml, size_t len, const char *origin, hms_arch *out,
                       hms_file_error *err);
/* Same, the error as one line of text. */
bool hms_arch_parse(const char *yaml, size_t len, const char *origin, hms_arch *out, char *err,
                    size_t errlen);

/* Built-in architectures, in a stable order; NULL-terminated by count. */
size_t hms_arch_builtin_count(void);
const hms_arch *hms_arch_builtin(size_t i);

#define HMS_ARCH_DEFAULT "h100"
/* Newest probe: section format this build reads (docs/probe.md). */
#define HMS_PROBE_FORMAT 1

#endif
