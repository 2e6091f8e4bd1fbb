/* The command line: help, version, usage errors, exit statuses. */
#include <criterion/criterion.h>
#include <string.h>

#include "testsuite/support/run.h"

Test(cli, version_prints_name_and_version)
{
    hms_run_result r = hms_run((const char *[]){"--version", NULL});
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "hms-lint version ") != NULL, "got: %s", r.out);
    hms_run_free(&r);
}

Test(cli, help_lists_options_like_clang_tidy)
{
    hms_run_result r = hms_run((const char *[]){"--help", NULL});
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "USAGE: hms-lint [options] <file.cu>...") != NULL);
    cr_assert(strstr(r.out, "--checks=") != NULL);
    cr_assert(strstr(r.out, "-p <build-dir>") != NULL);
    hms_run_free(&r);
}

Test(cli, no_input_is_a_usage_error)
{
    hms_run_result r = hms_run((const char *[]){NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "hms-lint: error: no input files") != NULL, "got: %s", r.err);
    hms_run_free(&r);
}

Test(cli, unknown_option_is_a_usage_error)
{
    hms_run_result r = hms_run((const char *[]){"--frobnicate", "x.cu", NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "unknown option '--frobnicate'") != NULL, "got: %s", r.err);
    hms_run_free(&r);
}

Test(cli, bad_format_value_is_rejected)
{
    hms_run_result r = hms_run((const char *[]){"--format=xml", "x.cu", NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "unknown --format 'xml'") != NULL, "got: %s", r.err);
    hms_run_free(&r);
}
