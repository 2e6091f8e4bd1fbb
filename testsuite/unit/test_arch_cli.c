/* End to end: --list-arches lists the built-ins; --arch is validated (also
 * when given together with --list-arches) with exit status 2 and the file,
 * line and field of a bad description. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testsuite/support/run.h"

static const char *const names[] = {"gt200",   "fermi", "kepler", "k80",
                                    "maxwell", "v100",  "a100",   "h100"};
static const char *const sms[] = {"sm_13", "sm_21", "sm_35", "sm_37",
                                  "sm_52", "sm_70", "sm_80", "sm_90"};

/* The listing line of one architecture (static buffer), or "" if absent. */
static const char *row_of(const char *out, const char *name)
{
    static char row[256];
    for (const char *p = out; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char word[64];
        if (len < sizeof row && sscanf(p + 2, "%63s", word) == 1 && strcmp(word, name) == 0) {
            memcpy(row, p, len);
            row[len] = '\0';
            return row;
        }
        p += len + (nl ? 1 : 0);
    }
    return "";
}

/* kepler.yaml with one line replaced; returns the temp path, *line its number. */
static char *kepler_with(const char *prefix, const char *repl, int *line)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/runtime/arches/kepler.yaml", HMS_SOURCE_DIR);
    char *text = hms_read_file(src, NULL);
    cr_assert(text != NULL);
    char *hit = strstr(text, prefix);
    cr_assert(hit != NULL);
    *line = 1;
    for (const char *p = text; p < hit; p++)
        *line += *p == '\n';
    char *path = strdup("/tmp/hms-arch-cli-XXXXXX.yaml");
    int fd = mkstemps(path, 5);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fwrite(text, 1, (size_t)(hit - text), f);
    fprintf(f, "%s\n%s", repl, strchr(hit, '\n') + 1);
    fclose(f);
    free(text);
    return path;
}

Test(arch_cli, list_arches_lists_all_eight)
{
    hms_run_result r = hms_run((const char *[]){"--list-arches", NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    for (int i = 0; i < 8; i++) {
        const char *row = row_of(r.out, names[i]);
        cr_assert(*row, "%s missing from:\n%s", names[i], r.out);
        cr_assert(strstr(row, sms[i]) != NULL, "row: %s", row);
    }
    /* Default target marked; numbers from the files (Mei & Chu Table III/VI). */
    cr_assert(row_of(r.out, "h100")[0] == '*', "got:\n%s", r.out);
    cr_assert(row_of(r.out, "kepler")[0] == ' ');
    cr_assert(strstr(row_of(r.out, "kepler"), "32 x 8 B") != NULL);
    cr_assert(strstr(row_of(r.out, "kepler"), "1.5 MB") != NULL);
    cr_assert(strstr(row_of(r.out, "kepler"), "288.38 GB/s") != NULL);
    cr_assert(strstr(row_of(r.out, "gt200"), "16 x 4 B") != NULL);
    hms_run_free(&r);
}

Test(arch_cli, explicit_arch_is_marked)
{
    hms_run_result r = hms_run((const char *[]){"--arch=sm_35", "--list-arches", NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert(row_of(r.out, "kepler")[0] == '*', "got:\n%s", r.out);
    cr_assert(row_of(r.out, "h100")[0] == ' ');
    hms_run_free(&r);
}

Test(arch_cli, unknown_arch_fails_with_status_2)
{
    hms_run_result r = hms_run((const char *[]){"--arch=pascal", "--list-arches", NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "hms-lint: error: pascal: unknown architecture (known: gt200/sm_13") ==
                  r.err,
              "got: %s", r.err);
    cr_assert_str_eq(r.out, "");
    hms_run_free(&r);
}

Test(arch_cli, bad_arch_file_reports_line_and_field)
{
    int line = 0;
    char *path = kepler_with("  banks: 32", "  banks: abc", &line);
    char arg[1100], want[1200];
    snprintf(arg, sizeof arg, "--arch=%s", path);
    hms_run_result r = hms_run((const char *[]){arg, "--list-arches", NULL});
    cr_assert_eq(r.status, 2);
    snprintf(want, sizeof want,
             "%s:%d: error: shared.banks: expected a positive integer, got 'abc'\n", path, line);
    cr_assert_str_eq(r.err, want);
    hms_run_free(&r);
    unlink(path);
    free(path);
}

Test(arch_cli, user_arch_file_is_listed_and_marked)
{
    int line = 0;
    char *path = kepler_with("name: kepler", "name: mylab", &line);
    char arg[1100];
    snprintf(arg, sizeof arg, "--arch=%s", path);
    hms_run_result r = hms_run((const char *[]){arg, "--list-arches", NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    const char *row = row_of(r.out, "mylab");
    cr_assert(row[0] == '*', "got:\n%s", r.out);
    cr_assert(strstr(row, path) != NULL, "row: %s", row);
    hms_run_free(&r);
    unlink(path);
    free(path);
}
