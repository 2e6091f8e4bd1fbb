/* hms_run_isolated (analyzer/cli/worker.c) in-process: every job is settled
 * once (the done callback), results come back from the workers, a worker
 * that crashes or overruns the limit loses only its own job. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/cli/worker.h"

typedef struct {
    int what; /* 0 report a kernel, 1 crash, 2 hang */
    hms_file_report report;
    hms_diag_sink diags;
} job;

static void run(void *ctx)
{
    job *j = ctx;
    if (j->what == 1) {
        signal(SIGSEGV, SIG_DFL); /* a plain crash, not a sanitizer's report */
        raise(SIGSEGV);
    }
    if (j->what == 2)
        for (;;)
            pause();
    j->report.kernels = calloc(1, sizeof *j->report.kernels);
    j->report.nkernels = 1;
    j->report.kernels[0].name = strdup("k");
    j->report.kernels[0].launch.source = "cli";
    hms_kernel_add_finding(&j->report.kernels[0], "hms-uncoalesced-access", HMS_SEV_WARNING,
                           j->report.path, 3, 4, "strided");
    hms_diagf(&j->diags, (hms_diag_head){HMS_DIAG_NOTE, j->report.path, 0, 0, NULL, NULL},
              "said something");
}

static void count_done(size_t i, void *arg)
{
    ((int *)arg)[i]++;
}

Test(worker, each_job_is_settled_once_and_only_the_lost_ones_fail, .timeout = 60)
{
    enum { N = 5 };
    const int what[N] = {0, 1, 0, 2, 0};
    job jobs[N];
    hms_isolated_job iso[N];
    for (int i = 0; i < N; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].what = what[i];
        char name[32];
        snprintf(name, sizeof name, "f%d.cu", i);
        jobs[i].report.path = strdup(name);
        hms_diag_sink_init(&jobs[i].diags, NULL);
        iso[i] = (hms_isolated_job){jobs[i].report.path, i == 4, &jobs[i], &jobs[i].report,
                                    &jobs[i].diags};
    }
    int done[N] = {0};
    hms_string_pool pool = {0};
    hms_isolation how = {2, 2, &pool, count_done, done};
    hms_run_isolated(iso, N, run, &how);
    for (int i = 0; i < N; i++)
        cr_assert_eq(done[i], 1, "job %d settled %d times", i, done[i]);
    for (int i = 0; i < 3; i += 2) {
        cr_assert_eq(jobs[i].report.nkernels, 1);
        cr_assert_eq(jobs[i].report.nerrors, 0);
        cr_assert_str_eq(jobs[i].report.kernels[0].diagnostics[0].message, "strided");
        char *text = hms_diag_sink_text(&jobs[i].diags);
        cr_assert(strstr(text, ": note: said something\n"), "%s", text);
        free(text);
    }
    cr_assert_eq(jobs[1].report.nerrors, 1);
    cr_assert(strstr(jobs[1].report.errors[0], "internal error while analysing (signal 11)"));
    char *lost = hms_diag_sink_text(&jobs[1].diags);
    cr_assert(strstr(lost, "f1.cu: error: internal error"), "%s", lost);
    free(lost);
    cr_assert_eq(jobs[3].report.nerrors, 1);
    cr_assert(strstr(jobs[3].report.errors[0], "did not finish within 2 s (--timeout)"));
    cr_assert_eq(jobs[4].report.nkernels, 0, "a skipped job is not run");
    cr_assert_eq(jobs[4].diags.n, 0);
    for (int i = 0; i < N; i++) {
        hms_file_report_free(&jobs[i].report);
        hms_diag_sink_free(&jobs[i].diags);
    }
    hms_string_pool_free(&pool);
}
