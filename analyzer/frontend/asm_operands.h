/* Inline-assembly operands without a separating comma:
 * `asm volatile("st.release.sys.global.u8 [%1], %0;" :: "r"(v) "l"(p) : "memory");`
 * nvcc accepts this (an official CUDA sample compiles it), clang stops with
 * "expected ')'". The blank between an operand's `)` and the next operand's
 * constraint string is made a comma in the text given to clang, never on
 * disk. */
#ifndef HMS_ASM_OPERANDS_H
#define HMS_ASM_OPERANDS_H

#include <stdbool.h>
#include <stddef.h>

/* Inside each asm statement's output and input operand lists only (after
 * its first and second top-level `:`), a `)` followed by spaces or tabs and
 * then `"` or `[` (the next operand) gets its first blank replaced by `,`:
 * same length, so every offset and line stays where it was. Operands
 * separated by nothing or only by line breaks are left as they are. True
 * when something changed. */
bool hms_join_asm_operands(char *text, size_t len);

#endif
