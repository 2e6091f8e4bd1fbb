/* --dump-ir: the kernel IR printed readably and stably (format in docs/ir.md),
 * so users and tests can see what the front end understood. */
#ifndef HMS_ANALYZER_DUMP_IR_H
#define HMS_ANALYZER_DUMP_IR_H

#include <stdio.h>

#include "passes/ir/ir.h"

void hms_dump_ir_kernel(FILE *out, const ir_kernel *k);

#endif
