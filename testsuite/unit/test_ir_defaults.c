/* Role-aware default values of integer parameters (docs/ir.md "Scalar
 * values"), undeclared identifiers as explicit unknowns, and texture
 * fetches nested in texture fetches (ASan regression). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/frontend/ir_build.h"
#include "analyzer/cli/options.h"
#include "analyzer/frontend/parse.h"
#include "testsuite/support/analyze_file.h"

typedef struct {
    char path[64];
    hms_analyzed_file af;
    ir_kernel **k; /* af's */
    size_t n;
} built;

static void build(built *b, const char *src)
{
    memset(b, 0, sizeof *b);
    snprintf(b->path, sizeof b->path, "/tmp/hms-irdef-XXXXXX.cu");
    int fd = mkstemps(b->path, 3);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, src, strlen(src)), (ssize_t)strlen(src));
    close(fd);
    cr_assert(hms_build_file(b->path, NULL, &b->af), "%s", b->af.error);
    b->k = b->af.kernels;
    b->n = b->af.nkernels;
    cr_assert_geq(b->n, 1);
}

static void release(built *b)
{
    hms_analyzed_file_free(&b->af);
    unlink(b->path);
}

static const ir_var *var_named(const ir_kernel *k, const char *name)
{
    for (size_t i = 0; i < k->nvars; i++)
        if (!strcmp(k->vars[i].name, name))
            return &k->vars[i];
    cr_assert_fail("no var %s", name);
    return NULL;
}

static void expect_default(const ir_kernel *k, const char *name, int64_t v)
{
    const ir_var *x = var_named(k, name);
    cr_assert(x->has_value);
    cr_assert_eq(x->value, v, "%s = %lld, expected %lld", name, (long long)x->value, (long long)v);
    cr_assert_str_eq(x->value_source, "default");
}

Test(ir_defaults, bound_of_a_thread_index_takes_the_thread_count_offsets_do_not)
{
    built b;
    /* n - 1 - t: n bounds the index, t is subtracted (an offset) */
    build(&b, "__global__ void k(float *a, int n, int t) {\n"
              "  if (threadIdx.x + blockIdx.x * blockDim.x >= n - 1 - t) return;\n"
              "  a[threadIdx.x] = 0.f;\n"
              "}\n");
    expect_default(b.k[0], "n", 256 * 256);
    expect_default(b.k[0], "t", 64);
    release(&b);
}

Test(ir_defaults, offsets_cannot_cancel_the_bound_of_a_small_launch)
{
    built b;
    /* Rodinia gaussian's Fan2 on 64 x 64 threads: with t = 64, Size - 1 - t
     * would be -1 and every thread would leave at the first guard. */
    build(&b, "// hms-lint: launch grid(16,16) block(4,4)\n"
              "__global__ void k(float *a, int Size, int t) {\n"
              "  if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;\n"
              "  if (threadIdx.y + blockIdx.y * blockDim.y >= Size - t) return;\n"
              "  a[Size * (blockIdx.x * blockDim.x + threadIdx.x + 1 + t) + t] = 0.f;\n"
              "}\n");
    expect_default(b.k[0], "Size", 64);
    expect_default(b.k[0], "t", 16); /* a quarter of the 64 threads along x and y */
    cr_assert(strstr(var_named(b.k[0], "t")->default_why, "subtracted from a bound"));
    cr_assert(strstr(var_named(b.k[0], "Size")->default_why, "bound of a thread index"));
    release(&b);
}

Test(ir_defaults, lower_bounds_take_small_values)
{
    built b;
    /* the live threads are those at or above `first` / `lo`: a bound of
     * threads launched would make every thread leave */
    build(&b, "__global__ void k(float *a, int first, int lo, int n, int halo, int w) {\n"
              "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  if (i < first) return;\n"
              "  if (i >= lo && i < n) a[i] = 0.f;\n"
              "  if (threadIdx.x - halo >= 0 && threadIdx.x - halo < w) a[i] = 1.f;\n"
              "}\n");
    expect_default(b.k[0], "first", 64);
    expect_default(b.k[0], "lo", 64);
    expect_default(b.k[0], "n", 256 * 256);
    /* beside the thread index: a shift, kept small; w bounds it */
    expect_default(b.k[0], "halo", 64);
    cr_assert(strstr(var_named(b.k[0], "halo")->default_why, "subtracted"));
    expect_default(b.k[0], "w", 256 * 256);
    release(&b);
}

Test(ir_defaults, loop_counts_and_strides_take_the_small_default)
{
    built b;
    build(&b, "__global__ void k(const unsigned *e, unsigned *l, int chunk, int deg) {\n"
              "  int v0 = (blockIdx.x * blockDim.x + threadIdx.x) * chunk;\n"
              "  for (int v = v0; v < v0 + chunk; v++)\n"
              "    for (int j = 0; j < deg; j++)\n"
              "      l[v] += e[v * deg + j];\n"
              "}\n");
    expect_default(b.k[0], "chunk", 64);
    expect_default(b.k[0], "deg", 64);
    release(&b);
}

Test(ir_defaults, grid_stride_and_2d_bounds_follow_their_dimension)
{
    built b;
    build(&b, "// hms-lint: launch grid(8,4) block(32,16)\n"
              "__global__ void k(float *a, int w, int h, int n) {\n"
              "  int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
              "  if (x >= w || y >= h) return;\n"
              "  a[y * w + x] = 0.f;\n"
              "  for (int i = x; i < n; i += blockDim.x * gridDim.x) a[i] = 1.f;\n"
              "}\n");
    expect_default(b.k[0], "w", 8 * 32);
    expect_default(b.k[0], "h", 4 * 16);
    expect_default(b.k[0], "n", 8 * 32);
    release(&b);
}

Test(ir_defaults, undeclared_identifier_is_an_explicit_unknown_with_a_hint)
{
    built b;
    build(&b, "__global__ void k(float *a) {\n"
              "  for (int j = 0; j < NITER; j++)\n"
              "    a[threadIdx.x + j] = 2.0f;\n"
              "}\n");
    const ir_kernel *k = b.k[0];
    bool reason = false, hint = false;
    for (size_t i = 0; i < k->nlimits; i++) {
        if (strstr(k->limits[i].reason, "undeclared identifier 'NITER' (from a missing header?)"))
            reason = true;
        if (k->limits[i].hint && strstr(k->limits[i].hint, "define it: -D NITER=<value>"))
            hint = true;
    }
    cr_assert(reason && hint);
    release(&b);
}

Test(ir_defaults, nested_texture_fetch_names_its_texture)
{
    built b;
    build(&b, "texture<float, 1, cudaReadModeElementType> tv;\n"
              "texture<int> ti;\n"
              "__global__ void k(float *out) {\n"
              "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  out[i] = tex1Dfetch(tv, tex1Dfetch(ti, i));\n"
              "}\n");
    const ir_kernel *k = b.k[0];
    cr_assert_geq(k->nsites, 3);
    release(&b);
}

Test(ir_defaults, shared_array_extents_have_source_ranges)
{
    built b;
    build(&b, "#define TILE 32\n"
              "__global__ void k(float *a) {\n"
              "  __shared__ float t[TILE][TILE + 1];\n"
              "  t[threadIdx.y][threadIdx.x] = a[threadIdx.x];\n"
              "  a[threadIdx.x] = t[threadIdx.x][threadIdx.y];\n"
              "}\n");
    const ir_kernel *k = b.k[0];
    const ir_array *t = NULL;
    for (size_t i = 0; i < k->narrays; i++)
        if (!strcmp(k->arrays[i].name, "t"))
            t = &k->arrays[i];
    cr_assert(t && t->ndims == 2);
    cr_assert_eq(t->dim_loc[0].line, 3);
    cr_assert_eq(t->dim_loc[0].col, 22);
    cr_assert_eq(t->dim_loc[0].end_col, 26);
    cr_assert_eq(t->dim_loc[1].col, 28);
    cr_assert_eq(t->dim_loc[1].end_col, 36);
    release(&b);
}
