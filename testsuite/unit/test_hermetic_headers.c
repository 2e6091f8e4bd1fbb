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

#include "analyzer/frontend/parse.h"
#include "testsuite/support/run.h"

/* Parses path with extra compiler flags; stderr text goes to *msgs. */
static bool parse(const char *path, const char *const *flags, hms_tu *t, char **msgs)
{
    hms_frontend_options o;
    memset(&o, 0, sizeof o);
    o.compiler_args.v = flags;
    while (flags && flags[o.compiler_args.n])
        o.compiler_args.n++;
    hms_diag_sink said;
    hms_diag_sink_init(&said, NULL);
    bool ok = hms_parse_file(&o, path, t, &said);
    *msgs = hms_diag_sink_text(&said);
    hms_diag_sink_free(&said);
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
        "samples_cufft_complex.cu",    "samples_multigpu_flags.cu",
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
    cr_assert(strstr(msgs, ":2:36: error: no matching function for call to 'host_only'"), "%s",
              msgs);
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

/* The accesses of a JSON report's first kernel, run on a source of our own. */
static json_t *lint_json(const char *name, const char *src, hms_run_result *r)
{
    const char *p = put(name, src);
    const char *args[] = {"--format=json", "--fail-on=never", p, NULL};
    *r = hms_run(args);
    json_error_t e;
    json_t *doc = json_loads(r->out, 0, &e);
    cr_assert(doc, "no JSON report (%s): %s", e.text, r->err);
    return doc;
}

static json_t *kernel_accesses(json_t *doc, size_t k)
{
    json_t *kernels = json_object_get(json_array_get(json_object_get(doc, "files"), 0), "kernels");
    return json_object_get(json_array_get(kernels, k), "accesses");
}

static double num(json_t *access, const char *field)
{
    return json_number_value(json_object_get(access, field));
}

Test(hermetic_paths, wmma_tile_loads_and_stores_are_the_warps_accesses_at_the_call)
{
    /* One warp, 16x16 tiles with rows 64 elements apart. The half tile is 16
     * rows of 32 bytes: one request of 16 sectors. The float tile is 16 rows
     * of 64 bytes: 64 pieces of 16 bytes, two requests of 8 rows x 2 sectors.
     * The fragment's x[] is registers, not memory. */
    hms_run_result r;
    json_t *doc =
        lint_json("wmma.cu",
                  "#include <mma.h>\n"
                  "using namespace nvcuda;\n"
                  "// hms-lint: launch grid(1) block(32)\n"
                  "__global__ void tile(const half *a, float *c)\n"
                  "{\n"
                  "    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;\n"
                  "    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;\n"
                  "    wmma::load_matrix_sync(fa, a, 64);\n"
                  "    wmma::fill_fragment(fc, 0.0f);\n"
                  "    for (int i = 0; i < fc.num_elements; i++)\n"
                  "        fc.x[i] += 1.0f;\n"
                  "    wmma::store_matrix_sync(c, fc, 64, wmma::mem_row_major);\n"
                  "}\n",
                  &r);
    cr_expect_eq(r.status, 0, "%s", r.err);
    json_t *acc = kernel_accesses(doc, 0);
    cr_assert_eq(json_array_size(acc), 2, "%s", r.out);
    json_t *ld = json_array_get(acc, 0), *st = json_array_get(acc, 1);
    cr_expect_str_eq(json_string_value(json_object_get(ld, "array")), "a");
    cr_expect_str_eq(json_string_value(json_object_get(ld, "kind")), "load");
    cr_expect_eq(num(ld, "line"), 8);
    cr_expect_eq(num(ld, "requests"), 1);
    cr_expect_eq(num(ld, "sectors_per_request"), 16);
    cr_expect_str_eq(json_string_value(json_object_get(st, "array")), "c");
    cr_expect_str_eq(json_string_value(json_object_get(st, "kind")), "store");
    cr_expect_eq(num(st, "line"), 12);
    cr_expect_eq(num(st, "requests"), 2);
    cr_expect_eq(num(st, "sectors_per_request"), 16);
    cr_expect(!strstr(r.out, "hms-uncoalesced-access"), "%s", r.out);
    json_decref(doc);
    hms_run_free(&r);
}

Test(hermetic_paths, memcpy_async_is_a_global_load_and_a_shared_store_of_its_width)
{
    /* float4 per thread through the pipeline primitive and through
     * cuda::memcpy_async with aligned_size_t<16>: 32 lanes x 16 contiguous
     * bytes, 16 sectors per request, 4 shared wavefronts. */
    hms_run_result r;
    json_t *doc = lint_json("async.cu",
                            "#include <cuda/pipeline>\n"
                            "#include <cuda_pipeline.h>\n"
                            "// hms-lint: launch grid(1) block(32)\n"
                            "__global__ void prim(const float4 *g)\n"
                            "{\n"
                            "    __shared__ float4 s[32];\n"
                            "    __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], 16);\n"
                            "    __pipeline_commit();\n"
                            "}\n"
                            "// hms-lint: launch grid(1) block(32)\n"
                            "__global__ void pipe(const float4 *g)\n"
                            "{\n"
                            "    __shared__ float4 s[32];\n"
                            "    auto p = cuda::make_pipeline();\n"
                            "    cuda::memcpy_async(&s[threadIdx.x], &g[threadIdx.x],\n"
                            "                       cuda::aligned_size_t<16>(sizeof(float4)), p);\n"
                            "}\n",
                            &r);
    cr_expect_eq(r.status, 0, "%s", r.err);
    for (size_t k = 0; k < 2; k++) {
        json_t *acc = kernel_accesses(doc, k);
        cr_assert_eq(json_array_size(acc), 2, "kernel %zu: %s", k, r.out);
        json_t *ld = json_array_get(acc, 0), *st = json_array_get(acc, 1);
        cr_expect_str_eq(json_string_value(json_object_get(ld, "array")), "g");
        cr_expect_str_eq(json_string_value(json_object_get(ld, "kind")), "load");
        cr_expect_eq(num(ld, "requests"), 1);
        cr_expect_eq(num(ld, "sectors_per_request"), 16);
        cr_expect_str_eq(json_string_value(json_object_get(st, "array")), "s");
        cr_expect_str_eq(json_string_value(json_object_get(st, "kind")), "store");
        cr_expect_eq(num(st, "bank_wavefronts_per_request"), 4);
        cr_expect_eq(num(ld, "line"), k == 0 ? 7 : 15);
    }
    json_decref(doc);
    hms_run_free(&r);
}

Test(hermetic_paths, code_nvcc_accepts_and_clang_does_not_is_a_warning_not_exit_2)
{
    /* A device-side launch (dynamic parallelism) and alignas after
     * __shared__: warnings, the kernels analysed. A real syntax error in the
     * same place is still exit 2. */
    hms_run_result r;
    json_t *doc = lint_json("dialect.cu",
                            "__global__ void child(float *a) { a[threadIdx.x] = 0.0f; }\n"
                            "__global__ void parent(float *a)\n"
                            "{\n"
                            "    __shared__ alignas(16) float t[32];\n"
                            "    t[threadIdx.x] = a[threadIdx.x];\n"
                            "    if (threadIdx.x == 0)\n"
                            "        child<<<1, 32>>>(a);\n"
                            "    a[threadIdx.x] = t[31 - threadIdx.x];\n"
                            "}\n",
                            &r);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "dialect.cu:7:9: warning: a kernel launched from device code (dynamic "
                            "parallelism)"),
              "%s", r.err);
    cr_expect(strstr(r.err, "dialect.cu:4:16: warning: an attribute (alignas) after __shared__"),
              "%s", r.err);
    cr_expect_eq(json_array_size(kernel_accesses(doc, 1)), 4, "%s", r.out);
    json_decref(doc);
    hms_run_free(&r);

    doc = lint_json("broken.cu",
                    "__global__ void k(float *a)\n"
                    "{\n"
                    "    a[threadIdx.x] = 0.0f\n"
                    "}\n",
                    &r);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "broken.cu:3:26: error: expected ';'"), "%s", r.err);
    json_decref(doc);
    hms_run_free(&r);
}

Test(hermetic_paths, device_new_and_placement_new_need_no_include)
{
    /* As with nvcc: placement new into __shared__ storage and new/delete in
     * device code, with no <new>. */
    const char *p =
        put("devnew.cu",
            "struct Vec { int *d; int n; __device__ Vec(int c, int *p) : d(p), n(c) {} };\n"
            "__global__ void k(int *out)\n"
            "{\n"
            "    __shared__ unsigned char __align__(8) buf[sizeof(Vec)];\n"
            "    __shared__ int data[64];\n"
            "    Vec *v = new (buf) Vec(64, data);\n"
            "    int *tmp = new int[4];\n"
            "    out[threadIdx.x] = v->n + tmp[0];\n"
            "    delete[] tmp;\n"
            "}\n");
    hms_tu t;
    char *msgs = NULL;
    cr_assert(parse(p, NULL, &t, &msgs), "%s", msgs);
    cr_expect_eq(t.errors + t.tolerated_errors, 0, "%s", msgs);
    cr_expect_str_empty(msgs);
    hms_tu_dispose(&t);
    free(msgs);
}
