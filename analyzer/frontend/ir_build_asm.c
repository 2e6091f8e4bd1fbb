/* Inline assembly: `asm volatile("bfind.u32 %0, %1;" : "=r"(ret) : "r"(word));`.
 * The memory it touches is not modelled (a limit says so). Each scalar
 * local it writes (an output operand) takes an unknown value marked
 * IRB_ASM_RESULT, instead of being read later as never assigned: when every
 * loop bound depends on it and no thread reaches an access, the keep-alive
 * retry (keep_alive.h) analyses the kernel with an assumed value for it. */
#include <string.h>

#include "analyzer/frontend/ir_build_impl.h"

/* The output operands of the asm statement c: the constraint strings
 * between its first and second top-level `:` (libclang lists the operand
 * expressions, outputs first, but not where the outputs end). */
static unsigned count_outputs(CXTranslationUnit tu, CXCursor c)
{
    CXToken *toks = NULL;
    unsigned n = 0, outputs = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
    int depth = 0, colons = 0;
    for (unsigned i = 0; i < n && colons < 2; i++) {
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(s) ? clang_getCString(s) : "";
        CXTokenKind k = clang_getTokenKind(toks[i]);
        if (k == CXToken_Punctuation && (!strcmp(t, "(") || !strcmp(t, "[")))
            depth++;
        else if (k == CXToken_Punctuation && (!strcmp(t, ")") || !strcmp(t, "]")))
            depth--;
        else if (k == CXToken_Punctuation && depth == 1 && !strcmp(t, ":"))
            colons++;
        else if (k == CXToken_Punctuation && depth == 1 && !strcmp(t, "::"))
            colons += 2;
        else if (k == CXToken_Literal && depth == 1 && colons == 1 && t[0] == '"')
            outputs++;
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, toks, n);
    return outputs;
}

void sb_asm_stmt(irb *b, CXCursor c)
{
    ir_loc loc = irb_loc(b, c);
    irb_limit(b, "inline assembly is not modelled: memory it touches is missing", NULL, loc);
    unsigned nout = count_outputs(b->tu, c);
    cursor_list l;
    irb_children(c, &l);
    for (unsigned i = 0, seen = 0; i < l.n && seen < nout; i++) {
        if (!clang_isExpression(clang_getCursorKind(l.v[i])))
            continue;
        seen++;
        CXCursor out = hms_cursor_strip(l.v[i]);
        if (clang_getCursorKind(out) != CXCursor_DeclRefExpr)
            continue;
        size_t bi = bind_find(b, clang_getCursorReferenced(out));
        if (bi == SIZE_MAX || b->binds[bi].kind != BIND_VAR)
            continue;
        char name[128];
        irb_spelling(out, name, sizeof name);
        xb_assign_var(b, bi, xb_unknown(b, c, IRB_ASM_INTO "'%s'", name), -1, c);
    }
    irb_list_free(&l);
}
