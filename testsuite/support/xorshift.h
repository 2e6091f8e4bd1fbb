/* A seeded xorshift64 generator for the randomised reference tests: the
 * same seed gives the same streams on every run and machine. */
#ifndef HMS_TEST_XORSHIFT_H
#define HMS_TEST_XORSHIFT_H

#include <stdint.h>

/* The next value of *state (which must not be 0). */
static inline uint64_t hms_xorshift64(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

#endif
