/* Fingerprints (fingerprint.h) and source-root paths (source_root.h): what
 * SARIF partialFingerprints, artifact URIs and baselines rest on. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer/report/fingerprint.h"
#include "analyzer/report/source_root.h"
#include "testsuite/support/scratch.h"

TestSuite(fingerprint, .init = hms_scratch_init, .fini = hms_scratch_fini);

static hms_fingerprint fp_of(const char *text, unsigned line, unsigned col, const char *check,
                             const char *kernel)
{
    hms_scratch_write(hms_scratch_at("k.cu"), text);
    hms_source_cache c;
    hms_source_cache_init(&c);
    hms_finding f = {0};
    f.check = check;
    f.line = line;
    f.col = col;
    f.message = (char *)"msg";
    hms_fingerprint fp = hms_finding_fingerprint(&f, hms_scratch_at("k.cu"), kernel, &c);
    hms_source_cache_free(&c);
    return fp;
}

Test(fingerprint, stable_under_moves_and_reindentation_only)
{
    hms_fingerprint a = fp_of("x;\n    out[i * 32] = in[i];\n", 2, 5, "hms-a", "k");
    cr_assert_eq(strlen(a.hex), 16);
    /* Moved down two lines and re-indented with a tab: same column from the
     * first non-blank, same text without blanks. */
    hms_fingerprint b = fp_of("x;\n\n\n\tout[i*32] = in[i];\n", 4, 2, "hms-a", "k");
    cr_assert_str_eq(a.hex, b.hex);
    /* Another check, kernel, column or text: another fingerprint. */
    cr_assert_str_neq(a.hex, fp_of("x;\n    out[i * 32] = in[i];\n", 2, 5, "hms-b", "k").hex);
    cr_assert_str_neq(a.hex, fp_of("x;\n    out[i * 32] = in[i];\n", 2, 5, "hms-a", "k2").hex);
    cr_assert_str_neq(a.hex, fp_of("x;\n    out[i * 32] = in[i];\n", 2, 19, "hms-a", "k").hex);
    cr_assert_str_neq(a.hex, fp_of("x;\n    out[i * 16] = in[i];\n", 2, 5, "hms-a", "k").hex);
    /* Field boundaries count: "ab"+"c" is not "a"+"bc". */
    cr_assert_str_neq(fp_of("y;\n", 1, 1, "ab", "c").hex, fp_of("y;\n", 1, 1, "a", "bc").hex);
}

Test(fingerprint, unreadable_line_falls_back_to_the_message)
{
    hms_finding f = {0};
    f.check = "hms-a";
    f.line = 3;
    f.message = (char *)"one";
    hms_source_cache c;
    hms_source_cache_init(&c);
    hms_fingerprint a = hms_finding_fingerprint(&f, "/nonexistent/k.cu", "k", &c);
    f.message = (char *)"two";
    hms_fingerprint b = hms_finding_fingerprint(&f, "/nonexistent/k.cu", "k", &c);
    cr_assert_str_neq(a.hex, b.hex);
    hms_source_cache_free(&c);
}

Test(fingerprint, paths_relative_to_the_root)
{
    const char *root = hms_scratch_at("");
    char r[PATH_MAX];
    snprintf(r, sizeof r, "%s", root);
    r[strlen(r) - 1] = '\0'; /* no trailing slash */
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/build/../include/k.cuh", r);
    char *rel = hms_path_under_root(r, p);
    cr_assert_str_eq(rel, "include/k.cuh", "'..' resolved even for a missing file");
    free(rel);
    cr_assert_null(hms_path_under_root(r, "/elsewhere/k.cu"));
    snprintf(p, sizeof p, "%s-sibling/k.cu", r);
    cr_assert_null(hms_path_under_root(r, p), "a sibling with the root as prefix is outside");
    rel = hms_path_under_root("/", "/a/b.cu");
    cr_assert_str_eq(rel, "a/b.cu");
    free(rel);
}

Test(fingerprint, default_root_is_the_git_top_level)
{
    cr_assert_eq(mkdir(hms_scratch_at("repo"), 0755), 0);
    cr_assert_eq(mkdir(hms_scratch_at("repo/.git"), 0755), 0);
    cr_assert_eq(mkdir(hms_scratch_at("repo/src"), 0755), 0);
    char cwd[PATH_MAX];
    cr_assert(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(hms_scratch_at("repo/src")), 0);
    hms_file_error err;
    char *root = hms_source_root_find(NULL, &err);
    cr_assert_eq(chdir(cwd), 0);
    char want[PATH_MAX];
    snprintf(want, sizeof want, "%s", hms_scratch_at("repo"));
    cr_assert_str_eq(root, want);
    free(root);
    cr_assert_null(hms_source_root_find(hms_scratch_at("none"), &err));
    cr_assert(strstr(err.file, "none") && strstr(err.message, "--source-root"), "%s", err.message);
}
