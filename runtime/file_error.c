/* See file_error.h. */
#include "runtime/file_error.h"

#include <stdio.h>

bool hms_file_error_vset(hms_file_error *e, const char *file, unsigned line, unsigned col,
                         const char *fmt, va_list ap)
{
    if (!e)
        return false;
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    e->line = line;
    e->col = line ? col : 0;
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    return false;
}

bool hms_file_error_set(hms_file_error *e, const char *file, unsigned line, unsigned col,
                        const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hms_file_error_vset(e, file, line, col, fmt, ap);
    va_end(ap);
    return false;
}

void hms_file_error_text(const hms_file_error *e, char *out, size_t outlen)
{
    if (!outlen)
        return;
    char where[1100] = "";
    if (e->file[0] && e->line && e->col)
        snprintf(where, sizeof where, "%s:%u:%u: ", e->file, e->line, e->col);
    else if (e->file[0] && e->line)
        snprintf(where, sizeof where, "%s:%u: ", e->file, e->line);
    else if (e->file[0])
        snprintf(where, sizeof where, "%s: ", e->file);
    snprintf(out, outlen, "%s%s", where, e->message);
}
