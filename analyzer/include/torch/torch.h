/* hms-lint hermetic headers: see hms_torch.h. */
#include "../hms_torch.h"
