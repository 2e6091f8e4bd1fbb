/* The diagnostic sink (see diag_sink.h). */
#include "analyzer/report/diag_sink.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/out_of_memory.h"

static const char *const level_names[] = {"note", "warning", "error"};

void hms_diag_sink_init(hms_diag_sink *s, FILE *echo)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    s->echo = echo;
}

static void diag_free(hms_diagnostic *d)
{
    free(d->file);
    free(d->message);
    free(d->code);
    free(d->key);
}

void hms_diag_sink_free(hms_diag_sink *s)
{
    for (size_t i = 0; i < s->n; i++)
        diag_free(&s->v[i]);
    free(s->v);
    pthread_mutex_destroy(&s->lock);
    memset(s, 0, sizeof *s);
}

static char *dup_or_null(const char *p, bool *oom)
{
    if (!p)
        return NULL;
    char *r = strdup(p);
    *oom |= !r;
    return r;
}

static bool key_seen(const hms_diag_sink *s, const char *key)
{
    for (size_t i = 0; key && i < s->n; i++)
        if (s->v[i].key && !strcmp(s->v[i].key, key))
            return true;
    return false;
}

bool hms_diag_add(hms_diag_sink *s, const hms_diagnostic *d)
{
    if (!s)
        return false;
    bool oom = false;
    hms_diagnostic c = {d->level <= HMS_DIAG_ERROR ? d->level : HMS_DIAG_ERROR,
                        dup_or_null(d->file, &oom),
                        d->line,
                        d->col,
                        dup_or_null(d->message ? d->message : "", &oom),
                        dup_or_null(d->code, &oom),
                        dup_or_null(d->key, &oom)};
    pthread_mutex_lock(&s->lock);
    bool keep = !oom && !key_seen(s, c.key);
    if (keep && s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        hms_diagnostic *nv = realloc(s->v, cap * sizeof *nv);
        keep = nv != NULL;
        if (nv) {
            s->v = nv;
            s->cap = cap;
        }
    }
    if (keep) {
        s->v[s->n++] = c;
        if (s->echo) {
            hms_diag_print(&c, s->echo);
            fflush(s->echo);
        }
    } else {
        diag_free(&c);
    }
    pthread_mutex_unlock(&s->lock);
    return keep;
}

bool hms_diagf(hms_diag_sink *s, hms_diag_head h, const char *fmt, ...)
{
    if (!s)
        return false;
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        return false;
    hms_diagnostic d = {h.level, (char *)h.file, h.line, h.col, msg, (char *)h.code, (char *)h.key};
    bool kept = hms_diag_add(s, &d);
    free(msg);
    return kept;
}

static hms_diagnostic file_error_record(hms_diag_level level, const hms_file_error *e)
{
    return (hms_diagnostic){
        level, e->file[0] ? (char *)e->file : NULL, e->line, e->col, (char *)e->message, NULL,
        NULL};
}

bool hms_diag_file_error(hms_diag_sink *s, hms_diag_level level, const hms_file_error *e)
{
    hms_diagnostic d = file_error_record(level, e);
    return hms_diag_add(s, &d);
}

void hms_diag_print_file_error(FILE *out, hms_diag_level level, const hms_file_error *e)
{
    hms_diagnostic d = file_error_record(level, e);
    hms_diag_print(&d, out);
}

void hms_diag_vprintf(FILE *out, hms_diag_head h, const char *fmt, va_list ap)
{
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0)
        hms_out_of_memory();
    hms_diagnostic d = {h.level, (char *)h.file, h.line, h.col, msg, (char *)h.code, NULL};
    hms_diag_print(&d, out);
    free(msg);
}

void hms_diag_printf(FILE *out, hms_diag_head h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hms_diag_vprintf(out, h, fmt, ap);
    va_end(ap);
}

int hms_diag_vusage_error(FILE *out, const char *fmt, va_list ap)
{
    hms_diag_vprintf(out, (hms_diag_head){HMS_DIAG_ERROR, NULL, 0, 0, NULL, NULL}, fmt, ap);
    fputs("Run 'hms-lint --help' for usage.\n", out);
    return 2;
}

int hms_diag_usage_error(FILE *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = hms_diag_vusage_error(out, fmt, ap);
    va_end(ap);
    return rc;
}

void hms_diag_sink_append(hms_diag_sink *dst, hms_diag_sink *src)
{
    if (!src || src == dst)
        return;
    pthread_mutex_lock(&src->lock);
    for (size_t i = 0; i < src->n; i++)
        hms_diag_add(dst, &src->v[i]);
    pthread_mutex_unlock(&src->lock);
}

size_t hms_diag_sink_count(hms_diag_sink *s, hms_diag_level level)
{
    size_t n = 0;
    if (!s)
        return 0;
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < s->n; i++)
        n += s->v[i].level == level;
    pthread_mutex_unlock(&s->lock);
    return n;
}

/* "file:line:col" with what is known; "hms-lint" without a file. */
static void print_location(const hms_diagnostic *d, FILE *out)
{
    fputs(d->file ? d->file : "hms-lint", out);
    if (d->file && d->line) {
        fprintf(out, ":%u", d->line);
        if (d->col)
            fprintf(out, ":%u", d->col);
    }
}

void hms_diag_print(const hms_diagnostic *d, FILE *out)
{
    print_location(d, out);
    fprintf(out, ": %s: %s", level_names[d->level], d->message ? d->message : "");
    if (d->code)
        fprintf(out, " [%s]", d->code);
    fputc('\n', out);
}

void hms_diag_sink_print(hms_diag_sink *s, FILE *out)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < s->n; i++)
        hms_diag_print(&s->v[i], out);
    pthread_mutex_unlock(&s->lock);
}

char *hms_diag_located_message(const hms_diagnostic *d)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return NULL;
    if (d->file) {
        print_location(d, m);
        fputs(": ", m);
    }
    fputs(d->message ? d->message : "", m);
    fclose(m);
    return text;
}

char *hms_diag_sink_text(hms_diag_sink *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return NULL;
    hms_diag_sink_print(s, m);
    fclose(m);
    return text;
}
