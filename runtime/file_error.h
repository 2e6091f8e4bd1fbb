/* A problem a loader found in its input, kept as parts (file, line, column,
 * message) so that the CLI prints it in the compiler's form
 * "file:line:col: error: message" through its one diagnostic sink. A plain
 * struct with fixed buffers: runtime/ does not know the CLI's sink, and a
 * caller needs nothing freed. */
#ifndef HMS_RUNTIME_FILE_ERROR_H
#define HMS_RUNTIME_FILE_ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char file[1024];    /* "": the problem is not about a file (an unknown name) */
    unsigned line, col; /* 1-based; 0: unknown */
    char message[1024];
} hms_file_error;

/* Fills e (may be NULL: nothing written); file may be NULL. Always returns
 * false, so a loader can `return hms_file_error_set(...)`. */
bool hms_file_error_set(hms_file_error *e, const char *file, unsigned line, unsigned col,
                        const char *fmt, ...) __attribute__((format(printf, 5, 6)));
bool hms_file_error_vset(hms_file_error *e, const char *file, unsigned line, unsigned col,
                         const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

/* "file:line:col: message" (parts left out when unknown) into out, for
 * callers that only want one line of text. */
void hms_file_error_text(const hms_file_error *e, char *out, size_t outlen);

#endif
