/* CSV reader (see csv.h). */
#include "analyzer/cli/csv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CSV_BYTES (64u << 20)

typedef struct {
    char *s;
    size_t n, cap;
} text;

static bool add_char(text *t, char c)
{
    if (t->n + 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        char *ns = realloc(t->s, cap);
        if (!ns)
            return false;
        t->s = ns;
        t->cap = cap;
    }
    t->s[t->n++] = c;
    t->s[t->n] = '\0';
    return true;
}

static bool add_cell(hms_csv_row *r, text *t)
{
    char **nc = realloc(r->cell, (r->ncells + 1) * sizeof *nc);
    if (!nc)
        return false;
    r->cell = nc;
    r->cell[r->ncells++] = t->s ? t->s : strdup("");
    bool ok = r->cell[r->ncells - 1] != NULL;
    *t = (text){0};
    return ok;
}

static void row_free(hms_csv_row *r)
{
    for (size_t i = 0; i < r->ncells; i++)
        free(r->cell[i]);
    free(r->cell);
    *r = (hms_csv_row){0};
}

static bool add_row(hms_csv *c, hms_csv_row *r)
{
    /* a blank line is one empty cell */
    if (r->ncells == 1 && r->cell[0][0] == '\0') {
        row_free(r);
        return true;
    }
    hms_csv_row *nr = realloc(c->row, (c->nrows + 1) * sizeof *nr);
    if (!nr)
        return false;
    c->row = nr;
    c->row[c->nrows++] = *r;
    *r = (hms_csv_row){0};
    return true;
}

bool hms_csv_read(const char *path, hms_csv *out, hms_file_error *err)
{
    *out = (hms_csv){0};
    FILE *f = fopen(path, "rb");
    if (!f) {
        hms_file_error_set(err, path, 0, 0, "cannot read: %s", strerror(errno));
        return false;
    }
    text t = {0};
    hms_csv_row r = {0};
    unsigned line = 1, quote_line = 0;
    bool quoted = false, ok = true, after_quote = false;
    size_t total = 0;
    r.line = 1;
    int ch;
    while (ok && (ch = fgetc(f)) != EOF) {
        if (++total > MAX_CSV_BYTES) {
            hms_file_error_set(err, path, 0, 0, "larger than 64 MB; not a table of runs");
            ok = false;
            break;
        }
        if (ch == '\0') {
            hms_file_error_set(err, path, line, 0, "binary data (a NUL byte); not a CSV file");
            ok = false;
            break;
        }
        if (quoted) {
            if (ch == '"') {
                int nx = fgetc(f);
                if (nx == '"')
                    ok = add_char(&t, '"');
                else {
                    quoted = false;
                    after_quote = true;
                    if (nx != EOF)
                        ungetc(nx, f);
                }
            } else {
                if (ch == '\n')
                    line++;
                ok = add_char(&t, (char)ch);
            }
            continue;
        }
        if (ch == '"' && t.n == 0 && !after_quote) {
            quoted = true;
            quote_line = line;
        } else if (ch == ',') {
            ok = add_cell(&r, &t);
            after_quote = false;
        } else if (ch == '\n') {
            ok = add_cell(&r, &t) && add_row(out, &r);
            after_quote = false;
            r.line = ++line;
        } else if (ch != '\r')
            ok = add_char(&t, (char)ch);
        if (!ok)
            hms_file_error_set(err, path, 0, 0, "out of memory");
    }
    if (ok && quoted) {
        hms_file_error_set(err, path, quote_line, 0, "unterminated quoted cell");
        ok = false;
    }
    if (ok && ferror(f)) {
        hms_file_error_set(err, path, 0, 0, "read error");
        ok = false;
    }
    if (ok && (t.n || r.ncells) && !(add_cell(&r, &t) && add_row(out, &r)))
        ok = hms_file_error_set(err, path, 0, 0, "out of memory");
    fclose(f);
    free(t.s);
    row_free(&r);
    if (!ok)
        hms_csv_free(out);
    return ok;
}

void hms_csv_free(hms_csv *c)
{
    for (size_t i = 0; i < c->nrows; i++)
        row_free(&c->row[i]);
    free(c->row);
    *c = (hms_csv){0};
}
