/* --write-baseline (see baseline.h): every current finding by fingerprint,
 * with file, check, kernel, line and message kept for people reading it. */
#include <jansson.h>
#include <stdlib.h>

#include "analyzer/report/baseline.h"
#include "analyzer/report/fingerprint.h"
#include "analyzer/report/source_root.h"

bool hms_baseline_write(const hms_report *r, hms_source_cache *src, const char *source_root,
                        const char *tool_version, FILE *out)
{
    json_t *findings = json_array();
    for (size_t i = 0; i < r->nfiles; i++) {
        const hms_file_report *fr = &r->files[i];
        for (size_t k = 0; k < fr->nkernels; k++) {
            const hms_kernel_report *kr = &fr->kernels[k];
            for (size_t d = 0; d < kr->ndiagnostics; d++) {
                const hms_finding *f = &kr->diagnostics[d];
                const char *path = f->file ? f->file : fr->path;
                hms_fingerprint fp = hms_finding_fingerprint(f, fr->path, kr->name, src);
                char *rel = hms_path_under_root(source_root, path);
                char *abs = rel ? NULL : hms_absolute_path(path);
                json_array_append_new(findings, json_pack("{s:s, s:s, s:s, s:s, s:I, s:s}",
                                                          "fingerprint", fp.hex, "file",
                                                          rel   ? rel
                                                          : abs ? abs
                                                                : path,
                                                          "check", f->check ? f->check : "",
                                                          "kernel", kr->name ? kr->name : "",
                                                          "line", (json_int_t)f->line, "message",
                                                          f->message ? f->message : ""));
                free(rel);
                free(abs);
            }
        }
    }
    json_t *doc = json_pack("{s:i, s:{s:s, s:s}, s:o}", "hms_lint_baseline", 1, "tool", "name",
                            r->tool_name ? r->tool_name : "hms-lint", "version",
                            tool_version ? tool_version : "unknown", "findings", findings);
    if (!doc)
        return false;
    int rc = json_dumpf(doc, out, JSON_INDENT(2));
    json_decref(doc);
    if (rc != 0)
        return false;
    fputc('\n', out);
    return !ferror(out);
}
