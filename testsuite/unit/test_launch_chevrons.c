/* Spaced launch chevrons (analyzer/frontend/launch_chevrons.h): `k<< <g, b>> >(...)`
 * is joined to `k<<<g, b>>>(...)` at the same offsets; comments, literals,
 * `operator<< <T>` and nested templates closed with `> >` are left alone. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/frontend/asm_operands.h"
#include "analyzer/frontend/launch_chevrons.h"

static void expect_join(const char *in, const char *want, bool changed)
{
    char buf[256];
    strcpy(buf, in);
    cr_expect_eq(hms_join_spaced_chevrons(buf, strlen(buf)), changed, "%s", in);
    cr_expect_str_eq(buf, want);
    cr_expect_eq(strlen(buf), strlen(in), "offsets kept");
}

Test(launch_chevrons, spaced_launches_are_joined_in_place)
{
    expect_join("k << < g, b >> > (x);", "k <<<  g, b >>>  (x);", true);
    expect_join("k<< <g, b>> >(x);", "k<<< g, b>>> (x);", true);
    expect_join("k<<\t\t<g>>  >(x); q<< <1, 2>> >();", "k<<<  g>>>  (x); q<<< 1, 2>>> ();", true);
    /* a launch closed without spaces ends the open launch */
    expect_join("k<< <g, b>>>(x); v<vector<int>> > y;", "k<<< g, b>>>(x); v<vector<int>> > y;",
                true);
}

Test(launch_chevrons, other_text_is_left_alone)
{
    expect_join("k<<<g, b>>>(x);", "k<<<g, b>>>(x);", false);
    expect_join("std::vector<std::vector<int>> > v;", "std::vector<std::vector<int>> > v;", false);
    expect_join("operator<< <int>(log, 3);", "operator<< <int>(log, 3);", false);
    expect_join("// k<< <g>> >()\n", "// k<< <g>> >()\n", false);
    expect_join("/* k<< <g>> >() */", "/* k<< <g>> >() */", false);
    expect_join("s = \"<< <\"; c = '<';", "s = \"<< <\"; c = '<';", false);
    expect_join("x <<= 1; y << <= z;", "x <<= 1; y << <= z;", false);
}

/* Asm operands without a comma (analyzer/frontend/asm_operands.h), the
 * other rewrite of nvcc's dialect: only between operands, same length. */
static void expect_operands(const char *in, const char *want, bool changed)
{
    char buf[256];
    strcpy(buf, in);
    cr_expect_eq(hms_join_asm_operands(buf, strlen(buf)), changed, "%s", in);
    cr_expect_str_eq(buf, want);
}

Test(asm_operands, adjacent_operands_get_a_comma_in_place)
{
    expect_operands("asm volatile(\"st.u8 [%1], %0;\" ::\"r\"(v) \"l\"(p) : \"memory\");",
                    "asm volatile(\"st.u8 [%1], %0;\" ::\"r\"(v),\"l\"(p) : \"memory\");", true);
    expect_operands("__asm__ __volatile__(\"x\" : \"=r\"(a)  \"=r\"(b) : \"r\"(f(c)) \"r\"(d));",
                    "__asm__ __volatile__(\"x\" : \"=r\"(a), \"=r\"(b) : \"r\"(f(c)),\"r\"(d));",
                    true);
    expect_operands("asm(\"x\" :: \"r\"(a) [b] \"r\"(c));", "asm(\"x\" :: \"r\"(a),[b] \"r\"(c));",
                    true);
}

Test(asm_operands, everything_else_is_left_alone)
{
    const char *same[] = {
        "asm volatile(\"st [%1], %0;\" :: \"r\"(v), \"l\"(p) : \"memory\");", /* commas */
        "asm(STR(x) \"y\" : \"=r\"(a));",               /* the template part: strings joined */
        "asm(\"x\" : : \"r\"(a) : \"cc\" \"memory\");", /* clobbers */
        "asm(\"x\" :: \"r\"(a)\n\"r\"(b));",            /* a line break: no blank to replace */
        "f(a) \"s\"; // asm(\"x\" :: \"r\"(a) \"r\"(b))",
        "const char *s = \"asm(\\\"x\\\" :: \\\"r\\\"(a) \\\"r\\\"(b))\";",
        "int plasma = g(x) [0];",
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        expect_operands(same[i], same[i], false);
}
