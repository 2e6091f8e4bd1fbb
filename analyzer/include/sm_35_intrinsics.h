/* hms-lint hermetic CUDA headers: older name; the declarations live in
 * device_functions.h, sm_30_intrinsics.h and sm_32_intrinsics.h. */
#define __SM_35_INTRINSICS_H__
#include "device_functions.h"
#include "sm_30_intrinsics.h"
#include "sm_32_intrinsics.h"
