/* A deliberately simple reference for the stream generator: runs every
 * thread of the chosen blocks on its own, one after another, with scalar
 * values and no masks, and only afterwards groups the threads of a warp into
 * warp records. A thread's access belongs to the warp record of the same
 * site at the same loop-iteration vector (the iteration number of every
 * enclosing loop), which is what SIMT lock-step execution of structured
 * code produces. Only for kernels whose indices are known: an unknown value
 * is an error here, not an estimate. */
#ifndef HMS_TEST_BRUTEFORCE_H
#define HMS_TEST_BRUTEFORCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "passes/ir/ir.h"
#include "runtime/stream.h"

typedef struct {
    int64_t default_param;      /* value of parameters without one (0: 1024) */
    uint64_t first_wave_blocks; /* as hms_trace_options: local-memory slots */
    uint64_t max_steps;         /* per thread (0: 1 << 20) */
    bool skip_unknown_index;    /* an access whose index holds an unknown makes no record
                                   (instead of an error): compare only the other sites */
} hms_bf_options;

/* Records for blocks[0..nblocks), with addresses relative to bases[array]
 * (take them from a trace's layout so both agree), ordered by block, warp,
 * site, then iteration vector. time is 0 and exact true. False with a
 * reason in err (unknown value, budget, allocation). */
bool hms_bruteforce_trace(const ir_kernel *k, const uint64_t *blocks, size_t nblocks,
                          const uint64_t *bases, const hms_bf_options *opt, hms_stream *out,
                          char *err, size_t errlen);

#endif
