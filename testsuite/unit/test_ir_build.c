/* The IR builder in-process, on small sources: the structures the passes
 * read (sites in evaluation order, mappings, vars, loops, unknowns and
 * limits), not the printed dump. Expected values worked out by hand. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/frontend/explicit_inst.h"
#include "analyzer/frontend/ir_build.h"
#include "analyzer/cli/options.h"
#include "analyzer/frontend/parse.h"
#include "testsuite/support/analyze_file.h"

typedef struct {
    char path[64];
    hms_analyzed_file af;
    ir_kernel **k; /* af's */
    size_t n;
    const char *err;
} built;

static void build(built *b, const char *src, const char *const *args)
{
    memset(b, 0, sizeof *b);
    snprintf(b->path, sizeof b->path, "/tmp/hms-irb-XXXXXX.cu");
    int fd = mkstemps(b->path, 3);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, src, strlen(src)), (ssize_t)strlen(src));
    close(fd);
    cr_assert(hms_build_file(b->path, args, &b->af), "%s", b->af.error);
    b->k = b->af.kernels;
    b->n = b->af.nkernels;
    b->err = b->af.said;
}

static void release(built *b)
{
    hms_analyzed_file_free(&b->af);
    unlink(b->path);
}

static const char *fmt(const ir_kernel *k, const ir_expr *e)
{
    static char buf[1024];
    ir_expr_format(k, e, buf, sizeof buf);
    return buf;
}

static const ir_limit *find_limit(const ir_kernel *k, const char *text)
{
    for (size_t i = 0; i < k->nlimits; i++)
        if (strstr(k->limits[i].reason, text))
            return &k->limits[i];
    return NULL;
}

static int array_named(const ir_kernel *k, const char *name)
{
    for (size_t i = 0; i < k->narrays; i++)
        if (!strcmp(k->arrays[i].name, name))
            return (int)i;
    return -1;
}

/* The first statement of a kind anywhere under s (depth first). */
static const ir_stmt *find_stmt(const ir_stmt *s, ir_stmt_kind kind)
{
    if (!s)
        return NULL;
    if (s->kind == kind)
        return s;
    const ir_stmt *r = NULL;
    for (size_t i = 0; s->kind == IR_S_BLOCK && i < s->items.n && !r; i++)
        r = find_stmt(s->items.v[i], kind);
    if (!r)
        r = find_stmt(s->then, kind);
    if (!r)
        r = find_stmt(s->els, kind);
    if (!r)
        r = find_stmt(s->init, kind);
    if (!r)
        r = find_stmt(s->body, kind);
    if (!r)
        r = find_stmt(s->step, kind);
    return r;
}

Test(ir_build, sites_follow_evaluation_order_and_pair_the_mapping)
{
    built b;
    build(&b,
          "__global__ void k(const float *a, float *o) {\n"
          "  __shared__ float s[8][32];\n"
          "  s[threadIdx.y][threadIdx.x] = a[threadIdx.x];\n"
          "  o[threadIdx.x] += s[threadIdx.x % 8][0];\n"
          "}\n",
          NULL);
    cr_assert_eq(b.n, 1, "%s", b.err);
    ir_kernel *k = b.k[0];
    cr_assert_eq(k->nsites, 5);
    /* the right-hand side is read before the store (C++17 sequencing) */
    cr_assert_eq(k->sites[0]->kind, HMS_ACCESS_LOAD);
    cr_assert_eq(k->sites[0]->array, array_named(k, "a"));
    cr_assert_eq(k->sites[1]->kind, HMS_ACCESS_STORE);
    cr_assert_eq(k->sites[1]->array, array_named(k, "s"));
    cr_assert_str_eq(fmt(k, k->sites[1]->index), "threadIdx.y * 32 + threadIdx.x");
    cr_assert_eq(k->nmappings, 1);
    cr_assert_eq(k->mappings[0].fetch_site, 0);
    cr_assert_eq(k->mappings[0].access_site, 1);
    cr_assert_eq(k->sites[1]->mapping, 0);
    /* o[i] += x: x's load, then o's load, then o's store */
    cr_assert_eq(k->sites[2]->array, array_named(k, "s"));
    cr_assert_str_eq(fmt(k, k->sites[2]->index), "threadIdx.x % 8 * 32");
    cr_assert_eq(k->sites[3]->kind, HMS_ACCESS_LOAD);
    cr_assert_eq(k->sites[4]->kind, HMS_ACCESS_STORE);
    cr_assert_eq(k->sites[3]->array, k->sites[4]->array);
    cr_assert_eq(k->static_shared_bytes, 8 * 32 * 4);
    cr_assert_eq(k->sites[1]->loc.line, 3);
    cr_assert_eq(k->sites[1]->loc.col, 3);
    cr_assert_str_eq(k->sites[0]->text, "a[threadIdx.x]");
    release(&b);
}

Test(ir_build, every_unknown_carries_a_reason_and_a_limit)
{
    built b;
    build(&b,
          "__device__ int hidden(int);\n"
          "__global__ void k(const int *col, float *x, float **rows, float f) {\n"
          "  x[col[threadIdx.x]] = 1;\n"
          "  x[hidden(threadIdx.x)] = 2;\n"
          "  x[(int)f] = 3;\n"
          "  rows[1][threadIdx.x] = 4;\n"
          "}\n",
          NULL);
    ir_kernel *k = b.k[0];
    /* loads of col and rows[1] plus four stores */
    cr_assert_eq(k->nsites, 6);
    const ir_access *s0 = k->sites[1];
    cr_assert_eq(s0->index->kind, IR_UNKNOWN);
    cr_assert_str_eq(s0->index->reason, "value loaded from memory: col[threadIdx.x]");
    cr_assert_eq(s0->index->array, array_named(k, "col"));
    cr_assert_eq(s0->index->loc.line, 3);
    cr_assert_eq(k->sites[2]->index->kind, IR_UNKNOWN);
    cr_assert(strstr(k->sites[2]->index->reason, "result of 'hidden'"));
    cr_assert(ir_expr_has_unknown(k->sites[3]->index));
    cr_assert(find_limit(k, "address of x[col[threadIdx.x]] depends on an unknown value"));
    cr_assert(find_limit(k, "address of x[hidden(threadIdx.x)] depends on an unknown value"));
    cr_assert(find_limit(k, "address of x[(int)f] depends on an unknown value: non-integer"));
    const ir_limit *l = find_limit(k, "pointer loaded from memory: rows[1]");
    cr_assert(l);
    cr_assert_eq(l->loc.line, 6);
    cr_assert_eq(k->sites[5]->array, array_named(k, "<unknown>"));
    release(&b);
}

Test(ir_build, locals_are_substituted_until_a_branch_or_loop_needs_a_variable)
{
    built b;
    build(&b,
          "__global__ void k(float *a, int n) {\n"
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  int j = i + 1;\n"
          "  a[j] = 0;\n"
          "  if (n > 4) j = 2 * i;\n"
          "  a[j] = 1;\n"
          "}\n",
          NULL);
    ir_kernel *k = b.k[0];
    cr_assert_eq(k->nsites, 2);
    cr_assert_str_eq(fmt(k, k->sites[0]->index), "blockIdx.x * blockDim.x + threadIdx.x + 1");
    /* after the if, j is whatever its variable holds */
    cr_assert_eq(k->sites[1]->index->kind, IR_VAR);
    cr_assert_str_eq(k->vars[k->sites[1]->index->var].name, "j");
    const ir_stmt *as = find_stmt(k->body, IR_S_ASSIGN);
    cr_assert(as);
    cr_assert_str_eq(fmt(k, as->value), "blockIdx.x * blockDim.x + threadIdx.x + 1");
    const ir_stmt *iff = find_stmt(k->body, IR_S_IF);
    cr_assert_str_eq(fmt(k, iff->cond), "n > 4");
    const ir_stmt *in_then = find_stmt(iff->then, IR_S_ASSIGN);
    cr_assert_str_eq(fmt(k, in_then->value), "2 * (blockIdx.x * blockDim.x + threadIdx.x)");
    /* i itself never needed a variable */
    for (size_t v = 0; v < k->nvars; v++)
        cr_assert_str_neq(k->vars[v].name, "i");
    release(&b);
}

Test(ir_build, affine_loops_get_their_trip_counts)
{
    built b;
    build(&b,
          "__global__ void k(float *a, int n) {\n"
          "  for (int i = 0; i < 100; i += 3) a[i] = 0;\n"  /* ceil(100/3) = 34 */
          "  for (int i = 10; i > 0; i--) a[i] = 0;\n"      /* 10 */
          "  for (int s = 256; s > 0; s >>= 1) a[s] = 0;\n" /* 256..1: 9 */
          "  for (int i = 5; i <= 5; i++) a[i] = 0;\n"      /* 1 */
          "  for (int i = 7; i < 3; i++) a[i] = 0;\n"       /* 0 */
          "  for (int i = threadIdx.x; i < n; i += 32) a[i] = 0;\n"
          "}\n",
          NULL);
    ir_kernel *k = b.k[0];
    int64_t want[] = {34, 10, 9, 1, 0, -1};
    size_t li = 0;
    for (size_t i = 0; i < k->body->items.n; i++) {
        const ir_stmt *s = k->body->items.v[i];
        if (s->kind != IR_S_LOOP)
            continue;
        cr_assert_lt(li, 6);
        cr_assert_eq(s->trip_count, want[li], "loop %zu: %lld", li, (long long)s->trip_count);
        cr_assert_geq(s->loop_var, 0);
        cr_assert_eq(k->vars[s->loop_var].kind, IR_VAR_LOOP);
        if (li == 5)
            cr_assert_str_eq(fmt(k, s->trip), "(n - threadIdx.x + 31) / 32");
        li++;
    }
    cr_assert_eq(li, 6);
    release(&b);
}

Test(ir_build, control_statements_keep_their_kinds)
{
    built b;
    build(&b,
          "__global__ void k(float *a, int n) {\n"
          "  if (threadIdx.x >= n) return;\n"
          "  for (int i = 0; i < n; i++) {\n"
          "    if (i == 3) continue;\n"
          "    if (a[i] < 0) break;\n"
          "    __syncthreads();\n"
          "  }\n"
          "}\n",
          NULL);
    ir_kernel *k = b.k[0];
    cr_assert(find_stmt(k->body, IR_S_RETURN));
    cr_assert(find_stmt(k->body, IR_S_CONTINUE));
    cr_assert(find_stmt(k->body, IR_S_BREAK));
    cr_assert(find_stmt(k->body, IR_S_SYNC));
    cr_assert(find_limit(k, "branch condition depends on an unknown value: value loaded from "
                            "memory: a[i]"));
    release(&b);
}

Test(ir_build, default_values_and_launch_are_documented_in_the_ir)
{
    built b;
    build(&b, "__global__ void k(float *a, int n) { a[threadIdx.x % n] = 0; }\n", NULL);
    ir_kernel *k = b.k[0];
    cr_assert_eq(k->launch.source, IR_LAUNCH_DEFAULT);
    cr_assert_eq(k->launch.grid[0], 256);
    cr_assert_eq(k->launch.block[0], 256);
    cr_assert_eq(k->nvars, 1);
    cr_assert(k->vars[0].has_value);
    cr_assert_eq(k->vars[0].value, 64); /* not a bound of a thread index: the small default */
    cr_assert_str_eq(k->vars[0].value_source, "default");
    cr_assert(find_limit(k, "no launch configuration found"));
    release(&b);

    build(&b, "__global__ void k(float *a, int n) { a[threadIdx.x % n] = 0; }\n",
          (const char *const[]){"--param=k.n=77", "--launch=grid=3:block=96", NULL});
    k = b.k[0];
    cr_assert_eq(k->launch.source, IR_LAUNCH_CLI);
    cr_assert_eq(k->launch.grid[0], 3);
    cr_assert_eq(k->vars[0].value, 77);
    cr_assert_str_eq(k->vars[0].value_source, "cli");
    cr_assert_null(find_limit(k, "no launch configuration found"));
    release(&b);
}

Test(ir_build, errors_inside_a_kernel_become_limits_not_crashes)
{
    built b;
    build(&b,
          "__global__ void k(float *a) {\n"
          "  a[threadIdx.x] = undeclared_thing + 1;\n"
          "  a[0] = 2;\n"
          "}\n",
          NULL);
    cr_assert_eq(b.n, 1);
    ir_kernel *k = b.k[0];
    const ir_limit *l =
        find_limit(k, "undeclared identifier 'undeclared_thing' (from a missing header?)");
    cr_assert(l, "no limit for the clang error");
    cr_assert(l->hint && strstr(l->hint, "define it: -D undeclared_thing=<value>"));
    cr_assert_eq(l->loc.line, 2);
    /* what could be understood still is */
    cr_assert_geq(k->nsites, 1);
    release(&b);
}

Test(ir_build, recursion_and_runaway_inlining_stop)
{
    built b;
    build(&b,
          "__device__ int f(int n) { return n ? f(n - 1) + 1 : 0; }\n"
          "__global__ void k(int *a) { a[f(5)] = 1; }\n",
          NULL);
    ir_kernel *k = b.k[0];
    cr_assert(find_limit(k, "recursive call to 'f' is not followed"));
    cr_assert_eq(k->nsites, 1);
    cr_assert(ir_expr_has_unknown(k->sites[0]->index));
    release(&b);
}

Test(ir_build, no_kernels_is_not_an_error)
{
    built b;
    build(&b, "int host_only(int x) { return x + 1; }\n", NULL);
    cr_assert_eq(b.n, 0);
    cr_assert_null(b.k);
    release(&b);
}

Test(ir_build, explicit_instantiations_are_found_in_the_text)
{
    const char *src = "// template void not_this<1>(int);\n"
                      "namespace outer { namespace inner {\n"
                      "template <int N> __global__ void k(float *p) { p[N] = 0; }\n"
                      "template __global__ void k<4>(float *);\n"
                      "} }\n"
                      "template class std_like<int>;\n"
                      "const char *s = \"template void nor<2>(int);\";\n"
                      "template __global__ void outer::inner::k<8>(float *);\n"
                      "template<> __global__ void k2<3>(float *p) { }\n";
    char *refs = hms_explicit_instantiation_refs(src, strlen(src));
    cr_assert_not_null(refs);
    cr_assert_str_eq(refs, "\nstatic void *__hms_lint_instance_0 = (void *)&outer::inner::k<4>;"
                           "\nstatic void *__hms_lint_instance_1 = (void *)&outer::inner::k<8>;\n");
    free(refs);
    cr_assert_null(hms_explicit_instantiation_refs("int x;\n", 7));
}

Test(ir_build, exponential_inlining_is_cut_off_with_one_note_per_place)
{
    /* f23 calls f22 twice, ...: 2^23 inlined bodies if nothing stopped it */
    char src[4096];
    size_t n = (size_t)snprintf(src, sizeof src, "__device__ int f0(int x) { return x + 1; }\n");
    for (int i = 1; i < 24; i++)
        n += (size_t)snprintf(src + n, sizeof src - n,
                              "__device__ int f%d(int x) { return f%d(x) + f%d(x + 1); }\n", i,
                              i - 1, i - 1);
    snprintf(src + n, sizeof src - n,
             "__global__ void k(int *a) { a[f23(threadIdx.x) %% 64] = 1; }\n");
    built b;
    build(&b, src, NULL);
    ir_kernel *k = b.k[0];
    cr_assert(find_limit(k, "calls nested too deeply to follow"));
    cr_assert_leq(k->nlimits, 10, "%zu limits", k->nlimits);
    cr_assert_eq(k->nsites, 1);
    release(&b);
}
