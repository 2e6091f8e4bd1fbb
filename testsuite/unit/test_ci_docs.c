/* The CI material a newcomer copies (docs/ci.md, the example workflow, the
 * pre-commit hooks) must stay true: the YAML files parse, and every
 * hms-lint option they use is one the binary's --help lists. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "testsuite/support/run.h"

static const char *const files[] = {"docs/ci.md", "examples/ci/hms-lint.yml",
                                    ".pre-commit-hooks.yaml"};

static char *read_repo_file(const char *rel)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", HMS_SOURCE_DIR, rel);
    size_t len;
    char *text = hms_read_file(path, &len);
    cr_assert(text, "cannot read %s", path);
    return text;
}

Test(ci_docs, yaml_files_parse)
{
    for (size_t i = 1; i < sizeof files / sizeof files[0]; i++) {
        char *text = read_repo_file(files[i]);
        yaml_parser_t p;
        yaml_parser_initialize(&p);
        yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
        yaml_document_t doc;
        bool ok = yaml_parser_load(&p, &doc);
        cr_assert(ok, "%s: %s at line %zu", files[i], p.problem ? p.problem : "?",
                  p.problem_mark.line + 1);
        cr_assert_not_null(yaml_document_get_root_node(&doc), "%s is empty", files[i]);
        yaml_document_delete(&doc);
        yaml_parser_delete(&p);
        free(text);
    }
}

Test(ci_docs, every_option_used_exists)
{
    hms_run_result help = hms_run((const char *[]){"--help", NULL});
    cr_assert_eq(help.status, 0);
    size_t checked = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *text = read_repo_file(files[i]);
        /* Options on lines that run hms-lint (other tools' options differ). */
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            if (!strstr(line, "hms-lint --") && !strstr(line, "`--"))
                continue;
            for (char *p = strstr(line, "--"); p; p = strstr(p + 2, "--")) {
                if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '-'))
                    continue;
                char name[64] = "  --";
                size_t n = 4;
                for (const char *q = p + 2;
                     n + 1 < sizeof name && (islower((unsigned char)*q) || *q == '-'); q++)
                    name[n++] = *q;
                name[n] = '\0';
                if (n <= 5 || !strcmp(name, "  --branch") || !strcmp(name, "  --global") ||
                    !strcmp(name, "  --add") || !strcmp(name, "  --depth") ||
                    !strcmp(name, "  --build"))
                    continue; /* git's and cmake's own */
                cr_assert(strstr(help.out, name), "%s uses %s, which --help does not list",
                          files[i], name + 2);
                checked++;
            }
        }
        free(text);
    }
    cr_assert_gt(checked, 10, "the scan found the options");
    hms_run_free(&help);
}
