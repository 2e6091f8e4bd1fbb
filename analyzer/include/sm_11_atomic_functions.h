/* hms-lint hermetic CUDA headers: older name for device_atomic_functions.h. */
#define __SM_11_ATOMIC_FUNCTIONS_H__
#include "device_atomic_functions.h"
