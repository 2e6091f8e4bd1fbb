/* --baseline: findings already in an earlier JSON report are dropped when
 * file, check and message match and either the line or the line's text
 * does; each baseline entry absorbs one finding. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/report/baseline.h"
#include "analyzer/report/report_json.h"
#include "testsuite/support/sample_report.h"

static char *src, *json_path;

static char *temp_with(const char *suffix, const char *text)
{
    char *p = NULL;
    cr_assert(asprintf(&p, "/tmp/hms-baseline-XXXXXX%s", suffix) > 0);
    int fd = mkstemps(p, (int)strlen(suffix));
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return p;
}

static void setup(void)
{
    src = temp_with(".cu", "void k() {\n"  /* 1 */
                           "  x = a[i];\n" /* 2 */
                           "  y = b[j];\n" /* 3 */
                           "  z = c[k];\n" /* 4 */
                           "}\n");
    /* The baseline: what an earlier run reported, "source_line" included. */
    hms_report r;
    hms_one_kernel_report(&r, src, "k");
    hms_kernel_report *k = &r.files[0].kernels[0];
    hms_kernel_add_finding(k, "hms-placement", HMS_SEV_WARNING, src, 2, 3, "move a");
    hms_kernel_add_finding(k, "hms-uncoalesced-access", HMS_SEV_WARNING, src, 3, 3, "stride b");
    hms_source_cache cache;
    hms_source_cache_init(&cache);
    hms_json_options jo = {.sources = &cache};
    json_path = strdup("/tmp/hms-baseline-XXXXXX.json");
    int fd = mkstemps(json_path, 5);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    cr_assert(hms_write_json(&r, f, &jo));
    fclose(f);
    hms_source_cache_free(&cache);
    hms_report_free(&r);
}

static void teardown(void)
{
    unlink(src);
    unlink(json_path);
    free(src);
    free(json_path);
}

TestSuite(baseline, .init = setup, .fini = teardown);

Test(baseline, known_findings_dropped_new_ones_kept)
{
    hms_file_error err;
    hms_baseline *b = hms_baseline_load(json_path, &err);
    cr_assert(b, "%s", err.message);
    cr_assert_eq(hms_baseline_size(b), 2);

    /* The source gained two lines at the top: "y = b[j];" moved from 3 to 5. */
    FILE *f = fopen(src, "w");
    fputs("// header\n// more\nvoid k() {\n  x = a[i];\n  y = b[j];\n  z = c[k];\n}\n", f);
    fclose(f);
    hms_report r;
    hms_one_kernel_report(&r, src, "k");
    hms_kernel_report *k = &r.files[0].kernels[0];
    hms_kernel_add_finding(k, "hms-placement", HMS_SEV_WARNING, src, 2, 3,
                           "move a"); /* same line: dropped */
    hms_kernel_add_finding(k, "hms-uncoalesced-access", HMS_SEV_WARNING, src, 5, 3,
                           "stride b"); /* moved, same text: dropped */
    hms_kernel_add_finding(k, "hms-placement", HMS_SEV_WARNING, src, 6, 3,
                           "move c"); /* new: kept */
    hms_kernel_add_finding(k, "hms-placement", HMS_SEV_WARNING, src, 2, 3,
                           "move a"); /* second copy: kept */
    hms_kernel_add_finding(k, "hms-uncoalesced-access", HMS_SEV_WARNING, src, 5, 3,
                           "stride b, 2x worse"); /* changed message: kept */
    hms_source_cache cache;
    hms_source_cache_init(&cache);
    cr_assert_eq(hms_baseline_filter(&r, b, &cache), 2);
    cr_assert_eq(k->ndiagnostics, 3);
    cr_assert_str_eq(k->diagnostics[0].message, "move c");
    cr_assert_str_eq(k->diagnostics[1].message, "move a");
    cr_assert_str_eq(k->diagnostics[2].message, "stride b, 2x worse");
    hms_source_cache_free(&cache);
    hms_report_free(&r);
    hms_baseline_free(b);
}

Test(baseline, other_file_or_check_is_not_covered)
{
    hms_file_error err;
    hms_baseline *b = hms_baseline_load(json_path, &err);
    cr_assert(b, "%s", err.message);
    hms_report r;
    hms_one_kernel_report(&r, "/tmp/some-other-file.cu", "k");
    hms_kernel_report *k = &r.files[0].kernels[0];
    hms_kernel_add_finding(k, "hms-placement", HMS_SEV_WARNING, "/tmp/some-other-file.cu", 2, 3,
                           "move a");
    hms_kernel_add_finding(k, "hms-dram-locality", HMS_SEV_WARNING, src, 2, 3, "move a");
    hms_source_cache cache;
    hms_source_cache_init(&cache);
    cr_assert_eq(hms_baseline_filter(&r, b, &cache), 0);
    cr_assert_eq(k->ndiagnostics, 2);
    hms_source_cache_free(&cache);
    hms_report_free(&r);
    hms_baseline_free(b);
}

Test(baseline, bad_baselines_are_reported)
{
    hms_file_error err;
    cr_assert_null(hms_baseline_load("/nonexistent/base.json", &err));
    cr_assert(strstr(err.file, "/nonexistent/base.json") != NULL, "%s", err.file);
    cr_assert_eq(err.line, 0, "no line for a file that cannot be opened");

    char *p = temp_with(".json", "{\"files\": [\n  {\"path\": 1}\n]}\n");
    cr_assert_null(hms_baseline_load(p, &err));
    cr_assert(strstr(err.message, "lacks \"path\"") != NULL, "%s", err.message);
    unlink(p);
    free(p);

    p = temp_with(".json", "{\n  \"files\": [\n    oops\n");
    cr_assert_null(hms_baseline_load(p, &err));
    /* At the file and line of the JSON error (as file:3:col: error: ...). */
    cr_assert_str_eq(err.file, p);
    cr_assert_eq(err.line, 3, "%s", err.message);
    cr_assert(strstr(err.message, "not valid JSON") == err.message, "%s", err.message);
    unlink(p);
    free(p);

    p = temp_with(".json", "[1, 2]\n");
    cr_assert_null(hms_baseline_load(p, &err));
    cr_assert(strstr(err.message, "not an hms-lint JSON report") != NULL, "%s", err.message);
    unlink(p);
    free(p);
}
