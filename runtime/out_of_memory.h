/* Out of memory where the caller cannot go on: one message and one way out
 * for every layer. Printed straight to stderr without allocating (the
 * diagnostic sink needs memory to record anything), in the sink's form
 * "hms-lint: fatal: out of memory", then abort(): in a forked worker the
 * driver reports the file as lost, and a fuzzer sees a crash. */
#ifndef HMS_RUNTIME_OUT_OF_MEMORY_H
#define HMS_RUNTIME_OUT_OF_MEMORY_H

#include <stddef.h>

_Noreturn void hms_out_of_memory(void);

/* realloc(p, n) that never returns NULL (n > 0). */
void *hms_xrealloc(void *p, size_t n);

#endif
