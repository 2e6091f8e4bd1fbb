/* --export-fixes YAML (libyaml emitter) and --fix application (see fixes.h). */
#include "analyzer/report/fixes.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "analyzer/cli/atomic_file.h"
#include "analyzer/report/diag_sink.h"

typedef struct {
    const char *path; /* as the finding names it (source cache key) */
    char *canon;      /* realpath, for grouping and FilePath */
    size_t offset, length;
    const char *text;
    size_t order;
} replacement;

/* A fix-it left out: a warning at its place (line/col 0: the file). */
static hms_diag_head warning_at(const char *path, unsigned line, unsigned col)
{
    return (hms_diag_head){HMS_DIAG_WARNING, path, line, col, NULL, NULL};
}

static char *canonical(const char *path)
{
    char *r = realpath(path, NULL);
    return r ? r : strdup(path);
}

/* Byte range of a fix-it; false when it lies outside the file. */
static bool fixit_range(hms_source_cache *src, const char *path, const hms_fixit *x, size_t *off,
                        size_t *len)
{
    unsigned el = x->end_line ? x->end_line : x->line;
    unsigned ec = x->end_line ? x->end_col : x->col;
    size_t b, e;
    if (!hms_source_offset(src, path, x->line, x->col, &b) ||
        !hms_source_offset(src, path, el, ec, &e) || e < b)
        return false;
    *off = b;
    *len = e - b;
    return true;
}

/* ---- YAML -------------------------------------------------------------- */

typedef struct {
    yaml_emitter_t em;
    bool ok;
} yaml_out;

static void emit(yaml_out *y, yaml_event_t *ev)
{
    if (y->ok && !yaml_emitter_emit(&y->em, ev))
        y->ok = false;
}

static void scalar(yaml_out *y, const char *s, yaml_scalar_style_t style)
{
    yaml_event_t ev;
    if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1,
                                      style)) {
        y->ok = false;
        return;
    }
    emit(y, &ev);
}

static void key_value(yaml_out *y, const char *key, const char *value, yaml_scalar_style_t style)
{
    scalar(y, key, YAML_PLAIN_SCALAR_STYLE);
    scalar(y, value, style);
}

static void key_number(yaml_out *y, const char *key, size_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%zu", v);
    key_value(y, key, buf, YAML_PLAIN_SCALAR_STYLE);
}

static void mapping(yaml_out *y, bool start)
{
    yaml_event_t ev;
    if (start)
        yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
    else
        yaml_mapping_end_event_initialize(&ev);
    emit(y, &ev);
}

static void sequence(yaml_out *y, bool start)
{
    yaml_event_t ev;
    if (start)
        yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
    else
        yaml_sequence_end_event_initialize(&ev);
    emit(y, &ev);
}

/* What the export has emitted so far: a header's finding reached through
 * several .cu files (or kernels) is written once, and no two exported
 * replacements collide, so clang-apply-replacements takes the file whole. */
typedef struct {
    char **keys; /* findings: check, place, message */
    size_t nkeys;
    replacement *edits; /* accepted replacements (canon owned) */
    size_t nedits;
} export_seen;

static bool seen_key(export_seen *s, const char *key)
{
    for (size_t i = 0; i < s->nkeys; i++)
        if (strcmp(s->keys[i], key) == 0)
            return true;
    char **nv = realloc(s->keys, (s->nkeys + 1) * sizeof *nv);
    char *k = strdup(key);
    if (!nv || !k) {
        free(k);
        if (nv)
            s->keys = nv;
        return false;
    }
    s->keys = nv;
    s->keys[s->nkeys++] = k;
    return false;
}

static bool collide(const replacement *a, const replacement *b);
static bool same_edit(const replacement *a, const replacement *b);

/* 0: new edit, now accepted; 1: the very same edit was accepted before;
 * 2: it collides with a different accepted edit. */
static int accept_edit(export_seen *s, const replacement *r)
{
    for (size_t i = 0; i < s->nedits; i++) {
        if (strcmp(s->edits[i].canon, r->canon) != 0)
            continue;
        if (same_edit(&s->edits[i], r))
            return 1;
        if (collide(&s->edits[i], r))
            return 2;
    }
    replacement *nv = realloc(s->edits, (s->nedits + 1) * sizeof *nv);
    if (nv) {
        s->edits = nv;
        s->edits[s->nedits] = *r;
        s->edits[s->nedits++].canon = strdup(r->canon);
    }
    return 0;
}

static void export_seen_free(export_seen *s)
{
    for (size_t i = 0; i < s->nkeys; i++)
        free(s->keys[i]);
    free(s->keys);
    for (size_t i = 0; i < s->nedits; i++)
        free(s->edits[i].canon);
    free(s->edits);
}

static const char *level_name(hms_severity s)
{
    /* clang-tidy's levels are Remark, Warning and Error. */
    return s == HMS_SEV_ERROR ? "Error" : s == HMS_SEV_WARNING ? "Warning" : "Remark";
}

static void emit_diagnostic(yaml_out *y, hms_source_cache *src, const hms_finding *f,
                            const char *file_path, export_seen *seen, hms_diag_sink *said)
{
    const char *path = f->file ? f->file : file_path;
    char *canon = canonical(path);
    size_t off = 0;
    if (!hms_source_offset(src, path, f->line, f->col, &off))
        off = 0;
    char *key = NULL;
    if (asprintf(&key, "%s|%s|%zu|%s", f->check ? f->check : "", canon ? canon : path, off,
                 f->message ? f->message : "") >= 0 &&
        seen_key(seen, key)) {
        free(key);
        free(canon);
        return; /* the same finding through another file: once */
    }
    free(key);
    mapping(y, true);
    key_value(y, "DiagnosticName", f->check ? f->check : "hms-unknown", YAML_PLAIN_SCALAR_STYLE);
    scalar(y, "DiagnosticMessage", YAML_PLAIN_SCALAR_STYLE);
    mapping(y, true);
    key_value(y, "Message", f->message ? f->message : "", YAML_SINGLE_QUOTED_SCALAR_STYLE);
    key_value(y, "FilePath", canon ? canon : path, YAML_SINGLE_QUOTED_SCALAR_STYLE);
    key_number(y, "FileOffset", off);
    scalar(y, "Replacements", YAML_PLAIN_SCALAR_STYLE);
    sequence(y, true);
    for (size_t i = 0; i < f->nfixits; i++) {
        const hms_fixit *x = &f->fixits[i];
        const char *xpath = x->file ? x->file : path;
        size_t xo, xl;
        if (!fixit_range(src, xpath, x, &xo, &xl)) {
            hms_diagf(said, warning_at(xpath, x->line, x->col),
                      "fix-it outside the file; not exported");
            continue;
        }
        char *xcanon = canonical(xpath);
        replacement r = {xpath, xcanon, xo, xl, x->replacement ? x->replacement : "", 0};
        int verdict = xcanon ? accept_edit(seen, &r) : 0;
        if (verdict == 2)
            hms_diagf(said, warning_at(xpath, x->line, x->col),
                      "fix-it conflicts with the fix-it of an earlier finding; not exported");
        if (verdict != 0) {
            free(xcanon);
            continue;
        }
        mapping(y, true);
        key_value(y, "FilePath", xcanon ? xcanon : xpath, YAML_SINGLE_QUOTED_SCALAR_STYLE);
        key_number(y, "Offset", xo);
        key_number(y, "Length", xl);
        key_value(y, "ReplacementText", x->replacement ? x->replacement : "",
                  YAML_DOUBLE_QUOTED_SCALAR_STYLE);
        mapping(y, false);
        free(xcanon);
    }
    sequence(y, false);
    mapping(y, false);
    key_value(y, "Level", level_name(f->severity), YAML_PLAIN_SCALAR_STYLE);
    mapping(y, false);
    free(canon);
}

static int yaml_write_file(void *data, unsigned char *buffer, size_t size)
{
    return fwrite(buffer, 1, size, (FILE *)data) == size;
}

bool hms_write_fixes_yaml(const hms_report *r, hms_source_cache *src, const char *main_file,
                          FILE *out, hms_diag_sink *said)
{
    yaml_out y = {.ok = true};
    if (!yaml_emitter_initialize(&y.em))
        return false;
    yaml_emitter_set_output(&y.em, yaml_write_file, out);
    yaml_emitter_set_unicode(&y.em, 1);
    yaml_emitter_set_width(&y.em, -1);
    yaml_event_t ev;
    yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
    emit(&y, &ev);
    yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
    emit(&y, &ev);
    mapping(&y, true);
    char *main_canon = main_file && *main_file ? canonical(main_file) : NULL;
    key_value(&y, "MainSourceFile", main_canon ? main_canon : "", YAML_SINGLE_QUOTED_SCALAR_STYLE);
    free(main_canon);
    scalar(&y, "Diagnostics", YAML_PLAIN_SCALAR_STYLE);
    sequence(&y, true);
    export_seen seen = {0};
    for (size_t i = 0; i < r->nfiles; i++)
        for (size_t k = 0; k < r->files[i].nkernels; k++)
            for (size_t d = 0; d < r->files[i].kernels[k].ndiagnostics; d++)
                emit_diagnostic(&y, src, &r->files[i].kernels[k].diagnostics[d], r->files[i].path,
                                &seen, said);
    export_seen_free(&seen);
    sequence(&y, false);
    mapping(&y, false);
    yaml_document_end_event_initialize(&ev, 0);
    emit(&y, &ev);
    yaml_stream_end_event_initialize(&ev);
    emit(&y, &ev);
    if (y.ok && !yaml_emitter_flush(&y.em))
        y.ok = false;
    yaml_emitter_delete(&y.em);
    return y.ok && !ferror(out);
}

/* ---- --fix ----------------------------------------------------------------- */

static int by_file(const void *pa, const void *pb)
{
    const replacement *a = pa, *b = pb;
    int c = strcmp(a->canon, b->canon);
    if (c)
        return c;
    return a->order < b->order ? -1 : a->order > b->order;
}

static bool same_edit(const replacement *a, const replacement *b)
{
    return a->offset == b->offset && a->length == b->length && strcmp(a->text, b->text) == 0;
}

static int by_order(const void *pa, const void *pb)
{
    const replacement *a = pa, *b = pb;
    return a->order < b->order ? -1 : a->order > b->order;
}

static int by_offset(const void *pa, const void *pb)
{
    const replacement *a = pa, *b = pb;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    return by_order(pa, pb);
}

/* Two edits collide when their ranges overlap or both insert at one point. */
static bool collide(const replacement *a, const replacement *b)
{
    if (a->offset == b->offset)
        return true;
    const replacement *lo = a->offset < b->offset ? a : b, *hi = lo == a ? b : a;
    return hi->offset < lo->offset + lo->length;
}

/* Rewrites one file with v[0..n) (all in that file). */
static bool apply_to_file(hms_source_cache *src, replacement *v, size_t n, hms_diag_sink *said,
                          size_t *applied)
{
    size_t len;
    const char *text = hms_source_text(src, v[0].path, &len);
    if (!text) {
        hms_diagf(said, (hms_diag_head){HMS_DIAG_ERROR, v[0].path, 0, 0, NULL, NULL},
                  "cannot read the file to apply fixes");
        return false;
    }
    /* In finding order, an edit that collides with one already accepted is
     * skipped (an exact duplicate silently); then apply by offset. */
    qsort(v, n, sizeof *v, by_order);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        bool dup = false, clash = false;
        for (size_t j = 0; j < kept && !dup && !clash; j++) {
            dup = same_edit(&v[j], &v[i]);
            clash = !dup && collide(&v[j], &v[i]);
        }
        if (dup)
            continue;
        if (clash) {
            hms_diagf(said, warning_at(v[i].path, 0, 0),
                      "fix-it at offset %zu overlaps another; not applied", v[i].offset);
            continue;
        }
        if (v[i].offset + v[i].length > len) {
            hms_diagf(said, warning_at(v[i].path, 0, 0),
                      "fix-it past the end of the file; not applied");
            continue;
        }
        replacement tmp = v[kept];
        v[kept++] = v[i];
        v[i] = tmp;
    }
    qsort(v, kept, sizeof *v, by_offset);
    /* Building the new text front to back equals applying back to front. */
    char *buf = NULL;
    size_t blen = 0;
    FILE *m = open_memstream(&buf, &blen);
    bool ok = m != NULL;
    size_t pos = 0;
    for (size_t i = 0; ok && i < kept; i++) {
        fwrite(text + pos, 1, v[i].offset - pos, m);
        fputs(v[i].text, m);
        pos = v[i].offset + v[i].length;
    }
    if (m) {
        fwrite(text + pos, 1, len - pos, m);
        ok = fclose(m) == 0 && ok;
    }
    hms_file_error why;
    if (ok && kept > 0) {
        ok = hms_write_file_atomic(v[0].path, buf, blen, &why);
        if (!ok)
            hms_diag_file_error(said, HMS_DIAG_ERROR, &why);
        else
            hms_diagf(said, (hms_diag_head){HMS_DIAG_NOTE, v[0].path, 0, 0, NULL, NULL},
                      "applied %zu fix%s", kept, kept == 1 ? "" : "es");
    }
    if (ok && applied)
        *applied += kept;
    free(buf);
    hms_source_forget(src, v[0].path);
    return ok;
}

/* --fix edits only the files the user asked to lint, never a header (or
 * a path a #line directive names) reached through them. */
static bool is_linted_file(const hms_report *r, const char *canon)
{
    bool found = false;
    for (size_t i = 0; i < r->nfiles && !found; i++) {
        char *c = canonical(r->files[i].path);
        found = c && strcmp(c, canon) == 0;
        free(c);
    }
    return found;
}

bool hms_apply_fixes(const hms_report *r, hms_source_cache *src, hms_diag_sink *said,
                     size_t *applied)
{
    if (applied)
        *applied = 0;
    size_t n = 0, cap = 16;
    replacement *v = malloc(cap * sizeof *v);
    if (!v)
        return false;
    for (size_t i = 0; i < r->nfiles; i++) {
        const hms_file_report *fr = &r->files[i];
        for (size_t k = 0; k < fr->nkernels; k++) {
            for (size_t d = 0; d < fr->kernels[k].ndiagnostics; d++) {
                const hms_finding *f = &fr->kernels[k].diagnostics[d];
                for (size_t x = 0; x < f->nfixits; x++) {
                    const hms_fixit *fx = &f->fixits[x];
                    const char *path = fx->file ? fx->file : f->file ? f->file : fr->path;
                    replacement rp = {path, NULL, 0, 0, fx->replacement ? fx->replacement : "", n};
                    if (!fixit_range(src, path, fx, &rp.offset, &rp.length)) {
                        hms_diagf(said, warning_at(path, fx->line, fx->col),
                                  "fix-it outside the file; not applied");
                        continue;
                    }
                    if (n == cap) {
                        replacement *nv = realloc(v, cap * 2 * sizeof *nv);
                        if (!nv)
                            continue;
                        v = nv;
                        cap *= 2;
                    }
                    rp.canon = canonical(path);
                    if (!rp.canon)
                        continue;
                    if (!is_linted_file(r, rp.canon)) {
                        hms_diagf(said, warning_at(path, fx->line, fx->col),
                                  "fix-it in a file not linted; not applied");
                        free(rp.canon);
                        continue;
                    }
                    v[n++] = rp;
                }
            }
        }
    }
    qsort(v, n, sizeof *v, by_file);
    bool ok = true;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && strcmp(v[j].canon, v[i].canon) == 0)
            j++;
        if (!apply_to_file(src, v + i, j - i, said, applied))
            ok = false;
        i = j;
    }
    for (size_t i = 0; i < n; i++)
        free(v[i].canon);
    free(v);
    return ok;
}
