#include "testsuite/support/trace_equal.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "analyzer/report/report_json.h"

void hms_expect_same_trace(const hms_kernel_trace *a, const hms_kernel_trace *b)
{
    cr_assert_eq(a->stream.n, b->stream.n, "records: %zu vs %zu", a->stream.n, b->stream.n);
    for (size_t i = 0; i < a->stream.n; i++) {
        const hms_warp_access *x = &a->stream.v[i], *y = &b->stream.v[i];
        cr_assert_eq(x->time, y->time, "record %zu: time %llu vs %llu", i,
                     (unsigned long long)x->time, (unsigned long long)y->time);
        cr_assert(memcmp(x, y, sizeof *x) == 0, "record %zu differs", i);
    }
    cr_assert_eq(a->nblocks, b->nblocks);
    for (size_t i = 0; i < a->nblocks; i++) {
        const hms_traced_block *x = &a->blocks[i], *y = &b->blocks[i];
        cr_expect_eq(x->id, y->id);
        cr_expect_eq(x->weight, y->weight);
        cr_expect_eq(x->first, y->first);
        cr_expect_eq(x->count, y->count);
        cr_expect_eq(x->barriers, y->barriers);
        cr_expect_eq(x->flops, y->flops);
        cr_expect_eq(x->fp_insts, y->fp_insts);
        cr_expect_eq(x->insts, y->insts, "block %zu: insts %g vs %g", i, x->insts, y->insts);
        cr_expect_eq(x->lines, y->lines);
        cr_expect_eq(x->warps_run, y->warps_run);
    }
    cr_assert_eq(a->nsites, b->nsites);
    cr_expect(memcmp(a->sites, b->sites, a->nsites * sizeof *a->sites) == 0, "site counts differ");
    cr_assert_eq(a->narrays, b->narrays);
    for (size_t i = 0; i < a->narrays; i++) {
        cr_expect_eq(a->arrays[i].base, b->arrays[i].base, "array %zu base", i);
        cr_expect_eq(a->arrays[i].extent, b->arrays[i].extent, "array %zu extent", i);
    }
    cr_expect_eq(a->exact, b->exact);
    cr_expect_eq(a->budget_exhausted, b->budget_exhausted);
    cr_expect_eq(a->sampled, b->sampled);
    cr_expect_eq(a->scale, b->scale);
    cr_expect_eq(a->flops, b->flops);
    cr_expect_eq(a->warp_coverage, b->warp_coverage);
    cr_expect_eq(a->groups_traced, b->groups_traced);
    cr_expect_eq(a->stopped_early, b->stopped_early);
    cr_assert_eq(a->nnotes, b->nnotes);
    for (size_t i = 0; i < a->nnotes; i++)
        cr_expect_str_eq(a->notes[i], b->notes[i]);
}

char *hms_test_json_text(const hms_report *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    cr_assert(m);
    hms_json_options jo = {.sources = NULL};
    cr_assert(hms_write_json(r, m, &jo));
    fclose(m);
    return text;
}
