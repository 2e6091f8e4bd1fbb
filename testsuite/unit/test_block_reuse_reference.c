/* hms_array_block_reuse (passes/ir/thread_private.c sorts the lane reads)
 * against a reference written another way, every pair of lane reads
 * compared, so that a faster count of the reads can be checked here.
 * Random streams mix blocks (more than the HMS_THREAD_PRIVATE_BLOCKS
 * examined), warps, partial masks, other arrays, stores and shared-memory
 * records, with addresses drawn from a small pool so that elements repeat
 * within and across threads. */
#include <criterion/criterion.h>
#include <string.h>

#include "passes/ir/thread_private.h"
#include "testsuite/support/xorshift.h"

static uint64_t rng = 0x13198a2e03707344ull;

static uint64_t next(void)
{
    return hms_xorshift64(&rng);
}

typedef struct {
    uint32_t block, thread;
    uint64_t addr;
} read_ref;

/* The lane reads the function examines: loads of `array` off shared
 * memory, in the first HMS_THREAD_PRIVATE_BLOCKS blocks met in the stream. */
static size_t reads_of(const hms_stream *s, uint32_t array, int warp_size, read_ref *out)
{
    uint32_t blocks[HMS_THREAD_PRIVATE_BLOCKS];
    int nb = 0;
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        const hms_warp_access *r = &s->v[i];
        if (r->array != array || r->kind != HMS_ACCESS_LOAD || r->space == HMS_SPACE_SHARED ||
            r->mask == 0)
            continue;
        bool seen = false;
        for (int b = 0; b < nb; b++)
            seen |= blocks[b] == r->block;
        if (!seen) {
            if (nb == HMS_THREAD_PRIVATE_BLOCKS)
                continue;
            blocks[nb++] = r->block;
        }
        for (int l = 0; l < HMS_WARP_LANES; l++)
            if (r->mask >> l & 1u)
                out[n++] =
                    (read_ref){r->block, r->warp * (uint32_t)warp_size + (uint32_t)l, r->addr[l]};
    }
    return n;
}

static hms_block_reuse reference(const hms_stream *s, uint32_t array, int warp_size, read_ref *v)
{
    size_t n = reads_of(s, array, warp_size, v);
    if (n == 0)
        return HMS_BLOCK_REUSE_UNKNOWN;
    size_t elements = 0, shared = 0, repeat = 0;
    for (size_t i = 0; i < n; i++) {
        bool first = true, sh = false, rep = false;
        for (size_t j = 0; j < n; j++) {
            if (j == i || v[j].block != v[i].block || v[j].addr != v[i].addr)
                continue;
            if (j < i)
                first = false;
            if (v[j].thread != v[i].thread)
                sh = true;
        }
        if (!first)
            continue; /* each element counted at its first read */
        elements++;
        shared += sh;
        /* some thread reads the element twice */
        for (size_t j = i; j < n && !rep; j++)
            for (size_t k = j + 1; k < n && !rep; k++)
                rep = v[j].block == v[i].block && v[j].addr == v[i].addr &&
                      v[k].block == v[i].block && v[k].addr == v[i].addr &&
                      v[j].thread == v[k].thread;
        repeat += rep;
    }
    return (double)shared >= HMS_BLOCK_REUSE_MIN_SHARED * (double)elements ? HMS_BLOCK_REUSE_SHARED
           : repeat || shared ? HMS_BLOCK_REUSE_OWN_THREAD
                              : HMS_BLOCK_REUSE_NONE;
}

static void random_record(hms_stream *s, int records)
{
    hms_warp_access r;
    memset(&r, 0, sizeof r);
    uint64_t roll = next() % 16;
    r.array = roll == 0 ? 1 : 0;
    r.kind = roll == 1 ? HMS_ACCESS_STORE : HMS_ACCESS_LOAD;
    r.space = roll == 2 ? HMS_SPACE_SHARED : HMS_SPACE_GLOBAL;
    r.width = 4;
    r.block = (uint32_t)(next() % 6);
    r.warp = (uint32_t)(next() % 3);
    uint64_t m = next() % 4;
    r.mask = m == 0 ? 0xFFFFFFFFu : m == 1 ? (uint32_t)next() : m == 2 ? 1u : 0u;
    /* pools: one record's own lanes (each thread its element, read again
     * by the same warp), a small shared pool, or a broadcast */
    uint64_t style = next() % 3, pool = (uint64_t)records / 2 + 1;
    uint64_t base = 4 * 32 * (next() % pool);
    for (int l = 0; l < HMS_WARP_LANES; l++)
        r.addr[l] = style == 0 ? base + 4u * (uint64_t)l : style == 1 ? 4 * (next() % 48) : base;
    cr_assert(hms_stream_push(s, &r));
}

Test(block_reuse_reference, random_streams_match_the_pairwise_count)
{
    static read_ref v[64 * HMS_WARP_LANES];
    int seen[4] = {0};
    for (int iter = 0; iter < 1000; iter++) {
        hms_stream s;
        hms_stream_init(&s);
        int records = 1 + (int)(next() % 48);
        for (int i = 0; i < records; i++)
            random_record(&s, records);
        int warp_size = next() % 2 ? 32 : 16;
        for (uint32_t array = 0; array < 3; array++) {
            hms_block_reuse want = reference(&s, array, warp_size, v);
            hms_block_reuse got = hms_array_block_reuse(&s, array, warp_size);
            cr_assert_eq(got, want, "iteration %d, array %u: got %d, reference %d", iter, array,
                         (int)got, (int)want);
            seen[want]++;
        }
        hms_stream_free(&s);
    }
    cr_log_info("outcomes: %d %d %d %d", seen[0], seen[1], seen[2], seen[3]);
    /* the streams reach every outcome, so each branch was compared */
    for (int k = 0; k < 4; k++)
        cr_expect_gt(seen[k], 0, "outcome %d never drawn", k);
}
