/* hms-lint hermetic CUDA headers: older name for device_atomic_functions.h. */
#include "device_atomic_functions.h"
