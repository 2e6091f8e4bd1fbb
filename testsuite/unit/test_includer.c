/* Files meant to be #included by another (analyzer/frontend/includer.h):
 * found by a textual scan around the file, parsed in the includer's
 * translation unit only when the file alone lacks declarations, with only
 * the file's own diagnostics and kernels; a file that needs no includer, or
 * has none, is parsed alone as before. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/frontend/includer.h"
#include "analyzer/frontend/parse.h"
#include "testsuite/support/run.h"

static bool parse(const char *rel, hms_tu *t, char **msgs)
{
    hms_frontend_options o;
    memset(&o, 0, sizeof o);
    size_t len = 0;
    FILE *err = open_memstream(msgs, &len);
    hms_diag_sink said;
    hms_diag_sink_init(&said, err); /* each record printed as it comes */
    bool ok = hms_parse_file(&o, hms_test_path(rel), t, &said);
    hms_diag_sink_free(&said);
    fclose(err);
    return ok;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

Test(includer, the_file_that_includes_it_is_found)
{
    char *found[HMS_MAX_INCLUDERS];
    size_t n = hms_find_includers(hms_test_path("kernels/included/log_kernel.cu"), NULL, found);
    cr_assert_eq(n, 1);
    cr_expect(ends_with(found[0], "/kernels/included/main.cu"), "%s", found[0]);
    free(found[0]);
    /* nothing includes main.cu */
    cr_expect_eq(hms_find_includers(hms_test_path("kernels/included/main.cu"), NULL, found), 0);
}

Test(includer, a_file_lacking_context_is_parsed_in_its_includer)
{
    hms_tu t;
    char *msgs = NULL;
    cr_assert(parse("kernels/included/rows_kernel.cu", &t, &msgs));
    cr_expect(t.includer && ends_with(t.includer, "/kernels/included/main.cu"));
    cr_expect_eq(t.errors, 0, "%s", msgs);
    cr_expect_eq(t.tolerated_errors, 0, "%s", msgs);
    cr_expect_not(hms_tu_failed(&t));
    cr_expect(strstr(msgs, "rows_kernel.cu: note: analysed as #included by ") != NULL, "%s", msgs);
    cr_expect(strstr(msgs, "unknown type") == NULL, "%s", msgs);
    hms_tu_dispose(&t);
    free(msgs);
}

Test(includer, a_file_with_its_own_declarations_is_parsed_alone)
{
    hms_tu t;
    char *msgs = NULL;
    cr_assert(parse("kernels/included/main.cu", &t, &msgs));
    cr_expect_null(t.includer);
    cr_expect_eq(t.errors, 0, "%s", msgs);
    hms_tu_dispose(&t);
    free(msgs);
    /* lacking a declaration, with no file including it: alone, as before */
    cr_assert(parse("kernels/discovery/kernel_param_unknown_type.cu", &t, &msgs));
    cr_expect_null(t.includer);
    cr_expect_gt(t.tolerated_errors, 0, "%s", msgs);
    hms_tu_dispose(&t);
    free(msgs);
}

Test(includer, another_file_of_the_same_name_is_not_the_includer)
{
    char *found[HMS_MAX_INCLUDERS];
    size_t n =
        hms_find_includers(hms_test_path("kernels/included/orphan/scale_kernel.cu"), NULL, found);
    bool decoy = false; /* found by its #include line: only the parse can tell */
    for (size_t i = 0; i < n; i++) {
        decoy |= ends_with(found[i], "/kernels/included/decoy.cu");
        free(found[i]);
    }
    cr_expect(decoy);
    hms_tu t;
    char *msgs = NULL;
    cr_assert(parse("kernels/included/orphan/scale_kernel.cu", &t, &msgs));
    cr_expect_null(t.includer, "%s", t.includer);
    cr_expect_gt(t.tolerated_errors, 0, "%s", msgs);
    hms_tu_dispose(&t);
    free(msgs);
}

/* A file of kernels that compiles alone but launches none of them (Rodinia
 * nw's needle_kernel.cu): parsed in the unit of the file that includes it
 * and launches them, with a note saying why. */
Test(includer, a_file_without_launches_is_parsed_in_the_includer_that_launches_it)
{
    hms_tu t;
    char *msgs = NULL;
    cr_assert(parse("kernels/included/wavefront/align_kernel.cu", &t, &msgs));
    cr_expect(t.includer && ends_with(t.includer, "/kernels/included/wavefront/align.cu"));
    cr_expect(t.includer_launches);
    cr_expect_eq(t.errors, 0, "%s", msgs);
    cr_expect(strstr(msgs, "alone, no launch of its kernels is found") != NULL, "%s", msgs);
    hms_tu_dispose(&t);
    free(msgs);
}

/* A file two includes away from its declarations (Rodinia myocyte: main.cu
 * -> work.cu -> kernel.cu): work.cu's unit lacks them too, main.cu's has
 * them. work.cu itself, whose launch does not parse without `real`, is
 * parsed in main.cu's unit for its launch. */
Test(includer, the_includer_of_an_includer_is_followed)
{
    hms_tu t;
    char *msgs = NULL;
    cr_assert(parse("kernels/included/chain/step_kernel.cu", &t, &msgs));
    cr_expect(t.includer && ends_with(t.includer, "/kernels/included/chain/main.cu"), "%s",
              t.includer ? t.includer : "(none)");
    cr_expect_not(t.includer_launches);
    cr_expect_eq(t.errors, 0, "%s", msgs);
    cr_expect_eq(t.tolerated_errors, 0, "%s", msgs);
    hms_tu_dispose(&t);
    free(msgs);
    msgs = NULL;
    cr_assert(parse("kernels/included/chain/work.cu", &t, &msgs));
    cr_expect(t.includer && ends_with(t.includer, "/kernels/included/chain/main.cu"), "%s", msgs);
    cr_expect(t.includer_launches);
    hms_tu_dispose(&t);
    free(msgs);
}
