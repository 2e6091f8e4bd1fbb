/* Inline expectations in test sources: comment lines of the form
 *     // EXPECT-<TAG>: <text>
 * collected with their line numbers, and a matcher for tool output lines. */
#ifndef HMS_TEST_EXPECT_H
#define HMS_TEST_EXPECT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *tag;     /* "KERNEL", "SHARED", "NO-KERNEL", ... (what follows "EXPECT-") */
    char *text;    /* after ": ", trailing blanks removed */
    unsigned line; /* 1-based line of the comment */
} hms_expect;

typedef struct {
    hms_expect *v;
    size_t n;
} hms_expect_list;

/* Collects every EXPECT- directive of the file at path, in order. A tag is
 * letters, digits and '-'; the directive may follow code on the same line.
 * Returns false when the file cannot be read. */
bool hms_expect_collect(const char *path, hms_expect_list *out);
void hms_expect_list_free(hms_expect_list *l);

/* Does `line` contain `expect`? The expectation is cut into pieces before
 * each " key=" (a word followed by '='); the pieces must occur in `line` in
 * that order, each starting and ending at a word boundary, with anything in
 * between. "k grid=(1,1,1) shared=0" matches "launch k line=3 grid=(1,1,1)
 * block=(32,1,1) shared=0" but not "launch k2 grid=(1,1,1) shared=0". */
bool hms_expect_line_matches(const char *line, const char *expect);

/* The first line of `output` whose text after "<location>: <word> " (word
 * being e.g. "kernel") matches `expect`, as a malloc'd string; NULL if none.
 * With word NULL every whole line is tried. */
char *hms_expect_find_line(const char *output, const char *word, const char *expect);

#endif
