/* Expansion of @file / --options-file / -optf arguments. */
#include "analyzer/frontend/response_files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Response files naming response files: deeper than this is a cycle. */
#define MAX_DEPTH 8

static void expand(const char *const *argv, size_t argc, const char *directory, const char *context,
                   int depth, hms_flag_list *out, hms_diag_sink *diags);

/* Splits a response file's text into arguments, as gcc and nvcc read them. */
static void split_args(const char *text, hms_flag_list *args)
{
    size_t cap = strlen(text) + 1;
    char *cur = malloc(cap);
    if (!cur)
        return;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        size_t n = 0;
        char quote = 0;
        for (; *p; p++) {
            if (quote) {
                if (*p == quote)
                    quote = 0;
                else if (*p == '\\' && quote == '"' && (p[1] == '"' || p[1] == '\\'))
                    cur[n++] = *++p;
                else
                    cur[n++] = *p;
            } else if (*p == '"' || *p == '\'') {
                quote = *p;
            } else if (*p == '\\' && p[1]) {
                cur[n++] = *++p;
            } else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
                break;
            } else {
                cur[n++] = *p;
            }
        }
        cur[n] = '\0';
        hms_flag_list_push(args, cur);
    }
    free(cur);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    char buf[4096];
    size_t got;
    while (m && (got = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, got, m);
    bool bad = ferror(f);
    fclose(f);
    if (m)
        fclose(m);
    if (bad) {
        free(text);
        return NULL;
    }
    return text;
}

static void expand_file(const char *name, const char *directory, const char *context, int depth,
                        hms_flag_list *out, hms_diag_sink *diags)
{
    char *path = NULL;
    if (name[0] == '/' || !directory || !*directory)
        path = strdup(name);
    else if (asprintf(&path, "%s/%s", directory, name) < 0)
        path = NULL;
    if (!path)
        return;
    char *text = depth < MAX_DEPTH ? read_text(path) : NULL;
    if (!text) {
        hms_diagf(diags, (hms_diag_head){HMS_DIAG_WARNING, path, 0, 0, NULL, NULL},
                  "response file named by %s: %s; its flags are left out",
                  context ? context : "compile command",
                  depth >= MAX_DEPTH ? "nests too deep (a cycle?)" : strerror(errno));
        free(path);
        return;
    }
    hms_flag_list args = {0};
    split_args(text, &args);
    expand((const char *const *)args.v, args.n, directory, context, depth + 1, out, diags);
    hms_flag_list_free(&args);
    free(text);
    free(path);
}

static void expand(const char *const *argv, size_t argc, const char *directory, const char *context,
                   int depth, hms_flag_list *out, hms_diag_sink *diags)
{
    for (size_t i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '@' && a[1]) {
            expand_file(a + 1, directory, context, depth, out, diags);
        } else if ((strcmp(a, "--options-file") == 0 || strcmp(a, "-optf") == 0) && i + 1 < argc) {
            expand_file(argv[++i], directory, context, depth, out, diags);
        } else if (strncmp(a, "--options-file=", 15) == 0 || strncmp(a, "-optf=", 6) == 0) {
            expand_file(strchr(a, '=') + 1, directory, context, depth, out, diags);
        } else {
            hms_flag_list_push(out, a);
        }
    }
}

void hms_expand_response_files(const char *const *argv, size_t argc, const char *directory,
                               const char *context, hms_flag_list *out, hms_diag_sink *diags)
{
    expand(argv, argc, directory, context, 0, out, diags);
}
