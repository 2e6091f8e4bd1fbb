/* Baseline filtering (see baseline.h). */
#include "analyzer/report/baseline.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/fingerprint.h"
#include "analyzer/report/finding_filter.h"
#include "analyzer/report/report_json.h"
#include "analyzer/report/source_root.h"

typedef struct {
    char *file; /* canonical path */
    char *check, *message, *source_line;
    char *fingerprint; /* from a --write-baseline file: match by this alone */
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
        free(b->v[i].fingerprint);
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

/* A --write-baseline file: {"hms_lint_baseline": 1, "tool": {...},
 * "findings": [{"fingerprint", "file", "check", ...}]}, files relative to
 * the source root it was written under. */
static const char *add_fingerprints(hms_baseline *b, json_t *findings, const char *root)
{
    if (!json_is_array(findings))
        return "no \"findings\" array";
    size_t i;
    json_t *f;
    json_array_foreach(findings, i, f)
    {
        const char *fp = json_string_value(json_object_get(f, "fingerprint"));
        const char *file = json_string_value(json_object_get(f, "file"));
        const char *check = json_string_value(json_object_get(f, "check"));
        if (!fp || !file || !check)
            return "a finding lacks \"fingerprint\", \"file\" or \"check\"";
        baseline_entry *nv = realloc(b->v, (b->n + 1) * sizeof *nv);
        if (!nv)
            return "out of memory";
        b->v = nv;
        baseline_entry *e = &b->v[b->n++];
        memset(e, 0, sizeof *e);
        char *abs = NULL;
        if (file[0] != '/' && root && asprintf(&abs, "%s/%s", root, file) < 0)
            abs = NULL;
        e->file = canonical(abs ? abs : file);
        free(abs);
        e->check = strdup(check);
        const char *msg = json_string_value(json_object_get(f, "message"));
        e->message = strdup(msg ? msg : "");
        e->fingerprint = strdup(fp);
        e->line = (unsigned)json_integer_value(json_object_get(f, "line"));
    }
    return NULL;
}

/* An earlier JSON report (--format=json). */
static const char *add_report(hms_baseline *b, json_t *files)
{
    if (!json_is_array(files))
        return "not an hms-lint JSON report or baseline (no \"findings\" or \"files\" array)";
    size_t i;
    json_t *file;
    json_array_foreach(files, i, file)
    {
        const char *fpath = json_string_value(json_object_get(file, "path"));
        json_t *kernels = json_object_get(file, "kernels");
        if (!fpath || !json_is_array(kernels))
            return "a file entry lacks \"path\" or \"kernels\"";
        size_t k;
        json_t *kernel;
        json_array_foreach(kernels, k, kernel)
        {
            json_t *diags = json_object_get(kernel, "diagnostics");
            size_t d;
            json_t *diag;
            if (!json_is_array(diags))
                return "a kernel entry lacks \"diagnostics\"";
            json_array_foreach(diags, d, diag)
            {
                if (!add_diagnostic(b, fpath, diag))
                    return "a diagnostic lacks \"check\", \"message\" or \"line\"";
            }
        }
    }
    return NULL;
}

hms_baseline *hms_baseline_load_for(const char *path, const char *tool_version,
                                    const char *source_root, hms_file_error *err)
{
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root) {
        if (je.line > 0)
            hms_file_error_set(err, path, (unsigned)je.line,
                               je.column > 0 ? (unsigned)je.column : 0, "not valid JSON: %s",
                               je.text);
        else
            hms_file_error_set(err, path, 0, 0, "%s", je.text);
        return NULL;
    }
    hms_baseline *b = calloc(1, sizeof *b);
    const char *bad = NULL;
    const char *version =
        json_string_value(json_object_get(json_object_get(root, "tool"), "version"));
    if (!b)
        bad = "out of memory";
    else if (!json_is_object(root))
        bad = "not an hms-lint JSON report or baseline (not a JSON object)";
    else if (tool_version && version && strcmp(version, tool_version) != 0) {
        hms_file_error_set(err, path, 0, 0,
                           "written by hms-lint %s, this is %s; findings and fingerprints may "
                           "differ between versions, so regenerate it with --write-baseline",
                           version, tool_version);
        json_decref(root);
        hms_baseline_free(b);
        return NULL;
    } else if (json_object_get(root, "hms_lint_baseline"))
        bad = add_fingerprints(b, json_object_get(root, "findings"), source_root);
    else
        bad = add_report(b, json_object_get(root, "files"));
    json_decref(root);
    if (bad) {
        hms_file_error_set(err, path, 0, 0, "%s", bad);
        hms_baseline_free(b);
        return NULL;
    }
    return b;
}

hms_baseline *hms_baseline_load(const char *path, hms_file_error *err)
{
    return hms_baseline_load_for(path, NULL, NULL, err);
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
    hms_fingerprint fp = {{0}};
    bool fp_done = false;
    for (size_t i = 0; i < x->b->n && !hit; i++) {
        baseline_entry *e = &x->b->v[i];
        if (e->used || strcmp(e->check, f->check) || strcmp(e->file, canon))
            continue;
        if (e->fingerprint) {
            /* The fingerprint already holds the line's text, so one pass does. */
            if (!fp_done) {
                const hms_kernel_report *k = hms_kernel_of_finding(file, f);
                fp = hms_finding_fingerprint(f, file->path, k ? k->name : NULL, x->src);
                fp_done = true;
            }
            if (!x->by_text && !strcmp(e->fingerprint, fp.hex))
                e->used = hit = true;
            continue;
        }
        if (strcmp(e->message, f->message))
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
