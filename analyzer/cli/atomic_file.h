/* Writing a file so readers see either the old or the whole new content:
 * a temporary file in the same directory, flushed, then renamed over the
 * target (which keeps its permissions; a symlink's target is replaced, not
 * the link). Used for --output, --export-fixes and --fix. */
#ifndef HMS_ANALYZER_ATOMIC_FILE_H
#define HMS_ANALYZER_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f;    /* write here */
    char *tmp;  /* the temporary file */
    char *dest; /* where it goes on commit */
} hms_atomic_file;

/* Returns a.f, or NULL with "<dest>: <reason>" in err. */
FILE *hms_atomic_open(hms_atomic_file *a, const char *dest, char *err, size_t errlen);
/* Flushes, syncs and renames; false (temporary removed) on any failure. */
bool hms_atomic_commit(hms_atomic_file *a, char *err, size_t errlen);
/* Throws the temporary away. */
void hms_atomic_abort(hms_atomic_file *a);

bool hms_write_file_atomic(const char *dest, const char *data, size_t len, char *err,
                           size_t errlen);

#endif
