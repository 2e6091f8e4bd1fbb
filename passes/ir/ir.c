/* Construction, ownership and printing of the kernel IR. */
#include "passes/ir/ir.h"
#include "runtime/out_of_memory.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A simple chunked arena: kernels are built once and freed whole. */
struct ir_arena {
    struct ir_arena *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
};

static void *arena_alloc(ir_kernel *k, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    ir_arena *a = k->arena;
    if (!a || a->used + size > a->size) {
        size_t cap = size > 65536 ? size : 65536;
        ir_arena *n = malloc(sizeof *n + cap);
        if (!n)
            hms_out_of_memory();
        n->next = a;
        n->used = 0;
        n->size = cap;
        k->arena = a = n;
    }
    void *p = a->data + a->used;
    a->used += size;
    memset(p, 0, size);
    return p;
}

void *ir_alloc(ir_kernel *k, size_t size)
{
    return arena_alloc(k, size);
}

const char *ir_strdup(ir_kernel *k, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = arena_alloc(k, n);
    memcpy(p, s, n);
    return p;
}

ir_kernel *ir_kernel_new(const char *name)
{
    ir_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->name = ir_strdup(k, name);
    k->body = ir_stmt_new(k, IR_S_BLOCK, (ir_loc){0});
    return k;
}

void ir_kernel_free(ir_kernel *k)
{
    if (!k)
        return;
    for (ir_arena *a = k->arena, *n; a; a = n) {
        n = a->next;
        free(a);
    }
    free(k->params);
    free(k->vars);
    free(k->arrays);
    free(k->sites);
    free(k->mappings);
    free(k->limits);
    free(k);
}

/* Growable arrays owned by the kernel (not the arena: they are realloc'd). */
static void *grow(void *v, size_t *n, size_t elem)
{
    /* Capacity is implicit: the array doubles whenever n reaches 0 or a power of two. */
    if (*n == 0 || (*n & (*n - 1)) == 0) {
        void *nv = realloc(v, (*n ? *n * 2 : 2) * elem);
        if (!nv)
            hms_out_of_memory();
        v = nv;
    }
    return v;
}

#define PUSH(arr, count, item)                                                                     \
    ((arr) = grow((arr), &(count), sizeof *(arr)), (arr)[(count)] = (item), (int)(count)++)

static ir_expr *expr_new(ir_kernel *k, ir_expr_kind kind)
{
    ir_expr *e = arena_alloc(k, sizeof *e);
    e->kind = kind;
    e->array = -1;
    return e;
}

ir_expr *ir_const(ir_kernel *k, int64_t v)
{
    ir_expr *e = expr_new(k, IR_CONST);
    e->value = v;
    return e;
}

ir_expr *ir_symbol(ir_kernel *k, ir_sym s)
{
    ir_expr *e = expr_new(k, IR_SYM);
    e->sym = s;
    return e;
}

ir_expr *ir_var_ref(ir_kernel *k, int var)
{
    ir_expr *e = expr_new(k, IR_VAR);
    e->var = var;
    return e;
}

ir_expr *ir_unary(ir_kernel *k, ir_op op, ir_expr *a)
{
    ir_expr *e = expr_new(k, IR_UNARY);
    e->op = op;
    e->a = a;
    return e;
}

ir_expr *ir_binary(ir_kernel *k, ir_op op, ir_expr *a, ir_expr *b)
{
    ir_expr *e = expr_new(k, IR_BINARY);
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

ir_expr *ir_select(ir_kernel *k, ir_expr *c, ir_expr *a, ir_expr *b)
{
    ir_expr *e = expr_new(k, IR_SELECT);
    e->a = c;
    e->b = a;
    e->c = b;
    return e;
}

ir_expr *ir_unknown(ir_kernel *k, const char *reason, int array, ir_loc loc)
{
    ir_expr *e = expr_new(k, IR_UNKNOWN);
    e->reason = ir_strdup(k, reason);
    e->array = array;
    e->site = -1;
    e->loc = loc;
    return e;
}

ir_stmt *ir_stmt_new(ir_kernel *k, ir_stmt_kind kind, ir_loc loc)
{
    ir_stmt *s = arena_alloc(k, sizeof *s);
    s->kind = kind;
    s->loc = loc;
    s->var = -1;
    s->loop_var = -1;
    s->trip_count = -1;
    s->test_first = true;
    s->access.mapping = -1;
    s->access.array = -1;
    return s;
}

void ir_stmt_append(ir_kernel *k, ir_stmt *block, ir_stmt *item)
{
    ir_stmt_list *l = &block->items;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        ir_stmt **v = arena_alloc(k, cap * sizeof *v);
        if (l->n)
            memcpy(v, l->v, l->n * sizeof *v);
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = item;
}

int ir_add_var(ir_kernel *k, const ir_var *v)
{
    return PUSH(k->vars, k->nvars, *v);
}

int ir_add_array(ir_kernel *k, const ir_array *a)
{
    return PUSH(k->arrays, k->narrays, *a);
}

int ir_add_param(ir_kernel *k, const ir_param *p)
{
    return PUSH(k->params, k->nparams, *p);
}

int ir_add_mapping(ir_kernel *k, const ir_mapping *m)
{
    return PUSH(k->mappings, k->nmappings, *m);
}

void ir_add_limit(ir_kernel *k, const char *reason, const char *hint, ir_loc loc)
{
    ir_limit l = {ir_strdup(k, reason), ir_strdup(k, hint), loc};
    PUSH(k->limits, k->nlimits, l);
}

ir_stmt *ir_access_new(ir_kernel *k, const ir_access *a, ir_loc loc)
{
    ir_stmt *s = ir_stmt_new(k, IR_S_ACCESS, loc);
    s->access = *a;
    s->access.loc = loc;
    s->access.id = (int)k->nsites;
    ir_access *p = &s->access;
    PUSH(k->sites, k->nsites, p);
    return s;
}

/* ---- printing ---------------------------------------------------------------- */

const char *ir_sym_name(ir_sym s)
{
    static const char *const names[IR_SYM_COUNT] = {
        "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y",
        "blockIdx.z",  "blockDim.x",  "blockDim.y",  "blockDim.z", "gridDim.x",
        "gridDim.y",   "gridDim.z",   "warpSize",    "laneid",
    };
    return (unsigned)s < IR_SYM_COUNT ? names[s] : "?";
}

bool ir_op_compares(ir_op op)
{
    return op == IR_OP_LT || op == IR_OP_LE || op == IR_OP_GT || op == IR_OP_GE || op == IR_OP_EQ ||
           op == IR_OP_NE;
}

const char *ir_op_name(ir_op op)
{
    static const char *const names[] = {
        [IR_OP_ADD] = "+", [IR_OP_SUB] = "-",  [IR_OP_MUL] = "*",    [IR_OP_DIV] = "/",
        [IR_OP_MOD] = "%", [IR_OP_SHL] = "<<", [IR_OP_SHR] = ">>",   [IR_OP_AND] = "&",
        [IR_OP_OR] = "|",  [IR_OP_XOR] = "^",  [IR_OP_MIN] = "min",  [IR_OP_MAX] = "max",
        [IR_OP_LT] = "<",  [IR_OP_LE] = "<=",  [IR_OP_GT] = ">",     [IR_OP_GE] = ">=",
        [IR_OP_EQ] = "==", [IR_OP_NE] = "!=",  [IR_OP_LAND] = "&&",  [IR_OP_LOR] = "||",
        [IR_OP_NEG] = "-", [IR_OP_NOT] = "!",  [IR_OP_BITNOT] = "~",
    };
    return (unsigned)op < sizeof names / sizeof names[0] && names[op] ? names[op] : "?";
}

/* C precedence, larger binds tighter; used to print only the parentheses needed. */
static int prec(const ir_expr *e)
{
    if (e->kind == IR_SELECT)
        return 1;
    if (e->kind == IR_UNARY)
        return 12;
    if (e->kind != IR_BINARY)
        return 13;
    switch (e->op) {
    case IR_OP_MUL:
    case IR_OP_DIV:
    case IR_OP_MOD:
        return 11;
    case IR_OP_ADD:
    case IR_OP_SUB:
        return 10;
    case IR_OP_SHL:
    case IR_OP_SHR:
        return 9;
    case IR_OP_LT:
    case IR_OP_LE:
    case IR_OP_GT:
    case IR_OP_GE:
        return 8;
    case IR_OP_EQ:
    case IR_OP_NE:
        return 7;
    case IR_OP_AND:
        return 6;
    case IR_OP_XOR:
        return 5;
    case IR_OP_OR:
        return 4;
    case IR_OP_LAND:
        return 3;
    case IR_OP_LOR:
        return 2;
    default:
        return 13; /* min/max print as calls */
    }
}

typedef struct {
    char *buf;
    size_t len, pos;
} sbuf;

static void put(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = s->pos < s->len ? s->len - s->pos : 0;
    int n = vsnprintf(room ? s->buf + s->pos : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        s->pos += (size_t)n;
}

static void fmt_expr(const ir_kernel *k, const ir_expr *e, sbuf *s, int parent_prec, bool right)
{
    if (!e) {
        put(s, "<null>");
        return;
    }
    int p = prec(e);
    bool paren = p < parent_prec || (right && p == parent_prec && e->kind == IR_BINARY);
    if (paren)
        put(s, "(");
    switch (e->kind) {
    case IR_CONST:
        put(s, "%lld", (long long)e->value);
        break;
    case IR_SYM:
        put(s, "%s", ir_sym_name(e->sym));
        break;
    case IR_VAR:
        if (e->var >= 0 && (size_t)e->var < k->nvars && k->vars[e->var].name)
            put(s, "%s", k->vars[e->var].name);
        else
            put(s, "v%d", e->var);
        break;
    case IR_UNARY:
        put(s, "%s", ir_op_name(e->op));
        fmt_expr(k, e->a, s, 12, false);
        break;
    case IR_BINARY:
        if (e->op == IR_OP_MIN || e->op == IR_OP_MAX) {
            put(s, "%s(", ir_op_name(e->op));
            fmt_expr(k, e->a, s, 0, false);
            put(s, ", ");
            fmt_expr(k, e->b, s, 0, false);
            put(s, ")");
        } else {
            fmt_expr(k, e->a, s, p, false);
            put(s, " %s ", ir_op_name(e->op));
            fmt_expr(k, e->b, s, p, true);
        }
        break;
    case IR_SELECT:
        fmt_expr(k, e->a, s, 2, false);
        put(s, " ? ");
        fmt_expr(k, e->b, s, 1, false);
        put(s, " : ");
        fmt_expr(k, e->c, s, 1, false);
        break;
    case IR_UNKNOWN:
        put(s, "unknown(%s)", e->reason ? e->reason : "?");
        break;
    }
    if (paren)
        put(s, ")");
}

int ir_expr_format(const ir_kernel *k, const ir_expr *e, char *buf, size_t len)
{
    sbuf s = {buf, len, 0};
    if (len)
        buf[0] = '\0';
    fmt_expr(k, e, &s, 0, false);
    if (len)
        buf[s.pos < len ? s.pos : len - 1] = '\0';
    return (int)s.pos;
}

bool ir_expr_has_unknown(const ir_expr *e)
{
    if (!e)
        return false;
    if (e->kind == IR_UNKNOWN)
        return true;
    return ir_expr_has_unknown(e->a) || ir_expr_has_unknown(e->b) || ir_expr_has_unknown(e->c);
}

bool ir_expr_same(const ir_expr *x, const ir_expr *y, bool by_load_site)
{
    if (x == y)
        return true;
    if (!x || !y || x->kind != y->kind || x->op != y->op)
        return false;
    switch (x->kind) {
    case IR_CONST:
        return x->value == y->value;
    case IR_SYM:
        return x->sym == y->sym;
    case IR_VAR:
        return x->var == y->var;
    case IR_UNKNOWN:
        return by_load_site && x->site >= 0 && x->site == y->site;
    default:
        return ir_expr_same(x->a, y->a, by_load_site) && ir_expr_same(x->b, y->b, by_load_site) &&
               ir_expr_same(x->c, y->c, by_load_site);
    }
}

bool ir_stmt_only_leaves(const ir_stmt *s)
{
    if (!s)
        return false;
    if (s->kind == IR_S_RETURN || s->kind == IR_S_BREAK || s->kind == IR_S_CONTINUE)
        return true;
    if (s->kind != IR_S_BLOCK || s->items.n == 0)
        return false;
    for (size_t i = 0; i + 1 < s->items.n; i++)
        if (s->items.v[i]->kind != IR_S_ASSIGN)
            return false;
    return ir_stmt_only_leaves(s->items.v[s->items.n - 1]);
}

bool ir_expr_uses_var(const ir_expr *e, int var)
{
    if (!e)
        return false;
    if (e->kind == IR_VAR && e->var == var)
        return true;
    return ir_expr_uses_var(e->a, var) || ir_expr_uses_var(e->b, var) ||
           ir_expr_uses_var(e->c, var);
}

void ir_stmt_each(const ir_stmt *s, ir_stmt_visit_fn visit, void *ctx)
{
    if (!s)
        return;
    visit(s, ctx);
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            ir_stmt_each(s->items.v[i], visit, ctx);
        break;
    case IR_S_IF:
        ir_stmt_each(s->then, visit, ctx);
        ir_stmt_each(s->els, visit, ctx);
        break;
    case IR_S_LOOP:
        ir_stmt_each(s->init, visit, ctx);
        ir_stmt_each(s->body, visit, ctx);
        ir_stmt_each(s->step, visit, ctx);
        break;
    default:
        break;
    }
}

typedef struct {
    bool *flags;
    size_t nvars;
    ir_expr_dep_fn dep;
    bool changed;
} flag_walk;

static void flag_assignment(const ir_stmt *s, void *ctx)
{
    flag_walk *w = ctx;
    if (s->kind == IR_S_ASSIGN && s->var >= 0 && (size_t)s->var < w->nvars && !w->flags[s->var] &&
        w->dep(s->value, w->flags)) {
        w->flags[s->var] = true;
        w->changed = true;
    }
}

bool ir_flag_assignments(const ir_stmt *s, bool *flags, size_t nvars, ir_expr_dep_fn dep)
{
    flag_walk w = {flags, nvars, dep, false};
    ir_stmt_each(s, flag_assignment, &w);
    return w.changed;
}
