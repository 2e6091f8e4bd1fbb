/* Generated but legal CUDA that nests or repeats without end (issue 14):
 * each file ends with exit 0, 1 or 2 and a clear message, and a good file
 * given with it still has its findings printed. Also the isolation of one
 * file's worker: a crash or a time-out loses that file only, and the JSON
 * report records it as failed. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testsuite/support/run.h"

static char tmpdir[] = "/tmp/hms-pathological-XXXXXX";
static char good[4200];

static void remove_dir(void)
{
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
}

static FILE *create(const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    return f;
}

static void make_dir(void)
{
    cr_assert(mkdtemp(tmpdir) != NULL);
    FILE *f = create("good.cu", good, sizeof good);
    /* a strided store: hms-uncoalesced-access warns on it */
    fputs("__global__ void good(float *a) { a[threadIdx.x * 32] = 1.0f; }\n"
          "int main() { good<<<132, 256>>>(0); return 0; }\n",
          f);
    fclose(f);
}

TestSuite(pathological, .init = make_dir, .fini = remove_dir, .timeout = 300);

typedef enum { SUM, INDEX, ELSE_IF, PARENS, LOOPS } shape;

/* One kernel whose body is the shape at size n. */
static const char *generate(shape s, int n)
{
    static char path[4200];
    char name[64];
    snprintf(name, sizeof name, "shape%d_%d.cu", (int)s, n);
    FILE *f = create(name, path, sizeof path);
    fputs("__global__ void deep(float *o, const float *in, int n) {\n"
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n",
          f);
    switch (s) {
    case SUM:
        fputs("  o[i] = in[i]", f);
        for (int k = 1; k < n; k++)
            fputs(" + in[i]", f);
        fputs(";\n", f);
        break;
    case INDEX:
        fputs("  o[i] = in[i", f);
        for (int k = 1; k < n; k++)
            fputs(" + i", f);
        fputs("];\n", f);
        break;
    case ELSE_IF:
        fputs("  if (n == 0) o[i] = in[i];\n", f);
        for (int k = 1; k < n; k++)
            fprintf(f, "  else if (n == %d) o[i] = in[i + %d];\n", k, k);
        break;
    case PARENS:
        fputs("  o[i] = ", f);
        for (int k = 0; k < n; k++)
            fputc('(', f);
        fputs("in[i]", f);
        for (int k = 0; k < n; k++)
            fputc(')', f);
        fputs(";\n", f);
        break;
    case LOOPS:
        for (int k = 0; k < n; k++)
            fprintf(f, "  for (int j%d = 0; j%d < 2; j%d++)\n", k, k, k);
        fputs("    o[i] += in[i];\n", f);
        break;
    }
    fputs("}\nint main() { deep<<<4, 128>>>(0, 0, 8); return 0; }\n", f);
    fclose(f);
    return path;
}

/* The shape's file and the good one: a verdict for both, the good file's finding printed. */
static void lint_with_good(const char *path, const char *extra_flag, const char *timeout)
{
    const char *args[] = {"--format=text", timeout, path, good, "--", extra_flag, NULL};
    if (!extra_flag)
        args[4] = NULL;
    hms_run_result r = hms_run(args);
    cr_assert(r.status == 0 || r.status == 1 || r.status == 2, "exit %d, stderr: %.2000s", r.status,
              r.err);
    cr_assert(strstr(r.out, "good.cu:1:") && strstr(r.out, "[hms-uncoalesced-access]"),
              "the good file's finding is missing; stdout: %.2000s\nstderr: %.2000s", r.out, r.err);
    /* the generated file has its own verdict: findings, or a message naming it */
    const char *base = strrchr(path, '/') + 1;
    cr_assert(strstr(r.out, base) || strstr(r.err, base), "nothing said about %s: %.2000s", base,
              r.err);
    cr_assert(!strstr(r.err, "internal error"), "stderr: %.2000s", r.err);
    hms_run_free(&r);
}

Test(pathological, six_thousand_term_sum)
{
    lint_with_good(generate(SUM, 6000), NULL, "--timeout=60");
}

Test(pathological, twenty_thousand_term_sum)
{
    lint_with_good(generate(SUM, 20000), NULL, "--timeout=60");
}

Test(pathological, six_thousand_term_index)
{
    lint_with_good(generate(INDEX, 6000), NULL, "--timeout=60");
}

Test(pathological, five_thousand_branch_else_if_chain)
{
    lint_with_good(generate(ELSE_IF, 5000), NULL, "--timeout=60");
}

Test(pathological, ten_thousand_nested_parentheses)
{
    lint_with_good(generate(PARENS, 10000), "-fbracket-depth=20000", "--timeout=60");
}

Test(pathological, thirty_thousand_nested_parentheses)
{
    lint_with_good(generate(PARENS, 30000), "-fbracket-depth=40000", "--timeout=60");
}

Test(pathological, thousand_nested_loops)
{
    lint_with_good(generate(LOOPS, 1000), NULL, "--timeout=60");
}

Test(pathological, four_thousand_nested_loops)
{
    lint_with_good(generate(LOOPS, 4000), NULL, "--timeout=60");
}

/* clang's own name lookup walks every enclosing scope: a 20000-arm chain
 * takes it minutes. The per-file limit ends it with a message; the good
 * file is unaffected. */
Test(pathological, twenty_thousand_branch_chain_ends_at_the_timeout)
{
    const char *deep = generate(ELSE_IF, 20000);
    hms_run_result r = hms_run((const char *[]){"--timeout=15", deep, good, NULL});
    cr_assert_eq(r.status, 2, "stderr: %.2000s", r.err);
    cr_assert(strstr(r.out, "good.cu:1:") && strstr(r.out, "[hms-uncoalesced-access]"),
              "stdout: %.2000s", r.out);
    cr_assert(strstr(r.err, "error: analysis did not finish within 15 s (--timeout)"),
              "stderr: %.2000s", r.err);
    hms_run_free(&r);
}

static void expect_failed_in_json(const char *json, const char *path, const char *reason)
{
    json_error_t e;
    json_t *root = json_loads(json, 0, &e);
    cr_assert(root, "not JSON: %s", e.text);
    json_t *files = json_object_get(root, "files");
    bool seen_failed = false, seen_good = false;
    size_t i;
    json_t *f;
    json_array_foreach(files, i, f)
    {
        const char *p = json_string_value(json_object_get(f, "path"));
        json_t *errors = json_object_get(f, "errors");
        if (p && strcmp(p, path) == 0) {
            cr_assert(json_array_size(errors) == 1);
            cr_assert(strstr(json_string_value(json_array_get(errors, 0)), reason));
            seen_failed = true;
        } else if (p && strcmp(p, good) == 0) {
            cr_assert(json_array_size(json_object_get(f, "kernels")) == 1);
            seen_good = true;
        }
    }
    cr_assert(seen_failed && seen_good, "%s", json);
    json_decref(root);
}

Test(pathological, a_crashing_worker_loses_only_its_file)
{
    const char *bad = generate(SUM, 10);
    setenv("HMS_LINT_TEST_CRASH", bad, 1);
    hms_run_result r = hms_run((const char *[]){bad, good, NULL});
    char want[4400];
    snprintf(want, sizeof want,
             "%s: error: internal error while analysing (signal 11); please report", bad);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, want), "stderr: %.2000s", r.err);
    cr_assert(strstr(r.out, "good.cu:1:") && strstr(r.out, "[hms-uncoalesced-access]"),
              "stdout: %.2000s", r.out);
    hms_run_free(&r);

    /* the same under -j 2 and in the JSON report */
    r = hms_run((const char *[]){"-j", "2", "--format=json", good, bad, NULL});
    cr_assert_eq(r.status, 2);
    expect_failed_in_json(r.out, bad, "internal error while analysing (signal 11)");
    hms_run_free(&r);
    unsetenv("HMS_LINT_TEST_CRASH");
}
