/* Forked workers for per-file isolation (worker.h). The driver stays
 * single-threaded while it forks (a fork from a multi-threaded process may
 * copy a lock another thread holds); -j N keeps N workers running. */
#include "analyzer/cli/atomic_file.h"
#include "analyzer/cli/worker.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Clang itself reserves 8 MiB for its parser and re-runs deep template
 * instantiation on fresh threads; a generated source nests deeper than that.
 * The stack is reserved address space, touched only as deep as it is used. */
#define LARGE_STACK_BYTES ((size_t)1 << 30)
#define POLL_MS 100

typedef struct {
    void (*fn)(void *);
    void *arg;
} stack_call;

static void *stack_trampoline(void *p)
{
    stack_call *c = p;
    c->fn(c->arg);
    return NULL;
}

void hms_run_with_large_stack(void (*fn)(void *arg), void *arg)
{
    stack_call c = {fn, arg};
    pthread_attr_t attr;
    pthread_t t;
    bool started = false;
    if (pthread_attr_init(&attr) == 0) {
        started = pthread_attr_setstacksize(&attr, LARGE_STACK_BYTES) == 0 &&
                  pthread_create(&t, &attr, stack_trampoline, &c) == 0;
        pthread_attr_destroy(&attr);
    }
    if (started)
        pthread_join(t, NULL);
    else
        fn(arg);
}

typedef struct {
    pid_t pid;
    int fd;
    size_t job;
    double deadline; /* monotonic seconds; 0: none */
    char *buf;
    size_t len, cap;
    bool overflow; /* out of memory reading its answer */
} running_worker;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* In the child: run, send the result, leave without the parent's atexit
 * work (temporary files, stdio buffers). No leak check here: a forked
 * child's thread registry still lists the parent's threads, so LeakSanitizer
 * would report the driver's live memory; the same analysis code is checked
 * in-process by the unit tests and by fuzz/fuzz_source. */
static void child_main(hms_isolated_job *j, void (*run)(void *), int fd)
{
    /* libclang parses on its own 8 MiB thread unless told not to: parse on
     * ours, whose stack is large. */
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    /* Fault injection for the isolation tests: this file's worker dies the
     * way a crash in libclang or in the passes would. */
    const char *crash = getenv("HMS_LINT_TEST_CRASH");
    if (crash && strcmp(crash, j->path) == 0) {
        /* the default action, not a sanitizer's handler, so the driver sees
         * the signal as it would a real crash in a release build */
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
    }
    hms_run_with_large_stack(run, j->ctx);
    hms_wire_buf b = {0};
    hms_wire_put_result(&b, j->diags, j->report);
    bool ok = !b.failed && hms_write_all(fd, b.data, b.len);
    close(fd);
    free(b.data);
    char *path = j->report->path;
    j->report->path = NULL;
    hms_file_report_free(j->report);
    j->report->path = path;
    _exit(ok ? 0 : 4);
}

/* The worker is lost: a diagnostic and an error say why; its partial report is dropped. */
static void lose(hms_isolated_job *j, const char *why)
{
    hms_diagf(j->diags, (hms_diag_head){HMS_DIAG_ERROR, j->path, 0, 0, NULL, NULL}, "%s", why);
    hms_file_add_error(j->report, "%s", why);
}

static void finish(hms_isolated_job *j, running_worker *w, bool timed_out, unsigned timeout_s,
                   hms_string_pool *pool)
{
    int st = 0;
    while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
        ;
    char why[160];
    if (timed_out) {
        snprintf(why, sizeof why, "analysis did not finish within %u s (--timeout); skipped",
                 timeout_s);
        lose(j, why);
    } else if (WIFSIGNALED(st)) {
        snprintf(why, sizeof why, "internal error while analysing (signal %d); please report",
                 WTERMSIG(st));
        lose(j, why);
    } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || w->overflow) {
        snprintf(why, sizeof why, "internal error while analysing (exit status %d); please report",
                 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        lose(j, why);
    } else {
        hms_file_report got = {0};
        if (hms_wire_get_result(w->buf, w->len, j->diags, &got, pool)) {
            for (size_t i = 0; i < got.nerrors; i++)
                hms_file_add_error(j->report, "%s", got.errors[i]);
            j->report->kernels = got.kernels;
            j->report->nkernels = got.nkernels;
            got.kernels = NULL;
            got.nkernels = 0;
        } else {
            lose(j, "internal error while analysing (garbled worker answer); please report");
        }
        hms_file_report_free(&got);
    }
    free(w->buf);
    w->buf = NULL;
}

static bool read_some(running_worker *w)
{
    char chunk[65536];
    ssize_t r = read(w->fd, chunk, sizeof chunk);
    if (r < 0)
        return errno == EINTR || errno == EAGAIN;
    if (r == 0)
        return false;
    if (w->overflow)
        return true;
    if (w->len + (size_t)r > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : sizeof chunk;
        while (cap < w->len + (size_t)r)
            cap *= 2;
        char *nb = realloc(w->buf, cap);
        if (!nb) {
            w->overflow = true;
            return true;
        }
        w->buf = nb;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, chunk, (size_t)r);
    w->len += (size_t)r;
    return true;
}

static bool start(hms_isolated_job *jobs, size_t i, void (*run)(void *), running_worker *ws,
                  size_t nrunning, unsigned timeout_s)
{
    int p[2];
    if (pipe(p) != 0)
        return false;
    fflush(NULL); /* nothing buffered is printed twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return false;
    }
    if (pid == 0) {
        close(p[0]);
        for (size_t k = 0; k < nrunning; k++)
            close(ws[k].fd);
        signal(SIGPIPE, SIG_DFL);
        child_main(&jobs[i], run, p[1]);
    }
    close(p[1]);
    running_worker *w = &ws[nrunning];
    memset(w, 0, sizeof *w);
    w->pid = pid;
    w->fd = p[0];
    w->job = i;
    w->deadline = timeout_s ? now_s() + timeout_s : 0;
    return true;
}

static void settled(const hms_isolation *how, size_t i)
{
    if (how->done)
        how->done(i, how->done_arg);
}

void hms_run_isolated(hms_isolated_job *jobs, size_t n, void (*run)(void *),
                      const hms_isolation *how)
{
    int parallel = how->parallel;
    unsigned timeout_s = how->timeout_s;
    hms_string_pool *pool = how->pool;
    size_t slots = parallel > 1 ? (size_t)parallel : 1;
    running_worker *ws = calloc(slots, sizeof *ws);
    struct pollfd *pfd = calloc(slots, sizeof *pfd);
    size_t next = 0, nrunning = 0;
    while (ws && pfd && (next < n || nrunning > 0)) {
        while (nrunning < slots && next < n) {
            size_t i = next++;
            if (jobs[i].skip) {
                settled(how, i);
                continue;
            }
            if (start(jobs, i, run, ws, nrunning, timeout_s)) {
                nrunning++;
            } else {
                hms_run_with_large_stack(run, jobs[i].ctx); /* no process to be had */
                settled(how, i);
            }
        }
        if (nrunning == 0)
            continue;
        for (size_t k = 0; k < nrunning; k++)
            pfd[k] = (struct pollfd){ws[k].fd, POLLIN, 0};
        bool poll_failed = poll(pfd, nrunning, POLL_MS) < 0 && errno != EINTR;
        double t = poll_failed ? 1e300 : now_s(); /* cannot wait on them: end them all */
        for (size_t k = 0; k < nrunning;) {
            running_worker *w = &ws[k];
            bool open = true, timed_out = false;
            if (!poll_failed && (pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
                open = read_some(w);
            if (open && (w->deadline || poll_failed) && t > w->deadline) {
                kill(w->pid, SIGKILL);
                open = false;
                timed_out = true;
            }
            if (open) {
                k++;
                continue;
            }
            close(w->fd);
            finish(&jobs[w->job], w, timed_out, timeout_s, pool);
            settled(how, w->job);
            /* keep the arrays dense: the last running worker takes this slot */
            ws[k] = ws[nrunning - 1];
            pfd[k] = pfd[nrunning - 1];
            nrunning--;
        }
    }
    if (!ws || !pfd) {
        for (; next < n; next++) {
            if (!jobs[next].skip)
                hms_run_with_large_stack(run, jobs[next].ctx);
            settled(how, next);
        }
    }
    free(ws);
    free(pfd);
}
