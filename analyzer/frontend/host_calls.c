/* Call paths of host functions (see host_calls.h). */
#include "analyzer/frontend/host_calls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/cursor_util.h"
#include "analyzer/frontend/explicit_inst.h"
#include "analyzer/frontend/launch_sites.h"

typedef struct {
    CXCursor call, function;
    CXCursor callee; /* the function called: a specialization for a template */
    CXCursor *chain;
    size_t nchain;
} found_call;

typedef struct {
    const char *usr;
    found_call *v;
    size_t n;
} call_search;

/* USR of a function, or of the template a specialization comes from. */
static char *function_usr(CXCursor fn)
{
    CXCursor t = clang_getSpecializedCursorTemplate(fn);
    return hms_cursor_usr(clang_Cursor_isNull(t) ? fn : t);
}

static void find_call(CXCursor function, const CXCursor *stack, size_t depth, CXCursor c,
                      void *data)
{
    call_search *cs = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr || cs->n >= HMS_MAX_CALL_CONTEXTS)
        return;
    CXCursor ref = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(ref))
        return;
    char *usr = function_usr(ref);
    bool match = usr && *usr && !strcmp(usr, cs->usr);
    free(usr);
    if (!match)
        return;
    found_call *nv = realloc(cs->v, (cs->n + 1) * sizeof *nv);
    if (!nv)
        return;
    cs->v = nv;
    found_call *f = &cs->v[cs->n];
    f->chain = depth ? malloc(depth * sizeof *f->chain) : NULL;
    if (depth && !f->chain)
        return;
    if (depth)
        memcpy(f->chain, stack, depth * sizeof *stack);
    f->nchain = depth;
    f->call = c;
    f->callee = ref;
    f->function = function;
    cs->n++;
}

/* The ParmDecls of a function, in order. */
static size_t params_of(CXCursor fn, CXCursor *out, size_t max)
{
    size_t n = 0;
    unsigned nk = hms_cursor_nchildren(fn);
    for (unsigned i = 0; i < nk && n < max; i++) {
        CXCursor c = hms_cursor_child(fn, i);
        if (clang_getCursorKind(c) == CXCursor_ParmDecl)
            out[n++] = c;
    }
    return n;
}

static bool is_arithmetic(CXType t)
{
    t = clang_getCanonicalType(t);
    return (t.kind >= CXType_Bool && t.kind <= CXType_LongDouble) || t.kind == CXType_Enum;
}

#define MAX_PARAMS 32
/* Bindings of one call: a dim3 parameter binds its three components. */
#define MAX_BINDS (3 * MAX_PARAMS)

/* Binds the parameters whose arguments fold at site; returns how many
 * arithmetic ones do not. */
static size_t bind_args(const hms_fold_site *site, CXCursor call, const CXCursor *params,
                        size_t nparams, hms_fold_binding *binds, size_t *nbinds)
{
    size_t fail = 0;
    int nargs = clang_Cursor_getNumArguments(call);
    *nbinds = 0;
    for (size_t i = 0; i < nparams && (int)i < nargs && *nbinds + 3 <= MAX_BINDS; i++) {
        hms_fold_binding b;
        b.var = params[i];
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        if (hms_is_dim3_type(clang_getCursorType(params[i]))) {
            /* a dim3 parameter: its components */
            hms_folded_arg v3[3];
            hms_fold_dim3(site, arg, v3);
            for (int m = 0; m < 3; m++) {
                if (v3[m].folded)
                    binds[(*nbinds)++] = (hms_fold_binding){params[i], false, v3[m].value, 0.0, m};
                free(v3[m].text);
            }
        } else if (hms_fold_value(site, arg, &b)) {
            binds[(*nbinds)++] = b;
        } else if (is_arithmetic(clang_getCursorType(params[i]))) {
            fail++;
        }
    }
    return fail;
}

static void put_context(hms_call_contexts *out, const hms_fold_binding *binds, size_t n, char *via,
                        CXCursor callee)
{
    hms_call_context *nv =
        out->n < HMS_MAX_CALL_CONTEXTS ? realloc(out->v, (out->n + 1) * sizeof *nv) : NULL;
    if (!nv) {
        free(via);
        return;
    }
    out->v = nv;
    hms_call_context *c = &out->v[out->n++];
    c->binds = n ? malloc(n * sizeof *binds) : NULL;
    c->nbinds = c->binds ? n : 0;
    if (c->binds)
        memcpy(c->binds, binds, n * sizeof *binds);
    c->via = via;
    char targs[512];
    c->targs = hms_template_args_text(callee, targs, sizeof targs) > 0 ? strdup(targs) : NULL;
}

/* "launch(n=4096, bs=64) called at main.cu:40[ [j=1]][ <- outer]" */
static char *describe(CXCursor fn, CXCursor call, const hms_fold_binding *binds, size_t n,
                      const char *loop_var, long long loop_value, const char *outer)
{
    char buf[1024];
    char *name = hms_cursor_spelling(fn);
    size_t len = (size_t)snprintf(buf, sizeof buf, "%s(", name);
    free(name);
    for (size_t i = 0; i < n && len < sizeof buf; i++) {
        char *p = hms_cursor_spelling(binds[i].var);
        const char *m = binds[i].member >= 0 ? &".x\0.y\0.z"[3 * binds[i].member] : "";
        if (binds[i].is_float)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s%s=%g", i ? ", " : "", p, m,
                                    binds[i].d);
        else
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s%s=%lld", i ? ", " : "", p, m,
                                    (long long)binds[i].i);
        free(p);
    }
    unsigned line = 0;
    char *file = hms_cursor_file(call, &line, NULL);
    const char *base = file ? strrchr(file, '/') : NULL;
    if (len < sizeof buf)
        len += (size_t)snprintf(buf + len, sizeof buf - len, ") called at %s:%u",
                                base   ? base + 1
                                : file ? file
                                       : "?",
                                line);
    free(file);
    if (loop_var && len < sizeof buf)
        len += (size_t)snprintf(buf + len, sizeof buf - len, " [%s=%lld]", loop_var, loop_value);
    if (outer && len < sizeof buf)
        snprintf(buf + len, sizeof buf - len, " <- %s", outer);
    return strdup(buf);
}

static void contexts_at(CXTranslationUnit tu, CXCursor function, int depth, hms_call_contexts *out);

/* The paths through one call of `fn`, given one path (or none) of its caller. */
static void paths_through(CXTranslationUnit tu, CXCursor fn, const CXCursor *params, size_t nparams,
                          const found_call *fc, const hms_call_context *outer,
                          hms_call_contexts *out)
{
    hms_fold_site site = {tu, fc->function, fc->chain, fc->nchain, 0, NULL, 0};
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(fc->call)), NULL, NULL,
                               NULL, &site.offset);
    if (outer) {
        site.binds = outer->binds;
        site.nbinds = outer->nbinds;
    }
    hms_fold_binding binds[MAX_BINDS];
    size_t nb;
    size_t fail = bind_args(&site, fc->call, params, nparams, binds, &nb);
    const char *outer_via = outer ? outer->via : NULL;
    /* Arguments that fold only per iteration of an enclosing counted loop:
     * one path per iteration (the innermost such loop). */
    for (size_t i = fc->nchain; fail > 0 && i-- > 0;) {
        CXCursor var;
        int64_t values[HMS_MAX_LOOP_VALUES];
        size_t nv = hms_fold_loop_values(&site, fc->chain[i], &var, values, HMS_MAX_LOOP_VALUES);
        if (!nv)
            continue;
        size_t nouter = site.nbinds;
        hms_fold_binding *all = malloc((nouter + 1) * sizeof *all);
        if (!all)
            return;
        if (nouter)
            memcpy(all, site.binds, nouter * sizeof *all);
        hms_fold_site it = site;
        it.binds = all;
        it.nbinds = nouter + 1;
        all[nouter] = (hms_fold_binding){var, false, values[0], 0.0, -1};
        hms_fold_binding b2[MAX_BINDS];
        size_t nb2;
        if (bind_args(&it, fc->call, params, nparams, b2, &nb2) >= fail) {
            free(all);
            continue; /* the loop does not help */
        }
        char *vname = hms_cursor_spelling(var);
        for (size_t v = 0; v < nv; v++) {
            all[nouter].i = values[v];
            bind_args(&it, fc->call, params, nparams, b2, &nb2);
            put_context(out, b2, nb2,
                        describe(fn, fc->call, b2, nb2, vname, (long long)values[v], outer_via),
                        fc->callee);
        }
        free(vname);
        free(all);
        return;
    }
    put_context(out, binds, nb, describe(fn, fc->call, binds, nb, NULL, 0, outer_via), fc->callee);
}

static void contexts_at(CXTranslationUnit tu, CXCursor function, int depth, hms_call_contexts *out)
{
    CXCursor params[MAX_PARAMS];
    size_t nparams = params_of(function, params, MAX_PARAMS);
    if (!nparams)
        return;
    call_search cs = {0};
    char *usr = function_usr(function);
    cs.usr = usr;
    if (usr && *usr)
        hms_walk_host_code(clang_Cursor_getTranslationUnit(function), find_call, &cs);
    /* The caller's own paths, computed once per caller (its calls of
     * `function` are usually next to each other). */
    hms_call_contexts outer = {0};
    CXCursor outer_fn = clang_getNullCursor();
    for (size_t i = 0; i < cs.n && out->n < HMS_MAX_CALL_CONTEXTS; i++) {
        const found_call *fc = &cs.v[i];
        if (!clang_equalCursors(fc->function, outer_fn)) {
            hms_call_contexts_free(&outer);
            outer_fn = fc->function;
            if (depth + 1 < HMS_MAX_CALL_DEPTH && !clang_equalCursors(fc->function, function))
                contexts_at(tu, fc->function, depth + 1, &outer);
        }
        if (!outer.n)
            paths_through(tu, function, params, nparams, fc, NULL, out);
        for (size_t o = 0; o < outer.n; o++)
            paths_through(tu, function, params, nparams, fc, &outer.v[o], out);
    }
    hms_call_contexts_free(&outer);
    for (size_t i = 0; i < cs.n; i++)
        free(cs.v[i].chain);
    free(cs.v);
    free(usr);
}

void hms_host_call_contexts(CXTranslationUnit tu, CXCursor function, hms_call_contexts *out)
{
    out->v = NULL;
    out->n = 0;
    if (!clang_Cursor_isNull(function))
        contexts_at(tu, function, 0, out);
}

void hms_call_contexts_free(hms_call_contexts *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i].binds);
        free(c->v[i].via);
        free(c->v[i].targs);
    }
    free(c->v);
    c->v = NULL;
    c->n = 0;
}

/* ---- function pointers ------------------------------------------------------- */

typedef struct {
    CXCursor *out;
    size_t n, max;
    CXCursor var;
} target_scan;

static void add_target(target_scan *t, CXCursor e)
{
    for (int guard = 0; guard < 16 && !clang_Cursor_isNull(e); guard++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr ||
            k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr ||
            k == CXCursor_CXXReinterpretCastExpr ||
            (k == CXCursor_UnaryOperator &&
             clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_AddrOf)) {
            unsigned n = hms_cursor_nchildren(e);
            e = n ? hms_cursor_child(e, n - 1) : clang_getNullCursor();
            continue;
        }
        if (k == CXCursor_ConditionalOperator && hms_cursor_nchildren(e) == 3) {
            add_target(t, hms_cursor_child(e, 1));
            add_target(t, hms_cursor_child(e, 2));
            return;
        }
        break;
    }
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return;
    CXCursor fn = clang_getCursorReferenced(e);
    if (!hms_cursor_is_kernel(fn))
        return;
    for (size_t i = 0; i < t->n; i++)
        if (clang_equalCursors(t->out[i], fn))
            return;
    if (t->n < t->max)
        t->out[t->n++] = fn;
}

static bool names_var(CXCursor e, CXCursor var)
{
    e = hms_cursor_strip(e);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), var);
}

static enum CXChildVisitResult assign_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    target_scan *t = d;
    if (clang_getCursorKind(c) == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign &&
        names_var(hms_cursor_child(c, 0), t->var))
        add_target(t, hms_cursor_child(c, 1));
    return CXChildVisit_Recurse;
}

/* The initializer of a variable: its last expression child. */
static CXCursor init_of(CXCursor var)
{
    CXCursor init = clang_getNullCursor();
    unsigned n = hms_cursor_nchildren(var);
    for (unsigned i = 0; i < n; i++) {
        CXCursor c = hms_cursor_child(var, i);
        if (clang_isExpression(clang_getCursorKind(c)))
            init = c;
    }
    return init;
}

size_t hms_pointer_targets(CXCursor function, CXCursor callee, CXCursor *out, size_t max)
{
    target_scan t = {out, 0, max, clang_getNullCursor()};
    CXCursor e = hms_cursor_strip(callee);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator &&
        clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref) /* (*kernel)<<<...>>> */
        e = hms_cursor_strip(hms_cursor_child(e, 0));
    if (clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr) {
        CXCursor base = hms_cursor_strip(hms_cursor_child(e, 0));
        if (clang_getCursorKind(base) != CXCursor_DeclRefExpr)
            return 0;
        CXCursor init = init_of(clang_getCursorReferenced(base));
        if (clang_getCursorKind(init) == CXCursor_InitListExpr) {
            unsigned n = hms_cursor_nchildren(init);
            for (unsigned i = 0; i < n; i++)
                add_target(&t, hms_cursor_child(init, i));
        }
        return t.n;
    }
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return 0;
    t.var = clang_getCursorReferenced(e);
    if (clang_getCursorKind(t.var) != CXCursor_VarDecl)
        return 0; /* a parameter: whatever the callers pass */
    add_target(&t, init_of(t.var));
    if (!clang_Cursor_isNull(function))
        clang_visitChildren(function, assign_visit, &t);
    return t.n;
}

/* ---- template arguments -------------------------------------------------------- */

size_t hms_template_args_text(CXCursor spec, char *buf, size_t len)
{
    buf[0] = '\0';
    int n = clang_Cursor_getNumTemplateArguments(spec);
    size_t at = 0;
    for (int i = 0; i < n && at < len; i++) {
        const char *sep = i ? ", " : "";
        switch (clang_Cursor_getTemplateArgumentKind(spec, (unsigned)i)) {
        case CXTemplateArgumentKind_Type: {
            char *t = hms_type_spelling(clang_Cursor_getTemplateArgumentType(spec, (unsigned)i));
            at += (size_t)snprintf(buf + at, len - at, "%s%s", sep, t);
            free(t);
            break;
        }
        case CXTemplateArgumentKind_Integral:
            at += (size_t)snprintf(buf + at, len - at, "%s%lld", sep,
                                   clang_Cursor_getTemplateArgumentValue(spec, (unsigned)i));
            break;
        default:
            return 0; /* a template or pack argument: not spelled here */
        }
    }
    return n > 0 && at < len ? (size_t)n : 0;
}

typedef struct {
    const char *usr;
    char **v;
    size_t n;
} instance_scan;

static void add_instance(instance_scan *s, const char *targs)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], targs))
            return;
    char **nv = realloc(s->v, (s->n + 1) * sizeof *nv);
    if (!nv)
        return;
    s->v = nv;
    s->v[s->n++] = strdup(targs);
}

/* `&f<args>` in the references parse.c appends for explicit instantiations
 * (explicit_inst.h): file-scope variables named with the marker. */
static enum CXChildVisitResult explicit_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    instance_scan *s = d;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor ref = clang_getCursorReferenced(c);
        char *usr = function_usr(ref), targs[512];
        if (usr && !strcmp(usr, s->usr) && hms_template_args_text(ref, targs, sizeof targs))
            add_instance(s, targs);
        free(usr);
        return CXChildVisit_Continue;
    }
    if (clang_getCursorKind(c) == CXCursor_VarDecl) {
        char *name = hms_cursor_spelling(c);
        bool ours = !strncmp(name, HMS_EXPLICIT_INST_MARKER, strlen(HMS_EXPLICIT_INST_MARKER));
        free(name);
        return ours ? CXChildVisit_Recurse : CXChildVisit_Continue;
    }
    return clang_getCursorKind(c) == CXCursor_UnexposedExpr ||
                   clang_getCursorKind(c) == CXCursor_CStyleCastExpr ||
                   clang_getCursorKind(c) == CXCursor_UnaryOperator
               ? CXChildVisit_Recurse
               : CXChildVisit_Continue;
}

size_t hms_template_instances(CXTranslationUnit tu, CXCursor tmpl, const hms_call_contexts *cx,
                              char ***out)
{
    instance_scan s = {NULL, NULL, 0};
    for (size_t i = 0; i < cx->n; i++)
        if (cx->v[i].targs)
            add_instance(&s, cx->v[i].targs);
    char *usr = function_usr(tmpl);
    s.usr = usr;
    if (usr && *usr)
        clang_visitChildren(clang_getTranslationUnitCursor(tu), explicit_visit, &s);
    free(usr);
    *out = s.v;
    return s.n;
}
