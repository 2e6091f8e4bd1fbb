/* Per-warp access streams from the kernel IR: the CuMAPz "loop structure
 * that emulates each warp" (Kim & Shrivastava, seeds/001_3bb0fc5541bb7adb.txt,
 * Section 4 and Fig. 4), built statically.
 *
 * For each simulated block, each warp runs the kernel body with all 32 lanes
 * evaluated together (passes/trace/lanes.h) under an active mask; every dynamic
 * execution of an access site with at least one active lane becomes one
 * hms_warp_access record (runtime/stream.h).
 *
 * Threads. Threads of a block are linearised x fastest (t = x + X*(y + Y*z))
 * and warp w holds threads 32w..32w+31; lanes past the block's last thread
 * are never active. Blocks are numbered x fastest too.
 *
 * Control flow.
 *  - if: lanes split by the condition. A lane whose condition is unknown runs
 *    BOTH sides (then first; a lane that leaves by break/continue in the
 *    then side does not run the else side) and everything under it is
 *    marked inexact. One that returns in the then side is assumed to go on
 *    (the guard lets it through) and the rest of its warp is inexact:
 *    otherwise `if (unknown) return;` would end every lane. A condition
 *    that is only approximate (rests on a default value) is followed by
 *    value and marks what it guards inexact.
 *  - loops: init; while any lane's condition holds: body, step. Each lane
 *    leaves when its own condition fails; break removes a lane until the loop
 *    exits, continue until the end of the body, return until the end of the
 *    kernel. A lane whose loop condition is unknown keeps iterating for
 *    trip_count iterations when the IR knows it, else for
 *    opt.unknown_trip_count (default 16); the loop is then inexact.
 *  - a lane leaving by break/return under an inexact condition makes the rest
 *    of the loop (break, continue) or of the warp (return) inexact.
 *  - variables assigned under an inexact condition become approximate.
 *  - __syncthreads emits no record. It costs one instruction and aligns the
 *    block's warps: a warp leaves barrier k at the time the last warp
 *    reached it, so `time` orders the warps of a block realistically for the
 *    C-AMAT timeline and DRAM inter-arrival times.
 *
 * Time (hms_warp_access.time). Per-warp instruction counter, block-relative
 * (every block starts at 0; placing blocks on SMs is the consumer's job):
 * constants, built-ins, variables and unknowns cost 0 (registers); each
 * unary/binary/select operation 1; an access 1 (the issue) after its address
 * operations; an if 1 (the branch) after its condition; each loop test 1
 * after its condition; __syncthreads, break, continue, return 1 each. So a
 * record's time is the number of instructions its warp issued before it
 * (plus barrier waiting). Records of a block are ordered by (time, warp).
 *
 * Addresses. addr[i] = base(array) + index*elem_stride + field_offset for
 * active lanes (inactive lanes hold 0); tex2D adds index2 * row pitch.
 * Bases (hms_array_layout):
 *  - global, texture and local arrays share one device address space, laid
 *    out in array-id order from 4 GiB, each at a 2 MiB boundary (the
 *    granularity the CUDA driver hands out large allocations; cudaMalloc
 *    only promises 256 B), with room for the array's known size, else
 *    opt.default_array_bytes (64 MiB), else what the trace touched. So array
 *    bases agree in their low 21 bits, as real large allocations do, and
 *    DRAM channel/bank bits above them differ from array to array.
 *  - shared arrays: consecutively from 0 in declaration (id) order, each
 *    aligned to its element's natural alignment (a power of two, at most 16);
 *    extern __shared__ arrays start at the end of the static ones (16-byte
 *    aligned) plus their base_offset; arrays carved from another array
 *    (base_array) sit at that array's base plus base_offset.
 *  - constant arrays: consecutively from 0 like static shared arrays.
 *  - local arrays are interleaved across the lanes of a warp the way the
 *    hardware lays out local memory (element-sized chunks, lane-fastest), and
 *    the per-warp region is per resident slot (block modulo the first wave),
 *    so a uniform local index is one coalesced request.
 *  - 2D textures are pitch-linear: row pitch = dims[1] * elem_stride rounded
 *    up to 32 bytes; width unknown: opt.default_param elements, inexact.
 *
 * Unknown values. A scalar parameter with no value takes
 * opt.param_values[name], else opt.default_param (1024: a typical problem
 * size, e.g. a 1024x1024 matrix); what depends on it is approximate (records
 * inexact) and a note names it. An unknown index lane (a value loaded from
 * memory: indirect access) is spread pseudo-randomly (deterministically) over
 * the array's extent (known size, else opt.default_array_bytes): "indirect
 * reads are modelled as spread over the array"; the record is inexact.
 * Except for a value loaded from a warp-uniform address (every active lane
 * of that load read the same address: `int ix = tok[bt]` with bt the same
 * for the warp), or from at most TRACE_STANDIN_GROUPS addresses each shared
 * by a group of lanes (a warp straddling two rows): it is the same on the
 * lanes of a group, so it stays an opaque unknown (lanes.h) with a stand-in
 * number per address, and an index built from it (`wte[ix * C + c]`) keeps
 * its exact pattern within each group around an unknown base. Such a record
 * is inexact; its addresses that leave the array wrap into it modulo a
 * multiple of 128 bytes (the sectors, lines and banks touched are kept).
 *
 * Sampling (passes/trace/sample.h): at most opt.max_blocks blocks (256), first
 * resident wave first. After the first sampled block the sample shrinks, if
 * needed, so that the whole trace fits opt.max_records and opt.max_steps.
 * When the blocks are translations of each other (passes/trace/block_translate.h),
 * later sampled blocks are derived from the first one's records, addresses
 * moved, instead of traced (passes/trace/block_derive.h): the same records.
 * Long loops (passes/trace/trace_summary.c, passes/trace/loop_period.h). A loop of at
 * least opt.loop_summary_after iterations (16) whose iterations are the same
 * pattern shifted (variables that change across iterations enter indices and
 * values only affinely, and no branch or inner loop condition; the loop
 * condition is a conjunction of comparisons; its shared-memory writes are
 * not read after it; the variables' differences over the last two
 * iterations agree) is summarised from its third iteration on (later when
 * the period below needs more): the iterations that every live lane still
 * runs are not traced; each record of the last P traced iterations gets
 * `extra` = the skipped iterations it stands for (P: the fewest iterations
 * after which each record's lanes are shifted by a multiple of 128 bytes, at
 * most 8; 1 for a record whose sector, line and bank counts are the same at
 * every alignment it passes through), and the warp continues at the loop's
 * state after them (variables advanced in closed form, time and barrier
 * arrivals shifted per iteration), so the tail and the code after the loop
 * are traced. Records whose coalescing and bank figures may differ in the
 * skipped iterations are inexact. Consumers weight each record by 1 + extra
 * (hms_record_reps); cache and DRAM figures of the skipped iterations are
 * the traced ones' (an estimate).
 *
 * Budgets: a warp that executes more than opt.max_steps_per_warp statements
 * and loop iterations inside a loop cuts that loop ("iteration budget
 * exhausted at <loc> ...: the rest of that loop was cut") and resumes after
 * its outermost loop with every variable that loop assigns unknown and a
 * fresh allowance; a kernel-wide budget (steps, records, lines) cuts the
 * same way, then the warp finishes with a small allowance per later loop
 * (HMS_TRACE_DRAIN_STEPS: an epilogue's store loop runs) and no further
 * warps are traced. Outside loops the warp
 * stops. Records of a cut or stopped warp are inexact and trace.exact is
 * false. */
#ifndef HMS_PASSES_STREAM_GEN_H
#define HMS_PASSES_STREAM_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "passes/ir/ir.h"
#include "runtime/arch.h"
#include "runtime/stream.h"

#define HMS_TRACE_DEFAULT_PARAM 1024
#define HMS_TRACE_DEFAULT_TRIP_COUNT 16
/* Shortest loop (iterations) summarised when periodic. */
#define HMS_TRACE_DEFAULT_SUMMARY_AFTER 16
#define HMS_TRACE_DEFAULT_ARRAY_BYTES (64ull << 20)
#define HMS_TRACE_DEFAULT_STEPS_PER_WARP (1ull << 20)
#define HMS_TRACE_DEFAULT_STEPS (1ull << 23)        /* ~0.5 s of tracing at ~60 ns a step */
#define HMS_TRACE_DEFAULT_RECORDS ((size_t)1 << 18) /* ~75 MB of records */
/* Work budget in 32-byte lines the records touch (what the cache and DRAM
 * simulations downstream cost): scattered accesses touch up to 32 lines a
 * record, so the record budget alone lets one kernel take many seconds. */
#define HMS_TRACE_DEFAULT_LINES ((uint64_t)1 << 20)
#define HMS_TRACE_LINE_BYTES 32
#define HMS_TRACE_LINES_PER_RECORD 8 /* max_lines default: at least max_records x this */
#define HMS_TRACE_DEVICE_BASE (4ull << 30)
#define HMS_TRACE_ALLOC_ALIGN (2ull << 20)
#define HMS_TRACE_MAX_NOTES 64

typedef struct {
    const char *name; /* scalar parameter name */
    int64_t value;
} hms_param_value;

/* Zero means "default" for every field. */
typedef struct {
    uint64_t max_blocks;         /* block sample budget (HMS_SAMPLE_DEFAULT_BUDGET) */
    uint64_t first_wave_blocks;  /* blocks resident at once on the GPU (active blocks per SM *
                                    SM count); 0: no first-wave stratum */
    uint64_t max_steps_per_warp; /* HMS_TRACE_DEFAULT_STEPS_PER_WARP */
    uint64_t max_steps;          /* whole kernel: HMS_TRACE_DEFAULT_STEPS */
    size_t max_records;          /* whole kernel: HMS_TRACE_DEFAULT_RECORDS */
    uint64_t max_lines;          /* whole kernel: HMS_TRACE_DEFAULT_LINES or max_records x
                                    HMS_TRACE_LINES_PER_RECORD, whichever is more */
    int64_t default_param;       /* HMS_TRACE_DEFAULT_PARAM */
    const hms_param_value *param_values; /* per-name values for parameters with no value */
    size_t nparam_values;
    uint32_t unknown_trip_count;  /* HMS_TRACE_DEFAULT_TRIP_COUNT */
    uint64_t default_array_bytes; /* HMS_TRACE_DEFAULT_ARRAY_BYTES */
    uint32_t loop_summary_after;  /* loops that run at least this many iterations may be
                                     summarised (HMS_TRACE_DEFAULT_SUMMARY_AFTER); UINT32_MAX:
                                     trace every iteration */
    /* The GPU's residency (passes/trace/sample.h hms_residency): the sample
     * then takes groups of co-resident neighbours; 0: unknown, even spread. */
    uint32_t sm_count, blocks_per_sm;
    /* Trace every sampled block, never derive one from the first
     * (passes/trace/block_derive.h; for tests: the results are the same). */
    bool no_block_derive;
    bool no_loop_replay; /* trace every run of a repeated loop, never replay a
                            recorded one (passes/trace/trace_replay.h; for tests:
                            the results are the same) */
    /* Sequential sampling (passes/trace/sample_stop.h): a sampled grid's
     * groups are traced first, last, then the middle ones, and the trace stops once the groups'
     * per-block figures agree within this relative standard error; 0: trace
     * the whole sample. A grid traced in full is never cut by it. */
    double stop_tolerance;
    const hms_arch *arch; /* for the rule's shared bank passes; NULL: not compared */
    /* Only whether an access runs (passes/analyze.h hms_analyze_no_access_runs): values
     * without instruction times, the whole sample (no stopping rule), every loop iteration
     * (no summary), and the trace stops at its first record; a sample that the first
     * block's cost would reduce ends it with budget_exhausted (no verdict). */
    bool reach_probe;
} hms_trace_options;

typedef struct {
    uint64_t id;         /* linear block id */
    double weight;       /* blocks of the full grid it stands for */
    size_t first, count; /* its records: stream.v[first .. first+count) */
    uint64_t barriers;   /* __syncthreads the block passed */
    double flops;        /* FP operations of its threads (ir.h fp_flops), traced part */
    double fp_insts;     /* FP warp instructions of its warps (ir.h fp_ops), traced part */
    double insts;        /* instructions its warps executed up to their exit, summed (the
                            trace's count: barriers and loop tests after a warp's last
                            access included) */
    uint64_t lines;      /* 32-byte lines its records touch (the tracer's work count; a
                            summarised loop's record counted once) */
    double warps_run;    /* warps traced, a warp the budget stopped counting the share of its
                            work it got through (trace_warp.progress): fewer than the block
                            has when the analysis budget cut it */
} hms_traced_block;

typedef struct {
    uint64_t requests;        /* warp executions with >= 1 active lane in the simulated blocks:
                                 records, each counted 1 + extra times */
    uint64_t inexact;         /* of those, executions whose record has exact == false */
    uint64_t lanes;           /* active lanes summed over its records */
    uint64_t partial;         /* records with fewer active lanes than the warp has threads
                                 (divergence, guards, early exits) */
    uint64_t spread;          /* of those, executions whose record has lanes with an unknown
                                 index spread over the array (the pattern is an assumption) */
    double weighted_requests; /* requests scaled to the full launch */
} hms_site_trace;

typedef struct {
    uint64_t base;   /* address of byte 0 of element 0, space-relative */
    uint64_t extent; /* bytes reserved for it in the layout */
    bool size_known; /* extent from the declared dims (else default / touched) */
} hms_array_layout;

typedef struct {
    hms_stream stream;        /* block by block (ascending id), each in (time, warp) order */
    hms_traced_block *blocks; /* the simulated blocks */
    size_t nblocks;
    hms_site_trace *sites; /* by site id */
    size_t nsites;
    hms_array_layout *arrays; /* by array id */
    size_t narrays;
    uint64_t blocks_total;     /* blocks in the launch */
    uint64_t blocks_simulated; /* == nblocks */
    bool sampled;              /* blocks_simulated < blocks_total */
    double scale;              /* blocks_total / blocks_simulated */
    double flops, fp_insts;    /* the blocks' figures weighted to the full launch: lower
                                  bounds (only + - * / of floats are counted) */
    double warp_coverage;      /* weighted share of the sampled blocks' warps traced (1 unless
                                  the budget cut a block): scaling the block totals by its
                                  inverse extrapolates them, still never above the truth when
                                  the warps of a block do the same work */
    uint32_t threads_per_block, warps_per_block;
    bool exact; /* every record exact and no budget hit (sampling aside) */
    bool budget_exhausted;
    /* Sequential sampling: the sample's groups (sample.h hms_sampled_block.group)
     * and how many were traced; fewer when the rule stopped the trace early
     * (stopped_early, at relative standard error stop_rse). */
    uint32_t groups_sampled, groups_traced;
    uint64_t stratum_blocks; /* traced blocks of the first-wave stratum (sampled grids) */
    bool stopped_early;
    double stop_rse;
    bool loops_summarised; /* some records stand for summarised loop iterations (extra > 0) */
    uint64_t loop_replays; /* runs of access-free loops replayed, not traced (trace_replay.h) */
    char **notes;          /* what was assumed, one line each ("parameter 'n' has no value:
                              assumed 1024"); at most HMS_TRACE_MAX_NOTES */
    size_t nnotes;
    /* Sampled blocks derived from the first, not traced (passes/trace/block_derive.h). */
    uint64_t blocks_derived;
    char error[512]; /* why hms_trace_kernel returned false */
} hms_kernel_trace;

/* Traces kernel k. False (with out->error naming the kernel's file and the
 * reason) for an unusable launch or malformed IR, or on allocation failure;
 * out must still be freed. opt may be NULL (all defaults). */
bool hms_trace_kernel(const ir_kernel *k, const hms_trace_options *opt, hms_kernel_trace *out);
void hms_kernel_trace_free(hms_kernel_trace *t);

/* Weight of record i (its block's weight); records of one block are contiguous. */
double hms_trace_record_weight(const hms_kernel_trace *t, size_t i);
/* The block entry record i belongs to. */
const hms_traced_block *hms_trace_record_block(const hms_kernel_trace *t, size_t i);

/* The value tracing gives scalar variable `var` before any assignment: a
 * parameter's known value; else, for a parameter with no value (or only the
 * front end's default), opt's per-name value, else opt's default
 * (*approx = true). False for locals and loop variables, or a bad id. */
bool hms_trace_param_value(const ir_kernel *k, const hms_trace_options *opt, int var,
                           int64_t *value, bool *approx);

#endif
