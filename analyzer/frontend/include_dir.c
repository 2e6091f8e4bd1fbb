/* Where the hermetic CUDA headers are: next to the binary (installed as
 * <prefix>/bin/hms-lint + <prefix>/share/hms-lint/include, or staged in the
 * build tree as <build>/share/hms-lint/include beside <build>/hms-lint), then
 * $HMS_LINT_INCLUDE_DIR. No path is compiled in, so a moved or installed
 * binary never depends on the source tree. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/frontend/parse.h"

/* Relative to the directory of the running executable. */
static const char *const relative_dirs[] = {
    "../share/hms-lint/include", /* installed; also test executables in <build>/testsuite */
    "share/hms-lint/include",    /* the build tree's staged copy */
};

static char found[PATH_MAX];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Is dir a copy of our headers (it has our cuda_runtime.h)? */
static bool holds_our_headers(const char *dir)
{
    char probe[PATH_MAX + 32];
    snprintf(probe, sizeof probe, "%s/hms_model.h", dir);
    return access(probe, R_OK) == 0;
}

static void locate(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        for (size_t i = 0; i < sizeof relative_dirs / sizeof *relative_dirs; i++) {
            char cand[PATH_MAX * 2];
            snprintf(cand, sizeof cand, "%s/%s", exe, relative_dirs[i]);
            char *real = realpath(cand, NULL);
            if (real && holds_our_headers(real) && strlen(real) < sizeof found) {
                strcpy(found, real);
                free(real);
                return;
            }
            free(real);
        }
    }
    const char *env = getenv("HMS_LINT_INCLUDE_DIR");
    if (env && *env && holds_our_headers(env) && strlen(env) < sizeof found)
        strcpy(found, env);
}

const char *hms_builtin_include_dir(void)
{
    pthread_once(&once, locate);
    return found[0] ? found : NULL;
}

void hms_print_missing_include_dir(hms_diag_sink *diags)
{
    const char *env = getenv("HMS_LINT_INCLUDE_DIR");
    /* "once": every file of a run would say it */
    hms_diagf(diags, (hms_diag_head){HMS_DIAG_ERROR, NULL, 0, 0, NULL, "no-include-dir"},
              "cannot find hms-lint's CUDA headers (share/hms-lint/include next "
              "to the binary%s%s%s); reinstall hms-lint or set HMS_LINT_INCLUDE_DIR to that "
              "directory",
              env && *env ? ", or HMS_LINT_INCLUDE_DIR=" : "", env && *env ? env : "",
              env && *env ? " (no hms_model.h there)" : "");
}
