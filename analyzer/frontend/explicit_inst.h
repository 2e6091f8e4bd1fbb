/* Explicit template instantiations (`template __global__ void k<128>(float *);`)
 * are not visible through libclang's cursors. Appending a reference to each
 * one at the end of the source makes clang expose the instantiated function
 * (a DeclRefExpr to it), so the IR builder can analyse it. */
#ifndef HMS_ANALYZER_EXPLICIT_INST_H
#define HMS_ANALYZER_EXPLICIT_INST_H

#include <stddef.h>

/* Marker of the appended lines: a source that holds it was parsed with them. */
#define HMS_EXPLICIT_INST_MARKER "__hms_lint_instance_"

/* Scans C++ source text (comments and literals skipped, namespaces followed)
 * and returns the lines to append, one per explicit function-template
 * instantiation:
 *   static void *__hms_lint_instance_0 = (void *)&ns::name<args>;
 * as a malloc'd string, or NULL when there is none. To avoid a second parse,
 * give clang the file with this text appended (an unsaved file) in the
 * first place; ir_build.c reparses otherwise. */
char *hms_explicit_instantiation_refs(const char *text, size_t len);

#endif
