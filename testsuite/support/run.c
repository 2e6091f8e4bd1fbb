#include "testsuite/support/run.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char *hms_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

const char *hms_test_path(const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", HMS_TESTSUITE_DIR, rel);
    return buf;
}

hms_run_result hms_run(const char *const *args)
{
    hms_run_result r = {-1, NULL, NULL};
    char out_path[] = "/tmp/hms-test-out-XXXXXX";
    char err_path[] = "/tmp/hms-test-err-XXXXXX";
    int fo = mkstemp(out_path), fe = mkstemp(err_path);
    if (fo < 0 || fe < 0)
        return r;
    size_t n = 0;
    while (args[n])
        n++;
    char **argv = calloc(n + 2, sizeof *argv);
    argv[0] = (char *)HMS_LINT_BIN;
    for (size_t i = 0; i < n; i++)
        argv[i + 1] = (char *)args[i];
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        execv(HMS_LINT_BIN, argv);
        _exit(127);
    }
    int st = 0;
    if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st))
        r.status = WEXITSTATUS(st);
    free(argv);
    close(fo);
    close(fe);
    r.out = hms_read_file(out_path, NULL);
    r.err = hms_read_file(err_path, NULL);
    unlink(out_path);
    unlink(err_path);
    if (!r.out)
        r.out = strdup("");
    if (!r.err)
        r.err = strdup("");
    return r;
}

void hms_run_free(hms_run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

static int is_cu_file(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 3 && !strcmp(d->d_name + n - 3, ".cu");
}

size_t hms_test_each_cu(const char *rel, void (*fn)(const char *path, const char *name, void *ctx),
                        void *ctx)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", hms_test_path(rel));
    struct dirent **names;
    int n = scandir(dir, &names, is_cu_file, alphasort);
    for (int i = 0; i < n; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        fn(path, names[i]->d_name, ctx);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    return n > 0 ? (size_t)n : 0;
}

bool hms_line_starts_with(const char *text, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *p = text; p; p = strchr(p, '\n')) {
        p += *p == '\n';
        if (strncmp(p, prefix, n) == 0)
            return true;
    }
    return false;
}
