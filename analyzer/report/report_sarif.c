/* SARIF 2.1.0 writer (see report_sarif.h). */
#include "analyzer/report/report_json.h"
#include "analyzer/report/report_sarif.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/report/fingerprint.h"
#include "analyzer/report/source_root.h"
#include "passes/checks/checks.h"

#define SARIF_SCHEMA_URI                                                                           \
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

char *hms_path_to_uri(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(path);
    char *out = malloc(3 * n + 8);
    if (!out)
        return NULL;
    size_t o = 0;
    if (path[0] == '/') {
        memcpy(out, "file://", 7);
        o = 7;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                     c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (plain) {
            out[o++] = (char)c;
        } else {
            out[o++] = '%';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    out[o] = '\0';
    return out;
}

static const char *level_of(hms_severity s)
{
    return s == HMS_SEV_ERROR ? "error" : s == HMS_SEV_WARNING ? "warning" : "note";
}

/* The writer's state: options and the occurrence count of each
 * fingerprint per file (GitHub's "hash:occurrence" form). */
typedef struct {
    const hms_sarif_options *o;
    json_t *seen;
} sarif_ctx;

#define SRCROOT "%SRCROOT%"

/* Root-relative with uriBaseId when the file lies under the source root,
 * else the path as given (absolute ones as file:// URIs). */
static json_t *artifact(const sarif_ctx *c, const char *path)
{
    char *rel = c->o ? hms_path_under_root(c->o->source_root, path ? path : "") : NULL;
    char *uri = hms_path_to_uri(rel ? rel : path ? path : "");
    json_t *o = json_pack("{s:s}", "uri", uri ? uri : "");
    if (rel)
        json_object_set_new(o, "uriBaseId", json_string(SRCROOT));
    free(uri);
    free(rel);
    return o;
}

/* SARIF regions are 1-based with an exclusive end column, as ours are. */
static json_t *region(unsigned line, unsigned col, unsigned end_line, unsigned end_col)
{
    json_t *r = json_object();
    json_object_set_new(r, "startLine", json_integer(line));
    if (col)
        json_object_set_new(r, "startColumn", json_integer(col));
    if (end_line >= line && end_line > 0) {
        json_object_set_new(r, "endLine", json_integer(end_line));
        if (end_col)
            json_object_set_new(r, "endColumn", json_integer(end_col));
    }
    return r;
}

static json_t *physical(const sarif_ctx *c, const char *file, unsigned line, unsigned col,
                        unsigned end_line, unsigned end_col)
{
    json_t *p = json_pack("{s:o}", "artifactLocation", artifact(c, file));
    if (line > 0)
        json_object_set_new(p, "region", region(line, col, end_line, end_col));
    return p;
}

static json_t *rules_json(void)
{
    size_t n;
    const hms_check_def *defs = hms_check_registry(&n);
    json_t *rules = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(rules, hms_sarif_rule(defs[i].name));
    return rules;
}

static json_t *fixes_json(const sarif_ctx *c, const hms_finding *f, const char *file)
{
    /* One fix holding every replacement, grouped by the file they change. */
    json_t *changes = json_array();
    for (size_t i = 0; i < f->nfixits; i++) {
        const hms_fixit *x = &f->fixits[i];
        const char *xf = x->file ? x->file : file;
        bool done = false;
        for (size_t j = 0; j < i && !done; j++)
            done = !strcmp(f->fixits[j].file ? f->fixits[j].file : file, xf);
        if (done)
            continue;
        json_t *repl = json_array();
        for (size_t j = i; j < f->nfixits; j++) {
            const hms_fixit *y = &f->fixits[j];
            if (strcmp(y->file ? y->file : file, xf) != 0)
                continue;
            unsigned el = y->end_line ? y->end_line : y->line;
            unsigned ec = y->end_line ? y->end_col : y->col;
            json_array_append_new(
                repl, json_pack("{s:o, s:{s:s}}", "deletedRegion", region(y->line, y->col, el, ec),
                                "insertedContent", "text", y->replacement ? y->replacement : ""));
        }
        json_array_append_new(changes, json_pack("{s:o, s:o}", "artifactLocation", artifact(c, xf),
                                                 "replacements", repl));
    }
    return json_pack("[{s:{s:s}, s:o}]", "description", "text", "apply the suggested change",
                     "artifactChanges", changes);
}

static json_t *result_json(sarif_ctx *c, const hms_finding *f, const char *file_path,
                           const char *kernel)
{
    const char *file = f->file ? f->file : file_path;
    json_t *r = json_object();
    json_object_set_new(r, "ruleId", json_string(f->check ? f->check : "hms-unknown"));
    size_t n;
    const hms_check_def *defs = hms_check_registry(&n);
    for (size_t i = 0; f->check && i < n; i++)
        if (!strcmp(defs[i].name, f->check))
            json_object_set_new(r, "ruleIndex", json_integer((json_int_t)i));
    json_object_set_new(r, "level", json_string(level_of(f->severity)));
    json_object_set_new(r, "message", json_pack("{s:s}", "text", f->message ? f->message : ""));
    json_object_set_new(
        r, "locations",
        json_pack("[{s:o}]", "physicalLocation",
                  physical(c, file, f->line, f->col, f->end_line, f->end_line ? f->end_col : 0)));
    if (f->nnotes) {
        json_t *rel = json_array();
        for (size_t i = 0; i < f->nnotes; i++) {
            const hms_note *no = &f->notes[i];
            json_array_append_new(
                rel, json_pack("{s:I, s:o, s:{s:s}}", "id", (json_int_t)i, "physicalLocation",
                               physical(c, no->file ? no->file : file, no->line, no->col, 0, 0),
                               "message", "text", no->message ? no->message : ""));
        }
        json_object_set_new(r, "relatedLocations", rel);
    }
    if (f->nfixits)
        json_object_set_new(r, "fixes", fixes_json(c, f, file));
    /* The same fingerprint twice in one file gets ":2", ":3"... */
    hms_fingerprint fp = hms_finding_fingerprint(f, file_path, kernel, c->o ? c->o->sources : NULL);
    char key[600], value[40];
    snprintf(key, sizeof key, "%s\n%s", file ? file : "", fp.hex);
    json_int_t nth = json_integer_value(json_object_get(c->seen, key)) + 1;
    json_object_set_new(c->seen, key, json_integer(nth));
    snprintf(value, sizeof value, "%s:%lld", fp.hex, (long long)nth);
    json_object_set_new(r, "partialFingerprints", json_pack("{s:s}", HMS_FINGERPRINT_KEY, value));
    return r;
}

/* "0.1.0" is already SemVer; anything else is reported without one. */
static bool is_semver(const char *v)
{
    int parts = 0;
    for (const char *p = v; p && *p;) {
        if (*p < '0' || *p > '9')
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
        parts++;
        if (*p == '.')
            p++;
        else if (*p == '-' || *p == '+' || *p == '\0')
            break;
        else
            return false;
    }
    return parts == 3;
}

/* A record of the run's diagnostic sink as a tool execution notification:
 * its level and message, and its file and place when it names them. */
static json_t *notification_json(const sarif_ctx *c, const hms_diagnostic *d)
{
    static const char *const levels[] = {"note", "warning", "error"};
    json_t *n = json_pack("{s:s, s:{s:s}}", "level", levels[d->level], "message", "text",
                          d->message ? d->message : "");
    if (d->file) {
        json_t *phys = json_pack("{s:o}", "artifactLocation", artifact(c, d->file));
        if (d->line)
            json_object_set_new(phys, "region", region(d->line, d->col, 0, 0));
        json_object_set_new(n, "locations", json_pack("[{s:o}]", "physicalLocation", phys));
    }
    return n;
}

/* The sink's records as notifications; *failed when one is an error. */
static json_t *sink_notifications(const sarif_ctx *c, hms_diag_sink *s, bool *failed)
{
    json_t *a = json_array();
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < s->n; i++) {
        json_array_append_new(a, notification_json(c, &s->v[i]));
        *failed |= s->v[i].level == HMS_DIAG_ERROR;
    }
    pthread_mutex_unlock(&s->lock);
    return a;
}

json_t *hms_report_to_sarif(const hms_report *r, const hms_sarif_options *o)
{
    sarif_ctx c = {o, json_object()};
    json_t *results = json_array();
    bool failed = false;
    json_t *notifications =
        o && o->notifications ? sink_notifications(&c, o->notifications, &failed) : json_array();
    for (size_t i = 0; i < r->nfiles; i++) {
        const hms_file_report *fr = &r->files[i];
        failed |= fr->nerrors > 0;
        for (size_t e = 0; e < fr->nerrors && !(o && o->notifications); e++)
            json_array_append_new(notifications,
                                  json_pack("{s:s, s:{s:s}, s:[{s:{s:o}}]}", "level", "error",
                                            "message", "text", fr->errors[e], "locations",
                                            "physicalLocation", "artifactLocation",
                                            artifact(&c, fr->path)));
        for (size_t k = 0; k < fr->nkernels; k++) {
            const hms_kernel_report *kr = &fr->kernels[k];
            for (size_t d = 0; d < kr->ndiagnostics; d++) {
                const hms_finding *f = &kr->diagnostics[d];
                if (f->severity == HMS_SEV_NOTE && !(o && o->include_notes))
                    continue;
                json_array_append_new(results, result_json(&c, f, fr->path, kr->name));
            }
        }
    }
    json_decref(c.seen);
    bool ok = !failed;
    const char *version = r->tool_version ? r->tool_version : "unknown";
    json_t *driver =
        json_pack("{s:s, s:s, s:s, s:o}", "name", r->tool_name ? r->tool_name : "hms-lint",
                  "version", version, "informationUri", HMS_PROJECT_URI, "rules", rules_json());
    if (is_semver(version))
        json_object_set_new(driver, "semanticVersion", json_string(version));
    json_t *run = json_pack("{s:{s:o}, s:[{s:b, s:o}], s:o}", "tool", "driver", driver,
                            "invocations", "executionSuccessful", ok, "toolExecutionNotifications",
                            notifications, "results", results);
    /* GitHub keys an analysis by this id's "category/" part: one per target. */
    char id[256];
    snprintf(id, sizeof id, "hms-lint/%s/", r->arch ? r->arch : "default");
    json_object_set_new(run, "automationDetails", json_pack("{s:s}", "id", id));
    if (o && o->source_root) {
        char *uri = hms_path_to_uri(o->source_root);
        char *dir = NULL;
        if (uri && asprintf(&dir, "%s%s", uri, uri[strlen(uri) - 1] == '/' ? "" : "/") < 0)
            dir = NULL;
        if (dir)
            json_object_set_new(run, "originalUriBaseIds",
                                json_pack("{s:{s:s}}", SRCROOT, "uri", dir));
        free(dir);
        free(uri);
    }
    if (r->arch)
        json_object_set_new(run, "properties", json_pack("{s:s}", "arch", r->arch));
    return json_pack("{s:s, s:s, s:[o]}", "$schema", SARIF_SCHEMA_URI, "version", "2.1.0", "runs",
                     run);
}

bool hms_write_sarif(const hms_report *r, FILE *out, const hms_sarif_options *o)
{
    return hms_json_dump_report(hms_report_to_sarif(r, o), out);
}
