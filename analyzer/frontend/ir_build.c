/* Kernel discovery and the per-kernel driver: which kernels and template
 * instantiations a file holds, their parameters, their launch configuration
 * and scalar values (cli > annotation > host call > default). */
#include "analyzer/frontend/ir_build.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/ir_build_impl.h"
#include "analyzer/frontend/kernel_discovery.h"
#include "analyzer/frontend/launch_sites.h"
#include "runtime/out_of_memory.h"

/* Nodes a kernel may cost before its analysis stops (inlining included). */
#define KERNEL_BUDGET 400000u
#define PRESCAN_BUDGET 4000000ul

typedef struct {
    CXCursor fn;      /* definition to build (instantiation for templates) */
    CXCursor pattern; /* the kernel as written (template pattern or fn) */
    char *name;
    char *usr;                     /* of fn */
    char *pattern_usr;             /* of pattern: what a launch site names */
    unsigned start_line, end_line; /* of the written kernel */
    CXFile file;                   /* where it is written: annotations there apply */
    unsigned order;
} kernel_ref;

typedef struct {
    kernel_ref *v;
    size_t n, cap;
    CXCursor *templates; /* kernel templates, for annotations and the unused ones */
    size_t ntemplates;
} kernel_refs;

static char *xstrdup(const char *s)
{
    char *p = strdup(s ? s : "");
    if (!p)
        hms_out_of_memory();
    return p;
}

static char *usr_of(CXCursor c)
{
    CXString s = clang_getCursorUSR(c);
    char *r = xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return r;
}

static void extent_lines(CXCursor c, unsigned *start, unsigned *end)
{
    CXSourceRange r = clang_getCursorExtent(c);
    clang_getExpansionLocation(clang_getRangeStart(r), NULL, start, NULL, NULL);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, end, NULL, NULL);
}

/* The file a cursor is written in (a kernel in a header: the header). */
static CXFile file_of(CXCursor c)
{
    CXFile f = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
    return f;
}

/* Do a and b name the same file (NULL: unknown, taken as the main file)? */
static bool same_file(CXFile a, CXFile b)
{
    return a == b || (a && b && clang_File_isEqual(a, b));
}

static char *spelling_of(CXCursor c)
{
    char n[128];
    irb_spelling(c, n, sizeof n);
    return xstrdup(n);
}

/* "reduce<256, float>" from an instantiation's template arguments. */
static char *instance_name(CXCursor inst)
{
    char base[128];
    irb_spelling(inst, base, sizeof base);
    int n = clang_Cursor_getNumTemplateArguments(inst);
    if (n <= 0)
        return xstrdup(base);
    char buf[512];
    size_t pos = (size_t)snprintf(buf, sizeof buf, "%s<", base);
    for (int i = 0; i < n && pos < sizeof buf; i++) {
        char a[128];
        switch (clang_Cursor_getTemplateArgumentKind(inst, (unsigned)i)) {
        case CXTemplateArgumentKind_Integral: {
            long long v = clang_Cursor_getTemplateArgumentValue(inst, (unsigned)i);
            unsigned long long u = clang_Cursor_getTemplateArgumentUnsignedValue(inst, (unsigned)i);
            if (v == -1 && u == 1) /* bool true reads back as a 1-bit -1 */
                snprintf(a, sizeof a, "true");
            else
                snprintf(a, sizeof a, "%lld", v);
            break;
        }
        case CXTemplateArgumentKind_Type:
            irb_type_spelling(clang_Cursor_getTemplateArgumentType(inst, (unsigned)i), a, sizeof a);
            break;
        default:
            snprintf(a, sizeof a, "?");
            break;
        }
        pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%s%s", i ? ", " : "", a);
    }
    if (pos < sizeof buf)
        snprintf(buf + pos, sizeof buf - pos, ">");
    return xstrdup(buf);
}

static void add_ref(kernel_refs *r, CXCursor fn, CXCursor pattern, char *name)
{
    char *usr = usr_of(fn);
    for (size_t i = 0; i < r->n; i++) {
        if (!strcmp(r->v[i].usr, usr)) {
            free(usr);
            free(name);
            return;
        }
    }
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        kernel_ref *v = realloc(r->v, r->cap * sizeof *v);
        if (!v)
            hms_out_of_memory();
        r->v = v;
    }
    kernel_ref *k = &r->v[r->n];
    k->fn = fn;
    k->pattern = pattern;
    k->name = name;
    k->usr = usr;
    k->pattern_usr = usr_of(pattern);
    k->order = (unsigned)r->n;
    extent_lines(pattern, &k->start_line, &k->end_line);
    k->file = file_of(pattern);
    r->n++;
}

static int cmp_refs(const void *x, const void *y)
{
    const kernel_ref *a = x, *b = y;
    if (a->start_line != b->start_line)
        return a->start_line < b->start_line ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* ---- parameters ----------------------------------------------------------------- */

typedef struct {
    irb *b;
    CXCursor param;
    const char *pname;
} field_ctx;

static enum CXVisitorResult flatten_field(CXCursor field, CXClientData d)
{
    field_ctx *f = d;
    irb *b = f->b;
    char fname[128], full[260];
    irb_spelling(field, fname, sizeof fname);
    snprintf(full, sizeof full, "%s.%s", f->pname, fname);
    CXType t = clang_getCursorType(field);
    if (irb_is_ptr(t)) {
        int a = ab_add_array(b, field, full, t, HMS_SPACE_GLOBAL);
        b->k->arrays[a].is_param = true;
        size_t i = bind_push(b, field, BIND_PTR, full);
        b->binds[i].parent = f->param;
        b->binds[i].ptr = (bptr){a, ir_const(b->k, 0), b->k->arrays[a].elem_bytes};
    } else if (irb_is_int(t)) {
        ir_var v = {
            .name = ir_strdup(b->k, full), .kind = IR_VAR_PARAM, .loc = irb_loc_name(b, field)};
        size_t i = bind_push(b, field, BIND_VAR, full);
        b->binds[i].parent = f->param;
        b->binds[i].var = ir_add_var(b->k, &v);
    }
    return CXVisit_Continue;
}

static void add_params(irb *b, CXCursor fn)
{
    ir_kernel *k = b->k;
    int n = clang_Cursor_getNumArguments(fn);
    for (int i = 0; i < n; i++) {
        CXCursor p = clang_Cursor_getArgument(fn, (unsigned)i);
        char name[128], ts[128];
        irb_spelling(p, name, sizeof name);
        CXType t = clang_getCursorType(p);
        irb_type_spelling(t, ts, sizeof ts);
        ir_param ip = {
            .name = ir_strdup(k, name), .type = ir_strdup(k, ts), .array = -1, .var = -1};
        if (irb_is_ptr(t) || irb_is_array(t)) {
            ip.is_pointer = true;
            ip.array = ab_add_array(b, p, name, t, HMS_SPACE_GLOBAL);
            k->arrays[ip.array].is_param = true;
            size_t bi = bind_push(b, p, BIND_PTR, name);
            b->binds[bi].ptr = (bptr){ip.array, ir_const(k, 0), k->arrays[ip.array].elem_bytes};
        } else if (strstr(ts, "cudaTextureObject_t") || strstr(ts, "cudaSurfaceObject_t")) {
            /* a surface is addressed in bytes (ir_build_surface.c) */
            bool surface = strstr(ts, "cudaSurfaceObject_t") != NULL;
            ir_array a = {0};
            a.name = ir_strdup(k, name);
            a.space = HMS_SPACE_TEXTURE;
            a.elem_type = ir_strdup(k, surface ? "unsigned char" : "?");
            a.elem_bytes = 1;
            a.tex_dims = 1;
            a.is_param = true;
            a.base_array = -1;
            a.loc = irb_loc_name(b, p);
            ip.array = ir_add_array(k, &a);
            size_t bi = bind_push(b, p, BIND_ARRAY, name);
            b->binds[bi].ptr.array = ip.array;
        } else if (irb_is_int(t)) {
            ir_var v = {
                .name = ir_strdup(k, name), .kind = IR_VAR_PARAM, .loc = irb_loc_name(b, p)};
            ip.var = ir_add_var(k, &v);
            size_t bi = bind_push(b, p, BIND_VAR, name);
            b->binds[bi].var = ip.var;
        } else if (clang_getCanonicalType(t).kind == CXType_Record) {
            field_ctx f = {b, p, name};
            clang_Type_visitFields(clang_getCanonicalType(t), flatten_field, &f);
            bind_push(b, p, BIND_OTHER, name);
        } else {
            bind_push(b, p, BIND_OTHER, name);
        }
        ir_add_param(k, &ip);
    }
}

/* ---- launch and values -------------------------------------------------------- */

typedef struct {
    const hms_tu *tu;
    const hms_frontend_options *o;
    hms_launch_cli cli;
    hms_annotations notes;
    hms_launch_sites sites;
    kernel_refs refs;
    hms_diag_sink *diags;
} build_ctx;

/* Which written kernel an unqualified annotation at `line` belongs to: the one
 * containing it, else the first one starting after it. */
/* The hms-lint: annotations of one file, tagged with it. */
static void scan_annotations_in(build_ctx *c, CXFile f, const char *text, size_t len,
                                const char *path)
{
    hms_annotations found; /* hms_scan_annotations starts a list: move its entries over */
    hms_scan_annotations(text, len, path, 0, &found, c->diags);
    hms_annotation *v =
        found.n ? realloc(c->notes.v, (c->notes.n + found.n) * sizeof *v) : c->notes.v;
    for (size_t i = 0; v && i < found.n; i++) {
        v[c->notes.n] = found.v[i];
        v[c->notes.n++].file = f;
    }
    if (v) {
        c->notes.v = v;
        free(found.v); /* the entries' strings now belong to c->notes */
    } else {
        hms_annotations_free(&found);
    }
}

static bool annotation_applies(const build_ctx *c, const hms_annotation *a, const kernel_ref *r,
                               const char *kname)
{
    if (a->kernel)
        return hms_kernel_name_matches(a->kernel, kname);
    /* A positional annotation belongs to the next kernel of its own file. */
    if (!same_file(a->file, r->file))
        return false;
    if (a->line >= r->start_line && a->line <= r->end_line)
        return true;
    if (a->line >= r->start_line)
        return false;
    for (size_t i = 0; i < c->refs.n; i++) {
        const kernel_ref *o = &c->refs.v[i];
        if (!same_file(o->file, r->file))
            continue;
        if (o->start_line > a->line && o->start_line < r->start_line)
            return false; /* another kernel comes first */
        if (o->start_line <= a->line && a->line <= o->end_line && o->start_line != r->start_line)
            return false; /* inside another kernel */
    }
    for (size_t i = 0; i < c->refs.ntemplates; i++) {
        unsigned s, e;
        if (!same_file(file_of(c->refs.templates[i]), r->file))
            continue;
        extent_lines(c->refs.templates[i], &s, &e);
        if ((s > a->line && s < r->start_line) || (s <= a->line && a->line <= e))
            if (s != r->start_line)
                return false;
    }
    return true;
}

/* A launch names the kernel's template (by USR) and its template arguments. */
static bool site_matches(const hms_launch_site *s, const kernel_ref *r)
{
    if (!s->kernel_usr || strcmp(s->kernel_usr, r->pattern_usr))
        return false;
    int n = clang_Cursor_getNumTemplateArguments(r->fn);
    if (n <= 0)
        return true;
    if (s->ntemplate_args != (size_t)n)
        return false;
    for (int i = 0; i < n; i++) {
        const hms_folded_arg *a = &s->template_args[i];
        switch (clang_Cursor_getTemplateArgumentKind(r->fn, (unsigned)i)) {
        case CXTemplateArgumentKind_Integral:
            if (!a->folded || a->value != clang_Cursor_getTemplateArgumentValue(r->fn, (unsigned)i))
                return false;
            break;
        case CXTemplateArgumentKind_Type: {
            char t[256];
            irb_type_spelling(clang_Cursor_getTemplateArgumentType(r->fn, (unsigned)i), t,
                              sizeof t);
            if (!a->text || strcmp(a->text, t))
                return false;
            break;
        }
        default:
            break;
        }
    }
    return true;
}

static const hms_launch_site *host_site(const build_ctx *c, const kernel_ref *r)
{
    const hms_launch_site *first = NULL;
    for (size_t i = 0; i < c->sites.n; i++) {
        const hms_launch_site *s = &c->sites.v[i];
        if (!site_matches(s, r))
            continue;
        bool all = true;
        for (int d = 0; d < 3; d++)
            all &= s->grid[d].folded && s->block[d].folded;
        if (all)
            return s;
        if (!first)
            first = s;
    }
    return first;
}

static ir_loc site_loc(ir_kernel *k, const hms_launch_site *s)
{
    ir_loc l = {0};
    l.file = ir_strdup(k, s->file);
    l.line = s->line;
    l.col = s->col;
    return l;
}

static bool dims_ok(const hms_folded_arg *g, const hms_folded_arg *bl, uint32_t grid[3],
                    uint32_t block[3], bool *partial)
{
    bool gok = true, bok = true;
    for (int d = 0; d < 3; d++) {
        gok &= g[d].folded && g[d].value > 0 && g[d].value <= (int64_t)HMS_MAX_GRID_X;
        bok &= bl[d].folded && bl[d].value > 0 && bl[d].value <= (int64_t)HMS_MAX_BLOCK_THREADS;
    }
    if (gok)
        for (int d = 0; d < 3; d++)
            grid[d] = (uint32_t)g[d].value;
    if (bok)
        for (int d = 0; d < 3; d++)
            block[d] = (uint32_t)bl[d].value;
    *partial = gok != bok;
    return gok || bok;
}

/* The site's fully known configurations with the parameter values each
 * passes (launch_alts.h analyses each); invalid ones are left out. */
static void launch_alts_from_site(ir_kernel *k, const hms_launch_site *site)
{
    if (site->nalts < 2)
        return;
    ir_launch_alt *v = ir_alloc(k, site->nalts * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; v && i < site->nalts; i++) {
        const hms_launch_alt *a = &site->alts[i];
        ir_launch_alt *o = &v[n];
        bool partial = false;
        if (!dims_ok(a->grid, a->block, o->grid, o->block, &partial) || partial ||
            !hms_launch_valid(o->grid, o->block, 0, NULL, 0))
            continue;
        if (!a->has_shared)
            o->shared_known = true; /* no third argument: none */
        else if (a->shared.folded && a->shared.value >= 0 &&
                 a->shared.value <= HMS_MAX_DYNAMIC_SHARED)
            o->shared_bytes = (uint32_t)a->shared.value, o->shared_known = true;
        o->via = a->via ? ir_strdup(k, a->via) : NULL;
        o->values = k->nvars ? ir_alloc(k, k->nvars * sizeof *o->values) : NULL;
        o->known = k->nvars ? ir_alloc(k, k->nvars * sizeof *o->known) : NULL;
        for (size_t pi = 0; o->values && o->known && pi < k->nparams && pi < a->nargs; pi++) {
            int var = k->params[pi].var;
            if (var >= 0 && a->args[pi].folded)
                o->values[var] = a->args[pi].value, o->known[var] = true;
        }
        n++;
    }
    if (n >= 2) {
        k->launch.alts = v;
        k->launch.nalts = n;
    }
}

static void resolve_launch(build_ctx *c, irb *b, const kernel_ref *r)
{
    ir_kernel *k = b->k;
    ir_launch *l = &k->launch;
    hms_default_launch(b->uses_tid, b->uses_bid, l);
    bool shared_known = false;
    const hms_launch_spec *cli = NULL;
    for (size_t i = 0; i < c->cli.nlaunches; i++) {
        const hms_launch_spec *s = &c->cli.launches[i];
        if (!hms_kernel_name_matches(s->kernel, k->name))
            continue;
        if (!cli || s->kernel || !cli->kernel)
            cli = s; /* a kernel-specific spec beats a global one; later ones win */
    }
    const hms_annotation *note = NULL;
    for (size_t i = 0; i < c->notes.n; i++)
        if (c->notes.v[i].is_launch && annotation_applies(c, &c->notes.v[i], r, k->name))
            note = &c->notes.v[i];
    const hms_launch_site *site = host_site(c, r);
    if (cli) {
        memcpy(l->grid, cli->grid, sizeof l->grid);
        memcpy(l->block, cli->block, sizeof l->block);
        l->source = IR_LAUNCH_CLI;
        if (cli->has_shared)
            l->shared_bytes = cli->shared, shared_known = true;
    } else if (note) {
        memcpy(l->grid, note->launch.grid, sizeof l->grid);
        memcpy(l->block, note->launch.block, sizeof l->block);
        l->source = IR_LAUNCH_ANNOTATION;
        l->loc.file = k->loc.file;
        l->loc.line = note->line;
        if (note->launch.has_shared)
            l->shared_bytes = note->launch.shared, shared_known = true;
    } else if (site) {
        bool partial = false;
        if (dims_ok(site->grid, site->block, l->grid, l->block, &partial)) {
            l->source = IR_LAUNCH_HOST_CALL;
            l->loc = site_loc(k, site);
            l->via = site->via ? ir_strdup(k, site->via) : NULL;
            l->others = site->others ? ir_strdup(k, site->others) : NULL;
            l->partial = partial;
            launch_alts_from_site(k, site);
            char why[512];
            if (partial) {
                snprintf(why, sizeof why,
                         "only part of the launch configuration <<<%s, %s>>> is known: the "
                         "rest is the default",
                         site->grid_text ? site->grid_text : "?",
                         site->block_text ? site->block_text : "?");
                irb_limit(b, why, "add // hms-lint: launch grid(...) block(...)", l->loc);
            }
            char err[160];
            if (!hms_launch_valid(l->grid, l->block, 0, err, sizeof err)) {
                snprintf(why, sizeof why, "host launch ignored: %s", err);
                irb_limit(b, why, NULL, l->loc);
                hms_default_launch(b->uses_tid, b->uses_bid, l);
            }
        }
        if (l->source == IR_LAUNCH_HOST_CALL && site->has_shared && site->shared.folded &&
            site->shared.value >= 0 && site->shared.value <= HMS_MAX_DYNAMIC_SHARED)
            l->shared_bytes = (uint32_t)site->shared.value, shared_known = true;
        else if (l->source == IR_LAUNCH_HOST_CALL && !site->has_shared)
            shared_known = true; /* no third argument: no dynamic shared memory */
    }
    if (l->source == IR_LAUNCH_DEFAULT) {
        char why[256];
        snprintf(why, sizeof why,
                 "no launch configuration found: using the default grid(%u,%u,%u) "
                 "block(%u,%u,%u)",
                 l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
        irb_limit(b, why, "add // hms-lint: launch grid(...) block(...) or --launch", k->loc);
    }
    if (b->extern_shared >= 0 && !shared_known) {
        /* The common idiom: one element per thread. */
        const ir_array *a = &k->arrays[b->extern_shared];
        uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
        l->shared_bytes = (uint32_t)(threads * (uint64_t)a->elem_bytes);
        char why[256];
        snprintf(why, sizeof why,
                 "size of extern __shared__ '%s' not known: assuming one %s per thread "
                 "(%u bytes)",
                 a->name, a->elem_type, l->shared_bytes);
        irb_limit(b, why, "give shared(N) in the launch annotation or --launch", a->loc);
    }
    if (b->extern_shared >= 0 && k->arrays[b->extern_shared].elem_bytes > 0)
        for (size_t i = 0; i < k->narrays; i++)
            if (k->arrays[i].is_extern_shared && k->arrays[i].ndims >= 1) {
                int64_t room = (int64_t)l->shared_bytes - k->arrays[i].base_offset;
                k->arrays[i].dims[0] = room > 0 ? room / k->arrays[i].elem_bytes : 0;
            }
}

static void resolve_values(build_ctx *c, ir_kernel *k, const kernel_ref *r)
{
    const hms_launch_site *site = host_site(c, r);
    bool *unset = k->nvars ? calloc(k->nvars, sizeof *unset) : NULL;
    for (size_t vi = 0; vi < k->nvars; vi++) {
        ir_var *v = &k->vars[vi];
        if (v->kind != IR_VAR_PARAM)
            continue;
        bool set = false;
        for (size_t i = c->cli.nparams; i-- > 0 && !set;) {
            const hms_param_spec *p = &c->cli.params[i];
            if (!p->is_real && hms_param_matches(p, k->name, v->name))
                v->value = p->value, v->value_source = "cli", set = true;
            else if (p->is_real && !p->from_define && hms_param_matches(p, k->name, v->name))
                /* a float value for an integer parameter (n=1e30, n=2.5):
                 * not applied, and never without a word */
                hms_diagf(c->diags, (hms_diag_head){HMS_DIAG_ERROR, c->tu->path, 0, 0, NULL, NULL},
                          "--param %s%s%s=%g: '%s' of kernel '%s' is an integer parameter and "
                          "the value is not an integer within +-9e15",
                          p->kernel ? p->kernel : "", p->kernel ? "." : "", p->name, p->real,
                          v->name, k->name);
        }
        for (size_t i = c->notes.n; i-- > 0 && !set;) {
            const hms_annotation *a = &c->notes.v[i];
            if (!a->is_launch && !strcmp(a->name, v->name) && annotation_applies(c, a, r, k->name))
                v->value = a->value, v->value_source = "annotation", set = true;
        }
        if (!set && site) {
            for (size_t pi = 0; pi < k->nparams && pi < site->nargs; pi++) {
                if (k->params[pi].var == (int)vi && site->args[pi].folded) {
                    v->value = site->args[pi].value, v->value_source = "host-call", set = true;
                }
            }
        }
        if (!set && unset)
            unset[vi] = true;
        v->has_value = set;
    }
    if (unset)
        irb_role_defaults(k, unset);
    else /* out of memory: the launch-wide size, still an estimate */
        for (size_t vi = 0; vi < k->nvars; vi++)
            if (k->vars[vi].kind == IR_VAR_PARAM && !k->vars[vi].has_value)
                k->vars[vi].value = (int64_t)k->launch.grid[0] * k->launch.block[0],
                k->vars[vi].value_source = "default", k->vars[vi].has_value = true;
    free(unset);
}

static void errors_inside(build_ctx *c, irb *b, const kernel_ref *r)
{
    CXTranslationUnit tu = c->tu->tu;
    unsigned nd = clang_getNumDiagnostics(tu);
    CXFile kfile = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(r->pattern), &kfile, NULL, NULL, NULL);
    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXFile f = NULL;
            unsigned line = 0, col = 0;
            clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, NULL);
            CXString s = clang_getDiagnosticSpelling(d);
            const char *msg = clang_getCString(s);
            if (f && kfile && clang_File_isEqual(f, kfile) && line >= r->start_line &&
                line <= r->end_line && msg && !strstr(msg, "file not found")) {
                char why[512], hint[200];
                const char *hp = NULL;
                static const char pre[] = "use of undeclared identifier '";
                const char *u = strstr(msg, pre);
                if (u) { /* most often a macro from a header that is missing */
                    u += sizeof pre - 1;
                    int n = (int)strcspn(u, "'");
                    snprintf(why, sizeof why,
                             "undeclared identifier '%.*s' (from a missing header?): what "
                             "depends on it is not modelled",
                             n, u);
                    snprintf(hint, sizeof hint, "define it: -D %.*s=<value>", n, u);
                    hp = hint;
                } else {
                    snprintf(why, sizeof why,
                             "clang could not compile this part of the kernel (%s): what it "
                             "means is not modelled",
                             msg);
                }
                ir_loc l = {b->k->loc.file, line, col, 0, 0};
                irb_limit(b, why, hp, l);
            }
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
}

static ir_kernel *build_one(build_ctx *c, const kernel_ref *r)
{
    ir_kernel *k = ir_kernel_new(r->name);
    if (!k)
        return NULL;
    irb b;
    memset(&b, 0, sizeof b);
    b.k = k;
    b.tu = c->tu->tu;
    b.main_path = ir_strdup(k, c->tu->path);
    b.main_file = clang_getFile(b.tu, c->tu->path);
    b.cli = &c->cli;
    b.cur = k->body;
    b.unknown_array = -1;
    b.extern_shared = -1;
    b.budget = KERNEL_BUDGET;
    b.prescan_budget = PRESCAN_BUDGET;
    b.frames[0].fn = r->fn;
    b.frames[0].ret_var = b.frames[0].done_var = -1;
    b.nframes = 1;
    k->loc = irb_loc_name(&b, r->fn);
    unsigned s, e;
    extent_lines(r->fn, &s, &e);
    k->loc.end_line = e;
    add_params(&b, r->fn);
    CXCursor body = hms_cursor_body(r->fn);
    if (!clang_Cursor_isNull(body))
        sb_stmt(&b, body);
    else
        irb_limit(&b, "kernel body not available", NULL, k->loc);
    if (c->tu->includer) {
        char why[600];
        snprintf(why, sizeof why,
                 c->tu->includer_launches
                     ? "analysed as #included by %s: alone, the file has no launch of its "
                       "kernels; the launches and the values they pass come from there"
                     : "analysed as #included by %s: the types and macros this file uses "
                       "without declaring them come from there",
                 c->tu->includer);
        irb_limit(&b, why, NULL, k->loc);
    }
    irb_promote_registers(k);
    irb_launch_bounds(b.tu, r->fn, k);
    k->static_shared_bytes = (int)ab_static_shared_bytes(&b);
    resolve_launch(c, &b, r);
    resolve_values(c, k, r);
    errors_inside(c, &b, r);
    free(b.binds);
    free(b.globals);
    return k;
}

size_t hms_build_kernels(const hms_tu *tu, const hms_frontend_options *o, ir_kernel ***out,
                         hms_diag_sink *diags)
{
    *out = NULL;
    if (!tu || !tu->tu)
        return 0;
    build_ctx c;
    memset(&c, 0, sizeof c);
    c.tu = tu;
    c.o = o;
    c.diags = diags;
    if (hms_launch_cli_parse(o, &c.cli, NULL) != 0) /* reported by the command */
        memset(&c.cli, 0, sizeof c.cli);

    hms_kernel_set found;
    hms_discover_kernels(tu, &found);
    for (size_t i = 0; i < found.n; i++)
        add_ref(&c.refs, found.v[i].fn, found.v[i].pattern,
                clang_equalCursors(found.v[i].named, found.v[i].pattern)
                    ? spelling_of(found.v[i].fn)
                    : instance_name(found.v[i].named));
    c.refs.templates = found.templates; /* now c.refs' */
    c.refs.ntemplates = found.ntemplates;
    found.templates = NULL;
    hms_kernel_set_free(&found);
    for (size_t i = 0; i < c.refs.ntemplates; i++) {
        bool used = false;
        for (size_t j = 0; j < c.refs.n; j++)
            used |= clang_equalCursors(c.refs.v[j].pattern, c.refs.templates[i]);
        if (!used) {
            char n[128];
            unsigned line = 0;
            irb_spelling(c.refs.templates[i], n, sizeof n);
            clang_getExpansionLocation(clang_getCursorLocation(c.refs.templates[i]), NULL, &line,
                                       NULL, NULL);
            hms_diagf(diags, (hms_diag_head){HMS_DIAG_WARNING, tu->path, line, 0, NULL, NULL},
                      "template kernel '%s' is never instantiated in this file: nothing to "
                      "analyse (add an explicit instantiation or a launch)",
                      n);
        }
    }
    if (c.refs.n)
        qsort(c.refs.v, c.refs.n, sizeof *c.refs.v, cmp_refs);
    CXFile mf = clang_getFile(tu->tu, tu->path);
    size_t len = 0;
    const char *text = mf ? clang_getFileContents(tu->tu, mf, &len) : NULL;
    if (text)
        scan_annotations_in(&c, mf, text, len, tu->path);
    /* Annotations in the headers that define kernels apply there too. */
    for (size_t i = 0; i < c.refs.n; i++) {
        CXFile f = c.refs.v[i].file;
        bool done = !f || same_file(f, mf);
        for (size_t j = 0; j < i && !done; j++)
            done = same_file(c.refs.v[j].file, f);
        const char *htext = done ? NULL : clang_getFileContents(tu->tu, f, &len);
        if (htext) {
            CXString name = clang_getFileName(f);
            scan_annotations_in(&c, f, htext, len, clang_getCString(name));
            clang_disposeString(name);
        }
    }
    hms_find_launch_sites(tu->tu, &c.sites);

    ir_kernel **ks = c.refs.n ? calloc(c.refs.n, sizeof *ks) : NULL;
    size_t n = 0;
    for (size_t i = 0; i < c.refs.n; i++) {
        ir_kernel *k = build_one(&c, &c.refs.v[i]);
        if (k)
            ks[n++] = k;
    }
    for (size_t i = 0; i < c.refs.n; i++) {
        free(c.refs.v[i].name);
        free(c.refs.v[i].usr);
        free(c.refs.v[i].pattern_usr);
    }
    free(c.refs.v);
    free(c.refs.templates);
    hms_launch_sites_free(&c.sites);
    hms_annotations_free(&c.notes);
    hms_launch_cli_free(&c.cli);
    *out = ks;
    return n;
}

void hms_free_kernels(ir_kernel **kernels, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ir_kernel_free(kernels[i]);
    free(kernels);
}
