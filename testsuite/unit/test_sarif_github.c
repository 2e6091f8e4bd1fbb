/* SARIF as GitHub code scanning ingests it: GitHub's documented rules
 * (testsuite/support/github_sarif.c) and the OASIS schema on the sample
 * report and on real runs of the binary; fingerprints that survive lines
 * moving; URIs relative to --source-root; notes only when asked. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/report/report_sarif.h"
#include "testsuite/support/github_sarif.h"
#include "testsuite/support/json_schema.h"
#include "testsuite/support/run.h"
#include "testsuite/support/sample_report.h"
#include "testsuite/support/scratch.h"

/* Two kernels: one strided (warnings), one unit-stride. */
static const char kernels_cu[] = "// hms-lint: launch grid(4) block(256)\n"
                                 "__global__ void strided(float *out, const float *in)\n"
                                 "{\n"
                                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                 "    out[i * 32] = in[i * 32];\n"
                                 "}\n"
                                 "// hms-lint: launch grid(4) block(256)\n"
                                 "__global__ void copy(float *out, const float *in)\n"
                                 "{\n"
                                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                 "    out[i] = in[i];\n"
                                 "}\n";

TestSuite(sarif_github, .init = hms_scratch_init, .fini = hms_scratch_fini, .timeout = 300);

static json_t *sample_with(const hms_sarif_options *o)
{
    hms_report r;
    hms_sample_report(&r, "src/k.cu");
    json_t *j = hms_report_to_sarif(&r, o);
    /* Through text, as GitHub reads it. */
    char *text = json_dumps(j, 0);
    json_decref(j);
    hms_report_free(&r);
    json_t *back = hms_scratch_json(text);
    free(text);
    return back;
}

static json_t *run0(json_t *doc)
{
    return json_array_get(json_object_get(doc, "runs"), 0);
}

static json_t *result(json_t *doc, size_t i)
{
    return json_array_get(json_object_get(run0(doc), "results"), i);
}

static const char *uri_of(json_t *res)
{
    return json_string_value(json_object_get(
        json_object_get(json_object_get(json_array_get(json_object_get(res, "locations"), 0),
                                        "physicalLocation"),
                        "artifactLocation"),
        "uri"));
}

static void assert_schema_valid(json_t *doc)
{
    if (access(HMS_SARIF_SCHEMA, R_OK) != 0)
        return; /* test_report_sarif says so when the schema is missing */
    json_error_t e;
    json_t *schema = json_load_file(HMS_SARIF_SCHEMA, 0, &e);
    cr_assert(schema, "%s", e.text);
    char err[1024];
    cr_assert(hms_json_schema_validate(schema, doc, err, sizeof err), "invalid SARIF: %s", err);
    json_decref(schema);
}

Test(sarif_github, sample_follows_githubs_rules_and_the_schema)
{
    char cwd[PATH_MAX];
    cr_assert(getcwd(cwd, sizeof cwd));
    hms_sarif_options o = {.source_root = cwd, .include_notes = true};
    json_t *doc = sample_with(&o);
    char err[512];
    cr_assert(hms_github_sarif_check(doc, err, sizeof err), "%s", err);
    assert_schema_valid(doc);
    json_t *run = run0(doc);
    cr_assert_str_eq(
        json_string_value(json_object_get(json_object_get(json_object_get(run, "tool"), "driver"),
                                          "semanticVersion")),
        "9.9.9");
    cr_assert(json_string_value(json_object_get(json_object_get(run, "automationDetails"), "id")));
    /* Relative to the root with %SRCROOT% defined as the root's file:// URI. */
    json_t *res = result(doc, 0);
    cr_assert_str_eq(uri_of(res), "src/k.cu");
    char want[PATH_MAX + 16];
    snprintf(want, sizeof want, "file://%s/", cwd);
    cr_assert_str_eq(
        json_string_value(json_object_get(
            json_object_get(json_object_get(run, "originalUriBaseIds"), "%SRCROOT%"), "uri")),
        want);
    json_decref(doc);
}

Test(sarif_github, rule_help_comes_from_the_docs_page)
{
    json_t *doc = sample_with(NULL);
    json_t *rules =
        json_object_get(json_object_get(json_object_get(run0(doc), "tool"), "driver"), "rules");
    bool seen = false;
    for (size_t i = 0; i < json_array_size(rules); i++) {
        json_t *r = json_array_get(rules, i);
        if (strcmp(json_string_value(json_object_get(r, "id")), "hms-shared-bank-conflict"))
            continue;
        seen = true;
        const char *full =
            json_string_value(json_object_get(json_object_get(r, "fullDescription"), "text"));
        /* docs/checks/hms-shared-bank-conflict.md, "What it detects", unwrapped. */
        cr_assert(strstr(full, "hit the same bank at different words and are therefore served"),
                  "%s", full);
        const char *md = json_string_value(json_object_get(json_object_get(r, "help"), "markdown"));
        cr_assert(strstr(md, "# hms-shared-bank-conflict") && strstr(md, "## The model"), "%s", md);
        cr_assert_str_eq(json_string_value(json_object_get(r, "name")), "SharedBankConflict");
        cr_assert_str_eq(
            json_string_value(json_object_get(json_object_get(r, "properties"), "precision")),
            "high");
    }
    cr_assert(seen);
    json_decref(doc);
}

Test(sarif_github, the_rule_check_rejects_what_github_would)
{
    char err[512];
    hms_sarif_options o = {.include_notes = true};
    json_t *doc = sample_with(&o);
    json_t *rule0 = json_array_get(
        json_object_get(json_object_get(json_object_get(run0(doc), "tool"), "driver"), "rules"), 0);
    json_object_del(rule0, "fullDescription");
    cr_assert(!hms_github_sarif_check(doc, err, sizeof err));
    cr_assert(strstr(err, "fullDescription"), "%s", err);
    json_decref(doc);

    doc = sample_with(&o);
    json_object_del(result(doc, 0), "partialFingerprints");
    cr_assert(!hms_github_sarif_check(doc, err, sizeof err));
    cr_assert(strstr(err, "partialFingerprints"), "%s", err);
    json_decref(doc);

    doc = sample_with(&o);
    json_t *art = json_object_get(
        json_object_get(json_array_get(json_object_get(result(doc, 0), "locations"), 0),
                        "physicalLocation"),
        "artifactLocation");
    json_object_set_new(art, "uri", json_string("build/../include/k.cuh"));
    cr_assert(!hms_github_sarif_check(doc, err, sizeof err));
    cr_assert(strstr(err, "climbs out"), "%s", err);
    json_object_set_new(art, "uri", json_string("k.cu"));
    json_object_set_new(art, "uriBaseId", json_string("%NOWHERE%"));
    cr_assert(!hms_github_sarif_check(doc, err, sizeof err));
    cr_assert(strstr(err, "originalUriBaseIds"), "%s", err);
    json_decref(doc);

    doc = sample_with(&o);
    json_object_del(run0(doc), "automationDetails");
    cr_assert(!hms_github_sarif_check(doc, err, sizeof err));
    json_decref(doc);
}

Test(sarif_github, notes_are_results_only_when_asked)
{
    json_t *doc = sample_with(NULL);
    json_t *results = json_object_get(run0(doc), "results");
    cr_assert_eq(json_array_size(results), 2, "the sample's one note is left out");
    for (size_t i = 0; i < json_array_size(results); i++)
        cr_assert_str_neq(json_string_value(json_object_get(json_array_get(results, i), "level")),
                          "note");
    json_decref(doc);
    hms_sarif_options o = {.include_notes = true};
    doc = sample_with(&o);
    cr_assert_eq(json_array_size(json_object_get(run0(doc), "results")), 3);
    json_decref(doc);
}

/* The fingerprints of a real run over scratch/k.cu, sorted "ruleId fp". */
static json_t *real_run(const char *extra)
{
    char root[PATH_MAX + 32];
    snprintf(root, sizeof root, "--source-root=%s", hms_scratch_at(""));
    hms_run_result r = hms_run((const char *[]){
        "--format=sarif", root, extra ? extra : "--fail-on=never", hms_scratch_at("k.cu"), NULL});
    cr_assert(r.status == 0 || r.status == 1, "status %d: %s", r.status, r.err);
    json_t *doc = hms_scratch_json(r.out);
    hms_run_free(&r);
    return doc;
}

static char *fingerprints(json_t *doc)
{
    json_t *results = json_object_get(run0(doc), "results");
    char *all = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&all, &len);
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *res = json_array_get(results, i);
        fprintf(m, "%s %s\n", json_string_value(json_object_get(res, "ruleId")),
                json_string_value(json_object_get(json_object_get(res, "partialFingerprints"),
                                                  "hmsFindingHash/v1")));
    }
    fclose(m);
    return all;
}

Test(sarif_github, real_run_is_accepted_and_fingerprints_survive_moves)
{
    hms_scratch_write(hms_scratch_at("k.cu"), kernels_cu);
    json_t *doc = real_run(NULL);
    char err[512];
    cr_assert(hms_github_sarif_check(doc, err, sizeof err), "%s", err);
    assert_schema_valid(doc);
    cr_assert(json_array_size(json_object_get(run0(doc), "results")) > 0);
    cr_assert_str_eq(uri_of(result(doc, 0)), "k.cu");
    char *before = fingerprints(doc);
    json_decref(doc);

    /* Unrelated edits: two lines added above, the kernels re-indented. */
    char moved[sizeof kernels_cu + 256] = "// Copyright\n#include <cstdio>\n";
    for (const char *p = kernels_cu; *p;) {
        const char *nl = strchr(p, '\n');
        strcat(moved, "  ");
        strncat(moved, p, (size_t)(nl - p + 1));
        p = nl + 1;
    }
    hms_scratch_write(hms_scratch_at("k.cu"), moved);
    doc = real_run(NULL);
    char *after = fingerprints(doc);
    json_decref(doc);
    cr_assert_str_eq(before, after, "fingerprints changed when only lines moved");

    /* Editing the flagged line itself is a new finding. */
    char *edited = strdup(moved);
    char *at = strstr(edited, "out[i * 32] = in[i * 32];");
    cr_assert(at);
    memcpy(at, "out[i * 32] = in[i * 16];", 25);
    hms_scratch_write(hms_scratch_at("k.cu"), edited);
    doc = real_run(NULL);
    char *changed = fingerprints(doc);
    json_decref(doc);
    cr_assert_str_neq(before, changed);
    free(edited);
    free(before);
    free(after);
    free(changed);
}

Test(sarif_github, sarif_notes_option_and_bad_source_root)
{
    hms_scratch_write(hms_scratch_at("k.cu"), kernels_cu);
    json_t *quiet = real_run(NULL), *all = real_run("--sarif-notes");
    size_t nq = json_array_size(json_object_get(run0(quiet), "results"));
    size_t na = json_array_size(json_object_get(run0(all), "results"));
    cr_assert_gt(na, nq, "--sarif-notes adds the kernels' summary notes");
    json_decref(quiet);
    json_decref(all);

    hms_run_result r = hms_run((const char *[]){"--format=sarif", "--source-root=/nonexistent/dir",
                                                hms_scratch_at("k.cu"), NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "/nonexistent/dir") && strstr(r.err, "source-root"), "%s", r.err);
    cr_assert_str_eq(r.out, "");
    hms_run_free(&r);
}
