/* Per-warp access stream generation (passes/trace/stream_gen.h) on hand-built IR,
 * checked against numbers worked out by hand and against the per-thread
 * brute-force reference (testsuite/support/bruteforce.h). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "passes/figures/shared_reuse.h"
#include "passes/trace/stream_gen.h"
#include "testsuite/support/bruteforce.h"
#include "testsuite/support/ir_fixtures.h"

/* ---- helpers ------------------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Distinct `gran`-byte aligned chunks the active lanes touch. */
static unsigned distinct_chunks(const hms_warp_access *r, uint64_t gran)
{
    uint64_t v[32];
    unsigned n = 0, d = 0;
    for (int l = 0; l < 32; l++)
        if (r->mask & (1u << l))
            v[n++] = r->addr[l] / gran;
    qsort(v, n, sizeof *v, cmp_u64);
    for (unsigned i = 0; i < n; i++)
        d += i == 0 || v[i] != v[i - 1];
    return d;
}

static bool has_note(const hms_kernel_trace *t, const char *needle)
{
    for (size_t i = 0; i < t->nnotes; i++)
        if (strstr(t->notes[i], needle))
            return true;
    return false;
}

static void trace_ok(const ir_kernel *k, const hms_trace_options *o, hms_kernel_trace *t)
{
    bool ok = hms_trace_kernel(k, o, t);
    cr_assert(ok, "trace failed: %s", t->error);
}

/* Records of one site in stream order. */
static size_t site_records(const hms_kernel_trace *t, uint32_t site, const hms_warp_access **out,
                           size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < t->stream.n; i++)
        if (t->stream.v[i].site == site && n < max)
            out[n++] = &t->stream.v[i];
    return n;
}

static int cmp_record_key(const void *pa, const void *pb)
{
    const hms_warp_access *a = pa, *b = pb;
    if (a->block != b->block)
        return a->block < b->block ? -1 : 1;
    if (a->warp != b->warp)
        return a->warp < b->warp ? -1 : 1;
    if (a->site != b->site)
        return a->site < b->site ? -1 : 1;
    return (a->time > b->time) - (a->time < b->time);
}

/* The trace must hold exactly the brute-force reference's records: same
 * (block, warp, site) sequence, masks, lane addresses, space, kind, width. */
static void assert_matches_bruteforce(const ir_kernel *k, const hms_trace_options *o)
{
    hms_kernel_trace t;
    trace_ok(k, o, &t);
    cr_assert_not(t.sampled, "brute-force comparisons need full enumeration");
    uint64_t *blocks = malloc(t.nblocks * sizeof *blocks);
    uint64_t *bases = malloc((t.narrays + 1) * sizeof *bases);
    for (size_t i = 0; i < t.nblocks; i++)
        blocks[i] = t.blocks[i].id;
    for (size_t i = 0; i < t.narrays; i++)
        bases[i] = t.arrays[i].base;
    hms_stream ref;
    hms_stream_init(&ref);
    char err[256];
    hms_bf_options bo = {o ? o->default_param : 0, o ? o->first_wave_blocks : 0, 0, false};
    cr_assert(hms_bruteforce_trace(k, blocks, t.nblocks, bases, &bo, &ref, err, sizeof err), "%s",
              err);
    cr_assert_eq(ref.n, t.stream.n, "brute force %zu records, trace %zu", ref.n, t.stream.n);
    hms_warp_access *mine = malloc(t.stream.n * sizeof *mine + 1);
    memcpy(mine, t.stream.v, t.stream.n * sizeof *mine);
    qsort(mine, t.stream.n, sizeof *mine, cmp_record_key);
    for (size_t i = 0; i < ref.n; i++) {
        const hms_warp_access *a = &mine[i], *b = &ref.v[i];
        cr_assert(a->block == b->block && a->warp == b->warp && a->site == b->site,
                  "record %zu: (%u,%u,%u) vs reference (%u,%u,%u)", i, a->block, a->warp, a->site,
                  b->block, b->warp, b->site);
        cr_assert_eq(a->mask, b->mask, "record %zu (site %u): mask %08x vs %08x", i, a->site,
                     a->mask, b->mask);
        cr_assert(a->space == b->space && a->kind == b->kind && a->width == b->width);
        for (int l = 0; l < 32; l++)
            if (a->mask & (1u << l))
                cr_assert_eq(a->addr[l], b->addr[l], "record %zu lane %d: %llx vs %llx", i, l,
                             (unsigned long long)a->addr[l], (unsigned long long)b->addr[l]);
    }
    free(mine);
    free(blocks);
    free(bases);
    hms_stream_free(&ref);
    hms_kernel_trace_free(&t);
}

/* ---- coalescing basics ------------------------------------------------------------------ */

Test(stream_gen, copy1d_four_sectors_per_request)
{
    /* 4 blocks x 256 threads, n = 1024: 8 warps x 2 sites per block. A warp
     * reads 32 consecutive floats = 128 aligned bytes = 4 sectors, 1 line. */
    ir_kernel *k = fx_copy1d(4, 256, 1024);
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 64);
    cr_assert_eq(t.blocks_total, 4);
    cr_assert_not(t.sampled);
    cr_assert(t.exact);
    for (size_t i = 0; i < t.stream.n; i++) {
        const hms_warp_access *r = &t.stream.v[i];
        cr_assert_eq(r->mask, 0xffffffffu);
        cr_assert_eq(distinct_chunks(r, 32), 4);
        cr_assert_eq(distinct_chunks(r, 128), 1);
        uint64_t base = t.arrays[r->array].base;
        for (int l = 0; l < 32; l++) /* in[i], out[i] with i = 256*block + 32*warp + lane */
            cr_assert_eq(r->addr[l], base + 4 * (256 * r->block + 32 * r->warp + (unsigned)l));
    }
    /* layout: first device array at 4 GiB, the next after a 64 MiB default
     * reservation (size unknown), both 2 MiB aligned */
    cr_assert_eq(t.arrays[0].base, 4ull << 30);
    cr_assert_eq(t.arrays[1].base, (4ull << 30) + (64ull << 20));
    cr_assert_eq(t.sites[0].requests, 32);
    cr_assert_eq(t.sites[1].lanes, 1024);
    cr_assert_eq(t.sites[0].partial, 0);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(stream_gen, copy1d_tail_guard_masks_partial_warp)
{
    /* n = 1000: threads 992..999 of warp 31 (block 3, warp 7) pass the guard */
    ir_kernel *k = fx_copy1d(4, 256, 1000);
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 64);
    cr_assert_eq(t.sites[0].lanes, 1000);
    cr_assert_eq(t.sites[0].partial, 1);
    const hms_warp_access *last = &t.stream.v[t.stream.n - 1];
    cr_assert_eq(last->block, 3);
    cr_assert_eq(last->warp, 7);
    cr_assert_eq(last->mask, 0xffu);
    cr_assert_eq(distinct_chunks(last, 32), 1);
    hms_kernel_trace_free(&t);
    assert_matches_bruteforce(k, NULL);
    ir_kernel_free(k);
}

Test(stream_gen, naive_transpose_store_touches_32_lines)
{
    /* block (32,8): a warp is one row of 32 x. Load in[y*W+x]: 128 contiguous
     * bytes -> 4 sectors, 1 line. Store out[x*H+y]: lanes H*4 = 1 KiB apart ->
     * 32 sectors in 32 distinct lines. */
    ir_kernel *k = fx_transpose_naive(8, 32, 256, 256);
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 8 * 32 * 8 * 2);
    for (size_t i = 0; i < t.stream.n; i++) {
        const hms_warp_access *r = &t.stream.v[i];
        if (r->site == 0) {
            cr_assert_eq(distinct_chunks(r, 32), 4);
            cr_assert_eq(distinct_chunks(r, 128), 1);
        } else {
            cr_assert_eq(distinct_chunks(r, 32), 32);
            cr_assert_eq(distinct_chunks(r, 128), 32);
        }
    }
    hms_kernel_trace_free(&t);
    assert_matches_bruteforce(k, NULL);
    ir_kernel_free(k);
}

/* ---- loops and control flow ---------------------------------------------------------------- */

Test(stream_gen, guarded_loop_gives_partial_masks)
{
    /* block 64, n = 100: for (kk = 0; kk < 2; kk++) { i = kk*64 + tid; if (i < n) a[i]; }
     * kk=0: both warps full. kk=1: warp 0 has i = 64..95 (full), warp 1 has
     * i = 96..127, only lanes 0..3 pass -> mask 0xf. */
    ir_kernel *k = fx_kernel("guard_loop", 1, 1, 64, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int n = fx_param(k, "n", true, 100);
    int kk = fx_local(k, "kk"), i = fx_local(k, "i");
    ir_stmt *body = fx_block(
        k, fx_assign(k, i, fx_add(k, fx_mul(k, fx_v(k, kk), fx_c(k, 64)), fx_s(k, IR_SYM_TID_X))),
        fx_if(k, fx_lt(k, fx_v(k, i), fx_v(k, n)),
              fx_access(k, a, HMS_ACCESS_LOAD, fx_v(k, i), 4, 7), NULL),
        NULL);
    fx_body(k, fx_loop(k, fx_assign(k, kk, fx_c(k, 0)), fx_lt(k, fx_v(k, kk), fx_c(k, 2)),
                       fx_assign(k, kk, fx_add(k, fx_v(k, kk), fx_c(k, 1))), body, 6));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 4);
    uint32_t masks[2][2] = {{0}};
    for (size_t r = 0; r < t.stream.n; r++) {
        const hms_warp_access *w = &t.stream.v[r];
        int iter = (int)((w->addr[0] - t.arrays[a].base) / 4 / 64);
        masks[w->warp][iter] = w->mask;
    }
    cr_assert_eq(masks[0][0], 0xffffffffu);
    cr_assert_eq(masks[1][0], 0xffffffffu);
    cr_assert_eq(masks[0][1], 0xffffffffu);
    cr_assert_eq(masks[1][1], 0xfu);
    cr_assert_eq(t.sites[0].partial, 1);
    cr_assert_eq(t.sites[0].lanes, 100);
    hms_kernel_trace_free(&t);
    assert_matches_bruteforce(k, NULL);
    ir_kernel_free(k);
}

Test(stream_gen, grid_stride_loop_covers_each_element_once)
{
    /* grid 4 x block 32, n = 300: for (i = gid; i < n; i += blockDim*gridDim)
     * thread t runs ceil((300 - t) / 128) iterations: 3 for t < 44, else 2.
     * Block 0: 3 full records; block 1: 2 full + 1 with lanes 0..11; blocks 2-3: 2. */
    ir_kernel *k = fx_kernel("grid_stride", 4, 1, 32, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int n = fx_param(k, "n", true, 300);
    int i = fx_local(k, "i");
    ir_expr *stride = fx_mul(k, fx_s(k, IR_SYM_BDIM_X), fx_s(k, IR_SYM_GDIM_X));
    fx_body(k, fx_loop(k, fx_assign(k, i, fx_gid_x(k)), fx_lt(k, fx_v(k, i), fx_v(k, n)),
                       fx_assign(k, i, fx_add(k, fx_v(k, i), stride)),
                       fx_access(k, a, HMS_ACCESS_LOAD, fx_v(k, i), 4, 3), 2));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 10);
    cr_assert_eq(t.blocks[0].count, 3);
    cr_assert_eq(t.blocks[1].count, 3);
    cr_assert_eq(t.blocks[2].count, 2);
    cr_assert_eq(t.blocks[3].count, 2);
    cr_assert_eq(t.stream.v[t.blocks[1].first + 2].mask, 0xfffu);
    unsigned char seen[300] = {0};
    for (size_t r = 0; r < t.stream.n; r++)
        for (int l = 0; l < 32; l++)
            if (t.stream.v[r].mask & (1u << l)) {
                uint64_t e = (t.stream.v[r].addr[l] - t.arrays[a].base) / 4;
                cr_assert_lt(e, 300);
                seen[e]++;
            }
    for (int e = 0; e < 300; e++)
        cr_assert_eq(seen[e], 1, "element %d read %d times", e, seen[e]);
    hms_kernel_trace_free(&t);
    assert_matches_bruteforce(k, NULL);
    ir_kernel_free(k);
}

Test(stream_gen, break_continue_return_remove_lanes)
{
    /* block 32:
     *   if (tid >= 24) return;                        lanes 24..31 leave for good
     *   for (i = 0; i < 8; i++) {
     *     if (i == (tid & 3) + 2) break;              lane L runs i < (L&3)+2
     *     if (tid & 1) continue;                      odd lanes skip the load
     *     a[i*32 + tid];                              site 0
     *   }
     *   b[tid];                                       site 1: lanes 0..23 again
     * site 0, even lanes 0..22 (12 lanes): L&3 is 0 or 2, so i = 0,1: 12 lanes;
     * i = 2,3: lanes with L&3 == 2 (6 lanes); i >= 4: none. */
    ir_kernel *k = fx_kernel("flow", 1, 1, 32, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int b = fx_array(k, "b", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int i = fx_local(k, "i");
    ir_expr *tid = fx_s(k, IR_SYM_TID_X);
    fx_body(k, fx_if(k, fx_op(k, IR_OP_GE, tid, fx_c(k, 24)), fx_simple(k, IR_S_RETURN), NULL));
    ir_stmt *body = fx_block(
        k,
        fx_if(k,
              fx_op(k, IR_OP_EQ, fx_v(k, i),
                    fx_add(k, fx_op(k, IR_OP_AND, tid, fx_c(k, 3)), fx_c(k, 2))),
              fx_simple(k, IR_S_BREAK), NULL),
        fx_if(k, fx_op(k, IR_OP_AND, tid, fx_c(k, 1)), fx_simple(k, IR_S_CONTINUE), NULL),
        fx_access(k, a, HMS_ACCESS_LOAD, fx_add(k, fx_mul(k, fx_v(k, i), fx_c(k, 32)), tid), 4, 5),
        NULL);
    fx_body(k, fx_loop(k, fx_assign(k, i, fx_c(k, 0)), fx_lt(k, fx_v(k, i), fx_c(k, 8)),
                       fx_assign(k, i, fx_add(k, fx_v(k, i), fx_c(k, 1))), body, 3));
    fx_body(k, fx_access(k, b, HMS_ACCESS_STORE, tid, 4, 8));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    const hms_warp_access *r[16];
    size_t n = site_records(&t, 0, r, 16);
    cr_assert_eq(n, 4);
    uint32_t even = 0x00555555u, two = 0x00444444u; /* even lanes < 24; lanes with L&3 == 2 */
    cr_assert_eq(r[0]->mask, even);
    cr_assert_eq(r[1]->mask, even);
    cr_assert_eq(r[2]->mask, two);
    cr_assert_eq(r[3]->mask, two);
    n = site_records(&t, 1, r, 16);
    cr_assert_eq(n, 1);
    cr_assert_eq(r[0]->mask, 0x00ffffffu);
    hms_kernel_trace_free(&t);
    assert_matches_bruteforce(k, NULL);
    ir_kernel_free(k);
}

Test(stream_gen, broken_lanes_stay_out_of_later_iterations)
{
    /* for (i = 0; i < 4; i++) { a[i*32 + tid]; if (tid < 8*i + 8) break; }
     * lane L leaves after iteration L/8: masks ~0, ~0xff, ~0xffff, ~0xffffff */
    ir_kernel *k = fx_kernel("break_first", 1, 1, 32, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int i = fx_local(k, "i");
    ir_expr *tid = fx_s(k, IR_SYM_TID_X);
    ir_stmt *body = fx_block(
        k,
        fx_access(k, a, HMS_ACCESS_LOAD, fx_add(k, fx_mul(k, fx_v(k, i), fx_c(k, 32)), tid), 4, 3),
        fx_if(k, fx_lt(k, tid, fx_add(k, fx_mul(k, fx_v(k, i), fx_c(k, 8)), fx_c(k, 8))),
              fx_simple(k, IR_S_BREAK), NULL),
        NULL);
    fx_body(k, fx_loop(k, fx_assign(k, i, fx_c(k, 0)), fx_lt(k, fx_v(k, i), fx_c(k, 4)),
                       fx_assign(k, i, fx_add(k, fx_v(k, i), fx_c(k, 1))), body, 2));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 4);
    cr_assert_eq(t.stream.v[0].mask, 0xffffffffu);
    cr_assert_eq(t.stream.v[1].mask, 0xffffff00u);
    cr_assert_eq(t.stream.v[2].mask, 0xffff0000u);
    cr_assert_eq(t.stream.v[3].mask, 0xff000000u);
    hms_kernel_trace_free(&t);
    assert_matches_bruteforce(k, NULL);
    ir_kernel_free(k);
}

Test(stream_gen, do_while_runs_body_before_testing)
{
    /* do { a[i*32+tid]; i++; } while (i < tid / 8): lane L runs max(1, L/8)
     * iterations: i=0 all, i=1..3 lanes >= 16, >= 24 ... i < L/8 */
    ir_kernel *k = fx_kernel("dowhile", 1, 1, 32, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int i = fx_local(k, "i");
    ir_expr *tid = fx_s(k, IR_SYM_TID_X);
    ir_stmt *loop =
        fx_loop(k, fx_assign(k, i, fx_c(k, 0)),
                fx_lt(k, fx_v(k, i), fx_op(k, IR_OP_DIV, tid, fx_c(k, 8))), NULL,
                fx_block(k,
                         fx_access(k, a, HMS_ACCESS_LOAD,
                                   fx_add(k, fx_mul(k, fx_v(k, i), fx_c(k, 32)), tid), 4, 2),
                         fx_assign(k, i, fx_add(k, fx_v(k, i), fx_c(k, 1))), NULL),
                2);
    loop->test_first = false;
    fx_body(k, loop);
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    /* after iteration 1 (i=1) lanes with L/8 > 1 continue: L >= 16; after i=2: L >= 24 */
    cr_assert_eq(t.stream.n, 3);
    cr_assert_eq(t.stream.v[0].mask, 0xffffffffu);
    cr_assert_eq(t.stream.v[1].mask, 0xffff0000u);
    cr_assert_eq(t.stream.v[2].mask, 0xff000000u);
    hms_kernel_trace_free(&t);
    assert_matches_bruteforce(k, NULL);
    ir_kernel_free(k);
}

/* ---- shared memory, barriers, mappings ---------------------------------------------------------
 */

Test(stream_gen, tiled_transpose_matches_bruteforce_and_barrier_orders_time)
{
    ir_kernel *k = fx_transpose_tiled(4, 128, false);
    assert_matches_bruteforce(k, NULL);
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    /* tile[32][33] floats: shared base 0, 4224 bytes */
    cr_assert_eq(t.arrays[2].base, 0);
    cr_assert_eq(t.arrays[2].extent, 32 * 33 * 4);
    for (size_t b = 0; b < t.nblocks; b++) {
        const hms_traced_block *B = &t.blocks[b];
        cr_assert_eq(B->barriers, 1);
        uint64_t before = 0, after = UINT64_MAX, prev = 0;
        for (size_t i = B->first; i < B->first + B->count; i++) {
            const hms_warp_access *r = &t.stream.v[i];
            cr_assert_geq(r->time, prev, "records of a block are in time order");
            prev = r->time;
            if (r->site <= 1 && r->time > before)
                before = r->time;
            if (r->site >= 2 && r->time < after)
                after = r->time;
        }
        cr_assert_gt(after, before, "nothing after the barrier issues before every warp arrived");
    }
    /* CuMAPz eq. 1 counts: each block fetches 32x32 floats = 4096 bytes in
     * 32 fully used 128-byte requests (4 sectors each) and reads each once
     * from the tile: bytes_shmem = bytes_buffered = 4096 per block. */
    hms_shared_reuse sr;
    char err[128];
    cr_assert(hms_shared_reuse_compute(k, &t, 32, &sr, err, sizeof err), "%s", err);
    cr_assert_eq(sr.n_shm_load, 1);
    cr_assert_float_eq(sr.bytes_fetched, 16 * 4096.0, 1e-9);
    cr_assert_float_eq(sr.bytes_buffered, 16 * 4096.0, 1e-9);
    cr_assert_float_eq(sr.bytes_shmem_explicit, 16 * 4096.0, 1e-9);
    cr_assert_float_eq(sr.bytes_shmem_covered, 0, 1e-9);
    cr_assert(sr.sites[0].fetch);
    hms_shared_reuse_free(&sr);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(stream_gen, barrier_releases_warps_at_the_last_arrival)
{
    /* block 64 (2 warps):
     *   if (tid < 32) for (i = 0; i < 10; i++) a[i*32 + tid];   only warp 0
     *   __syncthreads();
     *   b[tid];
     * Warp 0 by the cost model: if = 1 op + branch -> 2; each iteration: test
     * (1 op + branch), index (2 ops), issue, step (1 op) = 6, record k issues
     * at 6 + 6k; after the failing 11th test it is at 64, the barrier makes 65.
     * Warp 1 reaches the barrier at 3. Both leave at 65, so b[] issues at 65
     * in both warps. */
    ir_kernel *k = fx_kernel("barrier", 1, 1, 64, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int b = fx_array(k, "b", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int i = fx_local(k, "i");
    ir_expr *tid = fx_s(k, IR_SYM_TID_X);
    ir_stmt *loop = fx_loop(
        k, fx_assign(k, i, fx_c(k, 0)), fx_lt(k, fx_v(k, i), fx_c(k, 10)),
        fx_assign(k, i, fx_add(k, fx_v(k, i), fx_c(k, 1))),
        fx_access(k, a, HMS_ACCESS_LOAD, fx_add(k, fx_mul(k, fx_v(k, i), fx_c(k, 32)), tid), 4, 3),
        3);
    fx_body(k, fx_if(k, fx_lt(k, tid, fx_c(k, 32)), loop, NULL));
    fx_body(k, fx_simple(k, IR_S_SYNC));
    fx_body(k, fx_access(k, b, HMS_ACCESS_STORE, tid, 4, 5));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 12);
    cr_assert_eq(t.blocks[0].barriers, 1);
    for (size_t r = 0; r < 10; r++) {
        cr_assert_eq(t.stream.v[r].site, 0);
        cr_assert_eq(t.stream.v[r].time, 6 + 6 * r, "r %zu time %llu", r,
                     (unsigned long long)t.stream.v[r].time);
    }
    cr_assert_eq(t.stream.v[10].site, 1);
    cr_assert_eq(t.stream.v[11].site, 1);
    cr_assert_eq(t.stream.v[10].time, 65);
    cr_assert_eq(t.stream.v[11].time, 65);
    cr_assert_eq(t.stream.v[10].warp, 0);
    cr_assert_eq(t.stream.v[11].warp, 1);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(stream_gen, global_read_covered_by_block_fetch)
{
    /* Like CuMAPz Fig. 2: after the fill, in[y*W + x + 1] is read from global.
     * Lanes tx = 0..30 hit elements the block fetched; tx = 31 reads the next
     * tile's column: 31 of 32 lanes covered, and every warp splits. */
    ir_kernel *k = fx_transpose_tiled(2, 64, true);
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    hms_shared_reuse sr;
    char err[128];
    cr_assert(hms_shared_reuse_compute(k, &t, 32, &sr, err, sizeof err), "%s", err);
    const hms_site_coverage *c = &sr.sites[2];
    cr_assert(c->candidate);
    cr_assert_float_eq(c->lanes, 4 * 8 * 32.0, 1e-9); /* 4 blocks x 8 warps x 32 lanes */
    cr_assert_float_eq(c->covered_lanes, 4 * 8 * 31.0, 1e-9);
    cr_assert_float_eq(c->warps, 32.0, 1e-9);
    cr_assert_float_eq(c->split_warps, 32.0, 1e-9);
    cr_assert_float_eq(sr.n_warp, 32.0, 1e-9);
    cr_assert_float_eq(sr.n_path, 64.0, 1e-9);
    cr_assert_float_eq(sr.bytes_shmem_covered, 4 * 8 * 31 * 4.0, 1e-9);
    /* per-record covered masks: all lanes but 31 */
    for (size_t i = 0; i < t.stream.n; i++)
        if (t.stream.v[i].site == 2)
            cr_assert_eq(sr.covered[i], 0x7fffffffu);
    hms_shared_reuse_free(&sr);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

/* ---- unknown values ----------------------------------------------------------------------------
 */

Test(stream_gen, indirect_index_spread_over_array_and_inexact)
{
    /* x[col[i]] with x of 1000 floats: the index is unknown */
    ir_kernel *k = fx_kernel("spmv", 2, 1, 64, 1);
    int64_t dims[1] = {1000};
    int col = fx_array(k, "col", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int x = fx_array(k, "x", HMS_SPACE_GLOBAL, 4, 1, dims);
    fx_body(k, fx_access(k, col, HMS_ACCESS_LOAD, fx_gid_x(k), 4, 3));
    fx_body(k,
            fx_access(k, x, HMS_ACCESS_LOAD,
                      ir_unknown(k, "value loaded from memory: col[i]", col, (ir_loc){0}), 4, 4));
    hms_kernel_trace t, t2;
    trace_ok(k, NULL, &t);
    trace_ok(k, NULL, &t2);
    cr_assert_not(t.exact);
    cr_assert_eq(t.sites[0].inexact, 0);
    cr_assert_eq(t.sites[1].inexact, t.sites[1].requests);
    cr_assert(has_note(&t, "spread over 'x'"));
    cr_assert_eq(t.arrays[x].extent, 4000);
    for (size_t i = 0; i < t.stream.n; i++) {
        const hms_warp_access *r = &t.stream.v[i];
        cr_assert_eq(r->exact, r->site == 0);
        if (r->site != 1)
            continue;
        for (int l = 0; l < 32; l++) {
            uint64_t off = r->addr[l] - t.arrays[x].base;
            cr_assert_lt(off, 4000);
            cr_assert_eq(off % 4, 0);
            cr_assert_eq(r->addr[l], t2.stream.v[i].addr[l], "deterministic");
        }
        /* 32 uniform picks out of 1000 collide rarely: expect ~31.5 distinct */
        cr_assert_gt(distinct_chunks(r, 4), 24);
    }
    hms_kernel_trace_free(&t);
    hms_kernel_trace_free(&t2);
    ir_kernel_free(k);
}

Test(stream_gen, unknown_parameter_uses_default_and_override)
{
    ir_kernel *k = fx_copy1d(8, 256, 0);
    k->vars[0].has_value = false; /* n: no value anywhere */
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    /* default 1024: 4 of the 8 blocks pass the guard fully */
    cr_assert_eq(t.sites[0].lanes, 1024);
    cr_assert_not(t.exact);
    cr_assert_eq(t.sites[0].inexact, t.sites[0].requests);
    cr_assert(has_note(&t, "parameter 'n' has no value: assumed 1024"));
    hms_kernel_trace_free(&t);

    hms_param_value pv = {"n", 1000};
    hms_trace_options o = {0};
    o.param_values = &pv;
    o.nparam_values = 1;
    trace_ok(k, &o, &t);
    cr_assert_eq(t.sites[0].lanes, 1000);
    cr_assert(has_note(&t, "assumed 1000"));
    int64_t v;
    bool approx;
    cr_assert(hms_trace_param_value(k, &o, 0, &v, &approx));
    cr_assert_eq(v, 1000);
    cr_assert(approx);
    cr_assert_not(hms_trace_param_value(k, &o, 1, &v, &approx), "i is a local");
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(stream_gen, unknown_condition_runs_both_sides)
{
    ir_kernel *k = fx_kernel("unknown_if", 1, 1, 32, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    ir_expr *tid = fx_s(k, IR_SYM_TID_X);
    fx_body(k, fx_if(k, ir_unknown(k, "flag[tid]", -1, (ir_loc){0}),
                     fx_access(k, a, HMS_ACCESS_LOAD, tid, 4, 3),
                     fx_access(k, a, HMS_ACCESS_STORE, tid, 4, 4)));
    fx_body(k, fx_access(k, a, HMS_ACCESS_LOAD, tid, 4, 5));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 3);
    cr_assert_eq(t.stream.v[0].mask, 0xffffffffu);
    cr_assert_eq(t.stream.v[1].mask, 0xffffffffu);
    cr_assert_not(t.stream.v[0].exact);
    cr_assert_not(t.stream.v[1].exact);
    cr_assert(t.stream.v[2].exact, "control reconverges after the if");
    cr_assert(has_note(&t, "both sides traced"));
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(stream_gen, return_on_unknown_condition_goes_on_inexact)
{
    /* if (flag[tid]) return; a[tid] = 0;  a guard on a value nobody knows
     * must not end every lane */
    ir_kernel *k = fx_kernel("unknown_exit", 1, 1, 64, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    ir_expr *tid = fx_s(k, IR_SYM_TID_X);
    fx_body(k,
            fx_if(k, ir_unknown(k, "flag[tid]", -1, (ir_loc){0}), fx_simple(k, IR_S_RETURN), NULL));
    fx_body(k, fx_access(k, a, HMS_ACCESS_STORE, tid, 4, 4));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 2);
    for (size_t i = 0; i < t.stream.n; i++) {
        cr_assert_eq(t.stream.v[i].mask, 0xffffffffu);
        cr_assert_not(t.stream.v[i].exact);
    }
    cr_assert(has_note(&t, "assumed to go on"));
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(stream_gen, inlined_return_on_one_side_of_unknown_condition_goes_on_inexact)
{
    /* a __device__ helper inlined with a return flag:
     *   done = 0; if (flag[tid]) done = 1; if (done == 0) a[tid] = 0;
     * its lanes go on like those of a kernel-level return */
    ir_kernel *k = fx_kernel("unknown_inlined_exit", 1, 1, 64, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int done = fx_local(k, "helper.done");
    k->vars[done].return_flag = true;
    ir_expr *tid = fx_s(k, IR_SYM_TID_X);
    fx_body(k, fx_assign(k, done, fx_c(k, 0)));
    fx_body(k, fx_if(k, ir_unknown(k, "flag[tid]", -1, (ir_loc){0}), fx_assign(k, done, fx_c(k, 1)),
                     NULL));
    fx_body(k, fx_if(k, ir_binary(k, IR_OP_EQ, fx_v(k, done), fx_c(k, 0)),
                     fx_access(k, a, HMS_ACCESS_STORE, tid, 4, 4), NULL));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 2);
    for (size_t i = 0; i < t.stream.n; i++) {
        cr_assert_eq(t.stream.v[i].mask, 0xffffffffu);
        cr_assert_not(t.stream.v[i].exact);
    }
    cr_assert(has_note(&t, "assumed to go on"));
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(stream_gen, inlined_return_on_both_sides_of_unknown_condition_returns_exactly)
{
    /* nw's maximum(): done = 0; if (flag[tid]) done = 1; else done = 1;
     *   if (done == 0) a[tid] = 0;  b[tid] = 0;
     * the helper returns either way: its rest never runs, no lane is
     * revived, and what follows the helper stays exact */
    ir_kernel *k = fx_kernel("unknown_inlined_both", 1, 1, 64, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int b = fx_array(k, "b", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int done = fx_local(k, "helper.done");
    k->vars[done].return_flag = true;
    ir_expr *tid = fx_s(k, IR_SYM_TID_X);
    fx_body(k, fx_assign(k, done, fx_c(k, 0)));
    fx_body(k, fx_if(k, ir_unknown(k, "flag[tid]", -1, (ir_loc){0}), fx_assign(k, done, fx_c(k, 1)),
                     fx_assign(k, done, fx_c(k, 1))));
    fx_body(k, fx_if(k, ir_binary(k, IR_OP_EQ, fx_v(k, done), fx_c(k, 0)),
                     fx_access(k, a, HMS_ACCESS_STORE, tid, 4, 4), NULL));
    fx_body(k, fx_access(k, b, HMS_ACCESS_STORE, tid, 4, 5));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    size_t on_a = 0, on_b = 0;
    for (size_t i = 0; i < t.stream.n; i++) {
        on_a += t.stream.v[i].array == (uint32_t)a && t.stream.v[i].mask;
        if (t.stream.v[i].array == (uint32_t)b) {
            on_b++;
            cr_assert_eq(t.stream.v[i].mask, 0xffffffffu);
            cr_assert(t.stream.v[i].exact, "nothing was revived");
        }
    }
    cr_assert_eq(on_a, 0, "the helper returned on every lane");
    cr_assert_eq(on_b, 2);
    cr_assert_not(has_note(&t, "assumed to go on"));
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(stream_gen, unknown_trip_count_uses_default_iterations)
{
    ir_kernel *k = fx_kernel("unknown_loop", 1, 1, 32, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int i = fx_local(k, "i");
    ir_stmt *loop = fx_loop(
        k, fx_assign(k, i, fx_c(k, 0)),
        fx_lt(k, fx_v(k, i), ir_unknown(k, "rowptr[r+1]", a, (ir_loc){0})),
        fx_assign(k, i, fx_add(k, fx_v(k, i), fx_c(k, 1))),
        fx_access(k, a, HMS_ACCESS_LOAD,
                  fx_add(k, fx_mul(k, fx_v(k, i), fx_c(k, 32)), fx_s(k, IR_SYM_TID_X)), 4, 3),
        2);
    fx_body(k, loop);
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, HMS_TRACE_DEFAULT_TRIP_COUNT);
    cr_assert_eq(t.sites[0].inexact, t.stream.n);
    cr_assert(has_note(&t, "fixture.cu:2:5"));
    cr_assert(has_note(&t, "ran 16 iterations"));
    hms_kernel_trace_free(&t);
    loop->trip_count = 5; /* the front end knows the count */
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 5);
    hms_kernel_trace_free(&t);
    /* ... or a per-lane trip expression: tid % 4 + 1 iterations */
    loop->trip = fx_add(k, fx_op(k, IR_OP_MOD, fx_s(k, IR_SYM_TID_X), fx_c(k, 4)), fx_c(k, 1));
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 4);
    cr_assert_eq(t.stream.v[0].mask, 0xffffffffu);
    cr_assert_eq(t.stream.v[1].mask, 0xeeeeeeeeu); /* lanes with L%4 >= 1 */
    cr_assert_eq(t.stream.v[2].mask, 0xccccccccu);
    cr_assert_eq(t.stream.v[3].mask, 0x88888888u);
    cr_assert_not(t.stream.v[3].exact, "the condition itself is still unknown");
    cr_assert_not(has_note(&t, "ran 5 iterations"), "no fixed count was used");
    /* per iteration: issue, step (1 op), test (1 op + branch), index (2 ops) */
    cr_assert_eq(t.stream.v[1].time - t.stream.v[0].time, 6, "the trip expression costs nothing");
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(stream_gen, runaway_loop_stops_at_iteration_budget)
{
    /* for (;;) a[tid]; with a budget of 1000 steps per warp */
    ir_kernel *k = fx_kernel("forever", 1, 1, 64, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    fx_body(k, fx_loop(k, NULL, NULL, NULL,
                       fx_access(k, a, HMS_ACCESS_LOAD, fx_s(k, IR_SYM_TID_X), 4, 3), 7));
    hms_trace_options o = {0};
    o.max_steps_per_warp = 1000;
    hms_kernel_trace t;
    trace_ok(k, &o, &t);
    cr_assert(t.budget_exhausted);
    cr_assert_not(t.exact);
    cr_assert(has_note(&t, "iteration budget exhausted at fixture.cu:7:5"));
    cr_assert_leq(t.stream.n, 2 * 1000);
    cr_assert_gt(t.stream.n, 2 * 400, "each warp ran until its budget");
    for (size_t i = 0; i < t.stream.n; i++)
        cr_assert_not(t.stream.v[i].exact);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

/* ---- address spaces -------------------------------------------------------------------------- */

Test(stream_gen, local_array_interleaved_per_lane)
{
    /* float buf[8] (local); buf[3] read by all lanes: lane l's word sits
     * next to lane l+1's, so the warp reads 128 contiguous bytes. */
    ir_kernel *k = fx_kernel("local", 2, 1, 64, 1);
    int64_t dims[1] = {8};
    int buf = fx_array(k, "buf", HMS_SPACE_LOCAL, 4, 1, dims);
    fx_body(k, fx_access(k, buf, HMS_ACCESS_LOAD, fx_c(k, 3), 4, 3));
    fx_body(k, fx_access(k, buf, HMS_ACCESS_STORE, fx_s(k, IR_SYM_TID_X), 4, 4));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    for (size_t i = 0; i < t.stream.n; i++)
        if (t.stream.v[i].site == 0) {
            cr_assert_eq(distinct_chunks(&t.stream.v[i], 32), 4);
            cr_assert_eq(distinct_chunks(&t.stream.v[i], 128), 1);
        }
    hms_kernel_trace_free(&t);
    assert_matches_bruteforce(k, NULL);
    ir_kernel_free(k);
}

Test(stream_gen, tex2d_row_pitch)
{
    /* texture 64 rows x 100 floats: pitch = 400 rounded up to 32 = 416 bytes.
     * tex2D(t, tid.x, blockIdx.x): lane l at base + blockIdx.x*416 + 4l. */
    ir_kernel *k = fx_kernel("tex", 3, 1, 32, 1);
    int64_t dims[2] = {64, 100};
    int tex = fx_array(k, "t", HMS_SPACE_TEXTURE, 4, 2, dims);
    ir_stmt *s = fx_access(k, tex, HMS_ACCESS_LOAD, fx_s(k, IR_SYM_TID_X), 4, 3);
    s->access.index2 = fx_s(k, IR_SYM_BID_X);
    fx_body(k, s);
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert(t.exact);
    for (size_t i = 0; i < t.stream.n; i++) {
        const hms_warp_access *r = &t.stream.v[i];
        cr_assert_eq(r->space, HMS_SPACE_TEXTURE);
        for (int l = 0; l < 32; l++)
            cr_assert_eq(r->addr[l], t.arrays[tex].base + r->block * 416u + 4u * (unsigned)l);
    }
    hms_kernel_trace_free(&t);
    assert_matches_bruteforce(k, NULL);

    k->arrays[tex].ndims = 0; /* width unknown: default 1024 floats, inexact */
    trace_ok(k, NULL, &t);
    cr_assert_not(t.exact);
    cr_assert(has_note(&t, "row pitch assumed 4096 bytes"));
    cr_assert_eq(t.stream.v[1].addr[0] - t.stream.v[0].addr[0], 4096);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(stream_gen, readonly_path_and_shared_layout)
{
    ir_kernel *k = fx_kernel("spaces", 1, 1, 32, 1);
    int g = fx_array(k, "g", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int cr = fx_array(k, "cr", HMS_SPACE_GLOBAL, 8, 0, NULL);
    k->arrays[cr].is_const = k->arrays[cr].is_restrict = true;
    int64_t d1[1] = {3}, d2[1] = {4};
    int s1 = fx_array(k, "s1", HMS_SPACE_SHARED, 1, 1, d1); /* char s1[3] */
    int s2 = fx_array(k, "s2", HMS_SPACE_SHARED, 8, 1, d2); /* double s2[4]: aligned to 8 */
    int dyn = fx_array(k, "dyn", HMS_SPACE_SHARED, 4, 0, NULL);
    k->arrays[dyn].is_extern_shared = true;
    int c1 = fx_array(k, "c1", HMS_SPACE_CONSTANT, 4, 1, d1);
    int c2 = fx_array(k, "c2", HMS_SPACE_CONSTANT, 16, 1, d2);
    ir_expr *tid = fx_s(k, IR_SYM_TID_X);
    ir_stmt *ldg = fx_access(k, g, HMS_ACCESS_LOAD, tid, 4, 2);
    ldg->access.via_ldg = true;
    fx_body(k, ldg);
    fx_body(k, fx_access(k, g, HMS_ACCESS_LOAD, tid, 4, 3));
    fx_body(k, fx_access(k, cr, HMS_ACCESS_LOAD, tid, 8, 4));
    fx_body(k, fx_access(k, s1, HMS_ACCESS_LOAD, fx_c(k, 0), 1, 5));
    fx_body(k, fx_access(k, s2, HMS_ACCESS_LOAD, fx_c(k, 0), 8, 6));
    fx_body(k, fx_access(k, dyn, HMS_ACCESS_LOAD, tid, 4, 7));
    fx_body(k, fx_access(k, c1, HMS_ACCESS_LOAD, fx_c(k, 0), 4, 8));
    fx_body(k, fx_access(k, c2, HMS_ACCESS_LOAD, fx_c(k, 0), 16, 9));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.v[0].space, HMS_SPACE_READONLY);
    cr_assert_eq(t.stream.v[1].space, HMS_SPACE_GLOBAL);
    cr_assert_eq(t.stream.v[2].space, HMS_SPACE_READONLY);
    /* shared: s1 at 0 (3 bytes), s2 at 8, static end 40, dynamic at 48 */
    cr_assert_eq(t.arrays[s1].base, 0);
    cr_assert_eq(t.arrays[s2].base, 8);
    cr_assert_eq(t.arrays[dyn].base, 48);
    /* constant: c1 at 0 (12 bytes), c2 at 16 */
    cr_assert_eq(t.arrays[c1].base, 0);
    cr_assert_eq(t.arrays[c2].base, 16);
    cr_assert_eq(t.arrays[g].base % (2u << 20), 0);
    cr_assert_eq(t.arrays[cr].base % (2u << 20), 0);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

/* ---- time ------------------------------------------------------------------------------------ */

Test(stream_gen, time_counts_instructions_before_each_access)
{
    /* i = bid*bdim + tid (2 ops); a[i] issues at 2; b[i + 1]: 1 op, issues at 4 */
    ir_kernel *k = fx_kernel("time", 1, 1, 64, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int b = fx_array(k, "b", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int i = fx_local(k, "i");
    fx_body(k, fx_assign(k, i, fx_gid_x(k)));
    fx_body(k, fx_access(k, a, HMS_ACCESS_LOAD, fx_v(k, i), 4, 3));
    fx_body(k, fx_access(k, b, HMS_ACCESS_STORE, fx_add(k, fx_v(k, i), fx_c(k, 1)), 4, 4));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 4);
    /* (time, warp) order: a w0, a w1, b w0, b w1 */
    cr_assert_eq(t.stream.v[0].time, 2);
    cr_assert_eq(t.stream.v[0].warp, 0);
    cr_assert_eq(t.stream.v[1].time, 2);
    cr_assert_eq(t.stream.v[1].warp, 1);
    cr_assert_eq(t.stream.v[2].time, 4);
    cr_assert_eq(t.stream.v[3].time, 4);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(stream_gen, block_records_interleave_warps_by_time)
{
    /* 2 blocks of 8 warps: for (i = 0; i < 12; i++) a[i * 512 + gid] = ...;
     * every warp issues the same instructions, so the block's records, traced
     * warp by warp, come out iteration-major and warp-minor: the sort moves
     * nearly every record (long cycles of the permutation). */
    ir_kernel *k = fx_kernel("interleave", 2, 1, 256, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int i = fx_local(k, "i");
    ir_expr *idx = fx_add(k, fx_mul(k, fx_v(k, i), fx_c(k, 512)), fx_gid_x(k));
    fx_body(k, fx_loop(k, fx_assign(k, i, fx_c(k, 0)), fx_lt(k, fx_v(k, i), fx_c(k, 12)),
                       fx_assign(k, i, fx_add(k, fx_v(k, i), fx_c(k, 1))),
                       fx_access(k, a, HMS_ACCESS_LOAD, idx, 4, 3), 2));
    hms_trace_options o = {0};
    o.loop_summary_after = UINT32_MAX;
    hms_kernel_trace t;
    trace_ok(k, &o, &t);
    cr_assert_eq(t.nblocks, 2);
    for (size_t b = 0; b < 2; b++) {
        const hms_traced_block *B = &t.blocks[b];
        cr_assert_eq(B->count, 96);
        for (size_t j = 0; j < B->count; j++) {
            const hms_warp_access *r = &t.stream.v[B->first + j];
            uint64_t it = j / 8, w = j % 8;
            cr_assert_eq(r->warp, w, "block %zu record %zu: warp %u", b, j, r->warp);
            if (j > 0)
                cr_assert_geq(r->time, t.stream.v[B->first + j - 1].time);
            for (uint64_t l = 0; l < 32; l++)
                cr_assert_eq(r->addr[l],
                             t.arrays[a].base + 4 * (it * 512 + B->id * 256 + w * 32 + l),
                             "block %zu record %zu lane %llu", b, j, (unsigned long long)l);
        }
    }
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

/* ---- bad input ------------------------------------------------------------------------------- */

Test(stream_gen, bad_launch_and_ir_are_reported)
{
    ir_kernel *k = fx_copy1d(4, 256, 1024);
    hms_kernel_trace t;
    k->launch.grid[1] = 0;
    cr_assert_not(hms_trace_kernel(k, NULL, &t));
    cr_assert(strstr(t.error, "fixture.cu") && strstr(t.error, "zero dimension"), "%s", t.error);
    hms_kernel_trace_free(&t);
    k->launch.grid[1] = 1;
    k->launch.block[0] = 2048;
    cr_assert_not(hms_trace_kernel(k, NULL, &t));
    cr_assert(strstr(t.error, "exceeds CUDA's limits"), "%s", t.error);
    hms_kernel_trace_free(&t);
    k->launch.block[0] = 256;
    k->sites[0]->index = ir_var_ref(k, 42);
    cr_assert_not(hms_trace_kernel(k, NULL, &t));
    cr_assert(strstr(t.error, "variable 42"), "%s", t.error);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);

    k = fx_kernel("stray_break", 1, 1, 32, 1);
    fx_body(k, fx_simple(k, IR_S_BREAK));
    cr_assert_not(hms_trace_kernel(k, NULL, &t));
    cr_assert(strstr(t.error, "break outside a loop"), "%s", t.error);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);

    cr_assert_not(hms_trace_kernel(NULL, NULL, &t));
    hms_kernel_trace_free(&t);
}

Test(stream_gen, undefined_arithmetic_is_unknown_not_a_crash)
{
    /* a[tid / (tid - tid)]: division by zero in every lane -> unknown index */
    ir_kernel *k = fx_kernel("div0", 1, 1, 32, 1);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    ir_expr *tid = fx_s(k, IR_SYM_TID_X);
    fx_body(k, fx_access(k, a, HMS_ACCESS_LOAD,
                         fx_op(k, IR_OP_DIV, tid, fx_op(k, IR_OP_SUB, tid, tid)), 4, 3));
    fx_body(k, fx_access(k, a, HMS_ACCESS_LOAD, fx_op(k, IR_OP_SHL, tid, fx_c(k, 70)), 4, 4));
    hms_kernel_trace t;
    trace_ok(k, NULL, &t);
    cr_assert_eq(t.stream.n, 2);
    cr_assert_not(t.stream.v[0].exact);
    cr_assert_not(t.stream.v[1].exact);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}
