/* Ownership helpers for the report model in findings.h. */
#include "passes/findings.h"
#include "runtime/out_of_memory.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *vformat(const char *fmt, va_list ap)
{
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        hms_out_of_memory();
    return s;
}

const char *hms_severity_name(hms_severity s)
{
    switch (s) {
    case HMS_SEV_ERROR:
        return "error";
    case HMS_SEV_WARNING:
        return "warning";
    default:
        return "note";
    }
}

hms_finding *hms_kernel_add_finding(hms_kernel_report *k, const char *check, hms_severity sev,
                                    const char *file, unsigned line, unsigned col, const char *fmt,
                                    ...)
{
    k->diagnostics = hms_xrealloc(k->diagnostics, (k->ndiagnostics + 1) * sizeof *k->diagnostics);
    hms_finding *f = &k->diagnostics[k->ndiagnostics++];
    memset(f, 0, sizeof *f);
    f->check = check;
    f->severity = sev;
    f->file = file ? strdup(file) : NULL;
    f->line = line;
    f->col = col;
    va_list ap;
    va_start(ap, fmt);
    f->message = vformat(fmt, ap);
    va_end(ap);
    return f;
}

void hms_finding_add_note(hms_finding *f, const char *file, unsigned line, unsigned col,
                          const char *fmt, ...)
{
    f->notes = hms_xrealloc(f->notes, (f->nnotes + 1) * sizeof *f->notes);
    hms_note *n = &f->notes[f->nnotes++];
    n->file = file ? strdup(file) : NULL;
    n->line = line;
    n->col = col;
    va_list ap;
    va_start(ap, fmt);
    n->message = vformat(fmt, ap);
    va_end(ap);
}

void hms_finding_add_fixit(hms_finding *f, const char *file, unsigned line, unsigned col,
                           unsigned end_line, unsigned end_col, const char *replacement)
{
    f->fixits = hms_xrealloc(f->fixits, (f->nfixits + 1) * sizeof *f->fixits);
    hms_fixit *x = &f->fixits[f->nfixits++];
    x->file = file ? strdup(file) : NULL;
    x->line = line;
    x->col = col;
    x->end_line = end_line;
    x->end_col = end_col;
    x->replacement = strdup(replacement ? replacement : "");
}

void hms_file_add_error(hms_file_report *f, const char *fmt, ...)
{
    f->errors = hms_xrealloc(f->errors, (f->nerrors + 1) * sizeof *f->errors);
    va_list ap;
    va_start(ap, fmt);
    f->errors[f->nerrors++] = vformat(fmt, ap);
    va_end(ap);
}

void hms_finding_release(hms_finding *f)
{
    free(f->message);
    free(f->file);
    for (size_t i = 0; i < f->nnotes; i++) {
        free(f->notes[i].message);
        free(f->notes[i].file);
    }
    free(f->notes);
    for (size_t i = 0; i < f->nfixits; i++) {
        free(f->fixits[i].replacement);
        free(f->fixits[i].file);
    }
    free(f->fixits);
}

void hms_kernel_report_free(hms_kernel_report *k)
{
    free(k->name);
    free(k->launch.via);
    free(k->launch.others);
    for (size_t i = 0; i < k->naccesses; i++)
        free(k->accesses[i].array);
    free(k->accesses);
    for (size_t i = 0; i < k->nplacements; i++) {
        free(k->placements[i].array);
        for (size_t j = 0; j < k->placements[i].noptions; j++)
            free(k->placements[i].options[j].reason);
        free(k->placements[i].options);
    }
    free(k->placements);
    for (size_t i = 0; i < k->ndiagnostics; i++)
        hms_finding_release(&k->diagnostics[i]);
    free(k->diagnostics);
    memset(k, 0, sizeof *k);
}

void hms_file_report_free(hms_file_report *f)
{
    free(f->path);
    for (size_t i = 0; i < f->nerrors; i++)
        free(f->errors[i]);
    free(f->errors);
    for (size_t i = 0; i < f->nkernels; i++)
        hms_kernel_report_free(&f->kernels[i]);
    free(f->kernels);
    memset(f, 0, sizeof *f);
}

void hms_report_free(hms_report *r)
{
    for (size_t i = 0; i < r->nfiles; i++)
        hms_file_report_free(&r->files[i]);
    free(r->files);
    r->files = NULL;
    r->nfiles = 0;
}
