#include "testsuite/support/check_expect.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "testsuite/support/expect.h"

typedef enum { D_WARNING, D_NOTE, D_ERROR, D_NO } dkind;

typedef struct {
    dkind kind;
    unsigned line, target;
    char check[64];
    const char *text;
} directive;

static const char *sev_name(dkind k)
{
    return k == D_WARNING ? "warning" : k == D_NOTE ? "note" : "error";
}

/* "WARNING" / "WARNING-GT200" -> kind; false when the tag is another one or
 * is meant for another architecture. */
static bool applies(const char *tag, const char *arch, dkind *kind)
{
    static const struct {
        const char *name;
        dkind kind;
    } tags[] = {{"WARNING", D_WARNING}, {"NOTE", D_NOTE}, {"ERROR", D_ERROR}, {"NO", D_NO}};
    const char *dash = strchr(tag, '-');
    size_t base = dash ? (size_t)(dash - tag) : strlen(tag);
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        if (strlen(tags[i].name) != base || strncmp(tag, tags[i].name, base) != 0)
            continue;
        *kind = tags[i].kind;
        return !dash || strcasecmp(dash + 1, arch) == 0;
    }
    return false;
}

static bool parse(const hms_expect *e, dkind kind, directive *d)
{
    const char *p = e->text;
    d->kind = kind;
    d->line = e->line;
    d->target = e->line;
    if (*p == '@') {
        char *end;
        long off = strtol(p + 1, &end, 10);
        d->target = (unsigned)((long)e->line + off);
        p = end;
        while (*p == ' ')
            p++;
    }
    size_t n = 0;
    while (p[n] && !isspace((unsigned char)p[n]) && n < sizeof d->check - 1)
        n++;
    if (!n)
        return false;
    memcpy(d->check, p, n);
    d->check[n] = '\0';
    p += n;
    while (*p == ' ')
        p++;
    d->text = p;
    return true;
}

static void failf(char **out, size_t *len, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t add = strlen(buf);
    char *s = realloc(*out, *len + add + 2);
    if (!s)
        return;
    memcpy(s + *len, buf, add);
    s[*len + add] = '\n';
    s[*len + add + 1] = '\0';
    *out = s;
    *len += add + 1;
}

static bool matches(const hms_seen *s, const directive *d)
{
    return s->line == d->target && strcmp(s->check, d->check) == 0 &&
           (d->kind == D_NO || strcmp(s->severity, sev_name(d->kind)) == 0) &&
           (d->kind == D_NO || strstr(s->message, d->text) != NULL);
}

/* Index of the kernel whose range holds line, or nkernels. */
static size_t kernel_of(const hms_seen_list *seen, unsigned line)
{
    size_t best = seen->nkernels;
    for (size_t k = 0; k < seen->nkernels; k++)
        if (seen->kernel_lines[k] <= line &&
            (best == seen->nkernels || seen->kernel_lines[k] > seen->kernel_lines[best]))
            best = k;
    return best;
}

char *hms_check_expectations(const char *path, const char *arch, const hms_seen_list *seen,
                             size_t *ndirectives)
{
    hms_expect_list l;
    char *out = NULL;
    size_t len = 0;
    if (!hms_expect_collect(path, &l)) {
        failf(&out, &len, "%s: cannot read", path);
        return out;
    }
    directive *d = calloc(l.n ? l.n : 1, sizeof *d);
    size_t nd = 0;
    for (size_t i = 0; d && i < l.n; i++) {
        dkind kind;
        if (!applies(l.v[i].tag, arch, &kind))
            continue;
        if (!parse(&l.v[i], kind, &d[nd]))
            failf(&out, &len, "%s:%u: malformed directive '%s'", path, l.v[i].line, l.v[i].text);
        else
            nd++;
    }
    for (size_t i = 0; i < nd; i++) {
        size_t hits = 0;
        for (size_t j = 0; j < seen->n; j++)
            hits += matches(&seen->v[j], &d[i]);
        if (d[i].kind == D_NO && hits)
            failf(&out, &len, "%s:%u [%s]: %s fired at line %u but should be quiet", path,
                  d[i].line, arch, d[i].check, d[i].target);
        if (d[i].kind != D_NO && !hits) {
            failf(&out, &len, "%s:%u [%s]: expected %s %s at line %u containing \"%s\"; got:", path,
                  d[i].line, arch, sev_name(d[i].kind), d[i].check, d[i].target, d[i].text);
            for (size_t j = 0; j < seen->n; j++)
                if (strcmp(seen->v[j].check, d[i].check) == 0)
                    failf(&out, &len, "    %u: %s: %s", seen->v[j].line, seen->v[j].severity,
                          seen->v[j].message);
        }
    }
    /* Unexpected warnings of the checks a kernel's directives name. */
    for (size_t j = 0; j < seen->n; j++) {
        const hms_seen *s = &seen->v[j];
        if (strcmp(s->severity, "warning") != 0)
            continue;
        size_t k = kernel_of(seen, s->line);
        bool policed = false, expected = false;
        for (size_t i = 0; i < nd; i++) {
            if (strcmp(d[i].check, s->check) != 0 || kernel_of(seen, d[i].target) != k)
                continue;
            policed = true;
            expected |= d[i].kind == D_WARNING && matches(s, &d[i]);
        }
        if (policed && !expected)
            failf(&out, &len, "%s:%u [%s]: unexpected warning: %s [%s]", path, s->line, arch,
                  s->message, s->check);
    }
    if (ndirectives)
        *ndirectives = nd;
    free(d);
    hms_expect_list_free(&l);
    return out;
}

size_t hms_expect_arches(const char *path, char arches[][16], size_t max)
{
    hms_expect_list l;
    size_t n = 0;
    if (hms_expect_collect(path, &l)) {
        for (size_t i = 0; i < l.n; i++) {
            if (strcmp(l.v[i].tag, "ARCHES") != 0)
                continue;
            const char *p = l.v[i].text;
            while (*p && n < max) {
                while (*p == ' ')
                    p++;
                size_t w = 0;
                while (p[w] && p[w] != ' ' && w < 15)
                    w++;
                if (!w)
                    break;
                memcpy(arches[n], p, w);
                arches[n][w] = '\0';
                n++;
                p += w;
            }
        }
        hms_expect_list_free(&l);
    }
    if (!n && max) {
        snprintf(arches[0], 16, "h100");
        n = 1;
    }
    return n;
}
