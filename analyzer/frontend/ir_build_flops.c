/* Floating-point work of a source statement, for the roofline's FP32 and
 * issue bounds (runtime/roofline.h). The IR carries no float values, so the
 * front end counts the float arithmetic operators (+ - * / and their
 * compound assignments) of each expression statement, declaration
 * initialiser and inlined return, and appends an empty BLOCK holding the
 * counts where the statement runs (ir.h "fp_ops"). A multiply feeding an add
 * or subtract (a * b + c, acc += a * b) is one FMA: one instruction, two
 * FLOPs, as nvcc contracts it by default. Calls (expf, sqrtf, __fdividef),
 * conversions and vector types are not counted, so the counts are lower
 * bounds. */
#include "analyzer/frontend/ir_build_impl.h"

static bool is_float(CXType t)
{
    return hms_type_classify(t).family == HMS_TYPE_FLOATING;
}

static bool arith(enum CXBinaryOperatorKind k, bool *add)
{
    *add = k == CXBinaryOperator_Add || k == CXBinaryOperator_Sub ||
           k == CXBinaryOperator_AddAssign || k == CXBinaryOperator_SubAssign;
    return *add || k == CXBinaryOperator_Mul || k == CXBinaryOperator_Div ||
           k == CXBinaryOperator_MulAssign || k == CXBinaryOperator_DivAssign;
}

static bool is_float_mul(CXCursor c)
{
    c = hms_cursor_strip(c);
    return clang_getCursorKind(c) == CXCursor_BinaryOperator &&
           clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Mul &&
           is_float(clang_getCursorType(c));
}

typedef struct {
    unsigned ops, flops;
    int budget; /* cursors left to visit: a pathological expression stays cheap */
} fp_count;

static void count(CXCursor c, fp_count *n, bool fused)
{
    if (--n->budget < 0)
        return;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr || !clang_isExpression(k))
        return;
    cursor_list l;
    irb_children(c, &l);
    bool add = false;
    bool op = (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) &&
              arith(clang_getCursorBinaryOperatorKind(c), &add) && l.n == 2 &&
              is_float(clang_getCursorType(l.v[0]));
    /* An add whose operand is a float multiply absorbs it (one FMA). */
    int absorbed = -1;
    if (op && add)
        absorbed = is_float_mul(l.v[1]) ? 1 : is_float_mul(l.v[0]) ? 0 : -1;
    if (op && !fused) {
        n->ops++;
        n->flops += absorbed >= 0 ? 2 : 1;
    }
    for (unsigned i = 0; i < l.n; i++)
        count(i == (unsigned)absorbed ? hms_cursor_strip(l.v[i]) : l.v[i], n, (int)i == absorbed);
    irb_list_free(&l);
}

void sb_fp_work(irb *b, CXCursor expr)
{
    if (clang_Cursor_isNull(expr))
        return;
    fp_count n = {0, 0, 4096};
    count(expr, &n, false);
    if (!n.ops)
        return;
    ir_stmt *s = ir_stmt_new(b->k, IR_S_BLOCK, irb_loc(b, expr));
    s->fp_ops = n.ops;
    s->fp_flops = n.flops;
    sb_append(b, s);
}
