/* --warnings-as-errors and --header-filter on a file's findings. */
#include "analyzer/report/finding_policy.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/checks/checks.h"

/* Is the finding's file another one than the file being linted? */
static bool in_header(const hms_finding *d, const char *main_real, const char *main_path)
{
    if (!d->file || !*d->file || strcmp(d->file, main_path) == 0)
        return false;
    char *real = realpath(d->file, NULL);
    bool other = !real || !main_real || strcmp(real, main_real) != 0;
    free(real);
    return other;
}

bool hms_apply_finding_policy(hms_file_report *f, const hms_options *o, char *err, size_t errlen)
{
    regex_t re;
    bool filter = o->header_filter && *o->header_filter;
    if (filter && regcomp(&re, o->header_filter, REG_EXTENDED | REG_NOSUB) != 0) {
        snprintf(err, errlen, "header filter '%s' is not a valid POSIX extended regex",
                 o->header_filter);
        return false;
    }
    char *main_real = filter ? realpath(f->path, NULL) : NULL;
    /* The globs alone, from no check (hms_check_enabled starts from the defaults). */
    char *wae = NULL;
    if (o->warnings_as_errors && *o->warnings_as_errors &&
        asprintf(&wae, "-*,%s", o->warnings_as_errors) < 0)
        wae = NULL;
    for (size_t k = 0; k < f->nkernels; k++) {
        hms_kernel_report *kr = &f->kernels[k];
        size_t kept = 0;
        for (size_t i = 0; i < kr->ndiagnostics; i++) {
            hms_finding *d = &kr->diagnostics[i];
            if (filter && in_header(d, main_real, f->path) &&
                regexec(&re, d->file, 0, NULL, 0) != 0) {
                hms_finding_release(d);
                continue;
            }
            const hms_check_def *def = d->check ? hms_check_find(d->check) : NULL;
            if (wae && def && d->severity == HMS_SEV_WARNING && hms_check_enabled(wae, def))
                d->severity = HMS_SEV_ERROR;
            kr->diagnostics[kept++] = *d;
        }
        kr->ndiagnostics = kept;
    }
    free(main_real);
    free(wae);
    if (filter)
        regfree(&re);
    return true;
}
