/* The table of checks and clang-tidy style --checks glob matching. */
#include <fnmatch.h>
#include <string.h>

#include "passes/checks/checks.h"

/* Check implementations (passes/checks/check_*.c). */
void hms_check_uncoalesced_access(struct hms_check_ctx *ctx);
void hms_check_shared_bank_conflict(struct hms_check_ctx *ctx);
void hms_check_partition_camping(struct hms_check_ctx *ctx);
void hms_check_constant_divergence(struct hms_check_ctx *ctx);
void hms_check_placement(struct hms_check_ctx *ctx);
void hms_check_shared_reuse(struct hms_check_ctx *ctx);
void hms_check_divergent_access(struct hms_check_ctx *ctx);
void hms_check_latency_hiding(struct hms_check_ctx *ctx);
void hms_check_dram_locality(struct hms_check_ctx *ctx);
void hms_check_memory_bound(struct hms_check_ctx *ctx);
void hms_check_analysis_limit(struct hms_check_ctx *ctx);

static const hms_check_def registry[] = {
    {"hms-uncoalesced-access", HMS_SEV_WARNING, true,
     "global/local accesses that fetch more sectors per request than their bytes need",
     hms_check_uncoalesced_access},
    {"hms-shared-bank-conflict", HMS_SEV_WARNING, true,
     "shared-memory accesses serialised by bank conflicts (with a padding fix-it)",
     hms_check_shared_bank_conflict},
    {"hms-partition-camping", HMS_SEV_WARNING, true,
     "global traffic concentrated on few DRAM channels/partitions (CuMAPz ch_skew)",
     hms_check_partition_camping},
    {"hms-constant-divergence", HMS_SEV_WARNING, true,
     "constant-memory reads where lanes of a warp read different addresses",
     hms_check_constant_divergence},
    {"hms-placement", HMS_SEV_WARNING, true,
     "an array predicted to run faster in another memory space (Huang & Li placement model)",
     hms_check_placement},
    {"hms-shared-reuse", HMS_SEV_WARNING, true,
     "shared-memory buffering that does not pay for itself (CuMAPz data reuse)",
     hms_check_shared_reuse},
    {"hms-divergent-access", HMS_SEV_WARNING, true,
     "thread-dependent branches that split a warp's memory accesses", hms_check_divergent_access},
    {"hms-latency-hiding", HMS_SEV_WARNING, true,
     "too little occupancy or independent fetches to hide memory latency",
     hms_check_latency_hiding},
    {"hms-dram-locality", HMS_SEV_WARNING, true,
     "low DRAM row-buffer hit rate for the kernel's global traffic", hms_check_dram_locality},
    {"hms-memory-bound", HMS_SEV_NOTE, true,
     "summary: memory- or compute-bound (HSM) with the C-AMAT figures", hms_check_memory_bound},
    {"hms-analysis-limit", HMS_SEV_NOTE, true,
     "what could not be analysed exactly, and the annotation that would fix it",
     hms_check_analysis_limit},
};

const hms_check_def *hms_check_registry(size_t *count)
{
    *count = sizeof registry / sizeof registry[0];
    return registry;
}

const hms_check_def *hms_check_find(const char *name)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (strcmp(registry[i].name, name) == 0)
            return &registry[i];
    return NULL;
}

bool hms_check_enabled(const char *globs, const hms_check_def *check)
{
    bool on = check->enabled_by_default;
    if (!globs)
        return on;
    const char *p = globs;
    while (*p) {
        while (*p == ',' || *p == ' ')
            p++;
        const char *end = p;
        while (*end && *end != ',')
            end++;
        size_t len = (size_t)(end - p);
        while (len && p[len - 1] == ' ')
            len--;
        if (len) {
            bool negate = *p == '-';
            char pat[256];
            size_t off = negate ? 1 : 0;
            size_t n = len - off < sizeof pat - 1 ? len - off : sizeof pat - 1;
            memcpy(pat, p + off, n);
            pat[n] = '\0';
            if (fnmatch(pat, check->name, 0) == 0)
                on = !negate;
        }
        p = end;
    }
    return on;
}
