/* The front end's one type classifier (hms_type_classify in
 * analyzer/frontend/cursor_util.c): integer or floating, width and
 * signedness, through typedefs and enums; anything else is "other". */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/frontend/cursor_util.h"
#include "analyzer/frontend/parse.h"

static const char src[] = "typedef unsigned short u16;\n"
                          "enum small : unsigned char { A, B };\n"
                          "enum plain { C, D };\n"
                          "bool v_bool;\n"
                          "char v_char;\n"
                          "u16 v_u16;\n"
                          "int v_int;\n"
                          "unsigned long long v_ull;\n"
                          "enum small v_small;\n"
                          "enum plain v_plain;\n"
                          "float v_float;\n"
                          "double v_double;\n"
                          "float *v_ptr;\n"
                          "float3 v_vec;\n";

typedef struct {
    const char *name;
    hms_type_class got;
    bool found;
} lookup;

static enum CXChildVisitResult find_var(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    lookup *l = d;
    if (clang_getCursorKind(c) == CXCursor_VarDecl) {
        char *n = hms_cursor_spelling(c);
        if (!strcmp(n, l->name)) {
            l->got = hms_type_classify(clang_getCursorType(c));
            l->found = true;
        }
        free(n);
    }
    return CXChildVisit_Continue;
}

static hms_type_class classify(const hms_tu *t, const char *name)
{
    lookup l = {name, {HMS_TYPE_OTHER, 0, false}, false};
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), find_var, &l);
    cr_assert(l.found, "no variable %s", name);
    return l.got;
}

static void expect(const hms_tu *t, const char *name, hms_type_family f, unsigned bits, bool uns)
{
    hms_type_class c = classify(t, name);
    cr_expect_eq(c.family, f, "%s: family %d", name, c.family);
    cr_expect_eq(c.bits, bits, "%s: %u bits", name, c.bits);
    cr_expect_eq(c.is_unsigned, uns, "%s: unsigned %d", name, c.is_unsigned);
}

Test(type_classify, integers_floats_and_others)
{
    char path[] = "/tmp/hms-types-XXXXXX.cu";
    int fd = mkstemps(path, 3);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, src, sizeof src - 1), (ssize_t)(sizeof src - 1));
    close(fd);
    hms_frontend_options o;
    memset(&o, 0, sizeof o);
    hms_tu t;
    cr_assert(hms_parse_file(&o, path, &t, NULL));
    expect(&t, "v_bool", HMS_TYPE_INTEGER, 1, true);
    expect(&t, "v_char", HMS_TYPE_INTEGER, 8, false);
    expect(&t, "v_u16", HMS_TYPE_INTEGER, 16, true);
    expect(&t, "v_int", HMS_TYPE_INTEGER, 32, false);
    expect(&t, "v_ull", HMS_TYPE_INTEGER, 64, true);
    expect(&t, "v_small", HMS_TYPE_INTEGER, 8, true);
    expect(&t, "v_plain", HMS_TYPE_INTEGER, 32, true); /* C, D: clang picks unsigned int */
    expect(&t, "v_float", HMS_TYPE_FLOATING, 32, false);
    expect(&t, "v_double", HMS_TYPE_FLOATING, 64, false);
    cr_expect_eq(classify(&t, "v_ptr").family, HMS_TYPE_OTHER);
    cr_expect_eq(classify(&t, "v_vec").family, HMS_TYPE_OTHER);
    hms_tu_dispose(&t);
    unlink(path);
}
