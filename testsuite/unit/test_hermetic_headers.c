/* The hermetic CUDA headers (analyzer/include): real-world-style CUDA code
 * (testsuite/kernels/hermetic/, written in the manner of the CUDA samples,
 * Rodinia, SHOC, PolyBench-GPU and Parboil) parses with zero errors, and
 * <cuda_runtime.h> always resolves to our copy, never to a CUDA toolkit. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer/parse.h"
#include "testsuite/support/run.h"

/* Parses path with extra compiler flags; stderr text goes to *msgs. */
static bool parse(const char *path, const char *const *flags, hms_tu *t, char **msgs)
{
    hms_options o;
    memset(&o, 0, sizeof o);
    for (size_t i = 0; flags && flags[i]; i++)
        hms_strvec_push(&o.compiler_args, flags[i]);
    size_t len = 0;
    FILE *err = open_memstream(msgs, &len);
    bool ok = hms_parse_file(&o, path, t, err);
    fclose(err);
    hms_strvec_free(&o.compiler_args);
    return ok;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_cu(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 3 && !strcmp(d->d_name + n - 3, ".cu");
}

Test(hermetic, real_world_style_sources_parse_without_errors, .timeout = 300)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", hms_test_path("kernels/hermetic"));
    struct dirent **names;
    int n = scandir(dir, &names, is_cu, by_name);
    cr_assert(n >= 10, "expected at least ten sources in %s, found %d", dir, n);
    for (int i = 0; i < n; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        hms_tu t;
        char *msgs = NULL;
        bool ok = parse(path, NULL, &t, &msgs);
        cr_expect(ok && t.errors == 0 && t.missing_includes == 0 && t.ignored_errors == 0,
                  "%s: %d errors, %d missing headers:\n%s", names[i]->d_name, t.errors,
                  t.missing_includes, msgs);
        cr_expect_str_empty(msgs, "%s", names[i]->d_name);
        hms_tu_dispose(&t);
        free(msgs);
        free(names[i]);
    }
    free(names);
}

/* The sources written for the toolkit headers real code includes beyond
 * the runtime (bf16, fp8, WMMA, cuda/pipeline and cuda/barrier, warp
 * intrinsics, toolkit include guards): the run exits 0 and every kernel has
 * an access the model counted requests for, so nothing their memory traffic
 * goes through (bf16/fp8 loads and stores, WMMA tiles, memcpy_async copies)
 * is left opaque. */
Test(hermetic, kernels_using_the_wider_toolkit_headers_have_modelled_accesses, .timeout = 600)
{
    static const char *const files[] = {
        "llmc_bf16_layernorm_gelu.cu", "fp8_quantize.cu",
        "samples_wmma_gemm.cu",        "async_copy_pipeline.cu",
        "warp_primitives_surfaces.cu", "samples_helper_include_guards.cu",
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", hms_test_path("kernels/hermetic"), files[i]);
        const char *args[] = {"--format=json", "--fail-on=never", path, NULL};
        hms_run_result r = hms_run(args);
        cr_expect_eq(r.status, 0, "%s: exit %d\n%s", files[i], r.status, r.err);
        json_error_t e;
        json_t *doc = json_loads(r.out, 0, &e);
        cr_assert(doc, "%s: no JSON report: %s", files[i], e.text);
        json_t *kernels =
            json_object_get(json_array_get(json_object_get(doc, "files"), 0), "kernels");
        cr_expect_geq(json_array_size(kernels), 1, "%s: no kernels", files[i]);
        size_t ki;
        json_t *k;
        json_array_foreach(kernels, ki, k)
        {
            size_t ai, counted = 0;
            json_t *a;
            json_array_foreach(json_object_get(k, "accesses"), ai, a) counted +=
                json_number_value(json_object_get(a, "requests")) > 0;
            cr_expect_gt(counted, 0, "%s: kernel %s has no modelled access", files[i],
                         json_string_value(json_object_get(k, "name")));
        }
        json_decref(doc);
        hms_run_free(&r);
    }
}

typedef struct {
    char files[64][1024];
    int n;
} inclusion_list;

static void collect_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData d)
{
    (void)stack;
    (void)depth;
    inclusion_list *l = d;
    CXString real = clang_File_tryGetRealPathName(f);
    CXString name = clang_getFileName(f);
    const char *s = clang_getCString(real);
    if (!s || !*s)
        s = clang_getCString(name);
    if (l->n < 64 && s && strstr(s, "cuda"))
        snprintf(l->files[l->n++], sizeof l->files[0], "%s", s);
    clang_disposeString(real);
    clang_disposeString(name);
}

/* Every CUDA header the TU included comes from our directory. */
static void assert_only_ours(CXTranslationUnit tu)
{
    inclusion_list l;
    l.n = 0;
    clang_getInclusions(tu, collect_inclusion, &l);
    char *ours = realpath(hms_builtin_include_dir(), NULL);
    cr_assert(ours);
    bool saw_runtime = false;
    for (int i = 0; i < l.n; i++) {
        if (strstr(l.files[i], "/cuda_wrappers/"))
            continue; /* clang's own wrappers of <cmath> etc. */
        cr_expect(!strncmp(l.files[i], ours, strlen(ours)), "included from outside: %s",
                  l.files[i]);
        cr_expect(!strstr(l.files[i], "/usr/local/cuda"), "toolkit header read: %s", l.files[i]);
        char want[4200];
        snprintf(want, sizeof want, "%s/cuda_runtime.h", ours);
        if (!strcmp(l.files[i], want))
            saw_runtime = true;
    }
    cr_expect(saw_runtime, "cuda_runtime.h was not included from %s", ours);
    free(ours);
}

static char tmpdir[] = "/tmp/hms-hermetic-XXXXXX";

static void make_dir(void)
{
    cr_assert(mkdtemp(tmpdir) != NULL);
}

static void remove_dir(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
}

static const char *put(const char *name, const char *text)
{
    static char paths[8][4096];
    static int slot;
    char *p = paths[slot++ % 8];
    snprintf(p, 4096, "%s/%s", tmpdir, name);
    FILE *f = fopen(p, "w");
    cr_assert(f, "cannot write %s", p);
    fputs(text, f);
    fclose(f);
    return p;
}

TestSuite(hermetic_paths, .init = make_dir, .fini = remove_dir);

Test(hermetic_paths, cuda_runtime_resolves_to_ours)
{
    const char *p = put("inc.cu", "#include <cuda_runtime.h>\n#include <cuda.h>\n"
                                  "#include <cooperative_groups.h>\n"
                                  "__global__ void k(float *a) { a[threadIdx.x] = 1.0f; }\n");
    hms_tu t;
    char *msgs = NULL;
    cr_assert(parse(p, NULL, &t, &msgs), "%s", msgs);
    cr_assert_eq(t.errors, 0, "%s", msgs);
    assert_only_ours(t.tu);
    hms_tu_dispose(&t);
    free(msgs);
}

Test(hermetic_paths, a_toolkit_include_directory_is_ignored)
{
    /* A fake toolkit whose headers would break the parse if they were read. */
    char inc[4200], crt[4300];
    snprintf(inc, sizeof inc, "%s/toolkit/include", tmpdir);
    snprintf(crt, sizeof crt, "%s/crt", inc);
    char cmd[8600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", crt);
    cr_assert_eq(system(cmd), 0);
    put("toolkit/include/crt/host_config.h", "#error toolkit host_config.h was read\n");
    put("toolkit/include/cuda_runtime.h", "#error toolkit cuda_runtime.h was read\n");
    put("toolkit/include/cublas_v2.h", "#error toolkit cublas_v2.h was read\n");
    const char *p = put("tk.cu", "#include <cuda_runtime.h>\n#include <cublas_v2.h>\n"
                                 "__global__ void k(float *a) { a[threadIdx.x] = 1.0f; }\n");
    char flag[4300];
    snprintf(flag, sizeof flag, "-I%s", inc);
    hms_tu t;
    char *msgs = NULL;
    cr_assert(parse(p, (const char *const[]){flag, NULL}, &t, &msgs), "%s", msgs);
    cr_assert_eq(t.errors, 0, "%s", msgs);
    cr_assert(strstr(msgs, "ignoring include directory"), "%s", msgs);
    cr_assert(strstr(msgs, "'cublas_v2.h' not found"), "%s", msgs);
    assert_only_ours(t.tu);
    hms_tu_dispose(&t);
    free(msgs);
}

Test(hermetic_paths, the_installed_toolkit_is_not_read_even_when_named)
{
    const char *tk = "/usr/local/cuda/include";
    if (access(tk, R_OK) != 0)
        cr_skip_test("no CUDA toolkit at %s on this machine", tk);
    const char *p = put("real.cu", "#include <cuda_runtime.h>\n"
                                   "__global__ void k(float *a) { a[threadIdx.x] = 1.0f; }\n");
    hms_tu t;
    char *msgs = NULL;
    cr_assert(parse(p, (const char *const[]){"-I", tk, NULL}, &t, &msgs), "%s", msgs);
    cr_assert_eq(t.errors, 0, "%s", msgs);
    assert_only_ours(t.tu);
    hms_tu_dispose(&t);
    free(msgs);
}

Test(hermetic_paths, no_include_still_sees_the_runtime_like_nvcc)
{
    /* nvcc includes cuda_runtime.h implicitly; so does hms-lint. Standard
     * headers after it, printf and <cmath> in device code. */
    const char *p = put("bare.cu", "#include <algorithm>\n#include <cmath>\n#include <cstdio>\n"
                                   "__global__ void k(float *a, dim3 d)\n"
                                   "{\n"
                                   "    float v = std::sqrt(a[threadIdx.x]) + sqrtf(2.0f);\n"
                                   "    printf(\"%f %u\\n\", v, blockDim.x * d.x);\n"
                                   "    a[blockIdx.x] = std::min(v, 1.0f) + __expf(v);\n"
                                   "}\n"
                                   "int main() { float *p; cudaMalloc(&p, 4); "
                                   "k<<<1, 1>>>(p, dim3(2)); printf(\"ok\\n\"); }\n");
    hms_tu t;
    char *msgs = NULL;
    cr_assert(parse(p, NULL, &t, &msgs), "%s", msgs);
    cr_assert_eq(t.errors, 0, "%s", msgs);
    cr_assert_str_empty(msgs);
    hms_tu_dispose(&t);
    free(msgs);
}

Test(hermetic_paths, host_function_called_from_a_kernel_is_still_an_error)
{
    /* The device overloads must not make everything callable: a plain host
     * function used in a kernel is diagnosed, as nvcc would. */
    const char *p = put("hostcall.cu", "int host_only(int x) { return x + 1; }\n"
                                       "__global__ void k(int *a) { a[0] = host_only(a[1]); }\n");
    hms_tu t;
    char *msgs = NULL;
    cr_assert(parse(p, NULL, &t, &msgs), "%s", msgs);
    cr_assert_eq(t.errors, 1, "%s", msgs);
    cr_assert(strstr(msgs, ":2:36: no matching function for call to 'host_only'"), "%s", msgs);
    hms_tu_dispose(&t);
    free(msgs);
}

Test(hermetic_paths, printf_is_host_and_device_with_or_without_cstdio)
{
    /* As with nvcc, printf needs no <cstdio> in host or device code, and
     * <cstdio>/<stdio.h> included before or after the runtime still agree
     * with our declarations. */
    static const char *const variants[] = {
        "",
        "#include <cstdio>\n",
        "#include <stdio.h>\n#include <cuda_runtime.h>\n",
        "#include <cuda_runtime.h>\n#include <stdio.h>\n#include <cstdio>\n",
    };
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "%s__global__ void k(float *a) { a[threadIdx.x] = 0.0f; printf(\"%%d\\n\", 1); }\n"
                 "int main() { k<<<1, 32>>>(0); printf(\"%%s\\n\", "
                 "cudaGetErrorString(cudaGetLastError())); return 0; }\n",
                 variants[i]);
        const char *p = put("printf.cu", src);
        hms_tu t;
        char *msgs = NULL;
        cr_assert(parse(p, NULL, &t, &msgs), "%s", msgs);
        cr_expect_eq(t.errors, 0, "variant %zu: %s", i, msgs);
        cr_expect_eq(t.tolerated_errors, 0, "variant %zu: %s", i, msgs);
        cr_expect_str_empty(msgs, "variant %zu", i);
        hms_tu_dispose(&t);
        free(msgs);
    }
}
