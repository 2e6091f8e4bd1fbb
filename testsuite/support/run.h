/* Test helpers: run the built hms-lint binary and capture what it prints. */
#ifndef HMS_TEST_RUN_H
#define HMS_TEST_RUN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    int status; /* exit status, or -1 if it did not exit normally */
    char *out;  /* stdout, NUL-terminated */
    char *err;  /* stderr, NUL-terminated */
} hms_run_result;

/* Runs HMS_LINT_BIN with the given arguments (NULL-terminated). */
hms_run_result hms_run(const char *const *args);
void hms_run_free(hms_run_result *r);

/* Whether some line of text begins with prefix: a diagnostic printed in the
 * compiler's form "file:line: severity: message" starts its line. */
bool hms_line_starts_with(const char *text, const char *prefix);

/* Path of a file under testsuite/ (static buffer, valid until the next call). */
const char *hms_test_path(const char *rel);

/* Calls fn(path, name, ctx) for each *.cu file of testsuite/<rel>, in name
 * order; returns how many there were. */
size_t hms_test_each_cu(const char *rel, void (*fn)(const char *path, const char *name, void *ctx),
                        void *ctx);

/* Reads a whole file; NULL on failure. Caller frees. */
char *hms_read_file(const char *path, size_t *len);

#endif
