/* The L1 a kernel gets where the L1 and shared memory are one array
 * (Volta on, `caches.l1.unified_with_shared`): the driver sets the shared
 * carve-out per kernel to what its resident blocks need, and the rest of
 * the array is L1 (CUDA C Programming Guide, "Shared Memory" for cc 7.x,
 * 8.x, 9.0). The arch file's `caches.l1.size` is the L1 beside the largest
 * carve-out, the least a kernel can get. */
#ifndef HMS_RUNTIME_L1_CARVEOUT_H
#define HMS_RUNTIME_L1_CARVEOUT_H

#include <stdbool.h>

#include "runtime/arch.h"

/* The carve-out step the model rounds a kernel's shared bytes per SM up to:
 * the Programming Guide's smallest non-zero carve-out (8 KB on cc 7.0 to
 * 9.0). Its larger options (64, 96/100, 132 ... KB) are coarser: an estimate. */
#define HMS_CARVEOUT_STEP (8u * 1024u)

/* Bytes of L1 a kernel with `shared_per_sm` bytes of shared memory per SM
 * (allocated blocks x resident blocks; < 0 counts as 0) gets on `a`. */
unsigned hms_l1_bytes_for_shared(const hms_arch *a, long long shared_per_sm);

/* `*out` = `*a` with its L1 resized for that shared use (sets re-derived
 * when the file derived them). False, and `*out` a plain copy, when `a`
 * has no unified array or the L1 would not change. */
bool hms_arch_with_carveout(const hms_arch *a, long long shared_per_sm, hms_arch *out);

#endif
