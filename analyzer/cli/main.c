#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "analyzer/cli/commands.h"

/* glibc hands allocations above its mmap threshold (128 KiB, rising with
 * use) straight back to the kernel on free, and trims the heap above 128
 * KiB of free top. Each kernel's trace stream and simulation state are tens
 * of MB, allocated and freed kernel after kernel, so every kernel paid its
 * page faults again (7 % of lint CPU, docs/performance.md). Keeping freed
 * memory for the next kernel costs no more than the largest kernel's peak. */
static void keep_freed_memory(void)
{
#if defined(__GLIBC__)
    (void)mallopt(M_MMAP_THRESHOLD, 512 << 20);
    (void)mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

int main(int argc, char **argv)
{
    keep_freed_memory();
    return hms_main(argc, argv);
}
