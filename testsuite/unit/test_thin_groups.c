/* Thinning a sampled trace for the placement model (passes/figures/thin_groups.h):
 * whole co-resident groups (waves of resident blocks) or, when one group is
 * over the budget, every s-th warp of all its blocks; never part of a group's
 * blocks. */
#include <criterion/criterion.h>
#include <string.h>

#include "passes/figures/thin_groups.h"

#define ROUND 8 /* blocks resident at once: e.g. 4 SMs x 2 */
#define WARPS 4 /* warps per block */

/* A trace of `nb` blocks with the given ids, each warp issuing `per_warp`
 * records of one line each. */
static void fake_trace(hms_kernel_trace *t, const uint64_t *ids, size_t nb, size_t per_warp,
                       size_t **rec_lines)
{
    memset(t, 0, sizeof *t);
    hms_stream_init(&t->stream);
    t->blocks = calloc(nb, sizeof *t->blocks);
    cr_assert_not_null(t->blocks);
    t->nblocks = nb;
    t->warps_per_block = WARPS;
    t->sampled = true;
    for (size_t b = 0; b < nb; b++) {
        t->blocks[b].id = ids[b];
        t->blocks[b].first = t->stream.n;
        for (uint32_t w = 0; w < WARPS; w++)
            for (size_t i = 0; i < per_warp; i++) {
                hms_warp_access r = {0};
                r.block = (uint32_t)ids[b];
                r.warp = w;
                r.mask = 1;
                cr_assert(hms_stream_push(&t->stream, &r));
            }
        t->blocks[b].count = t->stream.n - t->blocks[b].first;
    }
    *rec_lines = malloc(t->stream.n * sizeof **rec_lines);
    cr_assert_not_null(*rec_lines);
    for (size_t i = 0; i < t->stream.n; i++)
        (*rec_lines)[i] = 1;
}

static void free_trace(hms_kernel_trace *t, size_t *rec_lines)
{
    hms_stream_free(&t->stream);
    free(t->blocks);
    free(rec_lines);
}

/* hms_work_lines over an array of every record's lines. */
static const size_t *array_block_records(void *ctx, size_t b)
{
    const void **x = ctx; /* {trace, rec_lines} */
    const hms_kernel_trace *t = x[0];
    const size_t *rec_lines = x[1];
    return rec_lines + t->blocks[b].first;
}

/* hms_thin_by_groups with every record's lines known in rec_lines. */
static bool thin_over_array(const hms_kernel_trace *t, const size_t *rec_lines, uint64_t round,
                            size_t max_records, size_t max_lines, bool *keep, uint32_t *warp_stride)
{
    const void *ctx[2] = {t, rec_lines};
    hms_work_lines w = {array_block_records, (void *)ctx};
    return hms_thin_by_groups(t, &w, round, max_records, max_lines, keep, warp_stride);
}

/* Four groups of 3 blocks (waves 0, 3, 6, 9), as the sampler takes them. */
static const uint64_t four_groups[] = {2, 3, 4, 26, 27, 28, 50, 51, 52, 74, 75, 76};

Test(thin_groups, keeps_whole_groups_spread_over_the_trace)
{
    hms_kernel_trace t;
    size_t *rl;
    fake_trace(&t, four_groups, 12, 10, &rl); /* 40 records per block, 120 per group */
    bool keep[12];
    uint32_t stride = 0;
    /* room for two groups and a half: two whole groups, the 2nd and 4th
     * (the middles of two equal slices of four) */
    cr_assert(thin_over_array(&t, rl, ROUND, 300, 300, keep, &stride));
    cr_assert_eq(stride, 1);
    bool want[12] = {0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1};
    for (size_t b = 0; b < 12; b++)
        cr_assert_eq(keep[b], want[b], "block %zu", b);
    /* room for everything: every group */
    cr_assert(thin_over_array(&t, rl, ROUND, 480, 480, keep, &stride));
    for (size_t b = 0; b < 12; b++)
        cr_assert(keep[b]);
    free_trace(&t, rl);
}

Test(thin_groups, the_line_budget_binds_as_the_record_budget_does)
{
    hms_kernel_trace t;
    size_t *rl;
    fake_trace(&t, four_groups, 12, 10, &rl);
    for (size_t i = 0; i < t.stream.n; i++)
        rl[i] = 4; /* 480 lines per group */
    bool keep[12];
    uint32_t stride = 0;
    cr_assert(thin_over_array(&t, rl, ROUND, 1000, 500, keep, &stride));
    size_t kept = 0;
    for (size_t b = 0; b < 12; b++)
        kept += keep[b];
    cr_assert_eq(kept, 3, "one whole group fits 500 lines");
    cr_assert(keep[6] && keep[7] && keep[8], "the middle pick of one slice over four: group 2");
    free_trace(&t, rl);
}

Test(thin_groups, one_group_over_the_budget_keeps_every_block_with_fewer_warps)
{
    /* one wave of 8 blocks (the whole grid resident at once), 160 records */
    static const uint64_t ids[] = {0, 1, 2, 3, 4, 5, 6, 7};
    hms_kernel_trace t;
    size_t *rl;
    fake_trace(&t, ids, 8, 5, &rl); /* 20 records per block */
    bool keep[8];
    uint32_t stride = 0;
    cr_assert(thin_over_array(&t, rl, ROUND, 80, 80, keep, &stride));
    for (size_t b = 0; b < 8; b++)
        cr_assert(keep[b], "block %zu: a group is never split", b);
    /* stride 2 keeps 80 records (warps 0 and 2), the first that fits */
    cr_assert_eq(stride, 2);
    cr_assert(thin_over_array(&t, rl, ROUND, 40, 1000, keep, &stride));
    cr_assert_eq(stride, 4, "only warp 0 (40 records) fits the record budget");
    free_trace(&t, rl);
}

Test(thin_groups, unequal_warps_are_left_to_the_caller)
{
    static const uint64_t ids[] = {0, 1, 2, 3, 4, 5, 6, 7};
    hms_kernel_trace t;
    size_t *rl;
    fake_trace(&t, ids, 8, 5, &rl);
    /* warp 3 of block 5 issues one record fewer (as a reduction's idle warps
     * do): warp 0 can no longer stand for the others */
    const hms_traced_block *B = &t.blocks[5];
    for (size_t i = B->first; i < B->first + B->count; i++)
        if (t.stream.v[i].warp == 3) {
            t.stream.v[i].warp = 2;
            break;
        }
    bool keep[8];
    uint32_t stride = 1;
    cr_assert(thin_over_array(&t, rl, ROUND, 80, 80, keep, &stride));
    cr_assert_eq(stride, 0, "no whole group fits and the warps differ: thin by blocks");
    cr_assert(thin_over_array(&t, rl, ROUND, 160, 160, keep, &stride));
    cr_assert_eq(stride, 1, "the whole group fits: kept whole, warps as they are");
    for (size_t b = 0; b < 8; b++)
        cr_assert(keep[b]);
    free_trace(&t, rl);
}

/* A provider over an array that counts which blocks it was asked about. */
typedef struct {
    const hms_kernel_trace *t;
    const size_t *rec_lines;
    unsigned asked[16];
} counting_lines;

static const size_t *counted_block(void *ctx, size_t b)
{
    counting_lines *c = ctx;
    c->asked[b]++;
    return c->rec_lines + c->t->blocks[b].first;
}

Test(thin_groups, lazy_lines_are_asked_only_for_groups_weighed)
{
    hms_kernel_trace t;
    size_t *rl;
    fake_trace(&t, four_groups, 12, 10, &rl); /* 120 records per group */
    /* heavier lines in the 2nd group: the line budget must still see them */
    for (size_t i = t.blocks[3].first; i < t.blocks[5].first + t.blocks[5].count; i++)
        rl[i] = 2;
    bool keep[12], keep_arr[12];
    uint32_t stride = 0, stride_arr = 0;
    /* Expected by hand: groups of 3 blocks weigh 120 records and 120 lines,
     * the 2nd 240 lines. 300 records fit two groups, spread apart: the 2nd
     * and 4th (360 lines); within 300 lines that pair is over, so one group,
     * the middle one; 130 records fit one group; 60 every 2nd warp of it. */
    struct {
        size_t records, lines;
        const char *keep;
        uint32_t stride;
    } cases[] = {{300, 400, "000111000111", 1},
                 {300, 300, "000000111000", 1},
                 {480, 1000, "111111111111", 1},
                 {130, 130, "000000111000", 1},
                 {60, 1000, "000000111000", 2}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        counting_lines c = {&t, rl, {0}};
        hms_work_lines w = {counted_block, &c};
        cr_assert(
            hms_thin_by_groups(&t, &w, ROUND, cases[k].records, cases[k].lines, keep, &stride));
        cr_assert(thin_over_array(&t, rl, ROUND, cases[k].records, cases[k].lines, keep_arr,
                                  &stride_arr));
        cr_assert_eq(stride, stride_arr, "case %zu", k);
        for (size_t b = 0; b < 12; b++)
            cr_assert_eq(keep[b], cases[k].keep[b] == '1', "case %zu block %zu", k, b);
        cr_assert_eq(stride, cases[k].stride, "case %zu", k);
        for (size_t b = 0; b < 12; b++) {
            if (stride)
                cr_assert_eq(keep[b], keep_arr[b], "case %zu block %zu", k, b);
            cr_assert_leq(c.asked[b], 2, "case %zu block %zu asked again", k,
                          b); /* here: one stride tried */
        }
        /* 300 records: at most two groups' records fit, so the four groups
         * together (480 records) are never weighed in lines */
        if (cases[k].records < 480) {
            unsigned asked = 0;
            for (size_t b = 0; b < 12; b++)
                asked += c.asked[b] > 0;
            cr_assert_lt(asked, 12, "case %zu: every block was counted", k);
        }
    }
    free_trace(&t, rl);
}
