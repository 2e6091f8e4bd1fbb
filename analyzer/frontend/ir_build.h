/* The front end proper: libclang AST of a parsed .cu file -> kernel IR
 * (passes/ir/ir.h), one ir_kernel per kernel and per template instantiation that
 * a launch (or an explicit instantiation) uses, each with its launch
 * configuration and scalar values resolved (cli > annotation > host call >
 * default; see analyzer/frontend/launch_config.h and docs/ir.md). */
#ifndef HMS_ANALYZER_IR_BUILD_H
#define HMS_ANALYZER_IR_BUILD_H

#include <stddef.h>
#include <stdio.h>

#include "analyzer/frontend/frontend_options.h"
#include "analyzer/frontend/parse.h"
#include "passes/ir/ir.h"
#include "analyzer/report/diag_sink.h"

/* Builds every kernel defined in tu's main file (and in project headers it
 * includes; never in our hermetic CUDA headers). *out receives a malloc'd
 * array of kernels (free with hms_free_kernels); returns their number.
 * Problems (a bad --launch or --param, a malformed annotation, a template
 * kernel nothing instantiates) are reported to diags as
 * "hms-lint: <severity>: <file>: <reason>"; what the IR cannot represent
 * inside a kernel becomes an ir_limit of that kernel instead. */
size_t hms_build_kernels(const hms_tu *tu, const hms_frontend_options *o, ir_kernel ***out,
                         hms_diag_sink *diags);
void hms_free_kernels(ir_kernel **kernels, size_t n);

#endif
