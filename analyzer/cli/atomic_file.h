/* Writing a file so readers see either the old or the whole new content:
 * a temporary file in the same directory, flushed, then renamed over the
 * target (which keeps its permissions; a symlink's target is replaced, not
 * the link). Used for --output, --export-fixes and --fix.
 * A target that a rename would harm is written in place instead: a device,
 * FIFO or socket (--output=/dev/null must not replace /dev/null), a file
 * with other hard links, or one whose owner we cannot give the new file.
 * A target the user may not write is refused, as is a directory. */
#ifndef HMS_ANALYZER_ATOMIC_FILE_H
#define HMS_ANALYZER_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "runtime/file_error.h"

typedef struct {
    FILE *f;    /* write here */
    char *tmp;  /* the temporary file; NULL when writing in place */
    char *dest; /* where it goes on commit */
} hms_atomic_file;

/* Returns a.f, or NULL with err at dest (no line) and the reason. */
FILE *hms_atomic_open(hms_atomic_file *a, const char *dest, hms_file_error *err);
/* Flushes, syncs and renames; false (temporary removed) on any failure. */
bool hms_atomic_commit(hms_atomic_file *a, hms_file_error *err);
/* Throws the temporary away. */
void hms_atomic_abort(hms_atomic_file *a);

bool hms_write_file_atomic(const char *dest, const char *data, size_t len, hms_file_error *err);

/* Writes all n bytes to fd, retrying short writes and EINTR; false on an
 * error (errno says which). For pipes and sockets as well as files. */
bool hms_write_all(int fd, const void *p, size_t n);

#endif
