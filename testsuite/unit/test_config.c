/* .hms-lint: found upward from a source file, parsed with libyaml, merged
 * under the command line; malformed files name the file and line. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer/cli/config.h"
#include "runtime/arch.h"
#include "testsuite/support/run.h"

static char root[PATH_MAX];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot create %s", path);
    fputs(text, f);
    fclose(f);
}

static const char *at(const char *rel)
{
    static char buf[PATH_MAX + 64];
    snprintf(buf, sizeof buf, "%s/%s", root, rel);
    return buf;
}

static void setup(void)
{
    char tmpl[] = "/tmp/hms-config-XXXXXX";
    cr_assert(mkdtemp(tmpl));
    cr_assert(realpath(tmpl, root));
    cr_assert_eq(mkdir(at("sub"), 0755), 0);
    cr_assert_eq(mkdir(at("sub/deeper"), 0755), 0);
    write_file(at("sub/deeper/k.cu"), "__global__ void k(float *a) { a[threadIdx.x] = 0; }\n");
}

static void teardown(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(config, .init = setup, .fini = teardown);

Test(config, found_upward_nearest_wins)
{
    char want[PATH_MAX + 64];
    write_file(at(".hms-lint"), "arch: v100\n");
    char *p = hms_config_find(at("sub/deeper/k.cu"));
    snprintf(want, sizeof want, "%s/.hms-lint", root);
    cr_assert(p);
    cr_assert_str_eq(p, want);
    free(p);
    write_file(at("sub/.hms-lint"), "arch: kepler\n");
    p = hms_config_find(at("sub/deeper/k.cu"));
    snprintf(want, sizeof want, "%s/sub/.hms-lint", root);
    cr_assert_str_eq(p, want, "the nearest file wins");
    free(p);
    /* A directory as the start point works too. */
    p = hms_config_find(at("sub/deeper"));
    cr_assert_str_eq(p, want);
    free(p);
}

Test(config, none_found)
{
    /* Nothing in the temporary tree; only meaningful if no ancestor has one. */
    if (access("/tmp/.hms-lint", F_OK) == 0 || access("/.hms-lint", F_OK) == 0)
        cr_skip_test("an ancestor of /tmp has a .hms-lint; cannot test the empty case");
    cr_assert_null(hms_config_find(at("sub/deeper/k.cu")));
}

Test(config, every_setting)
{
    hms_config c;
    hms_file_error err;
    const char *y = "# project settings\n"
                    "checks:\n"
                    "  - '-*'\n"
                    "  - 'hms-shared-*'\n"
                    "arch: sm_70\n"
                    "fail-on: error\n"
                    "launch: ['transpose:grid=64,64:block=16,16', 'reduce:grid=8:block=256']\n"
                    "param:\n"
                    "  transpose.width: 1024\n"
                    "  N: 7\n";
    cr_assert(hms_config_parse(y, strlen(y), "x/.hms-lint", &c, &err), "%s", err.message);
    cr_assert_str_eq(c.checks, "-*,hms-shared-*");
    cr_assert_str_eq(c.arch, "sm_70");
    cr_assert(c.has_fail_on);
    cr_assert_eq(c.fail_on, HMS_FAIL_ERROR);
    cr_assert_eq(c.nlaunches, 2);
    cr_assert_str_eq(c.launches[0], "transpose:grid=64,64:block=16,16");
    cr_assert_str_eq(c.launches[1], "reduce:grid=8:block=256");
    cr_assert_eq(c.nparams, 2);
    cr_assert_str_eq(c.params[0], "transpose.width=1024");
    cr_assert_str_eq(c.params[1], "N=7");
    hms_config_free(&c);
}

Test(config, empty_and_null_settings)
{
    hms_config c;
    hms_file_error err;
    cr_assert(hms_config_parse("", 0, "e", &c, &err), "%s", err.message);
    cr_assert_null(c.checks);
    hms_config_free(&c);
    const char *y = "checks: 'hms-*'\nlaunch:\n";
    cr_assert(hms_config_parse(y, strlen(y), "e", &c, &err), "%s", err.message);
    cr_assert_str_eq(c.checks, "hms-*");
    cr_assert_eq(c.nlaunches, 0);
    hms_config_free(&c);
}

/* The error comes back in parts (file, line, column, reason), which the CLI
 * prints as "file:line:col: error: reason". */
static void expect_error(const char *yaml, unsigned line, unsigned col, const char *want)
{
    hms_config c;
    hms_file_error e;
    cr_assert(!hms_config_parse(yaml, strlen(yaml), "proj/.hms-lint", &c, &e), "accepted: %s",
              yaml);
    cr_assert_str_eq(e.file, "proj/.hms-lint");
    cr_assert_eq(e.line, line, "%s: line %u, want %u", e.message, e.line, line);
    cr_assert_eq(e.col, col, "%s: column %u, want %u", e.message, e.col, col);
    cr_assert(strstr(e.message, want) == e.message, "error \"%s\" is not \"%s...\"", e.message,
              want);
}

Test(config, malformed_files_name_the_line_and_column)
{
    /* Lines and columns counted by hand in each snippet. */
    expect_error("arch: v100\nchecks: [unclosed\n", 3, 1, "did not find expected");
    expect_error("arch: v100\n\nfrobnicate: 1\n", 3, 1, "unknown setting 'frobnicate'");
    expect_error("checks: '*'\nfail-on: sometimes\n", 2, 10,
                 "'fail-on' must be one of error, warning, note, never");
    expect_error("arch:\n  - a\n  - b\n", 2, 3, "'arch' must be a non-empty string");
    expect_error("launch:\n  - k:grid=1:block=32\n  - {a: b}\n", 3, 5,
                 "'launch' entries must be strings");
    expect_error("- just\n- a list\n", 1, 1, "expected a mapping");
    expect_error("arch: v100\n  bad: indent\n", 2, 6, "mapping values are not allowed");
}

Test(config, load_reports_unreadable_file)
{
    hms_config c;
    hms_file_error e;
    cr_assert(!hms_config_load(at("nope/.hms-lint"), &c, &e));
    /* About the whole file: no line, as clang says "file: error: ...". */
    cr_assert(strstr(e.file, "nope/.hms-lint") != NULL, "%s", e.file);
    cr_assert_eq(e.line, 0);
    cr_assert_str_eq(e.message, "cannot read: No such file or directory");
}

static hms_options cli_defaults(void)
{
    hms_options o;
    memset(&o, 0, sizeof o);
    o.arch = HMS_ARCH_DEFAULT;
    o.fail_on = HMS_FAIL_WARNING;
    o.jobs = 1;
    o.color = -1;
    return o;
}

Test(config, merge_command_line_wins)
{
    hms_config c;
    hms_file_error err;
    const char *y = "checks: '-*,hms-shared-*'\narch: kepler\nfail-on: note\n"
                    "launch: ['k:grid=1:block=32', 'j:grid=2:block=64']\n"
                    "param: ['k.n=10', 'k.m=20']\n";
    cr_assert(hms_config_parse(y, strlen(y), "c", &c, &err), "%s", err.message);

    /* Nothing on the command line: the config's values. */
    hms_options o = cli_defaults();
    hms_merged_options m;
    hms_config_merge(&c, &o, &m);
    cr_assert_str_eq(m.opts.checks, "-*,hms-shared-*");
    cr_assert_str_eq(m.opts.arch, "kepler");
    cr_assert_eq(m.opts.fail_on, HMS_FAIL_NOTE);
    cr_assert_eq(m.opts.launches.n, 2);
    cr_assert_eq(m.opts.params.n, 2);
    hms_merged_options_free(&m);

    /* Command line given: its arch and fail-on, its checks after the config's
     * (later globs win), its launch/param replacing the same kernel/name. */
    o.checks = "hms-placement";
    o.arch = "v100";
    o.fail_on = HMS_FAIL_ERROR;
    hms_strvec_push(&o.launches, "k:grid=9:block=128");
    hms_strvec_push(&o.params, "k.m=99");
    hms_config_merge(&c, &o, &m);
    cr_assert_str_eq(m.opts.checks, "-*,hms-shared-*,hms-placement");
    cr_assert_str_eq(m.opts.arch, "v100");
    cr_assert_eq(m.opts.fail_on, HMS_FAIL_ERROR);
    cr_assert_eq(m.opts.launches.n, 2);
    cr_assert_str_eq(m.opts.launches.v[0], "j:grid=2:block=64");
    cr_assert_str_eq(m.opts.launches.v[1], "k:grid=9:block=128");
    cr_assert_eq(m.opts.params.n, 2);
    cr_assert_str_eq(m.opts.params.v[0], "k.n=10");
    cr_assert_str_eq(m.opts.params.v[1], "k.m=99");
    hms_merged_options_free(&m);

    /* No config at all: the command line unchanged. */
    hms_config_merge(NULL, &o, &m);
    cr_assert_str_eq(m.opts.checks, "hms-placement");
    cr_assert_eq(m.opts.launches.n, 1);
    hms_merged_options_free(&m);
    hms_options_free(&o);
    hms_config_free(&c);
}

Test(config, malformed_config_fails_the_run_with_exit_2)
{
    write_file(at("sub/.hms-lint"), "checks: '*'\nfail-on: [\n");
    char file[PATH_MAX + 64];
    snprintf(file, sizeof file, "%s", at("sub/deeper/k.cu"));
    hms_run_result r = hms_run((const char *[]){file, NULL});
    cr_assert_eq(r.status, 2, "stderr: %s", r.err);
    char want[PATH_MAX + 64];
    /* The compiler's form: file:line:col: error: reason. */
    snprintf(want, sizeof want, "%s/sub/.hms-lint:3:1: error: did not find expected", root);
    cr_assert(strstr(r.err, want) != NULL, "want \"%s\" in: %s", want, r.err);
    hms_run_free(&r);
}

/* A header filter that is not a regular expression fails the file, said
 * on stderr at the file (it used to reach only the JSON report's errors). */
Test(config, bad_header_filter_is_said_at_the_file)
{
    write_file(at("sub/.hms-lint"), "HeaderFilterRegex: '('\n");
    char file[PATH_MAX + 64];
    snprintf(file, sizeof file, "%s", at("sub/deeper/k.cu"));
    hms_run_result r = hms_run((const char *[]){"--quiet", file, NULL});
    cr_assert_eq(r.status, 2, "stderr: %s", r.err);
    char want[PATH_MAX + 128];
    snprintf(want, sizeof want, "%s: error: header filter '(' is not a valid POSIX extended regex",
             file);
    cr_assert(hms_line_starts_with(r.err, want), "want \"%s\" in: %s", want, r.err);
    hms_run_free(&r);
}

Test(config, list_checks_follows_the_config_of_the_current_directory)
{
    write_file(at(".hms-lint"), "checks: '-*,hms-shared-bank-conflict'\n");
    char cwd[PATH_MAX];
    cr_assert(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(root), 0);
    hms_run_result r = hms_run((const char *[]){"--list-checks", NULL});
    cr_assert_eq(chdir(cwd), 0);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert(strstr(r.out, "hms-shared-bank-conflict") != NULL);
    /* The one enabled check and a disabled one. */
    const char *line = strstr(r.out, "  hms-shared-bank-conflict ");
    cr_assert(line && strstr(line, "enabled") && strstr(line, "enabled") < strchr(line, '\n'), "%s",
              r.out);
    line = strstr(r.out, "  hms-placement ");
    cr_assert(line && strstr(line, "disabled") && strstr(line, "disabled") < strchr(line, '\n'),
              "%s", r.out);
    hms_run_free(&r);
}
