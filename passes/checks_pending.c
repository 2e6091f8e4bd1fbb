/* Temporary weak placeholders so the registry links while the checks are
 * written; each passes/check_*.c defines the real one and this file goes. */
#include "passes/checks.h"

#define PENDING(fn)                                                                                \
    __attribute__((weak)) void fn(struct hms_check_ctx *ctx)                                       \
    {                                                                                              \
        (void)ctx;                                                                                 \
    }

PENDING(hms_check_uncoalesced_access)
PENDING(hms_check_shared_bank_conflict)
PENDING(hms_check_partition_camping)
PENDING(hms_check_constant_divergence)
PENDING(hms_check_placement)
PENDING(hms_check_shared_reuse)
PENDING(hms_check_divergent_access)
PENDING(hms_check_latency_hiding)
PENDING(hms_check_dram_locality)
PENDING(hms_check_memory_bound)
PENDING(hms_check_analysis_limit)
