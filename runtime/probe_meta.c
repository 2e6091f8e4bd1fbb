/* hms_probe_same_gpu (see probe_meta.h). */
#include "runtime/probe_meta.h"

#include <stdio.h>
#include <string.h>

bool hms_probe_same_gpu(const hms_arch *a, const char *device, int cc_major, int cc_minor,
                        char *err, size_t errlen)
{
    if (a->cc_major != cc_major || a->cc_minor != cc_minor) {
        snprintf(err, errlen, "%s: describes %s (%s), not this GPU '%s' (sm_%d%d)", a->source_path,
                 a->sm, a->probe_device[0] ? a->probe_device : a->product, device, cc_major,
                 cc_minor);
        return false;
    }
    if (a->probe_format > 0 && device && strcmp(a->probe_device, device) != 0) {
        snprintf(err, errlen, "%s: measured by hms-probe on '%s'%s%s, not on '%s'", a->source_path,
                 a->probe_device, a->probe_date[0] ? " on " : "", a->probe_date, device);
        return false;
    }
    return true;
}
