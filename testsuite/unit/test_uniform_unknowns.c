/* Warp-uniform unknowns: a value loaded from an address every active lane
 * of the warp shares is one unknown for the whole warp (passes/trace/lanes.h
 * "opaque"), so `wte[ix * C + c]` keeps the exact intra-warp pattern of a
 * row read around an unknown base, while a value loaded from per-lane
 * addresses stays a scatter. Lane rules first, then traces of hand-built IR
 * (testsuite/support/ir_fixtures.h). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "passes/trace/lanes.h"
#include "passes/trace/stream_gen.h"
#include "testsuite/support/ir_fixtures.h"

/* ---- lane rules ----------------------------------------------------------------------- */

/* U (stand-in 7) on every lane, opaque. */
static hms_lanes opaque_uniform(void)
{
    hms_lanes u;
    hms_lanes_splat(&u, 7);
    u.opaque = HMS_ALL_LANES;
    return u;
}

static hms_lanes lane_ids(void)
{
    hms_lanes l;
    hms_lanes_splat(&l, 0);
    for (int i = 0; i < 32; i++)
        l.v[i] = i;
    return l;
}

Test(uniform_lanes, sums_and_known_scales_keep_the_form)
{
    hms_lanes u = opaque_uniform(), lane = lane_ids(), c, r;
    hms_lanes_splat(&c, 64);
    hms_lanes_binary(IR_OP_MUL, &u, &c, &r); /* U * 64 */
    cr_assert_eq(r.opaque, HMS_ALL_LANES);
    cr_assert_eq(r.unknown, 0);
    hms_lanes_binary(IR_OP_ADD, &r, &lane, &r); /* U * 64 + lane */
    cr_assert_eq(r.opaque, HMS_ALL_LANES);
    for (int i = 1; i < 32; i++)
        cr_assert_eq(r.v[i] - r.v[0], i, "lane differences are exact");
    hms_lanes_splat(&c, 2);
    hms_lanes_binary(IR_OP_SHL, &r, &c, &r); /* (U * 64 + lane) << 2 */
    cr_assert_eq(r.opaque, HMS_ALL_LANES);
    cr_assert_eq(r.v[5] - r.v[4], 4);
    hms_lanes_unary(IR_OP_NEG, &r, &r);
    cr_assert_eq(r.opaque, HMS_ALL_LANES);
    cr_assert_eq(r.v[4] - r.v[5], 4);
    hms_lanes_unary(IR_OP_NOT, &r, &r); /* !(U + r(lane)) depends on U: unknown */
    cr_assert_eq(r.unknown, HMS_ALL_LANES);
    hms_lanes_unary(IR_OP_NOT, &u, &r); /* !U is one value */
    cr_assert_eq(r.opaque, HMS_ALL_LANES);
}

Test(uniform_lanes, lane_dependent_scales_and_non_linear_ops_become_unknown)
{
    hms_lanes u = opaque_uniform(), lane = lane_ids(), r, c;
    hms_lanes_binary(IR_OP_MUL, &u, &lane, &r); /* U * lane: stride unknown */
    cr_assert_eq(r.unknown, HMS_ALL_LANES);
    cr_assert_eq(r.opaque, 0);
    hms_lanes_binary(IR_OP_ADD, &u, &lane, &r);
    hms_lanes_splat(&c, 2);
    hms_lanes_binary(IR_OP_DIV, &r, &c, &r); /* (U + lane) / 2 depends on U's parity */
    cr_assert_eq(r.unknown, HMS_ALL_LANES);
    hms_lanes_binary(IR_OP_SHL, &lane, &u, &r); /* lane << U */
    cr_assert_eq(r.unknown, HMS_ALL_LANES);
    /* a uniform operation of uniform operands is uniform */
    hms_lanes_binary(IR_OP_DIV, &u, &c, &r);
    cr_assert_eq(r.opaque, HMS_ALL_LANES);
    hms_lanes_binary(IR_OP_MOD, &u, &u, &r);
    cr_assert_eq(r.opaque, HMS_ALL_LANES);
    /* an opaque stand-in of 0 absorbs nothing: U * unknown is unknown */
    hms_lanes z, unk;
    hms_lanes_splat(&z, 0);
    z.opaque = HMS_ALL_LANES;
    hms_lanes_set_unknown(&unk);
    hms_lanes_binary(IR_OP_MUL, &z, &unk, &r);
    cr_assert_eq(r.unknown, HMS_ALL_LANES);
    hms_lanes_binary(IR_OP_LAND, &z, &unk, &r);
    cr_assert_eq(r.unknown, HMS_ALL_LANES);
}

Test(uniform_lanes, opaque_values_decide_no_condition)
{
    hms_lanes u = opaque_uniform(), a, b, r;
    cr_assert_eq(hms_lanes_true(&u, HMS_ALL_LANES), 0);
    cr_assert_eq(hms_lanes_false(&u, HMS_ALL_LANES), 0);
    hms_lanes_splat(&a, 1);
    hms_lanes_splat(&b, 2);
    hms_lanes_select(&u, &a, &b, &r);
    cr_assert_eq(r.unknown, HMS_ALL_LANES, "U ? 1 : 2 is unknown");
    hms_lanes_select(&u, &a, &a, &r);
    cr_assert_eq(r.unknown, 0, "both arms agree");
    cr_assert_eq(r.v[3], 1);
    /* a known condition picks an opaque arm with its taint */
    hms_lanes_select(&a, &u, &b, &r);
    cr_assert_eq(r.opaque, HMS_ALL_LANES);
    hms_lanes_assign(&b, &u, 0x0000ffffu);
    cr_assert_eq(b.opaque, 0x0000ffffu);
    cr_assert_eq(b.v[20], 2);
}

/* ---- traces ----------------------------------------------------------------------------- */

static bool has_note(const hms_kernel_trace *t, const char *needle)
{
    for (size_t i = 0; i < t->nnotes; i++)
        if (strstr(t->notes[i], needle))
            return true;
    return false;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Distinct 32-byte sectors the active lanes touch. */
static unsigned sectors(const hms_warp_access *r)
{
    uint64_t v[32];
    unsigned n = 0, d = 0;
    for (int l = 0; l < 32; l++)
        if (r->mask >> l & 1u)
            v[n++] = r->addr[l] / 32;
    qsort(v, n, sizeof *v, cmp_u64);
    for (unsigned i = 0; i < n; i++)
        d += i == 0 || v[i] != v[i - 1];
    return d;
}

/* Embedding gather, one thread per output element, rows of C floats:
 *   idx = gid; ix = tok[idx / C];  (site 0)  v = wte[ix * C + idx % C];  (site 1)
 * wte holds 1000 rows. */
static ir_kernel *gather(int64_t C, ir_expr *(*tok_index)(ir_kernel *, int64_t))
{
    ir_kernel *k = fx_kernel("gather", 4, 1, 256, 1);
    int64_t dims[1] = {1000 * C};
    int tok = fx_array(k, "tok", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int wte = fx_array(k, "wte", HMS_SPACE_GLOBAL, 4, 1, dims);
    fx_body(k, fx_access(k, tok, HMS_ACCESS_LOAD, tok_index(k, C), 4, 3));
    ir_expr *ix = ir_unknown(k, "value loaded from memory: tok[bt]", tok, (ir_loc){0});
    ix->site = 0;
    ir_expr *c = fx_op(k, IR_OP_MOD, fx_gid_x(k), fx_c(k, C));
    fx_body(k, fx_access(k, wte, HMS_ACCESS_LOAD, fx_add(k, fx_mul(k, ix, fx_c(k, C)), c), 4, 4));
    return k;
}

static ir_expr *row_of_thread(ir_kernel *k, int64_t C)
{
    return fx_op(k, IR_OP_DIV, fx_gid_x(k), fx_c(k, C));
}

static ir_expr *thread_itself(ir_kernel *k, int64_t C)
{
    (void)C;
    return fx_gid_x(k);
}

Test(uniform_trace, uniform_token_reads_one_row_per_warp)
{
    ir_kernel *k = gather(768, row_of_thread);
    hms_kernel_trace t, t2;
    cr_assert(hms_trace_kernel(k, NULL, &t), "%s", t.error);
    cr_assert(hms_trace_kernel(k, NULL, &t2), "%s", t2.error);
    size_t rows = 0;
    uint64_t first_base = 0;
    bool bases_differ = false;
    for (size_t i = 0; i < t.stream.n; i++) {
        const hms_warp_access *r = &t.stream.v[i];
        if (r->site != 1)
            continue;
        rows++;
        cr_assert_not(r->exact, "the row is unknown");
        cr_assert_eq(sectors(r), 4, "32 consecutive floats of one 3072-byte row");
        uint64_t base = r->addr[0] - t.arrays[1].base;
        cr_assert_lt(base + 128, 1000 * 768 * 4 + 1, "inside wte");
        cr_assert_eq(base % 128, 0, "rows of 3072 bytes stay 128-byte aligned");
        for (int l = 1; l < 32; l++)
            cr_assert_eq(r->addr[l], r->addr[0] + 4 * (uint64_t)l);
        cr_assert_eq(r->addr[0], t2.stream.v[i].addr[0], "deterministic");
        if (rows == 1)
            first_base = r->addr[0] / 3072;
        else if (r->addr[0] / 3072 != first_base)
            bases_differ = true;
    }
    cr_assert_eq(rows, 4 * 8);
    cr_assert(bases_differ, "different tokens, different rows");
    cr_assert(has_note(&t, "warp-uniform address"));
    cr_assert_eq(t.sites[1].inexact, t.sites[1].requests);
    hms_kernel_trace_free(&t);
    hms_kernel_trace_free(&t2);
    ir_kernel_free(k);
}

Test(uniform_trace, per_lane_tokens_stay_a_scatter)
{
    ir_kernel *k = gather(768, thread_itself);
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, NULL, &t), "%s", t.error);
    for (size_t i = 0; i < t.stream.n; i++)
        if (t.stream.v[i].site == 1)
            cr_assert_gt(sectors(&t.stream.v[i]), 24, "32 rows picked at random");
    cr_assert(has_note(&t, "spread over 'wte'"));
    cr_assert_not(has_note(&t, "warp-uniform address"));
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(uniform_trace, same_address_same_value_and_rows_leave_no_array)
{
    /* Rows of 100 floats (400 bytes): 32 lanes of a row straddle sectors
     * by the row's alignment, as a real unaligned row does; a warp across two
     * rows reads two tokens and two runs; a second load of the same token
     * gives the same row. */
    ir_kernel *k = gather(100, row_of_thread);
    int wte = 1;
    ir_expr *ix = ir_unknown(k, "value loaded from memory: tok[bt]", 0, (ir_loc){0});
    ix->site = 0;
    ir_expr *c = fx_op(k, IR_OP_MOD, fx_gid_x(k), fx_c(k, 100));
    fx_body(k,
            fx_access(k, wte, HMS_ACCESS_STORE, fx_add(k, fx_mul(k, ix, fx_c(k, 100)), c), 4, 5));
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, NULL, &t), "%s", t.error);
    size_t uniform = 0, pairs = 0;
    for (size_t i = 0; i < t.stream.n; i++) {
        const hms_warp_access *r = &t.stream.v[i], *s = NULL;
        if (r->site != 1)
            continue;
        for (size_t j = 0; j < t.stream.n && !s; j++) /* the same warp's store */
            if (t.stream.v[j].site == 2 && t.stream.v[j].warp == r->warp &&
                t.stream.v[j].block == r->block)
                s = &t.stream.v[j];
        cr_assert_not_null(s);
        pairs++;
        for (int l = 0; l < 32; l++) {
            cr_assert_geq(r->addr[l], t.arrays[wte].base);
            cr_assert_lt(r->addr[l], t.arrays[wte].base + 1000 * 100 * 4);
        }
        for (int l = 0; l < 32; l++)
            cr_assert_eq(r->addr[l], s->addr[l], "one token, one row");
        uint64_t gid0 = (uint64_t)r->block * 256 + r->warp * 32;
        for (int l = 0; l + 1 < 32; l++) /* exact within each row's lanes */
            if ((gid0 + (uint64_t)l + 1) % 100 != 0)
                cr_assert_eq(r->addr[l + 1], r->addr[l] + 4);
        if (gid0 % 100 > 100 - 32) {
            /* the warp straddles two rows: two tokens, two runs of floats */
            cr_assert_leq(sectors(r), 10);
            continue;
        }
        uniform++;
        /* one row: 128 contiguous bytes at a 16-byte aligned start (400 = 25
         * * 16) cover 4 or 5 sectors */
        cr_assert(sectors(r) == 4 || sectors(r) == 5);
        cr_assert_eq(r->addr[0] % 16, t.arrays[wte].base % 16);
    }
    cr_assert_eq(pairs, 4 * 8);
    cr_assert_gt(uniform, 0);
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}

Test(uniform_trace, condition_on_a_uniform_value_runs_both_sides)
{
    /* if (ix == 0) a[tid] = 0; else a[tid + 32] = 0; with ix = flags[blockIdx.x] */
    ir_kernel *k = fx_kernel("uniform_if", 2, 1, 32, 1);
    int flags = fx_array(k, "flags", HMS_SPACE_GLOBAL, 4, 0, NULL);
    int a = fx_array(k, "a", HMS_SPACE_GLOBAL, 4, 0, NULL);
    fx_body(k, fx_access(k, flags, HMS_ACCESS_LOAD, fx_s(k, IR_SYM_BID_X), 4, 3));
    ir_expr *ix = ir_unknown(k, "value loaded from memory: flags[blockIdx.x]", flags, (ir_loc){0});
    ix->site = 0;
    ir_expr *tid = fx_s(k, IR_SYM_TID_X);
    fx_body(k, fx_if(k, fx_op(k, IR_OP_EQ, ix, fx_c(k, 0)),
                     fx_access(k, a, HMS_ACCESS_STORE, tid, 4, 4),
                     fx_access(k, a, HMS_ACCESS_STORE, fx_add(k, tid, fx_c(k, 32)), 4, 5)));
    hms_kernel_trace t;
    cr_assert(hms_trace_kernel(k, NULL, &t), "%s", t.error);
    cr_assert_eq(t.sites[1].requests, 2);
    cr_assert_eq(t.sites[2].requests, 2);
    cr_assert_eq(t.sites[1].inexact, 2);
    cr_assert(has_note(&t, "both sides traced"));
    hms_kernel_trace_free(&t);
    ir_kernel_free(k);
}
