/* The libclang helpers of the front end (IR builder, launch sites, kernel
 * listing, constant folding): children, casts, bodies, source text,
 * locations, CUDA attributes, built-in headers. One rule each. */
#ifndef HMS_ANALYZER_CURSOR_UTIL_H
#define HMS_ANALYZER_CURSOR_UTIL_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

/* Number of direct children, and the i-th one (null cursor when absent). */
unsigned hms_cursor_nchildren(CXCursor c);
CXCursor hms_cursor_child(CXCursor c, unsigned i);

/* Skips parentheses and implicit conversions: a ParenExpr or UnexposedExpr
 * with exactly one expression or statement child (type references beside
 * it do not count). */
CXCursor hms_cursor_strip(CXCursor c);

/* A function's body (its CompoundStmt child); null cursor for a declaration. */
CXCursor hms_cursor_body(CXCursor fn);

/* The two children of a binary node (operator, subscript); false unless it has exactly two. */
bool hms_cursor_two_children(CXCursor c, CXCursor *x, CXCursor *y);

/* Does the declaration carry this attribute cursor kind (e.g. CXCursor_CUDAGlobalAttr)? */
bool hms_cursor_has_attr(CXCursor c, enum CXCursorKind attr);

/* A __global__ function or function template. */
bool hms_cursor_is_kernel(CXCursor c);

/* File, line and column where the cursor starts (macro uses map to where the
 * macro was expanded); the file name is malloc'd, NULL when unknown. */
char *hms_cursor_file(CXCursor c, unsigned *line, unsigned *col);

/* Byte range [*begin, *end) of the cursor in its (expansion) file; false when
 * the extent is not in one file. */
bool hms_cursor_offsets(CXCursor c, CXFile *file, unsigned *begin, unsigned *end);

/* Is inner's source range inside outer's, in the same file? False for a
 * default argument, whose expression lives at the callee's declaration. */
bool hms_cursor_within(CXCursor inner, CXCursor outer);

/* The source text of the cursor, whitespace runs collapsed to one space;
 * malloc'd; "" when unavailable. */
char *hms_cursor_text(CXTranslationUnit tu, CXCursor c);

/* clang_getCursorSpelling / USR / type spelling as malloc'd C strings. */
char *hms_cursor_spelling(CXCursor c);
char *hms_cursor_usr(CXCursor c);
char *hms_type_spelling(CXType t);

/* The one type classifier of the front end: what an arithmetic type is
 * (typedefs and enums see through to the integer type underneath; bool is a
 * 1-bit unsigned integer; bits from the type's size). Anything else
 * (pointers, records, dependent types) is HMS_TYPE_OTHER. */
typedef enum { HMS_TYPE_OTHER = 0, HMS_TYPE_INTEGER, HMS_TYPE_FLOATING } hms_type_family;
typedef struct {
    hms_type_family family;
    unsigned bits;
    bool is_unsigned;
} hms_type_class;
hms_type_class hms_type_classify(CXType t);

/* Is the cursor's location inside a system header or inside hms-lint's own
 * hermetic CUDA headers (the directory hms_builtin_include_dir())? */
bool hms_cursor_in_builtin_header(CXCursor c);

#endif
