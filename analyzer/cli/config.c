/* .hms-lint lookup, YAML parsing (libyaml document API) and merging under
 * the command line; see config.h. */
#include "analyzer/cli/config.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "analyzer/frontend/launch_config.h"
#include "runtime/arch.h"

static bool is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Absolute directory to start the search from: the source's own directory
 * (resolved when it exists, else taken lexically against the cwd). */
static char *start_dir(const char *source)
{
    char *abs = realpath(source, NULL);
    if (!abs) {
        if (source[0] == '/') {
            abs = strdup(source);
        } else {
            char cwd[PATH_MAX];
            if (!getcwd(cwd, sizeof cwd) || asprintf(&abs, "%s/%s", cwd, source) < 0)
                return NULL;
        }
    }
    if (!abs || is_directory(abs))
        return abs;
    char *dir = strdup(dirname(abs));
    free(abs);
    return dir;
}

char *hms_config_find(const char *source)
{
    char *dir = start_dir(source);
    if (!dir)
        return NULL;
    for (;;) {
        char *candidate = NULL;
        if (asprintf(&candidate, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, HMS_CONFIG_NAME) < 0)
            break;
        if (is_regular_file(candidate)) {
            free(dir);
            return candidate;
        }
        free(candidate);
        if (strcmp(dir, "/") == 0 || dir[0] == '\0')
            break;
        char *slash = strrchr(dir, '/');
        if (slash == dir)
            dir[1] = '\0';
        else if (slash)
            *slash = '\0';
        else
            break;
    }
    free(dir);
    return NULL;
}

void hms_config_free(hms_config *c)
{
    free(c->path);
    free(c->checks);
    free(c->arch);
    for (size_t i = 0; i < c->nlaunches; i++)
        free(c->launches[i]);
    free(c->launches);
    for (size_t i = 0; i < c->nparams; i++)
        free(c->params[i]);
    free(c->params);
    free(c->warnings_as_errors);
    free(c->header_filter);
    memset(c, 0, sizeof *c);
}

typedef struct {
    yaml_document_t *doc;
    const char *origin;
    hms_file_error *err;
} cfg_ctx;

static bool fail_at(cfg_ctx *x, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail_at(cfg_ctx *x, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hms_file_error_vset(x->err, x->origin, n ? (unsigned)n->start_mark.line + 1 : 1,
                        n ? (unsigned)n->start_mark.column + 1 : 0, fmt, ap);
    va_end(ap);
    return false;
}

static char *scalar_dup(const yaml_node_t *n)
{
    return strndup((const char *)n->data.scalar.value, n->data.scalar.length);
}

static bool push_str(char ***v, size_t *n, char *s)
{
    if (!s)
        return false;
    char **nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (!nv) {
        free(s);
        return false;
    }
    nv[(*n)++] = s;
    *v = nv;
    return true;
}

/* Checks one entry as the command line would; false with the reason. */
typedef bool (*entry_check)(const char *s, char *why, size_t len);

static bool check_launch(const char *s, char *why, size_t len)
{
    hms_launch_spec l;
    if (!hms_parse_launch_spec(s, 0, &l, why, len))
        return false;
    hms_launch_spec_free(&l);
    return true;
}

static bool check_param(const char *s, char *why, size_t len)
{
    hms_param_spec p;
    if (!hms_parse_param_spec(s, &p, why, len))
        return false;
    hms_param_spec_free(&p);
    return true;
}

/* The entry just read from node n passes `check`, or the file fails at n's line. */
static bool checked(cfg_ctx *x, const char *key, const yaml_node_t *n, const char *s,
                    entry_check check)
{
    char why[256];
    if (!check || check(s, why, sizeof why))
        return true;
    return fail_at(x, n, "%s '%s': %s", key, s, why);
}

/* A scalar, or a sequence of scalars: every value goes to (v, n), each
 * passing `check` (may be NULL). */
static bool read_string_list(cfg_ctx *x, const char *key, yaml_node_t *val, char ***v, size_t *n,
                             bool allow_mapping, entry_check check)
{
    if (val->type == YAML_SCALAR_NODE) {
        if (val->data.scalar.length == 0)
            return true;
        return push_str(v, n, scalar_dup(val)) && checked(x, key, val, (*v)[*n - 1], check);
    }
    if (val->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = val->data.sequence.items.start;
             it < val->data.sequence.items.top; it++) {
            yaml_node_t *item = yaml_document_get_node(x->doc, *it);
            if (!item || item->type != YAML_SCALAR_NODE)
                return fail_at(x, item ? item : val, "'%s' entries must be strings", key);
            if (!push_str(v, n, scalar_dup(item)))
                return fail_at(x, item, "out of memory");
            if (!checked(x, key, item, (*v)[*n - 1], check))
                return false;
        }
        return true;
    }
    if (allow_mapping && val->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = val->data.mapping.pairs.start; p < val->data.mapping.pairs.top;
             p++) {
            yaml_node_t *k = yaml_document_get_node(x->doc, p->key);
            yaml_node_t *vv = yaml_document_get_node(x->doc, p->value);
            if (!k || !vv || k->type != YAML_SCALAR_NODE || vv->type != YAML_SCALAR_NODE)
                return fail_at(x, k ? k : val, "'%s' entries must be name: value", key);
            char *s = NULL;
            if (asprintf(&s, "%.*s=%.*s", (int)k->data.scalar.length,
                         (const char *)k->data.scalar.value, (int)vv->data.scalar.length,
                         (const char *)vv->data.scalar.value) < 0)
                return fail_at(x, k, "out of memory");
            if (!push_str(v, n, s))
                return fail_at(x, k, "out of memory");
            if (!checked(x, key, k, (*v)[*n - 1], check))
                return false;
        }
        return true;
    }
    return fail_at(x, val, "'%s' must be a string or a list of strings", key);
}

static bool read_scalar(cfg_ctx *x, const char *key, yaml_node_t *val, char **out)
{
    if (val->type != YAML_SCALAR_NODE || val->data.scalar.length == 0)
        return fail_at(x, val, "'%s' must be a non-empty string", key);
    free(*out);
    *out = scalar_dup(val);
    return *out != NULL;
}

/* A string that may be '' (clang-tidy writes WarningsAsErrors: ''): none. */
static bool read_optional_scalar(cfg_ctx *x, const char *key, yaml_node_t *val, char **out)
{
    if (val->type == YAML_SCALAR_NODE && val->data.scalar.length == 0)
        return true;
    return read_scalar(x, key, val, out);
}

/* arch: names a built-in target or a readable description, said at its line. */
static bool known_arch(cfg_ctx *x, const yaml_node_t *n, const char *arch)
{
    char why[512];
    if (hms_arch_get(arch, why, sizeof why))
        return true;
    return fail_at(x, n, "arch: %s", why);
}

static bool read_checks(cfg_ctx *x, yaml_node_t *val, hms_config *out)
{
    char **v = NULL;
    size_t n = 0;
    bool ok = read_string_list(x, "checks", val, &v, &n, false, NULL);
    if (ok && n > 0) {
        size_t total = 1;
        for (size_t i = 0; i < n; i++)
            total += strlen(v[i]) + 1;
        free(out->checks);
        out->checks = calloc(1, total);
        for (size_t i = 0; out->checks && i < n; i++) {
            if (i)
                strcat(out->checks, ",");
            strcat(out->checks, v[i]);
        }
    }
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    return ok;
}

static bool read_fail_on(cfg_ctx *x, yaml_node_t *val, hms_config *out)
{
    static const char *const names[] = {"error", "warning", "note", "never"};
    if (val->type == YAML_SCALAR_NODE) {
        for (int i = 0; i < 4; i++) {
            if (val->data.scalar.length == strlen(names[i]) &&
                memcmp(val->data.scalar.value, names[i], val->data.scalar.length) == 0) {
                out->has_fail_on = true;
                out->fail_on = (hms_fail_on)i;
                return true;
            }
        }
    }
    return fail_at(x, val, "'fail-on' must be one of error, warning, note, never");
}

/* "", "~" and "null" scalars: an empty document or setting. */
static bool is_null(const yaml_node_t *n)
{
    if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return n->type == YAML_SCALAR_NODE && n->data.scalar.length == 0;
    const char *v = (const char *)n->data.scalar.value;
    return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL");
}

/* clang-tidy's spelling of a setting -> ours. */
static const char *canonical_key(const char *key)
{
    static const char *const alias[][2] = {
        {"Checks", "checks"},
        {"WarningsAsErrors", "warnings-as-errors"},
        {"HeaderFilterRegex", "header-filter"},
        {"InheritParentConfig", "inherit-parent-config"},
    };
    for (size_t i = 0; i < sizeof alias / sizeof *alias; i++)
        if (strcmp(key, alias[i][0]) == 0)
            return alias[i][1];
    return key;
}

static bool read_bool(cfg_ctx *x, const char *key, yaml_node_t *val, bool *out)
{
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "on"};
    static const char *const no[] = {"false", "False", "FALSE", "no", "off"};
    const char *v = val->type == YAML_SCALAR_NODE ? (const char *)val->data.scalar.value : "";
    for (size_t i = 0; i < 5; i++) {
        if (strcmp(v, yes[i]) == 0 || strcmp(v, no[i]) == 0) {
            *out = strcmp(v, yes[i]) == 0;
            return true;
        }
    }
    return fail_at(x, val, "'%s' must be true or false", key);
}

static bool read_root(cfg_ctx *x, yaml_node_t *root, hms_config *out)
{
    if (is_null(root))
        return true;
    if (root->type != YAML_MAPPING_NODE)
        return fail_at(x, root,
                       "expected a mapping of settings (checks, arch, fail-on, launch, "
                       "param)");
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(x->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(x->doc, p->value);
        if (!k || !v || k->type != YAML_SCALAR_NODE)
            return fail_at(x, k ? k : root, "setting names must be strings");
        const char *key = canonical_key((const char *)k->data.scalar.value);
        bool ok;
        if (is_null(v) &&
            (!strcmp(key, "checks") || !strcmp(key, "arch") || !strcmp(key, "fail-on") ||
             !strcmp(key, "launch") || !strcmp(key, "param")))
            ok = true; /* "launch:" with nothing after it: no setting */
        else if (strcmp(key, "checks") == 0)
            ok = read_checks(x, v, out);
        else if (strcmp(key, "arch") == 0)
            ok = read_scalar(x, key, v, &out->arch) && known_arch(x, v, out->arch);
        else if (strcmp(key, "fail-on") == 0)
            ok = read_fail_on(x, v, out);
        else if (strcmp(key, "launch") == 0)
            ok = read_string_list(x, key, v, &out->launches, &out->nlaunches, false, check_launch);
        else if (strcmp(key, "param") == 0)
            ok = read_string_list(x, key, v, &out->params, &out->nparams, true, check_param);
        else if (strcmp(key, "warnings-as-errors") == 0)
            ok = read_optional_scalar(x, key, v, &out->warnings_as_errors);
        else if (strcmp(key, "header-filter") == 0)
            ok = read_optional_scalar(x, key, v, &out->header_filter);
        else if (strcmp(key, "inherit-parent-config") == 0)
            ok = read_bool(x, key, v, &out->inherit_parent);
        else
            return fail_at(x, k,
                           "unknown setting '%s' (expected checks, arch, fail-on, launch, param, "
                           "warnings-as-errors, header-filter, inherit-parent-config, or "
                           "clang-tidy's Checks, WarningsAsErrors, HeaderFilterRegex, "
                           "InheritParentConfig)",
                           (const char *)k->data.scalar.value);
        if (!ok)
            return false;
    }
    return true;
}

bool hms_config_parse(const char *text, size_t len, const char *origin, hms_config *out,
                      hms_file_error *err)
{
    memset(out, 0, sizeof *out);
    out->path = strdup(origin);
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        hms_file_error_set(err, origin, 0, 0, "cannot initialise the YAML parser");
        hms_config_free(out);
        return false;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    yaml_document_t doc;
    bool ok = true;
    if (!yaml_parser_load(&parser, &doc)) {
        hms_file_error_set(err, origin, (unsigned)parser.problem_mark.line + 1,
                           (unsigned)parser.problem_mark.column + 1, "%s%s%s",
                           parser.problem ? parser.problem : "malformed YAML",
                           parser.context ? " " : "", parser.context ? parser.context : "");
        ok = false;
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        cfg_ctx x = {&doc, origin, err};
        if (root)
            ok = read_root(&x, root, out);
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    if (!ok)
        hms_config_free(out);
    return ok;
}

/* Copies of the parent's strings where the child gives none. */
static void take_missing(char **child, const char *parent)
{
    if (!*child && parent)
        *child = strdup(parent);
}

static void take_missing_list(char ***v, size_t *n, char *const *pv, size_t pn)
{
    if (*n || !pn)
        return;
    for (size_t i = 0; i < pn; i++)
        push_str(v, n, strdup(pv[i]));
}

/* InheritParentConfig: the nearest .hms-lint above the directory of `path`
 * fills what this one does not set; checks are the parent's then ours. */
static bool inherit_from_parent(const char *path, hms_config *c, hms_file_error *err)
{
    char *dir = realpath(path, NULL);
    char *slash = dir ? strrchr(dir, '/') : NULL;
    char *parent_path = NULL;
    if (slash && slash != dir) {
        *slash = '\0';
        slash = strrchr(dir, '/');
        if (slash) {
            slash[slash == dir ? 1 : 0] = '\0';
            parent_path = hms_config_find(dir);
        }
    }
    free(dir);
    if (!parent_path)
        return true; /* nothing above: the file stands alone */
    hms_config p;
    bool ok = hms_config_load(parent_path, &p, err);
    free(parent_path);
    if (!ok) {
        hms_config_free(c);
        return false;
    }
    if (p.checks && c->checks) {
        char *both = NULL;
        if (asprintf(&both, "%s,%s", p.checks, c->checks) >= 0) {
            free(c->checks);
            c->checks = both;
        }
    }
    take_missing(&c->checks, p.checks);
    take_missing(&c->arch, p.arch);
    take_missing(&c->warnings_as_errors, p.warnings_as_errors);
    take_missing(&c->header_filter, p.header_filter);
    if (!c->has_fail_on && p.has_fail_on) {
        c->has_fail_on = true;
        c->fail_on = p.fail_on;
    }
    take_missing_list(&c->launches, &c->nlaunches, p.launches, p.nlaunches);
    take_missing_list(&c->params, &c->nparams, p.params, p.nparams);
    hms_config_free(&p);
    return true;
}

bool hms_config_load(const char *path, hms_config *out, hms_file_error *err)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) {
        hms_file_error_set(err, path, 0, 0, "cannot read: %s", strerror(errno));
        return false;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    char chunk[4096];
    size_t got;
    while (mem && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, got, mem);
    bool read_failed = ferror(f) != 0;
    fclose(f);
    if (mem)
        fclose(mem);
    if (!mem || read_failed) {
        free(buf);
        hms_file_error_set(err, path, 0, 0, "cannot read the file");
        return false;
    }
    bool ok = hms_config_parse(buf, len, path, out, err);
    free(buf);
    if (ok && out->inherit_parent)
        ok = inherit_from_parent(path, out, err);
    return ok;
}

/* Text before the first `sep`: the kernel of a --launch, the name of a --param. */
static size_t key_len(const char *s, char sep)
{
    const char *p = strchr(s, sep);
    return p ? (size_t)(p - s) : strlen(s);
}

static bool cli_has_key(const hms_strvec *cli, const char *entry, char sep)
{
    size_t kl = key_len(entry, sep);
    for (size_t i = 0; i < cli->n; i++)
        if (key_len(cli->v[i], sep) == kl && strncmp(cli->v[i], entry, kl) == 0)
            return true;
    return false;
}

static void merge_list(hms_strvec *out, char *const *cfg, size_t ncfg, const hms_strvec *cli,
                       char sep)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < ncfg; i++)
        if (!cli_has_key(cli, cfg[i], sep))
            hms_strvec_push(out, cfg[i]);
    for (size_t i = 0; i < cli->n; i++)
        hms_strvec_push(out, cli->v[i]);
}

void hms_config_merge(const hms_config *cfg, const hms_options *cli, hms_merged_options *out)
{
    out->opts = *cli;
    out->checks_buf = NULL;
    /* Vectors we hand out are our own; files/compiler_args stay shared (read-only). */
    merge_list(&out->opts.launches, cfg ? cfg->launches : NULL, cfg ? cfg->nlaunches : 0,
               &cli->launches, ':');
    /* -D NAME=VALUE and --param=k.p=v both key on the text before '='. */
    merge_list(&out->opts.params, cfg ? cfg->params : NULL, cfg ? cfg->nparams : 0, &cli->params,
               '=');
    if (!cfg)
        return;
    if (cfg->checks) {
        if (cli->checks && *cli->checks) {
            if (asprintf(&out->checks_buf, "%s,%s", cfg->checks, cli->checks) < 0)
                out->checks_buf = NULL;
            out->opts.checks = out->checks_buf ? out->checks_buf : cli->checks;
        } else {
            out->opts.checks = cfg->checks;
        }
    }
    /* What was typed wins over the config, even when it equals the default;
     * so does a value other than the default (options set by a caller). */
    if (cfg->arch && !cli->arch_given && (!cli->arch || strcmp(cli->arch, HMS_ARCH_DEFAULT) == 0))
        out->opts.arch = cfg->arch;
    if (cfg->has_fail_on && !cli->fail_on_given && cli->fail_on == HMS_FAIL_WARNING)
        out->opts.fail_on = cfg->fail_on;
    if (cfg->warnings_as_errors && !cli->warnings_as_errors)
        out->opts.warnings_as_errors = cfg->warnings_as_errors;
    if (cfg->header_filter && !cli->header_filter)
        out->opts.header_filter = cfg->header_filter;
}

void hms_merged_options_free(hms_merged_options *m)
{
    hms_strvec_free(&m->opts.launches);
    hms_strvec_free(&m->opts.params);
    free(m->checks_buf);
    memset(m, 0, sizeof *m);
}
