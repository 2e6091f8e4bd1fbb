/* The lint pipeline end to end through the built binary: bad inputs, -j
 * ordering, --output, SARIF, NOLINT, --baseline, --fail-on, exit statuses.
 * The kernel below reads and writes with a 32-float stride between lanes, so
 * every request touches 32 sectors where 4 would do: the tool must report
 * something there whatever the exact wording of the checks. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testsuite/support/json_schema.h"
#include "testsuite/support/run.h"

static const char strided_cu[] = "// hms-lint: launch grid(4) block(256)\n"
                                 "__global__ void strided(float *out, const float *in)\n"
                                 "{\n"
                                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                 "    out[i * 32] = in[i * 32];\n"
                                 "}\n";

static const char copy_cu[] = "// hms-lint: launch grid(4) block(256)\n"
                              "__global__ void copy(float *out, const float *in)\n"
                              "{\n"
                              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                              "    out[i] = in[i];\n"
                              "}\n";

static char dir[PATH_MAX];

static const char *at(const char *rel)
{
    static char buf[4][PATH_MAX + 64];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%s", dir, rel);
    return b;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot create %s", path);
    fputs(text, f);
    fclose(f);
}

static void setup(void)
{
    char tmpl[] = "/tmp/hms-lint-e2e-XXXXXX";
    cr_assert(mkdtemp(tmpl));
    cr_assert(realpath(tmpl, dir));
    write_file(at("strided.cu"), strided_cu);
    write_file(at("copy.cu"), copy_cu);
}

static void teardown(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(lint, .init = setup, .fini = teardown, .timeout = 300);

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    cr_assert(j, "not JSON (%s):\n%s", e.text, text);
    return j;
}

static json_t *file_entry(json_t *report, size_t i)
{
    return json_array_get(json_object_get(report, "files"), i);
}

static size_t count_diagnostics(json_t *file)
{
    size_t n = 0, i;
    json_t *k;
    json_array_foreach(json_object_get(file, "kernels"), i, k) n +=
        json_array_size(json_object_get(k, "diagnostics"));
    return n;
}

static json_t *first_diagnostic(json_t *file)
{
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(file, "kernels"), i, k)
    {
        json_t *d = json_object_get(k, "diagnostics");
        if (json_array_size(d))
            return json_array_get(d, 0);
    }
    return NULL;
}

Test(lint, missing_file_is_an_error_and_the_others_are_still_analysed)
{
    hms_run_result r =
        hms_run((const char *[]){"--format=json", at("missing.cu"), at("copy.cu"), NULL});
    cr_assert_eq(r.status, 2, "stderr: %s", r.err);
    char want[PATH_MAX + 128];
    snprintf(want, sizeof want, "%s/missing.cu: error: ", dir);
    cr_assert(strstr(r.err, want) != NULL, "stderr: %s", r.err);
    json_t *j = parse(r.out);
    json_t *f0 = file_entry(j, 0), *f1 = file_entry(j, 1);
    cr_assert_eq(json_array_size(json_object_get(f0, "errors")), 1);
    cr_assert_eq(json_array_size(json_object_get(f1, "errors")), 0);
    cr_assert_eq(json_array_size(json_object_get(f1, "kernels")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(
                         json_array_get(json_object_get(f1, "kernels"), 0), "name")),
                     "copy");
    json_decref(j);
    hms_run_free(&r);
}

Test(lint, parallel_runs_report_in_input_order)
{
    const char *files[] = {at("strided.cu"), at("copy.cu"), at("missing.cu")};
    hms_run_result one =
        hms_run((const char *[]){"--format=json", "-j", "1", files[0], files[1], files[2], NULL});
    hms_run_result two =
        hms_run((const char *[]){"--format=json", "-j", "3", files[0], files[1], files[2], NULL});
    cr_assert_eq(one.status, two.status);
    cr_assert_str_eq(one.out, two.out, "-j 3 must print exactly what -j 1 prints");
    cr_assert_str_eq(one.err, two.err, "stderr in input order too");
    json_t *j = parse(two.out);
    for (size_t i = 0; i < 3; i++)
        cr_assert_str_eq(json_string_value(json_object_get(file_entry(j, i), "path")), files[i]);
    json_decref(j);
    hms_run_free(&one);
    hms_run_free(&two);
}

Test(lint, output_file_instead_of_stdout)
{
    char opt[PATH_MAX + 64];
    snprintf(opt, sizeof opt, "--output=%s", at("report.json"));
    hms_run_result r = hms_run((const char *[]){"--format=json", opt, at("copy.cu"), NULL});
    cr_assert(r.status == 0 || r.status == 1, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out, "", "nothing on stdout with --output");
    char *text = hms_read_file(at("report.json"), NULL);
    cr_assert(text);
    json_t *j = parse(text);
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "tool"), "name")),
                     "hms-lint");
    json_decref(j);
    free(text);
    hms_run_free(&r);
}

Test(lint, strided_access_is_reported_and_fails_the_run)
{
    hms_run_result r = hms_run((const char *[]){"--format=json", at("strided.cu"), NULL});
    json_t *j = parse(r.out);
    json_t *d = first_diagnostic(file_entry(j, 0));
    cr_assert(d, "no finding for a 32-float lane stride:\n%s", r.out);
    /* The default --fail-on is warning. */
    bool warning = false;
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(file_entry(j, 0), "kernels"), i, k)
    {
        size_t n;
        json_t *x;
        json_array_foreach(json_object_get(k, "diagnostics"), n, x) warning |=
            strcmp(json_string_value(json_object_get(x, "severity")), "note") != 0;
    }
    cr_assert_eq(r.status, warning ? 1 : 0, "stderr: %s", r.err);
    json_decref(j);
    hms_run_free(&r);

    r = hms_run((const char *[]){"--fail-on=never", at("strided.cu"), NULL});
    cr_assert_eq(r.status, 0, "--fail-on=never: %s", r.err);
    hms_run_free(&r);
    r = hms_run((const char *[]){"--fail-on=note", at("strided.cu"), NULL});
    cr_assert_eq(r.status, 1, "--fail-on=note with findings: %s", r.err);
    cr_assert(strstr(r.err, " generated.\n") != NULL, "clang-tidy style summary: %s", r.err);
    cr_assert(strchr(r.out, '\033') == NULL, "no colour when not a terminal");
    hms_run_free(&r);
}

Test(lint, nolint_on_the_line_suppresses_it)
{
    hms_run_result r = hms_run((const char *[]){"--format=json", at("strided.cu"), NULL});
    json_t *j = parse(r.out);
    json_t *d = first_diagnostic(file_entry(j, 0));
    cr_assert(d, "no finding to suppress:\n%s", r.out);
    json_int_t line = json_integer_value(json_object_get(d, "line"));
    char check[128];
    snprintf(check, sizeof check, "%s", json_string_value(json_object_get(d, "check")));
    json_decref(j);
    hms_run_free(&r);

    /* Append "// NOLINT(<check>)" to that line. */
    char *text = strdup(strided_cu), *out = malloc(strlen(strided_cu) + 256);
    char *o = out;
    json_int_t l = 1;
    for (char *p = text; *p; p++) {
        if (*p == '\n' && l++ == line)
            o += sprintf(o, " // NOLINT(%s)", check);
        *o++ = *p;
    }
    *o = '\0';
    write_file(at("strided.cu"), out);
    free(text);
    free(out);

    r = hms_run((const char *[]){"--format=json", at("strided.cu"), NULL});
    j = parse(r.out);
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(file_entry(j, 0), "kernels"), i, k)
    {
        size_t n;
        json_t *x;
        json_array_foreach(json_object_get(k, "diagnostics"), n, x)
        {
            bool same = json_integer_value(json_object_get(x, "line")) == line &&
                        !strcmp(json_string_value(json_object_get(x, "check")), check);
            cr_assert(!same, "%s at line %lld survived its NOLINT", check, (long long)line);
        }
    }
    json_decref(j);
    hms_run_free(&r);
}

Test(lint, baseline_of_the_same_run_leaves_nothing)
{
    char opt[PATH_MAX + 64];
    snprintf(opt, sizeof opt, "--output=%s", at("base.json"));
    hms_run_result r = hms_run((const char *[]){"--format=json", opt, at("strided.cu"), NULL});
    hms_run_free(&r);
    snprintf(opt, sizeof opt, "--baseline=%s", at("base.json"));
    r = hms_run((const char *[]){"--format=json", "--fail-on=note", opt, at("strided.cu"), NULL});
    cr_assert_eq(r.status, 0, "everything is in the baseline: %s", r.err);
    json_t *j = parse(r.out);
    cr_assert_eq(count_diagnostics(file_entry(j, 0)), 0);
    json_decref(j);
    hms_run_free(&r);

    write_file(at("bad.json"), "{ not json");
    snprintf(opt, sizeof opt, "--baseline=%s", at("bad.json"));
    r = hms_run((const char *[]){opt, at("strided.cu"), NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "bad.json:1:5: error: not valid JSON") != NULL, "%s", r.err);
    hms_run_free(&r);
}

Test(lint, sarif_of_a_real_run_is_valid)
{
    if (access(HMS_SARIF_SCHEMA, R_OK) != 0)
        cr_skip_test("SARIF schema not found at %s; validation skipped", HMS_SARIF_SCHEMA);
    hms_run_result r =
        hms_run((const char *[]){"--format=sarif", at("strided.cu"), at("missing.cu"), NULL});
    json_t *doc = parse(r.out);
    json_error_t e;
    json_t *schema = json_load_file(HMS_SARIF_SCHEMA, 0, &e);
    cr_assert(schema, "%s", e.text);
    char err[1024];
    cr_assert(hms_json_schema_validate(schema, doc, err, sizeof err), "invalid SARIF: %s", err);
    json_decref(schema);
    json_decref(doc);
    hms_run_free(&r);
}

Test(lint, unknown_arch_is_an_input_error)
{
    hms_run_result r = hms_run((const char *[]){"--arch=sm_999", at("copy.cu"), NULL});
    cr_assert_eq(r.status, 2, "stderr: %s", r.err);
    cr_assert(strstr(r.err, "sm_999") != NULL, "%s", r.err);
    hms_run_free(&r);
}

/* Whether `word` occurs on the line that starts at `line`. */
static bool on_line(const char *line, const char *word)
{
    const char *eol = strchr(line, '\n');
    const char *hit = strstr(line, word);
    return hit && (!eol || hit < eol);
}

Test(lint, list_checks_shows_severity_state_and_summary)
{
    hms_run_result r =
        hms_run((const char *[]){"--list-checks", "--checks=-*,hms-placement", NULL});
    cr_assert_eq(r.status, 0);
    const char *line = strstr(r.out, "  hms-placement ");
    cr_assert(line, "%s", r.out);
    cr_assert(on_line(line, " warning ") && on_line(line, " enabled "), "%s", r.out);
    cr_assert(on_line(line, "Huang & Li"), "the summary: %s", r.out);
    line = strstr(r.out, "  hms-shared-bank-conflict ");
    cr_assert(line && on_line(line, " disabled "), "%s", r.out);
    hms_run_free(&r);
}
