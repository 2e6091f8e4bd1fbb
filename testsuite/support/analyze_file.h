/* Test helper: analyse a .cu file in-process, the way the lint pipeline
 * does (parse with libclang, build the kernel IR, hms_analyze_kernel per
 * kernel), without the binary and its report writers. */
#ifndef HMS_TEST_ANALYZE_FILE_H
#define HMS_TEST_ANALYZE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "analyzer/cli/options.h"
#include "analyzer/frontend/frontend_options.h"
#include "passes/analyze.h"
#include "passes/findings.h"
#include "passes/ir/ir.h"

typedef struct {
    hms_options opt;
    ir_kernel **kernels;
    size_t nkernels;
    hms_kernel_report *reports; /* one per kernel, same order */
    const hms_arch *arch;
    hms_frontend_options fe; /* the front end's view of opt, with arch */
    char *said;              /* the parse's and build's diagnostics, printed */
    char error[512];
} hms_analyzed_file;

/* `args` are extra command-line options ("--arch=gt200", "--launch=..."),
 * NULL-terminated, may be NULL. False with out->error on a parse or build
 * failure; free out either way. */
bool hms_analyze_file(const char *path, const char *const *args, hms_analyzed_file *out);
void hms_analyzed_file_free(hms_analyzed_file *f);
/* The same without the analysis: kernels built, reports NULL. */
bool hms_build_file(const char *path, const char *const *args, hms_analyzed_file *out);

/* The report / IR of the kernel named `name`, or NULL. */
const hms_kernel_report *hms_af_report(const hms_analyzed_file *f, const char *name);
const ir_kernel *hms_af_kernel(const hms_analyzed_file *f, const char *name);

#endif
