/* See finding_filter.h. */
#include "analyzer/report/finding_filter.h"

#include <stdlib.h>

size_t hms_report_drop_findings(hms_report *r, hms_finding_pred drop, void *ctx)
{
    size_t dropped = 0;
    for (size_t fi = 0; fi < r->nfiles; fi++) {
        hms_file_report *file = &r->files[fi];
        for (size_t ki = 0; ki < file->nkernels; ki++) {
            hms_kernel_report *k = &file->kernels[ki];
            size_t kept = 0;
            for (size_t i = 0; i < k->ndiagnostics; i++) {
                if (drop(file, &k->diagnostics[i], ctx)) {
                    hms_finding_release(&k->diagnostics[i]);
                    dropped++;
                } else {
                    k->diagnostics[kept++] = k->diagnostics[i];
                }
            }
            k->ndiagnostics = kept;
            if (kept == 0) {
                free(k->diagnostics);
                k->diagnostics = NULL;
            }
        }
    }
    return dropped;
}
