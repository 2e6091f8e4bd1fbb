/* A scratch directory per test for end-to-end runs of the binary. */
#ifndef HMS_TEST_SCRATCH_H
#define HMS_TEST_SCRATCH_H

#include <jansson.h>
#include <stddef.h>

/* Creates a fresh directory under /tmp (canonical path); aborts the test on failure. */
void hms_scratch_init(void);
/* Removes it and everything in it. */
void hms_scratch_fini(void);
/* "<scratch>/<rel>" (one of 8 rotating static buffers). */
const char *hms_scratch_at(const char *rel);
/* The scratch directory itself (canonical). */
const char *hms_scratch_dir(void);
/* Writes text to a file; aborts the test on failure. */
void hms_scratch_write(const char *path, const char *text);
/* Writes len bytes of text (strlen when 0) to "<scratch>/<rel>", creating the
 * folders on the way; returns that path (hms_scratch_at's buffer). */
const char *hms_scratch_put(const char *rel, const char *text, size_t len);
/* Parses JSON text; aborts the test (showing the text) when it is not JSON. */
json_t *hms_scratch_json(const char *text);

#endif
