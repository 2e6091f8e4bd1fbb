/* Off-chip loads in flight together (passes/ir/load_groups.h): hand-built
 * IR for the CUDA shown next to each case; the expected groups are read
 * off the source (which load needs which value, where a store or barrier
 * intervenes). */
#include <criterion/criterion.h>

#include "passes/ir/load_groups.h"
#include "testsuite/support/ir_fixtures.h"

/* The value a load site read, as the front end makes it. */
static ir_expr *loaded(ir_kernel *k, const ir_stmt *load)
{
    ir_expr *u = ir_unknown(k, "value loaded from memory", load->access.array, load->loc);
    u->site = load->access.id;
    return u;
}

static void groups(const ir_kernel *k, int *leader)
{
    cr_assert(ir_load_groups(k, leader));
}

static double mlp_unit_counts(const ir_kernel *k, const int *leader)
{
    double count[16];
    cr_assert(k->nsites <= 16);
    for (size_t i = 0; i < k->nsites; i++)
        count[i] = 1;
    return ir_load_mlp(k, leader, count);
}

Test(load_groups, independent_loads_share_one_period)
{
    /* out[i] = a[i] + b[i + 1] + c[i + 2];  (CuMAPz's noShared shape) */
    ir_kernel *k = fx_kernel("three", 4, 1, 128, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int b = fx_array(k, "b", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int c = fx_array(k, "c", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int o = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    ir_stmt *la = fx_access(k, a, HMS_ACCESS_LOAD, fx_gid_x(k), 4, 1);
    ir_stmt *lb = fx_access(k, b, HMS_ACCESS_LOAD, fx_add(k, fx_gid_x(k), fx_c(k, 1)), 4, 1);
    ir_stmt *lc = fx_access(k, c, HMS_ACCESS_LOAD, fx_add(k, fx_gid_x(k), fx_c(k, 2)), 4, 1);
    ir_stmt *st = fx_access(k, o, HMS_ACCESS_STORE, fx_gid_x(k), 4, 1);
    fx_body(k, fx_block(k, la, lb, lc, st, NULL));
    int leader[4];
    groups(k, leader);
    cr_assert_eq(leader[la->access.id], la->access.id);
    cr_assert_eq(leader[lb->access.id], la->access.id);
    cr_assert_eq(leader[lc->access.id], la->access.id);
    cr_assert_eq(leader[st->access.id], -1); /* stores are not loads */
    cr_assert_float_eq(mlp_unit_counts(k, leader), 3.0, 1e-12);
    ir_kernel_free(k);
}

Test(load_groups, a_dependent_load_waits)
{
    /* j = col[i]; out[i] = val[j] + x[i];  the load of val needs col's value:
     * col alone, then val and x together */
    ir_kernel *k = fx_kernel("gather", 4, 1, 128, 1);
    int col = fx_array(k, "col", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int val = fx_array(k, "val", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int x = fx_array(k, "x", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int o = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int j = fx_local(k, "j");
    ir_stmt *lcol = fx_access(k, col, HMS_ACCESS_LOAD, fx_gid_x(k), 4, 1);
    ir_stmt *setj = fx_assign(k, j, loaded(k, lcol));
    ir_stmt *lval = fx_access(k, val, HMS_ACCESS_LOAD, fx_v(k, j), 4, 2);
    ir_stmt *lx = fx_access(k, x, HMS_ACCESS_LOAD, fx_gid_x(k), 4, 2);
    ir_stmt *st = fx_access(k, o, HMS_ACCESS_STORE, fx_gid_x(k), 4, 2);
    fx_body(k, fx_block(k, lcol, setj, lval, lx, st, NULL));
    int leader[4];
    groups(k, leader);
    cr_assert_eq(leader[lcol->access.id], lcol->access.id);
    cr_assert_eq(leader[lval->access.id], lval->access.id);
    cr_assert_eq(leader[lx->access.id], lval->access.id);
    cr_assert_float_eq(mlp_unit_counts(k, leader), 1.5, 1e-12); /* 3 loads, 2 periods */

    /* the same with the loaded value used directly in the index: val[col[i]] */
    ir_kernel *k2 = fx_kernel("gather2", 4, 1, 128, 1);
    col = fx_array(k2, "col", HMS_SPACE_GLOBAL, 4, 0, NULL);
    val = fx_array(k2, "val", HMS_SPACE_GLOBAL, 4, 0, NULL);
    ir_stmt *l1 = fx_access(k2, col, HMS_ACCESS_LOAD, fx_gid_x(k2), 4, 1);
    ir_stmt *l2 =
        fx_access(k2, val, HMS_ACCESS_LOAD, fx_add(k2, loaded(k2, l1), fx_c(k2, 1)), 4, 1);
    fx_body(k2, fx_block(k2, l1, l2, NULL));
    groups(k2, leader);
    cr_assert_eq(leader[l2->access.id], l2->access.id);
    cr_assert_float_eq(mlp_unit_counts(k2, leader), 1.0, 1e-12);
    ir_kernel_free(k2);
    ir_kernel_free(k);
}

Test(load_groups, stores_barriers_and_loops_end_a_period)
{
    /* s[tx] = g[i] + g[i + n];  __syncthreads();  (reduction kernel 4's fill)
     * for (j = 0; j < 4; j++) sum += h[i + j * n];  out[i] = sum + s[tx ^ 1]; */
    ir_kernel *k = fx_kernel("phases", 4, 1, 128, 1);
    int g = fx_array(k, "g", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int h = fx_array(k, "h", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int64_t dim = 128;
    int s = fx_array(k, "s", HMS_SPACE_SHARED, 4, 1, &dim);
    int o = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int n = fx_param(k, "n", true, 512), j = fx_local(k, "j");
    ir_expr *tx = fx_s(k, IR_SYM_TID_X);
    ir_stmt *g1 = fx_access(k, g, HMS_ACCESS_LOAD, fx_gid_x(k), 4, 1);
    ir_stmt *g2 = fx_access(k, g, HMS_ACCESS_LOAD, fx_add(k, fx_gid_x(k), fx_v(k, n)), 4, 1);
    ir_stmt *fill = fx_access(k, s, HMS_ACCESS_STORE, tx, 4, 1);
    ir_stmt *lh = fx_access(k, h, HMS_ACCESS_LOAD,
                            fx_add(k, fx_gid_x(k), fx_mul(k, fx_v(k, j), fx_v(k, n))), 4, 3);
    ir_stmt *loop = fx_loop(k, fx_assign(k, j, fx_c(k, 0)), fx_lt(k, fx_v(k, j), fx_c(k, 4)),
                            fx_assign(k, j, fx_add(k, fx_v(k, j), fx_c(k, 1))), lh, 3);
    ir_stmt *ls = fx_access(k, s, HMS_ACCESS_LOAD, fx_op(k, IR_OP_XOR, tx, fx_c(k, 1)), 4, 4);
    ir_stmt *st = fx_access(k, o, HMS_ACCESS_STORE, fx_gid_x(k), 4, 4);
    fx_body(k, fx_block(k, g1, g2, fill, fx_simple(k, IR_S_SYNC), loop, ls, st, NULL));
    int leader[8];
    groups(k, leader);
    cr_assert_eq(leader[g2->access.id], g1->access.id);
    cr_assert_eq(leader[lh->access.id], lh->access.id);
    cr_assert_eq(leader[ls->access.id], -1); /* shared: on-chip */
    cr_assert_eq(leader[fill->access.id], -1);
    /* weighted by executions: g1, g2 once, h four times (one period each) */
    double count[8] = {0};
    count[g1->access.id] = count[g2->access.id] = 1;
    count[lh->access.id] = 4;
    cr_assert_float_eq(ir_load_mlp(k, leader, count), 6.0 / 5.0, 1e-12);
    ir_kernel_free(k);
}

Test(load_groups, a_barrier_between_loads_splits_them)
{
    /* a = g[i]; __syncthreads(); b = g[i + 1]; out[i] = a + b; */
    ir_kernel *k = fx_kernel("sync", 4, 1, 128, 1);
    int g = fx_array(k, "g", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int o = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    ir_stmt *l1 = fx_access(k, g, HMS_ACCESS_LOAD, fx_gid_x(k), 4, 1);
    ir_stmt *l2 = fx_access(k, g, HMS_ACCESS_LOAD, fx_add(k, fx_gid_x(k), fx_c(k, 1)), 4, 2);
    ir_stmt *st = fx_access(k, o, HMS_ACCESS_STORE, fx_gid_x(k), 4, 3);
    fx_body(k, fx_block(k, l1, fx_simple(k, IR_S_SYNC), l2, st, NULL));
    int leader[3];
    groups(k, leader);
    cr_assert_eq(leader[l1->access.id], l1->access.id);
    cr_assert_eq(leader[l2->access.id], l2->access.id);
    cr_assert_float_eq(mlp_unit_counts(k, leader), 1.0, 1e-12);
    ir_kernel_free(k);
}

Test(load_groups, a_guard_keeps_the_period_a_branch_on_a_loaded_value_ends_it)
{
    /* if (i >= n) return;  a = g[i]; b = g[i + 1];  (guard: one period)
     * if (a > 0) out[i] = h[i];  (the branch needs a: h starts a new one) */
    ir_kernel *k = fx_kernel("guard", 4, 1, 128, 1);
    int g = fx_array(k, "g", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int h = fx_array(k, "h", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int o = fx_array(k, "out", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int n = fx_param(k, "n", true, 512);
    ir_stmt *guard =
        fx_if(k, fx_op(k, IR_OP_GE, fx_gid_x(k), fx_v(k, n)), fx_simple(k, IR_S_RETURN), NULL);
    ir_stmt *l1 = fx_access(k, g, HMS_ACCESS_LOAD, fx_gid_x(k), 4, 2);
    ir_stmt *l2 = fx_access(k, g, HMS_ACCESS_LOAD, fx_add(k, fx_gid_x(k), fx_c(k, 1)), 4, 2);
    ir_stmt *lh = fx_access(k, h, HMS_ACCESS_LOAD, fx_gid_x(k), 4, 3);
    ir_stmt *st = fx_access(k, o, HMS_ACCESS_STORE, fx_gid_x(k), 4, 3);
    ir_stmt *branch =
        fx_if(k, fx_op(k, IR_OP_GT, loaded(k, l1), fx_c(k, 0)), fx_block(k, lh, st, NULL), NULL);
    fx_body(k, fx_block(k, guard, l1, l2, branch, NULL));
    int leader[4];
    groups(k, leader);
    cr_assert_eq(leader[l2->access.id], l1->access.id);
    cr_assert_eq(leader[lh->access.id], lh->access.id);
    cr_assert_float_eq(mlp_unit_counts(k, leader), 1.5, 1e-12);
    ir_kernel_free(k);
}

Test(load_groups, no_off_chip_loads_is_one)
{
    /* s[tx] = 1 in shared only, and constant reads: nothing off-chip */
    ir_kernel *k = fx_kernel("onchip", 1, 1, 32, 1);
    int64_t dim = 32;
    int s = fx_array(k, "s", HMS_SPACE_SHARED, 4, 1, &dim);
    int c = fx_array(k, "coef", HMS_SPACE_CONSTANT, 4, 1, &dim);
    ir_stmt *lc = fx_access(k, c, HMS_ACCESS_LOAD, fx_c(k, 0), 4, 1);
    fx_body(k,
            fx_block(k, lc, fx_access(k, s, HMS_ACCESS_STORE, fx_s(k, IR_SYM_TID_X), 4, 1), NULL));
    int leader[2];
    groups(k, leader);
    cr_assert_eq(leader[lc->access.id], -1);
    cr_assert_float_eq(mlp_unit_counts(k, leader), 1.0, 1e-12);
    ir_kernel_free(k);
}
