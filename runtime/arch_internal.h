/* Shared between the architecture parser (arch_parse.c), its validator
 * (arch_check.c) and the registry (arch.c); not for other modules. */
#ifndef HMS_RUNTIME_ARCH_INTERNAL_H
#define HMS_RUNTIME_ARCH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/arch.h"

/* Where each field of one parsed file was written, so that cross-field
 * errors can name a line. */
typedef struct hms_arch_src hms_arch_src;

/* Line (1-based) of the value written for `path` ("shared.per_block"), or of
 * the closest enclosing section that was written, or 1. */
int hms_arch_src_line(const hms_arch_src *src, const char *path);

/* Cross-field validation and derived values (cache sets, mirrored latencies).
 * On failure fills err (origin, line, "field: reason"). */
bool hms_arch_check(hms_arch *a, const hms_arch_src *src, const char *origin, hms_file_error *err);

/* Is v within the plausible range of field `path` (arch_ranges.c)? If not,
 * fills err (origin, line, "path: reason") and returns false. */
bool hms_arch_check_range(const char *path, double v, const char *origin, int line,
                          hms_file_error *err);
/* Fills err with origin, line and "field: " + the printf'd reason (field may
 * be NULL); always returns false. */
bool hms_arch_fail(hms_file_error *err, const char *origin, int line, const char *field,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
