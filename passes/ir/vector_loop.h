/* A short loop over a thread's own vector of elements (`for (k = 0; k <
 * 4; k++) dst[idx + k] = ...`, the llm.c x128/f128 idiom): nvcc unrolls a
 * constant trip count, and the loop's accesses of one site together cover
 * the lane's contiguous run of bytes, as one vector access of that width
 * would. A single execution leaves gaps between lanes that the next
 * iterations fill (L1 keeps the lines of loads, L2 merges the partial
 * sector writes of stores), so the site's coalescing is the run's, not one
 * request's. */
#ifndef HMS_PASSES_VECTOR_LOOP_H
#define HMS_PASSES_VECTOR_LOOP_H

#include "passes/ir/ir.h"

/* The widest access nvcc emits per lane (128 bits): runs up to this long
 * count as one vector. */
#define HMS_VECTOR_RUN_MAX_BYTES 16

/* The innermost loop enclosing site `a` when it steps its variable by 1 and
 * `a`'s index is that variable plus terms free of it (each lane walks its
 * own run of consecutive elements), else NULL. */
const ir_stmt *hms_unit_loop(const ir_kernel *k, const ir_access *a);

/* Whether each lane of site `a` walks a run of its own longer than one
 * vector access (hms_unit_loop with more iterations than
 * HMS_VECTOR_RUN_MAX_BYTES covers, or an unknown number): a thread per row
 * (`wte[token * C + c]` over c) keeps its lanes on different runs whatever
 * an unknown start is. */
bool hms_walks_own_run(const ir_kernel *k, const ir_access *a);

/* Bytes per lane that site `a` covers over its innermost enclosing loop when
 * that loop runs a constant number of iterations, steps its variable by 1,
 * and the index is that variable plus terms free of it, with the whole run
 * at most HMS_VECTOR_RUN_MAX_BYTES; otherwise a->width. */
int hms_vector_loop_bytes(const ir_kernel *k, const ir_access *a);

/* A site that already moves the widest vector per lane, in a short loop
 * of constant trip that steps each lane to its next consecutive vector
 * (`FLOAT4(c[row * N + col + n])` over n += 4, an epilogue's
 * `O[... + j * 8]` halves over j): the loop's requests together cover the
 * lane's run of trip x width bytes, which fills the sectors each request
 * leaves half used. No wider access exists; L1 keeps the lines loads bring
 * in and L2 merges the partial sector writes of stores. The run's bytes;
 * for a load only when it is at most HMS_VECTOR_CHUNK_RUN_MAX_BYTES, two
 * 128-byte lines per lane, so that a warp's whole footprint over the
 * unrolled loop (8 KB at most) stays in L1 between its back-to-back
 * requests (a longer load walk is a thread per row, hms_walks_own_run);
 * a store's partial sectors merge in L2 at any run length. Else a->width. */
#define HMS_VECTOR_CHUNK_RUN_MAX_BYTES 256
int hms_vector_chunk_bytes(const ir_kernel *k, const ir_access *a);

#endif
