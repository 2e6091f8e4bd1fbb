/* Integer constant expressions given as source text ("(64 / (8 * 4)) + 1"),
 * evaluated the way C++ evaluates them on 64-bit integers. Used where a
 * kernel's template argument is spelled in terms of a host template's
 * parameters and local constants, after those names are replaced by values. */
#ifndef HMS_ANALYZER_INT_EXPR_TEXT_H
#define HMS_ANALYZER_INT_EXPR_TEXT_H

#include <stdbool.h>

/* Literals (decimal, hex, octal, with u/l suffixes), true/false, parentheses,
 * unary + - ~ !, * / %, + -, << >>, comparisons, & ^ |, && ||, and ?:.
 * False for anything else (a name, a cast, sizeof), on overflow, and on
 * division by zero. */
bool hms_int_expr_text(const char *text, long long *out);

#endif
