/* Bad input end to end (hms-lint --list-kernels): each problem is reported
 * once, naming the file and the reason; other files and kernels are still
 * processed; the exit status is 2 when a file failed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testsuite/support/run.h"
#include "testsuite/support/scratch.h"

TestSuite(bad_input, .init = hms_scratch_init, .fini = hms_scratch_fini);

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static const char *good_kernel = "__global__ void good(float *a) { a[threadIdx.x] = 1.0f; }\n"
                                 "int main() { good<<<2, 64>>>(0); return 0; }\n";

Test(bad_input, missing_file_is_named_with_the_reason)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/nope.cu", hms_scratch_dir());
    hms_run_result r = hms_run((const char *[]){"--list-kernels", path, NULL});
    cr_assert_eq(r.status, 2);
    char want[4400];
    snprintf(want, sizeof want, "%s: error: No such file or directory", path);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    cr_assert_str_empty(r.out);
    hms_run_free(&r);
}

Test(bad_input, directory_is_rejected)
{
    hms_run_result r = hms_run((const char *[]){"--list-kernels", hms_scratch_dir(), NULL});
    cr_assert_eq(r.status, 2);
    char want[4400];
    snprintf(want, sizeof want, "%s: error: is a directory", hms_scratch_dir());
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    hms_run_free(&r);
}

Test(bad_input, device_file_is_rejected_without_reading_it, .timeout = 30)
{
    hms_run_result r = hms_run((const char *[]){"--list-kernels", "/dev/zero", NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "/dev/zero: error: not a regular file"), "got: %s", r.err);
    hms_run_free(&r);
}

Test(bad_input, unreadable_file_is_reported)
{
    const char *p = hms_scratch_put("secret.cu", good_kernel, 0);
    cr_assert_eq(chmod(p, 0), 0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    if (geteuid() == 0) {
        /* root reads a mode-000 file anyway, so there is nothing to report:
         * only check that it was listed normally. */
        cr_assert_eq(r.status, 0, "stderr: %s", r.err);
        cr_assert(strstr(r.out, "kernel good"));
    } else {
        cr_assert_eq(r.status, 2);
        char want[4400];
        snprintf(want, sizeof want, "%s: error: Permission denied", p);
        cr_assert(strstr(r.err, want), "got: %s", r.err);
    }
    chmod(p, 0600);
    hms_run_free(&r);
}

Test(bad_input, binary_garbage_is_not_a_source_file)
{
    char bytes[4096];
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (char)((i * 2654435761u) >> 13); /* includes NUL bytes */
    bytes[7] = '\0';
    const char *p = hms_scratch_put("blob.cu", bytes, sizeof bytes);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 2);
    char want[4400];
    snprintf(want, sizeof want, "%s: error: not a CUDA/C++ source file (", p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    cr_assert(strstr(r.err, " parse errors)"), "got: %s", r.err);
    /* One line for the file, not a flood of clang errors. */
    cr_assert_eq(count(r.err, ": error: "), 1, "got: %s", r.err);
    cr_assert_str_empty(r.out);
    hms_run_free(&r);
}

Test(bad_input, prose_is_not_a_source_file)
{
    const char *p = hms_scratch_put("notes.cu",
                                    "The quick brown fox jumps over the lazy dog.\n"
                                    "This is not code at all; it is prose, written by hand.\n",
                                    0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 2);
    char want[4400];
    /* clang: unknown type names 'The' and 'it', and a missing ';' after each. */
    snprintf(want, sizeof want, "%s: error: not a CUDA/C++ source file (4 parse errors)", p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    hms_run_free(&r);
}

Test(bad_input, syntax_error_in_a_kernel_keeps_clang_location_and_other_kernels)
{
    const char *p = hms_scratch_put("broken.cu",
                                    "__global__ void ok1(float *a) { a[0] = 1.0f; }\n"
                                    "__global__ void bad(float *a)\n"
                                    "{\n"
                                    "    a[threadIdx.x] = 2.0f\n"
                                    "}\n"
                                    "__global__ void ok2(int *b) { b[1] = 3; }\n",
                                    0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 2);
    char want[4400];
    snprintf(want, sizeof want, "%s:4:26: error: expected ';' after expression [hms-parse-error]",
             p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    cr_assert(strstr(r.out, "kernel ok1 line=1"), "got: %s", r.out);
    cr_assert(strstr(r.out, "kernel bad line=2"), "got: %s", r.out);
    cr_assert(strstr(r.out, "kernel ok2 line=6"), "got: %s", r.out);
    hms_run_free(&r);
}

Test(bad_input, syntax_error_outside_kernels_is_reported_but_kernels_are_listed)
{
    const char *p = hms_scratch_put("host_err.cu",
                                    "__global__ void k(float *a) { a[0] = 1.0f; }\n"
                                    "int main()\n"
                                    "{\n"
                                    "    int x = 3\n"
                                    "    k<<<1, 32>>>(0);\n"
                                    "}\n",
                                    0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 2);
    char want[4400];
    snprintf(want, sizeof want,
             "%s:4:14: error: expected ';' at end of declaration [hms-parse-error]", p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    cr_assert(strstr(r.out, "kernel k line=1"), "got: %s", r.out);
    hms_run_free(&r);
}

Test(bad_input, missing_declaration_in_host_code_is_a_warning)
{
    /* No #include is missing: the file relies on its includer. */
    const char *p = hms_scratch_put("host_undecl.cu",
                                    "__global__ void k(float *a) { a[0] = 1.0f; }\n"
                                    "int main()\n"
                                    "{\n"
                                    "    undeclared_function(3);\n"
                                    "    Unknown u;\n"
                                    "    k<<<1, 32>>>(0);\n"
                                    "}\n",
                                    0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    char want[4400];
    snprintf(want, sizeof want,
             "%s:4:5: warning: use of undeclared identifier 'undeclared_function' (in "
             "host code",
             p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    snprintf(want, sizeof want, "%s:5:5: warning: unknown type name 'Unknown'", p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    cr_assert_eq(count(r.err, "error"), 0, "got: %s", r.err);
    cr_assert(strstr(r.out, "kernel k line=1"), "got: %s", r.out);
    cr_assert(strstr(r.out, "launch k line=6 grid=(1,1,1) block=(32,1,1)"), "got: %s", r.out);
    hms_run_free(&r);
}

Test(bad_input, kernel_with_unknown_parameter_type_and_another_error_is_still_source)
{
    /* The kernel declaration is invalid (unknown parameter type) and there
     * is a second error: still a CUDA file, not garbage. */
    const char *p =
        hms_scratch_put("incl_kernel.cu",
                        "__global__ void k(Node *nodes, int *out)\n"
                        "{\n"
                        "    out[blockIdx.x * MAX_THREADS + threadIdx.x] = nodes[0].first;\n"
                        "}\n",
                        0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert(!strstr(r.err, "not a CUDA/C++ source file"), "got: %s", r.err);
    char want[4400];
    snprintf(want, sizeof want,
             "%s:1:19: warning: unknown type 'Node' for a parameter of kernel 'k'", p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    /* No header is missing: the file is #included by one that defines
     * MAX_THREADS (Rodinia's kernel.cu files). A warning, an unknown in the
     * analysis, and no exit 2: that means a syntax error. */
    snprintf(want, sizeof want,
             "%s:3:22: warning: undeclared 'MAX_THREADS' in kernel code (declared in "
             "the file that #includes this one?); define it with -D MAX_THREADS=<value>",
             p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    cr_assert_eq(r.status, 0, "got: %s", r.err);
    cr_assert(strstr(r.out, "kernel k line=1 params=Node *nodes (unknown type), int *out"),
              "got: %s", r.out);
    hms_run_free(&r);
}

Test(bad_input, unknown_parameter_type_names_the_missing_header)
{
    const char *p =
        hms_scratch_put("graph_kernel.cu",
                        "#include \"graph_types.h\"\n"
                        "__global__ void k(Graph *g, int *out) { out[threadIdx.x] = 0; }\n",
                        0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    char want[4400];
    snprintf(want, sizeof want,
             "%s:2:19: warning: unknown type 'Graph' for a parameter of kernel 'k', "
             "probably declared in the missing header 'graph_types.h'",
             p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    hms_run_free(&r);
}

Test(bad_input, undeclared_name_in_a_kernel_with_a_header_missing_is_one_warning)
{
    const char *p = hms_scratch_put("tile.cu",
                                    "#include \"project_config.h\"\n"
                                    "__global__ void k(float *a)\n"
                                    "{\n"
                                    "    __shared__ float s[TILE];\n"
                                    "    s[threadIdx.x] = a[blockIdx.x * TILE + threadIdx.x];\n"
                                    "    a[threadIdx.x] = s[TILE - 1 - threadIdx.x];\n"
                                    "}\n",
                                    0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    char want[4400];
    snprintf(want, sizeof want,
             "%s:4:24: warning: undeclared 'TILE' in kernel code; define it with -D "
             "TILE=<value>",
             p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    cr_assert_eq(count(r.err, "undeclared 'TILE'"), 1, "got: %s", r.err);
    cr_assert(strstr(r.out, "kernel k line=2"), "got: %s", r.out);
    hms_run_free(&r);
}

Test(bad_input, host_syntax_error_caused_by_a_missing_header_is_tolerated)
{
    /* WINAPI comes from the missing header: "unknown type name 'DWORD'" and
     * then a syntax error on that line; the real syntax error of line 4 is
     * still an error. */
    const char *p = hms_scratch_put("win.cu",
                                    "#include <windows.h>\n"
                                    "DWORD WINAPI worker(LPVOID p) { return 0; }\n"
                                    "__global__ void k(float *a) { a[threadIdx.x] = 0.0f; }\n"
                                    "int main() { int x = 3 }\n",
                                    0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 2, "stderr: %s", r.err);
    cr_assert_eq(count(r.err, ": error: "), 1, "got: %s", r.err);
    char want[4400];
    snprintf(want, sizeof want,
             "%s:4:23: error: expected ';' at end of declaration [hms-parse-error]", p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    cr_assert(strstr(r.out, "kernel k line=3"), "got: %s", r.out);
    hms_run_free(&r);
}

Test(bad_input, missing_header_warns_once_and_kernels_are_listed)
{
    const char *p = hms_scratch_put("helpers.cu",
                                    "#include <helper_cuda.h>\n"
                                    "#include \"helper_cuda.h\"\n"
                                    "#include <helper_cuda.h>\n"
                                    "__global__ void k(float *a) { a[threadIdx.x] = 0.0f; }\n"
                                    "int main() { checkCudaErrors(cudaDeviceSynchronize()); "
                                    "k<<<4, 128>>>(0); }\n",
                                    0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    char want[4400];
    snprintf(want, sizeof want, "%s:1: warning: 'helper_cuda.h' not found; analysing without it",
             p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    cr_assert_eq(count(r.err, "'helper_cuda.h' not found"), 1, "got: %s", r.err);
    /* checkCudaErrors is undeclared without the header: tolerated, summarised. */
    cr_assert(strstr(r.err, "1 error outside device code ignored"), "got: %s", r.err);
    cr_assert(strstr(r.out, "launch k line=5 grid=(4,1,1) block=(128,1,1)"), "got: %s", r.out);
    hms_run_free(&r);
}

Test(bad_input, error_in_a_kernel_still_counts_when_a_header_is_missing)
{
    const char *p = hms_scratch_put("helpers2.cu",
                                    "#include \"helper_math.h\"\n"
                                    "__global__ void k(float4 *a) { a[0] = a[1] + a[2]; }\n",
                                    0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 2, "stderr: %s", r.err);
    char want[4400];
    snprintf(want, sizeof want, "%s:2:44: error: invalid operands to binary expression", p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    cr_assert(strstr(r.out, "kernel k line=2"), "got: %s", r.out);
    hms_run_free(&r);
}

Test(bad_input, one_bad_file_among_several_others_still_listed)
{
    const char *a = hms_scratch_put("a.cu", good_kernel, 0);
    const char *b = hms_scratch_put("b.cu", "\x01\x02\x00\x7f garbage", 12);
    const char *c = hms_scratch_put("c.cu", "__global__ void third(int *p) { p[0] = 0; }\n", 0);
    char missing[4200];
    snprintf(missing, sizeof missing, "%s/missing.cu", hms_scratch_dir());
    hms_run_result r = hms_run((const char *[]){"--list-kernels", a, missing, b, c, NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.out, "kernel good line=1"), "got: %s", r.out);
    cr_assert(strstr(r.out, "kernel third line=1"), "got: %s", r.out);
    cr_assert(strstr(r.err, "missing.cu: error: No such file or directory"), "got: %s", r.err);
    cr_assert(strstr(r.err, "b.cu: error: not a CUDA/C++ source file"), "got: %s", r.err);
    hms_run_free(&r);
}

Test(bad_input, duplicate_diagnostics_are_printed_once)
{
    /* An unguarded header included twice yields the same error twice. */
    hms_scratch_put("twice.h", "int broken = ;\n", 0);
    const char *p = hms_scratch_put("dups.cu",
                                    "#include \"twice.h\"\n#include \"twice.h\"\n"
                                    "__global__ void k(int *a) { a[0] = 1; }\n",
                                    0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 2);
    cr_assert_eq(count(r.err, "twice.h:1:14: error: expected expression"), 1, "got: %s", r.err);
    hms_run_free(&r);
}

Test(bad_input, errors_are_capped_per_file)
{
    /* 30 distinct syntax errors, one per line, inside a kernel; then 30
     * undeclared names (warnings since they are tolerated in kernels: the
     * file may be #included by one that defines them), capped alike. */
    char src[8192];
    size_t n = (size_t)snprintf(src, sizeof src, "__global__ void k(int *a)\n{\n");
    for (int i = 0; i < 30; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "    a[%d] = %d +;\n", i, i);
    snprintf(src + n, sizeof src - n, "}\n");
    const char *p = hms_scratch_put("many.cu", src, 0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 2);
    cr_assert_eq(count(r.err, "[hms-parse-error]"), 20, "got: %s", r.err);
    char want[4400];
    snprintf(want, sizeof want, "%s: note: 10 more errors not shown", p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    hms_run_free(&r);

    n = (size_t)snprintf(src, sizeof src, "__global__ void k(int *a)\n{\n");
    for (int i = 0; i < 30; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "    a[%d] = undeclared_%d;\n", i, i);
    snprintf(src + n, sizeof src - n, "}\n");
    p = hms_scratch_put("many_names.cu", src, 0);
    r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 0, "got: %s", r.err);
    cr_assert_eq(count(r.err, ": warning: "), 20, "got: %s", r.err);
    snprintf(want, sizeof want, "%s: note: 10 more warnings not shown", p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    hms_run_free(&r);
}

Test(bad_input, flags_after_double_dash_reach_the_parser)
{
    char inc[4200];
    snprintf(inc, sizeof inc, "%s/include", hms_scratch_dir());
    cr_assert_eq(mkdir(inc, 0700), 0);
    hms_scratch_put("include/config.h", "#define THREADS 192\n", 0);
    const char *p = hms_scratch_put("flags.cu",
                                    "#include \"config.h\"\n"
                                    "__global__ void k(float *a) { a[threadIdx.x] = SCALE; }\n"
                                    "int main() { k<<<GRID, THREADS>>>(0); }\n",
                                    0);
    char idir[4300];
    snprintf(idir, sizeof idir, "-I%s", inc);
    hms_run_result r = hms_run(
        (const char *[]){"--list-kernels", p, "--", "-DGRID=7", "-DSCALE=2.0f", idir, NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert(strstr(r.out, "launch k line=3 grid=(7,1,1) block=(192,1,1)"), "got: %s", r.out);
    hms_run_free(&r);

    /* Without them: the header is missing and the macros undeclared; the
     * one used in the kernel gets a hint (and is an unknown to the IR). */
    r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert(strstr(r.err, "'config.h' not found"), "got: %s", r.err);
    cr_assert(strstr(r.err, "undeclared 'SCALE' in kernel code; define it with -D SCALE=<value>"),
              "got: %s", r.err);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    hms_run_free(&r);
}

Test(bad_input, nvcc_only_flags_after_double_dash_are_dropped)
{
    const char *p = hms_scratch_put("nvccflags.cu", good_kernel, 0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels",
                                                p,
                                                "--",
                                                "-arch=sm_80",
                                                "-gencode",
                                                "arch=compute_80,code=sm_80",
                                                "-O3",
                                                "--use_fast_math",
                                                "-Xcompiler",
                                                "-fopenmp",
                                                "--expt-relaxed-constexpr",
                                                "-G",
                                                "-lineinfo",
                                                "-rdc=true",
                                                "-ccbin",
                                                "g++",
                                                "-c",
                                                "-o",
                                                "out.o",
                                                NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    cr_assert_str_empty(r.err);
    cr_assert(strstr(r.out, "kernel good line=1"), "got: %s", r.out);
    hms_run_free(&r);
}

Test(bad_input, unknown_clang_flag_is_an_error_for_that_file)
{
    const char *p = hms_scratch_put("weird.cu", good_kernel, 0);
    hms_run_result r =
        hms_run((const char *[]){"--list-kernels", p, "--", "-fno-such-flag-xyz", NULL});
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "-fno-such-flag-xyz"), "got: %s", r.err);
    hms_run_free(&r);
}

Test(bad_input, call_broken_by_a_type_from_a_missing_header_is_a_warning)
{
    /* floatX comes from the missing header, so clang takes it as int and the
     * instantiated kernel's call no longer matches: a consequence of the
     * missing header, not an error of the file. */
    const char *p = hms_scratch_put(
        "lowp.cu",
        "#include \"lowp_types.h\"\n"
        "typedef lowp_t floatX;\n"
        "__device__ void addx(float *p, float v) { *p += v; }\n"
        "template <class T> __global__ void k(T *a) { addx(&a[threadIdx.x], 1.0f); }\n"
        "void run(floatX *a) { k<<<1, 32>>>(a); }\n",
        0);
    hms_run_result r = hms_run((const char *[]){"--list-kernels", p, NULL});
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    char want[4400];
    snprintf(want, sizeof want,
             "%s:4:46: warning: no matching function for call to 'addx', probably "
             "because 'lowp_types.h' is missing",
             p);
    cr_assert(strstr(r.err, want), "got: %s", r.err);
    hms_run_free(&r);
}
