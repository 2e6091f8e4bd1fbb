#include "testsuite/support/expect.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testsuite/support/run.h"

static void add(hms_expect_list *l, const char *tag, size_t taglen, const char *text, unsigned line)
{
    hms_expect *nv = realloc(l->v, (l->n + 1) * sizeof *nv);
    if (!nv)
        return;
    l->v = nv;
    size_t len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    l->v[l->n].tag = strndup(tag, taglen);
    l->v[l->n].text = strndup(text, len);
    l->v[l->n].line = line;
    l->n++;
}

bool hms_expect_collect(const char *path, hms_expect_list *out)
{
    out->v = NULL;
    out->n = 0;
    char *src = hms_read_file(path, NULL);
    if (!src)
        return false;
    unsigned line = 1;
    for (char *p = src; *p;) {
        char *eol = strchr(p, '\n');
        if (eol)
            *eol = '\0';
        char *d = strstr(p, "// EXPECT-");
        if (d) {
            const char *tag = d + strlen("// EXPECT-");
            size_t taglen = 0;
            while (isalnum((unsigned char)tag[taglen]) || tag[taglen] == '-')
                taglen++;
            if (taglen && tag[taglen] == ':') {
                const char *text = tag + taglen + 1;
                while (*text == ' ' || *text == '\t')
                    text++;
                add(out, tag, taglen, text, line);
            }
        }
        if (!eol)
            break;
        p = eol + 1;
        line++;
    }
    free(src);
    return true;
}

void hms_expect_list_free(hms_expect_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].tag);
        free(l->v[i].text);
    }
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* Is there a " key=" piece boundary at p (p points at the space)? */
static bool piece_starts(const char *p)
{
    if (*p != ' ')
        return false;
    p++;
    if (!(isalpha((unsigned char)*p) || *p == '_'))
        return false;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '-')
        p++;
    return *p == '=';
}

static bool boundary_before(const char *line, const char *at)
{
    return at == line || isspace((unsigned char)at[-1]) || at[-1] == ':';
}

/* A piece may end a list item, as "w=1024" in "args=img, w=1024, h". */
static bool boundary_after(const char *end)
{
    return *end == '\0' || isspace((unsigned char)*end) || *end == ',' || *end == ';';
}

bool hms_expect_line_matches(const char *line, const char *expect)
{
    const char *from = line;
    const char *piece = expect;
    while (*piece) {
        const char *end = piece + 1;
        while (*end && !piece_starts(end))
            end++;
        size_t len = (size_t)(end - piece);
        char *want = strndup(piece, len);
        const char *hit = NULL;
        for (const char *s = from; (s = strstr(s, want)) != NULL; s++) {
            if (boundary_before(line, s) && boundary_after(s + len)) {
                hit = s;
                break;
            }
        }
        free(want);
        if (!hit)
            return false;
        from = hit + len;
        piece = *end ? end + 1 : end;
    }
    return true;
}

char *hms_expect_find_line(const char *output, const char *word, const char *expect)
{
    for (const char *p = output; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *line = strndup(p, len);
        const char *body = line;
        bool ok = true;
        if (word) {
            char key[64];
            snprintf(key, sizeof key, ": %s ", word);
            const char *k = strstr(line, key);
            ok = k != NULL;
            if (k)
                body = k + strlen(key);
        }
        if (ok && hms_expect_line_matches(body, expect))
            return line;
        free(line);
        if (!eol)
            break;
        p = eol + 1;
    }
    return NULL;
}
