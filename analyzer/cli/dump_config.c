/* `hms-lint --dump-config [file]`: the configuration in effect for a file
 * (the nearest .hms-lint, or --config-file, under the command line) as a
 * .hms-lint in clang-tidy's spelling, which --config-file reads back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/cli/commands.h"
#include "analyzer/cli/config.h"
#include "analyzer/report/diag_sink.h"
#include "passes/checks/checks.h"

static const char *const fail_on_names[] = {"error", "warning", "note", "never"};

/* A YAML single-quoted scalar. */
static void quoted(FILE *out, const char *s)
{
    fputc('\'', out);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputc('\'', out);
        fputc(*s, out);
    }
    fputc('\'', out);
}

static void list(FILE *out, const char *key, const hms_strvec *v)
{
    if (!v->n)
        return;
    fprintf(out, "%s:\n", key);
    for (size_t i = 0; i < v->n; i++) {
        fputs("  - ", out);
        quoted(out, v->v[i]);
        fputc('\n', out);
    }
}

int hms_cmd_dump_config(const hms_options *o)
{
    const char *source = o->files.n ? o->files.v[0] : ".";
    char *path = o->config_file ? strdup(o->config_file) : hms_config_find(source);
    hms_config cfg;
    hms_file_error err;
    bool have = false;
    if (path) {
        if (!hms_config_load(path, &cfg, &err)) {
            hms_diag_print_file_error(stderr, HMS_DIAG_ERROR, &err);
            free(path);
            return 2;
        }
        have = true;
    }
    hms_merged_options m;
    hms_config_merge(have ? &cfg : NULL, o, &m);

    /* The enabled checks spelled out, so the dump means the same later. */
    size_t n;
    const hms_check_def *defs = hms_check_registry(&n);
    char *checks = NULL;
    size_t len = 0;
    FILE *c = open_memstream(&checks, &len);
    if (!c) {
        hms_diag_printf(stderr, (hms_diag_head){HMS_DIAG_ERROR, NULL, 0, 0, NULL, NULL},
                        "out of memory");
        free(path);
        if (have)
            hms_config_free(&cfg);
        hms_merged_options_free(&m);
        return 2;
    }
    fputs("-*", c);
    for (size_t i = 0; i < n; i++)
        if (hms_check_enabled(m.opts.checks, &defs[i]))
            fprintf(c, ",%s", defs[i].name);
    fclose(c);

    printf("# hms-lint configuration for %s (%s%s)\n", source,
           path ? "from " : "no .hms-lint found: defaults", path ? path : "");
    printf("Checks: ");
    quoted(stdout, checks);
    printf("\nWarningsAsErrors: ");
    quoted(stdout, m.opts.warnings_as_errors ? m.opts.warnings_as_errors : "");
    printf("\nHeaderFilterRegex: ");
    quoted(stdout, m.opts.header_filter ? m.opts.header_filter : "");
    printf("\narch: %s\nfail-on: %s\n", m.opts.arch, fail_on_names[m.opts.fail_on]);
    list(stdout, "launch", &m.opts.launches);
    list(stdout, "param", &m.opts.params);

    free(checks);
    free(path);
    hms_merged_options_free(&m);
    if (have)
        hms_config_free(&cfg);
    return 0;
}
