/* The warp's value table (passes/trace/value_table.h): the first
 * HMS_TRACE_VALUE_MEMO distinct keys of a run are remembered, whatever
 * slots their hashes fall in; past that a new key is neither held nor
 * found. Its outcomes depend only on which keys of the run are equal, so a
 * run whose keys are another's renamed gets the same outcomes (what lets
 * block_derive.c derive a moved block). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "passes/trace/value_table.h"

TestSuite(value_table);

static trace_value_table *table(void)
{
    trace_value_table *v = calloc(1, sizeof *v);
    cr_assert(v);
    return v;
}

/* Keys that all fall in one slot: an 8-slot probe window (the table before)
 * held 8 of them; now the first HMS_TRACE_VALUE_MEMO are held, the rest never. */
Test(value_table, colliding_keys_held_up_to_the_count)
{
    trace_value_table *v = table();
    const uint64_t run = 1, n = HMS_TRACE_VALUE_MEMO;
    for (uint64_t i = 0; i < n; i++)
        cr_assert_eq(trace_value_probe(v, run, i * HMS_TRACE_VALUE_SLOTS), TRACE_VALUE_INSERTED,
                     "key %llu", (unsigned long long)i);
    for (uint64_t i = n; i < n + 100; i++)
        cr_assert_eq(trace_value_probe(v, run, i * HMS_TRACE_VALUE_SLOTS), TRACE_VALUE_FULL);
    for (uint64_t i = 0; i < n + 100; i++) /* stable within the run */
        cr_assert_eq(trace_value_probe(v, run, i * HMS_TRACE_VALUE_SLOTS),
                     i < n ? TRACE_VALUE_FOUND : TRACE_VALUE_FULL);
    /* a new run starts empty */
    cr_expect_eq(trace_value_probe(v, run + 1, (n + 5) * HMS_TRACE_VALUE_SLOTS),
                 TRACE_VALUE_INSERTED);
    cr_expect_eq(trace_value_probe(v, run + 1, 0), TRACE_VALUE_INSERTED);
    cr_expect_eq(trace_value_probe(v, run + 1, (n + 5) * HMS_TRACE_VALUE_SLOTS), TRACE_VALUE_FOUND);
    free(v);
}

/* Two runs with the same pattern of equal keys, one with keys spread over
 * the slots and one with keys crowded into a few, past the count: the same
 * outcome at every probe. */
Test(value_table, outcomes_follow_equal_keys_only)
{
    trace_value_table *a = table(), *b = table();
    unsigned seed = 7;
    for (int i = 0; i < 20 * HMS_TRACE_VALUE_MEMO; i++) {
        seed = seed * 1103515245u + 12345u;
        /* which value: repeats, and more distinct values than the table holds */
        uint64_t id = (seed >> 8) % (3 * HMS_TRACE_VALUE_MEMO);
        uint64_t spread = id * 0x9e3779b97f4a7c15ull,
                 crowded = (id % 3) + id * 4 * HMS_TRACE_VALUE_SLOTS;
        trace_value_outcome x = trace_value_probe(a, 1, spread);
        trace_value_outcome y = trace_value_probe(b, 1, crowded);
        cr_assert_eq(x, y, "probe %d (value %llu): %d vs %d", i, (unsigned long long)id, x, y);
    }
    cr_expect_eq(a->held, HMS_TRACE_VALUE_MEMO);
    free(a);
    free(b);
}
