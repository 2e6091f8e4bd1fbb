/* JSON report -> LSP diagnostics, code actions and hover. */
#include "analyzer/lsp/lsp_convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report_sarif.h" /* HMS_PROJECT_URI */

char *hms_lsp_uri_to_path(const char *uri)
{
    static const char scheme[] = "file://";
    if (!uri || strncmp(uri, scheme, sizeof scheme - 1) != 0)
        return NULL;
    const char *p = uri + sizeof scheme - 1;
    if (*p != '/') { /* file://host/path: only the local host */
        const char *slash = strchr(p, '/');
        if (!slash || (strncmp(p, "localhost/", 10) != 0))
            return NULL;
        p = slash;
    }
    char *out = malloc(strlen(p) + 1), *o = out;
    if (!out)
        return NULL;
    for (; *p; p++) {
        unsigned v;
        if (*p == '%' && p[1] && p[2] && sscanf(p + 1, "%2x", &v) == 1) {
            *o++ = (char)v;
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

char *hms_lsp_path_to_uri(const char *path)
{
    char *out = malloc(strlen(path) * 3 + 8), *o = out;
    if (!out)
        return NULL;
    o += sprintf(o, "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("/-_.~+", *p))
            *o++ = (char)*p;
        else
            o += sprintf(o, "%%%02X", *p);
    }
    *o = '\0';
    return out;
}

/* Start of the 1-based line of text (NULL past the end). */
static const char *line_start(const char *text, long line)
{
    const char *p = text;
    for (long l = 1; p && l < line; l++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return p;
}

/* UTF-16 code units of the UTF-8 bytes [p, p+n) (stops at a newline). */
static long utf16_units(const char *p, long n)
{
    long units = 0;
    for (long i = 0; i < n && p[i] && p[i] != '\n';) {
        unsigned char c = (unsigned char)p[i];
        int len = c < 0x80 ? 1 : c >> 5 == 6 ? 2 : c >> 4 == 14 ? 3 : c >> 3 == 30 ? 4 : 1;
        units += len == 4 ? 2 : 1;
        i += len;
    }
    return units;
}

json_t *hms_lsp_position(const char *text, long line, long col)
{
    long l0 = line > 0 ? line - 1 : 0;
    long ch = col > 0 ? col - 1 : 0;
    const char *ls = text ? line_start(text, line > 0 ? line : 1) : NULL;
    if (ls)
        ch = utf16_units(ls, ch);
    return json_pack("{s:I, s:I}", "line", (json_int_t)l0, "character", (json_int_t)ch);
}

long hms_lsp_byte_column(const char *text, long line0, long character)
{
    const char *ls = text ? line_start(text, line0 + 1) : NULL;
    if (!ls)
        return character + 1;
    long i = 0, units = 0;
    while (ls[i] && ls[i] != '\n' && units < character) {
        unsigned char c = (unsigned char)ls[i];
        int len = c < 0x80 ? 1 : c >> 5 == 6 ? 2 : c >> 4 == 14 ? 3 : c >> 3 == 30 ? 4 : 1;
        units += len == 4 ? 2 : 1;
        i += len;
    }
    return i + 1;
}

/* The string at key, or "?" (json_pack and printf need one). */
static const char *str_of(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "?";
}

static long int_of(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (long)json_integer_value(v) : 0;
}

/* {start, end} of a 1-based start and exclusive end; a missing end marks
 * one character. */
static json_t *range_of(const char *text, long line, long col, long eline, long ecol)
{
    if (eline <= 0 || ecol <= 0 || eline < line || (eline == line && ecol <= col)) {
        eline = line;
        ecol = col + 1;
    }
    return json_pack("{s:o, s:o}", "start", hms_lsp_position(text, line, col), "end",
                     hms_lsp_position(text, eline, ecol));
}

static int lsp_severity(const char *s)
{
    return !s ? 2 : strcmp(s, "error") == 0 ? 1 : strcmp(s, "warning") == 0 ? 2 : 3;
}

static json_t *finding(json_t *d, const char *text, const char *uri)
{
    const char *check = json_string_value(json_object_get(d, "check"));
    json_t *range = range_of(text, int_of(d, "line"), int_of(d, "column"), int_of(d, "end_line"),
                             int_of(d, "end_column"));
    char *href = NULL;
    if (asprintf(&href, "%s/blob/main/docs/checks/%s.md", HMS_PROJECT_URI, check ? check : "") < 0)
        href = NULL;
    json_t *out = json_pack("{s:o, s:i, s:s, s:s, s:{s:s}, s:s}", "range", range, "severity",
                            lsp_severity(json_string_value(json_object_get(d, "severity"))), "code",
                            check ? check : "hms-lint", "source", "hms-lint", "codeDescription",
                            "href", href ? href : HMS_PROJECT_URI, "message", str_of(d, "message"));
    free(href);
    json_t *related = json_array(), *note;
    size_t i;
    json_array_foreach(json_object_get(d, "notes"), i, note)
    {
        long l = int_of(note, "line"), c = int_of(note, "column");
        const char *m = json_string_value(json_object_get(note, "message"));
        json_array_append_new(related,
                              json_pack("{s:{s:s, s:o}, s:s}", "location", "uri", uri, "range",
                                        range_of(text, l, c, 0, 0), "message", m ? m : ""));
    }
    if (json_array_size(related))
        json_object_set_new(out, "relatedInformation", related);
    else
        json_decref(related);
    return out;
}

/* One of the run's notifications (docs/report-format.md) -> a diagnostic, or
 * NULL when the editor need not show it. One about the linted file (path)
 * goes at its place; an error elsewhere (a header, a .hms-lint, the run)
 * at line 1, naming where it is. Warnings about other files and notes stay
 * in the log. */
static json_t *notification(json_t *n, const char *path, const char *text)
{
    const char *sev = str_of(n, "severity"), *msg = str_of(n, "message");
    const char *file = json_string_value(json_object_get(n, "file"));
    const char *code = json_string_value(json_object_get(n, "code"));
    long line = int_of(n, "line"), col = int_of(n, "column");
    bool here = file && path && strcmp(file, path) == 0;
    if (strcmp(sev, "error") != 0 && !(here && strcmp(sev, "warning") == 0))
        return NULL;
    char *where = NULL; /* "file[:line[:col]]: message" for a record elsewhere */
    if (!here && file) {
        int made = line && col ? asprintf(&where, "%s:%ld:%ld: %s", file, line, col, msg)
                   : line      ? asprintf(&where, "%s:%ld: %s", file, line, msg)
                               : asprintf(&where, "%s: %s", file, msg);
        if (made < 0)
            where = NULL;
    }
    json_t *d = json_pack("{s:o, s:i, s:s, s:s}", "range",
                          here ? range_of(text, line > 0 ? line : 1, col > 0 ? col : 1, 0, 0)
                               : range_of(text, 1, 1, 0, 0),
                          "severity", lsp_severity(sev), "source", "hms-lint", "message",
                          where ? where : msg);
    free(where);
    if (d && code)
        json_object_set_new(d, "code", json_string(code));
    return d;
}

/* Each finding once: a finding reached from several kernels is listed in each
 * (same_in_kernels); the editor shows it once. */
static bool seen_before(json_t *seen, json_t *d)
{
    char *key = NULL;
    if (asprintf(&key, "%s|%ld|%ld|%s", str_of(d, "check"), int_of(d, "line"), int_of(d, "column"),
                 str_of(d, "message")) < 0)
        return false;
    bool dup = json_object_get(seen, key) != NULL;
    json_object_set_new(seen, key, json_true());
    free(key);
    return dup;
}

json_t *hms_lsp_diagnostics(json_t *file, json_t *notifications, const char *text, const char *uri)
{
    json_t *out = json_array(), *seen = json_object(), *k, *d, *n;
    size_t i, j;
    const char *path = json_string_value(json_object_get(file, "path"));
    json_array_foreach(notifications, i, n)
    {
        json_t *diag = notification(n, path, text);
        if (diag)
            json_array_append_new(out, diag);
    }
    json_array_foreach(json_object_get(file, "kernels"), i, k)
    {
        json_array_foreach(json_object_get(k, "diagnostics"), j, d)
        {
            if (!seen_before(seen, d))
                json_array_append_new(out, finding(d, text, uri));
        }
    }
    json_decref(seen);
    return out;
}

json_t *hms_lsp_code_actions(json_t *file, const char *text, const char *uri, long l0, long l1)
{
    json_t *out = json_array(), *seen = json_object(), *k, *d, *f;
    size_t i, j, m;
    json_array_foreach(json_object_get(file, "kernels"), i, k)
    {
        json_array_foreach(json_object_get(k, "diagnostics"), j, d)
        {
            json_t *fixits = json_object_get(d, "fixits");
            long dl = int_of(d, "line") - 1, de = int_of(d, "end_line") - 1;
            if (de < dl)
                de = dl;
            if (!json_array_size(fixits) || de < l0 || dl > l1 || seen_before(seen, d))
                continue;
            json_t *edits = json_array();
            json_array_foreach(fixits, m, f)
            {
                const char *rep = json_string_value(json_object_get(f, "replacement"));
                long fl = int_of(f, "line"), fc = int_of(f, "column");
                long el = int_of(f, "end_line"), ec = int_of(f, "end_column");
                json_array_append_new(edits,
                                      json_pack("{s:{s:o, s:o}, s:s}", "range", "start",
                                                hms_lsp_position(text, fl, fc), "end",
                                                hms_lsp_position(text, el ? el : fl, ec ? ec : fc),
                                                "newText", rep ? rep : ""));
            }
            const char *check = json_string_value(json_object_get(d, "check"));
            char *title = NULL;
            if (asprintf(&title, "hms-lint: apply the fix for %s", check ? check : "this finding") <
                0)
                title = NULL;
            json_t *changes = json_object();
            json_object_set_new(changes, uri, edits);
            json_array_append_new(out, json_pack("{s:s, s:s, s:[o], s:b, s:{s:o}}", "title",
                                                 title ? title : "hms-lint fix", "kind", "quickfix",
                                                 "diagnostics", finding(d, text, uri),
                                                 "isPreferred", 1, "edit", "changes", changes));
            free(title);
        }
    }
    json_decref(seen);
    return out;
}

/* Appends "label: value" when the figure applies (not null). */
static void figure(FILE *m, json_t *a, const char *key, const char *label, const char *unit)
{
    json_t *v = json_object_get(a, key);
    if (json_is_number(v))
        fprintf(m, "- %s: %.3g%s\n", label, json_number_value(v), unit);
}

static void placement_ranking(FILE *m, json_t *file, const char *array)
{
    json_t *k, *p, *opt;
    size_t i, j, n;
    json_array_foreach(json_object_get(file, "kernels"), i, k)
    {
        json_array_foreach(json_object_get(k, "placements"), j, p)
        {
            const char *name = json_string_value(json_object_get(p, "array"));
            if (!name || strcmp(name, array) != 0)
                continue;
            /* Legal options, fastest first (selection: a handful at most). */
            json_t *opts = json_object_get(p, "options");
            size_t cnt = json_array_size(opts);
            bool *done = calloc(cnt ? cnt : 1, sizeof *done);
            if (!done)
                return;
            fprintf(m, "\n**Placement ranking** (predicted time, estimate; current: %s)\n",
                    str_of(p, "current"));
            for (size_t r = 0; r < cnt; r++) {
                size_t best = cnt;
                json_array_foreach(opts, n, opt)
                {
                    json_t *t = json_object_get(opt, "predicted_time");
                    /* Illegal options are not candidates (whatever their time field says). */
                    if (done[n] || !json_is_number(t) ||
                        !json_is_true(json_object_get(opt, "legal")))
                        continue;
                    if (best == cnt ||
                        json_number_value(t) < json_number_value(json_object_get(
                                                   json_array_get(opts, best), "predicted_time")))
                        best = n;
                }
                if (best == cnt)
                    break;
                done[best] = true;
                opt = json_array_get(opts, best);
                fprintf(m, "%zu. %s: %.0f cycles (x%.2f)\n", r + 1, str_of(opt, "space"),
                        json_number_value(json_object_get(opt, "predicted_time")),
                        json_number_value(json_object_get(opt, "speedup")));
            }
            free(done);
            return; /* the first kernel's ranking */
        }
    }
}

json_t *hms_lsp_hover(json_t *file, const char *text, long line0, long character)
{
    long line = line0 + 1, col = hms_lsp_byte_column(text, line0, character);
    json_t *k, *a, *best = NULL;
    size_t i, j;
    /* The access starting closest before the cursor on its line. */
    json_array_foreach(json_object_get(file, "kernels"), i, k)
    {
        json_array_foreach(json_object_get(k, "accesses"), j, a)
        {
            long ac = int_of(a, "column");
            if (int_of(a, "line") == line && ac <= col && (!best || ac > int_of(best, "column")))
                best = a;
        }
    }
    if (!best)
        return json_null();
    char *md = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&md, &len);
    if (!m)
        return json_null();
    const char *array = json_string_value(json_object_get(best, "array"));
    fprintf(m, "**hms-lint**: %s %s of `%s` (%s memory, %ld-byte elements)\n\n",
            json_is_true(json_object_get(best, "exact")) ? "exact" : "estimated",
            str_of(best, "kind"), array ? array : "?", str_of(best, "space"),
            int_of(best, "element_bytes"));
    figure(m, best, "requests", "warp requests", "");
    figure(m, best, "sectors_per_request", "sectors per request", "");
    figure(m, best, "lines_per_request", "lines per request", "");
    figure(m, best, "bank_wavefronts_per_request", "bank wavefronts per request", "");
    figure(m, best, "distinct_addresses_per_request", "distinct addresses per request", "");
    figure(m, best, "latency_cycles", "modelled latency", " cycles");
    if (array)
        placement_ranking(m, file, array);
    fclose(m);
    json_t *out =
        json_pack("{s:{s:s, s:s}, s:o}", "contents", "kind", "markdown", "value", md ? md : "",
                  "range", range_of(text, line, int_of(best, "column"), 0, 0));
    free(md);
    return out;
}
