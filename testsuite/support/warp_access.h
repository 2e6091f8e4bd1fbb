/* Hand-built warp accesses for the model-core unit tests. */
#ifndef HMS_TEST_WARP_ACCESS_H
#define HMS_TEST_WARP_ACCESS_H

#include <stdint.h>

#include "runtime/stream.h"

/* An exact load in `space` where lane i accesses `width` bytes at
 * base + i * stride (bytes); lanes outside `mask` are inactive. */
hms_warp_access hms_test_strided(hms_space space, uint64_t base, uint64_t stride, unsigned width,
                                 uint32_t mask);

#endif
