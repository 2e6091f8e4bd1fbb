/* The checks registry: one row per check, the single place that names them.
 * --list-checks, --checks globs, docs/checks/<name>.md and the report writers
 * all go through this table. */
#ifndef HMS_PASSES_CHECKS_H
#define HMS_PASSES_CHECKS_H

#include <stdbool.h>
#include <stddef.h>

#include "passes/findings.h"

struct hms_check_ctx; /* defined in passes/analyze.h */
typedef void (*hms_check_fn)(struct hms_check_ctx *ctx);

typedef struct {
    const char *name;      /* "hms-shared-bank-conflict" */
    hms_severity severity; /* default severity */
    bool enabled_by_default;
    const char *summary; /* one line for --list-checks */
    hms_check_fn run;
} hms_check_def;

/* The table, in a stable order. */
const hms_check_def *hms_check_registry(size_t *count);
const hms_check_def *hms_check_find(const char *name);

/* clang-tidy --checks semantics: comma-separated globs applied left to right,
 * a leading '-' disables; NULL or "" means the defaults. */
bool hms_check_enabled(const char *globs, const hms_check_def *check);

#endif
