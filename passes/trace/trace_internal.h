/* Internals shared by the stream generator's files (stream_gen.c: driver,
 * trace_exec.c: the warp interpreter, trace_layout.c: array addresses,
 * trace_validate.c: IR checks, trace_replay.c: access-free loops). Not for use outside
 * passes/trace_* and passes/trace/stream_gen.c. */
#ifndef HMS_PASSES_TRACE_INTERNAL_H
#define HMS_PASSES_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "passes/trace/lanes.h"
#include "passes/trace/stream_gen.h"
#include "passes/trace/trace_memo.h"
#include "passes/trace/trace_replay.h"
#include "passes/trace/trace_subtree.h"
#include "passes/trace/value_table.h"

/* Deepest expression / statement nesting the interpreter accepts (it
 * recurses; real kernels stay far below). */
#define HMS_TRACE_MAX_DEPTH 512
/* Instructions of an integer division or modulo by a run-time value (CUDA C
 * Programming Guide, Performance Guidelines: "up to 20 instructions"). */
#define HMS_TRACE_INT_DIV_INSTS 20

/* Steps a warp may take in each outermost loop after a kernel-wide budget
 * cut it (enough for an epilogue that stores a thread's tile in a loop). */
#define HMS_TRACE_DRAIN_STEPS 4096

typedef struct trace_loop trace_loop;
struct trace_loop {
    const ir_stmt *stmt;
    bool inexact; /* counted once in the warp's inexact_depth */
    trace_loop *outer;
    uint64_t iter, trips; /* iteration running; iterations expected (0 = unknown) */
};

/* A load site's last execution in the current warp run, when its active
 * lanes read at most TRACE_STANDIN_GROUPS distinct addresses: what the
 * opaque stand-ins of its value are made from (lanes.h "opaque"). */
#define TRACE_STANDIN_GROUPS 4
struct trace_load {
    uint64_t run;                 /* trace_warp.run of that execution; other runs: none */
    uint32_t lanes;               /* lanes that read one of those addresses; 0: scattered */
    uint64_t key[HMS_WARP_LANES]; /* per lane: array and byte offset read */
    uint64_t stamp;               /* value stamp of its stand-ins (trace_memo.h) */
};
typedef struct trace_load trace_load;

typedef struct {
    uint32_t warp;
    uint64_t run;             /* distinct for every warp run of the trace (trace_load.run) */
    uint32_t present;         /* lanes that exist (partial last warp) */
    hms_lanes tid[3], laneid; /* threadIdx.{x,y,z} and lane id per lane */
    hms_lanes *vars;          /* current value of every kernel variable; whatever writes one
                                 sets its stamp too (t->stamps.var, trace_memo.h) */
    uint32_t active;          /* lanes executing now */
    uint32_t ret, brk, cont;  /* lanes that returned / broke / continued (innermost loop) */
    int inexact_depth;        /* > 0: inside control flow that rests on an estimate */
    bool sticky_inexact;      /* a lane returned under an inexact condition */
    bool stopped;             /* budget exhausted: the warp runs no further */
    bool cutting;             /* stopped by its own step budget inside a loop: it resumes
                                 after the outermost loop */
    bool cut;                 /* a loop of this warp was cut: its records undercount */
    bool draining;            /* cut by a kernel-wide budget: HMS_TRACE_DRAIN_STEPS per loop */
    const char *cut_why;      /* the budget that cut it ("steps per warp") */
    trace_loop *loop;         /* innermost loop being run */
    uint64_t time;            /* instructions issued (see stream_gen.h "Time") */
    uint64_t steps;           /* statements + loop iterations, for the budget */
    uint64_t flops;           /* FP operations of its active lanes (ir.h fp_flops) */
    uint64_t fp_insts;        /* FP warp instructions (ir.h fp_ops) */
    double progress;          /* stopped warp: at most this share of its work was traced (the
                                 outermost loop of known length: (iteration + 1) / trips);
                                 1 when it ran to the end or nothing says */
    uint64_t seq;             /* records emitted by this warp (pseudo-random spread key) */
    uint64_t *arrivals;       /* time after each __syncthreads */
    size_t narrivals, caparrivals;
    /* Values the warp already computed in this run (keys: hash of operation
     * and operand values; value_table.h): a compiler computes a common
     * subexpression or a loop-invariant value once and keeps it in a
     * register, while the IR substitutes a local's expression into every
     * use. Warps run one after another, so they share one table (its run
     * stamps keep their keys apart). */
    trace_value_table *values;
    unsigned untimed;   /* > 0 while evaluating for bookkeeping (time restored after):
                           such evaluations neither use nor fill the table */
    uint64_t inserted;  /* instructions of the operations whose key went into the table
                           (what a replay of the same loop no longer pays, trace_replay.h) */
    uint64_t summaries; /* loop summary steps that looked at time (trace_summary.c) */
} trace_warp;

typedef struct trace_derive trace_derive; /* block_derive.c */

/* Periodic-loop summary state of one run of one loop (trace_summary.c). */
#define HMS_TRACE_SUMMARY_MAX_PERIOD 8
#define HMS_TRACE_SUMMARY_RING (HMS_TRACE_SUMMARY_MAX_PERIOD + 1)
typedef struct {
    bool off;             /* the loop cannot be summarised: no more attempts */
    uint64_t bound;       /* most iterations a lane runs when all trip counts are known, else
                             UINT64_MAX */
    uint64_t retry_at;    /* first iteration of the next attempt */
    hms_lanes *snap;      /* 3 x nvars: variables at the tops of the last three iterations */
    uint64_t *snap_stamp; /* 3 x nvars: their stamps then */
    bool *carried;        /* nvars: variables that change from iteration to iteration */
    bool *tainted;        /* nvars scratch (same allocation as carried) */
    /* per iteration top, ring of HMS_TRACE_SUMMARY_RING: */
    uint64_t time[HMS_TRACE_SUMMARY_RING];
    size_t rec[HMS_TRACE_SUMMARY_RING]; /* stream position */
    size_t arr[HMS_TRACE_SUMMARY_RING]; /* barrier arrivals so far */
    uint64_t flops[HMS_TRACE_SUMMARY_RING], fp_insts[HMS_TRACE_SUMMARY_RING]; /* FP work so far */
    uint32_t live[HMS_TRACE_SUMMARY_RING];
} trace_summary;

/* hms_loop_is_periodic's answer for one loop and one set of carried
 * variables (a static fact: asked again by every warp that runs the loop). */
typedef struct {
    const ir_stmt *loop;
    bool *carried; /* nvars */
    bool periodic;
} trace_periodic;
#define TRACE_PERIODIC_MEMO 16

typedef struct {
    const ir_kernel *k;
    hms_trace_options opt; /* defaults filled in */
    hms_kernel_trace *out;
    hms_lanes *var_init; /* per var: value before any assignment */
    bool *var_noted;     /* a note about its default was written */
    /* launch */
    uint32_t bdim[3], gdim[3];
    uint32_t tpb, wpb;
    /* current block */
    uint64_t block;
    int64_t bid[3];
    /* per array */
    int64_t *touched_lo, *touched_hi; /* byte offsets touched (hi exclusive); lo > hi: none */
    int64_t *extent_bytes;            /* known size, else opt.default_array_bytes: spread of unknown
                                         indices and the device layout's reservation */
    bool *size_known;
    int64_t *local_bytes; /* local arrays: bytes per thread */
    bool *pitch_known;    /* 2D textures */
    int64_t *pitch_bytes;
    size_t block_first; /* index of the current block's first record */
    /* per record of the current block: barrier epoch (barriers passed before it) */
    uint32_t *epoch;
    size_t capepoch;
    trace_load *loads;   /* per site */
    trace_stamps stamps; /* value stamps of variables, memo of operations (trace_memo.h) */
    trace_replay replay; /* access-free loops and their last recorded runs (trace_replay.h) */
    trace_periodic periodic[TRACE_PERIODIC_MEMO]; /* trace_summary.c, oldest replaced first */
    size_t nperiodic;
    /* the reach probe's kept values (trace_subtree.h) */
    trace_subtrees subtrees;
    uint64_t runs; /* warp runs so far */
    uint64_t total_steps;
    uint64_t total_lines;   /* 32-byte lines the records touch, for max_lines */
    trace_derive *derive;   /* derived blocks (block_derive.h); NULL: every block is traced */
    bool derive_log;        /* the representative is being traced: value-table probes are logged */
    bool kernel_budget_hit; /* max_steps or max_records reached */
    bool oom;
} tracer;

/* trace_exec.c: runs one warp of the current block over the whole body. */
void trace_run_warp(tracer *t, trace_warp *w);
/* Prepares w for warp `warp` of a block (vars reset to var_init). */
void trace_warp_reset(tracer *t, trace_warp *w, uint32_t warp);

/* Appends record r of warp w to the stream with its barrier epoch; false
 * (out of memory: the warp stops) on allocation failure (trace_exec.c). */
bool trace_push_record(tracer *t, trace_warp *w, const hms_warp_access *r);

/* The value-table key of operation e on operand values pa, pb, pc under the
 * active mask (trace_exec.c op_insts; NULL where an operand is absent). */
uint64_t trace_op_key(uint32_t active, const ir_expr *e, const hms_lanes *pa, const hms_lanes *pb,
                      const hms_lanes *pc);
/* block_derive.c: one probe of warp w's value table by operation e and its
 * outcome (value_table.h). */
void trace_derive_probe(tracer *t, trace_warp *w, const ir_expr *e, uint64_t key,
                        trace_value_outcome outcome);

/* Evaluates e for the warp's lanes into *out (trace_exec.c). */
void trace_eval(tracer *t, trace_warp *w, const ir_expr *e, hms_lanes *out);

/* trace_summary.c: called at the top of every iteration `iter` of `loop`
 * (before its test) with the live lanes. Returns the iterations it summarised
 * (the warp's variables, time and barriers are then at the top of iteration
 * iter + returned value), or 0. */
void trace_summary_init(trace_summary *s);
void trace_summary_free(trace_summary *s);
void trace_periodic_free(tracer *t);
uint64_t trace_summary_top(tracer *t, trace_warp *w, const ir_stmt *loop, trace_summary *s,
                           uint64_t iter, uint32_t live);

/* trace_replay.c: apply a recorded run of access-free loop L if the warp
 * repeats it (true: done, the loop is not to be run); otherwise run it
 * between trace_replay_begin and trace_replay_end, which record it. */
bool trace_replay_apply(tracer *t, trace_warp *w, trace_replay_loop *L, trace_replay_mark *m);
void trace_replay_begin(tracer *t, trace_warp *w, trace_replay_loop *L, trace_replay_mark *m);
void trace_replay_end(tracer *t, trace_warp *w, trace_replay_loop *L, const trace_replay_mark *m);

/* stream_gen.c */
void trace_note(tracer *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "file:line:col" of a location (static buffer per call site is avoided: writes into buf). */
const char *trace_loc_str(const tracer *t, ir_loc loc, char *buf, size_t len);

/* trace_layout.c */
/* Per-array facts the interpreter needs before tracing (spread extents,
 * local bytes per thread, 2D texture pitch). False on allocation failure. */
bool trace_layout_prepare(tracer *t);
/* Byte offset within the array's storage of one lane's access, for local
 * arrays (interleaved per warp slot). */
int64_t trace_local_offset(const tracer *t, int array, uint32_t warp, int lane, int64_t byte);
/* Chooses every array's base (stream_gen.c adds it to the active lanes'
 * offsets of all records). */
bool trace_layout_finish(tracer *t);
/* Natural alignment used for an element of this size. */
uint64_t trace_elem_align(int elem_bytes);

/* trace_validate.c: false with t->out->error set when the launch or IR
 * cannot be traced. */
bool trace_validate(tracer *t);

#endif
