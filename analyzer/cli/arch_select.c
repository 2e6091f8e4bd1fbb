/* --arch -> hms_arch, with the tool's error format. */
#include "analyzer/cli/arch_select.h"

#include "analyzer/report/diag_sink.h"

const hms_arch *hms_find_arch(const hms_options *o, hms_file_error *why)
{
    return hms_arch_find(o->arch ? o->arch : HMS_ARCH_DEFAULT, why);
}

const hms_arch *hms_resolve_arch(const hms_options *o, hms_diag_sink *said)
{
    hms_file_error why;
    const hms_arch *a = hms_find_arch(o, &why);
    if (!a)
        hms_diag_file_error(said, HMS_DIAG_ERROR, &why);
    return a;
}

const hms_arch *hms_arch_or_default(const hms_options *o)
{
    const hms_arch *a = hms_find_arch(o, NULL);
    return a ? a : hms_arch_find(HMS_ARCH_DEFAULT, NULL);
}
