/* End-to-end checks of the front end: `hms-lint --dump-ir` over every kernel
 * file in testsuite/kernels/ir/, each carrying its own expectations as
 * comments (the syntax is documented in docs/ir.md, "Testing"):
 *
 *   // EXPECT-ACCESS: [@kernel] LINE KIND ARRAY SPACE BYTES [stride=S] [offset=O]
 *                     [ldg] [mapping=G] [loops=i,j] [guard={COND}]... [unguarded]
 *                     [index2={E}] index=E
 *   // EXPECT-LIMIT: [@kernel] [LINE] text      a limit (at LINE) whose reason contains text
 *   // EXPECT-NO-LIMIT: [@kernel]               the kernel has no limits at all
 *   // EXPECT-MAPPING: [@kernel] SHARED <- GLOBAL
 *   // EXPECT-LAUNCH: [@kernel] grid=(..) block=(..) [shared=N] source=S
 *   // EXPECT-PARAM: [@kernel] text             a param line contains text
 *   // EXPECT-ARRAY: [@kernel] NAME word...     the array's line has every word
 *   // EXPECT-LOOP: [@kernel] LINE text         the loop header at LINE contains text
 *   // EXPECT-LINE: [@kernel] LINE text         some body line at LINE contains text
 *   // EXPECT-NO-ACCESS: [@kernel] LINE         no access at LINE
 *   // EXPECT-ORDER: [@kernel] L KIND ARR, L KIND ARR, ...   accesses in this order
 *   // EXPECT-KERNELS: N                        the file holds N kernels
 *   // RUN-ARGS: args...                        extra hms-lint arguments
 *   // EXPECT-EXIT: N                           exit status (default 0)
 *
 * LINE may be relative to the comment: +1 is the next line, -2 two lines up.
 * An expectation without @kernel belongs to every kernel whose source range
 * holds the comment; @name selects kernels as --launch does ("reduce" selects
 * every instantiation). Expected values are worked out by hand from each
 * kernel's source; the comments in the .cu files say how where it is not
 * obvious. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/launch_config.h"
#include "testsuite/support/expect.h"
#include "testsuite/support/run.h"

#define MAX_CTX 32

typedef struct {
    unsigned line;
    char kind[8], array[64], space[16];
    int width, stride;
    long long offset;
    bool ldg;
    char mapping[64];
    char *index, *index2;
    char loops[256]; /* "i,j" */
    char *guards[MAX_CTX];
    int nguards;
} d_access;

typedef struct {
    char *name;
    unsigned start, end;
    char *header;
    char **lines; /* every line of the kernel's dump, header excluded */
    size_t nlines;
    d_access *acc;
    size_t nacc;
} d_kernel;

typedef struct {
    d_kernel *k;
    size_t n;
} d_file;

static char *xstrndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* ---- parsing the dump -------------------------------------------------------------- */

typedef struct {
    int depth;
    bool is_loop;
    char text[512]; /* loop var name, or the condition (negated for else) */
} ctx_entry;

static void parse_access(d_access *a, unsigned line, const char *rest, ctx_entry *ctx, int nctx)
{
    memset(a, 0, sizeof *a);
    a->line = line;
    a->stride = -1;
    int used = 0;
    sscanf(rest, "%7s %63s %15s %dB%n", a->kind, a->array, a->space, &a->width, &used);
    a->stride = a->width;
    const char *p = rest + used;
    while (*p == ' ')
        p++;
    while (*p && strncmp(p, "index=", 6)) {
        if (!strncmp(p, "stride=", 7))
            a->stride = atoi(p + 7);
        else if (!strncmp(p, "offset=", 7))
            a->offset = atoll(p + 7);
        else if (!strncmp(p, "ldg", 3))
            a->ldg = true;
        else if (!strncmp(p, "mapping=", 8))
            sscanf(p + 8, "%63[^@ ]", a->mapping);
        else if (!strncmp(p, "index2={", 8)) {
            const char *e = strstr(p, "} index=");
            if (!e)
                break;
            a->index2 = xstrndup(p + 8, (size_t)(e - p - 8));
            p = e + 1;
            while (*p == ' ')
                p++;
            continue;
        }
        while (*p && *p != ' ')
            p++;
        while (*p == ' ')
            p++;
    }
    a->index = strdup(*p ? p + 6 : "");
    for (int i = 0; i < nctx; i++) {
        if (ctx[i].is_loop) {
            size_t n = strlen(a->loops);
            snprintf(a->loops + n, sizeof a->loops - n, "%s%s", n ? "," : "", ctx[i].text);
        } else if (a->nguards < MAX_CTX) {
            a->guards[a->nguards++] = strdup(ctx[i].text);
        }
    }
}

static void parse_body(d_kernel *k)
{
    ctx_entry ctx[MAX_CTX];
    int nctx = 0;
    bool in_body = false;
    for (size_t i = 0; i < k->nlines; i++) {
        const char *l = k->lines[i];
        if (!strcmp(l, "  body:")) {
            in_body = true;
            continue;
        }
        if (!in_body)
            continue;
        int sp = 0;
        while (l[sp] == ' ')
            sp++;
        int depth = sp / 2;
        while (nctx > 0 && ctx[nctx - 1].depth >= depth &&
               !(!strcmp(l + sp, "else") && ctx[nctx - 1].depth == depth))
            nctx--;
        if (!strcmp(l + sp, "else")) {
            if (nctx > 0 && ctx[nctx - 1].depth == depth && !ctx[nctx - 1].is_loop) {
                char neg[520];
                snprintf(neg, sizeof neg, "!(%s)", ctx[nctx - 1].text);
                snprintf(ctx[nctx - 1].text, sizeof ctx[nctx - 1].text, "%.508s", neg);
            }
            continue;
        }
        unsigned line = 0, col = 0;
        int used = 0;
        const char *q = l + sp;
        const char *colon = strchr(q, ' ');
        /* "L:C rest" or "file:L:C rest" */
        if (!colon)
            continue;
        const char *lc = q;
        for (const char *t = q; t < colon; t++)
            if (*t == ':' && t + 1 < colon && strchr(t + 1, ':') && strchr(t + 1, ':') < colon)
                lc = t + 1;
        if (sscanf(lc, "%u:%u%n", &line, &col, &used) != 2)
            continue;
        const char *rest = lc + used;
        while (*rest == ' ')
            rest++;
        if (!strncmp(rest, "load ", 5) || !strncmp(rest, "store ", 6) ||
            !strncmp(rest, "atomic ", 7)) {
            k->acc = realloc(k->acc, (k->nacc + 1) * sizeof *k->acc);
            parse_access(&k->acc[k->nacc++], line, rest, ctx, nctx);
        } else if (nctx < MAX_CTX && !strncmp(rest, "if (", 4)) {
            ctx[nctx].depth = depth;
            ctx[nctx].is_loop = false;
            size_t n = strlen(rest);
            snprintf(ctx[nctx].text, sizeof ctx[nctx].text, "%.*s", (int)(n - 5), rest + 4);
            nctx++;
        } else if (nctx < MAX_CTX && (!strncmp(rest, "for (", 5) || !strncmp(rest, "while (", 7) ||
                                      !strncmp(rest, "do-while (", 10))) {
            ctx[nctx].depth = depth;
            ctx[nctx].is_loop = true;
            const char *v = strstr(rest, " var=");
            if (v)
                sscanf(v + 5, "%511s", ctx[nctx].text);
            else
                snprintf(ctx[nctx].text, sizeof ctx[nctx].text, "?");
            nctx++;
        }
    }
}

static d_file parse_dump(const char *out)
{
    d_file f = {0};
    const char *p = out;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *line = xstrndup(p, n);
        if (!strncmp(line, "kernel ", 7)) {
            f.k = realloc(f.k, (f.n + 1) * sizeof *f.k);
            d_kernel *k = &f.k[f.n++];
            memset(k, 0, sizeof *k);
            k->header = line;
            const char *paren = strstr(line, " (");
            k->name = xstrndup(line + 7, (size_t)(paren - line - 7));
            const char *range = strstr(paren, ":");
            /* (path:L:C-END) */
            const char *dash = strchr(paren, ')');
            const char *q = dash;
            while (q > paren && *q != '-')
                q--;
            k->end = (unsigned)atoi(q + 1);
            const char *c2 = q;
            while (c2 > paren && *c2 != ':')
                c2--;
            const char *c1 = c2 - 1;
            while (c1 > paren && *c1 != ':')
                c1--;
            (void)range;
            k->start = (unsigned)atoi(c1 + 1);
        } else if (f.n > 0) {
            d_kernel *k = &f.k[f.n - 1];
            k->lines = realloc(k->lines, (k->nlines + 1) * sizeof *k->lines);
            k->lines[k->nlines++] = line;
            line = NULL;
        }
        if (line && strncmp(line, "kernel ", 7))
            free(line);
        p += n + (e ? 1 : 0);
    }
    for (size_t i = 0; i < f.n; i++)
        parse_body(&f.k[i]);
    return f;
}

static void free_dump(d_file *f)
{
    for (size_t i = 0; i < f->n; i++) {
        d_kernel *k = &f->k[i];
        for (size_t j = 0; j < k->nacc; j++) {
            free(k->acc[j].index);
            free(k->acc[j].index2);
            for (int g = 0; g < k->acc[j].nguards; g++)
                free(k->acc[j].guards[g]);
        }
        free(k->acc);
        for (size_t j = 0; j < k->nlines; j++)
            free(k->lines[j]);
        free(k->lines);
        free(k->name);
        free(k->header);
    }
    free(f->k);
}

/* ---- expectations ------------------------------------------------------------------------ */

typedef struct {
    char *buf;
    size_t len, cap;
    int failures, checked;
} report;

static void fail(report *r, const char *file, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail(report *r, const char *file, unsigned line, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t need = strlen(file) + strlen(msg) + 32;
    if (r->len + need >= r->cap) {
        r->cap = (r->cap + need) * 2;
        r->buf = realloc(r->buf, r->cap);
    }
    r->len += (size_t)snprintf(r->buf + r->len, r->cap - r->len, "%s:%u: %s\n", file, line, msg);
    r->failures++;
}

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\t'))
        s[--n] = '\0';
}

static bool has_token(const char *line, const char *tok)
{
    size_t n = strlen(tok);
    for (const char *p = strstr(line, tok); p; p = strstr(p + 1, tok))
        if ((p == line || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return true;
    return false;
}

static bool access_matches(const d_access *a, const char *spec, char *why, size_t wlen)
{
    unsigned line;
    char kind[8], array[64], space[16];
    int width, used = 0;
    if (sscanf(spec, "%u %7s %63s %15s %d%n", &line, kind, array, space, &width, &used) != 5) {
        snprintf(why, wlen, "malformed EXPECT-ACCESS");
        return false;
    }
    if (a->line != line || strcmp(a->kind, kind) || strcmp(a->array, array))
        return false;
    if (strcmp(a->space, space) || a->width != width) {
        snprintf(why, wlen, "space/width %s %dB", a->space, a->width);
        return false;
    }
    const char *p = skip_ws(spec + used);
    while (*p) {
        if (!strncmp(p, "index=", 6)) {
            char want[1024];
            snprintf(want, sizeof want, "%s", p + 6);
            trim(want);
            if (strcmp(a->index, want)) {
                snprintf(why, wlen, "index=%s", a->index);
                return false;
            }
            break;
        }
        const char *e = p;
        if (!strncmp(p, "index2={", 8) || !strncmp(p, "guard={", 7)) {
            e = strchr(p, '}');
            e = e ? e + 1 : p + strlen(p);
        } else {
            while (*e && *e != ' ')
                e++;
        }
        char tok[512];
        snprintf(tok, sizeof tok, "%.*s", (int)(e - p), p);
        if (!strncmp(tok, "stride=", 7) && a->stride != atoi(tok + 7)) {
            snprintf(why, wlen, "stride=%d", a->stride);
            return false;
        }
        if (!strncmp(tok, "offset=", 7) && a->offset != atoll(tok + 7)) {
            snprintf(why, wlen, "offset=%lld", a->offset);
            return false;
        }
        if (!strcmp(tok, "ldg") && !a->ldg) {
            snprintf(why, wlen, "not ldg");
            return false;
        }
        if (!strncmp(tok, "mapping=", 8) && strcmp(a->mapping, tok + 8)) {
            snprintf(why, wlen, "mapping=%s", a->mapping[0] ? a->mapping : "(none)");
            return false;
        }
        if (!strncmp(tok, "loops=", 6) && strcmp(a->loops, tok + 6)) {
            snprintf(why, wlen, "loops=%s", a->loops);
            return false;
        }
        if (!strncmp(tok, "index2={", 8)) {
            size_t n = strlen(tok);
            char want[512];
            snprintf(want, sizeof want, "%.*s", (int)(n - 9), tok + 8);
            if (!a->index2 || strcmp(a->index2, want)) {
                snprintf(why, wlen, "index2=%s", a->index2 ? a->index2 : "(none)");
                return false;
            }
        }
        if (!strncmp(tok, "guard={", 7)) {
            size_t n = strlen(tok);
            char want[512];
            snprintf(want, sizeof want, "%.*s", (int)(n - 8), tok + 7);
            bool found = false;
            for (int g = 0; g < a->nguards; g++)
                found |= !strcmp(a->guards[g], want);
            if (!found) {
                size_t w = (size_t)snprintf(why, wlen, "guards:");
                for (int g = 0; g < a->nguards && w < wlen; g++)
                    w += (size_t)snprintf(why + w, wlen - w, " {%s}", a->guards[g]);
                return false;
            }
        }
        if (!strcmp(tok, "unguarded") && a->nguards) {
            snprintf(why, wlen, "guarded by {%s}", a->guards[0]);
            return false;
        }
        p = skip_ws(e);
    }
    return true;
}

static const char *kernel_line_with(const d_kernel *k, const char *prefix, const char *text)
{
    for (size_t i = 0; i < k->nlines; i++)
        if (!strncmp(k->lines[i], prefix, strlen(prefix)) && strstr(k->lines[i], text))
            return k->lines[i];
    return NULL;
}

/* A body line "L:C text" at `line` containing `text`. */
static bool body_line(const d_kernel *k, unsigned line, const char *text, const char *prefix)
{
    for (size_t i = 0; i < k->nlines; i++) {
        const char *l = skip_ws(k->lines[i]);
        const char *colon = strchr(l, ':');
        if (!colon)
            continue;
        unsigned ln = (unsigned)atoi(l);
        if (ln != line || !strchr(l, ' '))
            continue;
        const char *rest = strchr(l, ' ') + 1;
        if ((!prefix || !strncmp(rest, prefix, strlen(prefix))) && strstr(rest, text))
            return true;
    }
    return false;
}

static void check_one(report *r, const char *file, unsigned cline, const char *tag,
                      const char *spec, const d_kernel *k)
{
    char why[1024] = "";
    r->checked++;
    if (!strcmp(tag, "ACCESS")) {
        bool ok = false;
        char seen[4096] = "";
        size_t sl = 0;
        for (size_t i = 0; i < k->nacc && !ok; i++) {
            why[0] = '\0';
            ok = access_matches(&k->acc[i], spec, why, sizeof why);
            if (!ok && why[0] && sl < sizeof seen)
                sl += (size_t)snprintf(seen + sl, sizeof seen - sl, "\n      got %s %s: %s",
                                       k->acc[i].kind, k->acc[i].array, why);
        }
        if (!ok)
            fail(r, file, cline, "[%s] no access matches '%s'%s", k->name, spec,
                 seen[0] ? seen : " (no access of that kind/array on that line)");
    } else if (!strcmp(tag, "LIMIT")) {
        unsigned line = 0;
        int used = 0;
        const char *text = spec;
        if (sscanf(spec, "%u %n", &line, &used) == 1)
            text = spec + used;
        bool ok = false;
        for (size_t i = 0; i < k->nlines && !ok; i++) {
            const char *l = k->lines[i];
            if (strncmp(l, "  limit ", 8) || !strstr(l, text))
                continue;
            /* "  limit [file:]L:C: reason": L is the next-to-last number before ": " */
            const char *end = strstr(l + 8, ": ");
            const char *c2 = end ? end - 1 : l + 8;
            while (c2 > l + 8 && *c2 != ':')
                c2--;
            const char *c1 = c2 > l + 8 ? c2 - 1 : c2;
            while (c1 > l + 8 && c1[-1] != ':')
                c1--;
            ok = !line || (unsigned)atoi(c1) == line;
        }
        if (!ok)
            fail(r, file, cline, "[%s] no limit '%s'", k->name, spec);
    } else if (!strcmp(tag, "NO-LIMIT")) {
        const char *l = kernel_line_with(k, "  limit ", "");
        if (l)
            fail(r, file, cline, "[%s] unexpected %s", k->name, l + 2);
    } else if (!strcmp(tag, "MAPPING")) {
        char want[2100];
        snprintf(want, sizeof want, "  mapping %s ", spec);
        if (!kernel_line_with(k, want, ""))
            fail(r, file, cline, "[%s] no mapping '%s'", k->name, spec);
    } else if (!strcmp(tag, "LAUNCH")) {
        char buf[2048];
        snprintf(buf, sizeof buf, "%s", spec);
        for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
            if (!has_token(k->header, t))
                fail(r, file, cline, "[%s] launch lacks '%s': %s", k->name, t, k->header);
    } else if (!strcmp(tag, "PARAM")) {
        if (!kernel_line_with(k, "  param ", spec) && !kernel_line_with(k, "  field ", spec))
            fail(r, file, cline, "[%s] no param line with '%s'", k->name, spec);
    } else if (!strcmp(tag, "ARRAY")) {
        char buf[2048], want[2100];
        snprintf(buf, sizeof buf, "%s", spec);
        char *name = strtok(buf, " ");
        snprintf(want, sizeof want, "  array %s ", name ? name : "");
        const char *l = kernel_line_with(k, want, "");
        if (!l)
            fail(r, file, cline, "[%s] no array '%s'", k->name, name);
        for (char *t = strtok(NULL, " "); l && t; t = strtok(NULL, " "))
            if (!has_token(l, t))
                fail(r, file, cline, "[%s] array line lacks '%s': %s", k->name, t, l + 2);
    } else if (!strcmp(tag, "LOOP") || !strcmp(tag, "LINE")) {
        unsigned line = 0;
        int used = 0;
        sscanf(spec, "%u %n", &line, &used);
        bool loop = !strcmp(tag, "LOOP");
        bool ok = body_line(k, line, spec + used, NULL);
        if (ok && loop)
            ok = body_line(k, line, spec + used, "for (") ||
                 body_line(k, line, spec + used, "while (") ||
                 body_line(k, line, spec + used, "do-while (");
        if (!ok) {
            char seen[2048] = "";
            size_t sl = 0;
            for (size_t i = 0; i < k->nlines; i++)
                if ((unsigned)atoi(skip_ws(k->lines[i])) == line && sl < sizeof seen)
                    sl += (size_t)snprintf(seen + sl, sizeof seen - sl, "\n      got %s",
                                           skip_ws(k->lines[i]));
            fail(r, file, cline, "[%s] no %s at %u with '%s'%s", k->name, loop ? "loop" : "line",
                 line, spec + used, seen);
        }
    } else if (!strcmp(tag, "NO-ACCESS")) {
        unsigned line = (unsigned)atoi(spec);
        for (size_t i = 0; i < k->nacc; i++)
            if (k->acc[i].line == line)
                fail(r, file, cline, "[%s] unexpected %s of %s at %u", k->name, k->acc[i].kind,
                     k->acc[i].array, line);
    } else if (!strcmp(tag, "ORDER")) {
        char buf[2048];
        snprintf(buf, sizeof buf, "%s", spec);
        size_t from = 0;
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
            unsigned line;
            char kind[8], arr[64];
            if (sscanf(t, "%u %7s %63s", &line, kind, arr) != 3) {
                fail(r, file, cline, "malformed EXPECT-ORDER item '%s'", t);
                break;
            }
            size_t i = from;
            while (i < k->nacc && !(k->acc[i].line == line && !strcmp(k->acc[i].kind, kind) &&
                                    !strcmp(k->acc[i].array, arr)))
                i++;
            if (i == k->nacc) {
                fail(r, file, cline, "[%s] '%s' not found after the previous item", k->name, t);
                break;
            }
            from = i + 1;
        }
    } else {
        fail(r, file, cline, "unknown expectation EXPECT-%s", tag);
    }
}

/* "+1 load a ..." -> "<comment line + 1> load a ...": expectations may name
 * lines relative to the comment holding them (each item of an ORDER list too). */
static void resolve_relative(const char *spec, unsigned lineno, char *out, size_t len, bool list)
{
    size_t o = 0;
    const char *p = spec;
    bool item_start = true;
    while (*p && o + 24 < len) {
        if (item_start) {
            while (*p == ' ')
                out[o++] = *p++;
            if ((*p == '+' || *p == '-') && p[1] >= '0' && p[1] <= '9') {
                long d = strtol(p, (char **)&p, 10);
                o += (size_t)snprintf(out + o, len - o, "%ld", (long)lineno + d);
            }
            item_start = false;
            continue;
        }
        if (*p == ',' && list)
            item_start = true;
        out[o++] = *p++;
    }
    out[o] = '\0';
}

static void check_file(report *r, const char *dir, const char *name)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *src = hms_read_file(path, NULL);
    if (!src) {
        fail(r, name, 0, "cannot read");
        return;
    }
    const char *argv[32];
    int argc = 0;
    argv[argc++] = "--dump-ir";
    char *runargs = NULL;
    const char *ra = strstr(src, "// RUN-ARGS:");
    if (ra) {
        const char *e = strchr(ra, '\n');
        runargs = xstrndup(ra + 12, e ? (size_t)(e - ra - 12) : strlen(ra + 12));
        for (char *t = strtok(runargs, " "); t && argc < 28; t = strtok(NULL, " "))
            argv[argc++] = t;
    }
    argv[argc++] = path;
    argv[argc] = NULL;
    hms_run_result res = hms_run(argv);
    int want_exit = 0;
    const char *ee = strstr(src, "// EXPECT-EXIT:");
    if (ee)
        want_exit = atoi(ee + 15);
    if (res.status != want_exit)
        fail(r, name, 0, "exit status %d, expected %d; stderr:\n%s", res.status, want_exit,
             res.err ? res.err : "");
    if (res.err && (strstr(res.err, "ERROR: AddressSanitizer") ||
                    strstr(res.err, "ERROR: LeakSanitizer") || strstr(res.err, "runtime error:")))
        fail(r, name, 0, "sanitizer report:\n%s", res.err);
    d_file df = parse_dump(res.out ? res.out : "");
    hms_expect_list ex;
    if (!hms_expect_collect(path, &ex))
        fail(r, name, 0, "cannot collect expectations");
    for (size_t ei = 0; ei < ex.n; ei++) {
        const char *tag = ex.v[ei].tag;
        unsigned lineno = ex.v[ei].line;
        const char *spec = ex.v[ei].text;
        if (!strcmp(tag, "EXIT"))
            continue; /* handled above */
        if (!strcmp(tag, "KERNELS")) {
            r->checked++;
            if ((int)df.n != atoi(spec))
                fail(r, name, lineno, "%zu kernels, expected %s", df.n, spec);
            continue;
        }
        char sel[128] = "";
        if (*spec == '@') { /* @name, template arguments may hold blanks */
            const char *q = spec + 1;
            size_t u = 0;
            int depth = 0;
            while (*q && (depth > 0 || (*q != ' ' && *q != '\t')) && u + 1 < sizeof sel) {
                depth += *q == '<' ? 1 : *q == '>' ? -1 : 0;
                sel[u++] = *q++;
            }
            sel[u] = '\0';
            spec = skip_ws(q);
        }
        int matched = 0;
        for (size_t i = 0; i < df.n; i++) {
            d_kernel *k = &df.k[i];
            bool mine = sel[0] ? hms_kernel_name_matches(sel, k->name)
                               : lineno >= k->start && lineno <= k->end;
            if (!mine)
                continue;
            matched++;
            char abs[2048];
            if (!strcmp(tag, "ORDER") || !strcmp(tag, "ACCESS") || !strcmp(tag, "LIMIT") ||
                !strcmp(tag, "LOOP") || !strcmp(tag, "LINE") || !strcmp(tag, "NO-ACCESS"))
                resolve_relative(spec, lineno, abs, sizeof abs, !strcmp(tag, "ORDER"));
            else
                snprintf(abs, sizeof abs, "%s", spec);
            check_one(r, name, lineno, tag, abs, k);
        }
        if (!matched)
            fail(r, name, lineno, "EXPECT-%s belongs to no kernel%s%s", tag,
                 sel[0] ? " named " : "", sel);
    }
    hms_expect_list_free(&ex);
    free_dump(&df);
    hms_run_free(&res);
    free(runargs);
    free(src);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

Test(ir, kernel_suite_matches_its_expectations, .timeout = 600)
{
    const char *dir = hms_test_path("kernels/ir");
    char dirbuf[768];
    snprintf(dirbuf, sizeof dirbuf, "%s", dir);
    DIR *d = opendir(dirbuf);
    cr_assert(d, "cannot open %s", dirbuf);
    char *names[256];
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < 256) {
        size_t l = strlen(de->d_name);
        if (l > 3 && !strcmp(de->d_name + l - 3, ".cu"))
            names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    if (!getenv("HMS_IR_ONLY"))
        cr_assert_geq(n, 25, "the suite needs at least 25 kernel files, found %zu", n);
    report r = {0};
    const char *only = getenv("HMS_IR_ONLY"); /* while editing one kernel file */
    for (size_t i = 0; i < n; i++) {
        if (!only || strstr(names[i], only))
            check_file(&r, dirbuf, names[i]);
        free(names[i]);
    }
    cr_assert(r.checked > 0);
    cr_assert_eq(r.failures, 0, "%d of %d expectations failed:\n%s", r.failures, r.checked,
                 r.buf ? r.buf : "");
    free(r.buf);
}
