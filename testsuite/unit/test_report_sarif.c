/* --format=sarif: the sample report's SARIF validated against the OASIS
 * SARIF 2.1.0 schema (HMS_SARIF_SCHEMA) with testsuite/support/json_schema.c,
 * plus the fields a SARIF consumer (GitHub code scanning) reads. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/report/report_sarif.h"
#include "passes/checks/checks.h"
#include "testsuite/support/json_schema.h"
#include "testsuite/support/sample_report.h"

static json_t *load_schema(void)
{
    if (access(HMS_SARIF_SCHEMA, R_OK) != 0)
        cr_skip_test("SARIF schema not found at %s (configure -DHMS_SARIF_SCHEMA=<path> to "
                     "the OASIS sarif-schema-2.1.0.json); schema validation skipped",
                     HMS_SARIF_SCHEMA);
    json_error_t e;
    json_t *s = json_load_file(HMS_SARIF_SCHEMA, 0, &e);
    cr_assert(s != NULL, "%s: %s", HMS_SARIF_SCHEMA, e.text);
    return s;
}

/* Written to text and parsed back, as a consumer sees it. */
static json_t *sarif_with(const hms_sarif_options *o)
{
    hms_report r;
    hms_sample_report(&r, "src/k.cu");
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    cr_assert(hms_write_sarif(&r, m, o));
    fclose(m);
    json_error_t e;
    json_t *j = json_loads(buf, 0, &e);
    cr_assert(j != NULL, "not valid JSON: %s", e.text);
    free(buf);
    hms_report_free(&r);
    return j;
}

/* Notes included, paths as given: every finding of the sample. */
static json_t *sample_sarif(void)
{
    hms_sarif_options o = {.include_notes = true};
    return sarif_with(&o);
}

Test(report_sarif, validates_against_the_sarif_2_1_0_schema)
{
    json_t *schema = load_schema();
    json_t *doc = sample_sarif();
    char err[1024];
    cr_assert(hms_json_schema_validate(schema, doc, err, sizeof err), "invalid SARIF: %s", err);
    json_decref(doc);
    json_decref(schema);
}

Test(report_sarif, validator_rejects_broken_sarif)
{
    /* The validator must not pass everything: each mutation breaks a rule
     * the schema states (required version, level enum, startLine minimum 1,
     * no extra properties on a region, uri as a string). */
    json_t *schema = load_schema();
    char err[1024];
    json_t *doc = sample_sarif();
    json_object_del(doc, "version");
    cr_assert(!hms_json_schema_validate(schema, doc, err, sizeof err));
    cr_assert(strstr(err, "version") != NULL, "%s", err);
    json_decref(doc);

    doc = sample_sarif();
    json_t *res0 = json_array_get(
        json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "results"), 0);
    json_object_set_new(res0, "level", json_string("fatal"));
    cr_assert(!hms_json_schema_validate(schema, doc, err, sizeof err));
    json_decref(doc);

    doc = sample_sarif();
    res0 = json_array_get(
        json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "results"), 0);
    json_t *region = json_object_get(
        json_object_get(json_array_get(json_object_get(res0, "locations"), 0), "physicalLocation"),
        "region");
    json_object_set_new(region, "startLine", json_integer(0));
    cr_assert(!hms_json_schema_validate(schema, doc, err, sizeof err));
    cr_assert(strstr(err, "startLine") != NULL, "%s", err);
    json_object_set_new(region, "startLine", json_integer(4));
    cr_assert(hms_json_schema_validate(schema, doc, err, sizeof err), "%s", err);
    json_object_set_new(region, "startLin", json_integer(4));
    cr_assert(!hms_json_schema_validate(schema, doc, err, sizeof err));
    json_decref(doc);

    doc = sample_sarif();
    res0 = json_array_get(
        json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "results"), 0);
    json_object_set_new(
        json_object_get(json_object_get(json_array_get(json_object_get(res0, "locations"), 0),
                                        "physicalLocation"),
                        "artifactLocation"),
        "uri", json_integer(3));
    cr_assert(!hms_json_schema_validate(schema, doc, err, sizeof err));
    json_decref(doc);
    json_decref(schema);
}

Test(report_sarif, driver_rules_from_the_registry)
{
    json_t *doc = sample_sarif();
    cr_assert_str_eq(json_string_value(json_object_get(doc, "version")), "2.1.0");
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
    cr_assert_str_eq(json_string_value(json_object_get(driver, "name")), "hms-lint");
    cr_assert_str_eq(json_string_value(json_object_get(driver, "version")), "9.9.9");
    cr_assert(json_is_string(json_object_get(driver, "informationUri")));
    size_t n;
    const hms_check_def *defs = hms_check_registry(&n);
    json_t *rules = json_object_get(driver, "rules");
    cr_assert_eq(json_array_size(rules), n);
    for (size_t i = 0; i < n; i++) {
        json_t *rule = json_array_get(rules, i);
        cr_assert_str_eq(json_string_value(json_object_get(rule, "id")), defs[i].name);
        cr_assert_str_eq(
            json_string_value(json_object_get(json_object_get(rule, "shortDescription"), "text")),
            defs[i].summary);
        char suffix[256];
        snprintf(suffix, sizeof suffix, "docs/checks/%s.md", defs[i].name);
        const char *help = json_string_value(json_object_get(rule, "helpUri"));
        cr_assert(help && strlen(help) > strlen(suffix) &&
                      !strcmp(help + strlen(help) - strlen(suffix), suffix),
                  "helpUri %s", help);
    }
    json_decref(doc);
}

Test(report_sarif, results_locations_notes_fixes)
{
    json_t *doc = sample_sarif();
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    json_t *results = json_object_get(run, "results");
    cr_assert_eq(json_array_size(results), 3);

    json_t *bank = json_array_get(results, 0);
    cr_assert_str_eq(json_string_value(json_object_get(bank, "ruleId")),
                     "hms-shared-bank-conflict");
    cr_assert_str_eq(json_string_value(json_object_get(bank, "level")), "warning");
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(bank, "message"), "text")),
                     "16-way bank conflict: 16 wavefronts per request where 1 would do");
    json_t *phys =
        json_object_get(json_array_get(json_object_get(bank, "locations"), 0), "physicalLocation");
    cr_assert_str_eq(
        json_string_value(json_object_get(json_object_get(phys, "artifactLocation"), "uri")),
        "src/k.cu");
    json_t *region = json_object_get(phys, "region");
    cr_assert_eq(json_integer_value(json_object_get(region, "startLine")), 4);
    cr_assert_eq(json_integer_value(json_object_get(region, "startColumn")), 5);
    cr_assert_eq(json_integer_value(json_object_get(region, "endLine")), 4);
    cr_assert_eq(json_integer_value(json_object_get(region, "endColumn")), 35);
    json_t *rel = json_object_get(bank, "relatedLocations");
    cr_assert_eq(json_array_size(rel), 1);
    cr_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(json_array_get(rel, 0), "message"), "text")),
                     "tile declared here");
    json_t *fix = json_array_get(json_object_get(bank, "fixes"), 0);
    json_t *change = json_array_get(json_object_get(fix, "artifactChanges"), 0);
    json_t *repl = json_array_get(json_object_get(change, "replacements"), 0);
    json_t *del = json_object_get(repl, "deletedRegion");
    cr_assert_eq(json_integer_value(json_object_get(del, "startLine")), 3);
    cr_assert_eq(json_integer_value(json_object_get(del, "startColumn")), 28);
    cr_assert_eq(json_integer_value(json_object_get(del, "endColumn")), 30);
    cr_assert_str_eq(
        json_string_value(json_object_get(json_object_get(repl, "insertedContent"), "text")), "17");

    json_t *bound = json_array_get(results, 1);
    cr_assert_str_eq(json_string_value(json_object_get(bound, "level")), "note");
    json_t *bregion = json_object_get(
        json_object_get(json_array_get(json_object_get(bound, "locations"), 0), "physicalLocation"),
        "region");
    cr_assert_null(json_object_get(bregion, "endLine"), "no end when the range is unknown");
    cr_assert_null(json_object_get(bound, "fixes"));

    json_t *pl = json_array_get(results, 2);
    cr_assert_str_eq(json_string_value(json_object_get(pl, "level")), "error");
    json_t *rel_phys = json_object_get(json_array_get(json_object_get(pl, "relatedLocations"), 0),
                                       "physicalLocation");
    cr_assert_str_eq(
        json_string_value(json_object_get(json_object_get(rel_phys, "artifactLocation"), "uri")),
        "other.cuh");

    /* The file that failed is a tool execution notification. */
    json_t *inv = json_array_get(json_object_get(run, "invocations"), 0);
    cr_assert(json_is_false(json_object_get(inv, "executionSuccessful")));
    json_t *note = json_array_get(json_object_get(inv, "toolExecutionNotifications"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(note, "message"), "text")),
                     "missing.cu: No such file or directory");
    json_decref(doc);
}

Test(report_sarif, paths_become_uris)
{
    char *u = hms_path_to_uri("src/k.cu");
    cr_assert_str_eq(u, "src/k.cu");
    free(u);
    u = hms_path_to_uri("/home/me/my kernels/k#1.cu");
    cr_assert_str_eq(u, "file:///home/me/my%20kernels/k%231.cu");
    free(u);
}

/* Given the run's diagnostic sink, its records are the tool execution
 * notifications, each with its level and place; still valid SARIF. */
Test(report_sarif, run_diagnostics_become_located_notifications)
{
    json_t *schema = load_schema();
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    hms_diagf(&said, (hms_diag_head){HMS_DIAG_ERROR, "src/k.cu", 7, 3, "hms-parse-error", NULL},
              "expected ';'");
    hms_diagf(&said, (hms_diag_head){HMS_DIAG_WARNING, "src/k.cu", 2, 0, NULL, NULL},
              "'x.h' not found; analysing without it");
    hms_diagf(&said, (hms_diag_head){HMS_DIAG_NOTE, NULL, 0, 0, NULL, NULL}, "about the run");
    hms_sarif_options o = {.include_notes = true, .notifications = &said};
    json_t *doc = sarif_with(&o);
    char err[1024];
    cr_assert(hms_json_schema_validate(schema, doc, err, sizeof err), "invalid SARIF: %s", err);
    json_t *inv = json_array_get(
        json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "invocations"), 0);
    cr_assert(json_is_false(json_object_get(inv, "executionSuccessful")));
    json_t *notes = json_object_get(inv, "toolExecutionNotifications");
    cr_assert_eq(json_array_size(notes), 3);
    static const char *const levels[] = {"error", "warning", "note"};
    for (size_t i = 0; i < 3; i++)
        cr_assert_str_eq(json_string_value(json_object_get(json_array_get(notes, i), "level")),
                         levels[i]);
    json_t *phys =
        json_object_get(json_array_get(json_object_get(json_array_get(notes, 0), "locations"), 0),
                        "physicalLocation");
    cr_assert_str_eq(
        json_string_value(json_object_get(json_object_get(phys, "artifactLocation"), "uri")),
        "src/k.cu");
    json_t *reg = json_object_get(phys, "region");
    cr_assert_eq(json_integer_value(json_object_get(reg, "startLine")), 7);
    cr_assert_eq(json_integer_value(json_object_get(reg, "startColumn")), 3);
    cr_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(json_array_get(notes, 0), "message"), "text")),
                     "expected ';'");
    cr_assert_null(json_object_get(json_array_get(notes, 2), "locations"), "about the run");
    json_decref(doc);
    json_decref(schema);
    hms_diag_sink_free(&said);
}
