/* The direct-read variant of a shared buffer (passes/figures/shared_direct.h) on
 * hand-made streams: the fill is dropped, each buffer read becomes the global
 * read of the element the block's fill put there, wide reads split when those
 * elements came from scattered addresses, unfilled lanes are dropped, and a
 * buffer the kernel also writes has no variant. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "passes/figures/shared_direct.h"
#include "testsuite/support/ir_fixtures.h"

#define IN_BASE 0x100000000ull

typedef struct {
    ir_kernel *k;
    int in, s;
    int fetch, fill, read1, read4, extra_store;
} buffer_kernel;

/* in -> s through one mapping; s read as floats and as float4; optionally a
 * second store to s outside the fill. */
static buffer_kernel make(bool extra_store)
{
    buffer_kernel b;
    b.k = fx_kernel("buf", 1, 1, 32, 1);
    int64_t dims[1] = {64};
    b.in = fx_array(b.k, "in", HMS_SPACE_GLOBAL, 4, 0, NULL);
    b.s = fx_array(b.k, "s", HMS_SPACE_SHARED, 4, 1, dims);
    ir_expr *tx = fx_s(b.k, IR_SYM_TID_X);
    ir_stmt *f = fx_access(b.k, b.in, HMS_ACCESS_LOAD, tx, 4, 2);
    ir_stmt *a = fx_access(b.k, b.s, HMS_ACCESS_STORE, tx, 4, 2);
    ir_stmt *r1 = fx_access(b.k, b.s, HMS_ACCESS_LOAD, tx, 4, 3);
    ir_stmt *r4 = fx_access(b.k, b.s, HMS_ACCESS_LOAD, tx, 16, 4);
    fx_body(b.k, fx_block(b.k, f, a, r1, r4, NULL));
    b.extra_store = -1;
    if (extra_store) {
        ir_stmt *x = fx_access(b.k, b.s, HMS_ACCESS_STORE, tx, 4, 5);
        fx_body(b.k, x);
        b.extra_store = x->access.id;
    }
    ir_mapping m = {b.s, b.in, f->access.id, a->access.id};
    a->access.mapping = ir_add_mapping(b.k, &m);
    b.fetch = f->access.id;
    b.fill = a->access.id;
    b.read1 = r1->access.id;
    b.read4 = r4->access.id;
    return b;
}

static hms_warp_access rec(int site, int array, hms_space space, hms_access_kind kind, int width)
{
    hms_warp_access r;
    memset(&r, 0, sizeof r);
    r.site = (uint32_t)site;
    r.array = (uint32_t)array;
    r.space = (uint8_t)space;
    r.kind = (uint8_t)kind;
    r.width = (uint8_t)width;
    r.mask = UINT32_MAX;
    return r;
}

/* Lane l fetches in[stride * l] into s[l]; then reads s[(l + 1) % 32] and
 * the float4 at s[4 * (l % 8)]; lanes 0-3 of a third read ask for s[40 + l],
 * which no fill wrote. */
static void build(const buffer_kernel *b, unsigned stride, hms_stream *st)
{
    hms_stream_init(st);
    hms_warp_access f = rec(b->fetch, b->in, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, 4);
    hms_warp_access a = rec(b->fill, b->s, HMS_SPACE_SHARED, HMS_ACCESS_STORE, 4);
    hms_warp_access r1 = rec(b->read1, b->s, HMS_SPACE_SHARED, HMS_ACCESS_LOAD, 4);
    hms_warp_access r4 = rec(b->read4, b->s, HMS_SPACE_SHARED, HMS_ACCESS_LOAD, 16);
    hms_warp_access far = rec(b->read1, b->s, HMS_SPACE_SHARED, HMS_ACCESS_LOAD, 4);
    far.mask = 0xf;
    for (unsigned l = 0; l < 32; l++) {
        f.addr[l] = IN_BASE + 4ull * stride * l;
        a.addr[l] = 4ull * l;
        r1.addr[l] = 4ull * ((l + 1) % 32);
        r4.addr[l] = 16ull * (l % 8);
        far.addr[l] = 4ull * (40 + l % 4);
    }
    hms_warp_access v[] = {f, a, r1, r4, far};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        cr_assert(hms_stream_push(st, &v[i]));
}

Test(shared_direct, scattered_fill_splits_wide_reads)
{
    buffer_kernel b = make(false);
    cr_assert(hms_direct_applicable(b.k, b.s));
    hms_stream in, out;
    build(&b, 2, &in);
    size_t *src = NULL;
    hms_direct_counts n;
    char err[256];
    cr_assert(hms_direct_variant(b.k, &in, b.s, 0, 256, &out, &src, &n, err, sizeof err), "%s",
              err);
    cr_expect_eq(n.fetches_dropped, 1);
    cr_expect_eq(n.stores_dropped, 1);
    cr_expect_eq(n.loads_in, 3);
    /* read1 -> 1, the float4 of scattered elements -> 4, no lane of `far` was filled */
    cr_assert_eq(n.loads_out, 5);
    cr_assert_eq(out.n, 5);
    const hms_warp_access *g = &out.v[0];
    cr_expect_eq(g->space, HMS_SPACE_GLOBAL);
    cr_expect_eq(g->width, 4);
    cr_expect_eq(src[0], 2);
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(g->addr[l], IN_BASE + 8ull * ((l + 1) % 32), "lane %u", l);
    for (unsigned j = 0; j < 4; j++) {
        g = &out.v[1 + j];
        cr_expect_eq(g->width, 4);
        cr_expect_eq(src[1 + j], 3);
        for (unsigned l = 0; l < 32; l++)
            cr_expect_eq(g->addr[l], IN_BASE + 8ull * (4 * (l % 8) + j), "part %u lane %u", j, l);
    }
    free(src);
    hms_stream_free(&out);
    hms_stream_free(&in);
    ir_kernel_free(b.k);
}

Test(shared_direct, contiguous_fill_keeps_wide_reads)
{
    buffer_kernel b = make(false);
    hms_stream in, out;
    build(&b, 1, &in);
    hms_direct_counts n;
    char err[256];
    cr_assert(hms_direct_variant(b.k, &in, b.s, 0, 256, &out, NULL, &n, err, sizeof err), "%s",
              err);
    cr_assert_eq(n.loads_out, 2);
    const hms_warp_access *g = &out.v[1];
    cr_expect_eq(g->width, 16);
    for (unsigned l = 0; l < 32; l++)
        cr_expect_eq(g->addr[l], IN_BASE + 16ull * (l % 8), "lane %u", l);
    hms_stream_free(&out);
    hms_stream_free(&in);
    ir_kernel_free(b.k);
}

Test(shared_direct, buffer_written_outside_its_fill_has_no_variant)
{
    buffer_kernel b = make(true);
    cr_expect_not(hms_direct_applicable(b.k, b.s));
    cr_expect_not(hms_direct_applicable(b.k, b.in));
    hms_stream in, out;
    build(&b, 1, &in);
    hms_direct_counts n;
    char err[256] = "";
    cr_expect_not(hms_direct_variant(b.k, &in, b.s, 0, 256, &out, NULL, &n, err, sizeof err));
    cr_expect(strstr(err, "kernel 'buf'") != NULL, "%s", err);
    hms_stream_free(&in);
    ir_kernel_free(b.k);
}

/* hms_direct_reads gives the variant's records of the buffer's array, the
 * loads that replace its reads, in the same order, with the same sources
 * and counts, and nothing else. */
Test(shared_direct, reads_only_are_the_variants_buffer_records)
{
    buffer_kernel b = make(false);
    for (unsigned stride = 1; stride <= 2; stride++) {
        hms_stream in, all, reads;
        build(&b, stride, &in);
        hms_warp_access other = rec(b.read1, b.in, HMS_SPACE_GLOBAL, HMS_ACCESS_LOAD, 4);
        for (unsigned l = 0; l < 32; l++)
            other.addr[l] = IN_BASE + 4ull * l;
        cr_assert(hms_stream_push(&in, &other)); /* copied unchanged by the full variant */
        size_t one_warp = in.n;
        for (size_t i = 0; i < one_warp; i++) { /* warp 5 repeats warp 0 */
            hms_warp_access w = in.v[i];
            w.warp = 5;
            cr_assert(hms_stream_push(&in, &w));
        }
        size_t *src_all = NULL, *src_reads = NULL;
        hms_direct_counts na, nr;
        char err[256];
        cr_assert(hms_direct_variant(b.k, &in, b.s, 0, 256, &all, &src_all, &na, err, sizeof err),
                  "%s", err);
        cr_assert(hms_direct_reads(b.k, &in, b.s, 0, 256, &reads, &src_reads, &nr, err, sizeof err),
                  "%s", err);
        cr_expect_eq(memcmp(&na, &nr, sizeof na), 0);
        size_t j = 0;
        for (size_t i = 0; i < all.n; i++) {
            if ((int)all.v[i].array != b.s)
                continue;
            cr_assert_lt(j, reads.n);
            cr_expect_eq(memcmp(&all.v[i], &reads.v[j], sizeof all.v[i]), 0, "record %zu", i);
            cr_expect_eq(src_all[i], src_reads[j]);
            j++;
        }
        cr_expect_eq(j, reads.n);
        cr_expect_eq(reads.n, na.loads_out);
        cr_expect_eq(na.loads_out, stride == 1 ? 4 : 10); /* 2 or 5 per warp */
        cr_expect_lt(reads.n, all.n);
        free(src_all);
        free(src_reads);
        hms_stream_free(&all);
        hms_stream_free(&reads);
        hms_stream_free(&in);
    }
    ir_kernel_free(b.k);
}
