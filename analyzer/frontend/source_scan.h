/* Walking C/C++ source text for the in-memory rewrites of nvcc's dialect
 * (launch_chevrons.h, asm_operands.h): what is code and what is a comment
 * or a literal, which a rewrite must never touch. */
#ifndef HMS_SOURCE_SCAN_H
#define HMS_SOURCE_SCAN_H

#include <stddef.h>

/* When text[i] opens a comment, a string or a character literal, the index
 * just past its end (a // comment ends with its newline, an unterminated
 * literal at the end of its line); otherwise i itself. A `'` after a hex
 * digit is a digit separator (1'000), not a literal. */
size_t hms_skip_non_code(const char *text, size_t len, size_t i);

#endif
