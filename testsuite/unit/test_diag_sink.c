/* The diagnostic sink (analyzer/report/diag_sink.h): records in the order
 * given, printed in the compiler's form, "once per run" keys, records from
 * several threads at once, and a worker's records carried to the driver. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/diag_sink.h"
#include "analyzer/report/report_wire.h"

Test(diag_sink, records_print_in_order_in_the_compiler_form)
{
    hms_diag_sink s;
    hms_diag_sink_init(&s, NULL);
    hms_diagf(&s, (hms_diag_head){HMS_DIAG_WARNING, "a.cu", 3, 0, NULL, NULL},
              "bad launch annotation: %s", "grid x is 0");
    hms_diagf(&s, (hms_diag_head){HMS_DIAG_ERROR, "b.cu", 4, 7, "hms-parse-error", NULL},
              "expected ';'");
    hms_diagf(&s, (hms_diag_head){HMS_DIAG_ERROR, "c.cu", 0, 0, NULL, NULL}, "is a directory");
    hms_diagf(&s, (hms_diag_head){HMS_DIAG_NOTE, NULL, 0, 0, NULL, NULL}, "about the run");
    char *text = hms_diag_sink_text(&s);
    cr_assert_str_eq(text, "a.cu:3: warning: bad launch annotation: grid x is 0\n"
                           "b.cu:4:7: error: expected ';' [hms-parse-error]\n"
                           "c.cu: error: is a directory\n"
                           "hms-lint: note: about the run\n");
    free(text);
    cr_assert_eq(hms_diag_sink_count(&s, HMS_DIAG_ERROR), 2);
    cr_assert_eq(hms_diag_sink_count(&s, HMS_DIAG_WARNING), 1);
    char *m = hms_diag_located_message(&s.v[1]);
    cr_assert_str_eq(m, "b.cu:4:7: expected ';'");
    free(m);
    hms_diag_sink_free(&s);
}

Test(diag_sink, a_key_keeps_only_the_first_record_even_across_sinks)
{
    hms_diag_sink a, b, run;
    hms_diag_sink_init(&a, NULL);
    hms_diag_sink_init(&b, NULL);
    hms_diag_sink_init(&run, NULL);
    hms_diag_head once = {HMS_DIAG_WARNING, NULL, 0, 0, NULL, "toolkit-include"};
    cr_assert(hms_diagf(&a, once, "ignoring include directory '%s'", "/usr/local/cuda/include"));
    cr_assert_not(hms_diagf(&a, once, "ignoring include directory '%s'", "/opt/cuda/include"));
    hms_diagf(&a, (hms_diag_head){HMS_DIAG_ERROR, "x.cu", 1, 1, NULL, NULL}, "first file");
    /* a second worker says the same once-per-run thing */
    cr_assert(hms_diagf(&b, once, "ignoring include directory '%s'", "/opt/cuda/include"));
    hms_diagf(&b, (hms_diag_head){HMS_DIAG_ERROR, "y.cu", 2, 1, NULL, NULL}, "second file");
    hms_diag_sink_append(&run, &a);
    hms_diag_sink_append(&run, &b);
    char *text = hms_diag_sink_text(&run);
    cr_assert_str_eq(text,
                     "hms-lint: warning: ignoring include directory '/usr/local/cuda/include'\n"
                     "x.cu:1:1: error: first file\n"
                     "y.cu:2:1: error: second file\n");
    free(text);
    hms_diag_sink_free(&a);
    hms_diag_sink_free(&b);
    hms_diag_sink_free(&run);
}

Test(diag_sink, a_null_sink_drops_records)
{
    cr_assert_not(
        hms_diagf(NULL, (hms_diag_head){HMS_DIAG_ERROR, NULL, 0, 0, NULL, NULL}, "nowhere"));
}

#define THREADS 8
#define PER_THREAD 500

typedef struct {
    hms_diag_sink *s;
    int id;
} writer;

static void *write_many(void *arg)
{
    writer *w = arg;
    for (int i = 0; i < PER_THREAD; i++) {
        hms_diagf(w->s,
                  (hms_diag_head){HMS_DIAG_WARNING, "t.cu", (unsigned)w->id + 1, (unsigned)i + 1,
                                  NULL, NULL},
                  "thread %d record %d", w->id, i);
        /* every thread also says one thing "once per run" */
        hms_diagf(w->s, (hms_diag_head){HMS_DIAG_NOTE, NULL, 0, 0, NULL, "shared"}, "once");
    }
    return NULL;
}

Test(diag_sink, records_from_threads_are_all_kept_each_in_its_thread_order)
{
    hms_diag_sink s;
    hms_diag_sink_init(&s, NULL);
    pthread_t t[THREADS];
    writer w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (writer){&s, i};
        cr_assert_eq(pthread_create(&t[i], NULL, write_many, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    cr_assert_eq(s.n, THREADS * PER_THREAD + 1);
    cr_assert_eq(hms_diag_sink_count(&s, HMS_DIAG_NOTE), 1);
    int next[THREADS] = {0};
    for (size_t i = 0; i < s.n; i++) {
        if (s.v[i].level != HMS_DIAG_WARNING)
            continue;
        int id = (int)s.v[i].line - 1;
        cr_assert_eq((int)s.v[i].col - 1, next[id], "thread %d out of order", id);
        next[id]++;
    }
    for (int i = 0; i < THREADS; i++)
        cr_assert_eq(next[i], PER_THREAD);
    hms_diag_sink_free(&s);
}

Test(diag_sink, records_survive_the_worker_wire)
{
    hms_diag_sink s, got;
    hms_diag_sink_init(&s, NULL);
    hms_diag_sink_init(&got, NULL);
    hms_diagf(&s, (hms_diag_head){HMS_DIAG_ERROR, "k.cu", 9, 2, "hms-parse-error", NULL},
              "unknown type name 'T'");
    hms_diagf(&s, (hms_diag_head){HMS_DIAG_WARNING, NULL, 0, 0, NULL, "once-key"}, "once");
    hms_file_report r = {0};
    hms_wire_buf b = {0};
    hms_wire_put_result(&b, &s, &r);
    hms_file_report back = {0};
    hms_string_pool pool = {0};
    cr_assert(hms_wire_get_result(b.data, b.len, &got, &back, &pool));
    cr_assert_eq(got.n, 2);
    cr_assert_str_eq(got.v[0].file, "k.cu");
    cr_assert_eq(got.v[0].line, 9);
    cr_assert_eq(got.v[0].col, 2);
    cr_assert_eq(got.v[0].level, HMS_DIAG_ERROR);
    cr_assert_str_eq(got.v[0].code, "hms-parse-error");
    cr_assert_null(got.v[1].file);
    cr_assert_str_eq(got.v[1].key, "once-key");
    /* the key still dedupes in the driver */
    cr_assert_not(
        hms_diagf(&got, (hms_diag_head){HMS_DIAG_WARNING, NULL, 0, 0, NULL, "once-key"}, "again"));
    free(b.data);
    hms_file_report_free(&back);
    hms_string_pool_free(&pool);
    hms_diag_sink_free(&s);
    hms_diag_sink_free(&got);
}

/* A record printed at once and a usage error use the one printer's form. */
Test(diag_sink, printed_at_once_in_the_sink_form)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    cr_assert(m);
    hms_diag_printf(m, (hms_diag_head){HMS_DIAG_WARNING, "k.cu", 4, 0, NULL, NULL}, "odd %s", "x");
    hms_diag_printf(m, (hms_diag_head){HMS_DIAG_NOTE, NULL, 0, 0, NULL, NULL}, "about the run");
    cr_assert_eq(hms_diag_usage_error(m, "unknown --format '%s'", "yml"), 2);
    fclose(m);
    cr_assert_str_eq(text, "k.cu:4: warning: odd x\n"
                           "hms-lint: note: about the run\n"
                           "hms-lint: error: unknown --format 'yml'\n"
                           "Run 'hms-lint --help' for usage.\n");
    free(text);
}
