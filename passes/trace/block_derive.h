/* Derived blocks (block_derive.c): when a launch's blocks are translations
 * of each other (block_translate.h), the first sampled block is traced as
 * a representative and later sampled blocks are derived from it: their
 * records are the representative's with each active lane's address moved by
 * the site's offset for that block, everything else (time, warp, mask,
 * flags, extra, barriers, flops, instructions, lines) copied. Internal to
 * passes/trace/stream_gen.c.
 *
 * What the static rules cannot see is checked for each block, and a block
 * that fails a check is traced as usual -- as a further representative
 * (the value table, a guard or an alignment refused it: block 0's values
 * that are equal only there, edge and inner blocks of a stencil, rows at
 * two alignments: a few classes of blocks). Up to eight are kept, the most
 * recently useful tried first; none is made after four in a row derived
 * nothing, after GIVE_UP_AFTER blocks in a row were refused, or with fewer
 * than 8 sampled blocks left:
 *  - the value table (value_table.h, trace_exec.c op_insts): an operation's
 *    instructions depend on whether its key (a hash of its operand values)
 *    is already in the warp's table, and on whether the table is full: on
 *    which keys of the warp run are equal (not on where their hashes fall).
 *    While the representative is traced, every probe of the table is
 *    logged with its outcome, and for an operation on blockIdx-dependent
 *    operands the operand values too; for a derived block each warp's table
 *    is simulated with the keys recomputed from the translated operands, and
 *    every outcome must be the logged one. A warp none of whose logged
 *    operands moves in the block keeps its keys and is not simulated; an
 *    unmoving key probed again in the run by an unmoving operation shares
 *    its first probe's fate and is not logged;
 *  - alignment: every site's offset is a multiple of 128 bytes (a line, the
 *    32 four-byte banks), so sectors, lines, banks, the lines budget and a
 *    loop summary's periods are the representative's;
 *  - budgets: the block's records, lines and steps fit the kernel's budgets
 *    without reaching them (a block a budget cuts is traced, and cut);
 *  - the representative: no warp stopped or cut, no spread lane (spread
 *    indices hash the block id).
 * The touched range of every array (layout, footprints) is moved with the
 * sites' offsets. Built with -DHMS_TRACE_VERIFY_BLOCKS every derived block is
 * traced anyway and compared record by record (abort on a difference). */
#ifndef HMS_PASSES_BLOCK_DERIVE_H
#define HMS_PASSES_BLOCK_DERIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "passes/trace/trace_internal.h"

/* Sets t->derive when the kernel's blocks translate and the options allow
 * it. False only on allocation failure. */
bool trace_derive_setup(tracer *t);
void trace_derive_free(tracer *t);
/* Around tracing a representative (the first block of the sample, or a
 * later block the checks refused when trace_derive_wants_rep, with `left`
 * sampled blocks after it): begin starts the probe log (`first`: forget
 * the earlier ones); end takes the block (its entry, whether all its warps
 * ran to the end, the kernel's steps before it). */
bool trace_derive_wants_rep(const tracer *t, size_t left);
void trace_derive_begin(tracer *t, bool first);
void trace_derive_end(tracer *t, const hms_traced_block *rep, bool complete, uint64_t steps_before,
                      uint64_t replays_before);
/* Appends block `id` derived from a representative to the stream and
 * fills *out (not its weight); false (nothing changed) when it cannot be
 * derived: trace it. */
bool trace_derive_block(tracer *t, uint64_t id, hms_traced_block *out);

#ifdef HMS_TRACE_VERIFY_BLOCKS
/* Aborts with a message unless the derived block d and the traced block r
 * (same id, records in the stream) are the same, record by record. */
void trace_derive_verify(const tracer *t, const hms_traced_block *d, const hms_traced_block *r);
#endif

#endif
