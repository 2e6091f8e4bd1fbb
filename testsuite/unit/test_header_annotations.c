/* `// hms-lint: launch` / `param` annotations written in a header apply to
 * the kernels of that header when it is linted through a .cu, and a
 * positional annotation never crosses into another file (a comment on line 2
 * of the .cu is not the header's line 2). */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testsuite/support/analyze_file.h"

static char root[PATH_MAX];

static const char *put(const char *rel, const char *text)
{
    static char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot create %s", path);
    fputs(text, f);
    fclose(f);
    return path;
}

static void setup(void)
{
    char tmpl[] = "/tmp/hms-hdr-ann-XXXXXX";
    cr_assert(mkdtemp(tmpl));
    cr_assert(realpath(tmpl, root));
    char inc[PATH_MAX + 8];
    snprintf(inc, sizeof inc, "%s/inc", root);
    cr_assert_eq(mkdir(inc, 0755), 0);
}

static void teardown(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(header_annotations, .init = setup, .fini = teardown, .timeout = 120);

Test(header_annotations, launch_and_param_in_a_header_apply_to_its_kernel)
{
    put("inc/k.cuh", "// hms-lint: launch grid(7) block(64)\n"
                     "// hms-lint: param n=4096\n"
                     "__global__ void in_header(float *a, int n)\n"
                     "{\n"
                     "    a[(blockIdx.x * blockDim.x + threadIdx.x) % n] = 0.0f;\n"
                     "}\n");
    const char *cu = put("m.cu", "#include \"inc/k.cuh\"\n"
                                 "// hms-lint: launch grid(3) block(32)\n"
                                 "__global__ void in_main(float *a) { a[threadIdx.x] = 1.0f; }\n");
    hms_analyzed_file f;
    bool ok = hms_build_file(cu, NULL, &f);
    cr_assert(ok, "%s", f.error);
    const ir_kernel *h = hms_af_kernel(&f, "in_header");
    const ir_kernel *m = hms_af_kernel(&f, "in_main");
    cr_assert(h && m);
    cr_expect_eq(h->launch.source, IR_LAUNCH_ANNOTATION);
    cr_expect_eq(h->launch.grid[0], 7);
    cr_expect_eq(h->launch.block[0], 64);
    cr_expect_eq(m->launch.source, IR_LAUNCH_ANNOTATION);
    cr_expect_eq(m->launch.grid[0], 3);
    cr_expect_eq(m->launch.block[0], 32);
    bool found = false;
    for (size_t i = 0; i < h->nvars; i++)
        if (h->vars[i].kind == IR_VAR_PARAM && h->vars[i].name &&
            strcmp(h->vars[i].name, "n") == 0) {
            found = true;
            cr_expect_eq(h->vars[i].value, 4096);
            cr_expect_str_eq(h->vars[i].value_source, "annotation");
        }
    cr_expect(found, "parameter n not in the IR");
    hms_analyzed_file_free(&f);
}

Test(header_annotations, a_main_file_comment_does_not_reach_a_header_kernel)
{
    /* Before: line 2 of m.cu fell inside the header kernel's lines 2-5. */
    put("inc/k.cuh", "\n__global__ void hk(float *a)\n{\n    a[threadIdx.x] = 0.0f;\n}\n");
    const char *cu = put("m.cu", "#include \"inc/k.cuh\"\n"
                                 "// hms-lint: launch grid(3) block(32)\n"
                                 "__global__ void mk(float *a) { a[threadIdx.x] = 1.0f; }\n");
    hms_analyzed_file f;
    bool ok = hms_build_file(cu, NULL, &f);
    cr_assert(ok, "%s", f.error);
    const ir_kernel *h = hms_af_kernel(&f, "hk");
    cr_assert(h);
    cr_expect_neq(h->launch.source, IR_LAUNCH_ANNOTATION);
    hms_analyzed_file_free(&f);
}
