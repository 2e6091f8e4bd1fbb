/* Whether a file's kernels have a launch to analyse them with: a file of
 * kernels that another file #includes and launches (Rodinia nw: needle.cu
 * includes needle_kernel.cu and launches its kernels with 16x16 blocks) has
 * no launch of its own, and alone would be analysed at the default launch.
 * parse.c then takes the includer's translation unit (includer.h). */
#ifndef HMS_ANALYZER_OWNED_LAUNCHES_H
#define HMS_ANALYZER_OWNED_LAUNCHES_H

#include <stddef.h>

#include "analyzer/frontend/parse.h"

/* The <<<...>>> launch sites of t's translation unit that launch a kernel t
 * owns (hms_tu_owns); *nkernels (when not NULL) gets how many kernels t
 * owns. */
size_t hms_owned_kernel_launches(const hms_tu *t, size_t *nkernels);

/* Does the file at t->path itself say how to launch its kernels (an
 * `hms-lint: launch` annotation)? */
bool hms_file_has_launch_annotation(const hms_tu *t);

#endif
