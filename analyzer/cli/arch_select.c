/* --arch -> hms_arch, with the tool's error format. */
#include "analyzer/cli/arch_select.h"

const hms_arch *hms_resolve_arch(const hms_options *o, FILE *err)
{
    const char *arg = o->arch ? o->arch : HMS_ARCH_DEFAULT;
    char why[640];
    const hms_arch *a = hms_arch_get(arg, why, sizeof why);
    /* hms_arch_get's messages already start with the name or file path. */
    if (!a)
        fprintf(err, "hms-lint: error: %s\n", why);
    return a;
}

const hms_arch *hms_arch_or_default(const hms_options *o)
{
    char why[640];
    const hms_arch *a = hms_arch_get(o->arch ? o->arch : HMS_ARCH_DEFAULT, why, sizeof why);
    return a ? a : hms_arch_get(HMS_ARCH_DEFAULT, why, sizeof why);
}
