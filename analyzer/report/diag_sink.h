/* One diagnostic sink per run: what hms-lint says about its inputs (parse
 * errors, missing headers, bad annotations, bad options, a lost worker), as
 * records (severity, file, line, column, message, optional code) rather
 * than text scraped back later. Thread-safe (a mutex); a "once per run"
 * message is a record with a key, kept only the first time its key is
 * seen. Records keep the order they were added in; a forked worker's
 * records travel to the driver with its report (report_wire.h).
 * Printed in one place, in the compiler's form that editors read:
 *   file:line:col: severity: message [code]
 * (":col" or ":line:col" left out when unknown; "hms-lint" instead of the
 * file for a message about the run itself). */
#ifndef HMS_ANALYZER_DIAG_SINK_H
#define HMS_ANALYZER_DIAG_SINK_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "runtime/file_error.h"

typedef enum { HMS_DIAG_NOTE = 0, HMS_DIAG_WARNING, HMS_DIAG_ERROR } hms_diag_level;

/* Where and what, for one record; every string may be NULL. */
typedef struct {
    hms_diag_level level;
    const char *file;   /* NULL: about the run, not a file */
    unsigned line, col; /* 0: unknown */
    const char *code;   /* printed as " [code]" */
    const char *key;    /* "once per run": a later record with the same key is dropped */
} hms_diag_head;

typedef struct {
    hms_diag_level level;
    char *file;
    unsigned line, col;
    char *message;
    char *code;
    char *key;
} hms_diagnostic;

typedef struct {
    pthread_mutex_t lock;
    hms_diagnostic *v;
    size_t n, cap;
    FILE *echo; /* when set, each kept record is also printed there as it comes */
} hms_diag_sink;

void hms_diag_sink_init(hms_diag_sink *s, FILE *echo);
void hms_diag_sink_free(hms_diag_sink *s);

/* Adds one record (s may be NULL: dropped). False when it was not kept (a
 * key seen before, NULL sink, out of memory). */
bool hms_diagf(hms_diag_sink *s, hms_diag_head h, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool hms_diag_add(hms_diag_sink *s, const hms_diagnostic *d); /* copies d */
/* A loader's error (config, architecture file, baseline...) as a record: at
 * its file, line and column, or about the run when it names no file. */
bool hms_diag_file_error(hms_diag_sink *s, hms_diag_level level, const hms_file_error *e);
/* The same record printed straight away, for a command that stops at it. */
void hms_diag_print_file_error(FILE *out, hms_diag_level level, const hms_file_error *e);

/* One record printed straight away, kept nowhere: for a command that stops
 * at it, or a long-running server's log. */
void hms_diag_printf(FILE *out, hms_diag_head h, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void hms_diag_vprintf(FILE *out, hms_diag_head h, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* A usage error of the command line itself, printed at once as a record
 * about the run ("hms-lint: error: message") followed by the pointer to
 * --help. Returns 2, a usage error's exit status. */
int hms_diag_usage_error(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int hms_diag_vusage_error(FILE *out, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* Appends src's records to dst in order (dst's keys dedupe them). */
void hms_diag_sink_append(hms_diag_sink *dst, hms_diag_sink *src);

size_t hms_diag_sink_count(hms_diag_sink *s, hms_diag_level level);

/* "file:line:col: severity: message [code]\n" */
void hms_diag_print(const hms_diagnostic *d, FILE *out);
void hms_diag_sink_print(hms_diag_sink *s, FILE *out);
/* The location and message without the severity: "file:line:col: message"
 * (malloc'd), as a report's errors[] hold them. */
char *hms_diag_located_message(const hms_diagnostic *d);
/* Every record printed, as one malloc'd string (tests, logs). */
char *hms_diag_sink_text(hms_diag_sink *s);

#endif
