/* Provenance of a measured architecture file (its probe: section): which
 * GPU hms-probe measured, so that a file is never applied to another one. */
#ifndef HMS_RUNTIME_PROBE_META_H
#define HMS_RUNTIME_PROBE_META_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/arch.h"

/* True when `a` may describe the GPU named `device` with compute capability
 * cc_major.cc_minor: same sm, and for a file written by hms-probe the same
 * device name. Otherwise false with "<file>: reason" in err. */
bool hms_probe_same_gpu(const hms_arch *a, const char *device, int cc_major, int cc_minor,
                        char *err, size_t errlen);

#endif
