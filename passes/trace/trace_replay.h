/* Replay of loops for the warp interpreter (trace_replay.c). Access-free
 * loops first; a loop with accesses is replayed the same way (its records
 * pushed again, shifted to its start time) when its recorded run put no new
 * key in the value table and none of its records is spread by the record
 * counter or summarised.
 *
 * A loop that makes no access, passes no barrier and has no break, continue
 * or return (a register tile's FMA loops, `for (m) for (n) acc[m][n] += ...`
 * once the register arrays are gone from the IR) changes only the warp's
 * variables and counters. Run again in the same warp run on the very same
 * inputs (the stamps of every variable it reads or assigns, the stand-ins it
 * reads, the active and exit masks, the inexact context), it evaluates the
 * same operations on the same values in the same order, so its effect is
 * the recorded one, with one difference: the value table (value_table.h,
 * never evicted within a run) now holds every key the recorded run inserted,
 * so those operations cost nothing the second time; a key left out then
 * because the table was full is left out now too and costs what it cost. A replay
 * therefore adds the recorded instructions less those of the inserted keys
 * and leaves the table as it is: the stream is bit-identical to tracing it
 * (built with -DHMS_TRACE_VERIFY_MEMO, every replay is traced anyway and
 * compared). A run that a budget stopped, or in which a loop summary looked
 * at time (trace_summary.c), is not recorded. Internal to passes/trace_*. */
#ifndef HMS_PASSES_TRACE_REPLAY_H
#define HMS_PASSES_TRACE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "passes/ir/ir.h"
#include "passes/trace/lanes.h"
#include "runtime/stream.h"

/* What a load site's last execution leaves for the stand-ins (the layout
 * of trace_internal.h's trace_load). */
typedef struct trace_load trace_load_state;

/* One loop without barrier or exit and its last recorded run. */
typedef struct {
    const ir_stmt *loop;
    int *vars; /* variables it reads or assigns (partial masks keep old lanes) */
    size_t nvars;
    int *assigned; /* of those, the ones it assigns */
    size_t nassigned;
    int *sites; /* load sites whose stand-ins its expressions read */
    size_t nsites;
    /* the recorded run: inputs */
    bool valid;
    uint64_t run;
    uint32_t active, ret, brk, cont;
    bool inexact;
    uint64_t *in;      /* stamps: vars, then sites */
    uint64_t *pending; /* the same, taken at the start of the run being recorded */
    /* its effect */
    hms_lanes *out; /* per assigned variable: value and stamp at the end */
    uint64_t *out_stamp;
    uint64_t time; /* instructions a replay adds (the recorded ones less the inserted keys') */
    uint64_t steps, flops, fp_insts;
    /* loops with accesses: their records (time relative to the loop's start), the lines
       they touch, and the state their load sites leave */
    bool accesses;
    hms_warp_access *recs;
    size_t nrecs, caprecs;
    uint64_t lines;
    int *loads; /* load sites in it */
    size_t nloads;
    trace_load_state *load_out;
} trace_replay_loop;

typedef struct {
    trace_replay_loop *loops;
    size_t n;
    const ir_stmt **slot_stmt; /* open addressing: loop statement -> loops index */
    uint32_t *slot_idx;
    size_t cap;
    uint64_t replays, records; /* runs replayed (verify builds: traced and compared), recorded */
} trace_replay;

/* Counters at the start of a recorded run. */
typedef struct {
    uint64_t time, inserted, steps, total_steps, flops, fp_insts, summaries, lines, seq;
    size_t rec_first;
    uint32_t ret, brk, cont;
    bool cut, draining, sticky;
    int depth;
    uint32_t active;
    bool check; /* verify builds: the run repeats the record, compare at the end */
} trace_replay_mark;

/* Finds the access-free loops of k. False on allocation failure. */
bool trace_replay_init(trace_replay *r, const ir_kernel *k);
void trace_replay_free(trace_replay *r);
/* The entry of loop statement s, or NULL when s is not an access-free loop. */
trace_replay_loop *trace_replay_of(const trace_replay *r, const ir_stmt *s);

#endif
