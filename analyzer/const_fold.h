/* Folding host-side expressions to numbers: launch configurations and kernel
 * arguments at a `<<<...>>>` site. Handles literals, sizeof, enum constants,
 * const/constexpr variables, locals whose value is known from their
 * initializer or the last assignment before the site in straight-line code,
 * arithmetic (+ - * / % << >> & | ^, comparisons, ?:, casts), min/max and
 * ceil/floor, constexpr calls (via clang_Cursor_Evaluate), and dim3 values
 * (constructors, brace init, copies, .x/.y/.z member assignments). */
#ifndef HMS_ANALYZER_CONST_FOLD_H
#define HMS_ANALYZER_CONST_FOLD_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/launch_sites.h"

/* Where a value is wanted: the function holding the site and the statements
 * enclosing it (outermost first), which decide what "straight-line code
 * before the site" is. A site with no function (file scope) only folds
 * constants. */
typedef struct {
    CXTranslationUnit tu;
    CXCursor function;
    const CXCursor *chain;
    size_t nchain;
    unsigned offset; /* byte offset of the site in its file */
} hms_fold_site;

/* Folds an integer (or integral-valued floating) expression. */
bool hms_fold_int(const hms_fold_site *site, CXCursor expr, int64_t *out);

/* Folds a dim3-valued expression (or an integer converted to dim3) into
 * three components; each gets its own folded flag and source text ("1" for a
 * defaulted component). Returns true when all three fold. */
bool hms_fold_dim3(const hms_fold_site *site, CXCursor expr, hms_folded_arg out[3]);

#endif
