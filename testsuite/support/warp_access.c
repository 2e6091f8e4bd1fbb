#include "testsuite/support/warp_access.h"

#include <string.h>

hms_warp_access hms_test_strided(hms_space space, uint64_t base, uint64_t stride, unsigned width,
                                 uint32_t mask)
{
    hms_warp_access w;
    memset(&w, 0, sizeof w);
    w.space = (uint8_t)space;
    w.kind = HMS_ACCESS_LOAD;
    w.width = (uint8_t)width;
    w.exact = true;
    w.mask = mask;
    for (int i = 0; i < HMS_WARP_LANES; i++)
        w.addr[i] = base + (uint64_t)i * stride;
    return w;
}
