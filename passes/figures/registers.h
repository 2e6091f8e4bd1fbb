/* Registers per thread for occupancy, and the independent instructions a
 * warp can issue back to back (ILP), from the IR when no compiler was asked.
 * The estimate: HMS_DEFAULT_REGS_PER_THREAD for the kernel's scalars
 * (indices, addresses, loop counters) plus one register per 32-bit word of
 * every local array held in registers (accumulators and register tiles of
 * unrolled loops), at most the architecture's per-thread maximum; then
 * capped as nvcc caps it for __launch_bounds__(threads, blocks). Each
 * element of a register array is its own dependence chain once its loops
 * are unrolled (`acc[m][n] += a[m] * b[n]`), so the largest such array
 * gives the ILP (1 without one). */
#ifndef HMS_PASSES_REGISTERS_H
#define HMS_PASSES_REGISTERS_H

#include "passes/ir/ir.h"
#include "runtime/arch.h"

typedef enum {
    HMS_REGS_ASSUMED,   /* no register arrays: the typical count */
    HMS_REGS_ESTIMATED, /* from the IR's register arrays */
    HMS_REGS_PTXAS,     /* reported by ptxas */
} hms_regs_source;

typedef struct {
    int regs;
    hms_regs_source source;
    bool bounded;    /* __launch_bounds__ lowered the count */
    int array_words; /* 32-bit words of register arrays */
    double ilp;      /* >= 1 */
} hms_register_estimate;

void hms_registers_estimate(const ir_kernel *k, const hms_arch *a, hms_register_estimate *out);

/* "assumed", "estimated from the IR", "ptxas". */
const char *hms_regs_source_name(hms_regs_source s);

#endif
