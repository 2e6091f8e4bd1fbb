/* Baseline filtering (see baseline.h). */
#include "analyzer/report/baseline.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/finding_filter.h"
#include "analyzer/report/report_json.h"

typedef struct {
    char *file; /* canonical path */
    char *check, *message, *source_line;
    unsigned line;
    bool used;
} baseline_entry;

struct hms_baseline {
    baseline_entry *v;
    size_t n;
};

/* Paths compare after realpath, so "./k.cu" and "k.cu" are one file. */
static char *canonical(const char *path)
{
    char *r = realpath(path, NULL);
    return r ? r : strdup(path);
}

void hms_baseline_free(hms_baseline *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++) {
        free(b->v[i].file);
        free(b->v[i].check);
        free(b->v[i].message);
        free(b->v[i].source_line);
    }
    free(b->v);
    free(b);
}

size_t hms_baseline_size(const hms_baseline *b)
{
    return b ? b->n : 0;
}

static bool add_diagnostic(hms_baseline *b, const char *file, json_t *d)
{
    const char *check = json_string_value(json_object_get(d, "check"));
    const char *message = json_string_value(json_object_get(d, "message"));
    json_t *line = json_object_get(d, "line");
    if (!check || !message || !json_is_integer(line))
        return false;
    baseline_entry *nv = realloc(b->v, (b->n + 1) * sizeof *nv);
    if (!nv)
        return false;
    b->v = nv;
    baseline_entry *e = &b->v[b->n++];
    memset(e, 0, sizeof *e);
    e->file = canonical(file);
    e->check = strdup(check);
    e->message = strdup(message);
    const char *src = json_string_value(json_object_get(d, "source_line"));
    e->source_line = src ? strdup(src) : NULL;
    e->line = (unsigned)json_integer_value(line);
    return true;
}

hms_baseline *hms_baseline_load(const char *path, char *err, size_t errlen)
{
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root) {
        if (je.line > 0)
            snprintf(err, errlen, "%s:%d: not valid JSON: %s", path, je.line, je.text);
        else
            snprintf(err, errlen, "%s: %s", path, je.text);
        return NULL;
    }
    hms_baseline *b = calloc(1, sizeof *b);
    json_t *files = json_object_get(root, "files");
    const char *bad = NULL;
    if (!b)
        bad = "out of memory";
    else if (!json_is_array(files))
        bad = "not an hms-lint JSON report (no \"files\" array)";
    size_t i;
    json_t *file;
    if (!bad) {
        json_array_foreach(files, i, file)
        {
            const char *fpath = json_string_value(json_object_get(file, "path"));
            json_t *kernels = json_object_get(file, "kernels");
            if (!fpath || !json_is_array(kernels)) {
                bad = "a file entry lacks \"path\" or \"kernels\"";
                break;
            }
            size_t k;
            json_t *kernel;
            json_array_foreach(kernels, k, kernel)
            {
                json_t *diags = json_object_get(kernel, "diagnostics");
                size_t d;
                json_t *diag;
                if (!json_is_array(diags)) {
                    bad = "a kernel entry lacks \"diagnostics\"";
                    break;
                }
                json_array_foreach(diags, d, diag)
                {
                    if (!add_diagnostic(b, fpath, diag)) {
                        bad = "a diagnostic lacks \"check\", \"message\" or \"line\"";
                        break;
                    }
                }
                if (bad)
                    break;
            }
            if (bad)
                break;
        }
    }
    json_decref(root);
    if (bad) {
        snprintf(err, errlen, "%s: %s", path, bad);
        hms_baseline_free(b);
        return NULL;
    }
    return b;
}

typedef struct {
    hms_baseline *b;
    hms_source_cache *src;
    bool by_text; /* also accept a moved line with the same text */
} filter_ctx;

static bool covered(const hms_file_report *file, const hms_finding *f, void *vctx)
{
    filter_ctx *x = vctx;
    const char *path = f->file ? f->file : file->path;
    if (!path || !f->check || !f->message)
        return false;
    char *canon = canonical(path);
    char *text = NULL;
    bool text_loaded = false;
    bool hit = false;
    for (size_t i = 0; i < x->b->n && !hit; i++) {
        baseline_entry *e = &x->b->v[i];
        if (e->used || strcmp(e->check, f->check) || strcmp(e->message, f->message) ||
            strcmp(e->file, canon))
            continue;
        if (e->line != f->line) {
            if (!x->by_text || !e->source_line)
                continue;
            if (!text_loaded) {
                text = hms_trimmed_source_line(x->src, path, f->line);
                text_loaded = true;
            }
            if (!text || strcmp(text, e->source_line) != 0)
                continue;
        }
        e->used = hit = true;
    }
    free(text);
    free(canon);
    return hit;
}

size_t hms_baseline_filter(hms_report *r, hms_baseline *b, hms_source_cache *src)
{
    if (!b)
        return 0;
    /* Same-line matches first, so a finding that moved cannot take the entry
     * of one that stayed put. */
    filter_ctx by_line = {b, src, false};
    filter_ctx by_text = {b, src, true};
    size_t dropped = hms_report_drop_findings(r, covered, &by_line);
    return dropped + hms_report_drop_findings(r, covered, &by_text);
}
