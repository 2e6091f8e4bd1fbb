/* GitHub's SARIF rules (see github_sarif.h). Each rule is one test below
 * with the reason GitHub gives for it. */
#include "testsuite/support/github_sarif.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Upload limits GitHub documents per SARIF file. */
#define MAX_RUNS 20
#define MAX_RESULTS 25000
#define MAX_RULES 25000
#define MAX_LOCATIONS 1000
#define MAX_TAGS 20

static bool fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return false;
}

static const char *str_at(json_t *o, const char *a, const char *b)
{
    json_t *v = json_object_get(o, a);
    if (b)
        v = json_object_get(v, b);
    const char *s = json_string_value(v);
    return s && *s ? s : NULL;
}

static bool is_level(const char *s)
{
    return s && (!strcmp(s, "none") || !strcmp(s, "note") || !strcmp(s, "warning") ||
                 !strcmp(s, "error"));
}

/* GitHub places a result by a repository-relative path: a relative URI
 * (with a uriBaseId GitHub resolves against the checkout) or a file:// URI
 * under the checkout. Relative ones must not climb out ("..") or carry a
 * scheme. */
static bool location_ok(json_t *run, json_t *loc, const char *where, char *err, size_t n)
{
    json_t *phys = json_object_get(loc, "physicalLocation");
    const char *uri = str_at(json_object_get(phys, "artifactLocation"), "uri", NULL);
    if (!uri)
        return fail(err, n, "%s: no physicalLocation.artifactLocation.uri", where);
    const char *base = str_at(json_object_get(phys, "artifactLocation"), "uriBaseId", NULL);
    if (strstr(uri, "://") && strncmp(uri, "file://", 7) != 0)
        return fail(err, n, "%s: uri '%s' is neither relative nor file://", where, uri);
    if (!strncmp(uri, "../", 3) || strstr(uri, "/../"))
        return fail(err, n, "%s: uri '%s' climbs out of the source root", where, uri);
    if (base) {
        json_t *bases = json_object_get(run, "originalUriBaseIds");
        const char *root = str_at(json_object_get(bases, base), "uri", NULL);
        if (!root)
            return fail(err, n, "%s: uriBaseId %s not defined in originalUriBaseIds", where, base);
        if (strncmp(root, "file://", 7) != 0 || root[strlen(root) - 1] != '/')
            return fail(err, n, "%s: %s must be an absolute file:// URI ending in '/'", where,
                        base);
    }
    json_t *region = json_object_get(phys, "region");
    json_t *line = json_object_get(region, "startLine");
    if (!json_is_integer(line) || json_integer_value(line) < 1)
        return fail(err, n, "%s: region.startLine missing or < 1 (GitHub needs a line)", where);
    return true;
}

static bool rule_ok(json_t *rule, const char *where, char *err, size_t n)
{
    if (!str_at(rule, "id", NULL))
        return fail(err, n, "%s: no id", where);
    /* Shown at the top of an alert. */
    if (!str_at(rule, "shortDescription", "text"))
        return fail(err, n, "%s: no shortDescription.text", where);
    if (!str_at(rule, "fullDescription", "text"))
        return fail(err, n, "%s: no fullDescription.text", where);
    /* Shown as the alert's help; markdown preferred when present. */
    if (!str_at(rule, "help", "text"))
        return fail(err, n, "%s: no help.text", where);
    if (!str_at(rule, "help", "markdown"))
        return fail(err, n, "%s: no help.markdown", where);
    const char *uri = str_at(rule, "helpUri", NULL);
    if (!uri || strncmp(uri, "https://", 8) != 0)
        return fail(err, n, "%s: helpUri missing or not https", where);
    if (!is_level(str_at(rule, "defaultConfiguration", "level")))
        return fail(err, n, "%s: defaultConfiguration.level missing or invalid", where);
    json_t *props = json_object_get(rule, "properties");
    json_t *tags = json_object_get(props, "tags");
    if (!json_is_array(tags) || json_array_size(tags) == 0 || json_array_size(tags) > MAX_TAGS)
        return fail(err, n, "%s: properties.tags must hold 1..%d strings", where, MAX_TAGS);
    for (size_t i = 0; i < json_array_size(tags); i++)
        if (!json_is_string(json_array_get(tags, i)))
            return fail(err, n, "%s: a tag is not a string", where);
    const char *p = str_at(props, "precision", NULL);
    if (!p ||
        (strcmp(p, "very-high") && strcmp(p, "high") && strcmp(p, "medium") && strcmp(p, "low")))
        return fail(err, n, "%s: properties.precision missing or not very-high|high|medium|low",
                    where);
    return true;
}

static bool result_ok(json_t *run, json_t *rules, json_t *res, const char *where, char *err,
                      size_t n)
{
    const char *id = str_at(res, "ruleId", NULL);
    if (!id)
        return fail(err, n, "%s: no ruleId", where);
    json_t *ri = json_object_get(res, "ruleIndex");
    if (ri &&
        (!json_is_integer(ri) ||
         !str_at(json_array_get(rules, (size_t)json_integer_value(ri)), "id", NULL) ||
         strcmp(str_at(json_array_get(rules, (size_t)json_integer_value(ri)), "id", NULL), id)))
        return fail(err, n, "%s: ruleIndex does not point at rule %s", where, id);
    bool known = false;
    for (size_t i = 0; i < json_array_size(rules) && !known; i++)
        known = !strcmp(str_at(json_array_get(rules, i), "id", NULL), id);
    if (!known)
        return fail(err, n, "%s: ruleId %s names no rule of the driver", where, id);
    if (!str_at(res, "message", "text"))
        return fail(err, n, "%s: no message.text (GitHub shows only plain text messages)", where);
    const char *level = str_at(res, "level", NULL);
    if (level && !is_level(level))
        return fail(err, n, "%s: bad level", where);
    json_t *locs = json_object_get(res, "locations");
    if (!json_is_array(locs) || json_array_size(locs) == 0)
        return fail(err, n, "%s: no locations (GitHub needs one to show the alert)", where);
    if (json_array_size(locs) > MAX_LOCATIONS)
        return fail(err, n, "%s: more than %d locations", where, MAX_LOCATIONS);
    char sub[256];
    for (size_t i = 0; i < json_array_size(locs); i++) {
        snprintf(sub, sizeof sub, "%s.locations[%zu]", where, i);
        if (!location_ok(run, json_array_get(locs, i), sub, err, n))
            return false;
    }
    /* Tracking alerts across runs: fingerprints with string values. */
    json_t *fp = json_object_get(res, "partialFingerprints");
    if (!json_is_object(fp) || json_object_size(fp) == 0)
        return fail(err, n, "%s: no partialFingerprints", where);
    const char *key;
    json_t *v;
    json_object_foreach(fp, key, v)
    {
        if (!json_is_string(v) || !*json_string_value(v))
            return fail(err, n, "%s: partialFingerprints.%s is not a string", where, key);
    }
    return true;
}

bool hms_github_sarif_check(json_t *doc, char *err, size_t n)
{
    const char *version = str_at(doc, "version", NULL);
    if (!version || strcmp(version, "2.1.0") != 0)
        return fail(err, n, "version must be 2.1.0");
    if (!str_at(doc, "$schema", NULL))
        return fail(err, n, "no $schema");
    json_t *runs = json_object_get(doc, "runs");
    if (!json_is_array(runs) || json_array_size(runs) == 0 || json_array_size(runs) > MAX_RUNS)
        return fail(err, n, "runs must hold 1..%d runs", MAX_RUNS);
    char where[128];
    for (size_t r = 0; r < json_array_size(runs); r++) {
        json_t *run = json_array_get(runs, r);
        json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
        if (!str_at(driver, "name", NULL))
            return fail(err, n, "runs[%zu]: no tool.driver.name", r);
        if (!str_at(driver, "semanticVersion", NULL) && !str_at(driver, "version", NULL))
            return fail(err, n, "runs[%zu]: no tool.driver.semanticVersion or version", r);
        /* One analysis per category when several runs are uploaded. */
        if (!str_at(run, "automationDetails", "id"))
            return fail(err, n, "runs[%zu]: no automationDetails.id (category)", r);
        json_t *rules = json_object_get(driver, "rules");
        if (!json_is_array(rules) || json_array_size(rules) > MAX_RULES)
            return fail(err, n, "runs[%zu]: rules missing or more than %d", r, MAX_RULES);
        for (size_t i = 0; i < json_array_size(rules); i++) {
            snprintf(where, sizeof where, "runs[%zu].rules[%zu]", r, i);
            if (!rule_ok(json_array_get(rules, i), where, err, n))
                return false;
        }
        json_t *results = json_object_get(run, "results");
        if (!json_is_array(results) || json_array_size(results) > MAX_RESULTS)
            return fail(err, n, "runs[%zu]: results missing or more than %d", r, MAX_RESULTS);
        for (size_t i = 0; i < json_array_size(results); i++) {
            snprintf(where, sizeof where, "runs[%zu].results[%zu]", r, i);
            if (!result_ok(run, rules, json_array_get(results, i), where, err, n))
                return false;
        }
    }
    return true;
}
