/* Symbolic lane-to-lane stride (passes/ir/stride.h). Expected coefficients are
 * the derivatives of the index expressions with respect to threadIdx.x,
 * worked out by hand next to each case. */
#include <criterion/criterion.h>
#include <string.h>

#include "passes/ir/stride.h"
#include "testsuite/support/ir_fixtures.h"

static const char *fmt(ir_kernel *k, const ir_expr *e)
{
    static char buf[256];
    ir_expr_format(k, e, buf, sizeof buf);
    return buf;
}

static void assert_stride(ir_kernel *k, const ir_expr *index, const char *want)
{
    hms_stride s = hms_stride_of(k, index);
    cr_assert(s.affine, "not affine: %s", s.why);
    cr_assert_str_eq(fmt(k, s.coeff), want);
}

static void assert_const_stride(ir_kernel *k, const ir_expr *index, int64_t want)
{
    hms_stride s = hms_stride_of(k, index);
    cr_assert(s.affine, "not affine: %s", s.why);
    cr_assert(s.is_const, "coefficient %s is not a constant", fmt(k, s.coeff));
    cr_assert_eq(s.value, want);
}

static void assert_not_affine(ir_kernel *k, const ir_expr *index, const char *reason)
{
    hms_stride s = hms_stride_of(k, index);
    cr_assert_not(s.affine, "unexpectedly affine: %s", s.coeff ? fmt(k, s.coeff) : "?");
    cr_assert(strstr(s.why, reason), "reason '%s' lacks '%s'", s.why, reason);
    cr_assert_null(s.coeff);
}

Test(stride, symbolic_size_between_lanes)
{
    /* threadIdx.x * Size + k -> d/dtx = Size */
    ir_kernel *k = fx_kernel("s", 1, 1, 32, 1);
    int size = fx_param(k, "Size", false, 0), kk = fx_param(k, "k", false, 0);
    ir_expr *e = fx_add(k, fx_mul(k, fx_s(k, IR_SYM_TID_X), fx_v(k, size)), fx_v(k, kk));
    assert_stride(k, e, "Size");
    /* Size*(blockDim.x*blockIdx.x + threadIdx.x + t + 1) + t (the Rodinia gaussian
     * pointer-arithmetic example) -> Size */
    int t = fx_param(k, "t", false, 0);
    ir_expr *inner =
        fx_add(k,
               fx_add(k,
                      fx_add(k, fx_mul(k, fx_s(k, IR_SYM_BDIM_X), fx_s(k, IR_SYM_BID_X)),
                             fx_s(k, IR_SYM_TID_X)),
                      fx_v(k, t)),
               fx_c(k, 1));
    assert_stride(k, fx_add(k, fx_mul(k, fx_v(k, size), inner), fx_v(k, t)), "Size");
    /* (threadIdx.x + 1) * (Size + 1) -> Size + 1 */
    assert_stride(k,
                  fx_mul(k, fx_add(k, fx_s(k, IR_SYM_TID_X), fx_c(k, 1)),
                         fx_add(k, fx_v(k, size), fx_c(k, 1))),
                  "Size + 1");
    /* threadIdx.x << s with s a parameter -> 1 << s */
    assert_stride(k, fx_op(k, IR_OP_SHL, fx_s(k, IR_SYM_TID_X), fx_v(k, kk)), "1 << k");
    ir_kernel_free(k);
}

Test(stride, constant_strides)
{
    ir_kernel *k = fx_kernel("c", 1, 1, 32, 8);
    ir_expr *tx = fx_s(k, IR_SYM_TID_X);
    assert_const_stride(k, fx_gid_x(k), 1);                                      /* 1 */
    assert_const_stride(k, fx_add(k, fx_mul(k, tx, fx_c(k, 2)), fx_c(k, 1)), 2); /* 2 */
    assert_const_stride(k, fx_op(k, IR_OP_SHL, tx, fx_c(k, 2)), 4);              /* tx << 2 */
    assert_const_stride(k, fx_op(k, IR_OP_SUB, fx_c(k, 100), tx), -1);           /* reversed */
    assert_const_stride(k, ir_unary(k, IR_OP_NEG, fx_mul(k, tx, fx_c(k, 3))), -3);
    /* threadIdx.y * blockDim.x + threadIdx.x -> 1 (ty held fixed) */
    assert_const_stride(k, fx_add(k, fx_mul(k, fx_s(k, IR_SYM_TID_Y), fx_s(k, IR_SYM_BDIM_X)), tx),
                        1);
    assert_const_stride(k, fx_s(k, IR_SYM_LANEID), 1);
    assert_const_stride(k, fx_mul(k, fx_s(k, IR_SYM_BID_X), fx_c(k, 7)), 0); /* uniform */
    /* n > 0 ? tx*2 : tx*2 + 5 -> 2 either way */
    int n = fx_param(k, "n", true, 3);
    ir_expr *sel =
        ir_select(k, fx_op(k, IR_OP_GT, fx_v(k, n), fx_c(k, 0)), fx_mul(k, tx, fx_c(k, 2)),
                  fx_add(k, fx_mul(k, tx, fx_c(k, 2)), fx_c(k, 5)));
    assert_const_stride(k, sel, 2);
    ir_kernel_free(k);
}

Test(stride, through_locals_and_loop_variables)
{
    /* i = blockIdx.x*blockDim.x + threadIdx.x; a[i * Size] -> Size
     * for (j = threadIdx.x; j < n; j += 256) b[j * 4] -> 4 */
    ir_kernel *k = fx_kernel("l", 1, 1, 256, 1);
    int size = fx_param(k, "Size", false, 0), n = fx_param(k, "n", false, 0);
    int i = fx_local(k, "i"), j = fx_local(k, "j");
    fx_body(k, fx_assign(k, i, fx_gid_x(k)));
    fx_body(k, fx_loop(k, fx_assign(k, j, fx_s(k, IR_SYM_TID_X)), fx_lt(k, fx_v(k, j), fx_v(k, n)),
                       fx_assign(k, j, fx_add(k, fx_v(k, j), fx_c(k, 256))),
                       fx_simple(k, IR_S_SYNC), 2));
    assert_stride(k, fx_mul(k, fx_v(k, i), fx_v(k, size)), "Size");
    assert_const_stride(k, fx_mul(k, fx_v(k, j), fx_c(k, 4)), 4);
    ir_kernel_free(k);
}

Test(stride, not_affine_cases_say_why)
{
    ir_kernel *k = fx_kernel("n", 1, 1, 32, 1);
    ir_expr *tx = fx_s(k, IR_SYM_TID_X);
    assert_not_affine(k, fx_mul(k, tx, tx), "product of two thread-dependent terms");
    assert_not_affine(k, fx_op(k, IR_OP_DIV, tx, fx_c(k, 2)), "'/' of a thread-dependent value");
    assert_not_affine(k, fx_op(k, IR_OP_MOD, tx, fx_c(k, 32)), "'%'");
    assert_not_affine(k, fx_add(k, tx, ir_unknown(k, "col[j]", -1, (ir_loc){0})),
                      "depends on col[j]");
    assert_not_affine(k, ir_select(k, fx_lt(k, tx, fx_c(k, 4)), tx, fx_c(k, 0)),
                      "condition that may depend on threadIdx.x");
    assert_not_affine(k, fx_op(k, IR_OP_SHL, fx_c(k, 1), tx), "shift by a thread-dependent");
    /* v = tx in one branch and 2*tx in the other */
    int v = fx_local(k, "v");
    fx_body(k, fx_if(k, fx_lt(k, fx_s(k, IR_SYM_BID_X), fx_c(k, 1)), fx_assign(k, v, tx),
                     fx_assign(k, v, fx_mul(k, tx, fx_c(k, 2)))));
    assert_not_affine(k, fx_v(k, v), "'v' is assigned values with different thread strides");
    /* w = w * 2 + tx changes w's stride on every update */
    int w = fx_local(k, "w");
    fx_body(k, fx_assign(k, w, tx));
    fx_body(k, fx_assign(k, w, fx_add(k, fx_mul(k, fx_v(k, w), fx_c(k, 2)), tx)));
    assert_not_affine(k, fx_v(k, w), "'w' changes its thread stride");
    /* p = q; q = p + 1: circular */
    int p = fx_local(k, "p"), q = fx_local(k, "q");
    fx_body(k, fx_assign(k, p, fx_v(k, q)));
    fx_body(k, fx_assign(k, q, fx_add(k, fx_v(k, p), tx)));
    assert_not_affine(k, fx_v(k, p), "in terms of itself");
    ir_kernel_free(k);
}

Test(stride, numbers_for_coefficients)
{
    ir_kernel *k = fx_kernel("e", 2, 1, 128, 4);
    int size = fx_param(k, "Size", false, 0), n = fx_param(k, "n", true, 100);
    int loc = fx_local(k, "i");
    hms_trace_options o = {0};
    int64_t v;
    bool approx;
    /* Size has no value: the tracing default 1024, an estimate */
    cr_assert(hms_stride_eval(k, &o, fx_v(k, size), &v, &approx));
    cr_assert_eq(v, HMS_TRACE_DEFAULT_PARAM);
    cr_assert(approx);
    cr_assert(hms_stride_eval(k, &o, fx_mul(k, fx_v(k, n), fx_s(k, IR_SYM_BDIM_Y)), &v, &approx));
    cr_assert_eq(v, 400); /* n = 100 known, blockDim.y = 4 from the launch */
    cr_assert_not(approx);
    hms_param_value pv = {"Size", 9};
    o.param_values = &pv;
    o.nparam_values = 1;
    /* stride Size floats = 36 bytes > 32: every lane its own sector */
    cr_assert(hms_stride_eval(k, &o, fx_mul(k, fx_v(k, size), fx_c(k, 4)), &v, &approx));
    cr_assert_eq(v, 36);
    cr_assert_not(hms_stride_eval(k, &o, fx_v(k, loc), &v, &approx), "locals have no number");
    cr_assert_not(hms_stride_eval(k, &o, fx_s(k, IR_SYM_BID_X), &v, &approx));
    cr_assert_not(hms_stride_eval(k, &o, fx_op(k, IR_OP_DIV, fx_c(k, 1), fx_c(k, 0)), &v, &approx));
    ir_kernel_free(k);
}
