/* The same diagnostic reached from several kernels (a __device__ helper or a
 * header used by many kernels, the instantiations of one template): same
 * check, file, line, column and message once each kernel's own name is set
 * aside. The text writer prints such a group once with a note naming the
 * kernels; the JSON writer keeps every entry and names the others. */
#ifndef HMS_ANALYZER_FINDING_GROUPS_H
#define HMS_ANALYZER_FINDING_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "passes/findings.h"

typedef struct {
    size_t kernel, index; /* fr->kernels[kernel].diagnostics[index] */
    size_t group;         /* position in v of the group's first member */
    size_t size;          /* members in the group (1: alone) */
} hms_finding_ref;

typedef struct {
    hms_finding_ref *v; /* every finding of the file, kernel by kernel, in order */
    size_t n;
    size_t *offset; /* v index of kernel k's first finding */
} hms_finding_groups;

void hms_group_findings(const hms_file_report *fr, hms_finding_groups *g);
/* The entry of fr->kernels[kernel].diagnostics[index]. */
const hms_finding_ref *hms_finding_ref_of(const hms_finding_groups *g, size_t kernel, size_t index);
/* "a, b<32>, c": the kernels of the group of r (all of them, in kernel order;
 * except_self leaves r's own out). Caller frees. */
char *hms_finding_group_kernels(const hms_file_report *fr, const hms_finding_groups *g,
                                const hms_finding_ref *r, bool except_self);
void hms_finding_groups_free(hms_finding_groups *g);

#endif
