/* The per-site metrics of the report (docs/model.md "Coalescing" and "Shared-memory banks") against
 * a brute-force reference: every thread of the launch run on its own by
 * testsuite/support/bruteforce.h, its accesses grouped into warp records, and
 * the metrics recomputed here from the definitions, without the runtime's
 * coalescing, bank or constant code. Kernels: the check tests' transposes,
 * reductions, multiplies, convolutions, the CuMAPz example and the
 * cooperative-groups warp-per-row kernels, each on a launch small enough to be
 * enumerated in full (so every figure is exact), and long loops the tracer
 * summarises (kernels/loops/long_loops.cu). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/trace/stream_gen.h"
#include "testsuite/support/analyze_file.h"
#include "testsuite/support/bruteforce.h"
#include "testsuite/support/run.h"

TestSuite(metrics_bruteforce, .timeout = 600);

typedef struct {
    double requests, sectors, lines, wavefronts, distinct;
} ref_site;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Distinct `unit`-byte units holding a byte of an active lane. */
static size_t units(const hms_warp_access *r, uint64_t unit)
{
    uint64_t u[HMS_WARP_LANES * 17];
    size_t n = 0;
    for (int l = 0; l < HMS_WARP_LANES; l++)
        if (r->mask >> l & 1)
            for (uint64_t b = r->addr[l] / unit; b <= (r->addr[l] + r->width - 1) / unit; b++)
                u[n++] = b;
    qsort(u, n, sizeof *u, cmp_u64);
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += i == 0 || u[i] != u[i - 1];
    return d;
}

/* 32 banks of 4 bytes (docs/model.md "Shared-memory banks"): in each phase the
 * most distinct 4-byte words any bank holds among the bytes of the active
 * lanes; a warp is one phase for accesses of up to 4 bytes, two half-warp
 * phases for 8-byte and four quarter-warp phases for 16-byte ones, the
 * phases with an active lane summed. */
static size_t wavefronts(const hms_warp_access *r)
{
    int per_phase = r->width > 4 ? HMS_WARP_LANES * 4 / r->width : HMS_WARP_LANES;
    size_t total = 0;
    for (int first = 0; first < HMS_WARP_LANES; first += per_phase) {
        size_t most = 0;
        for (uint64_t bank = 0; bank < 32; bank++) {
            uint64_t w[HMS_WARP_LANES * 4];
            size_t n = 0;
            for (int l = first; l < first + per_phase; l++)
                if (r->mask >> l & 1)
                    for (uint64_t x = r->addr[l] / 4; x <= (r->addr[l] + r->width - 1) / 4; x++)
                        if (x % 32 == bank)
                            w[n++] = x;
            qsort(w, n, sizeof *w, cmp_u64);
            size_t d = 0;
            for (size_t i = 0; i < n; i++)
                d += i == 0 || w[i] != w[i - 1];
            most = d > most ? d : most;
        }
        total += most;
    }
    return total;
}

/* skip_unknown: sites whose index holds an unknown value (a row loaded
 * from memory) are left out of the comparison; every other site must match.
 * allow_inexact: a site may be labelled an estimate (a surface of unknown
 * row pitch, assumed the same in both) but its figures must still match. */
static void compare_kernel_opts(const hms_analyzed_file *f, size_t ki, bool skip_unknown,
                                bool allow_inexact)
{
    const ir_kernel *k = f->kernels[ki];
    const hms_kernel_report *rep = &f->reports[ki];
    cr_assert_not(rep->sampled, "%s: sampled", k->name);
    cr_assert_eq(rep->naccesses, k->nsites, "%s", k->name);
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, NULL, &t), "%s", t.error);
    uint64_t *bases = calloc(k->narrays, sizeof *bases);
    for (size_t a = 0; a < k->narrays; a++)
        bases[a] = t.arrays[a].base;
    uint64_t total = t.blocks_total;
    uint64_t *blocks = malloc(total * sizeof *blocks);
    for (uint64_t b = 0; b < total; b++)
        blocks[b] = b;
    hms_stream s;
    hms_stream_init(&s); /* the reference appends to it */
    char err[256];
    hms_bf_options bo = {0};
    bo.skip_unknown_index = skip_unknown;
    cr_assert(hms_bruteforce_trace(k, blocks, total, bases, &bo, &s, err, sizeof err), "%s: %s",
              k->name, err);
    ref_site *ref = calloc(k->nsites, sizeof *ref);
    for (size_t i = 0; i < s.n; i++) {
        const hms_warp_access *r = &s.v[i];
        if (!r->mask)
            continue;
        ref_site *x = &ref[r->site];
        x->requests++;
        switch ((hms_space)r->space) {
        case HMS_SPACE_SHARED:
            x->wavefronts += (double)wavefronts(r);
            break;
        case HMS_SPACE_CONSTANT:
            x->distinct += (double)units(r, r->width > 4 ? r->width : 4);
            break;
        default:
            x->sectors += (double)units(r, 32);
            x->lines += (double)units(r, 128);
            break;
        }
    }
    for (size_t i = 0; i < k->nsites; i++) {
        const hms_access_metrics *m = &rep->accesses[i];
        const ref_site *x = &ref[i];
        hms_space sp = k->arrays[k->sites[i]->array].space;
        if (skip_unknown && ir_expr_has_unknown(k->sites[i]->index))
            continue;
        if (!allow_inexact)
            cr_expect(m->exact, "%s site %zu not exact", k->name, i);
        cr_expect_eq(m->requests, x->requests, "%s site %zu (%s line %u): requests %g vs %g",
                     k->name, i, m->array, m->line, m->requests, x->requests);
        if (x->requests == 0)
            continue;
        double tol = 1e-9;
        if (sp == HMS_SPACE_SHARED)
            cr_expect(fabs(m->bank_wavefronts_per_request - x->wavefronts / x->requests) < tol,
                      "%s %s line %u: wavefronts %g vs %g", k->name, m->array, m->line,
                      m->bank_wavefronts_per_request, x->wavefronts / x->requests);
        else if (sp == HMS_SPACE_CONSTANT)
            cr_expect(fabs(m->distinct_addresses_per_request - x->distinct / x->requests) < tol,
                      "%s %s line %u: distinct %g vs %g", k->name, m->array, m->line,
                      m->distinct_addresses_per_request, x->distinct / x->requests);
        else {
            cr_expect(fabs(m->sectors_per_request - x->sectors / x->requests) < tol,
                      "%s %s line %u: sectors %g vs %g", k->name, m->array, m->line,
                      m->sectors_per_request, x->sectors / x->requests);
            cr_expect(fabs(m->lines_per_request - x->lines / x->requests) < tol,
                      "%s %s line %u: lines %g vs %g", k->name, m->array, m->line,
                      m->lines_per_request, x->lines / x->requests);
        }
    }
    free(ref);
    hms_stream_free(&s);
    free(blocks);
    free(bases);
    hms_kernel_trace_free(&t);
}

static void compare_kernel(const hms_analyzed_file *f, size_t ki, bool skip_unknown)
{
    compare_kernel_opts(f, ki, skip_unknown, false);
}

/* Analyses the file on h100 with the given launch overrides and compares
 * every kernel; returns how many were compared. */
static size_t compare_file_opts(const char *rel, const char *const *launches, bool allow_inexact)
{
    const char *args[16] = {"--arch=h100"};
    size_t n = 1;
    for (size_t i = 0; launches && launches[i] && n < 15; i++)
        args[n++] = launches[i];
    args[n] = NULL;
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path(rel), args, &f), "%s", f.error);
    for (size_t k = 0; k < f.nkernels; k++)
        compare_kernel_opts(&f, k, false, allow_inexact);
    size_t nk = f.nkernels;
    hms_analyzed_file_free(&f);
    return nk;
}

static size_t compare_file(const char *rel, const char *const *launches)
{
    return compare_file_opts(rel, launches, false);
}

/* The same for the kernels of the file named in `names` (NULL-terminated)
 * only; returns how many were compared. */
static size_t compare_named(const char *rel, const char *const *launches, const char *const *names)
{
    const char *args[16] = {"--arch=h100"};
    size_t n = 1;
    for (size_t i = 0; launches && launches[i] && n < 15; i++)
        args[n++] = launches[i];
    args[n] = NULL;
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path(rel), args, &f), "%s", f.error);
    size_t done = 0;
    for (size_t k = 0; k < f.nkernels; k++)
        for (size_t j = 0; names[j]; j++)
            if (strcmp(f.kernels[k]->name, names[j]) == 0) {
                compare_kernel(&f, k, false);
                done++;
            }
    hms_analyzed_file_free(&f);
    return done;
}

Test(metrics_bruteforce, transposes)
{
    cr_expect_eq(compare_file("kernels/checks/transpose.cu", NULL), 4);
}

Test(metrics_bruteforce, reductions)
{
    const char *l[] = {"--launch=reduceInterleaved:grid=16:block=256",
                       "--launch=reduceStrided:grid=16:block=256",
                       "--launch=reduceSequential:grid=16:block=256", NULL};
    cr_expect_eq(compare_file("kernels/checks/reduction.cu", l), 3);
}

Test(metrics_bruteforce, matrix_multiplies)
{
    const char *l[] = {"--launch=matmulNaive:grid=4,4:block=16,16",
                       "--launch=matmulSharedA:grid=4,4:block=16,16",
                       "--launch=matmulSharedB:grid=4,4:block=16,16",
                       "--launch=matmulShared:grid=4,4:block=16,16", NULL};
    cr_expect_eq(compare_file("kernels/checks/matmul.cu", l), 4);
}

Test(metrics_bruteforce, convolutions)
{
    const char *l[] = {"--launch=convConstant:grid=16:block=256",
                       "--launch=convGlobal:grid=16:block=256",
                       "--launch=scaleByTable:grid=16:block=256", NULL};
    cr_expect_eq(compare_file("kernels/checks/convolution.cu", l), 3);
}

Test(metrics_bruteforce, cumapz_example)
{
    const char *l[] = {"--launch=noShared:grid=8,8:block=16,16",
                       "--launch=fetchColumnWise:grid=8,8:block=16,16",
                       "--launch=fetchRowWise:grid=8,8:block=16,16",
                       "--launch=fetchPadded:grid=8,8:block=16,16",
                       "--launch=columnStore:grid=8,8:block=16,16",
                       NULL};
    cr_expect_eq(compare_file("kernels/checks/cumapz.cu", l), 5);
}

Test(metrics_bruteforce, packed_and_local_arrays)
{
    cr_expect_eq(compare_file("kernels/checks/packed_registers.cu", NULL), 4);
}

Test(metrics_bruteforce, long_loops)
{
    /* Loops of 32 to 40 iterations: past the tracer's summary threshold, so
     * the report's figures come from summarised loops (test_loop_summary.c
     * checks that they were); they must still equal the per-thread reference. */
    const char *l[] = {"--launch=sgemmTiled:grid=2,2:block=16,16",
                       "--param=sgemmTiled.M=32",
                       "--param=sgemmTiled.N=32",
                       "--param=sgemmTiled.K=512",
                       "--launch=saxpyGridStride:grid=4:block=128",
                       "--param=saxpyGridStride.n=20000",
                       "--launch=rowSum:grid=4:block=128",
                       "--param=rowSum.n=4100",
                       "--launch=tableWalk:grid=2:block=64",
                       "--param=tableWalk.n=4096",
                       "--param=tableWalk.steps=40",
                       "--launch=slidingWindow:grid=2:block=64",
                       "--param=slidingWindow.n=103",
                       NULL};
    cr_expect_eq(compare_file("kernels/loops/long_loops.cu", l), 5);
}

Test(metrics_bruteforce, launches_from_host_code)
{
    /* No --launch: every launch comes from main's <<<COLS / 256, 256>>>
     * calls, template instantiations included (grid 4, block 256). */
    cr_expect_eq(compare_file("kernels/launches/header_helper.cu", NULL), 4);
}

Test(metrics_bruteforce, cooperative_groups_warp_rows)
{
    /* rowNormalize, rowSumHalfWarps, causalRowMax (float4 rows + remainder) */
    cr_expect_eq(compare_file("kernels/checks/warp_rows.cu", NULL), 3);
}

/* The token embedding's exact sites (token, position row, output) against
 * the reference; its wte row is unknown (test_checks.c checks its figures). */
Test(metrics_bruteforce, embedding_exact_sites)
{
    const char *args[] = {"--arch=h100", NULL};
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path("kernels/checks/unknowns.cu"), args, &f), "%s",
              f.error);
    size_t compared = 0;
    for (size_t k = 0; k < f.nkernels; k++)
        if (!strcmp(f.kernels[k]->name, "embedTokens")) {
            compare_kernel(&f, k, true);
            compared++;
        }
    cr_expect_eq(compared, 1);
    hms_analyzed_file_free(&f);
}

/* curand states in global memory (48-byte whole-struct copies cut into the
 * 8-byte pieces the compiler moves), a state drawn from in registers, float3
 * records, and surface writes and reads (x in bytes, y in rows; their row
 * pitch is assumed, so those sites are estimates whose figures must still
 * equal the reference under the same pitch). Launches from main. */
Test(metrics_bruteforce, rng_states_structs_and_surfaces)
{
    cr_expect_eq(compare_file_opts("kernels/realworld/rng_surfaces.cu", NULL, true), 6);
}

/* Rodinia particlefilter style launches `k << < grid, block >> > (...)`:
 * found in main (grid 8, block 512) and checked like any other. */
Test(metrics_bruteforce, spaced_launch_chevrons)
{
    cr_expect_eq(compare_file("kernels/launches/spaced_chevrons.cu", NULL), 2);
}

/* A launcher called in a loop over block sizes: the kernel is left at the
 * slowest configuration, whose figures must equal the reference there. */
Test(metrics_bruteforce, launcher_slowest_configuration)
{
    const char *args[] = {"--arch=h100", NULL};
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path("kernels/launches/launcher_calls.cu"), args, &f), "%s",
              f.error);
    size_t compared = 0;
    for (size_t k = 0; k < f.nkernels; k++)
        if (!strcmp(f.kernels[k]->name, "rows_kernel")) { /* warp_rows_kernel is sampled */
            cr_expect(f.reports[k].launch.others_analysed);
            compare_kernel(&f, k, false);
            compared++;
        }
    cr_expect_eq(compared, 1);
    hms_analyzed_file_free(&f);
}

/* Rodinia hotspot style: under the default iteration (64) no thread reaches
 * an access; the kernel is analysed again with its small defaults at 1 (a
 * note says so), and those figures equal the reference at those values. */
Test(metrics_bruteforce, defaults_that_kill_every_thread_are_retried)
{
    const char *args[] = {"--arch=h100", NULL};
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path("kernels/realworld/pyramid_defaults.cu"), args, &f),
              "%s", f.error);
    cr_assert_eq(f.nkernels, 1);
    const hms_kernel_report *r = &f.reports[0];
    double requests = 0;
    for (size_t i = 0; i < r->naccesses; i++)
        requests += r->accesses[i].requests;
    cr_expect_gt(requests, 0, "the retry reaches the accesses");
    bool noted = false;
    for (size_t i = 0; i < r->ndiagnostics; i++)
        noted |= r->diagnostics[i].message &&
                 strstr(r->diagnostics[i].message, "no thread reached an access with the "
                                                   "default 64 for iteration") != NULL;
    cr_expect(noted, "the assumption is named");
    compare_kernel_opts(&f, 0, false, true);
    hms_analyzed_file_free(&f);
}

/* Virtual calls through object pointers kept in global memory (newdelete
 * style): the loads of the pointers are the kernels' accesses. */
Test(metrics_bruteforce, object_pointers_loaded_for_virtual_calls)
{
    const char *args[] = {"--arch=h100", NULL};
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path("kernels/realworld/device_objects.cu"), args, &f),
              "%s", f.error);
    cr_assert_eq(f.nkernels, 2);
    for (size_t k = 0; k < f.nkernels; k++) {
        cr_expect_gt(f.reports[k].naccesses, 0, "%s: the object pointer load", f.kernels[k]->name);
        compare_kernel(&f, k, false);
    }
    hms_analyzed_file_free(&f);
}

/* cufftComplex / cufftDoubleComplex data (cufft.h, cuComplex.h): 8- and
 * 16-byte elements, launches from main. */
Test(metrics_bruteforce, cufft_complex_kernels)
{
    cr_expect_eq(compare_file("kernels/hermetic/samples_cufft_complex.cu", NULL), 2);
}

/* Inline PTX with adjacent asm operands ("r"(v) "l"(p), which nvcc accepts):
 * the file parses, and the axpy around the asm store equals the reference. */
Test(metrics_bruteforce, asm_operands_without_commas)
{
    cr_expect_eq(compare_file("kernels/hermetic/samples_multigpu_flags.cu", NULL), 1);
}

/* Kernel files meant to be #included (Rodinia srad_v1 style: `fp` and
 * NUMBER_THREADS come from main.cu): each is analysed in its includer's
 * translation unit, only its own kernel reported, launched as main.cu does,
 * with a note naming the includer; its figures equal the reference. */
Test(metrics_bruteforce, kernel_files_analysed_in_their_includer)
{
    static const char *const files[][2] = {
        {"kernels/included/log_kernel.cu", "logCompress"},
        {"kernels/included/rows_kernel.cu", "transposeRows"},
    };
    const char *args[] = {"--arch=h100", NULL};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        hms_analyzed_file f;
        cr_assert(hms_analyze_file(hms_test_path(files[i][0]), args, &f), "%s", f.error);
        cr_assert_eq(f.nkernels, 1, "%s: only its own kernel", files[i][0]);
        cr_expect_str_eq(f.kernels[0]->name, files[i][1]);
        cr_expect_eq(f.kernels[0]->launch.source, IR_LAUNCH_HOST_CALL, "launched as main.cu does");
        const hms_kernel_report *r = &f.reports[0];
        bool noted = false;
        for (size_t d = 0; d < r->ndiagnostics; d++)
            noted |= r->diagnostics[d].message &&
                     strstr(r->diagnostics[d].message, "analysed as #included by ") &&
                     strstr(r->diagnostics[d].message, "included/main.cu");
        cr_expect(noted, "%s: the includer is named", files[i][0]);
        double requests = 0;
        for (size_t a = 0; a < r->naccesses; a++)
            requests += r->accesses[a].requests;
        cr_expect_gt(requests, 0, "%s", files[i][0]);
        compare_kernel(&f, 0, false);
        hms_analyzed_file_free(&f);
    }
}

/* The kernels of `rel` (the `n` named in `names`), analysed with `args`
 * in the translation unit of a file that #includes it (`includer` in the
 * note),
 * launched by a host call there, with `block_x` threads; figures equal the
 * reference. */
static void expect_includer_context(const char *rel, const char *const *args,
                                    const char *const *names, size_t n, const char *includer,
                                    uint32_t block_x)
{
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path(rel), args, &f), "%s", f.error);
    cr_assert_eq(f.nkernels, n, "%s: only its own kernels", rel);
    for (size_t i = 0; i < n; i++) {
        cr_expect_str_eq(f.kernels[i]->name, names[i]);
        cr_expect_eq(f.kernels[i]->launch.source, IR_LAUNCH_HOST_CALL, "%s: launched by %s",
                     names[i], includer);
        cr_expect_eq(f.kernels[i]->launch.block[0], block_x, "%s", names[i]);
        const hms_kernel_report *r = &f.reports[i];
        bool noted = false;
        for (size_t d = 0; d < r->ndiagnostics; d++)
            noted |= r->diagnostics[d].message &&
                     strstr(r->diagnostics[d].message, "analysed as #included by ") &&
                     strstr(r->diagnostics[d].message, includer);
        cr_expect(noted, "%s: the includer %s is named", names[i], includer);
        double requests = 0;
        for (size_t a = 0; a < r->naccesses; a++)
            requests += r->accesses[a].requests;
        cr_expect_gt(requests, 0, "%s", names[i]);
        compare_kernel(&f, i, false);
    }
    hms_analyzed_file_free(&f);
}

/* A kernel file that compiles alone but launches nothing (Rodinia nw:
 * needle.cu includes needle_kernel.cu and launches it with 16-thread
 * blocks): analysed with the includer's launches, not the default block
 * that would overrun its TILE x TILE shared tiles. A kernel file two
 * includes away from the declarations it needs (Rodinia myocyte: main.cu
 * -> work.cu -> kernel.cu): the includer's includer is used. */
Test(metrics_bruteforce, kernel_files_launched_by_their_includer)
{
    /* The anti-diagonal is the host loop's variable: given as its last value.
     * The row pitch (align.cu passes 129) is set to 136: with an odd pitch
     * each row of the 16-row store loops starts at another sector offset,
     * and the tracer's summary of those loops (iterations after the third
     * from the last traced) is an estimate, labelled so. */
    const char *align_args[] = {"--arch=h100",
                                "--param=alignTiles.diag=8",
                                "--param=copyTiles.diag=8",
                                "--param=alignTiles.cols=136",
                                "--param=copyTiles.cols=136",
                                NULL};
    const char *align[] = {"alignTiles", "copyTiles"};
    expect_includer_context("kernels/included/wavefront/align_kernel.cu", align_args, align, 2,
                            "wavefront/align.cu", 16);
    const char *step_args[] = {"--arch=h100", NULL};
    const char *step[] = {"stepCells"};
    expect_includer_context("kernels/included/chain/step_kernel.cu", step_args, step, 1,
                            "chain/main.cu", 64);
}

/* Vulkan interop style: a guard between two unknown sizes
 * (`height > filter_radius`) that every default, and every default at 1,
 * makes false. The guards on the path to the accesses are read: the radius
 * is analysed at 1, the sizes kept at 64, a note says so. The surfaces are
 * elements of arrays of surface objects (their handles loaded from global
 * memory); surface sites are estimates (assumed pitch) equal to the
 * reference under the same pitch. */
Test(metrics_bruteforce, guards_between_two_defaults)
{
    const char *args[] = {"--arch=h100", "--launch=boxfilter_columns:grid=1:block=64", NULL};
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path("kernels/realworld/mip_box_filter.cu"), args, &f),
              "%s", f.error);
    cr_assert_eq(f.nkernels, 1);
    const hms_kernel_report *r = &f.reports[0];
    double requests = 0;
    for (size_t i = 0; i < r->naccesses; i++)
        requests += r->accesses[i].requests;
    cr_expect_gt(requests, 0, "the guards are made to hold");
    bool noted = false, element = false;
    for (size_t i = 0; i < r->ndiagnostics; i++) {
        const char *m = r->diagnostics[i].message ? r->diagnostics[i].message : "";
        noted |= strstr(m, "analysed with filter_radius at 1 and ") &&
                 strstr(m, "comparisons guarding the accesses hold");
        element |= strstr(m, "'srcSurfMipMapArray[level]' is an element of an array of surface "
                             "objects") != NULL;
    }
    cr_expect(noted, "the assumption is named");
    cr_expect(element, "the surface array is named");
    const ir_kernel *k = f.kernels[0];
    bool surface_named = false;
    for (size_t a = 0; a < k->narrays; a++)
        surface_named |= !strcmp(k->arrays[a].name, "dstSurfMipMapArray[level]");
    cr_expect(surface_named, "surface writes go to the surfaces of dstSurfMipMapArray");
    compare_kernel_opts(&f, 0, false, true);
    hms_analyzed_file_free(&f);
}

/* cdpAdvancedQuicksort style: every loop bound and the early return depend
 * on a value inline PTX computes (bfind), which the analysis cannot run: it
 * is assumed like a parameter's default (a note says which value), and the
 * figures under that value equal the reference. */
Test(metrics_bruteforce, bounds_from_inline_assembly_results)
{
    const char *args[] = {"--arch=h100", NULL};
    hms_analyzed_file f;
    cr_assert(hms_analyze_file(hms_test_path("kernels/realworld/ptx_bit_bounds.cu"), args, &f),
              "%s", f.error);
    cr_assert_eq(f.nkernels, 1);
    const hms_kernel_report *r = &f.reports[0];
    double requests = 0;
    for (size_t i = 0; i < r->naccesses; i++)
        requests += r->accesses[i].requests;
    cr_expect_gt(requests, 0, "the assumed value reaches the accesses");
    bool noted = false;
    for (size_t i = 0; i < r->ndiagnostics; i++)
        noted |= r->diagnostics[i].message &&
                 strstr(r->diagnostics[i].message,
                        "depend on values inline assembly computes ('ret'), which the "
                        "analysis cannot run: analysed with each assumed 8") != NULL;
    cr_expect(noted, "the assumption is named");
    compare_kernel(&f, 0, false);
    hms_analyzed_file_free(&f);
}

/* llm.c style bf16 kernels (cuda_bf16.h): 128-bit packed loads and stores
 * with cache hints, __nv_bfloat162 pairs, warp-shuffle layernorm rows; on
 * launches small enough to enumerate. */
Test(metrics_bruteforce, bf16_kernels)
{
    const char *l[] = {"--launch=layernorm_bf16:grid=2:block=64",
                       "--param=layernorm_bf16.N=4",
                       "--param=layernorm_bf16.C=96",
                       "--launch=gelu_bf16:grid=2:block=64",
                       "--launch=pack_pairs:grid=2:block=64",
                       NULL};
    cr_expect_eq(compare_file("kernels/hermetic/llmc_bf16_layernorm_gelu.cu", l), 3);
}

/* Kernels launched through a function-pointer variable and an array of
 * kernel pointers, and instantiations of a kernel template launched from a
 * host function template (a switch over block sizes): on small launches. */
Test(metrics_bruteforce, pointer_and_template_launched_kernels)
{
    const char *fp[] = {"--launch=copy_rows:grid=4:block=128",
                        "--launch=copy_strided:grid=4:block=128",
                        "--launch=copy_twice:grid=4:block=128",
                        "--param=copy_rows.n=500",
                        "--param=copy_strided.n=512",
                        "--param=copy_twice.n=512",
                        NULL};
    cr_expect_eq(compare_file("kernels/launches/fn_pointer.cu", fp), 3);
    const char *tr[] = {"--launch=block_sum:grid=4:block=128", "--param=block_sum.n=1000", NULL};
    cr_expect_gt(compare_file("kernels/launches/template_reduction.cu", tr), 1);
}

/* Kernels written against the wider toolkit headers (cuda_fp8.h,
 * cuda/pipeline, cuda/barrier, __pipeline_memcpy_async): small launches, so
 * the reference can run every thread; every site must equal the reference.
 * The WMMA kernels: wmma_tile_kernels below. */
Test(metrics_bruteforce, fp8_wmma_and_async_copy_kernels)
{
    const char *fp8[] = {"--launch=quantize_e4m3:grid=2:block=128",
                         "--launch=dequantize_raw:grid=2:block=128",
                         "--launch=pack4:grid=2:block=128",
                         "--param=quantize_e4m3.n=250",
                         "--param=dequantize_raw.n=256",
                         NULL};
    cr_expect_eq(compare_file("kernels/hermetic/fp8_quantize.cu", fp8), 3);
    const char *async[] = {"--launch=matmul_double_buffer:grid=2,2:block=16,16",
                           "--launch=block_copy_barrier:grid=2:block=256",
                           "--launch=primitives_stage:grid=2:block=128",
                           "--param=matmul_double_buffer.wA=64",
                           "--param=matmul_double_buffer.wB=32",
                           NULL};
    cr_expect_eq(compare_file("kernels/hermetic/async_copy_pipeline.cu", async), 3);
}

/* WMMA kernels (mma.h's tile model in hms_model.h): half, bf16 and 8-bit
 * integer tiles from global and shared memory, padded and not, accumulators
 * loaded and stored, fragments walked by num_elements; 16x16 uint8_t tiles
 * take addresses from 16 lanes. Small launches; every site exact and equal
 * to the reference. */
Test(metrics_bruteforce, wmma_tile_kernels)
{
    const char *gemm[] = {"--launch=wmma_gemm:grid=2,2:block=64,2",
                          "--param=wmma_gemm.M=64",
                          "--param=wmma_gemm.N=64",
                          "--param=wmma_gemm.K=64",
                          "--launch=wmma_bf16_staged:grid=2:block=32",
                          "--param=wmma_bf16_staged.K=48",
                          NULL};
    cr_expect_eq(compare_file("kernels/hermetic/samples_wmma_gemm.cu", gemm), 2);
    const char *tiles[] = {"--launch=wmmaUnpadded:grid=2:block=128",
                           "--launch=wmmaPadded:grid=2:block=128", NULL};
    const char *tile_kernels[] = {"wmmaUnpadded", "wmmaPadded", NULL};
    cr_expect_eq(compare_named("kernels/checks/tensor_tiles.cu", tiles, tile_kernels), 2);
    const char *imma[] = {"--launch=simpleImmaGemm:grid=2,2:block=64,2",
                          "--param=simpleImmaGemm.m_ld=64",
                          "--param=simpleImmaGemm.n_ld=64",
                          "--param=simpleImmaGemm.k_ld=64",
                          "--launch=stagedImmaUnpadded:grid=2:block=128",
                          "--param=stagedImmaUnpadded.K=128",
                          "--launch=stagedImmaSkewed:grid=2:block=128",
                          "--param=stagedImmaSkewed.K=128",
                          NULL};
    cr_expect_eq(compare_file("kernels/checks/imma_tiles.cu", imma), 3);
}

/* Launch configurations passed to launchers as dim3 parameters. */
Test(metrics_bruteforce, dim3_launcher_parameters)
{
    cr_expect_eq(compare_file("kernels/launches/dim3_params.cu", NULL), 2);
}
