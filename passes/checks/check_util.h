/* Helpers the checks share: reporting under the running check's name and
 * severity, and the wording of counts and element types in messages. */
#ifndef HMS_PASSES_CHECK_UTIL_H
#define HMS_PASSES_CHECK_UTIL_H

#include <stddef.h>

#include "passes/analyze.h"

/* A finding of the running check at loc (its file, line, column and range). */
hms_finding *hms_ctx_report(hms_check_ctx *c, const ir_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A note at loc (the kernel's file when loc has none). */
void hms_ctx_note(hms_check_ctx *c, hms_finding *f, const ir_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A number for a message: integers without decimals, else at most `digits`
 * decimals with trailing zeros dropped ("4", "12.5", "1.83"). */
const char *hms_fmt_num(char *buf, size_t len, double v, int digits);

/* "32 floats", "1 float", "12 bytes" (element counts in the array's element
 * type when it is one word such as float/int/double/float4, else bytes). */
const char *hms_fmt_elems(char *buf, size_t len, const ir_array *a, double count, int elem_size);

/* Per-request mean of a site sum (0 when it has no requests). */
double hms_site_mean(const hms_site_metrics *s, double sum);

/* The kernel's predicted time with the placement model inputs changed by
 * `edit` (NULL: as written); 0 when the model is unavailable. */
typedef void (*hms_model_edit)(hms_placement_kernel *k, hms_placement_events *e, void *arg);
double hms_ctx_predict(const hms_check_ctx *c, hms_model_edit edit, void *arg);
/* The same with the launch's work spread over `blocks` blocks for the
 * roofline's per-SM bounds (the edit spreads it for the model). */
double hms_ctx_predict_over(const hms_check_ctx *c, hms_model_edit edit, void *arg, double blocks);

/* Whether hms-partition-camping may judge the kernel's channel spread: not
 * under an assumed (default) launch, nor when the whole launch moves too
 * few bytes per access to occupy every DRAM channel; *why (may be NULL)
 * says which. */
bool hms_camping_judged(const hms_check_ctx *c, const char **why);
/* Does e rest on a value the model does not know: an unknown (a loaded value,
 * an opaque call such as __powf) or a kernel parameter whose value was
 * assumed (no --param, annotation or host call)? */
bool hms_expr_assumed(const ir_kernel *k, const ir_expr *e);

/* Does e name a block coordinate or the grid's size (blockIdx, gridDim),
 * directly or through a variable flagged in by_block (fill it with
 * ir_flag_assignments and this function)? */
bool hms_expr_block_dependent(const ir_expr *e, const bool *by_block);

/* Under an assumed launch whose block is narrower than a warp (the 2D
 * default puts two 16-wide rows of threadIdx.x in each warp): true when
 * `site` ran and, in every traced request, each row's lanes alone are
 * `fine`. A finding then arises only between the rows a warp holds: it rests
 * on the guessed block width, not on the code, since the real launch (a
 * 32 x 32 tile's block, a 128 x 3 generator) may hold one row per warp. */
typedef bool (*hms_row_judge)(const hms_check_ctx *c, const hms_warp_access *row);
bool hms_only_across_guessed_rows(const hms_check_ctx *c, size_t site, hms_row_judge fine);

/* True when the kernel has access sites but the trace ran none of them
 * (every thread left before its first access, typically under assumed
 * parameter values): there is nothing to judge memory behaviour on. */
bool hms_ctx_no_access_ran(const hms_check_ctx *c);

#endif
