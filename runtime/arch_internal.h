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
 * On failure writes "origin:line: field: reason" into err. */
bool hms_arch_check(hms_arch *a, const hms_arch_src *src, const char *origin, char *err,
                    size_t errlen);

/* printf into err with the "origin:line: field: " prefix; always returns false. */
/* Is v within the plausible range of field `path` (arch_ranges.c)? If not,
 * writes "origin:line: path: reason" into err and returns false. */
bool hms_arch_check_range(const char *path, double v, const char *origin, int line, char *err,
                          size_t errlen);
bool hms_arch_fail(char *err, size_t errlen, const char *origin, int line, const char *field,
                   const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#endif
