/* hms_find_launch_sites and the constant folder behind it, on small sources
 * parsed in-process. Expected values are worked out by hand in comments. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/frontend/cursor_util.h"
#include "analyzer/frontend/explicit_inst.h"
#include "analyzer/frontend/launch_sites.h"
#include "analyzer/frontend/parse.h"

static char path[] = "/tmp/hms-launch-XXXXXX.cu";
static hms_tu tu;
static hms_launch_sites sites;

/* Parses `src` and finds its launches into `sites`. */
static void load(const char *src)
{
    strcpy(path, "/tmp/hms-launch-XXXXXX.cu");
    int fd = mkstemps(path, 3);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(src, f);
    fclose(f);
    hms_frontend_options o;
    memset(&o, 0, sizeof o);
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    bool ok = hms_parse_file(&o, path, &tu, &said);
    char *msgs = hms_diag_sink_text(&said);
    hms_diag_sink_free(&said);
    cr_assert(ok && tu.errors == 0, "parse failed:\n%s", msgs);
    free(msgs);
    hms_find_launch_sites(tu.tu, &sites);
}

static void unload(void)
{
    hms_launch_sites_free(&sites);
    hms_tu_dispose(&tu);
    unlink(path);
}

TestSuite(launch_sites, .fini = unload);

#define KERNELS                                                                                    \
    "__global__ void k(float *p, int a, int b) {}\n"                                               \
    "__global__ void k0() {}\n"

static void assert_arg(const hms_folded_arg *a, bool folded, int64_t value, const char *text)
{
    cr_assert_eq(a->folded, folded, "'%s': folded %d", a->text, a->folded);
    if (folded)
        cr_assert_eq(a->value, value, "'%s': %lld, expected %lld", a->text, (long long)a->value,
                     (long long)value);
    if (text)
        cr_assert_str_eq(a->text, text);
}

Test(launch_sites, dim3_components_fold_on_their_own_with_their_text)
{
    load("#define N 1024\n#define TILE 32\n" KERNELS "void f(int n)\n"
         "{\n"
         "    dim3 g(n, N / TILE);\n"
         "    k0<<<g, dim3(8, 2, 2)>>>();\n"
         "}\n");
    cr_assert_eq(sites.n, 1);
    hms_launch_site *s = &sites.v[0];
    cr_assert_str_eq(s->kernel, "k0");
    cr_assert_eq(s->line, 8); /* two #defines, two kernels, f, {, g */
    cr_assert_eq(s->col, 5);
    assert_arg(&s->grid[0], false, 0, "n");
    assert_arg(&s->grid[1], true, 32, "N / TILE"); /* 1024 / 32 */
    assert_arg(&s->grid[2], true, 1, "1");
    assert_arg(&s->block[0], true, 8, "8");
    assert_arg(&s->block[1], true, 2, "2");
    assert_arg(&s->block[2], true, 2, "2");
    cr_assert_str_eq(s->grid_text, "g");
    cr_assert_str_eq(s->block_text, "dim3(8, 2, 2)");
    cr_assert_not(s->has_shared);
    assert_arg(&s->shared, true, 0, "0");
    cr_assert_null(s->stream_text);
}

Test(launch_sites, integer_semantics_follow_c)
{
    load(KERNELS "constexpr int blocks_for(int n) { return (n + 63) / 64; }\n"
                 "struct S { double d; int i; };\n"
                 "enum class E : int { A = 3 };\n"
                 "int main()\n"
                 "{\n"
                 "    unsigned u = 0u - 1u;\n"
                 "    int z = 0, m = -5;\n"
                 "    k<<<u >> 24, 10 / z>>>(0, m * 2, 7 * 6);\n"
                 "    k<<<blocks_for(1000), sizeof(S), 'A'>>>(0, static_cast<int>(E::A), -7 / 2);\n"
                 "    k<<<(int)ceil(1000 / 256.0), 1 << 5>>>(0, -7 % 3, (3 > 2) + (2 > 3));\n"
                 "}\n");
    cr_assert_eq(sites.n, 3);
    /* 0xffffffff >> 24 = 255; 10 / 0 does not fold; m * 2 = -10 */
    assert_arg(&sites.v[0].grid[0], true, 255, "u >> 24");
    assert_arg(&sites.v[0].block[0], false, 0, "10 / z");
    cr_assert_eq(sites.v[0].nargs, 3);
    assert_arg(&sites.v[0].args[0], false, 0, "0"); /* a pointer: not folded */
    assert_arg(&sites.v[0].args[1], true, -10, "m * 2");
    assert_arg(&sites.v[0].args[2], true, 42, "7 * 6");
    /* (1000 + 63) / 64 = 16; sizeof(S) = 8 + 4 + 4 padding = 16; 'A' = 65 */
    assert_arg(&sites.v[1].grid[0], true, 16, NULL);
    assert_arg(&sites.v[1].block[0], true, 16, NULL);
    cr_assert(sites.v[1].has_shared);
    assert_arg(&sites.v[1].shared, true, 65, "'A'");
    assert_arg(&sites.v[1].args[1], true, 3, NULL);
    assert_arg(&sites.v[1].args[2], true, -3, NULL); /* truncation toward zero */
    /* ceil(3.90625) = 4; 1 << 5 = 32; -7 % 3 = -1; 1 + 0 = 1 */
    assert_arg(&sites.v[2].grid[0], true, 4, NULL);
    assert_arg(&sites.v[2].block[0], true, 32, NULL);
    assert_arg(&sites.v[2].args[1], true, -1, NULL);
    assert_arg(&sites.v[2].args[2], true, 1, NULL);
}

Test(launch_sites, template_arguments_and_usr_name_the_kernel_template)
{
    load("template <int B, bool F, typename T> __global__ void t(T *p) {}\n"
         "int main() { t<128, false, double><<<1, 128, 0, 0>>>(0); }\n");
    cr_assert_eq(sites.n, 1);
    hms_launch_site *s = &sites.v[0];
    cr_assert_str_eq(s->kernel, "t<128, false, double>");
    cr_assert_str_eq(s->kernel_name, "t");
    cr_assert_eq(s->ntemplate_args, 3);
    assert_arg(&s->template_args[0], true, 128, "128");
    assert_arg(&s->template_args[1], true, 0, "false");
    cr_assert_not(s->template_args[2].folded);
    cr_assert_str_eq(s->template_args[2].text, "double");
    cr_assert(s->has_shared);
    cr_assert_str_eq(s->stream_text, "0");
    /* The USR is the template's, which is what a kernel listing holds. */
    CXCursor root = clang_getTranslationUnitCursor(tu.tu);
    CXCursor tmpl = hms_cursor_child(root, hms_cursor_nchildren(root) - 2);
    cr_assert_eq(clang_getCursorKind(tmpl), CXCursor_FunctionTemplate);
    char *usr = hms_cursor_usr(tmpl);
    cr_assert_str_eq(s->kernel_usr, usr);
    free(usr);
}

Test(launch_sites, locals_follow_straight_line_code_only)
{
    load(KERNELS "void g(int &r);\n"
                 "int main(int argc, char **argv)\n"
                 "{\n"
                 "    int a = 10;\n"
                 "    a += 5;\n"
                 "    int b = a * 2;\n"
                 "    if (argc) a = 99;\n"
                 "    k<<<b, a>>>(0, 0, 0);\n"
                 "    int c = 1;\n"
                 "    g(c);\n"
                 "    k<<<c, 1>>>(0, 0, 0);\n"
                 "    dim3 d(4, 4);\n"
                 "    d.y = 7;\n"
                 "    d.z = d.y + 1;\n"
                 "    k<<<d, 1>>>(0, 0, 0);\n"
                 "    return 0;\n"
                 "}\n");
    cr_assert_eq(sites.n, 3);
    /* b = (10 + 5) * 2 = 30, computed before the conditional store to a */
    assert_arg(&sites.v[0].grid[0], true, 30, "b");
    assert_arg(&sites.v[0].block[0], false, 0, "a");
    assert_arg(&sites.v[1].grid[0], false, 0, "c"); /* g() takes it by reference */
    /* d = (4, 7, 8) */
    assert_arg(&sites.v[2].grid[0], true, 4, NULL);
    assert_arg(&sites.v[2].grid[1], true, 7, NULL);
    assert_arg(&sites.v[2].grid[2], true, 8, NULL);
}

Test(launch_sites, only_launches_of_the_main_file_are_found)
{
    char hdr[] = "/tmp/hms-launch-hdr-XXXXXX.h";
    int fd = mkstemps(hdr, 2);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("__global__ void hk() {}\ninline void in_header() { hk<<<1, 1>>>(); }\n", f);
    fclose(f);
    char src[512];
    snprintf(src, sizeof src, "#include \"%s\"\nint main() { hk<<<2, 2>>>(); }\n", hdr);
    load(src);
    unlink(hdr);
    cr_assert_eq(sites.n, 1);
    cr_assert_eq(sites.v[0].line, 2);
    assert_arg(&sites.v[0].grid[0], true, 2, "2");
}

Test(launch_sites, explicit_instantiations_are_in_the_first_parse)
{
    /* The references of explicit_inst.h are appended to the text clang
     * parses, so ir_build needs no reparse; locations in the file are
     * unchanged (the launch stays at line 4, column 5) and no diagnostic
     * comes from the appended lines. The file ends without a newline after
     * a // comment, which must not swallow the appended text. */
    load("template <int N> __global__ void t(int *p) { p[N] = 0; }\n"
         "template __global__ void t<128>(int *);\n"
         "void h(int *p) {\n"
         "    t<4><<<1, 32>>>(p);\n"
         "} // end");
    CXFile f = clang_getFile(tu.tu, path);
    size_t size = 0;
    const char *text = clang_getFileContents(tu.tu, f, &size);
    cr_assert(text &&
                  memmem(text, size, HMS_EXPLICIT_INST_MARKER, strlen(HMS_EXPLICIT_INST_MARKER)),
              "parsed without the instantiation references");
    cr_assert_eq(clang_getNumDiagnostics(tu.tu), 0);
    cr_assert_eq(sites.n, 1);
    cr_assert_eq(sites.v[0].line, 4);
    cr_assert_eq(sites.v[0].col, 5);
    cr_assert_str_eq(sites.v[0].kernel, "t<4>");
}

Test(launch_sites, launches_in_included_project_files_are_found)
{
    char inc[] = "/tmp/hms-launch-inc-XXXXXX.inc";
    int fd = mkstemps(inc, 4);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("__global__ void kinc(float *a) { a[threadIdx.x] = 0.0f; }\n"
          "void launch_it(float *a) { kinc<<<10, 64>>>(a); }\n",
          f);
    fclose(f);
    char src[256];
    snprintf(src, sizeof src, "#include \"%s\"\nint main() { launch_it(0); }\n", inc);
    load(src);
    unlink(inc);
    cr_assert_eq(sites.n, 1);
    cr_assert_str_eq(sites.v[0].file, inc);
    cr_assert_eq(sites.v[0].line, 2);
    cr_assert_str_eq(sites.v[0].kernel, "kinc");
    cr_assert(sites.v[0].grid[0].folded && sites.v[0].grid[0].value == 10);
}

Test(launch_sites, parameters_fold_through_the_calls_that_can_reach_the_launch)
{
    load(KERNELS "static int up(int a, int b) { return (a + b - 1) / b; }\n"
                 "void direct(int n, int bs) { k<<<up(n, bs), bs>>>(0, n, 0); }\n"
                 "void reassigned(int bs) { bs = bs * 2; k<<<1, bs>>>(0, 0, 0); }\n"
                 "void branch(int mode, int bs) {\n"
                 "    if (mode == 1)\n"
                 "        k<<<1, bs>>>(0, 1, 0);\n"
                 "    else\n"
                 "        k<<<2, bs>>>(0, 2, 0);\n"
                 "}\n"
                 "void sweep(void) {\n"
                 "    for (int bs = 32; bs <= 128; bs *= 2)\n"
                 "        direct(1000, bs);\n"
                 "}\n"
                 "void written(void) {\n"
                 "    int sizes[] = {64, 128};\n"
                 "    sizes[0] = 7;\n"
                 "    for (int j = 0; j < 2; j++)\n"
                 "        reassigned(sizes[j]);\n"
                 "}\n"
                 "int main(void) { branch(1, 96); reassigned(16); return 0; }\n");
    cr_assert_eq(sites.n, 4);
    /* direct: bs = 32, 64, 128 from the loop; the first is the site's:
     * up(1000, 32) = 32 blocks; the other two listed */
    hms_launch_site *d = &sites.v[0];
    assert_arg(&d->grid[0], true, 32, NULL);
    assert_arg(&d->block[0], true, 32, NULL);
    assert_arg(&d->args[1], true, 1000, NULL);
    cr_assert(d->via && !strncmp(d->via, "direct(n=1000, bs=32) called at hms-launch-", 43), "%s",
              d->via);
    cr_assert(strstr(d->via, ":14 [bs=32]"), "%s", d->via); /* the call in the loop */
    cr_assert_str_eq(d->others, "grid(16,1,1) block(64,1,1); grid(8,1,1) block(128,1,1)");
    cr_assert_eq(d->nconfigs, 3);
    /* reassigned: written() passes an element of an array it writes (no
     * value); main passes 16, doubled before the launch */
    assert_arg(&sites.v[1].block[0], true, 32, NULL);
    /* branch(1, 96) takes the then-branch only: the else launch keeps its
     * unknown block size */
    assert_arg(&sites.v[2].block[0], true, 96, NULL);
    assert_arg(&sites.v[3].block[0], false, 0, "bs");
    cr_assert_null(sites.v[3].via);
}

/* A launch written inside a macro's argument has no text of its own (every
 * extent is the macro invocation's): nothing folds, never a made-up
 * (1,1,1) passed off as the host call's configuration. */
Test(launch_sites, launches_inside_macro_arguments_do_not_fold_to_ones)
{
    load(KERNELS "#define CHECK(expr) do { expr; } while (0)\n"
                 "void f(float *p)\n"
                 "{\n"
                 "    CHECK((k<<<64, 256>>>(p, 1, 2)));\n"
                 "}\n");
    cr_assert_eq(sites.n, 1);
    hms_launch_site *s = &sites.v[0];
    cr_assert_str_eq(s->kernel, "k");
    /* either the written values or nothing */
    cr_assert(!s->grid[0].folded || s->grid[0].value == 64, "grid.x %lld",
              (long long)s->grid[0].value);
    cr_assert(!s->block[0].folded || s->block[0].value == 256, "block.x %lld",
              (long long)s->block[0].value);
}
