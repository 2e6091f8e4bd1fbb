/* NOLINT, NOLINT(globs), NOLINTNEXTLINE, NOLINTBEGIN/END with clang-tidy's
 * semantics, on a temporary source file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/report/suppress.h"

static const char source[] =
    /*  1 */ "x = a[i]; // NOLINT\n"
             /*  2 */ "x = a[i]; // NOLINT(hms-shared-*)\n"
             /*  3 */ "// NOLINTNEXTLINE(hms-placement, hms-uncoalesced-access)\n"
             /*  4 */ "x = a[i];\n"
             /*  5 */ "x = a[i]; // NOLINT()\n"
             /*  6 */ "x = a[i]; // NOLINTFOO\n"
             /*  7 */ "// NOLINTBEGIN(hms-dram-*)\n"
             /*  8 */ "x = a[i];\n"
             /*  9 */ "// NOLINTEND(hms-dram-*)\n"
             /* 10 */ "x = a[i];\n"
             /* 11 */ "x = a[i]; // NOLINT(hms-a\n"
             /* 12 */ "x = a[i]; // NOLINTNEXTLINE\n"
             /* 13 */ "x = a[i]; /* NOLINT(hms-placement) */ // NOLINT(hms-dram-locality)\n"
             /* 14 */ "x = a[i]; // nolint\n";

static char *path;
static hms_source_cache cache;

static void setup(void)
{
    path = strdup("/tmp/hms-suppress-XXXXXX.cu");
    int fd = mkstemps(path, 3);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, source, strlen(source)), (ssize_t)strlen(source));
    close(fd);
    hms_source_cache_init(&cache);
}

static void teardown(void)
{
    hms_source_cache_free(&cache);
    unlink(path);
    free(path);
}

static bool sup(unsigned line, const char *check)
{
    return hms_nolint_suppresses(&cache, path, line, check);
}

TestSuite(suppress, .init = setup, .fini = teardown);

Test(suppress, bare_nolint_suppresses_every_check_on_its_line)
{
    cr_assert(sup(1, "hms-placement"));
    cr_assert(sup(1, "hms-shared-bank-conflict"));
    cr_assert(!sup(2, "hms-placement"), "NOLINT covers its own line only");
}

Test(suppress, check_list_with_globs)
{
    cr_assert(sup(2, "hms-shared-bank-conflict"));
    cr_assert(sup(2, "hms-shared-reuse"));
    cr_assert(!sup(2, "hms-placement"));
}

Test(suppress, nolintnextline_covers_the_next_line_only)
{
    cr_assert(sup(4, "hms-placement"));
    cr_assert(sup(4, "hms-uncoalesced-access"), "spaces after commas are allowed");
    cr_assert(!sup(4, "hms-shared-bank-conflict"));
    cr_assert(!sup(3, "hms-placement"), "not its own line");
    cr_assert(!sup(12, "hms-placement"), "NOLINTNEXTLINE does not cover its own line");
    cr_assert(sup(13, "hms-memory-bound"), "line 12's NOLINTNEXTLINE covers line 13");
}

Test(suppress, empty_list_and_lookalikes_suppress_nothing)
{
    cr_assert(!sup(5, "hms-placement"), "NOLINT() names no check");
    cr_assert(!sup(6, "hms-placement"), "NOLINTFOO is not a directive");
    cr_assert(!sup(14, "hms-placement"), "directives are case-sensitive");
}

Test(suppress, unclosed_list_acts_as_bare_nolint)
{
    cr_assert(sup(11, "hms-placement"));
}

Test(suppress, several_directives_on_a_line)
{
    cr_assert(sup(13, "hms-placement"));
    cr_assert(sup(13, "hms-dram-locality"));
}

Test(suppress, begin_end_region)
{
    cr_assert(sup(8, "hms-dram-locality"));
    cr_assert(!sup(8, "hms-placement"));
    cr_assert(!sup(10, "hms-dram-locality"), "region closed at line 9");
}

Test(suppress, unreadable_file_suppresses_nothing)
{
    cr_assert(!hms_nolint_suppresses(&cache, "/nonexistent/k.cu", 1, "hms-placement"));
}

Test(suppress, filtering_a_report)
{
    hms_report r = {"hms-lint", "1", "h100", calloc(1, sizeof(hms_file_report)), 1};
    r.files[0].path = strdup(path);
    r.files[0].nkernels = 1;
    r.files[0].kernels = calloc(1, sizeof(hms_kernel_report));
    hms_kernel_report *k = &r.files[0].kernels[0];
    k->name = strdup("k");
    hms_kernel_add_finding(k, "hms-placement", HMS_SEV_WARNING, path, 1, 5, "one"); /* dropped */
    hms_kernel_add_finding(k, "hms-placement", HMS_SEV_WARNING, path, 2, 5, "two"); /* kept */
    hms_kernel_add_finding(k, "hms-shared-reuse", HMS_SEV_WARNING, path, 2, 5,
                           "three"); /* dropped */
    hms_finding *f = hms_kernel_add_finding(k, "hms-dram-locality", HMS_SEV_WARNING, path, 8, 1,
                                            "four"); /* dropped, with notes and fix-its freed */
    hms_finding_add_note(f, path, 8, 1, "note");
    hms_finding_add_fixit(f, path, 8, 1, 8, 2, "y");
    hms_kernel_add_finding(k, "hms-dram-locality", HMS_SEV_WARNING, path, 10, 1, "five"); /* kept */
    cr_assert_eq(hms_suppress_nolint(&r, &cache), 3);
    cr_assert_eq(k->ndiagnostics, 2);
    cr_assert_str_eq(k->diagnostics[0].message, "two");
    cr_assert_str_eq(k->diagnostics[1].message, "five");
    hms_report_free(&r);
}
