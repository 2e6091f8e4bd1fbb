/* Kernel discovery (analyzer/frontend/kernel_discovery.h) is written once
 * and both of its users see the same kernels: the IR builder's set of
 * kernels to analyse and --list-kernels' declaration walk. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/cursor_util.h"
#include "analyzer/frontend/kernel_discovery.h"
#include "analyzer/frontend/parse.h"
#include "testsuite/support/run.h"

static void parse(const char *path, hms_tu *t)
{
    hms_frontend_options o;
    memset(&o, 0, sizeof o);
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    cr_assert(hms_parse_file(&o, path, t, &said), "%s does not parse", path);
    hms_diag_sink_free(&said);
}

/* USRs of what the listing walk reports as kernels (and kernel templates). */
typedef struct {
    char *usr[64];
    size_t n;
    size_t templates, device_functions;
} listed;

static void collect(CXCursor c, hms_found_kind kind, void *ctx)
{
    listed *l = ctx;
    if (kind == HMS_FOUND_KERNEL_TEMPLATE)
        l->templates++;
    if (kind == HMS_FOUND_DEVICE_FUNCTION)
        l->device_functions++;
    if ((kind == HMS_FOUND_KERNEL || kind == HMS_FOUND_KERNEL_TEMPLATE) && l->n < 64)
        l->usr[l->n++] = hms_cursor_usr(c);
}

static bool has(const listed *l, CXCursor c)
{
    char *u = hms_cursor_usr(c);
    bool r = false;
    for (size_t i = 0; i < l->n && !r; i++)
        r = !strcmp(l->usr[i], u);
    free(u);
    return r;
}

static void same_kernels(const char *path)
{
    hms_tu t;
    parse(path, &t);
    listed l = {0};
    hms_discover_decls(&t, collect, &l);
    hms_kernel_set s;
    hms_discover_kernels(&t, &s);
    /* Every kernel to analyse is written where the listing shows a kernel. */
    for (size_t i = 0; i < s.n; i++)
        cr_expect(has(&l, s.v[i].pattern), "%s: kernel %zu is not listed", path, i);
    /* Every listed kernel is analysed, a template through its instances;
     * the templates are the same ones. */
    cr_expect_eq(s.ntemplates, l.templates, "%s: templates %zu vs listed %zu", path, s.ntemplates,
                 l.templates);
    for (size_t i = 0; i < l.n; i++) {
        bool seen = false;
        for (size_t k = 0; k < s.n && !seen; k++) {
            char *u = hms_cursor_usr(s.v[k].pattern);
            seen = !strcmp(u, l.usr[i]);
            free(u);
        }
        for (size_t k = 0; k < s.ntemplates && !seen; k++) {
            char *u = hms_cursor_usr(s.templates[k]);
            seen = !strcmp(u, l.usr[i]);
            free(u);
        }
        cr_expect(seen, "%s: listed kernel %s is not discovered", path, l.usr[i]);
        free(l.usr[i]);
    }
    hms_kernel_set_free(&s);
    hms_tu_dispose(&t);
}

static void same_kernels_in(const char *path, const char *name, void *ctx)
{
    (void)name;
    (void)ctx;
    same_kernels(path);
}

Test(kernel_discovery, both_users_see_the_same_kernels_in_every_discovery_file, .timeout = 300)
{
    cr_assert_geq(hms_test_each_cu("kernels/discovery", same_kernels_in, NULL), 10);
}

Test(kernel_discovery, launched_template_instances_are_kernels_to_analyse)
{
    hms_tu t;
    parse(hms_test_path("kernels/discovery/template_blocksize.cu"), &t);
    hms_kernel_set s;
    hms_discover_kernels(&t, &s);
    cr_assert_eq(s.ntemplates, 2);
    /* reduce<512>, <256>, <128> and the two axpy_t instances, each named by
     * a reference to its instance; every one has a body to build. */
    size_t reduce = 0, axpy = 0;
    for (size_t i = 0; i < s.n; i++) {
        char *pattern = hms_cursor_spelling(s.v[i].pattern);
        cr_expect(clang_isCursorDefinition(s.v[i].fn));
        cr_expect(clang_Cursor_getNumTemplateArguments(s.v[i].named) > 0);
        reduce += !strcmp(pattern, "reduce");
        axpy += !strcmp(pattern, "axpy_t");
        free(pattern);
    }
    cr_expect_geq(reduce, 3);
    cr_expect_geq(axpy, 2);
    /* Distinct instances (by the definition's USR): three of reduce. */
    size_t distinct = 0;
    for (size_t i = 0; i < s.n; i++) {
        char *a = hms_cursor_usr(s.v[i].fn), *p = hms_cursor_spelling(s.v[i].pattern);
        bool dup = false;
        for (size_t k = 0; k < i && !dup; k++) {
            char *b = hms_cursor_usr(s.v[k].fn);
            dup = !strcmp(a, b);
            free(b);
        }
        distinct += !dup && !strcmp(p, "reduce");
        free(a);
        free(p);
    }
    cr_expect_eq(distinct, 3);
    hms_kernel_set_free(&s);
    hms_tu_dispose(&t);
}

Test(kernel_discovery, device_functions_and_variables_are_reported_for_the_listing)
{
    hms_tu t;
    parse(hms_test_path("kernels/discovery/device_functions.cu"), &t);
    listed l = {0};
    hms_discover_decls(&t, collect, &l);
    cr_expect_gt(l.device_functions, 0);
    cr_expect_gt(l.n, 0);
    for (size_t i = 0; i < l.n; i++)
        free(l.usr[i]);
    hms_tu_dispose(&t);
}
