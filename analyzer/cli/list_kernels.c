/* --list-kernels: what hms-lint found in each file, one line per item in
 * source order:
 *   <file>:<line>:<col>: kernel <name> line=<l> [template=<...>] [instantiations=<...>]
 *                        params=<type name, ...> (a parameter of unknown type prints
 *                        as written, followed by " (unknown type)")
 *   <file>:<line>:<col>: shared|constant|texture|surface <name> <type> [extern]
 *                        [in=<function>] line=<l> [dims=<n>] [bytes=<n>]
 *   <file>:<line>:<col>: launch <kernel> line=<l> grid=(x,y,z) block=(x,y,z) shared=<n>
 *                        [stream=<s>] args=<a, b=value, ...> [through=<pointer variable>]
 *                        [via=<call path the values came from>] [also=<other configurations>]
 * A grid/block/shared value that does not fold prints as ?(<source text>). */
#include <stdlib.h>
#include <string.h>

#include "analyzer/cli/arch_select.h"
#include "analyzer/cli/commands.h"
#include "analyzer/cli/frontend_inputs.h"
#include "analyzer/frontend/cursor_util.h"
#include "analyzer/frontend/kernel_discovery.h"
#include "analyzer/frontend/launch_sites.h"
#include "analyzer/frontend/parse.h"

typedef struct {
    unsigned file_rank, offset, seq;
    char *line;
} entry;

typedef struct {
    CXTranslationUnit tu;
    entry *v;
    size_t n, cap;
    CXFile files[64];
    unsigned nfiles;
    const hms_launch_sites *launches;
    int kernels, variables;
} listing;

/* ---- small string builder --------------------------------------------------- */

typedef struct {
    char *s;
    size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *t)
{
    size_t len = strlen(t);
    if (b->n + len + 1 > b->cap) {
        size_t cap = (b->n + len + 1) * 2;
        char *ns = realloc(b->s, cap);
        if (!ns)
            return;
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, t, len + 1);
    b->n += len;
}

static void sb_take(sbuf *b, char *t)
{
    sb_add(b, t ? t : "");
    free(t);
}

static void sb_num(sbuf *b, long long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    sb_add(b, buf);
}

/* ---- entries ---------------------------------------------------------------- */

static unsigned file_rank(listing *l, CXFile f)
{
    for (unsigned i = 0; i < l->nfiles; i++)
        if (clang_File_isEqual(l->files[i], f))
            return i;
    if (l->nfiles < sizeof l->files / sizeof *l->files)
        l->files[l->nfiles++] = f;
    return l->nfiles - 1;
}

/* Starts an entry line "<file>:<line>:<col>: " for cursor c. */
static void begin_entry(listing *l, sbuf *b, CXCursor c, unsigned *rank, unsigned *offset,
                        unsigned *line)
{
    CXFile f = NULL;
    unsigned col = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, line, &col, offset);
    *rank = file_rank(l, f);
    CXString name = clang_getFileName(f);
    char head[64];
    sb_add(b, clang_getCString(name) ? clang_getCString(name) : "?");
    snprintf(head, sizeof head, ":%u:%u: ", *line, col);
    sb_add(b, head);
    clang_disposeString(name);
}

static void add_entry(listing *l, unsigned rank, unsigned offset, char *line)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        entry *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv) {
            free(line);
            return;
        }
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n] = (entry){rank, offset, (unsigned)l->n, line};
    l->n++;
}

static int entry_cmp(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->file_rank != y->file_rank)
        return x->file_rank < y->file_rank ? -1 : 1;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- kernels ---------------------------------------------------------------- */

/* "float *out" from a parameter or variable: type spelling, then the name. */
static void add_typed_name(sbuf *b, CXCursor c)
{
    char *t = hms_type_spelling(clang_getCursorType(c));
    char *n = hms_cursor_spelling(c);
    size_t tl = strlen(t);
    sb_add(b, t);
    if (*n) {
        if (tl && t[tl - 1] != '*' && t[tl - 1] != '&')
            sb_add(b, " ");
        sb_add(b, n);
    }
    free(t);
    free(n);
}

typedef struct {
    sbuf *b;
    CXTranslationUnit tu;
    int count;
    enum CXCursorKind want; /* ParmDecl, or 0 for template parameters */
} param_list;

static enum CXChildVisitResult params_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    param_list *p = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (p->want == CXCursor_ParmDecl) {
        if (k != CXCursor_ParmDecl)
            return CXChildVisit_Continue;
        if (p->count++)
            sb_add(p->b, ", ");
        if (clang_isInvalidDeclaration(c)) {
            /* Its type is unknown (clang says int): print it as written. */
            sb_take(p->b, hms_cursor_text(p->tu, c));
            sb_add(p->b, " (unknown type)");
        } else {
            add_typed_name(p->b, c);
        }
    } else if (k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter ||
               k == CXCursor_TemplateTemplateParameter) {
        if (p->count++)
            sb_add(p->b, ", ");
        if (k == CXCursor_TemplateTypeParameter) {
            sb_add(p->b, "typename ");
            sb_take(p->b, hms_cursor_spelling(c));
        } else if (k == CXCursor_TemplateTemplateParameter) {
            sb_add(p->b, "template ");
            sb_take(p->b, hms_cursor_spelling(c));
        } else {
            add_typed_name(p->b, c);
        }
    }
    return CXChildVisit_Continue;
}

static void add_kernel(listing *l, CXCursor c)
{
    sbuf b = {NULL, 0, 0};
    unsigned rank, offset, line;
    begin_entry(l, &b, c, &rank, &offset, &line);
    sb_add(&b, "kernel ");
    sb_take(&b, hms_cursor_spelling(c));
    sb_add(&b, " line=");
    sb_num(&b, line);
    if (clang_getCursorKind(c) == CXCursor_FunctionTemplate) {
        param_list tp = {&b, l->tu, 0, (enum CXCursorKind)0};
        sb_add(&b, " template=<");
        clang_visitChildren(c, params_visit, &tp);
        sb_add(&b, ">");
        /* Instantiations named by launches, each once, in launch order. */
        char *usr = hms_cursor_usr(c);
        int shown = 0;
        for (size_t i = 0; i < l->launches->n; i++) {
            const hms_launch_site *ls = &l->launches->v[i];
            if (!ls->kernel_usr || strcmp(ls->kernel_usr, usr) != 0)
                continue;
            bool dup = false;
            for (size_t j = 0; j < i; j++)
                if (l->launches->v[j].kernel_usr && !strcmp(l->launches->v[j].kernel_usr, usr) &&
                    !strcmp(l->launches->v[j].kernel, ls->kernel))
                    dup = true;
            if (dup)
                continue;
            sb_add(&b, shown++ ? "; " : " instantiations=");
            sb_add(&b, ls->kernel);
        }
        if (!shown)
            sb_add(&b, " instantiations=(none launched)");
        free(usr);
    }
    sb_add(&b, " params=");
    param_list pl = {&b, l->tu, 0, CXCursor_ParmDecl};
    clang_visitChildren(c, params_visit, &pl);
    if (!pl.count)
        sb_add(&b, "(none)");
    add_entry(l, rank, offset, b.s);
    l->kernels++;
}

/* ---- variables -------------------------------------------------------------- */

typedef enum {
    VAR_NONE,
    VAR_SHARED,
    VAR_CONSTANT,
    VAR_TEXTURE,
    VAR_SURFACE,
    VAR_TEXOBJ,
    VAR_SURFOBJ
} var_kind;

static bool spelled_as(CXType t, const char *prefix)
{
    char *s = hms_type_spelling(clang_getCanonicalType(t));
    bool r = !strncmp(s, prefix, strlen(prefix));
    free(s);
    return r;
}

static bool is_typedef_named(CXType t, const char *name)
{
    for (int guard = 0; guard < 8 && t.kind != CXType_Invalid; guard++) {
        char *s = hms_type_spelling(t);
        const char *p = s;
        if (!strncmp(p, "const ", 6))
            p += 6;
        bool r = !strcmp(p, name);
        free(s);
        if (r)
            return true;
        if (t.kind != CXType_Typedef && t.kind != CXType_Elaborated)
            break;
        t = t.kind == CXType_Elaborated
                ? clang_Type_getNamedType(t)
                : clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
    }
    return false;
}

static var_kind classify_var(CXCursor c)
{
    if (hms_cursor_has_attr(c, CXCursor_CUDASharedAttr))
        return VAR_SHARED;
    if (hms_cursor_has_attr(c, CXCursor_CUDAConstantAttr))
        return VAR_CONSTANT;
    CXType t = clang_getCursorType(c);
    if (spelled_as(t, "texture<"))
        return VAR_TEXTURE;
    if (spelled_as(t, "surface<"))
        return VAR_SURFACE;
    if (is_typedef_named(t, "cudaTextureObject_t"))
        return VAR_TEXOBJ;
    if (is_typedef_named(t, "cudaSurfaceObject_t"))
        return VAR_SURFOBJ;
    return VAR_NONE;
}

/* texture<T, dim, mode> / surface<T, dim> spelled out in full: clang's type
 * printer leaves out arguments equal to their defaults (dim 1,
 * cudaReadModeElementType), so they are put back here. *dims gets dim. */
static char *full_template_spelling(CXType t, bool texture, long *dims)
{
    char *s = hms_type_spelling(clang_getCanonicalType(t));
    const char *open = strchr(s, '<'), *close = strrchr(s, '>');
    char *args[3] = {NULL, NULL, NULL};
    int nargs = 0;
    if (open && close && close > open) {
        const char *p = open + 1, *start = p;
        int depth = 0;
        for (; p <= close && nargs < 3; p++) {
            if (*p == '<' || *p == '(')
                depth++;
            else if ((*p == '>' || *p == ')') && depth > 0)
                depth--;
            else if ((*p == ',' && depth == 0) || p == close) {
                while (*start == ' ')
                    start++;
                args[nargs++] = strndup(start, (size_t)(p - start));
                start = p + 1;
            }
        }
    }
    *dims = nargs > 1 ? strtol(args[1], NULL, 0) : 1;
    char *r = NULL;
    int n = texture ? asprintf(&r, "texture<%s, %ld, %s>", nargs ? args[0] : "?", *dims,
                               nargs > 2 ? args[2] : "cudaReadModeElementType")
                    : asprintf(&r, "surface<%s, %ld>", nargs ? args[0] : "?", *dims);
    if (n < 0)
        r = NULL;
    for (int i = 0; i < nargs; i++)
        free(args[i]);
    free(s);
    return r;
}

static void add_variable(listing *l, CXCursor c, var_kind kind, const char *in)
{
    static const char *const names[] = {"",        "shared",  "constant", "texture",
                                        "surface", "texture", "surface"};
    sbuf b = {NULL, 0, 0};
    unsigned rank, offset, line;
    begin_entry(l, &b, c, &rank, &offset, &line);
    sb_add(&b, names[kind]);
    sb_add(&b, " ");
    sb_take(&b, hms_cursor_spelling(c));
    sb_add(&b, " ");
    CXType t = clang_getCursorType(c);
    long dims = 0;
    if (kind == VAR_TEXTURE || kind == VAR_SURFACE)
        sb_take(&b, full_template_spelling(t, kind == VAR_TEXTURE, &dims));
    else
        sb_take(&b, hms_type_spelling(t));
    if (kind == VAR_TEXOBJ || kind == VAR_SURFOBJ)
        sb_add(&b, " object");
    if (clang_Cursor_getStorageClass(c) == CX_SC_Extern)
        sb_add(&b, " extern");
    if (in) {
        sb_add(&b, " in=");
        sb_add(&b, in);
    }
    sb_add(&b, " line=");
    sb_num(&b, line);
    if (kind == VAR_TEXTURE || kind == VAR_SURFACE) {
        sb_add(&b, " dims=");
        sb_num(&b, dims);
    }
    long long bytes = clang_Type_getSizeOf(t);
    if ((kind == VAR_SHARED || kind == VAR_CONSTANT) && bytes > 0) {
        sb_add(&b, " bytes=");
        sb_num(&b, bytes);
    }
    add_entry(l, rank, offset, b.s);
    l->variables++;
}

typedef struct {
    listing *l;
    char *fn; /* name of the function being walked */
} body_walk;

static enum CXChildVisitResult body_vars(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    body_walk *w = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl) {
        var_kind vk = classify_var(c);
        if (vk != VAR_NONE)
            add_variable(w->l, c, vk, w->fn);
    }
    return CXChildVisit_Recurse;
}

static void walk_function(listing *l, CXCursor c)
{
    body_walk w = {l, hms_cursor_spelling(c)};
    clang_visitChildren(c, body_vars, &w);
    free(w.fn);
}

/* What kernel discovery found, as listing entries. */
static void found_decl(CXCursor c, hms_found_kind kind, void *ctx)
{
    listing *l = ctx;
    switch (kind) {
    case HMS_FOUND_KERNEL_INSTANCE: /* an explicit specialization, when written out */
        if (!clang_isCursorDefinition(c))
            break;
        /* fall through */
    case HMS_FOUND_KERNEL:
    case HMS_FOUND_KERNEL_TEMPLATE:
        add_kernel(l, c);
        walk_function(l, c);
        break;
    case HMS_FOUND_DEVICE_FUNCTION:
        walk_function(l, c); /* __shared__ declared in a __device__ function */
        break;
    case HMS_FOUND_VARIABLE: {
        var_kind vk = classify_var(c);
        if (vk != VAR_NONE)
            add_variable(l, c, vk, NULL);
        break;
    }
    }
}

/* ---- launches --------------------------------------------------------------- */

static void add_dim3(sbuf *b, const hms_folded_arg d[3], const char *text)
{
    if (d[0].folded && d[1].folded && d[2].folded) {
        char buf[96];
        snprintf(buf, sizeof buf, "(%lld,%lld,%lld)", (long long)d[0].value, (long long)d[1].value,
                 (long long)d[2].value);
        sb_add(b, buf);
    } else {
        sb_add(b, "?(");
        sb_add(b, text ? text : "");
        sb_add(b, ")");
    }
}

static bool is_number_text(const char *t, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    return !strcmp(t, buf);
}

static void add_launch(listing *l, const hms_launch_site *ls, CXFile main_file)
{
    sbuf b = {NULL, 0, 0};
    char head[64];
    sb_add(&b, ls->file);
    snprintf(head, sizeof head, ":%u:%u: launch ", ls->line, ls->col);
    sb_add(&b, head);
    sb_add(&b, ls->kernel);
    sb_add(&b, " line=");
    sb_num(&b, ls->line);
    sb_add(&b, " grid=");
    add_dim3(&b, ls->grid, ls->grid_text);
    sb_add(&b, " block=");
    add_dim3(&b, ls->block, ls->block_text);
    sb_add(&b, " shared=");
    if (ls->shared.folded) {
        sb_num(&b, ls->shared.value);
    } else {
        sb_add(&b, "?(");
        sb_add(&b, ls->shared.text);
        sb_add(&b, ")");
    }
    if (ls->stream_text) {
        sb_add(&b, " stream=");
        sb_add(&b, ls->stream_text);
    }
    sb_add(&b, " args=");
    for (size_t i = 0; i < ls->nargs; i++) {
        const hms_folded_arg *a = &ls->args[i];
        if (i)
            sb_add(&b, ", ");
        sb_add(&b, a->text);
        if (a->folded && !is_number_text(a->text, a->value)) {
            sb_add(&b, "=");
            sb_num(&b, a->value);
        }
    }
    if (!ls->nargs)
        sb_add(&b, "(none)");
    if (ls->pointer) {
        sb_add(&b, " through=");
        sb_add(&b, ls->pointer);
    }
    if (ls->via) {
        sb_add(&b, " via=");
        sb_add(&b, ls->via);
    }
    if (ls->others) {
        sb_add(&b, " also=");
        sb_add(&b, ls->others);
    }
    /* Launches are in the main file; order them among its other entries. */
    CXSourceLocation loc = clang_getLocation(l->tu, main_file, ls->line, ls->col);
    unsigned offset = 0;
    clang_getExpansionLocation(loc, NULL, NULL, NULL, &offset);
    add_entry(l, file_rank(l, main_file), offset, b.s);
}

/* ---- command ---------------------------------------------------------------- */

static void list_file(const hms_tu *t)
{
    listing l;
    memset(&l, 0, sizeof l);
    l.tu = t->tu;
    hms_launch_sites launches;
    hms_find_launch_sites(t->tu, &launches);
    l.launches = &launches;
    CXFile main_file = clang_getFile(t->tu, t->path);
    file_rank(&l, main_file); /* the main file's entries come first */
    hms_discover_decls(t, found_decl, &l);
    for (size_t i = 0; i < launches.n; i++)
        add_launch(&l, &launches.v[i], main_file);
    if (l.n > 1)
        qsort(l.v, l.n, sizeof *l.v, entry_cmp);

    printf("%s: %d kernel%s, %d variable%s, %zu launch site%s\n", t->path, l.kernels,
           l.kernels == 1 ? "" : "s", l.variables, l.variables == 1 ? "" : "s", launches.n,
           launches.n == 1 ? "" : "s");
    for (size_t i = 0; i < l.n; i++) {
        printf("%s\n", l.v[i].line);
        free(l.v[i].line);
    }
    free(l.v);
    hms_launch_sites_free(&launches);
}

int hms_cmd_list_kernels(const hms_options *o)
{
    int rc = 0;
    hms_frontend_options fo = hms_frontend_inputs(o, hms_arch_or_default(o));
    hms_diag_sink said; /* printed as it comes, between the files' listings */
    hms_diag_sink_init(&said, stderr);
    for (size_t i = 0; i < o->files.n; i++) {
        hms_tu t;
        if (!hms_parse_file(&fo, o->files.v[i], &t, &said)) {
            rc = 2;
            continue;
        }
        list_file(&t);
        if (hms_tu_failed(&t))
            rc = 2;
        hms_tu_dispose(&t);
        fflush(stdout);
    }
    hms_diag_sink_free(&said);
    return rc;
}
