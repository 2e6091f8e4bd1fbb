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

#include "analyzer/frontend/launch_sites.h"

/* A value given to a variable from outside the function: a parameter bound
 * to the argument of one call of the function, or a loop variable bound to
 * one of its iterations. */
typedef struct {
    CXCursor var; /* ParmDecl or VarDecl */
    bool is_float;
    int64_t i;
    double d;
    int member; /* -1: the variable; 0..2: .x/.y/.z of a dim3 parameter */
} hms_fold_binding;

/* Where a value is wanted: the function holding the site and the statements
 * enclosing it (outermost first), which decide what "straight-line code
 * before the site" is. A site with no function (file scope) only folds
 * constants. Parameters fold only through binds (a parameter reassigned
 * before the site folds through its assignments as a local does); a bound
 * VarDecl takes its bound value wherever it is read. Inside `case V:` of
 * `switch (x)`, x folds to V when no other label can reach the site. */
typedef struct {
    CXTranslationUnit tu;
    CXCursor function;
    const CXCursor *chain;
    size_t nchain;
    unsigned offset; /* byte offset of the site in its file */
    const hms_fold_binding *binds;
    size_t nbinds;
} hms_fold_site;

/* Is t dim3 or uint3 (or a reference to one)? */
bool hms_is_dim3_type(CXType t);

/* Folds an integer (or integral-valued floating) expression. */
bool hms_fold_int(const hms_fold_site *site, CXCursor expr, int64_t *out);

/* Folds an arithmetic expression (integral or floating) into a binding's
 * value; out->var is left alone. */
bool hms_fold_value(const hms_fold_site *site, CXCursor expr, hms_fold_binding *out);

/* The values a counted loop `for (int j = A; j < B; j++)` gives its variable
 * (also <=, >, >=, !=, j += c, j -= c, j *= c, j <<= c, --/++ either side) when
 * A, B and c fold at site and the body never writes j. Returns how many
 * (0: not such a loop, or more than max) with the variable in *var. */
size_t hms_fold_loop_values(const hms_fold_site *site, CXCursor loop, CXCursor *var,
                            int64_t *values, size_t max);

/* False when an enclosing if or switch whose condition folds at site
 * (binds included) cannot take the branch holding the site. */
bool hms_fold_site_reachable(const hms_fold_site *site);

/* Folds a dim3-valued expression (or an integer converted to dim3) into
 * three components; each gets its own folded flag and source text ("1" for a
 * defaulted component). Returns true when all three fold. */
bool hms_fold_dim3(const hms_fold_site *site, CXCursor expr, hms_folded_arg out[3]);

#endif
