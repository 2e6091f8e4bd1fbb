/* hms-probe, the CUDA program of runtime/probe/: it is compiled with this
 * machine's nvcc as part of the build when nvcc is found (so a CUDA source
 * that does not compile fails the build); here its command line is checked
 * without touching a GPU. Skipped, with a message, where nvcc was not found. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#ifdef HMS_PROBE_BIN
static int run(const char *args, char *out, size_t len)
{
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", HMS_PROBE_BIN, args);
    FILE *p = popen(cmd, "r");
    cr_assert(p, "cannot run %s", cmd);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
#endif

Test(probe, command_line_without_a_gpu)
{
#ifndef HMS_PROBE_BIN
    cr_skip_test("nvcc was not found when the build was configured: hms-probe not built");
#else
    char out[8192];
    cr_assert_eq(run("--help", out, sizeof out), 0, "%s", out);
    cr_assert(strstr(out, "USAGE: hms-probe --output=<file.yaml>"), "%s", out);
    cr_assert_eq(run("", out, sizeof out), 2, "%s", out);
    cr_assert(strstr(out, "hms-probe: error: --output=<file.yaml> is required"), "%s", out);
    cr_assert_eq(run("--frobnicate", out, sizeof out), 2, "%s", out);
    cr_assert(strstr(out, "unknown argument '--frobnicate'"), "%s", out);
#endif
}
