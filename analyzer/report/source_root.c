/* Source root and root-relative paths (see source_root.h). */
#include "analyzer/report/source_root.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool exists(const char *dir, const char *name)
{
    char *p = NULL;
    if (asprintf(&p, "%s/%s", dir, name) < 0)
        return false;
    struct stat st;
    bool ok = stat(p, &st) == 0;
    free(p);
    return ok;
}

char *hms_source_root_find(const char *given, hms_file_error *err)
{
    if (given) {
        char *r = realpath(given, NULL);
        struct stat st;
        if (!r || stat(r, &st) != 0 || !S_ISDIR(st.st_mode)) {
            hms_file_error_set(err, given, 0, 0, "--source-root is not a readable directory");
            free(r);
            return NULL;
        }
        return r;
    }
    char *cwd = realpath(".", NULL);
    if (!cwd) {
        hms_file_error_set(err, ".", 0, 0, "cannot resolve the current directory");
        return NULL;
    }
    /* ".git" is a directory in a clone and a file in a worktree/submodule. */
    char *dir = strdup(cwd);
    while (dir && !exists(dir, ".git")) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) {
            free(dir);
            dir = NULL;
            break;
        }
        *slash = '\0';
    }
    if (dir) {
        free(cwd);
        return dir;
    }
    return cwd;
}

/* Removes "." and ".." components and doubled slashes of an absolute path. */
static void normalise(char *p)
{
    char *out = p;
    const char *s = p;
    while (*s) {
        while (*s == '/')
            s++;
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 0)
            break;
        if (n == 1 && s[0] == '.') {
            /* skip */
        } else if (n == 2 && s[0] == '.' && s[1] == '.') {
            while (out > p && out[-1] != '/')
                out--;
            if (out > p)
                out--;
        } else {
            *out++ = '/';
            memmove(out, s, n);
            out += n;
        }
        s += n;
    }
    if (out == p)
        *out++ = '/';
    *out = '\0';
}

char *hms_absolute_path(const char *path)
{
    char *r = realpath(path, NULL);
    if (r)
        return r;
    char *abs = NULL;
    if (path[0] == '/') {
        abs = strdup(path);
    } else {
        char *cwd = getcwd(NULL, 0);
        if (!cwd || asprintf(&abs, "%s/%s", cwd, path) < 0)
            abs = NULL;
        free(cwd);
    }
    if (abs)
        normalise(abs);
    return abs;
}

char *hms_path_under_root(const char *root, const char *path)
{
    if (!root || !path)
        return NULL;
    char *abs = hms_absolute_path(path);
    if (!abs)
        return NULL;
    size_t rl = strlen(root);
    while (rl > 1 && root[rl - 1] == '/')
        rl--;
    char *rel = NULL;
    if (rl == 1 && root[0] == '/')
        rel = abs[1] ? strdup(abs + 1) : NULL;
    else if (!strncmp(abs, root, rl) && abs[rl] == '/' && abs[rl + 1])
        rel = strdup(abs + rl + 1);
    free(abs);
    return rel;
}
