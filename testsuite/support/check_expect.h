/* Inline expectations for the checks' test kernels (the .cu files under
 * testsuite/kernels/checks), on top of expect.h:
 *   // EXPECT-WARNING: [@+N|@-N] <check> [<piece of the message>]
 *   // EXPECT-NOTE: ...      // EXPECT-ERROR: ...
 *   // EXPECT-NO: [@+N|@-N] <check>         (no finding of <check> there)
 *   // EXPECT-ARCHES: h100 gt200            (architectures to run the file on)
 * A directive applies to its own line, or N lines below/above. A suffix
 * -<ARCH> on the tag (EXPECT-WARNING-GT200) limits it to that architecture.
 * Within a kernel (from its line to the next kernel's), every warning of a
 * check some directive there names must match an EXPECT-WARNING. */
#ifndef HMS_TEST_CHECK_EXPECT_H
#define HMS_TEST_CHECK_EXPECT_H

#include <stddef.h>

typedef struct {
    const char *check, *severity, *message;
    unsigned line;
} hms_seen;

typedef struct {
    hms_seen *v;
    size_t n;
    unsigned *kernel_lines; /* line of each kernel */
    size_t nkernels;
} hms_seen_list;

/* Checks `seen` (what one run on `arch` reported for the file at path)
 * against the file's directives. Returns NULL when every expectation holds,
 * else a malloc'd description of each failure. *ndirectives (may be NULL)
 * gets how many directives applied. */
char *hms_check_expectations(const char *path, const char *arch, const hms_seen_list *seen,
                             size_t *ndirectives);

/* The architectures named by EXPECT-ARCHES (lower case), default "h100";
 * returns how many were written (at most max). */
size_t hms_expect_arches(const char *path, char arches[][16], size_t max);

#endif
