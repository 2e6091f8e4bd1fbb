/* Checks that a kernel's launch and IR can be traced, so the interpreter
 * never meets a bad id, a missing operand or unbounded nesting. Every
 * failure names the kernel's file and the reason. */
#include <stdarg.h>
#include <stdio.h>

#include "passes/trace/trace_internal.h"

/* CUDA's limits on launch dimensions (all architectures since cc 2.0;
 * cc 1.x allowed fewer, which only makes these looser). */
#define MAX_THREADS_PER_BLOCK 1024
#define MAX_BLOCK_Z 64
#define MAX_GRID_X 2147483647u
#define MAX_GRID_YZ 65535u

static bool fail(tracer *t, ir_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(tracer *t, ir_loc loc, const char *fmt, ...)
{
    char why[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    const ir_kernel *k = t->k;
    const char *file = loc.file ? loc.file : k->loc.file ? k->loc.file : "<unknown file>";
    unsigned line = loc.file ? loc.line : k->loc.line;
    snprintf(t->out->error, sizeof t->out->error, "%s:%u: kernel '%s' cannot be traced: %s", file,
             line, k->name ? k->name : "?", why);
    return false;
}

static bool check_expr(tracer *t, const ir_expr *e, ir_loc at, int depth)
{
    const ir_kernel *k = t->k;
    if (!e)
        return fail(t, at, "missing expression operand");
    if (depth > HMS_TRACE_MAX_DEPTH)
        return fail(t, at, "expression nested deeper than %d levels", HMS_TRACE_MAX_DEPTH);
    switch (e->kind) {
    case IR_CONST:
    case IR_UNKNOWN:
        return true;
    case IR_SYM:
        if ((unsigned)e->sym >= IR_SYM_COUNT)
            return fail(t, at, "invalid built-in symbol %d", (int)e->sym);
        return true;
    case IR_VAR:
        if (e->var < 0 || (size_t)e->var >= k->nvars)
            return fail(t, at, "reference to variable %d of %zu", e->var, k->nvars);
        return true;
    case IR_UNARY:
        if (e->op != IR_OP_NEG && e->op != IR_OP_NOT && e->op != IR_OP_BITNOT)
            return fail(t, at, "'%s' is not a unary operator", ir_op_name(e->op));
        return check_expr(t, e->a, at, depth + 1);
    case IR_BINARY:
        if (e->op > IR_OP_LOR)
            return fail(t, at, "'%s' is not a binary operator", ir_op_name(e->op));
        return check_expr(t, e->a, at, depth + 1) && check_expr(t, e->b, at, depth + 1);
    case IR_SELECT:
        return check_expr(t, e->a, at, depth + 1) && check_expr(t, e->b, at, depth + 1) &&
               check_expr(t, e->c, at, depth + 1);
    }
    return fail(t, at, "invalid expression kind %d", (int)e->kind);
}

static bool check_access(tracer *t, const ir_stmt *s, int depth)
{
    const ir_kernel *k = t->k;
    const ir_access *a = &s->access;
    if (a->id < 0 || (size_t)a->id >= k->nsites || k->sites[a->id] != a)
        return fail(t, s->loc, "access site id %d is not registered in the kernel", a->id);
    if (a->array < 0 || (size_t)a->array >= k->narrays)
        return fail(t, s->loc, "access to array %d of %zu", a->array, k->narrays);
    if (a->width <= 0 || a->width > 255)
        return fail(t, s->loc, "access width of %d bytes", a->width);
    const ir_array *arr = &k->arrays[a->array];
    if (a->elem_stride <= 0 && arr->elem_bytes <= 0)
        return fail(t, s->loc, "array '%s' has no element size", arr->name ? arr->name : "?");
    if (a->kind != HMS_ACCESS_LOAD && a->kind != HMS_ACCESS_STORE && a->kind != HMS_ACCESS_ATOMIC)
        return fail(t, s->loc, "invalid access kind %d", (int)a->kind);
    if (!check_expr(t, a->index, s->loc, depth))
        return false;
    return !a->index2 || check_expr(t, a->index2, s->loc, depth);
}

static bool check_stmt(tracer *t, const ir_stmt *s, int depth, int loops)
{
    const ir_kernel *k = t->k;
    if (!s)
        return true;
    if (depth > HMS_TRACE_MAX_DEPTH)
        return fail(t, s->loc, "statements nested deeper than %d levels", HMS_TRACE_MAX_DEPTH);
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++)
            if (!check_stmt(t, s->items.v[i], depth + 1, loops))
                return false;
        return true;
    case IR_S_ACCESS:
        return check_access(t, s, depth);
    case IR_S_ASSIGN:
        if (s->var < 0 || (size_t)s->var >= k->nvars)
            return fail(t, s->loc, "assignment to variable %d of %zu", s->var, k->nvars);
        return check_expr(t, s->value, s->loc, depth);
    case IR_S_IF:
        return check_expr(t, s->cond, s->loc, depth) && check_stmt(t, s->then, depth + 1, loops) &&
               check_stmt(t, s->els, depth + 1, loops);
    case IR_S_LOOP:
        if (!s->body)
            return fail(t, s->loc, "loop without a body");
        if (s->cond && !check_expr(t, s->cond, s->loc, depth))
            return false;
        if (s->trip && !check_expr(t, s->trip, s->loc, depth))
            return false;
        return check_stmt(t, s->init, depth + 1, loops) &&
               check_stmt(t, s->step, depth + 1, loops + 1) &&
               check_stmt(t, s->body, depth + 1, loops + 1);
    case IR_S_BREAK:
    case IR_S_CONTINUE:
        if (loops == 0)
            return fail(t, s->loc, "%s outside a loop",
                        s->kind == IR_S_BREAK ? "break" : "continue");
        return true;
    case IR_S_SYNC:
    case IR_S_RETURN:
        return true;
    }
    return fail(t, s->loc, "invalid statement kind %d", (int)s->kind);
}

static bool check_launch(tracer *t)
{
    const ir_launch *L = &t->k->launch;
    ir_loc at = L->loc.file ? L->loc : t->k->loc;
    for (int i = 0; i < 3; i++) {
        if (L->block[i] == 0 || L->grid[i] == 0)
            return fail(t, at, "launch has a zero dimension: grid(%u,%u,%u) block(%u,%u,%u)",
                        L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2]);
    }
    uint64_t tpb = (uint64_t)L->block[0] * L->block[1] * L->block[2];
    if (tpb > MAX_THREADS_PER_BLOCK || L->block[2] > MAX_BLOCK_Z)
        return fail(t, at, "block(%u,%u,%u) exceeds CUDA's limits (%d threads, z <= %d)",
                    L->block[0], L->block[1], L->block[2], MAX_THREADS_PER_BLOCK, MAX_BLOCK_Z);
    if (L->grid[0] > MAX_GRID_X || L->grid[1] > MAX_GRID_YZ || L->grid[2] > MAX_GRID_YZ)
        return fail(t, at, "grid(%u,%u,%u) exceeds CUDA's limits (x < 2^31, y and z <= 65535)",
                    L->grid[0], L->grid[1], L->grid[2]);
    return true;
}

static bool check_arrays(tracer *t)
{
    const ir_kernel *k = t->k;
    for (size_t i = 0; i < k->narrays; i++) {
        /* base_array chains must end: follow at most narrays links */
        size_t hops = 0;
        for (int j = (int)i; j >= 0; j = k->arrays[j].base_array) {
            if ((size_t)j >= k->narrays)
                return fail(t, k->arrays[i].loc, "array '%s' is carved from array %d of %zu",
                            k->arrays[i].name ? k->arrays[i].name : "?", j, k->narrays);
            if (hops++ > k->narrays)
                return fail(t, k->arrays[i].loc, "array '%s' is carved from itself",
                            k->arrays[i].name ? k->arrays[i].name : "?");
        }
        if ((unsigned)k->arrays[i].space >= HMS_SPACE_COUNT)
            return fail(t, k->arrays[i].loc, "array '%s' has an invalid memory space",
                        k->arrays[i].name ? k->arrays[i].name : "?");
    }
    for (size_t i = 0; i < k->nmappings; i++) {
        const ir_mapping *m = &k->mappings[i];
        if (m->shared_array < 0 || (size_t)m->shared_array >= k->narrays || m->global_array < 0 ||
            (size_t)m->global_array >= k->narrays || m->fetch_site < 0 ||
            (size_t)m->fetch_site >= k->nsites || m->access_site < 0 ||
            (size_t)m->access_site >= k->nsites)
            return fail(t, k->loc, "shared-memory mapping %zu refers to a missing array or site",
                        i);
    }
    return true;
}

bool trace_validate(tracer *t)
{
    if (!t->k->body)
        return fail(t, t->k->loc, "kernel has no body");
    return check_launch(t) && check_arrays(t) && check_stmt(t, t->k->body, 0, 0);
}
