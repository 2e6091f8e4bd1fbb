/* Hand-built kernel IR for tests (see ir_fixtures.h). */
#include "ir_fixtures.h"

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

static ir_loc at(ir_kernel *k, unsigned line)
{
    ir_loc l = {k->loc.file, line, 5, 0, 0};
    return l;
}

ir_kernel *fx_kernel(const char *name, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by)
{
    ir_kernel *k = ir_kernel_new(name);
    k->loc.file = ir_strdup(k, "fixture.cu");
    k->loc.line = 1;
    k->launch.grid[0] = gx;
    k->launch.grid[1] = gy;
    k->launch.grid[2] = 1;
    k->launch.block[0] = bx;
    k->launch.block[1] = by;
    k->launch.block[2] = 1;
    k->launch.source = IR_LAUNCH_CLI;
    return k;
}

int fx_param(ir_kernel *k, const char *name, bool known, int64_t value)
{
    ir_var v = {0};
    v.name = ir_strdup(k, name);
    v.kind = IR_VAR_PARAM;
    v.has_value = known;
    v.value = known ? value : 0;
    v.value_source = known ? "cli" : NULL;
    int id = ir_add_var(k, &v);
    ir_param p = {v.name, "int", false, -1, id};
    ir_add_param(k, &p);
    return id;
}

int fx_local(ir_kernel *k, const char *name)
{
    ir_var v = {0};
    v.name = ir_strdup(k, name);
    v.kind = IR_VAR_LOCAL;
    return ir_add_var(k, &v);
}

int fx_array(ir_kernel *k, const char *name, hms_space space, int elem_bytes, int ndims,
             const int64_t *dims)
{
    ir_array a = {0};
    a.name = ir_strdup(k, name);
    a.space = space;
    a.elem_type = ir_strdup(k, elem_bytes == 4 ? "float" : "T");
    a.elem_bytes = elem_bytes;
    a.ndims = ndims;
    for (int i = 0; i < ndims && i < 4; i++)
        a.dims[i] = dims[i];
    a.is_param = space == HMS_SPACE_GLOBAL;
    a.base_array = -1;
    a.tex_dims = space == HMS_SPACE_TEXTURE ? (ndims >= 2 ? 2 : 1) : 0;
    int id = ir_add_array(k, &a);
    if (a.is_param) {
        ir_param p = {a.name, "float *", true, id, -1};
        ir_add_param(k, &p);
    }
    return id;
}

ir_expr *fx_c(ir_kernel *k, int64_t v)
{
    return ir_const(k, v);
}

ir_expr *fx_s(ir_kernel *k, ir_sym s)
{
    return ir_symbol(k, s);
}

ir_expr *fx_v(ir_kernel *k, int var)
{
    return ir_var_ref(k, var);
}

ir_expr *fx_op(ir_kernel *k, ir_op op, ir_expr *a, ir_expr *b)
{
    return ir_binary(k, op, a, b);
}

ir_expr *fx_add(ir_kernel *k, ir_expr *a, ir_expr *b)
{
    return ir_binary(k, IR_OP_ADD, a, b);
}

ir_expr *fx_mul(ir_kernel *k, ir_expr *a, ir_expr *b)
{
    return ir_binary(k, IR_OP_MUL, a, b);
}

ir_expr *fx_lt(ir_kernel *k, ir_expr *a, ir_expr *b)
{
    return ir_binary(k, IR_OP_LT, a, b);
}

ir_expr *fx_gid_x(ir_kernel *k)
{
    return fx_add(k, fx_mul(k, fx_s(k, IR_SYM_BID_X), fx_s(k, IR_SYM_BDIM_X)),
                  fx_s(k, IR_SYM_TID_X));
}

ir_expr *fx_gid_y(ir_kernel *k)
{
    return fx_add(k, fx_mul(k, fx_s(k, IR_SYM_BID_Y), fx_s(k, IR_SYM_BDIM_Y)),
                  fx_s(k, IR_SYM_TID_Y));
}

ir_stmt *fx_access(ir_kernel *k, int array, hms_access_kind kind, ir_expr *index, int width,
                   unsigned line)
{
    ir_access a;
    memset(&a, 0, sizeof a);
    a.array = array;
    a.kind = kind;
    a.width = width;
    a.index = index;
    a.elem_stride = k->arrays[array].elem_bytes;
    a.mapping = -1;
    a.text = ir_strdup(k, k->arrays[array].name);
    return ir_access_new(k, &a, at(k, line));
}

ir_stmt *fx_assign(ir_kernel *k, int var, ir_expr *value)
{
    ir_stmt *s = ir_stmt_new(k, IR_S_ASSIGN, at(k, 0));
    s->var = var;
    s->value = value;
    return s;
}

ir_stmt *fx_if(ir_kernel *k, ir_expr *cond, ir_stmt *then, ir_stmt *els)
{
    ir_stmt *s = ir_stmt_new(k, IR_S_IF, at(k, 0));
    s->cond = cond;
    s->then = then;
    s->els = els;
    return s;
}

ir_stmt *fx_loop(ir_kernel *k, ir_stmt *init, ir_expr *cond, ir_stmt *step, ir_stmt *body,
                 unsigned line)
{
    ir_stmt *s = ir_stmt_new(k, IR_S_LOOP, at(k, line));
    s->init = init;
    s->cond = cond;
    s->step = step;
    s->body = body;
    if (init && init->kind == IR_S_ASSIGN)
        s->loop_var = init->var;
    return s;
}

ir_stmt *fx_simple(ir_kernel *k, ir_stmt_kind kind)
{
    return ir_stmt_new(k, kind, at(k, 0));
}

ir_stmt *fx_block(ir_kernel *k, ...)
{
    ir_stmt *b = ir_stmt_new(k, IR_S_BLOCK, at(k, 0));
    va_list ap;
    va_start(ap, k);
    for (ir_stmt *s; (s = va_arg(ap, ir_stmt *)) != NULL;)
        ir_stmt_append(k, b, s);
    va_end(ap);
    return b;
}

void fx_body(ir_kernel *k, ir_stmt *s)
{
    ir_stmt_append(k, k->body, s);
}

/* ---- whole kernels ---------------------------------------------------------------- */

ir_kernel *fx_copy1d(uint32_t grid, uint32_t block, int64_t n)
{
    ir_kernel *k = fx_kernel("copy1d", grid, 1, block, 1);
    int in = fx_array(k, "in", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int out = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int vn = fx_param(k, "n", true, n);
    int i = fx_local(k, "i");
    fx_body(k, fx_assign(k, i, fx_gid_x(k)));
    fx_body(k, fx_if(k, fx_lt(k, fx_v(k, i), fx_v(k, vn)),
                     fx_block(k, fx_access(k, in, HMS_ACCESS_LOAD, fx_v(k, i), 4, 3),
                              fx_access(k, out, HMS_ACCESS_STORE, fx_v(k, i), 4, 3), NULL),
                     NULL));
    return k;
}

ir_kernel *fx_transpose_naive(uint32_t gx, uint32_t gy, int64_t W, int64_t H)
{
    ir_kernel *k = fx_kernel("transpose_naive", gx, gy, 32, 8);
    int in = fx_array(k, "in", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int out = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int x = fx_local(k, "x"), y = fx_local(k, "y");
    fx_body(k, fx_assign(k, x, fx_gid_x(k)));
    fx_body(k, fx_assign(k, y, fx_gid_y(k)));
    fx_body(k, fx_access(k, in, HMS_ACCESS_LOAD,
                         fx_add(k, fx_mul(k, fx_v(k, y), fx_c(k, W)), fx_v(k, x)), 4, 4));
    fx_body(k, fx_access(k, out, HMS_ACCESS_STORE,
                         fx_add(k, fx_mul(k, fx_v(k, x), fx_c(k, H)), fx_v(k, y)), 4, 4));
    return k;
}

ir_kernel *fx_transpose_tiled(uint32_t g, int64_t W, bool extra_global_read)
{
    ir_kernel *k = fx_kernel("transpose_tiled", g, g, 32, 8);
    int in = fx_array(k, "in", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int out = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int64_t dims[2] = {32, 33};
    int tile = fx_array(k, "tile", HMS_SPACE_SHARED, 4, 2, dims);
    int x = fx_local(k, "x"), y = fx_local(k, "y"), j = fx_local(k, "j");
    ir_expr *tx = fx_s(k, IR_SYM_TID_X), *ty = fx_s(k, IR_SYM_TID_Y);
    fx_body(k, fx_assign(k, x, fx_add(k, fx_mul(k, fx_s(k, IR_SYM_BID_X), fx_c(k, 32)), tx)));
    fx_body(k, fx_assign(k, y, fx_add(k, fx_mul(k, fx_s(k, IR_SYM_BID_Y), fx_c(k, 32)), ty)));
    ir_stmt *fetch = fx_access(
        k, in, HMS_ACCESS_LOAD,
        fx_add(k, fx_mul(k, fx_add(k, fx_v(k, y), fx_v(k, j)), fx_c(k, W)), fx_v(k, x)), 4, 10);
    ir_stmt *fill =
        fx_access(k, tile, HMS_ACCESS_STORE,
                  fx_add(k, fx_mul(k, fx_add(k, ty, fx_v(k, j)), fx_c(k, 33)), tx), 4, 10);
    fx_body(k, fx_loop(k, fx_assign(k, j, fx_c(k, 0)), fx_lt(k, fx_v(k, j), fx_c(k, 32)),
                       fx_assign(k, j, fx_add(k, fx_v(k, j), fx_c(k, 8))),
                       fx_block(k, fetch, fill, NULL), 9));
    ir_mapping m = {tile, in, fetch->access.id, fill->access.id};
    int mid = ir_add_mapping(k, &m);
    fill->access.mapping = mid;
    fx_body(k, fx_simple(k, IR_S_SYNC));
    if (extra_global_read)
        fx_body(k, fx_access(k, in, HMS_ACCESS_LOAD,
                             fx_add(k, fx_add(k, fx_mul(k, fx_v(k, y), fx_c(k, W)), fx_v(k, x)),
                                    fx_c(k, 1)),
                             4, 12));
    fx_body(k, fx_assign(k, x, fx_add(k, fx_mul(k, fx_s(k, IR_SYM_BID_Y), fx_c(k, 32)), tx)));
    fx_body(k, fx_assign(k, y, fx_add(k, fx_mul(k, fx_s(k, IR_SYM_BID_X), fx_c(k, 32)), ty)));
    ir_stmt *rd =
        fx_access(k, tile, HMS_ACCESS_LOAD,
                  fx_add(k, fx_mul(k, tx, fx_c(k, 33)), fx_add(k, ty, fx_v(k, j))), 4, 16);
    ir_stmt *wr = fx_access(
        k, out, HMS_ACCESS_STORE,
        fx_add(k, fx_mul(k, fx_add(k, fx_v(k, y), fx_v(k, j)), fx_c(k, W)), fx_v(k, x)), 4, 16);
    fx_body(k, fx_loop(k, fx_assign(k, j, fx_c(k, 0)), fx_lt(k, fx_v(k, j), fx_c(k, 32)),
                       fx_assign(k, j, fx_add(k, fx_v(k, j), fx_c(k, 8))),
                       fx_block(k, rd, wr, NULL), 15));
    return k;
}

ir_kernel *fx_stencil(uint32_t gx, uint32_t gy, int64_t W, int64_t H)
{
    ir_kernel *k = fx_kernel("stencil", gx, gy, 32, 8);
    int in = fx_array(k, "in", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int out = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int x = fx_local(k, "x"), y = fx_local(k, "y");
    fx_body(k, fx_assign(k, x, fx_gid_x(k)));
    fx_body(k, fx_assign(k, y, fx_gid_y(k)));
    ir_expr *inside = fx_op(k, IR_OP_LAND,
                            fx_op(k, IR_OP_LAND, fx_op(k, IR_OP_GT, fx_v(k, x), fx_c(k, 0)),
                                  fx_lt(k, fx_v(k, x), fx_c(k, W - 1))),
                            fx_op(k, IR_OP_LAND, fx_op(k, IR_OP_GT, fx_v(k, y), fx_c(k, 0)),
                                  fx_lt(k, fx_v(k, y), fx_c(k, H - 1))));
    ir_expr *row = fx_mul(k, fx_v(k, y), fx_c(k, W));
    ir_expr *c = fx_add(k, row, fx_v(k, x));
    ir_stmt *body = fx_block(k, fx_access(k, in, HMS_ACCESS_LOAD, fx_add(k, c, fx_c(k, -1)), 4, 6),
                             fx_access(k, in, HMS_ACCESS_LOAD, fx_add(k, c, fx_c(k, 1)), 4, 6),
                             fx_access(k, in, HMS_ACCESS_LOAD, fx_add(k, c, fx_c(k, -W)), 4, 6),
                             fx_access(k, in, HMS_ACCESS_LOAD, fx_add(k, c, fx_c(k, W)), 4, 6),
                             fx_access(k, out, HMS_ACCESS_STORE, c, 4, 6), NULL);
    fx_body(k, fx_if(k, inside, body, NULL));
    return k;
}
