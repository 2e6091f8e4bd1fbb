/* hms_int_expr_text: integer constant expressions in source text, as C++
 * evaluates them, and the refusals (names, floats, overflow, division by
 * zero) that keep a launch's template argument unresolved instead of wrong. */
#include <criterion/criterion.h>

#include "analyzer/frontend/int_expr_text.h"

static long long eval_ok(const char *s)
{
    long long v = -12345;
    cr_assert(hms_int_expr_text(s, &v), "'%s' should evaluate", s);
    return v;
}

Test(int_expr_text, precedence_and_parentheses)
{
    cr_assert_eq(eval_ok("(64 / (8 * 4))"), 2);
    cr_assert_eq(eval_ok("16 * 2 * 2"), 64);
    cr_assert_eq(eval_ok("1 + 2 * 3"), 7);
    cr_assert_eq(eval_ok("(1 + 2) * 3"), 9);
    cr_assert_eq(eval_ok("7 - 2 - 1"), 4);
    cr_assert_eq(eval_ok("100 / 10 / 5"), 2);
    cr_assert_eq(eval_ok("17 % 5"), 2);
    cr_assert_eq(eval_ok("1 << 4 + 1"), 32);
    cr_assert_eq(eval_ok("256 >> 2"), 64);
    cr_assert_eq(eval_ok("-3 + 5"), 2);
    cr_assert_eq(eval_ok("~0 & 0xff"), 255);
    cr_assert_eq(eval_ok("6 & 3 | 8 ^ 1"), 11);
}

Test(int_expr_text, literals_comparisons_and_conditionals)
{
    cr_assert_eq(eval_ok("0x20"), 32);
    cr_assert_eq(eval_ok("010"), 8);
    cr_assert_eq(eval_ok("128u"), 128);
    cr_assert_eq(eval_ok("4UL * 2"), 8);
    cr_assert_eq(eval_ok("true"), 1);
    cr_assert_eq(eval_ok("(3 > 2) && (2 >= 2) && !(1 == 2) && 1 != 2"), 1);
    cr_assert_eq(eval_ok("3 < 2 || 2 <= 1"), 0);
    cr_assert_eq(eval_ok("(64 > 32) ? 4 : 8"), 4);
    cr_assert_eq(eval_ok("0 ? 1 : 0 ? 2 : 3"), 3);
}

Test(int_expr_text, refusals)
{
    long long v = 99;
    const char *bad[] = {"kHeadDim / 2",
                         "sizeof(half)",
                         "1.5 * 2",
                         "4 / 0",
                         "4 % 0",
                         "9223372036854775807 + 1",
                         "3037000500 * 3037000500",
                         "1 << 70",
                         "(1 + 2",
                         "1 +",
                         "",
                         "half",
                         "2f"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_assert(!hms_int_expr_text(bad[i], &v), "'%s' should be refused", bad[i]);
    cr_assert_eq(v, 99, "a refused text leaves the output alone");
}
