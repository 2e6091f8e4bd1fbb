/* Scratch directory helpers (see scratch.h). */
#include "testsuite/support/scratch.h"

#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[PATH_MAX];

void hms_scratch_init(void)
{
    char tmpl[] = "/tmp/hms-lint-scratch-XXXXXX";
    cr_assert(mkdtemp(tmpl));
    cr_assert(realpath(tmpl, dir));
}

void hms_scratch_fini(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

const char *hms_scratch_at(const char *rel)
{
    static char buf[8][PATH_MAX + 64];
    static int next;
    char *b = buf[next++ % 8];
    snprintf(b, sizeof buf[0], "%s/%s", dir, rel);
    return b;
}

const char *hms_scratch_dir(void)
{
    return dir;
}

const char *hms_scratch_put(const char *rel, const char *text, size_t len)
{
    const char *path = hms_scratch_at(rel);
    char parent[PATH_MAX + 64];
    snprintf(parent, sizeof parent, "%s", path);
    for (char *s = parent + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        mkdir(parent, 0755); /* an existing folder is fine */
        *s = '/';
    }
    FILE *f = fopen(path, "wb");
    cr_assert(f, "cannot create %s", path);
    size_t n = len ? len : strlen(text);
    cr_assert_eq(fwrite(text, 1, n, f), n, "cannot write %s", path);
    fclose(f);
    return path;
}

void hms_scratch_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot create %s", path);
    fputs(text, f);
    fclose(f);
}

json_t *hms_scratch_json(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text ? text : "", 0, &e);
    cr_assert(j, "not JSON (%s):\n%s", e.text, text ? text : "");
    return j;
}
