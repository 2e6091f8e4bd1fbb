/* A file's report crosses from the worker process to the driver as bytes
 * (analyzer/report/report_wire.c): what comes back writes the same JSON as what
 * went in, for real kernels with findings, notes, fix-its and placements;
 * a truncated or corrupted buffer is refused, never crashes. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report_json.h"
#include "analyzer/report/report_wire.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/run.h"
#include "testsuite/support/trace_equal.h"

static char *json_of(hms_file_report *f)
{
    hms_report r = {"hms-lint", "test", "h100", f, 1};
    return hms_test_json_text(&r);
}

static void round_trip(const char *rel)
{
    hms_analyzed_file af;
    cr_assert(hms_analyze_file(hms_test_path(rel), NULL, &af), "%s", af.error);
    hms_file_report in = {(char *)rel, NULL, 0, af.reports, af.nkernels};
    hms_file_add_error(&in, "an error for %s", rel);
    hms_diag_sink said, back;
    hms_diag_sink_init(&said, NULL);
    hms_diag_sink_init(&back, NULL);
    hms_diagf(&said, (hms_diag_head){HMS_DIAG_NOTE, NULL, 0, 0, NULL, NULL}, "log text");
    hms_wire_buf b = {0}, head = {0};
    hms_wire_put_result(&b, &said, &in);
    cr_assert(!b.failed);
    hms_file_report empty = {0};
    hms_wire_put_result(&head, &said, &empty); /* the diagnostics, then two counts */
    size_t error_count_at = head.len - 16;
    free(head.data);

    hms_string_pool pool = {0};
    hms_file_report out = {(char *)rel, NULL, 0, NULL, 0};
    cr_assert(hms_wire_get_result(b.data, b.len, &back, &out, &pool));
    char *log = hms_diag_sink_text(&back);
    cr_assert_str_eq(log, "hms-lint: note: log text\n");
    char *want = json_of(&in), *got = json_of(&out);
    cr_assert_str_eq(got, want);
    size_t findings = 0;
    for (size_t k = 0; k < out.nkernels; k++)
        findings += out.kernels[k].ndiagnostics;
    cr_assert_gt(findings, 0, "%s has no findings to carry", rel);

    /* every shorter prefix and a flipped count are refused, without a crash */
    for (size_t cut = 0; cut < b.len; cut += 1 + cut / 7) {
        hms_file_report part = {NULL, NULL, 0, NULL, 0};
        hms_diag_sink l;
        hms_diag_sink_init(&l, NULL);
        cr_assert(!hms_wire_get_result(b.data, cut, &l, &part, &pool), "cut at %zu", cut);
        hms_diag_sink_free(&l);
        hms_file_report_free(&part);
    }
    memset(b.data + error_count_at, 0xff, 8); /* the error count, after the diagnostics */
    hms_file_report bad = {NULL, NULL, 0, NULL, 0};
    hms_diag_sink l;
    hms_diag_sink_init(&l, NULL);
    cr_assert(!hms_wire_get_result(b.data, b.len, &l, &bad, &pool));
    hms_diag_sink_free(&l);
    hms_file_report_free(&bad);

    free(want);
    free(got);
    free(log);
    hms_diag_sink_free(&said);
    hms_diag_sink_free(&back);
    free(b.data);
    out.path = NULL;
    hms_file_report_free(&out);
    for (size_t i = 0; i < in.nerrors; i++)
        free(in.errors[i]);
    free(in.errors);
    hms_analyzed_file_free(&af);
    hms_string_pool_free(&pool);
}

Test(report_wire, matmul_kernels_come_back_unchanged)
{
    round_trip("kernels/checks/matmul.cu");
}

Test(report_wire, placement_and_fixit_kernels_come_back_unchanged)
{
    round_trip("kernels/checks/misc.cu");
}

Test(report_wire, interned_strings_are_shared)
{
    hms_string_pool p = {0};
    const char *a = hms_string_pool_intern(&p, "global");
    const char *b = hms_string_pool_intern(&p, "global");
    const char *c = hms_string_pool_intern(&p, "shared");
    cr_assert_eq(a, b);
    cr_assert_neq(a, c);
    cr_assert_null(hms_string_pool_intern(&p, NULL));
    cr_assert_eq(p.n, 2);
    hms_string_pool_free(&p);
}
