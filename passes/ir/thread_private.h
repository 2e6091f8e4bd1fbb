/* Whether the threads of a block share an array's elements. Staging an
 * array in shared memory pays only when an element one thread loads is
 * read by other threads of its block; a value reused by the same thread
 * belongs in a register (or the L1), which shared memory would only
 * slow down with the fill and a barrier. */
#ifndef HMS_PASSES_THREAD_PRIVATE_H
#define HMS_PASSES_THREAD_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/stream.h"

/* Blocks of the stream examined (blocks are alike under the sampling's
 * assumption; a handful bound the memory). */
#define HMS_THREAD_PRIVATE_BLOCKS 4

/* Share of a block's distinct elements that two of its threads must read
 * for the reuse to count as shared by the block. */
#define HMS_BLOCK_REUSE_MIN_SHARED 0.10

typedef enum {
    HMS_BLOCK_REUSE_UNKNOWN = 0, /* nothing read, or out of memory */
    HMS_BLOCK_REUSE_NONE,        /* every element is read once per block */
    HMS_BLOCK_REUSE_OWN_THREAD,  /* elements are read again only by the thread that read them */
    HMS_BLOCK_REUSE_SHARED,      /* at least HMS_BLOCK_REUSE_MIN_SHARED of the elements are
                                    read by two threads of a block */
} hms_block_reuse;

/* How the threads of a block reuse the elements of `array` they read
 * off-chip (among the first HMS_THREAD_PRIVATE_BLOCKS blocks that read it). */
hms_block_reuse hms_array_block_reuse(const hms_stream *s, uint32_t array, int warp_size);

#endif
