/* --format=json: the hand-built sample report (testsuite/support/
 * sample_report.c) written, parsed back with jansson, and every field name
 * and value checked against docs/report-format.md. Expected values are
 * the ones the sample sets; "not applicable" (< 0) figures must be null. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/report/report_json.h"
#include "testsuite/support/sample_report.h"

/* The object has exactly these keys (NULL-terminated list). */
static void assert_keys(json_t *o, ...)
{
    cr_assert(json_is_object(o));
    va_list ap;
    va_start(ap, o);
    size_t n = 0;
    const char *k;
    while ((k = va_arg(ap, const char *)) != NULL) {
        cr_assert(json_object_get(o, k) != NULL, "missing key \"%s\"", k);
        n++;
    }
    va_end(ap);
    cr_assert_eq(json_object_size(o), n, "object has %zu keys, expected %zu", json_object_size(o),
                 n);
}

static json_t *round_trip(const hms_report *r, const hms_json_options *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    cr_assert(hms_write_json(r, m, o));
    fclose(m);
    cr_assert(len > 0 && buf[len - 1] == '\n', "output ends with a newline");
    json_error_t e;
    json_t *j = json_loads(buf, 0, &e);
    cr_assert(j != NULL, "not valid JSON: %s (line %d)\n%s", e.text, e.line, buf);
    free(buf);
    return j;
}

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    cr_assert(json_is_number(v), "\"%s\" is not a number", k);
    return json_number_value(v);
}

static json_int_t integer(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    cr_assert(json_is_integer(v), "\"%s\" is not an integer", k);
    return json_integer_value(v);
}

static const char *str(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    cr_assert(json_is_string(v), "\"%s\" is not a string", k);
    return json_string_value(v);
}

static void assert_null(json_t *o, const char *k)
{
    cr_assert(json_is_null(json_object_get(o, k)), "\"%s\" should be null", k);
}

static void assert_dims(json_t *a, json_int_t x, json_int_t y, json_int_t z)
{
    cr_assert(json_is_array(a) && json_array_size(a) == 3);
    cr_assert_eq(json_integer_value(json_array_get(a, 0)), x);
    cr_assert_eq(json_integer_value(json_array_get(a, 1)), y);
    cr_assert_eq(json_integer_value(json_array_get(a, 2)), z);
}

Test(report_json, top_level_and_files)
{
    hms_report r;
    hms_sample_report(&r, "k.cu");
    json_t *j = round_trip(&r, NULL);
    assert_keys(j, "tool", "arch", "files", NULL);
    assert_keys(json_object_get(j, "tool"), "name", "version", NULL);
    cr_assert_str_eq(str(json_object_get(j, "tool"), "name"), "hms-lint");
    cr_assert_str_eq(str(json_object_get(j, "tool"), "version"), "9.9.9");
    cr_assert_str_eq(str(j, "arch"), "kepler");
    json_t *files = json_object_get(j, "files");
    cr_assert_eq(json_array_size(files), 2);
    json_t *f0 = json_array_get(files, 0), *f1 = json_array_get(files, 1);
    assert_keys(f0, "path", "errors", "kernels", "ranking", NULL);
    cr_assert_str_eq(str(f0, "path"), "k.cu");
    cr_assert_eq(json_array_size(json_object_get(f0, "errors")), 0);
    cr_assert_eq(json_array_size(json_object_get(f0, "kernels")), 1);
    assert_keys(f1, "path", "errors", "kernels", "ranking", NULL);
    cr_assert_str_eq(str(f1, "path"), "missing.cu");
    cr_assert_eq(json_array_size(json_object_get(f1, "errors")), 1);
    cr_assert_str_eq(json_string_value(json_array_get(json_object_get(f1, "errors"), 0)),
                     "missing.cu: No such file or directory");
    cr_assert_eq(json_array_size(json_object_get(f1, "kernels")), 0);
    json_decref(j);
    hms_report_free(&r);
}

static json_t *sample_kernel(json_t **root)
{
    hms_report r;
    hms_sample_report(&r, "k.cu");
    *root = round_trip(&r, NULL);
    hms_report_free(&r);
    json_t *files = json_object_get(*root, "files");
    return json_array_get(json_object_get(json_array_get(files, 0), "kernels"), 0);
}

Test(report_json, kernel_and_launch)
{
    json_t *root;
    json_t *k = sample_kernel(&root);
    /* Beyond the original report design: "sampled" and "estimated_gain" (cost_rank.h). */
    assert_keys(k, "name", "line", "launch", "sampled", "accesses", "placements", "model",
                "estimated_gain", "diagnostics", NULL);
    cr_assert_str_eq(str(k, "name"), "transpose");
    cr_assert_eq(integer(k, "line"), 1);
    cr_assert(json_is_true(json_object_get(k, "sampled")));
    json_t *l = json_object_get(k, "launch");
    assert_keys(l, "grid", "block", "shared_bytes", "source", "via", "other_configurations", NULL);
    assert_dims(json_object_get(l, "grid"), 64, 64, 1);
    assert_dims(json_object_get(l, "block"), 16, 16, 1);
    cr_assert_eq(integer(l, "shared_bytes"), 128);
    cr_assert_str_eq(str(l, "source"), "annotation");
    json_decref(root);
}

Test(report_json, accesses_with_nulls_for_inapplicable_metrics)
{
    json_t *root;
    json_t *acc = json_object_get(sample_kernel(&root), "accesses");
    cr_assert_eq(json_array_size(acc), 2);
    json_t *g = json_array_get(acc, 0), *s = json_array_get(acc, 1);
    assert_keys(g, "line", "column", "array", "space", "kind", "element_bytes", "requests",
                "sectors_per_request", "lines_per_request", "bank_wavefronts_per_request",
                "distinct_addresses_per_request", "latency_cycles", "exact", NULL);
    cr_assert_eq(integer(g, "line"), 4);
    cr_assert_eq(integer(g, "column"), 38);
    cr_assert_str_eq(str(g, "array"), "a");
    cr_assert_str_eq(str(g, "space"), "global");
    cr_assert_str_eq(str(g, "kind"), "load");
    cr_assert_eq(integer(g, "element_bytes"), 4);
    cr_assert_eq(integer(g, "requests"), 4096, "whole counts are integers");
    cr_assert_float_eq(num(g, "sectors_per_request"), 4.0, 1e-12);
    cr_assert_float_eq(num(g, "lines_per_request"), 1.0, 1e-12);
    assert_null(g, "bank_wavefronts_per_request");
    assert_null(g, "distinct_addresses_per_request");
    cr_assert_float_eq(num(g, "latency_cycles"), 412.5, 1e-12);
    cr_assert(json_is_true(json_object_get(g, "exact")));

    cr_assert_str_eq(str(s, "space"), "shared");
    cr_assert_str_eq(str(s, "kind"), "store");
    cr_assert(json_is_real(json_object_get(s, "requests")), "sampled counts stay fractional");
    cr_assert_float_eq(num(s, "requests"), 2048.5, 1e-12);
    assert_null(s, "sectors_per_request");
    assert_null(s, "lines_per_request");
    cr_assert_float_eq(num(s, "bank_wavefronts_per_request"), 16.0, 1e-12);
    assert_null(s, "distinct_addresses_per_request");
    cr_assert(json_is_false(json_object_get(s, "exact")));
    json_decref(root);
}

Test(report_json, placements)
{
    json_t *root;
    json_t *pl = json_object_get(sample_kernel(&root), "placements");
    cr_assert_eq(json_array_size(pl), 1);
    json_t *p = json_array_get(pl, 0);
    assert_keys(p, "array", "current", "best", "options", NULL);
    cr_assert_str_eq(str(p, "array"), "a");
    cr_assert_str_eq(str(p, "current"), "global");
    cr_assert_str_eq(str(p, "best"), "texture1d");
    json_t *opts = json_object_get(p, "options");
    cr_assert_eq(json_array_size(opts), 3);
    for (size_t i = 0; i < 3; i++)
        assert_keys(json_array_get(opts, i), "space", "legal", "reason", "predicted_time",
                    "speedup", NULL);
    json_t *g = json_array_get(opts, 0), *t = json_array_get(opts, 1), *c = json_array_get(opts, 2);
    cr_assert_str_eq(str(g, "space"), "global");
    cr_assert(json_is_true(json_object_get(g, "legal")));
    assert_null(g, "reason");
    cr_assert_float_eq(num(g, "predicted_time"), 1000.0, 1e-9);
    cr_assert_float_eq(num(g, "speedup"), 1.0, 1e-12);
    cr_assert_str_eq(str(t, "space"), "texture1d");
    cr_assert_str_eq(str(t, "reason"), "read-only, 1D locality");
    cr_assert_float_eq(num(t, "predicted_time"), 800.0, 1e-9);
    cr_assert_float_eq(num(t, "speedup"), 1.25, 1e-12);
    cr_assert_str_eq(str(c, "space"), "constant");
    cr_assert(json_is_false(json_object_get(c, "legal")));
    cr_assert_str_eq(str(c, "reason"), "16 KB > 64 KB limit");
    assert_null(c, "predicted_time");
    assert_null(c, "speedup");
    json_decref(root);
}

Test(report_json, model_figures)
{
    json_t *root;
    json_t *m = json_object_get(sample_kernel(&root), "model");
    assert_keys(m, "data_reuse", "lat_hiding", "bw_util", "ch_skew", "shm_eff", "branch_eff", "mpe",
                "t_comp", "t_mem", "t_overlap", "t_pipe", "amat", "camat", "c_h", "c_m", "pmr",
                "pamp", "dram_row_hit_rate", "occupancy", "predicted_time", "dram_gbs",
                "dram_peak_gbs", "flops", "mlp", "bound", "binding", "bounds", "overlap_inputs",
                "registers_per_thread", "registers_source", NULL);
    const struct {
        const char *k;
        double v;
    } want[] = {{"data_reuse", 0.5}, {"lat_hiding", 1.5}, {"bw_util", 0.25},   {"ch_skew", 2.0},
                {"shm_eff", 0.0625}, {"branch_eff", 1.0}, {"mpe", 0.01171875}, {"t_comp", 1200},
                {"t_mem", 3400},     {"t_overlap", 600},  {"amat", 250.5},     {"camat", 1.75},
                {"c_h", 2.5},        {"c_m", 3.25},       {"pmr", 0.125},      {"pamp", 40.0},
                {"occupancy", 1.0},  {"mlp", 3.0}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_assert_float_eq(num(m, want[i].k), want[i].v, 1e-12, "%s", want[i].k);
    assert_null(m, "dram_row_hit_rate");
    cr_assert_str_eq(str(m, "bound"), "memory");
    cr_assert_eq(json_integer_value(json_object_get(m, "registers_per_thread")), 64);
    cr_assert_str_eq(str(m, "registers_source"), "estimated from the IR");
    /* the roofline: predicted time, the binding bound, every bound (0 = null) */
    cr_assert_float_eq(num(m, "predicted_time"), 4000, 1e-12);
    cr_assert_float_eq(num(m, "dram_gbs"), 3000, 1e-12);
    cr_assert_str_eq(str(m, "binding"), "dram");
    json_t *b = json_object_get(m, "bounds");
    assert_keys(b, "model", "dram", "l2", "shared", "fp32", "issue", NULL);
    cr_assert_float_eq(num(b, "dram"), 4000, 1e-12);
    cr_assert_float_eq(num(b, "issue"), 120, 1e-12);
    cr_assert_float_eq(num(b, "l2"), 0, 1e-12);
    /* the eq. 11 inputs (calibrate's columns): null when not evaluated */
    json_t *x = json_object_get(m, "overlap_inputs");
    assert_keys(x, "e_global", "e_const", "e_tex", "e_shared", "e_row_miss", "e_row_conflict",
                "warps", NULL);
    assert_null(x, "warps");
    json_decref(root);
}

Test(report_json, diagnostics_notes_fixits)
{
    json_t *root;
    json_t *d = json_object_get(sample_kernel(&root), "diagnostics");
    cr_assert_eq(json_array_size(d), 3);
    json_t *bank = json_array_get(d, 0), *bound = json_array_get(d, 1), *pl = json_array_get(d, 2);
    for (size_t i = 0; i < 3; i++)
        assert_keys(json_array_get(d, i), "check", "severity", "message", "line", "column",
                    "end_line", "end_column", "notes", "fixits", "same_in_kernels", "fingerprint",
                    "estimated_gain", NULL);
    /* one kernel: no other kernel has the same finding */
    cr_assert_eq(json_array_size(json_object_get(bank, "same_in_kernels")), 0);
    cr_assert_str_eq(str(bank, "check"), "hms-shared-bank-conflict");
    cr_assert_str_eq(str(bank, "severity"), "warning");
    cr_assert_str_eq(str(bank, "message"),
                     "16-way bank conflict: 16 wavefronts per request where 1 would do");
    cr_assert_eq(integer(bank, "line"), 4);
    cr_assert_eq(integer(bank, "column"), 5);
    cr_assert_eq(integer(bank, "end_line"), 4);
    cr_assert_eq(integer(bank, "end_column"), 35);
    json_t *notes = json_object_get(bank, "notes");
    cr_assert_eq(json_array_size(notes), 1);
    assert_keys(json_array_get(notes, 0), "message", "line", "column", NULL);
    cr_assert_str_eq(str(json_array_get(notes, 0), "message"), "tile declared here");
    cr_assert_eq(integer(json_array_get(notes, 0), "line"), 3);
    cr_assert_eq(integer(json_array_get(notes, 0), "column"), 19);
    json_t *fx = json_object_get(bank, "fixits");
    cr_assert_eq(json_array_size(fx), 1);
    json_t *x = json_array_get(fx, 0);
    assert_keys(x, "line", "column", "end_line", "end_column", "replacement", NULL);
    cr_assert_eq(integer(x, "line"), 3);
    cr_assert_eq(integer(x, "column"), 28);
    cr_assert_eq(integer(x, "end_line"), 3);
    cr_assert_eq(integer(x, "end_column"), 30);
    cr_assert_str_eq(str(x, "replacement"), "17");

    cr_assert_str_eq(str(bound, "severity"), "note");
    assert_null(bound, "end_line");
    assert_null(bound, "end_column");
    cr_assert_eq(json_array_size(json_object_get(bound, "notes")), 0);
    cr_assert_eq(json_array_size(json_object_get(bound, "fixits")), 0);

    cr_assert_str_eq(str(pl, "severity"), "error");
    cr_assert_str_eq(str(pl, "check"), "hms-placement");
    json_decref(root);
}

Test(report_json, source_line_added_for_baselines_when_sources_given)
{
    char *src = hms_sample_write_source();
    cr_assert(src);
    hms_report r;
    hms_sample_report(&r, src);
    hms_source_cache cache;
    hms_source_cache_init(&cache);
    hms_json_options o = {.sources = &cache};
    json_t *j = round_trip(&r, &o);
    json_t *d = json_object_get(
        json_array_get(json_object_get(json_array_get(json_object_get(j, "files"), 0), "kernels"),
                       0),
        "diagnostics");
    /* Line 4 of the sample, leading blanks trimmed. */
    cr_assert_str_eq(str(json_array_get(d, 0), "source_line"),
                     "tile[threadIdx.x][threadIdx.y] = a[threadIdx.x];");
    cr_assert_str_eq(str(json_array_get(d, 1), "source_line"),
                     "__global__ void transpose(float *a)");
    json_decref(j);
    hms_source_cache_free(&cache);
    hms_report_free(&r);
    unlink(src);
    free(src);
}

Test(report_json, empty_report_is_still_a_report)
{
    hms_report r = {"hms-lint", "1.0", "h100", NULL, 0};
    json_t *j = round_trip(&r, NULL);
    assert_keys(j, "tool", "arch", "files", NULL);
    cr_assert(json_is_array(json_object_get(j, "files")));
    cr_assert_eq(json_array_size(json_object_get(j, "files")), 0);
    json_decref(j);
}

/* The run's own diagnostics, when given, are the top-level "notifications":
 * structured records, an unknown position null. */
Test(report_json, run_diagnostics_are_structured_notifications)
{
    hms_report r = {"hms-lint", "1.0", "h100", NULL, 0};
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    hms_diagf(&said, (hms_diag_head){HMS_DIAG_ERROR, "k.cu", 7, 3, "hms-parse-error", NULL},
              "expected '%s'", ";");
    hms_diagf(&said, (hms_diag_head){HMS_DIAG_WARNING, "k.cu", 2, 0, NULL, NULL},
              "'x.h' not found; analysing without it");
    hms_diagf(&said, (hms_diag_head){HMS_DIAG_NOTE, NULL, 0, 0, NULL, NULL}, "about the run");
    hms_json_options o = {.notifications = &said};
    json_t *j = round_trip(&r, &o);
    assert_keys(j, "tool", "arch", "files", "notifications", NULL);
    json_t *n = json_object_get(j, "notifications");
    cr_assert_eq(json_array_size(n), 3);
    json_t *e = json_array_get(n, 0);
    assert_keys(e, "severity", "file", "line", "column", "message", "code", NULL);
    cr_assert_str_eq(str(e, "severity"), "error");
    cr_assert_str_eq(str(e, "file"), "k.cu");
    cr_assert_eq(json_integer_value(json_object_get(e, "line")), 7);
    cr_assert_eq(json_integer_value(json_object_get(e, "column")), 3);
    cr_assert_str_eq(str(e, "message"), "expected ';'");
    cr_assert_str_eq(str(e, "code"), "hms-parse-error");
    json_t *w = json_array_get(n, 1);
    cr_assert_str_eq(str(w, "severity"), "warning");
    cr_assert(json_is_null(json_object_get(w, "column")));
    cr_assert(json_is_null(json_object_get(w, "code")));
    json_t *about = json_array_get(n, 2);
    cr_assert_str_eq(str(about, "severity"), "note");
    cr_assert(json_is_null(json_object_get(about, "file")));
    cr_assert(json_is_null(json_object_get(about, "line")));
    json_decref(j);
    hms_diag_sink_free(&said);
}
