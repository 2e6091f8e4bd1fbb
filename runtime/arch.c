/* Placeholder until the architecture loader lands. */
#include "runtime/arch.h"

#include <stdio.h>

const hms_arch *hms_arch_get(const char *name_or_path, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: architecture descriptions not implemented yet", name_or_path);
    return NULL;
}

size_t hms_arch_builtin_count(void)
{
    return 0;
}

const hms_arch *hms_arch_builtin(size_t i)
{
    (void)i;
    return NULL;
}
