/* A `return` in an inlined __device__ function under a condition the
 * analysis cannot know (passes/trace/trace_exec.c return_flags): on one side only,
 * the lanes go on through the rest of the function, inexact there, and
 * what follows the call stays exact; on both sides the function returns
 * either way and nothing is marked inexact
 * (kernels/realworld/inlined_returns.cu). */
#include <criterion/criterion.h>
#include <string.h>

#include "testsuite/support/analyze_file.h"
#include "testsuite/support/run.h"

static const hms_access_metrics *site_at(const hms_kernel_report *r, unsigned line, const char *arr)
{
    for (size_t i = 0; i < r->naccesses; i++)
        if (r->accesses[i].line == line && !strcmp(r->accesses[i].array, arr))
            return &r->accesses[i];
    return NULL;
}

Test(inlined_returns, early_return_on_one_side_goes_on_in_the_helper_only)
{
    const char *args[] = {"--arch=h100", NULL};
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path("kernels/realworld/inlined_returns.cu"), args, &f),
              "%s", f.error);
    const hms_kernel_report *r = hms_af_report(&f, "rankKeys");
    cr_assert_not_null(r);
    const hms_access_metrics *search = site_at(r, 18, "sorted");
    cr_assert_not_null(search, "the search's load");
    cr_expect_gt(search->requests, 0, "the lanes that may not have returned go on searching");
    cr_expect_not(search->exact, "whether they returned is not known");
    const hms_access_metrics *store = site_at(r, 42, "ranks");
    cr_assert_not_null(store);
    cr_expect_eq(store->requests, 64 * 4, "every warp stores after the call");
    cr_expect(store->exact, "the call's end reconverges the lanes");
    bool noted = false;
    for (size_t d = 0; d < r->ndiagnostics; d++)
        noted |= r->diagnostics[d].message &&
                 strstr(r->diagnostics[d].message, "return from an inlined function") != NULL;
    cr_expect(noted);
    hms_analyzed_file_free(&f);
}

Test(inlined_returns, returns_on_both_sides_keep_what_follows_exact)
{
    const char *args[] = {"--arch=h100", NULL};
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path("kernels/realworld/inlined_returns.cu"), args, &f),
              "%s", f.error);
    const hms_kernel_report *r = hms_af_report(&f, "gradientBytes");
    cr_assert_not_null(r);
    for (size_t i = 0; i < r->naccesses; i++) {
        cr_expect(r->accesses[i].exact, "line %u '%s'", r->accesses[i].line, r->accesses[i].array);
        cr_expect_eq(r->accesses[i].requests, 64 * 4, "line %u", r->accesses[i].line);
    }
    for (size_t d = 0; d < r->ndiagnostics; d++)
        cr_expect(!r->diagnostics[d].message ||
                      !strstr(r->diagnostics[d].message, "return from an inlined function"),
                  "%s", r->diagnostics[d].message);
    hms_analyzed_file_free(&f);
}
