/* Bad input that used to be accepted without a word (issue 14), through the
 * real binary: each is a clear message naming the file (and line), exit 2,
 * and a good file given with it keeps its findings where that applies. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testsuite/support/run.h"
#include "testsuite/support/scratch.h"

/* <scratch>/name holding text; returns the path. */
static const char *put(const char *name, const char *text)
{
    return hms_scratch_put(name, text, 0);
}

static const char *good_src = "__global__ void good(float *a) { a[threadIdx.x * 32] = 1.0f; }\n"
                              "int main() { good<<<132, 256>>>(0); return 0; }\n";

TestSuite(input_checks, .init = hms_scratch_init, .fini = hms_scratch_fini);

static void expect_error(const char *const *args, const char *message)
{
    hms_run_result r = hms_run(args);
    cr_assert_eq(r.status, 2, "%s: exit %d, stderr: %s", message, r.status, r.err);
    cr_assert(strstr(r.err, message), "want '%s' in: %s", message, r.err);
    hms_run_free(&r);
}

Test(input_checks, malformed_params_and_launches_are_errors)
{
    const char *good = put("good.cu", good_src);
    expect_error((const char *[]){"--param=n=abc", "--param=good.x=4", good, NULL},
                 "--param 'n=abc': value 'abc' is not a number");
    expect_error((const char *[]){"--param=n=", good, NULL}, "--param 'n='");
    expect_error((const char *[]){"--param==5", good, NULL}, "--param '=5'");
    /* a float value is kept for float parameters; for an integer one it is an error */
    const char *intparam =
        put("intparam.cu", "__global__ void k(float *o, int n) {\n"
                           "  for (int j = 0; j < n; j++) o[threadIdx.x + j] = 1.0f;\n}\n"
                           "int main() { k<<<2, 64>>>(0, 5); return 0; }\n");
    hms_run_result r = hms_run((const char *[]){"--param=n=1e30", intparam, good, NULL});
    cr_assert_eq(r.status, 2, "%s", r.err);
    char want[4400];
    snprintf(
        want, sizeof want,
        "%s: error: --param n=1e+30: 'n' of kernel 'k' is an integer parameter and the value is "
        "not an integer",
        intparam);
    cr_assert(strstr(r.err, want), "%s", r.err);
    cr_assert(strstr(r.out, "[hms-uncoalesced-access]"), "the good file lost: %s", r.out);
    hms_run_free(&r);
    expect_error((const char *[]){"--param=k.n=2.5", intparam, NULL},
                 "--param k.n=2.5: 'n' of kernel 'k' is an integer parameter");
    expect_error((const char *[]){"--launch=:::", good, NULL}, "--launch ':::'");
}

static void expect_config_error(const char *config, const char *message)
{
    char dir[64];
    static int n;
    snprintf(dir, sizeof dir, "cfg%d", n++);
    char cfg[128], src[128];
    snprintf(cfg, sizeof cfg, "%s/.hms-lint", dir);
    snprintf(src, sizeof src, "%s/good.cu", dir);
    put(cfg, config);
    const char *good = put(src, good_src);
    char want[4400];
    snprintf(want, sizeof want, "%s/%s:%s", hms_scratch_dir(), cfg, message);
    expect_error((const char *[]){good, NULL}, want);
}

Test(input_checks, config_values_of_the_wrong_type_name_file_and_line)
{
    /* file:line:col: error: reason, the column of the value (counted by hand) */
    expect_config_error("launch: 5\n", "1:9: error: launch '5'");
    expect_config_error("checks: '*'\nparam: {a: b}\n",
                        "2:9: error: param 'a=b': value 'b' is not a number");
    expect_config_error("fail-on: error\narch: nosuchgpu\n",
                        "2:7: error: arch: nosuchgpu: unknown architecture");
}

/* h100.yaml with one line replaced. */
static const char *arch_with(const char *field_prefix, const char *line)
{
    size_t len;
    char *text = hms_read_file(HMS_SOURCE_DIR "/runtime/arches/h100.yaml", &len);
    cr_assert(text);
    char *at = strstr(text, field_prefix);
    cr_assert(at, "no '%s' in h100.yaml", field_prefix);
    char *eol = strchr(at, '\n');
    char *out = NULL;
    cr_assert(asprintf(&out, "%.*s%s%s", (int)(at - text), text, line, eol) > 0);
    static int n;
    char name[64];
    snprintf(name, sizeof name, "arch%d.yaml", n++);
    const char *p = put(name, out);
    free(out);
    free(text);
    return p;
}

Test(input_checks, absurd_architecture_values_fail_with_the_fields_line)
{
    const char *good = put("good.cu", good_src);
    static const char *const cases[][3] = {
        {"  channels:", "  channels: 2147483647", "dram.channels: 2147483647 is outside"},
        {"  max_warps:", "  max_warps: 2147483647", "multiprocessor.max_warps: 2147483647 is"},
        {"  row_bytes:", "  row_bytes: 1", "dram.row_bytes: 1 is outside"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *arch = arch_with(cases[i][0], cases[i][1]);
        char flag[4200];
        snprintf(flag, sizeof flag, "--arch=%s", arch);
        hms_run_result r = hms_run((const char *[]){flag, good, NULL});
        cr_assert_eq(r.status, 2, "%s", r.err);
        char want[4400];
        snprintf(want, sizeof want, "%s:", arch);
        cr_assert(strstr(r.err, want) && strstr(r.err, cases[i][2]), "stderr: %s", r.err);
        cr_assert(!strstr(r.err, "internal"), "stderr: %s", r.err);
        hms_run_free(&r);
    }
}

Test(input_checks, empty_and_comment_only_files_are_errors)
{
    const char *good = put("good.cu", good_src);
    const char *empty = put("empty.cu", "");
    const char *comments = put("comments.cu", "// nothing here\n/* nor\n here */\n\n");
    hms_run_result r = hms_run((const char *[]){empty, comments, good, NULL});
    cr_assert_eq(r.status, 2);
    char want[4400];
    snprintf(want, sizeof want, "%s: error: no code to analyse", empty);
    cr_assert(strstr(r.err, want), "%s", r.err);
    snprintf(want, sizeof want, "%s: error: no code to analyse", comments);
    cr_assert(strstr(r.err, want), "%s", r.err);
    cr_assert(strstr(r.out, "[hms-uncoalesced-access]"), "the good file lost: %s", r.out);
    hms_run_free(&r);
}

Test(input_checks, build_dir_problems_are_errors)
{
    const char *good = put("good.cu", good_src);
    char missing[4200];
    snprintf(missing, sizeof missing, "%s/no-such-build", hms_scratch_dir());
    expect_error((const char *[]){"-p", missing, good, NULL},
                 "no-such-build: error: No such file or directory (the -p build directory)");
    put("build/compile_commands.json", "garbage\n");
    char build[4200];
    snprintf(build, sizeof build, "%s/build", hms_scratch_dir());
    expect_error((const char *[]){"-p", build, good, NULL},
                 "compile_commands.json:1:7: error: malformed compile database");
    put("build/compile_commands.json", "{\"a\": 1}\n");
    expect_error((const char *[]){"-p", build, good, NULL},
                 "compile_commands.json: error: malformed compile database: not a JSON array");
    /* The same check and message when -p is given without files (the
     * database's sources are listed) and for an entry without "file". */
    put("build/compile_commands.json", "[{\"directory\": \"/x\", \"command\": \"cc a.cu\"}]\n");
    const char *entry_msg = "compile_commands.json: error: malformed compile database: entry 1 "
                            "is not an object with \"directory\" and \"file\" strings";
    expect_error((const char *[]){"-p", build, good, NULL}, entry_msg);
    expect_error((const char *[]){"-p", build, NULL}, entry_msg);
}

/* Setup problems about a file print as file[:line:col]: error: reason. */
Test(input_checks, output_and_baseline_errors_name_the_file_first)
{
    const char *good = put("good.cu", good_src);
    char dir_as_output[4300], want[4400];
    snprintf(dir_as_output, sizeof dir_as_output, "--output=%s", hms_scratch_dir());
    snprintf(want, sizeof want, "%s: error: is a directory\n", hms_scratch_dir());
    expect_error((const char *[]){dir_as_output, good, NULL}, want);
    const char *bad = put("bad-baseline.json", "{\n \"a\": [1,\n oops");
    char flag[4300];
    snprintf(flag, sizeof flag, "--baseline=%s", bad);
    snprintf(want, sizeof want, "%s:3:5: error: not valid JSON: invalid token", bad);
    expect_error((const char *[]){flag, good, NULL}, want);
}

typedef struct {
    const char *path;
    char *got;
} fifo_reader;

static void *read_fifo(void *arg)
{
    fifo_reader *r = arg;
    r->got = hms_read_file(r->path, NULL);
    return NULL;
}

Test(input_checks, output_to_a_fifo_writes_through_it)
{
    const char *good = put("good.cu", good_src);
    char fifo[4200], flag[4300];
    snprintf(fifo, sizeof fifo, "%s/report.fifo", hms_scratch_dir());
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    fifo_reader rd = {fifo, NULL};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, read_fifo, &rd), 0);
    snprintf(flag, sizeof flag, "--output=%s", fifo);
    hms_run_result r = hms_run((const char *[]){"--format=json", flag, good, NULL});
    pthread_join(t, NULL);
    cr_assert_eq(r.status, 1, "%s", r.err);
    struct stat st;
    cr_assert_eq(lstat(fifo, &st), 0);
    cr_assert(S_ISFIFO(st.st_mode), "the FIFO was replaced by a regular file");
    cr_assert(rd.got && strstr(rd.got, "\"hms-uncoalesced-access\""), "read: %s", rd.got);
    free(rd.got);
    hms_run_free(&r);
}

Test(input_checks, output_refuses_a_directory_and_keeps_hard_links)
{
    const char *good = put("good.cu", good_src);
    char flag[4300];
    snprintf(flag, sizeof flag, "--output=%s", hms_scratch_dir());
    expect_error((const char *[]){flag, good, NULL}, "is a directory");

    const char *report = put("report.txt", "old\n");
    char other[4200];
    snprintf(other, sizeof other, "%s/report-link.txt", hms_scratch_dir());
    cr_assert_eq(link(report, other), 0);
    snprintf(flag, sizeof flag, "--output=%s", report);
    hms_run_result r = hms_run((const char *[]){flag, good, NULL});
    cr_assert_eq(r.status, 1, "%s", r.err);
    char *through_link = hms_read_file(other, NULL);
    cr_assert(through_link && strstr(through_link, "[hms-uncoalesced-access]"),
              "the other link still holds: %s", through_link);
    free(through_link);
    hms_run_free(&r);
}
