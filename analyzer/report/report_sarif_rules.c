/* SARIF rule objects (reportingDescriptor) for the checks: what GitHub code
 * scanning shows next to an alert. Descriptions and help come from the
 * embedded docs/checks pages so they are written once. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/check_docs.h"
#include "analyzer/report/report_sarif.h"
#include "passes/checks/checks.h"

/* How far a finding of each check can be trusted (SARIF "precision", which
 * GitHub shows and filters on): "high" where the figure is counted exactly
 * from the simulated accesses, "medium" where it rests on the timing model,
 * "very-high" for the tool stating its own limits. Unlisted: medium. */
static const struct {
    const char *check, *precision, *area;
} rule_meta[] = {
    {"hms-uncoalesced-access", "high", "global-memory"},
    {"hms-shared-bank-conflict", "high", "shared-memory"},
    {"hms-constant-divergence", "high", "constant-memory"},
    {"hms-divergent-access", "medium", "global-memory"},
    {"hms-partition-camping", "medium", "dram"},
    {"hms-placement", "medium", "placement"},
    {"hms-shared-reuse", "medium", "shared-memory"},
    {"hms-latency-hiding", "medium", "occupancy"},
    {"hms-dram-locality", "medium", "dram"},
    {"hms-memory-bound", "medium", "roofline"},
    {"hms-analysis-limit", "very-high", "analysis"},
};

static const char *level_of(hms_severity s)
{
    return s == HMS_SEV_ERROR ? "error" : s == HMS_SEV_WARNING ? "warning" : "note";
}

/* Markdown paragraphs are hard-wrapped; plain text wants one line each. */
static void unwrap(char *s)
{
    for (char *p = s; s && *p; p++)
        if (p[0] == '\n' && p[1] != '\n' && (p == s || p[-1] != '\n'))
            p[0] = ' ';
}

/* "hms-shared-bank-conflict" -> "SharedBankConflict" (SARIF's friendly name). */
static char *friendly_name(const char *id)
{
    const char *s = strncmp(id, "hms-", 4) ? id : id + 4;
    char *out = malloc(strlen(s) + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    bool up = true;
    for (; *s; s++) {
        if (*s == '-') {
            up = true;
            continue;
        }
        out[o++] = up ? (char)toupper((unsigned char)*s) : *s;
        up = false;
    }
    out[o] = '\0';
    return out;
}

json_t *hms_sarif_rule(const char *name)
{
    const hms_check_def *def = hms_check_find(name);
    const char *precision = "medium", *area = "memory";
    for (size_t i = 0; i < sizeof rule_meta / sizeof rule_meta[0]; i++)
        if (!strcmp(rule_meta[i].check, name)) {
            precision = rule_meta[i].precision;
            area = rule_meta[i].area;
        }
    const char *summary = def && def->summary ? def->summary : name;
    char *full = hms_check_doc_section(name, "What it detects");
    if (!full)
        full = hms_check_doc_section(name, "What it reports");
    unwrap(full);
    const char *page = hms_check_doc(name);
    char *help_uri = NULL, *help_text = NULL;
    if (asprintf(&help_uri, "%s/blob/main/docs/checks/%s.md", HMS_PROJECT_URI, name) < 0)
        help_uri = NULL;
    if (asprintf(&help_text, "%s\n\n%s\n\nFull page: %s", summary, full ? full : "",
                 help_uri ? help_uri : HMS_PROJECT_URI) < 0)
        help_text = NULL;
    char *fname = friendly_name(name);
    json_t *rule = json_object();
    json_object_set_new(rule, "id", json_string(name));
    if (fname)
        json_object_set_new(rule, "name", json_string(fname));
    json_object_set_new(rule, "shortDescription", json_pack("{s:s}", "text", summary));
    json_object_set_new(rule, "fullDescription", json_pack("{s:s}", "text", full ? full : summary));
    json_object_set_new(rule, "help",
                        json_pack("{s:s, s:s}", "text", help_text ? help_text : summary, "markdown",
                                  page ? page : (help_text ? help_text : summary)));
    json_object_set_new(rule, "helpUri", json_string(help_uri ? help_uri : HMS_PROJECT_URI));
    json_object_set_new(rule, "defaultConfiguration",
                        json_pack("{s:s, s:b}", "level",
                                  level_of(def ? def->severity : HMS_SEV_WARNING), "enabled",
                                  def ? def->enabled_by_default : true));
    json_object_set_new(rule, "properties",
                        json_pack("{s:[s, s, s], s:s}", "tags", "performance", "cuda", area,
                                  "precision", precision));
    free(fname);
    free(full);
    free(help_uri);
    free(help_text);
    return rule;
}
