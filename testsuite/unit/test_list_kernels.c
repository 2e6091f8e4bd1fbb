/* --list-kernels end to end: every .cu under testsuite/kernels/discovery/
 * carries its expectations inline (see testsuite/support/expect.h):
 *   EXPECT-KERNEL / SHARED / CONSTANT / TEXTURE / SURFACE / LAUNCH: <text>
 *       some "<file>:<line>:<col>: <kind> ..." line of stdout matches <text>
 *   EXPECT-SUMMARY: <text>   the per-file summary line contains <text>
 *   EXPECT-STDERR: <text>    stderr contains <text> (the file's name in it
 *                            stands for the path hms-lint was given)
 *   EXPECT-STATUS: <n>       exit status (default 0)
 * The expected values in those files were worked out by hand. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testsuite/support/expect.h"
#include "testsuite/support/run.h"

static const char *kind_word(const char *tag)
{
    static const char *const map[][2] = {
        {"KERNEL", "kernel"},   {"SHARED", "shared"},   {"CONSTANT", "constant"},
        {"TEXTURE", "texture"}, {"SURFACE", "surface"}, {"LAUNCH", "launch"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (!strcmp(tag, map[i][0]))
            return map[i][1];
    return NULL;
}

/* The expectation with the file's base name replaced by the path used. */
static char *with_path(const char *text, const char *base, const char *path)
{
    const char *at = strstr(text, base);
    if (!at)
        return strdup(text);
    char *r = NULL;
    if (asprintf(&r, "%.*s%s%s", (int)(at - text), text, path, at + strlen(base)) < 0)
        return NULL;
    return r;
}

/* Checks one file's expectations; returns how many there were. */
static size_t check_file(const char *path, const char *base)
{
    hms_expect_list ex;
    cr_assert(hms_expect_collect(path, &ex), "cannot read %s", path);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", path, NULL});
    int want_status = 0;
    for (size_t i = 0; i < ex.n; i++) {
        const hms_expect *e = &ex.v[i];
        const char *word = kind_word(e->tag);
        if (word) {
            char *hit = hms_expect_find_line(r.out, word, e->text);
            cr_expect(hit != NULL, "%s:%u: no '%s' line matches \"%s\"\n--- output:\n%s", base,
                      e->line, word, e->text, r.out);
            free(hit);
        } else if (!strcmp(e->tag, "SUMMARY")) {
            char *hit = hms_expect_find_line(r.out, NULL, e->text);
            cr_expect(hit != NULL, "%s:%u: summary \"%s\" not found\n--- output:\n%s", base,
                      e->line, e->text, r.out);
            free(hit);
        } else if (!strcmp(e->tag, "STDERR")) {
            char *want = with_path(e->text, base, path);
            cr_expect(want && strstr(r.err, want), "%s:%u: stderr lacks \"%s\"\n--- stderr:\n%s",
                      base, e->line, want, r.err);
            free(want);
        } else if (!strcmp(e->tag, "STATUS")) {
            want_status = atoi(e->text);
        } else {
            cr_expect(0, "%s:%u: unknown directive EXPECT-%s", base, e->line, e->tag);
        }
    }
    cr_expect_eq(r.status, want_status, "%s: exit status %d, expected %d\n--- stderr:\n%s", base,
                 r.status, want_status, r.err);
    size_t n = ex.n;
    hms_run_free(&r);
    hms_expect_list_free(&ex);
    return n;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_cu(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 3 && !strcmp(d->d_name + n - 3, ".cu");
}

Test(list_kernels, every_discovery_kernel_meets_its_expectations, .timeout = 300)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", hms_test_path("kernels/discovery"));
    struct dirent **names;
    int n = scandir(dir, &names, is_cu, by_name);
    cr_assert(n >= 10, "expected at least ten discovery kernels in %s, found %d", dir, n);
    for (int i = 0; i < n; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        size_t checked = check_file(path, names[i]->d_name);
        cr_expect(checked >= 3, "%s has only %zu expectations", names[i]->d_name, checked);
        free(names[i]);
    }
    free(names);
}

Test(list_kernels, several_files_are_listed_in_order_with_one_summary_each)
{
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s", hms_test_path("kernels/discovery/saxpy_1d.cu"));
    snprintf(b, sizeof b, "%s", hms_test_path("kernels/discovery/transpose_2d.cu"));
    hms_run_result r = hms_run((const char *[]){"--list-kernels", a, b, NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    const char *sa = strstr(r.out, "saxpy_1d.cu: 2 kernels");
    const char *sb = strstr(r.out, "transpose_2d.cu: 2 kernels");
    cr_assert(sa && sb && sa < sb, "got:\n%s", r.out);
    /* Source order inside a file: kernel before its shared array, launches last. */
    const char *k = strstr(r.out, "kernel transpose_tiled");
    const char *s = strstr(r.out, "shared tile float[32][32]");
    const char *l = strstr(r.out, "launch transpose_tiled");
    cr_assert(k && s && l && k < s && s < l, "got:\n%s", r.out);
    hms_run_free(&r);
}

Test(list_kernels, the_quickstart_example_parses_cleanly)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/transpose.cu", HMS_SOURCE_DIR);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", path, NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_str_empty(r.err);
    /* N / TILE = 4096 / 32 = 128 in each dimension, block(TILE, TILE). */
    cr_assert(strstr(r.out, "launch transpose_padded line=50 grid=(128,128,1) block=(32,32,1) "
                            "shared=0 args=d_out, d_in, N=4096"),
              "got:\n%s", r.out);
    hms_run_free(&r);
}

Test(expect, matcher_needs_pieces_in_order_at_word_boundaries)
{
    const char *line = "k line=3 grid=(1,1,1) block=(32,1,1) shared=0";
    cr_assert(hms_expect_line_matches(line, "k grid=(1,1,1) shared=0"));
    cr_assert(hms_expect_line_matches(line, "k line=3"));
    cr_assert_not(hms_expect_line_matches(line, "k line=31"));
    cr_assert_not(hms_expect_line_matches(line, "k shared=0 grid=(1,1,1)"));
    cr_assert_not(hms_expect_line_matches("k2 line=3", "k line=3"));
    cr_assert(hms_expect_line_matches("tile float[32][33] in=f", "tile float[32][33]"));
}

Test(expect, collects_tags_texts_and_lines)
{
    char path[] = "/tmp/hms-expect-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("int x;\n// EXPECT-KERNEL: k line=2  \nfoo(); // EXPECT-NO-LAUNCH: k\n// EXPECT-: bad\n"
          "// EXPECT-STATUS:2\n",
          f);
    fclose(f);
    hms_expect_list l;
    cr_assert(hms_expect_collect(path, &l));
    unlink(path);
    cr_assert_eq(l.n, 3);
    cr_assert_str_eq(l.v[0].tag, "KERNEL");
    cr_assert_str_eq(l.v[0].text, "k line=2");
    cr_assert_eq(l.v[0].line, 2);
    cr_assert_str_eq(l.v[1].tag, "NO-LAUNCH");
    cr_assert_eq(l.v[1].line, 3);
    cr_assert_str_eq(l.v[2].text, "2");
    cr_assert_eq(l.v[2].line, 5);
    hms_expect_list_free(&l);
}

Test(list_kernels, a_file_without_kernels_lists_nothing)
{
    char path[] = "/tmp/hms-nokernels-XXXXXX.cu";
    int fd = mkstemps(path, 3);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("// host code only\nint main() { return 0; }\n", f);
    fclose(f);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", path, NULL});
    unlink(path);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    char want[256];
    snprintf(want, sizeof want, "%s: 0 kernels, 0 variables, 0 launch sites\n", path);
    cr_assert_str_eq(r.out, want);
    hms_run_free(&r);
}
