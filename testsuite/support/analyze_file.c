#include "testsuite/support/analyze_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/cli/frontend_inputs.h"
#include "analyzer/frontend/ir_build.h"
#include "analyzer/frontend/launch_alts.h"
#include "analyzer/frontend/parse.h"

bool hms_build_file(const char *path, const char *const *args, hms_analyzed_file *out)
{
    memset(out, 0, sizeof *out);
    const char *argv[32];
    int argc = 0;
    argv[argc++] = "hms-lint";
    for (size_t i = 0; args && args[i] && argc < 30; i++)
        argv[argc++] = args[i];
    argv[argc++] = path;
    argv[argc] = NULL;
    if (hms_options_parse(argc, (char **)argv, &out->opt) != 0) {
        snprintf(out->error, sizeof out->error, "bad options");
        return false;
    }
    char err[256];
    out->arch = hms_arch_get(out->opt.arch ? out->opt.arch : HMS_ARCH_DEFAULT, err, sizeof err);
    if (!out->arch) {
        snprintf(out->error, sizeof out->error, "arch: %s", err);
        return false;
    }
    hms_tu tu;
    hms_diag_sink said; /* not shown: the tests look at the IR and the reports */
    hms_diag_sink_init(&said, NULL);
    out->fe = hms_frontend_inputs(&out->opt, out->arch);
    bool parsed = hms_parse_file(&out->fe, path, &tu, &said);
    if (parsed)
        out->nkernels = hms_build_kernels(&tu, &out->fe, &out->kernels, &said);
    out->said = hms_diag_sink_text(&said);
    hms_diag_sink_free(&said);
    if (!parsed) {
        snprintf(out->error, sizeof out->error, "%s: does not parse", path);
        return false;
    }
    hms_tu_dispose(&tu);
    return true;
}

bool hms_analyze_file(const char *path, const char *const *args, hms_analyzed_file *out)
{
    if (!hms_build_file(path, args, out))
        return false;
    out->reports = calloc(out->nkernels ? out->nkernels : 1, sizeof *out->reports);
    if (!out->reports)
        return false;
    hms_analysis_options ao = {0};
    ao.arch = out->arch;
    ao.checks = out->opt.checks;
    ao.budget_scale = out->opt.analysis_budget;
    for (size_t i = 0; i < out->nkernels; i++)
        if (!hms_analyze_launch_alts(out->kernels[i], &ao, &out->reports[i])) {
            snprintf(out->error, sizeof out->error, "%s: kernel %s: analysis failed", path,
                     out->kernels[i]->name);
            return false;
        }
    return true;
}

void hms_analyzed_file_free(hms_analyzed_file *f)
{
    for (size_t i = 0; f->reports && i < f->nkernels; i++)
        hms_kernel_report_free(&f->reports[i]);
    free(f->reports);
    if (f->kernels)
        hms_free_kernels(f->kernels, f->nkernels);
    hms_options_free(&f->opt);
    free(f->said);
    memset(f, 0, sizeof *f);
}

const hms_kernel_report *hms_af_report(const hms_analyzed_file *f, const char *name)
{
    for (size_t i = 0; i < f->nkernels; i++)
        if (f->reports[i].name && strcmp(f->reports[i].name, name) == 0)
            return &f->reports[i];
    return NULL;
}

const ir_kernel *hms_af_kernel(const hms_analyzed_file *f, const char *name)
{
    for (size_t i = 0; i < f->nkernels; i++)
        if (strcmp(f->kernels[i]->name, name) == 0)
            return f->kernels[i];
    return NULL;
}
