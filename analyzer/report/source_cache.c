/* Per-file source text with a line index (see source_cache.h). */
#include "analyzer/report/source_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hms_source_file {
    char *path;
    char *text; /* NULL when unreadable (remembered so we do not retry) */
    size_t len;
    size_t *starts; /* byte offset of each line's first character */
    unsigned nlines;
};

void hms_source_cache_init(hms_source_cache *c)
{
    memset(c, 0, sizeof *c);
}

static void file_free(hms_source_file *f)
{
    free(f->path);
    free(f->text);
    free(f->starts);
    free(f);
}

void hms_source_cache_free(hms_source_cache *c)
{
    for (size_t i = 0; i < c->n; i++)
        file_free(c->files[i]);
    free(c->files);
    memset(c, 0, sizeof *c);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 8192, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (cap - n - 1 == 0) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (!buf || failed) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Lines end at "\n", "\r\n" or a lone "\r", as clang counts them. */
static void index_lines(hms_source_file *f)
{
    size_t cap = 64;
    f->starts = malloc(cap * sizeof *f->starts);
    f->nlines = 0;
    size_t i = 0;
    while (f->starts) {
        if (f->nlines == cap) {
            size_t *ns = realloc(f->starts, cap * 2 * sizeof *ns);
            if (!ns) {
                free(f->starts);
                f->starts = NULL;
                return;
            }
            f->starts = ns;
            cap *= 2;
        }
        f->starts[f->nlines++] = i;
        while (i < f->len && f->text[i] != '\n' && f->text[i] != '\r')
            i++;
        if (i >= f->len)
            break;
        i += (f->text[i] == '\r' && i + 1 < f->len && f->text[i + 1] == '\n') ? 2 : 1;
        if (i >= f->len)
            break; /* a final line terminator does not start another line */
    }
}

static hms_source_file *lookup(hms_source_cache *c, const char *path)
{
    if (!path)
        return NULL;
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->files[i]->path, path) == 0)
            return c->files[i]->text ? c->files[i] : NULL;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 8;
        hms_source_file **nf = realloc(c->files, cap * sizeof *nf);
        if (!nf)
            return NULL;
        c->files = nf;
        c->cap = cap;
    }
    hms_source_file *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->path = strdup(path);
    if (!f->path) {
        free(f);
        return NULL;
    }
    f->text = slurp(path, &f->len);
    if (f->text)
        index_lines(f);
    if (f->text && !f->starts) {
        free(f->text);
        f->text = NULL;
    }
    c->files[c->n++] = f;
    return f->text ? f : NULL;
}

const char *hms_source_text(hms_source_cache *c, const char *path, size_t *len)
{
    hms_source_file *f = lookup(c, path);
    if (!f)
        return NULL;
    if (len)
        *len = f->len;
    return f->text;
}

static size_t line_length(const hms_source_file *f, unsigned idx)
{
    size_t s = f->starts[idx], e = s;
    while (e < f->len && f->text[e] != '\n' && f->text[e] != '\r')
        e++;
    return e - s;
}

const char *hms_source_line(hms_source_cache *c, const char *path, unsigned line, size_t *len)
{
    hms_source_file *f = lookup(c, path);
    if (!f || line == 0 || line > f->nlines)
        return NULL;
    if (len)
        *len = line_length(f, line - 1);
    return f->text + f->starts[line - 1];
}

unsigned hms_source_line_count(hms_source_cache *c, const char *path)
{
    hms_source_file *f = lookup(c, path);
    return f ? f->nlines : 0;
}

bool hms_source_offset(hms_source_cache *c, const char *path, unsigned line, unsigned col,
                       size_t *offset)
{
    hms_source_file *f = lookup(c, path);
    if (!f || line == 0 || col == 0 || line > f->nlines)
        return false;
    size_t ll = line_length(f, line - 1);
    if ((size_t)col - 1 > ll)
        return false;
    *offset = f->starts[line - 1] + col - 1;
    return true;
}

void hms_source_forget(hms_source_cache *c, const char *path)
{
    for (size_t i = 0; i < c->n; i++) {
        if (strcmp(c->files[i]->path, path) == 0) {
            file_free(c->files[i]);
            c->files[i] = c->files[--c->n];
            return;
        }
    }
}
