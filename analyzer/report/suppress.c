/* NOLINT / NOLINTNEXTLINE / NOLINTBEGIN..NOLINTEND (see suppress.h). */
#include "analyzer/report/suppress.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/finding_filter.h"

typedef enum { DIR_NOLINT, DIR_NEXTLINE, DIR_BEGIN, DIR_END } directive_kind;

typedef struct {
    directive_kind kind;
    const char *list; /* text between the parentheses, or NULL for "all checks" */
    size_t list_len;
} directive;

static bool is_word_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* Finds the next directive in line[*pos..len); advances *pos past it. */
static bool next_directive(const char *line, size_t len, size_t *pos, directive *d)
{
    static const char word[] = "NOLINT";
    const size_t wl = sizeof word - 1;
    for (size_t i = *pos; i + wl <= len; i++) {
        if (memcmp(line + i, word, wl) != 0)
            continue;
        size_t j = i + wl;
        size_t sl = 0;
        while (j + sl < len && is_word_char(line[j + sl]))
            sl++;
        if (sl == 0)
            d->kind = DIR_NOLINT;
        else if (sl == 8 && memcmp(line + j, "NEXTLINE", 8) == 0)
            d->kind = DIR_NEXTLINE;
        else if (sl == 5 && memcmp(line + j, "BEGIN", 5) == 0)
            d->kind = DIR_BEGIN;
        else if (sl == 3 && memcmp(line + j, "END", 3) == 0)
            d->kind = DIR_END;
        else {
            i = j + sl - 1; /* "NOLINTFOO" is not a directive */
            continue;
        }
        j += sl;
        d->list = NULL;
        d->list_len = 0;
        if (j < len && line[j] == '(') {
            size_t close = j + 1;
            while (close < len && line[close] != ')')
                close++;
            if (close < len) {
                d->list = line + j + 1;
                d->list_len = close - j - 1;
                j = close + 1;
            }
        }
        *pos = j;
        return true;
    }
    return false;
}

static bool list_matches(const directive *d, const char *check)
{
    if (!d->list)
        return true;
    size_t i = 0;
    while (i < d->list_len) {
        while (i < d->list_len && (d->list[i] == ',' || d->list[i] == ' ' || d->list[i] == '\t'))
            i++;
        size_t s = i;
        while (i < d->list_len && d->list[i] != ',')
            i++;
        size_t e = i;
        while (e > s && (d->list[e - 1] == ' ' || d->list[e - 1] == '\t'))
            e--;
        if (e > s) {
            char pat[256];
            size_t n = e - s < sizeof pat - 1 ? e - s : sizeof pat - 1;
            memcpy(pat, d->list + s, n);
            pat[n] = '\0';
            if (fnmatch(pat, check, 0) == 0)
                return true;
        }
    }
    return false;
}

static bool same_list(const directive *a, const directive *b)
{
    if (!a->list || !b->list)
        return !a->list && !b->list;
    return a->list_len == b->list_len && memcmp(a->list, b->list, a->list_len) == 0;
}

static bool line_suppresses(const char *text, size_t len, directive_kind kind, const char *check)
{
    size_t pos = 0;
    directive d;
    while (next_directive(text, len, &pos, &d))
        if (d.kind == kind && list_matches(&d, check))
            return true;
    return false;
}

/* Open NOLINTBEGIN regions from line 1 up to `line` (inclusive of BEGINs on
 * that line); an END closes the latest BEGIN with the same check list. */
static bool in_begin_end_region(hms_source_cache *src, const char *path, unsigned line,
                                const char *check)
{
    size_t cap = 8, n = 0;
    directive *open = malloc(cap * sizeof *open);
    if (!open)
        return false;
    for (unsigned l = 1; l <= line; l++) {
        size_t len;
        const char *text = hms_source_line(src, path, l, &len);
        if (!text)
            break;
        size_t pos = 0;
        directive d;
        while (next_directive(text, len, &pos, &d)) {
            if (d.kind == DIR_BEGIN) {
                if (n == cap) {
                    directive *no = realloc(open, cap * 2 * sizeof *no);
                    if (!no)
                        continue;
                    open = no;
                    cap *= 2;
                }
                open[n++] = d;
            } else if (d.kind == DIR_END && l < line) {
                for (size_t i = n; i-- > 0;) {
                    if (same_list(&open[i], &d)) {
                        memmove(&open[i], &open[i + 1], (n - i - 1) * sizeof *open);
                        n--;
                        break;
                    }
                }
            }
        }
    }
    bool hit = false;
    for (size_t i = 0; i < n && !hit; i++)
        hit = list_matches(&open[i], check);
    free(open);
    return hit;
}

bool hms_nolint_suppresses(hms_source_cache *src, const char *path, unsigned line,
                           const char *check)
{
    if (!path || line == 0 || !check)
        return false;
    size_t len;
    const char *text = hms_source_line(src, path, line, &len);
    if (!text)
        return false;
    if (line_suppresses(text, len, DIR_NOLINT, check))
        return true;
    if (line > 1) {
        const char *prev = hms_source_line(src, path, line - 1, &len);
        if (prev && line_suppresses(prev, len, DIR_NEXTLINE, check))
            return true;
    }
    /* Only scan for regions when the file mentions NOLINTBEGIN at all. */
    size_t tlen;
    const char *all = hms_source_text(src, path, &tlen);
    if (all && memmem(all, tlen, "NOLINTBEGIN", 11))
        return in_begin_end_region(src, path, line, check);
    return false;
}

static bool drop_suppressed(const hms_file_report *file, const hms_finding *f, void *ctx)
{
    const char *path = f->file ? f->file : file->path;
    return hms_nolint_suppresses((hms_source_cache *)ctx, path, f->line, f->check);
}

size_t hms_suppress_nolint(hms_report *r, hms_source_cache *src)
{
    return hms_report_drop_findings(r, drop_suppressed, src);
}
