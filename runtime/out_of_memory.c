/* See out_of_memory.h. */
#include "runtime/out_of_memory.h"

#include <stdio.h>
#include <stdlib.h>

void hms_out_of_memory(void)
{
    fputs("hms-lint: fatal: out of memory\n", stderr);
    abort();
}

void *hms_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q)
        hms_out_of_memory();
    return q;
}
