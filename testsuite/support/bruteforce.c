/* Per-thread reference interpreter (see bruteforce.h). Written separately
 * from passes/trace/trace_exec.c on purpose: plain int64 scalars, C control flow,
 * one thread at a time. */
#include "bruteforce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOOP_DEPTH 16

typedef struct {
    uint32_t site;
    int depth;
    uint32_t iter[MAX_LOOP_DEPTH];
    int lane;
    uint64_t addr;
} bf_event;

typedef enum { FLOW_NEXT, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN } bf_flow;

typedef struct {
    const ir_kernel *k;
    const uint64_t *bases;
    hms_bf_options opt;
    int64_t *vars;
    bool *set;
    int64_t tid[3], bid[3], lin;
    uint64_t block;
    uint32_t warp;
    int lane;
    int depth;
    uint32_t iter[MAX_LOOP_DEPTH];
    uint64_t steps;
    bf_event *ev;
    size_t nev, capev;
    bool failed;
    char *err;
    size_t errlen;
} bf;

static bool bf_fail(bf *b, const char *why)
{
    if (!b->failed)
        snprintf(b->err, b->errlen, "bruteforce: %s", why);
    b->failed = true;
    return false;
}

static int64_t eval(bf *b, const ir_expr *e)
{
    if (b->failed || !e)
        return 0;
    const ir_launch *L = &b->k->launch;
    int64_t x, y;
    switch (e->kind) {
    case IR_CONST:
        return e->value;
    case IR_SYM:
        switch (e->sym) {
        case IR_SYM_TID_X:
            return b->tid[0];
        case IR_SYM_TID_Y:
            return b->tid[1];
        case IR_SYM_TID_Z:
            return b->tid[2];
        case IR_SYM_BID_X:
            return b->bid[0];
        case IR_SYM_BID_Y:
            return b->bid[1];
        case IR_SYM_BID_Z:
            return b->bid[2];
        case IR_SYM_BDIM_X:
            return L->block[0];
        case IR_SYM_BDIM_Y:
            return L->block[1];
        case IR_SYM_BDIM_Z:
            return L->block[2];
        case IR_SYM_GDIM_X:
            return L->grid[0];
        case IR_SYM_GDIM_Y:
            return L->grid[1];
        case IR_SYM_GDIM_Z:
            return L->grid[2];
        case IR_SYM_WARPSIZE:
            return 32;
        case IR_SYM_LANEID:
            return b->lin % 32;
        default:
            bf_fail(b, "bad symbol");
            return 0;
        }
    case IR_VAR:
        if (!b->set[e->var])
            bf_fail(b, "read of an unassigned variable (or one holding an unknown value)");
        return b->vars[e->var];
    case IR_UNKNOWN:
        bf_fail(b, "unknown value");
        return 0;
    case IR_UNARY:
        x = eval(b, e->a);
        if (e->op == IR_OP_NEG)
            return (int64_t)(0 - (uint64_t)x);
        if (e->op == IR_OP_NOT)
            return !x;
        return ~x;
    case IR_SELECT:
        x = eval(b, e->a);
        return x ? eval(b, e->b) : eval(b, e->c);
    case IR_BINARY:
        break;
    }
    x = eval(b, e->a);
    y = eval(b, e->b);
    switch (e->op) {
    case IR_OP_ADD:
        return (int64_t)((uint64_t)x + (uint64_t)y);
    case IR_OP_SUB:
        return (int64_t)((uint64_t)x - (uint64_t)y);
    case IR_OP_MUL:
        return (int64_t)((uint64_t)x * (uint64_t)y);
    case IR_OP_DIV:
    case IR_OP_MOD:
        if (y == 0)
            return bf_fail(b, "division by zero"), 0;
        return e->op == IR_OP_DIV ? x / y : x % y;
    case IR_OP_SHL:
        if (y < 0 || y > 63)
            return bf_fail(b, "bad shift"), 0;
        return (int64_t)((uint64_t)x << y);
    case IR_OP_SHR:
        if (y < 0 || y > 63)
            return bf_fail(b, "bad shift"), 0;
        return x >> y;
    case IR_OP_AND:
        return x & y;
    case IR_OP_OR:
        return x | y;
    case IR_OP_XOR:
        return x ^ y;
    case IR_OP_MIN:
        return x < y ? x : y;
    case IR_OP_MAX:
        return x > y ? x : y;
    case IR_OP_LT:
        return x < y;
    case IR_OP_LE:
        return x <= y;
    case IR_OP_GT:
        return x > y;
    case IR_OP_GE:
        return x >= y;
    case IR_OP_EQ:
        return x == y;
    case IR_OP_NE:
        return x != y;
    case IR_OP_LAND:
        return x && y;
    case IR_OP_LOR:
        return x || y;
    default:
        bf_fail(b, "bad operator");
        return 0;
    }
}

/* The array-relative byte offset, following the documented layout rules of
 * passes/trace/stream_gen.h independently of passes/trace/trace_layout.c. */
static int64_t offset_of(bf *b, const ir_access *a)
{
    const ir_array *arr = &b->k->arrays[a->array];
    int64_t stride = a->elem_stride > 0 ? a->elem_stride : arr->elem_bytes;
    int64_t off = eval(b, a->index) * stride + a->field_offset;
    if (a->index2) {
        int64_t width = arr->ndims >= 2 && arr->dims[1] > 0 ? arr->dims[1] : b->opt.default_param;
        int64_t pitch = (width * arr->elem_bytes + 31) / 32 * 32;
        off += eval(b, a->index2) * pitch;
    }
    if (arr->space == HMS_SPACE_LOCAL) {
        int64_t g = 1; /* natural alignment: lowest set bit of the size, at most 16 */
        while (g < 16 && arr->elem_bytes % (g * 2) == 0)
            g *= 2;
        int64_t per_thread = 1024;
        if (arr->ndims > 0) {
            per_thread = arr->elem_bytes;
            for (int d = 0; d < arr->ndims; d++)
                per_thread *= arr->dims[d];
        }
        per_thread = (per_thread + g - 1) / g * g;
        uint64_t wave = b->opt.first_wave_blocks;
        uint64_t warps =
            (b->k->launch.block[0] * b->k->launch.block[1] * b->k->launch.block[2] + 31) / 32;
        int64_t slot = (int64_t)(((wave ? b->block % wave : b->block) * warps) + b->warp);
        int64_t chunk = off / g, rem = off % g;
        if (rem < 0) {
            rem += g;
            chunk--;
        }
        off = ((slot * (per_thread / g) + chunk) * 32 + b->lane) * g + rem;
    }
    return off;
}

static bf_flow exec(bf *b, const ir_stmt *s);

static bf_flow exec_loop(bf *b, const ir_stmt *s)
{
    if (s->init)
        exec(b, s->init);
    if (b->depth >= MAX_LOOP_DEPTH)
        return bf_fail(b, "loops nested too deep"), FLOW_RETURN;
    int d = b->depth++;
    bf_flow out = FLOW_NEXT;
    for (uint32_t it = 0; !b->failed; it++) {
        if (s->cond && (s->test_first || it > 0) && !eval(b, s->cond))
            break;
        b->iter[d] = it;
        bf_flow f = exec(b, s->body);
        if (f == FLOW_BREAK)
            break;
        if (f == FLOW_RETURN) {
            out = FLOW_RETURN;
            break;
        }
        if (s->step)
            exec(b, s->step);
    }
    b->depth--;
    return out;
}

static bf_flow exec(bf *b, const ir_stmt *s)
{
    if (!s || b->failed)
        return b->failed ? FLOW_RETURN : FLOW_NEXT;
    if (++b->steps > b->opt.max_steps)
        return bf_fail(b, "step budget"), FLOW_RETURN;
    switch (s->kind) {
    case IR_S_BLOCK:
        for (size_t i = 0; i < s->items.n; i++) {
            bf_flow f = exec(b, s->items.v[i]);
            if (f != FLOW_NEXT)
                return f;
        }
        return FLOW_NEXT;
    case IR_S_ASSIGN:
        /* A variable given an unknown value (a count of random draws) is an
         * error only if an address or a condition reads it later. */
        if (ir_expr_has_unknown(s->value)) {
            b->set[s->var] = false;
            return FLOW_NEXT;
        }
        b->vars[s->var] = eval(b, s->value);
        b->set[s->var] = true;
        return FLOW_NEXT;
    case IR_S_IF:
        if (eval(b, s->cond))
            return exec(b, s->then);
        return exec(b, s->els);
    case IR_S_LOOP:
        return exec_loop(b, s);
    case IR_S_ACCESS: {
        if (b->opt.skip_unknown_index &&
            (ir_expr_has_unknown(s->access.index) || ir_expr_has_unknown(s->access.index2)))
            return FLOW_NEXT;
        int64_t off = offset_of(b, &s->access);
        if (b->failed)
            return FLOW_RETURN;
        if (b->nev == b->capev) {
            size_t cap = b->capev ? b->capev * 2 : 256;
            bf_event *v = realloc(b->ev, cap * sizeof *v);
            if (!v)
                return bf_fail(b, "out of memory"), FLOW_RETURN;
            b->ev = v;
            b->capev = cap;
        }
        bf_event *e = &b->ev[b->nev++];
        memset(e, 0, sizeof *e);
        e->site = (uint32_t)s->access.id;
        e->depth = b->depth;
        memcpy(e->iter, b->iter, sizeof e->iter);
        e->lane = b->lane;
        e->addr = b->bases[s->access.array] + (uint64_t)off;
        return FLOW_NEXT;
    }
    case IR_S_SYNC:
        return FLOW_NEXT;
    case IR_S_BREAK:
        return FLOW_BREAK;
    case IR_S_CONTINUE:
        return FLOW_CONTINUE;
    case IR_S_RETURN:
        return FLOW_RETURN;
    }
    return FLOW_NEXT;
}

static int cmp_event(const void *pa, const void *pb)
{
    const bf_event *a = pa, *b = pb;
    if (a->site != b->site)
        return a->site < b->site ? -1 : 1;
    for (int i = 0; i < a->depth && i < b->depth; i++)
        if (a->iter[i] != b->iter[i])
            return a->iter[i] < b->iter[i] ? -1 : 1;
    return a->lane - b->lane;
}

static bool same_instance(const bf_event *a, const bf_event *b)
{
    if (a->site != b->site || a->depth != b->depth)
        return false;
    return memcmp(a->iter, b->iter, (size_t)a->depth * sizeof a->iter[0]) == 0;
}

static int64_t param_value(const ir_var *v, int64_t dflt)
{
    return v->has_value ? v->value : dflt;
}

bool hms_bruteforce_trace(const ir_kernel *k, const uint64_t *blocks, size_t nblocks,
                          const uint64_t *bases, const hms_bf_options *opt, hms_stream *out,
                          char *err, size_t errlen)
{
    bf b;
    memset(&b, 0, sizeof b);
    b.k = k;
    b.bases = bases;
    if (opt)
        b.opt = *opt;
    if (!b.opt.default_param)
        b.opt.default_param = 1024;
    if (!b.opt.max_steps)
        b.opt.max_steps = 1u << 20;
    b.err = err;
    b.errlen = errlen;
    b.vars = calloc(k->nvars + 1, sizeof *b.vars);
    b.set = calloc(k->nvars + 1, sizeof *b.set);
    if (!b.vars || !b.set)
        bf_fail(&b, "out of memory");
    const ir_launch *L = &k->launch;
    uint64_t tpb = (uint64_t)L->block[0] * L->block[1] * L->block[2];
    uint64_t wpb = (tpb + 31) / 32;
    for (size_t bi = 0; bi < nblocks && !b.failed; bi++) {
        uint64_t id = blocks[bi];
        b.block = id;
        b.bid[0] = (int64_t)(id % L->grid[0]);
        b.bid[1] = (int64_t)((id / L->grid[0]) % L->grid[1]);
        b.bid[2] = (int64_t)(id / ((uint64_t)L->grid[0] * L->grid[1]));
        for (uint64_t w = 0; w < wpb && !b.failed; w++) {
            b.nev = 0;
            b.warp = (uint32_t)w;
            for (int lane = 0; lane < 32 && !b.failed; lane++) {
                uint64_t t = w * 32 + (uint64_t)lane;
                if (t >= tpb)
                    break;
                b.lin = (int64_t)t;
                b.lane = lane;
                b.tid[0] = (int64_t)(t % L->block[0]);
                b.tid[1] = (int64_t)((t / L->block[0]) % L->block[1]);
                b.tid[2] = (int64_t)(t / ((uint64_t)L->block[0] * L->block[1]));
                for (size_t v = 0; v < k->nvars; v++) {
                    b.set[v] = k->vars[v].kind == IR_VAR_PARAM;
                    b.vars[v] = param_value(&k->vars[v], b.opt.default_param);
                }
                b.depth = 0;
                b.steps = 0;
                exec(&b, k->body);
            }
            qsort(b.ev, b.nev, sizeof *b.ev, cmp_event);
            for (size_t i = 0; i < b.nev && !b.failed;) {
                hms_warp_access r;
                memset(&r, 0, sizeof r);
                const ir_access *a = k->sites[b.ev[i].site];
                const ir_array *arr = &k->arrays[a->array];
                r.site = b.ev[i].site;
                r.array = (uint32_t)a->array;
                r.space = (uint8_t)arr->space;
                if (arr->space == HMS_SPACE_GLOBAL && a->kind == HMS_ACCESS_LOAD &&
                    (a->via_ldg || (arr->is_const && arr->is_restrict)))
                    r.space = HMS_SPACE_READONLY;
                r.kind = (uint8_t)a->kind;
                r.width = (uint8_t)a->width;
                r.block = (uint32_t)id;
                r.warp = (uint32_t)w;
                r.exact = true;
                size_t j = i;
                for (; j < b.nev && same_instance(&b.ev[i], &b.ev[j]); j++) {
                    r.mask |= 1u << b.ev[j].lane;
                    r.addr[b.ev[j].lane] = b.ev[j].addr;
                }
                if (!hms_stream_push(out, &r))
                    bf_fail(&b, "out of memory");
                i = j;
            }
        }
    }
    free(b.vars);
    free(b.set);
    free(b.ev);
    return !b.failed;
}
