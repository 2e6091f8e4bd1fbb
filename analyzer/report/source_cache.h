/* Source text of the files findings point into, read once per file and
 * indexed by line, for the text writer (source line + caret), NOLINT
 * suppression, baseline matching and fix-it offsets. Not thread-safe: used
 * after analysis, from one thread. */
#ifndef HMS_ANALYZER_SOURCE_CACHE_H
#define HMS_ANALYZER_SOURCE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct hms_source_file hms_source_file;

typedef struct {
    hms_source_file **files;
    size_t n, cap;
} hms_source_cache;

void hms_source_cache_init(hms_source_cache *c);
void hms_source_cache_free(hms_source_cache *c);

/* The whole text of `path` (read on first use); NULL when it cannot be read. */
const char *hms_source_text(hms_source_cache *c, const char *path, size_t *len);

/* Line `line` (1-based) of `path` without its line terminator; NULL when the
 * file or the line does not exist. */
const char *hms_source_line(hms_source_cache *c, const char *path, unsigned line, size_t *len);

/* Number of lines in `path` (0 when unreadable). */
unsigned hms_source_line_count(hms_source_cache *c, const char *path);

/* Byte offset of line:col (both 1-based, col counted in bytes as clang does).
 * A column one past the end of the line is the line terminator's offset.
 * Returns false when the position is outside the file. */
bool hms_source_offset(hms_source_cache *c, const char *path, unsigned line, unsigned col,
                       size_t *offset);

/* Drops the cached copy of `path` (after --fix rewrote it). */
void hms_source_forget(hms_source_cache *c, const char *path);

#endif
