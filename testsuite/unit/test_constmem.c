/* Constant memory: distinct addresses (serialised passes) per request and the
 * constant cache's hits and misses, on hand-built streams. The cache geometry
 * is a hand-picked small one (2 KB, 64-byte lines, 4 ways -> 8 sets) so
 * evictions can be worked out by hand. */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime/constmem.h"
#include "testsuite/support/warp_access.h"

static hms_arch const_arch(void)
{
    hms_arch a;
    memset(&a, 0, sizeof a);
    a.constant.size_bytes = 2048;
    a.constant.line_bytes = 64;
    a.constant.ways = 4;
    a.constant.replacement = HMS_REPL_LRU;
    return a;
}

static hms_warp_access cwarp(uint64_t base, uint64_t stride, unsigned width, uint32_t mask)
{
    return hms_test_strided(HMS_SPACE_CONSTANT, base, stride, width, mask);
}

static hms_constmem model(const hms_arch *a)
{
    hms_constmem c;
    char err[200];
    cr_assert(hms_constmem_init(&c, a, err, sizeof err), "%s", err);
    return c;
}

Test(constmem, distinct_addresses_per_request)
{
    hms_warp_access w = cwarp(16, 0, 4, UINT32_MAX); /* uniform c[k] */
    cr_assert_eq(hms_constmem_distinct(&w), 1);
    w = cwarp(0, 4, 4, UINT32_MAX); /* c[tid] */
    cr_assert_eq(hms_constmem_distinct(&w), 32);
    w = cwarp(0, 4, 4, 0x0000000fu); /* c[tid], 4 lanes active */
    cr_assert_eq(hms_constmem_distinct(&w), 4);
    w = cwarp(0, 1, 1, UINT32_MAX); /* char c[tid]: bytes 0..31 = 8 words */
    cr_assert_eq(hms_constmem_distinct(&w), 8);
    w = cwarp(8, 0, 8, UINT32_MAX); /* one double for all lanes */
    cr_assert_eq(hms_constmem_distinct(&w), 1);
    w = cwarp(0, 8, 8, UINT32_MAX); /* double c[tid] */
    cr_assert_eq(hms_constmem_distinct(&w), 32);
    for (int i = 0; i < 32; i++)
        w.addr[i] = (uint64_t)(i % 3) * 8; /* c[tid % 3] */
    cr_assert_eq(hms_constmem_distinct(&w), 3);
    w = cwarp(0, 4, 4, 0);
    cr_assert_eq(hms_constmem_distinct(&w), 0);
}

Test(constmem, cache_misses_then_hits)
{
    hms_arch a = const_arch();
    hms_constmem c = model(&a);
    cr_assert(c.has_cache);
    cr_assert_eq(c.cache.sets, 8);
    hms_const_result r;
    hms_warp_access w = cwarp(0, 4, 4, UINT32_MAX); /* 128 B: 2 lines */
    cr_assert(hms_constmem_access(&c, &w, &r));
    cr_assert_eq(r.distinct, 32);
    cr_assert_eq(r.lines, 2);
    cr_assert_eq(r.line_misses, 2);
    cr_assert_not(r.hit);
    cr_assert(hms_constmem_access(&c, &w, &r));
    cr_assert_eq(r.line_hits, 2);
    cr_assert(r.hit);

    w = cwarp(64, 0, 4, UINT32_MAX); /* line 1, already cached */
    cr_assert(hms_constmem_access(&c, &w, &r));
    cr_assert(r.hit);
    cr_assert_eq(r.distinct, 1);

    cr_assert_eq(c.requests, 3);
    cr_assert_eq(c.warp_hits, 2);
    cr_assert_eq(c.warp_misses, 1);
    cr_assert_float_eq(hms_constmem_mean_distinct(&c), 65.0 / 3.0, 1e-12);
    cr_assert_float_eq(hms_constmem_miss_rate(&c), 2.0 / 5.0, 1e-12);
    cr_assert_float_eq(hms_constmem_mean_misses(&c), 2.0 / 3.0, 1e-12);
    hms_constmem_free(&c);
}

Test(constmem, lru_eviction_in_one_set)
{
    /* 8 sets x 64 B: addresses k * 512 all map to set 0 (4 ways). Reading 5
     * such lines evicts the first; reading it again misses. */
    hms_arch a = const_arch();
    hms_constmem c = model(&a);
    hms_const_result r;
    for (int k = 0; k < 5; k++) {
        hms_warp_access w = cwarp((uint64_t)k * 512, 0, 4, UINT32_MAX);
        cr_assert(hms_constmem_access(&c, &w, &r));
        cr_assert_not(r.hit);
    }
    hms_warp_access w1 = cwarp(512, 0, 4, UINT32_MAX); /* line 1 still there */
    cr_assert(hms_constmem_access(&c, &w1, &r));
    cr_assert(r.hit);
    hms_warp_access w0 = cwarp(0, 0, 4, UINT32_MAX); /* line 0 was evicted */
    cr_assert(hms_constmem_access(&c, &w0, &r));
    cr_assert_not(r.hit);
    hms_constmem_free(&c);
}

Test(constmem, feed_a_stream_and_take_means)
{
    hms_arch a = const_arch();
    hms_constmem c = model(&a);
    hms_stream s;
    hms_stream_init(&s);
    hms_warp_access uniform = cwarp(0, 0, 4, UINT32_MAX);
    hms_warp_access divergent = cwarp(0, 4, 4, UINT32_MAX);
    hms_warp_access global = cwarp(0, 4, 4, UINT32_MAX);
    global.space = HMS_SPACE_GLOBAL;
    hms_warp_access idle = cwarp(0, 4, 4, 0);
    hms_warp_access bad = cwarp(0, 4, 6, UINT32_MAX);
    cr_assert(hms_stream_push(&s, &uniform));   /* 1 word, line 0 miss */
    cr_assert(hms_stream_push(&s, &divergent)); /* 32 words, line 0 hit, line 1 miss */
    cr_assert(hms_stream_push(&s, &global));    /* not constant: skipped */
    cr_assert(hms_stream_push(&s, &uniform));   /* 1 word, hit */
    cr_assert(hms_stream_push(&s, &idle));      /* no active lane: not a request */
    cr_assert(hms_stream_push(&s, &bad));       /* malformed */
    cr_assert_eq(hms_constmem_feed(&c, &s), 1);
    cr_assert_eq(c.requests, 3);
    cr_assert_eq(c.skipped, 1);
    cr_assert_eq(c.invalid, 1);
    cr_assert_float_eq(hms_constmem_mean_distinct(&c), 34.0 / 3.0, 1e-12);
    cr_assert_eq(c.line_hits, 2);
    cr_assert_eq(c.line_misses, 2);
    cr_assert_eq(c.warp_hits, 1);
    cr_assert(c.exact);

    hms_constmem_reset(&c);
    cr_assert_eq(c.requests, 0);
    uniform.exact = false;
    hms_const_result r;
    cr_assert(hms_constmem_access(&c, &uniform, &r));
    cr_assert_not(r.hit); /* reset emptied the cache */
    cr_assert_not(c.exact);
    hms_stream_free(&s);
    hms_constmem_free(&c);
}

Test(constmem, no_constant_cache_means_every_line_misses)
{
    hms_arch a;
    memset(&a, 0, sizeof a);
    hms_constmem c = model(&a);
    cr_assert_not(c.has_cache);
    hms_const_result r;
    hms_warp_access w = cwarp(0, 0, 4, UINT32_MAX);
    cr_assert(hms_constmem_access(&c, &w, &r));
    cr_assert(hms_constmem_access(&c, &w, &r));
    cr_assert_eq(r.line_misses, 1);
    cr_assert_not(r.hit);
    cr_assert_float_eq(hms_constmem_miss_rate(&c), 1.0, 1e-12);
    hms_constmem_free(&c);
}

Test(constmem, bad_cache_geometry_is_reported)
{
    hms_arch a = const_arch();
    a.constant.line_bytes = 48;
    hms_constmem c;
    char err[200] = "";
    cr_assert_not(hms_constmem_init(&c, &a, err, sizeof err));
    cr_assert(strstr(err, "constant cache: line_bytes 48"), "got: %s", err);
    hms_constmem_free(&c);
}
