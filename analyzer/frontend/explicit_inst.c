/* Finding explicit function-template instantiations in raw source text. */
#include "analyzer/frontend/explicit_inst.h"
#include "runtime/out_of_memory.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s, *end;
} cur;

/* Skips blanks, comments and preprocessor lines. */
static void skip_space(cur *c)
{
    for (;;) {
        while (c->s < c->end && isspace((unsigned char)*c->s))
            c->s++;
        if (c->end - c->s >= 2 && c->s[0] == '/' && c->s[1] == '/') {
            while (c->s < c->end && *c->s != '\n')
                c->s++;
        } else if (c->end - c->s >= 2 && c->s[0] == '/' && c->s[1] == '*') {
            const char *e = c->s + 2;
            while (e + 1 < c->end && !(e[0] == '*' && e[1] == '/'))
                e++;
            c->s = e + 1 < c->end ? e + 2 : c->end;
        } else if (c->s < c->end && *c->s == '#') {
            /* a directive, with its continuation lines */
            while (c->s < c->end && *c->s != '\n') {
                if (*c->s == '\\' && c->s + 1 < c->end && c->s[1] == '\n')
                    c->s++;
                c->s++;
            }
        } else {
            return;
        }
    }
}

static bool ident_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

/* Skips a string or character literal starting at c->s. */
static void skip_literal(cur *c)
{
    char q = *c->s++;
    while (c->s < c->end && *c->s != q) {
        if (*c->s == '\\')
            c->s++;
        c->s++;
    }
    if (c->s < c->end)
        c->s++;
}

typedef struct {
    char *buf;
    size_t len, cap;
} out_buf;

static void put(out_buf *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        o->cap = (o->len + n + 1) * 2 + 64;
        char *b = realloc(o->buf, o->cap);
        if (!b)
            hms_out_of_memory();
        o->buf = b;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

#define MAX_NS 16

/* One `template <not '<'> ... name<args> ( ... ) ;`: appends the reference. */
static void instantiation(cur *c, char ns[MAX_NS][128], int nns, out_buf *o, int *count)
{
    const char *s = c->s;
    const char *semi = s;
    while (semi < c->end && *semi != ';' && *semi != '{')
        semi++;
    if (semi >= c->end || *semi != ';') {
        c->s = semi;
        return;
    }
    /* class and variable templates are not kernels */
    for (const char *p = s; p < semi; p++) {
        if ((p == s || !ident_char(p[-1])) &&
            (!strncmp(p, "class", 5) || !strncmp(p, "struct", 6)) &&
            !ident_char(p[!strncmp(p, "class", 5) ? 5 : 6]))
            goto done;
    }
    for (const char *p = s; p < semi; p++) {
        if (*p != '<' || p == s)
            continue;
        const char *e = p; /* the name before '<', qualifiers included */
        while (e > s && (ident_char(e[-1]) || e[-1] == ':'))
            e--;
        if (e == p || (!isalpha((unsigned char)*e) && *e != '_' && *e != ':'))
            continue;
        int depth = 0;
        const char *q = p;
        for (; q < semi; q++) {
            depth += *q == '<' ? 1 : *q == '>' ? -1 : 0;
            if (depth == 0)
                break;
        }
        if (q >= semi || q + 1 >= semi)
            break;
        const char *after = q + 1;
        while (after < semi && isspace((unsigned char)*after))
            after++;
        if (*after != '(')
            continue; /* a template type in the return type: keep looking */
        char line[1024];
        int n = snprintf(line, sizeof line,
                         "\nstatic void *" HMS_EXPLICIT_INST_MARKER "%d = (void *)&", *count);
        bool qualified = e[0] == ':' || memchr(e, ':', (size_t)(p - e)) != NULL;
        for (int i = 0; !qualified && i < nns && n < (int)sizeof line; i++)
            n += snprintf(line + n, sizeof line - (size_t)n, "%s::", ns[i]);
        if (n < (int)sizeof line)
            n += snprintf(line + n, sizeof line - (size_t)n, "%.*s;", (int)(q + 1 - e), e);
        if (n < (int)sizeof line - 1) {
            put(o, line, (size_t)n);
            ++*count;
        }
        break;
    }
done:
    c->s = semi + 1;
}

char *hms_explicit_instantiation_refs(const char *text, size_t len)
{
    cur c = {text, text + len};
    out_buf o = {0};
    int count = 0, depth = 0;
    char ns[MAX_NS][128];
    int ns_depth[MAX_NS], nns = 0;
    while (skip_space(&c), c.s < c.end) {
        char ch = *c.s;
        if (ch == '"' || ch == '\'') {
            skip_literal(&c);
        } else if (ch == '{') {
            depth++;
            c.s++;
        } else if (ch == '}') {
            if (nns > 0 && ns_depth[nns - 1] == depth)
                nns--;
            depth--;
            c.s++;
        } else if (ident_char(ch)) {
            const char *w = c.s;
            while (c.s < c.end && ident_char(*c.s))
                c.s++;
            size_t wl = (size_t)(c.s - w);
            if (wl == 9 && !strncmp(w, "namespace", 9)) {
                skip_space(&c);
                const char *nm = c.s;
                while (c.s < c.end && (ident_char(*c.s) || *c.s == ':'))
                    c.s++;
                size_t nl = (size_t)(c.s - nm);
                skip_space(&c);
                if (c.s < c.end && *c.s == '{' && nns < MAX_NS) {
                    snprintf(ns[nns], sizeof ns[0], "%.*s", (int)nl, nl ? nm : "");
                    depth++;
                    ns_depth[nns++] = depth;
                    c.s++;
                    if (!nl)
                        nns--; /* an anonymous namespace adds no qualifier */
                }
            } else if (wl == 8 && !strncmp(w, "template", 8) && (w == text || !ident_char(w[-1]))) {
                skip_space(&c);
                if (c.s < c.end && *c.s != '<')
                    instantiation(&c, ns, nns, &o, &count);
            }
        } else {
            c.s++;
        }
    }
    if (o.buf)
        put(&o, "\n", 1);
    return o.buf;
}
