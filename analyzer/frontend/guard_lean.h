/* Which way the comparisons guarding a kernel's accesses pull its scalar
 * parameters. For the accesses of
 *     if (y < height && filter_radius < width) { ... surf2Dwrite(...) ... }
 * to run, filter_radius must be small and width (baseWidth >> level) large:
 * when defaults leave every thread short of every access (keep_alive.h),
 * the parameters that must be large keep their default and the others are
 * made small. Read from the IR: the conditions of the branches and loops
 * that hold an access (true), of branches that only leave (false), through
 * the local variables assigned from the parameters. */
#ifndef HMS_ANALYZER_GUARD_LEAN_H
#define HMS_ANALYZER_GUARD_LEAN_H

#include <stdbool.h>

#include "passes/ir/ir.h"

/* Per variable of k: how many guards need it large minus how many need it
 * small (a parameter on both sides of guards is decided by the majority).
 * votes has k->nvars entries, zeroed by the caller. */
void hms_guard_lean(const ir_kernel *k, int *votes);

#endif
