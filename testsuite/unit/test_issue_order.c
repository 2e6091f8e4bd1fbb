/* hms_timed_sort: the merge of already-sorted runs must give exactly the
 * order by (time, index) that a comparison sort gives, whatever the runs. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/issue_order.h"

static int by_time_index(const void *pa, const void *pb)
{
    const hms_timed *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* n entries in `runs` ascending runs of times drawn from few values (ties
 * across runs), indices a permutation (so ties are broken by index). */
static void fill(hms_timed *v, size_t n, size_t runs, unsigned seed)
{
    srand(seed);
    size_t per = n / runs + 1;
    double t = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % per == 0)
            t = (double)(rand() % 8);
        t += (double)(rand() % 3); /* 0: a tie inside the run */
        v[i] = (hms_timed){t, (i * 7919u) % n};
    }
}

static void check(size_t n, size_t runs, unsigned seed)
{
    hms_timed *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    cr_assert(a && b);
    fill(a, n, runs, seed);
    for (size_t i = 0; i < n; i++)
        b[i] = a[i];
    hms_timed_sort(a, n);
    qsort(b, n, sizeof *b, by_time_index);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(a[i].index, b[i].index, "n=%zu runs=%zu seed=%u: entry %zu", n, runs, seed, i);
        cr_assert_eq(a[i].time, b[i].time);
    }
    for (size_t i = 1; i < n; i++) /* hms_timed_sort's order: time, then index */
        cr_assert(by_time_index(&a[i - 1], &a[i]) <= 0, "entry %zu out of order", i);
    free(a);
    free(b);
}

Test(issue_order, merge_of_runs_matches_comparison_sort)
{
    /* 7919 is prime, so i * 7919 % n is a permutation when n is not a multiple of it */
    size_t sizes[] = {2, 3, 5, 64, 1000, 4099};
    size_t runs[] = {1, 2, 3, 7, 64, 4099};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t r = 0; r < sizeof runs / sizeof *runs; r++)
            for (unsigned seed = 1; seed <= 3; seed++)
                check(sizes[i], runs[r] < sizes[i] ? runs[r] : sizes[i], seed);
}

Test(issue_order, reversed_input_is_sorted)
{
    size_t n = 513;
    hms_timed *v = malloc(n * sizeof *v);
    cr_assert(v);
    for (size_t i = 0; i < n; i++)
        v[i] = (hms_timed){(double)(n - i), i};
    hms_timed_sort(v, n);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(v[i].index, n - 1 - i);
    free(v);
}

/* hms_stream_issue_order against its definition computed plainly: warp
 * time = the record's time, or its position in its warp when no record has
 * one; time = (wave * span + warp time) * warps_per_sm * cpi; sorted by
 * (time, index). */
static void check_issue_order(bool with_times, unsigned seed)
{
    hms_stream s;
    hms_stream_init(&s);
    srand(seed);
    size_t n = 1500;
    for (size_t i = 0; i < n; i++) {
        hms_warp_access w;
        memset(&w, 0, sizeof w);
        w.block = (uint32_t)(i / 100 + (size_t)(rand() % 2));
        w.warp = (uint32_t)(rand() % 4);
        w.time = with_times ? (uint64_t)(rand() % 50) : 0;
        w.mask = 1;
        cr_assert(hms_stream_push(&s, &w));
    }
    uint64_t bpw = 3;
    double wps = 6, cpi = 1.5;
    hms_timed *got = hms_stream_issue_order(&s, bpw, wps, cpi);
    cr_assert(got);
    hms_timed *want = malloc(n * sizeof *want);
    double *wt = malloc(n * sizeof *wt);
    cr_assert(want && wt);
    double span = 1;
    for (size_t i = 0; i < n; i++) {
        wt[i] = (double)s.v[i].time;
        if (!with_times) {
            wt[i] = 0;
            for (size_t j = 0; j < i; j++)
                wt[i] += s.v[j].block == s.v[i].block && s.v[j].warp == s.v[i].warp;
        }
        span = wt[i] + 1 > span ? wt[i] + 1 : span;
    }
    for (size_t i = 0; i < n; i++)
        want[i] = (hms_timed){((double)(s.v[i].block / bpw) * span + wt[i]) * wps * cpi, i};
    qsort(want, n, sizeof *want, by_time_index);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(got[i].index, want[i].index, "times %d seed %u: entry %zu", with_times, seed,
                     i);
        cr_assert_eq(got[i].time, want[i].time);
    }
    free(got);
    free(want);
    free(wt);
    hms_stream_free(&s);
}

Test(issue_order, stream_issue_order_matches_its_definition)
{
    for (unsigned seed = 1; seed <= 3; seed++) {
        check_issue_order(true, seed);
        check_issue_order(false, seed);
    }
}
