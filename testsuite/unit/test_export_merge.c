/* --export-fixes over several files that include one header: the header's
 * findings are exported once, and no two exported replacements collide
 * (clang-apply-replacements refuses a file with conflicting ones). */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testsuite/support/run.h"

static char root[PATH_MAX];

static const char *at(const char *rel)
{
    static char buf[4][PATH_MAX + 64];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%s", root, rel);
    return b;
}

static void put(const char *rel, const char *text)
{
    FILE *f = fopen(at(rel), "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

Test(export_merge, a_header_fix_through_two_files_is_exported_once, .timeout = 120)
{
    char tmpl[] = "/tmp/hms-export-merge-XXXXXX";
    cr_assert(mkdtemp(tmpl));
    cr_assert(realpath(tmpl, root));
    put("t.cuh", "// hms-lint: launch grid(1) block(32, 32)\n"
                 "__global__ void tr(float *out, const float *in)\n"
                 "{\n"
                 "    __shared__ float tile[32][32];\n"
                 "    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];\n"
                 "    __syncthreads();\n"
                 "    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n"
                 "}\n");
    put("a.cu", "#include \"t.cuh\"\n");
    put("b.cu", "// another including file\n#include \"t.cuh\"\nvoid host_side() {}\n");
    hms_run_result r = hms_run((const char *[]){"--fail-on=never", "--export-fixes", at("fx.yaml"),
                                                at("a.cu"), at("b.cu"), NULL});
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *y = hms_read_file(at("fx.yaml"), NULL);
    cr_assert(y);
    cr_assert_eq(count(y, "DiagnosticName: hms-shared-bank-conflict"), 1, "%s", y);
    cr_assert_eq(count(y, "ReplacementText: \" + 1\""), 1, "%s", y);
    free(y);
    hms_run_free(&r);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_assert_eq(system(cmd), 0);
}
