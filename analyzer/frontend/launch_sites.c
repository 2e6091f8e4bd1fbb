/* Host-side `kernel<<<grid, block, shared, stream>>>(args)` launches.
 *
 * libclang 19 has no cursor kind for CUDAKernelCallExpr: a launch shows up as
 * a CXCursor_CallExpr whose children are the callee, then the configuration
 * call (a CallExpr to cudaConfigureCall, or __cudaPushCallConfiguration when
 * clang assumes CUDA >= 9.2), then the kernel arguments. That second child is
 * how launches are recognised here. */
#include "analyzer/frontend/launch_sites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/const_fold.h"
#include "analyzer/frontend/cursor_util.h"
#include "analyzer/frontend/host_calls.h"
#include "analyzer/frontend/int_expr_text.h"

typedef struct {
    CXTranslationUnit tu;
    CXCursor function;
    const CXCursor *stack;
    size_t depth;
    hms_launch_sites *out;
    bool templates_only;  /* only launches in function templates (hms_template_launch_refs) */
    CXCursor contexts_fn; /* the function `contexts` belong to */
    bool have_contexts;
    hms_call_contexts contexts;
} launch_scan;

static bool is_config_call(CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return false;
    char *name = hms_cursor_spelling(c);
    bool r = !strcmp(name, "cudaConfigureCall") || !strcmp(name, "__cudaPushCallConfiguration") ||
             !strcmp(name, "hipConfigureCall") || !strcmp(name, "__hipPushCallConfiguration");
    free(name);
    return r;
}

/* The configuration call of a launch, or a null cursor for other calls. */
static CXCursor launch_config(CXCursor call)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr || hms_cursor_nchildren(call) < 2)
        return clang_getNullCursor();
    CXCursor cfg = hms_cursor_child(call, 1);
    return is_config_call(cfg) ? cfg : clang_getNullCursor();
}

static char *xstrdup(const char *s)
{
    return strdup(s ? s : "");
}

/* The i-th template parameter of a function template (null when absent). */
typedef struct {
    unsigned want, seen;
    CXCursor found;
} tparam_query;

static enum CXChildVisitResult tparam_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    tparam_query *q = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter ||
        k == CXCursor_TemplateTemplateParameter) {
        if (q->seen++ == q->want) {
            q->found = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Continue;
}

static CXCursor template_param(CXCursor tmpl, unsigned i)
{
    tparam_query q = {i, 0, clang_getNullCursor()};
    if (!clang_Cursor_isNull(tmpl))
        clang_visitChildren(tmpl, tparam_visit, &q);
    return q.found;
}

/* One integral template argument, printed by its parameter's type (a bool
 * argument reads back as -1 or 0 otherwise). */
static void integral_arg(CXCursor fn, CXCursor tmpl, unsigned i, char *buf, size_t len,
                         int64_t *value)
{
    CXCursor p = template_param(tmpl, i);
    hms_type_class t = hms_type_classify(clang_getCursorType(p));
    if (t.family == HMS_TYPE_INTEGER && t.bits == 1) {
        bool v = clang_Cursor_getTemplateArgumentValue(fn, i) != 0;
        snprintf(buf, len, "%s", v ? "true" : "false");
        *value = v;
    } else if (t.is_unsigned) {
        unsigned long long v = clang_Cursor_getTemplateArgumentUnsignedValue(fn, i);
        snprintf(buf, len, "%llu", v);
        *value = (int64_t)v;
    } else {
        long long v = clang_Cursor_getTemplateArgumentValue(fn, i);
        snprintf(buf, len, "%lld", v);
        *value = v;
    }
}

/* "reduce<256, float>": the callee's name with its template arguments, when
 * the call names a function template specialization. */
static char *kernel_display_name(CXTranslationUnit tu, CXCursor callee_expr, CXCursor fn,
                                 hms_launch_site *ls)
{
    char *base = hms_cursor_spelling(fn);
    int n = clang_Cursor_getNumTemplateArguments(fn);
    if (n <= 0) {
        if (!*base) {
            free(base);
            return hms_cursor_text(tu, callee_expr);
        }
        return base;
    }
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    size_t cap = strlen(base) + 64 * (size_t)n + 8, len = 0;
    char *s = malloc(cap);
    if (!s)
        return base;
    len = (size_t)snprintf(s, cap, "%s<", base);
    ls->template_args = calloc((size_t)n, sizeof *ls->template_args);
    ls->ntemplate_args = ls->template_args ? (size_t)n : 0;
    for (int i = 0; i < n; i++) {
        char buf[256];
        int64_t value = 0;
        bool folded = false;
        switch (clang_Cursor_getTemplateArgumentKind(fn, (unsigned)i)) {
        case CXTemplateArgumentKind_Integral:
            integral_arg(fn, tmpl, (unsigned)i, buf, sizeof buf, &value);
            folded = true;
            break;
        case CXTemplateArgumentKind_Type: {
            char *t = hms_type_spelling(clang_Cursor_getTemplateArgumentType(fn, (unsigned)i));
            snprintf(buf, sizeof buf, "%s", t);
            free(t);
            break;
        }
        default:
            snprintf(buf, sizeof buf, "?");
            break;
        }
        if (ls->template_args) {
            ls->template_args[i].text = xstrdup(buf);
            ls->template_args[i].folded = folded;
            ls->template_args[i].value = value;
        }
        len += (size_t)snprintf(s + len, cap - len, "%s%s", i ? ", " : "", buf);
        if (len >= cap - 2)
            break;
    }
    if (len < cap - 1)
        snprintf(s + len, cap - len, ">");
    free(base);
    return s;
}

/* False when e is integral and does not fold. */
static bool fold_scalar(const hms_fold_site *site, CXCursor e, hms_folded_arg *out)
{
    out->text = hms_cursor_text(site->tu, e);
    out->folded = false;
    out->value = 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(e));
    bool integral = (t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum;
    /* in a template body an argument's type may not be known yet */
    bool maybe = t.kind == CXType_Unexposed || t.kind == CXType_Dependent;

    if (integral || maybe)
        out->folded = hms_fold_int(site, e, &out->value);
    return out->folded || !integral;
}

static bool config_known(const hms_launch_site *ls)
{
    for (int d = 0; d < 3; d++)
        if (!ls->grid[d].folded || !ls->block[d].folded)
            return false;
    return true;
}

/* The folded part of a launch: configuration and arguments. True when every
 * integral value folds. */
static bool fold_config(const hms_fold_site *site, CXCursor call, CXCursor cfg, hms_launch_site *ls)
{
    bool all = true;
    int ncfg = clang_Cursor_getNumArguments(cfg);
    CXCursor grid = ncfg > 0 ? clang_Cursor_getArgument(cfg, 0) : clang_getNullCursor();
    CXCursor block = ncfg > 1 ? clang_Cursor_getArgument(cfg, 1) : clang_getNullCursor();
    hms_fold_dim3(site, grid, ls->grid);
    hms_fold_dim3(site, block, ls->block);
    ls->grid_text = hms_cursor_text(site->tu, grid);
    ls->block_text = hms_cursor_text(site->tu, block);
    /* A launch written inside a macro's argument (checkKernelErrors((k<<<g,
     * b>>>(...)))) has no source text of its own: which dim3 arguments were
     * written and which defaulted cannot be told, so nothing folds (the
     * default launch, said so) rather than a made-up (1,1,1). */
    if (!ls->grid_text || !*ls->grid_text || !ls->block_text || !*ls->block_text)
        for (int d = 0; d < 3; d++)
            ls->grid[d].folded = ls->block[d].folded = false;
    CXCursor shared = ncfg > 2 ? clang_Cursor_getArgument(cfg, 2) : clang_getNullCursor();
    if (!clang_Cursor_isNull(shared) && hms_cursor_within(shared, call)) {
        ls->has_shared = true;
        all &= fold_scalar(site, shared, &ls->shared);
    } else {
        ls->shared.text = xstrdup("0");
        ls->shared.folded = true;
    }
    CXCursor stream = ncfg > 3 ? clang_Cursor_getArgument(cfg, 3) : clang_getNullCursor();
    if (!clang_Cursor_isNull(stream) && hms_cursor_within(stream, call))
        ls->stream_text = hms_cursor_text(site->tu, stream);
    int nargs = clang_Cursor_getNumArguments(call);
    if (nargs > 0) {
        ls->args = calloc((size_t)nargs, sizeof *ls->args);
        ls->nargs = ls->args ? (size_t)nargs : 0;
        for (size_t i = 0; i < ls->nargs; i++)
            all &= fold_scalar(site, clang_Cursor_getArgument(call, (unsigned)i), &ls->args[i]);
    }
    return all && config_known(ls);
}

static void free_arg(hms_folded_arg *a)
{
    free(a->text);
    a->text = NULL;
}

static void free_config(hms_launch_site *ls)
{
    free(ls->grid_text);
    free(ls->block_text);
    free(ls->stream_text);
    for (int d = 0; d < 3; d++) {
        free_arg(&ls->grid[d]);
        free_arg(&ls->block[d]);
    }
    free_arg(&ls->shared);
    for (size_t a = 0; a < ls->nargs; a++)
        free_arg(&ls->args[a]);
    free(ls->args);
    ls->args = NULL;
    ls->nargs = 0;
    ls->grid_text = ls->block_text = ls->stream_text = NULL;
}

static void free_alt_items(hms_launch_alt *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        hms_launch_alt *a = &v[i];
        for (int d = 0; d < 3; d++) {
            free_arg(&a->grid[d]);
            free_arg(&a->block[d]);
        }
        free_arg(&a->shared);
        for (size_t j = 0; j < a->nargs; j++)
            free_arg(&a->args[j]);
        free(a->args);
        free(a->via);
    }
}

static void free_alts(hms_launch_site *ls)
{
    free_alt_items(ls->alts, ls->nalts);
    free(ls->alts);
    ls->alts = NULL;
    ls->nalts = 0;
}

static void copy_arg(hms_folded_arg *d, const hms_folded_arg *s);

/* a's configuration and arguments taken from a folding, deep-copied. */
static bool alt_from(hms_launch_alt *a, const hms_launch_site *t, const char *via)
{
    memset(a, 0, sizeof *a);
    for (int d = 0; d < 3; d++) {
        copy_arg(&a->grid[d], &t->grid[d]);
        copy_arg(&a->block[d], &t->block[d]);
    }
    a->has_shared = t->has_shared;
    copy_arg(&a->shared, &t->shared);
    a->args = t->nargs ? calloc(t->nargs, sizeof *a->args) : NULL;
    a->nargs = a->args ? t->nargs : 0;
    for (size_t j = 0; j < a->nargs; j++)
        copy_arg(&a->args[j], &t->args[j]);
    a->via = via ? xstrdup(via) : NULL;
    return true;
}

/* Same configuration, shared bytes and folded arguments? */
static bool alt_same(const hms_launch_alt *a, const hms_launch_site *t)
{
    for (int d = 0; d < 3; d++)
        if (a->grid[d].value != t->grid[d].value || a->block[d].value != t->block[d].value)
            return false;
    if (a->shared.folded != t->shared.folded ||
        (a->shared.folded && a->shared.value != t->shared.value) || a->nargs != t->nargs)
        return false;
    for (size_t j = 0; j < a->nargs; j++)
        if (a->args[j].folded != t->args[j].folded ||
            (a->args[j].folded && a->args[j].value != t->args[j].value))
            return false;
    return true;
}

static void copy_alts(hms_launch_site *d, const hms_launch_site *s)
{
    d->alts = s->nalts ? calloc(s->nalts, sizeof *d->alts) : NULL;
    d->nalts = 0;
    for (size_t i = 0; d->alts && i < s->nalts; i++) {
        const hms_launch_alt *a = &s->alts[i];
        hms_launch_site t;
        memset(&t, 0, sizeof t);
        memcpy(t.grid, a->grid, sizeof t.grid);
        memcpy(t.block, a->block, sizeof t.block);
        t.has_shared = a->has_shared;
        t.shared = a->shared;
        t.nargs = a->nargs;
        t.args = a->args;
        alt_from(&d->alts[d->nalts++], &t, a->via);
    }
}

/* Folded values, configuration first: which of two foldings knows more. */
static int fold_score(const hms_launch_site *ls)
{
    int n = 0;
    for (int d = 0; d < 3; d++)
        n += 100 * (ls->grid[d].folded + ls->block[d].folded);
    n += 10 * ls->shared.folded;
    for (size_t a = 0; a < ls->nargs; a++)
        n += ls->args[a].folded;
    return n;
}

static void copy_arg(hms_folded_arg *d, const hms_folded_arg *s)
{
    *d = *s;
    d->text = s->text ? xstrdup(s->text) : NULL;
}

static void copy_config(hms_launch_site *d, const hms_launch_site *s)
{
    for (int i = 0; i < 3; i++) {
        copy_arg(&d->grid[i], &s->grid[i]);
        copy_arg(&d->block[i], &s->block[i]);
    }
    d->grid_text = s->grid_text ? xstrdup(s->grid_text) : NULL;
    d->block_text = s->block_text ? xstrdup(s->block_text) : NULL;
    d->stream_text = s->stream_text ? xstrdup(s->stream_text) : NULL;
    d->has_shared = s->has_shared;
    copy_arg(&d->shared, &s->shared);
    d->args = s->nargs ? calloc(s->nargs, sizeof *d->args) : NULL;
    d->nargs = d->args ? s->nargs : 0;
    for (size_t i = 0; i < d->nargs; i++)
        copy_arg(&d->args[i], &s->args[i]);
    d->via = s->via ? xstrdup(s->via) : NULL;
    d->others = s->others ? xstrdup(s->others) : NULL;
    d->nconfigs = s->nconfigs;
    copy_alts(d, s);
}

static void config_text(const hms_launch_site *ls, char *buf, size_t len)
{
    snprintf(buf, len, "grid(%lld,%lld,%lld) block(%lld,%lld,%lld)", (long long)ls->grid[0].value,
             (long long)ls->grid[1].value, (long long)ls->grid[2].value,
             (long long)ls->block[0].value, (long long)ls->block[1].value,
             (long long)ls->block[2].value);
}

/* The contexts of the function holding the launch, computed once per function. */
static const hms_call_contexts *contexts_of(launch_scan *sc)
{
    if (!sc->have_contexts || !clang_equalCursors(sc->contexts_fn, sc->function)) {
        hms_call_contexts_free(&sc->contexts);
        hms_host_call_contexts(sc->tu, sc->function, &sc->contexts);
        sc->contexts_fn = sc->function;
        sc->have_contexts = true;
    }
    return &sc->contexts;
}

/* Folds the launch again at each call path of its host function and keeps
 * the first fully known configuration (see the policy in the header). */
static void refold_through_calls(launch_scan *sc, const hms_fold_site *site, CXCursor call,
                                 CXCursor cfg, hms_launch_site *ls, const char *targs)
{
    const hms_call_contexts *cx = contexts_of(sc);
    if (!cx->n)
        return;
    hms_launch_site best;
    memset(&best, 0, sizeof best);
    size_t chosen = cx->n;
    int best_score = fold_score(ls);
    char configs[8][96], chosen_cfg[96] = "";
    size_t nconfigs = 0, nmore = 0;
    hms_launch_alt alts[HMS_MAX_LAUNCH_ALTS];
    size_t nalts = 0;
    for (size_t i = 0; i < cx->n; i++) {
        hms_fold_site at = *site;
        at.binds = cx->v[i].binds;
        at.nbinds = cx->v[i].nbinds;
        if (targs && (!cx->v[i].targs || strcmp(targs, cx->v[i].targs)))
            continue; /* a call of another instantiation of the host template */
        if (!hms_fold_site_reachable(&at))
            continue; /* this call takes another branch (switch on the block size) */
        hms_launch_site t;
        memset(&t, 0, sizeof t);
        fold_config(&at, call, cfg, &t);
        bool known = config_known(&t);
        if (known) {
            char c[96];
            config_text(&t, c, sizeof c);
            bool seen = false;
            for (size_t j = 0; j < nconfigs; j++)
                seen |= !strcmp(configs[j], c);
            if (!seen && nconfigs < 8)
                snprintf(configs[nconfigs++], sizeof configs[0], "%s", c);
            else if (!seen)
                nmore++;
            bool same = false;
            for (size_t j = 0; j < nalts && !same; j++)
                same = alt_same(&alts[j], &t);
            if (!same && nalts < HMS_MAX_LAUNCH_ALTS)
                alt_from(&alts[nalts++], &t, cx->v[i].via);
        }
        int score = fold_score(&t);
        bool take = chosen == cx->n ? score > best_score
                                    : !config_known(&best) && (known || score > best_score);
        if (take) {
            free_config(&best);
            best = t;
            best_score = score;
            chosen = i;
            if (known)
                config_text(&t, chosen_cfg, sizeof chosen_cfg);
        } else {
            free_config(&t);
        }
    }
    if (chosen == cx->n || nalts < 2 || !config_known(&best)) {
        free_alt_items(alts, nalts); /* kept only when two or more, the chosen one first */
        nalts = 0;
    }
    if (chosen == cx->n)
        return;
    free_alts(ls);
    if (nalts) {
        ls->alts = malloc(nalts * sizeof *ls->alts);
        if (ls->alts) {
            memcpy(ls->alts, alts, nalts * sizeof *alts);
            ls->nalts = nalts;
        } else {
            free_alt_items(alts, nalts);
        }
    }
    free_config(ls);
    /* the folded part only: names and template arguments stay */
    memcpy(ls->grid, best.grid, sizeof ls->grid);
    memcpy(ls->block, best.block, sizeof ls->block);
    ls->grid_text = best.grid_text, ls->block_text = best.block_text;
    ls->stream_text = best.stream_text;
    ls->has_shared = best.has_shared, ls->shared = best.shared;
    ls->args = best.args, ls->nargs = best.nargs;
    free(ls->via);
    ls->via = xstrdup(cx->v[chosen].via);
    ls->nconfigs = nconfigs + nmore;
    size_t cap = 64 + nconfigs * 100, len = 0;
    char *o = nconfigs > 1 ? malloc(cap) : NULL;
    for (size_t j = 0; o && j < nconfigs; j++)
        if (strcmp(configs[j], chosen_cfg))
            len += (size_t)snprintf(o + len, cap - len, "%s%s", len ? "; " : "", configs[j]);
    if (o && nmore)
        snprintf(o + len, cap - len, "; and %zu more", nmore);
    if (o && !*o) {
        free(o);
        o = NULL;
    }
    ls->others = o;
}

/* The callee of a launch: its name, template arguments and USR. */
static void name_kernel(launch_scan *sc, CXCursor callee, CXCursor fn, hms_launch_site *ls)
{
    CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
    ls->kernel_usr = hms_cursor_usr(clang_Cursor_isNull(tmpl) ? fn : tmpl);
    ls->kernel = kernel_display_name(sc->tu, callee, fn, ls);
    ls->kernel_name = hms_cursor_spelling(fn);
}

static hms_launch_site *new_site(launch_scan *sc)
{
    hms_launch_sites *o = sc->out;
    hms_launch_site *nv = realloc(o->v, (o->n + 1) * sizeof *nv);
    if (!nv)
        return NULL;
    o->v = nv;
    hms_launch_site *ls = &o->v[o->n++];
    memset(ls, 0, sizeof *ls);
    return ls;
}

/* Splits "a, b<c, d>, e" at its top-level commas, blanks trimmed. */
static size_t split_args(const char *s, size_t n, char out[][256], size_t max)
{
    size_t count = 0, start = 0;
    int depth = 0;
    for (size_t i = 0; i <= n && count < max; i++) {
        char c = i < n ? s[i] : ',';
        depth += c == '<' || c == '(' ? 1 : c == '>' || c == ')' ? -1 : 0;
        if (c == ',' && depth == 0) {
            size_t b = start, e = i;
            while (b < e && (s[b] == ' ' || s[b] == '\n' || s[b] == '\t'))
                b++;
            while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\n' || s[e - 1] == '\t'))
                e--;
            snprintf(out[count++], 256, "%.*s", (int)(e - b), s + b);
            start = i + 1;
        }
    }
    return count;
}

static bool is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Does text name identifier id anywhere? */
static bool mentions(const char *text, const char *id)
{
    size_t n = strlen(id);
    for (const char *p = strstr(text, id); p; p = strstr(p + 1, id))
        if ((p == text || !is_ident(p[-1])) && !is_ident(p[n]))
            return true;
    return false;
}

#define MAX_TARGS 32 /* hand-tuned kernels take a dozen or more (tile shapes, stages, padding) */

typedef struct {
    const char *name;
    CXCursor found;
} local_find;

static enum CXChildVisitResult local_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    local_find *f = d;
    if (clang_getCursorKind(c) == CXCursor_VarDecl) {
        char *n = hms_cursor_spelling(c);
        bool same = !strcmp(n, f->name);
        free(n);
        if (same && clang_isConstQualifiedType(clang_getCursorType(c))) {
            f->found = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* The initialiser's text of a local constant of the host function
 * (`constexpr int Br = kAtomM * 2;`), or NULL when id names none. */
static char *local_constant_text(launch_scan *sc, const char *id)
{
    local_find f = {id, clang_getNullCursor()};
    clang_visitChildren(sc->function, local_visit, &f);
    if (clang_Cursor_isNull(f.found))
        return NULL;
    unsigned n = hms_cursor_nchildren(f.found);
    CXCursor init = n ? hms_cursor_child(f.found, n - 1) : clang_getNullCursor();
    if (clang_Cursor_isNull(init) || !clang_isExpression(clang_getCursorKind(init)))
        return NULL;
    return hms_cursor_text(sc->tu, init);
}

/* A kernel template argument spelled as an expression of the host
 * template's parameters and its local constants (`kHeadDim / (kAtomN * 4)`,
 * `Bc` with `constexpr int Bc = 8 * kTile;`): names replaced by their
 * values, then evaluated. False when something is left that is no integer
 * constant (a type, a global, sizeof). */
static bool eval_piece(launch_scan *sc, const char *piece, char params[][256], char args[][256],
                       size_t np, long long *value)
{
    char cur[1024], next[1024];
    snprintf(cur, sizeof cur, "%s", piece);
    for (int round = 0; round < 8; round++) {
        size_t at = 0;
        bool changed = false, overflow = false;
        for (const char *p = cur; *p && !overflow;) {
            bool starts =
                is_ident(*p) && !(*p >= '0' && *p <= '9') && (p == cur || !is_ident(p[-1]));
            if (!starts) {
                overflow = at + 1 >= sizeof next;
                next[at++] = *p++;
                continue;
            }
            const char *e = p;
            while (is_ident(*e))
                e++;
            char id[256];
            snprintf(id, sizeof id, "%.*s", (int)(e - p), p);
            const char *rep = NULL;
            for (size_t k = 0; k < np && !rep; k++)
                if (!strcmp(id, params[k]))
                    rep = args[k];
            char *init = rep ? NULL : local_constant_text(sc, id);
            const char *put = rep ? rep : init ? init : id;
            int w = snprintf(next + at, sizeof next - at, rep || init ? "(%s)" : "%s", put);
            overflow = w < 0 || (size_t)w >= sizeof next - at;
            at += overflow ? 0 : (size_t)w;
            changed |= rep || init;
            free(init);
            p = e;
        }
        if (overflow)
            return false;
        next[at] = '\0';
        memcpy(cur, next, at + 1);
        if (!changed)
            break;
    }
    return hms_int_expr_text(cur, value);
}

/* A launch `k<T, 512><<<...>>>` in the body of a host function template: one
 * site per instantiation of the host template (its calls and explicit
 * instantiations) with the host's template parameters replaced in the
 * kernel's arguments ("k<float, 512>"), folded through that instantiation's
 * calls only. False when there is none or an argument is an expression of
 * the parameters (then the launch stays as written). */
static bool record_instances(launch_scan *sc, const hms_fold_site *site, CXCursor call,
                             CXCursor cfg, CXCursor callee, CXCursor kernel, CXFile file,
                             unsigned line, unsigned col)
{
    char params[MAX_TARGS][256];
    size_t np = 0;
    unsigned nk = hms_cursor_nchildren(sc->function);
    for (unsigned i = 0; i < nk && np < MAX_TARGS; i++) {
        CXCursor c = hms_cursor_child(sc->function, i);
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter ||
            k == CXCursor_TemplateTemplateParameter) {
            char *n = hms_cursor_spelling(c);
            snprintf(params[np++], 256, "%s", n);
            free(n);
        }
    }
    char *text = hms_cursor_text(sc->tu, callee);
    char *lt = text ? strchr(text, '<') : NULL, *gt = text ? strrchr(text, '>') : NULL;
    if (!np || !lt || !gt || gt < lt) {
        free(text);
        return false;
    }
    char pieces[MAX_TARGS][256];
    size_t npieces = split_args(lt + 1, (size_t)(gt - lt - 1), pieces, MAX_TARGS);
    char **inst = NULL;
    size_t ni = hms_template_instances(sc->tu, sc->function, contexts_of(sc), &inst);

    size_t made = 0;
    char *kname = hms_cursor_spelling(kernel);
    for (size_t i = 0; i < ni; i++) {
        char args[MAX_TARGS][256];
        if (split_args(inst[i], strlen(inst[i]), args, MAX_TARGS) != np)
            continue;
        char name[1024];
        size_t at = (size_t)snprintf(name, sizeof name, "%s<", kname);
        hms_folded_arg targs[MAX_TARGS];
        bool ok = npieces > 0;
        for (size_t a = 0; a < npieces && ok; a++) {
            const char *v = pieces[a];
            for (size_t p = 0; p < np; p++)
                if (!strcmp(v, params[p]))
                    v = args[p];
            char evaluated[32];
            long long num = 0;
            if (!hms_int_expr_text(v, &num) && eval_piece(sc, v, params, args, np, &num)) {
                snprintf(evaluated, sizeof evaluated, "%lld", num);
                v = evaluated;
            }
            for (size_t p = 0; p < np && ok; p++)
                ok = !mentions(v, params[p]); /* an expression of the parameters */
            char *end = NULL;
            num = strtoll(v, &end, 0);
            while (end && (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L'))
                end++;
            targs[a].text = xstrdup(v);
            targs[a].folded = !strcmp(v, "true") || !strcmp(v, "false") || (end != v && !*end);
            targs[a].value = !strcmp(v, "true") ? 1 : !strcmp(v, "false") ? 0 : num;
            if (targs[a].folded && strcmp(v, "true") && strcmp(v, "false")) {
                free(targs[a].text);
                char buf[32];
                snprintf(buf, sizeof buf, "%lld", num);
                targs[a].text = xstrdup(buf);
            }
            at += (size_t)snprintf(name + at, at < sizeof name ? sizeof name - at : 0, "%s%s",
                                   a ? ", " : "", targs[a].text);
        }
        hms_launch_site *ls = ok && at + 2 < sizeof name ? new_site(sc) : NULL;
        if (!ls) {
            for (size_t a = 0; a < npieces; a++)
                free(targs[a].text);
            continue;
        }
        snprintf(name + at, sizeof name - at, ">");
        CXString fname = clang_getFileName(file);
        ls->file = xstrdup(clang_getCString(fname));
        clang_disposeString(fname);
        ls->line = line;
        ls->col = col;
        ls->kernel = xstrdup(name);
        ls->kernel_name = xstrdup(kname);
        ls->kernel_usr = hms_cursor_usr(kernel);
        ls->template_args = calloc(npieces, sizeof *ls->template_args);
        ls->ntemplate_args = ls->template_args ? npieces : 0;
        for (size_t a = 0; a < npieces; a++) {
            if (ls->template_args)
                ls->template_args[a] = targs[a];
            else
                free(targs[a].text);
        }
        ls->instance = true;
        if (!fold_config(site, call, cfg, ls))
            refold_through_calls(sc, site, call, cfg, ls, inst[i]);
        made++;
    }
    for (size_t i = 0; i < ni; i++)
        free(inst[i]);
    free(inst);
    free(kname);
    free(text);
    return made > 0;
}

static enum CXChildVisitResult find_template_ref(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    CXCursor *found = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_TemplateRef || k == CXCursor_OverloadedDeclRef) {
        CXCursor t = k == CXCursor_TemplateRef ? clang_getCursorReferenced(c)
                                               : clang_getOverloadedDecl(c, 0);
        if (clang_getCursorKind(t) == CXCursor_FunctionTemplate) {
            *found = t;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* The kernel template named by a dependent callee (`k<T, 512>` in a
 * template body, an unresolved lookup to libclang), or a null cursor. */
static CXCursor dependent_callee(CXCursor callee)
{
    CXCursor found = clang_getNullCursor();
    if (clang_getCursorKind(callee) == CXCursor_OverloadedDeclRef)
        find_template_ref(callee, callee, &found);
    else
        clang_visitChildren(callee, find_template_ref, &found);
    return found;
}

static void record_launch(launch_scan *sc, CXCursor call, CXCursor cfg)
{
    hms_fold_site site = {sc->tu, sc->function, sc->stack, sc->depth, 0, NULL, 0};
    unsigned line = 0, col = 0;
    CXFile f = NULL;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(call)), &f, &line, &col,
                               &site.offset);
    CXCursor callee = hms_cursor_child(call, 0);
    CXCursor fn = clang_getCursorReferenced(callee);
    if (clang_Cursor_isNull(fn))
        fn = clang_getCursorReferenced(hms_cursor_strip(callee));
    if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) == CXCursor_OverloadedDeclRef)
        fn = dependent_callee(callee);
    if (clang_getCursorKind(sc->function) == CXCursor_FunctionTemplate &&
        clang_getCursorKind(fn) == CXCursor_FunctionTemplate &&
        record_instances(sc, &site, call, cfg, callee, fn, f, line, col))
        return;
    hms_launch_site proto;
    memset(&proto, 0, sizeof proto);
    if (!fold_config(&site, call, cfg, &proto) && !clang_Cursor_isNull(sc->function))
        refold_through_calls(sc, &site, call, cfg, &proto, NULL);

    /* A launch through a function-pointer variable launches what it holds. */
    CXCursor targets[HMS_MAX_POINTER_TARGETS];
    size_t ntargets = 0;
    char *pointer = NULL;
    enum CXCursorKind fk = clang_getCursorKind(fn);
    if (fk != CXCursor_FunctionDecl && fk != CXCursor_FunctionTemplate) {
        ntargets = hms_pointer_targets(sc->function, callee, targets, HMS_MAX_POINTER_TARGETS);
        pointer = hms_cursor_text(sc->tu, callee);
    } else {
        targets[ntargets++] = fn;
    }
    for (size_t t = 0; t < ntargets; t++) {
        hms_launch_site *ls = new_site(sc);
        if (!ls)
            break;
        CXString fname = clang_getFileName(f);
        ls->file = xstrdup(clang_getCString(fname));
        clang_disposeString(fname);
        ls->line = line;
        ls->col = col;
        name_kernel(sc, callee, targets[t], ls);
        if (pointer)
            ls->pointer = xstrdup(pointer);
        if (t + 1 == ntargets) { /* the last one takes the folded values over */
            hms_launch_site keep = *ls;
            *ls = proto;
            ls->file = keep.file, ls->line = keep.line, ls->col = keep.col;
            ls->kernel = keep.kernel, ls->kernel_usr = keep.kernel_usr;
            ls->kernel_name = keep.kernel_name;
            ls->ntemplate_args = keep.ntemplate_args, ls->template_args = keep.template_args;
            ls->pointer = keep.pointer;
        } else {
            copy_config(ls, &proto);
        }
    }
    if (ntargets == 0) { /* nothing known to be launched: drop the folded values */
        free_config(&proto);
        free(proto.via);
        free(proto.others);
        free_alts(&proto);
    }
    free(pointer);
}

static bool is_function_like(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod ||
           k == CXCursor_FunctionTemplate || k == CXCursor_Constructor ||
           k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

/* Is name a header by its extension (.h, .hh, .hpp, .hxx, .cuh, .h++)? */
static bool is_header_name(const char *name)
{
    static const char *const exts[] = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".h++", ".H"};
    const char *slash = strrchr(name, '/');
    const char *dot = strrchr(slash ? slash : name, '.');
    if (!dot)
        return true; /* <vector> and the like */
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (!strcmp(dot, exts[i]))
            return true;
    return false;
}

/* Launches are collected from the main file and from the source files it
 * #includes (kernels and their launches often live in a .cu or .inc pulled
 * in by the host file), never from headers: a header's launch wrappers
 * belong to whatever file includes them, and system headers and our
 * hermetic ones hold none of the project's. */
static bool in_scanned_file(CXCursor c)
{
    CXSourceLocation loc = clang_getCursorLocation(c);
    if (clang_Location_isFromMainFile(loc))
        return true;
    if (hms_cursor_in_builtin_header(c))
        return false;
    CXFile f = NULL;
    clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
    CXString name = clang_getFileName(f);
    const char *s = clang_getCString(name);
    bool source = s && !is_header_name(s);
    clang_disposeString(name);
    return source;
}

typedef struct {
    hms_host_node_fn fn;
    void *data;
    CXCursor function;
    CXCursor stack[256];
    size_t depth;
} host_walk;

static enum CXChildVisitResult body_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    host_walk *w = d;
    w->fn(w->function, w->stack, w->depth, c, w->data);
    if (w->depth < sizeof w->stack / sizeof *w->stack) {
        w->stack[w->depth++] = c;
        clang_visitChildren(c, body_visit, w);
        w->depth--;
    }
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult decl_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    host_walk *w = d;
    if (!in_scanned_file(c))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (is_function_like(k)) {
        if (clang_isCursorDefinition(c)) {
            w->function = c;
            w->depth = 0;
            clang_visitChildren(c, body_visit, w);
        }
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl ||
        k == CXCursor_StructDecl || k == CXCursor_ClassTemplate || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    return CXChildVisit_Continue;
}

void hms_walk_host_code(CXTranslationUnit tu, hms_host_node_fn fn, void *data)
{
    host_walk *w = calloc(1, sizeof *w);
    if (!w || !tu) {
        free(w);
        return;
    }
    w->fn = fn;
    w->data = data;
    clang_visitChildren(clang_getTranslationUnitCursor(tu), decl_visit, w);
    free(w);
}

static void launch_node(CXCursor function, const CXCursor *stack, size_t depth, CXCursor c,
                        void *data)
{
    launch_scan *sc = data;
    CXCursor cfg = launch_config(c);
    if (clang_Cursor_isNull(cfg) ||
        (sc->templates_only && clang_getCursorKind(function) != CXCursor_FunctionTemplate))
        return;
    sc->function = function;
    sc->stack = stack;
    sc->depth = depth;
    record_launch(sc, c, cfg);
}

static void find_sites(CXTranslationUnit tu, hms_launch_sites *out, bool templates_only)
{
    out->v = NULL;
    out->n = 0;
    if (!tu)
        return;
    launch_scan sc;
    memset(&sc, 0, sizeof sc);
    sc.tu = tu;
    sc.out = out;
    sc.templates_only = templates_only;
    hms_walk_host_code(tu, launch_node, &sc);
    hms_call_contexts_free(&sc.contexts);
}

void hms_find_launch_sites(CXTranslationUnit tu, hms_launch_sites *out)
{
    find_sites(tu, out, false);
}

void hms_launch_sites_free(hms_launch_sites *s)
{
    for (size_t i = 0; i < s->n; i++) {
        hms_launch_site *ls = &s->v[i];
        free(ls->kernel);
        free(ls->kernel_name);
        free(ls->kernel_usr);
        free(ls->file);
        free_config(ls);
        free(ls->via);
        free(ls->others);
        free_alts(ls);
        free(ls->pointer);
        for (size_t a = 0; a < ls->ntemplate_args; a++)
            free_arg(&ls->template_args[a]);
        free(ls->template_args);
    }
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

char *hms_template_launch_refs(CXTranslationUnit tu)
{
    hms_launch_sites sites;
    find_sites(tu, &sites, true);
    char *out = NULL;
    size_t len = 0;
    for (size_t i = 0; i < sites.n; i++) {
        if (!sites.v[i].instance)
            continue;
        bool seen = false;
        for (size_t j = 0; j < i; j++)
            seen |= sites.v[j].instance && !strcmp(sites.v[j].kernel, sites.v[i].kernel);
        if (seen)
            continue;
        char line[1200];
        int n = snprintf(line, sizeof line,
                         "\nstatic void *__hms_lint_launch_instance_%zu = (void *)&%s;", i,
                         sites.v[i].kernel);
        if (n <= 0 || (size_t)n >= sizeof line)
            continue;
        char *nv = realloc(out, len + (size_t)n + 2);
        if (!nv)
            break;
        out = nv;
        memcpy(out + len, line, (size_t)n + 1);
        len += (size_t)n;
    }
    if (out) {
        out[len++] = '\n';
        out[len] = '\0';
    }
    hms_launch_sites_free(&sites);
    return out;
}
