/* --ptxas: registers per thread of each kernel as nvcc's ptxas reports
 * them (`nvcc -arch=sm_XX --resource-usage`), for occupancy in place of the
 * IR's estimate. nvcc is looked for in $HMS_NVCC, then PATH, then
 * /usr/local/cuda/bin. */
#ifndef HMS_ANALYZER_PTXAS_H
#define HMS_ANALYZER_PTXAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analyzer/frontend/frontend_options.h"
#include "passes/ir/ir.h"
#include "runtime/arch.h"
#include "analyzer/report/diag_sink.h"

typedef struct {
    char *mangled;
    int regs;
} hms_ptxas_entry;

typedef struct {
    hms_ptxas_entry *v;
    size_t n;
} hms_ptxas_counts;

/* Parses ptxas's "Compiling entry function '<mangled>'" / "Used <n>
 * registers" lines. False only when out of memory. */
bool hms_ptxas_parse(const char *text, hms_ptxas_counts *out);
void hms_ptxas_free(hms_ptxas_counts *c);

/* Whether an Itanium-mangled entry name is the kernel the IR names `name`
 * ("reduce<256>", "ns::k" is "k"): the unqualified name and its integral
 * template arguments must agree (type arguments are not compared). */
bool hms_ptxas_name_matches(const char *mangled, const char *name);

/* Runs nvcc on `path` for o->arch (the default target when NULL) with the -I/-D/-U/-std options of
 * o->compiler_args and sets regs_per_thread of each kernel it reports.
 * On failure (no nvcc, an architecture nvcc cannot build, a compile error)
 * says so in diags, naming the file, and leaves the kernels to the estimate.
 * Returns the kernels given a count. */
size_t hms_ptxas_apply(const hms_frontend_options *o, const char *path, ir_kernel **kernels,
                       size_t nk, hms_diag_sink *diags);

#endif
