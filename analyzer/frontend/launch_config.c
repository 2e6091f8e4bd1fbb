/* --launch / --param / -D values, hms-lint: annotations and the default launch. */
#include "analyzer/frontend/launch_config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/arch.h"
#include "runtime/out_of_memory.h"

static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (!p)
        hms_out_of_memory();
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* Parses a decimal or 0x integer with an optional leading '-'; *end set past it. */
static bool parse_int(const char *s, const char **end, int64_t *v)
{
    while (*s == ' ')
        s++;
    if (!isdigit((unsigned char)*s) && !(*s == '-' && isdigit((unsigned char)s[1])))
        return false;
    errno = 0;
    char *e;
    long long x = strtoll(s, &e, 0);
    if (errno == ERANGE)
        return false;
    *v = x;
    *end = e;
    return true;
}

bool hms_launch_valid(const uint32_t grid[3], const uint32_t block[3], uint32_t max_threads,
                      char *err, size_t errlen)
{
    static const char xyz[] = "xyz";
    if (!max_threads || max_threads > HMS_MAX_BLOCK_THREADS)
        max_threads = HMS_MAX_BLOCK_THREADS;
    for (int d = 0; d < 3; d++) {
        uint32_t gmax = d == 0 ? HMS_MAX_GRID_X : HMS_MAX_GRID_YZ;
        uint32_t bmax = d == 2 ? HMS_MAX_BLOCK_Z : HMS_MAX_BLOCK_XY;
        if (grid[d] == 0 || block[d] == 0) {
            snprintf(err, errlen, "%s %c is 0; every dimension must be at least 1",
                     grid[d] == 0 ? "grid" : "block", xyz[d]);
            return false;
        }
        if (grid[d] > gmax) {
            snprintf(err, errlen, "grid %c = %u exceeds the limit of %u", xyz[d], grid[d], gmax);
            return false;
        }
        if (block[d] > bmax) {
            snprintf(err, errlen, "block %c = %u exceeds the limit of %u", xyz[d], block[d], bmax);
            return false;
        }
    }
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    if (threads > max_threads) {
        snprintf(err, errlen, "block of %llu threads exceeds the limit of %u per block",
                 (unsigned long long)threads, max_threads);
        return false;
    }
    return true;
}

/* "X[,Y[,Z]]" -> dims (missing ones are 1). */
static bool parse_dims(const char *s, const char **end, uint32_t dims[3], const char *what,
                       char *err, size_t errlen)
{
    dims[0] = dims[1] = dims[2] = 1;
    for (int d = 0; d < 3; d++) {
        int64_t v;
        const char *e;
        if (!parse_int(s, &e, &v)) {
            snprintf(err, errlen, "%s: expected a number at '%.20s'", what, s);
            return false;
        }
        if (v < 0) {
            snprintf(err, errlen, "%s: negative dimension %lld", what, (long long)v);
            return false;
        }
        if (v > (int64_t)UINT32_MAX) {
            snprintf(err, errlen, "%s: dimension %lld is absurdly large", what, (long long)v);
            return false;
        }
        dims[d] = (uint32_t)v;
        s = e;
        while (*s == ' ')
            s++;
        if (*s != ',')
            break;
        s++;
        if (d == 2) {
            snprintf(err, errlen, "%s: more than three dimensions", what);
            return false;
        }
    }
    *end = s;
    return true;
}

static bool parse_shared(const char *s, const char **end, uint32_t *out, char *err, size_t errlen)
{
    int64_t v;
    if (!parse_int(s, end, &v)) {
        snprintf(err, errlen, "shared: expected a number of bytes at '%.20s'", s);
        return false;
    }
    if (v < 0 || v > HMS_MAX_DYNAMIC_SHARED) {
        snprintf(err, errlen, "shared: %lld bytes is out of range (0 to %u)", (long long)v,
                 HMS_MAX_DYNAMIC_SHARED);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

bool hms_parse_launch_spec(const char *s, uint32_t max_threads, hms_launch_spec *out, char *err,
                           size_t errlen)
{
    memset(out, 0, sizeof *out);
    bool got_grid = false, got_block = false;
    const char *p = s;
    if (strncmp(p, "grid=", 5) != 0 && strncmp(p, "block=", 6) != 0) {
        /* the kernel ends at the first ':' outside template arguments
         * ("k<ns::T>:grid=..."), and not inside "::" ("ns::k:grid=...") */
        const char *colon = NULL;
        int depth = 0;
        for (const char *q = p; *q && !colon; q++) {
            depth += *q == '<' ? 1 : *q == '>' ? -1 : 0;
            if (*q == ':' && q[1] == ':')
                q++;
            else if (*q == ':' && depth <= 0)
                colon = q;
        }
        if (!colon || colon == p) {
            snprintf(err, errlen, "expected <kernel>:grid=X,Y,Z:block=X,Y,Z");
            return false;
        }
        out->kernel = dup_n(p, (size_t)(colon - p));
        p = colon + 1;
    }
    while (*p) {
        const char *e = p;
        if (!strncmp(p, "grid=", 5)) {
            if (!parse_dims(p + 5, &e, out->grid, "grid", err, errlen))
                goto fail;
            got_grid = true;
        } else if (!strncmp(p, "block=", 6)) {
            if (!parse_dims(p + 6, &e, out->block, "block", err, errlen))
                goto fail;
            got_block = true;
        } else if (!strncmp(p, "shared=", 7)) {
            if (!parse_shared(p + 7, &e, &out->shared, err, errlen))
                goto fail;
            out->has_shared = true;
        } else {
            snprintf(err, errlen, "unknown field '%.20s' (grid=, block= or shared=)", p);
            goto fail;
        }
        if (*e == ':')
            e++;
        else if (*e) {
            snprintf(err, errlen, "unexpected '%.20s'", e);
            goto fail;
        }
        p = e;
    }
    if (!got_grid || !got_block) {
        snprintf(err, errlen, "both grid= and block= are needed");
        goto fail;
    }
    if (!hms_launch_valid(out->grid, out->block, max_threads, err, errlen))
        goto fail;
    return true;
fail:
    hms_launch_spec_free(out);
    return false;
}

static bool is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

bool hms_parse_param_spec(const char *s, hms_param_spec *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *eq = strchr(s, '=');
    if (!eq || eq == s) {
        snprintf(err, errlen, "expected [<kernel>.]<name>=<integer>");
        return false;
    }
    /* The kernel part may hold template arguments ("reduce<256>.n"): split at
     * the last '.' before '='. */
    const char *dot = NULL;
    for (const char *q = s; q < eq; q++)
        if (*q == '.')
            dot = q;
    const char *name = dot ? dot + 1 : s;
    if (name == eq) {
        snprintf(err, errlen, "missing parameter name");
        return false;
    }
    for (const char *q = name; q < eq; q++) {
        if (!is_ident_char(*q)) {
            snprintf(err, errlen, "'%.*s' is not a parameter name", (int)(eq - name), name);
            return false;
        }
    }
    int64_t v;
    const char *e;
    if (!parse_int(eq + 1, &e, &v) || *e) {
        char *end = NULL;
        errno = 0;
        double d = strtod(eq + 1, &end);
        if (end == eq + 1 || *end || errno == ERANGE || !isfinite(d) ||
            !(isdigit((unsigned char)eq[1]) || eq[1] == '-' || eq[1] == '.' || eq[1] == '+')) {
            snprintf(err, errlen, "value '%s' is not a number", eq + 1);
            return false;
        }
        if (d == floor(d) && fabs(d) < 9e15) {
            v = (int64_t)d;
        } else {
            out->is_real = true;
            out->real = d;
            v = 0;
        }
    }
    if (dot)
        out->kernel = dup_n(s, (size_t)(dot - s));
    out->name = dup_n(name, (size_t)(eq - name));
    out->value = v;
    return true;
}

void hms_launch_spec_free(hms_launch_spec *s)
{
    free(s->kernel);
    s->kernel = NULL;
}

void hms_param_spec_free(hms_param_spec *p)
{
    free(p->kernel);
    free(p->name);
    p->kernel = p->name = NULL;
}

/* options.c pushes -D values into both params and compiler_args ("-D", value);
 * a value that also follows a "-D" there came from -D. */
static bool came_from_define(const hms_frontend_options *o, const char *v)
{
    for (size_t i = 0; i + 1 < o->compiler_args.n; i++)
        if (o->compiler_args.v[i + 1] == v && !strcmp(o->compiler_args.v[i], "-D"))
            return true;
    return false;
}

static uint32_t arch_max_threads(const hms_frontend_options *o)
{
    const hms_arch *a = o->arch;
    return a && a->max_threads_per_block > 0 ? (uint32_t)a->max_threads_per_block : 0;
}

/* Messages about the command line, not a file. */
static const hms_diag_head run_error = {HMS_DIAG_ERROR, NULL, 0, 0, NULL, NULL};
static const hms_diag_head run_warning = {HMS_DIAG_WARNING, NULL, 0, 0, NULL, NULL};

int hms_launch_cli_parse(const hms_frontend_options *o, hms_launch_cli *out, hms_diag_sink *diags)
{
    memset(out, 0, sizeof *out);
    char why[256];
    uint32_t max_threads = o->launches.n ? arch_max_threads(o) : 0;
    if (o->launches.n)
        out->launches = calloc(o->launches.n, sizeof *out->launches);
    for (size_t i = 0; i < o->launches.n; i++) {
        if (!hms_parse_launch_spec(o->launches.v[i], max_threads, &out->launches[out->nlaunches],
                                   why, sizeof why)) {
            hms_diagf(diags, run_error, "--launch '%s': %s", o->launches.v[i], why);
            hms_launch_cli_free(out);
            return 2;
        }
        out->nlaunches++;
    }
    if (o->params.n)
        out->params = calloc(o->params.n, sizeof *out->params);
    for (size_t i = 0; i < o->params.n; i++) {
        bool def = came_from_define(o, o->params.v[i]);
        hms_param_spec *p = &out->params[out->nparams];
        if (!hms_parse_param_spec(o->params.v[i], p, why, sizeof why)) {
            if (def)
                continue; /* a macro like -DUSE_FAST or -DT=float: not a value for us */
            hms_diagf(diags, run_error, "--param '%s': %s", o->params.v[i], why);
            hms_launch_cli_free(out);
            return 2;
        }
        if (def && p->kernel) { /* -D a.b=1 is no macro name clang would take either */
            hms_param_spec_free(p);
            continue;
        }
        p->from_define = def;
        out->nparams++;
    }
    return 0;
}

void hms_launch_cli_free(hms_launch_cli *c)
{
    for (size_t i = 0; i < c->nlaunches; i++)
        hms_launch_spec_free(&c->launches[i]);
    for (size_t i = 0; i < c->nparams; i++)
        hms_param_spec_free(&c->params[i]);
    free(c->launches);
    free(c->params);
    memset(c, 0, sizeof *c);
}

/* ---- annotations -------------------------------------------------------------- */

static void push_annotation(hms_annotations *a, const hms_annotation *x)
{
    hms_annotation *v = realloc(a->v, (a->n + 1) * sizeof *v);
    if (!v)
        hms_out_of_memory();
    a->v = v;
    a->v[a->n++] = *x;
}

static const char *skip_sp(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Optional "kernel=NAME" at p; NAME runs to the next blank. */
static const char *take_kernel(const char *p, const char *end, char **kernel)
{
    *kernel = NULL;
    p = skip_sp(p, end);
    if (end - p > 7 && !strncmp(p, "kernel=", 7)) {
        const char *s = p + 7, *e = s;
        int depth = 0; /* template arguments may hold blanks: reduce<256, float> */
        while (e < end && (depth > 0 || (*e != ' ' && *e != '\t'))) {
            depth += *e == '<' ? 1 : *e == '>' ? -1 : 0;
            e++;
        }
        *kernel = dup_n(s, (size_t)(e - s));
        p = e;
    }
    return p;
}

/* grid(...) block(...) shared(...) in any order. */
static bool parse_launch_annotation(const char *p, const char *end, uint32_t max_threads,
                                    hms_launch_spec *l, char *err, size_t errlen)
{
    bool got_grid = false, got_block = false;
    char buf[256];
    size_t n = (size_t)(end - p) < sizeof buf - 1 ? (size_t)(end - p) : sizeof buf - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    const char *q = buf;
    while (*(q = skip_sp(q, buf + n))) {
        const char *e;
        uint32_t *dims = NULL;
        const char *what = NULL;
        if (!strncmp(q, "grid(", 5)) {
            dims = l->grid, what = "grid", got_grid = true, q += 5;
        } else if (!strncmp(q, "block(", 6)) {
            dims = l->block, what = "block", got_block = true, q += 6;
        } else if (!strncmp(q, "shared(", 7)) {
            if (!parse_shared(q + 7, &e, &l->shared, err, errlen))
                return false;
            l->has_shared = true;
            q = e;
        } else {
            snprintf(err, errlen, "unexpected '%.20s' (grid(...), block(...) or shared(...))", q);
            return false;
        }
        if (dims) {
            if (!parse_dims(q, &e, dims, what, err, errlen))
                return false;
            q = e;
        }
        q = skip_sp(q, buf + n);
        if (*q != ')') {
            snprintf(err, errlen, "missing ')'");
            return false;
        }
        q++;
    }
    if (!got_grid || !got_block) {
        snprintf(err, errlen, "a launch annotation needs grid(...) and block(...)");
        return false;
    }
    return hms_launch_valid(l->grid, l->block, max_threads, err, errlen);
}

/* at: where the annotation's "hms-lint:" is, for its warnings. */
static void parse_annotation(const char *p, const char *end, hms_diag_head at, uint32_t max_threads,
                             hms_annotations *out, hms_diag_sink *diags)
{
    unsigned line = at.line;
    char why[256];
    p = skip_sp(p, end);
    bool launch = end - p >= 6 && !strncmp(p, "launch", 6);
    bool param = end - p >= 5 && !strncmp(p, "param", 5);
    if (!launch && !param) {
        hms_diagf(diags, at, "unknown hms-lint annotation '%.*s' (launch or param)",
                  (int)(end - p > 40 ? 40 : end - p), p);
        return;
    }
    p += launch ? 6 : 5;
    char *kernel;
    p = take_kernel(p, end, &kernel);
    if (launch) {
        hms_annotation a = {.line = line, .kernel = kernel, .is_launch = true};
        if (!parse_launch_annotation(p, end, max_threads, &a.launch, why, sizeof why)) {
            hms_diagf(diags, at, "bad launch annotation: %s", why);
            free(kernel);
            return;
        }
        push_annotation(out, &a);
        return;
    }
    /* param NAME=VALUE [NAME=VALUE ...] */
    bool any = false;
    while ((p = skip_sp(p, end)) < end) {
        const char *e = p;
        while (e < end && *e != ' ' && *e != '\t')
            e++;
        char *tok = dup_n(p, (size_t)(e - p));
        hms_param_spec ps;
        if (!hms_parse_param_spec(tok, &ps, why, sizeof why) || ps.kernel || ps.is_real) {
            if (ps.kernel || ps.is_real) {
                snprintf(why, sizeof why, "%s",
                         ps.kernel ? "use kernel=NAME, not NAME.param"
                                   : "only integer values are used");
                hms_param_spec_free(&ps);
            }
            hms_diagf(diags, at, "bad param annotation '%s': %s", tok, why);
            free(tok);
            p = e;
            continue;
        }
        free(tok);
        hms_annotation a = {.line = line,
                            .kernel = kernel ? dup_n(kernel, strlen(kernel)) : NULL,
                            .name = ps.name,
                            .value = ps.value};
        ps.name = NULL;
        hms_param_spec_free(&ps);
        push_annotation(out, &a);
        any = true;
        p = e;
    }
    if (!any)
        hms_diagf(diags, at, "param annotation without NAME=VALUE");
    free(kernel);
}

void hms_scan_annotations(const char *text, size_t len, const char *path, uint32_t max_threads,
                          hms_annotations *out, hms_diag_sink *diags)
{
    memset(out, 0, sizeof *out);
    static const char tag[] = "hms-lint:";
    const char *end = text + len;
    unsigned line = 1;
    for (const char *p = text; p < end; p++) {
        if (*p == '\n') {
            line++;
            continue;
        }
        if (*p != 'h' || (size_t)(end - p) < sizeof tag - 1 || memcmp(p, tag, sizeof tag - 1))
            continue;
        /* Only inside a comment: a line or block comment opened earlier on the line. */
        const char *bol = p;
        while (bol > text && bol[-1] != '\n')
            bol--;
        bool in_comment = false;
        for (const char *q = bol; q + 1 < p; q++)
            if (q[0] == '/' && (q[1] == '/' || q[1] == '*'))
                in_comment = true;
        if (!in_comment)
            continue;
        const char *s = p + sizeof tag - 1, *e = s;
        while (e < end && *e != '\n' && !(e + 1 < end && e[0] == '*' && e[1] == '/'))
            e++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        hms_diag_head at = {HMS_DIAG_WARNING, path, line, (unsigned)(p - bol) + 1, NULL, NULL};
        parse_annotation(s, e, at, max_threads, out, diags);
        p = e - 1;
    }
}

void hms_annotations_free(hms_annotations *a)
{
    for (size_t i = 0; i < a->n; i++) {
        free(a->v[i].kernel);
        free(a->v[i].name);
        hms_launch_spec_free(&a->v[i].launch);
    }
    free(a->v);
    a->v = NULL;
    a->n = 0;
}

bool hms_kernel_name_matches(const char *pattern, const char *name)
{
    if (!pattern)
        return true;
    const char *p = pattern, *n = name;
    for (;;) {
        while (*p == ' ')
            p++;
        while (*n == ' ')
            n++;
        if (!*p)
            return !*n || *n == '<'; /* "reduce" selects "reduce<256>" */
        if (*p != *n)
            return false;
        p++, n++;
    }
}

void hms_default_launch(const bool uses[3], const bool guses[3], ir_launch *l)
{
    memset(l, 0, sizeof *l);
    l->source = IR_LAUNCH_DEFAULT;
    for (int d = 0; d < 3; d++)
        l->grid[d] = l->block[d] = 1;
    if (uses[2]) {
        l->block[0] = l->block[1] = 8, l->block[2] = 4;
    } else if (uses[1]) {
        l->block[0] = l->block[1] = 16;
    } else {
        l->block[0] = HMS_DEFAULT_BLOCK_1D;
    }
    if (guses[2]) {
        l->grid[0] = l->grid[1] = 16, l->grid[2] = 4;
    } else if (guses[1]) {
        l->grid[0] = l->grid[1] = 16;
    } else {
        l->grid[0] = HMS_DEFAULT_GRID_1D;
    }
}

bool hms_param_matches(const hms_param_spec *p, const char *kernel, const char *var)
{
    if (!p->kernel)
        return !strcmp(p->name, var);
    if (!strcmp(p->name, var) && hms_kernel_name_matches(p->kernel, kernel))
        return true;
    /* Dotted names (struct parameter fields, "A.width"): the whole
     * "<kernel>.<A.width>" or a bare "A.width". */
    char full[512];
    snprintf(full, sizeof full, "%s.%s", p->kernel, p->name);
    if (!strcmp(full, var))
        return true;
    size_t fl = strlen(full), vl = strlen(var);
    if (fl > vl + 1 && full[fl - vl - 1] == '.' && !strcmp(full + fl - vl, var)) {
        full[fl - vl - 1] = '\0';
        return hms_kernel_name_matches(full, kernel);
    }
    return false;
}

/* "a, b<32>, c" (at most 12 names, then ", ..."). */
static void list_names(char *buf, size_t len, const char *const *names, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && at < len; i++) {
        bool dup = false;
        for (size_t j = 0; j < i; j++)
            dup |= !strcmp(names[i], names[j]);
        if (dup)
            continue;
        if (i >= 12) {
            snprintf(buf + at, len - at, ", ...");
            return;
        }
        at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", names[i]);
    }
}

static bool any_matches(const char *pattern, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (hms_kernel_name_matches(pattern, names[i]))
            return true;
    return false;
}

size_t hms_launch_cli_warn_unmatched(const hms_frontend_options *o, const hms_launch_cli *c,
                                     const char *const *names, size_t n, hms_diag_sink *diags)
{
    char list[1024];
    list_names(list, sizeof list, names, n);
    size_t warned = 0;
    for (size_t i = 0; i < c->nlaunches && i < o->launches.n; i++) {
        const char *k = c->launches[i].kernel;
        if (k && !any_matches(k, names, n)) {
            hms_diagf(diags, run_warning, "--launch '%s' matches no kernel (kernels: %s)",
                      o->launches.v[i], n ? list : "none");
            warned++;
        }
    }
    for (size_t i = 0; i < c->nparams; i++) {
        const hms_param_spec *p = &c->params[i];
        if (p->from_define || !p->kernel || any_matches(p->kernel, names, n))
            continue;
        hms_diagf(diags, run_warning, "--param '%s.%s' matches no kernel (kernels: %s)", p->kernel,
                  p->name, n ? list : "none");
        warned++;
    }
    return warned;
}
