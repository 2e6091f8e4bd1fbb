/* Isolation of one file's analysis: each runs in a forked worker process,
 * so a crash, a hang or running out of memory loses that file only. The
 * worker runs on a thread with a large stack (clang's parser and the IR
 * builder recurse as deep as the source nests), under a wall-clock limit;
 * its report comes back through a pipe (report_wire.h). */
#ifndef HMS_ANALYZER_WORKER_H
#define HMS_ANALYZER_WORKER_H

#include <stdbool.h>
#include <stddef.h>

#include "analyzer/report/report_wire.h"
#include "passes/findings.h"

typedef struct {
    const char *path;        /* for the messages */
    bool skip;               /* nothing to run (a setup error) */
    void *ctx;               /* handed to the run function */
    hms_file_report *report; /* filled by the run; errors and kernels come back here */
    hms_diag_sink *diags;    /* what the run said; its records come back here */
} hms_isolated_job;

/* Runs run(job->ctx) for every job not skipped, at most `parallel` workers
 * at once, each killed after how->timeout_s seconds. A worker that
 * dies, is killed or returns garbage leaves a "<path>: error: ..." record in
 * its diagnostics and an errors[] entry in its report; the others are unaffected.
 * Static strings of the reports are interned in how->pool (free it after them). */
typedef struct {
    int parallel;          /* workers at once (-j) */
    unsigned timeout_s;    /* per file; 0: no limit */
    hms_string_pool *pool; /* interns the reports' static strings */
    /* Called in the driver as each job is settled (run, lost or skipped), in
     * completion order, e.g. for progress lines; may be NULL. */
    void (*done)(size_t index, void *arg);
    void *done_arg;
} hms_isolation;

void hms_run_isolated(hms_isolated_job *jobs, size_t n, void (*run)(void *ctx),
                      const hms_isolation *how);

/* Runs fn(arg) on a thread with a stack large enough for deep recursion (in
 * the calling thread when none can be made). */
void hms_run_with_large_stack(void (*fn)(void *arg), void *arg);

#endif
