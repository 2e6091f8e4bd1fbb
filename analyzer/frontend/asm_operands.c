/* Commas between adjacent inline-assembly operands (asm_operands.h). */
#include "analyzer/frontend/asm_operands.h"

#include <ctype.h>
#include <string.h>

#include "analyzer/frontend/source_scan.h"

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Length of the identifier at text[i], 0 when none starts there. */
static size_t ident_at(const char *text, size_t len, size_t i)
{
    if (i > 0 && ident_char(text[i - 1]))
        return 0;
    size_t j = i;
    while (j < len && ident_char(text[j]))
        j++;
    return isdigit((unsigned char)text[i]) ? 0 : j - i;
}

static bool word_is(const char *w, size_t n, const char *const *set)
{
    for (; *set; set++)
        if (strlen(*set) == n && !strncmp(w, *set, n))
            return true;
    return false;
}

static const char *const asm_words[] = {"asm", "__asm", "__asm__", NULL};
static const char *const qualifiers[] = {"volatile", "__volatile", "__volatile__",
                                         "inline",   "goto",       NULL};

/* The index of the `(` opening an asm statement whose keyword ends at i
 * (over blanks, comments and qualifiers), else 0. */
static size_t asm_open_paren(const char *text, size_t len, size_t i)
{
    while (i < len) {
        size_t past = hms_skip_non_code(text, len, i);
        if (past != i && text[i] == '/') {
            i = past;
            continue;
        }
        if (isspace((unsigned char)text[i])) {
            i++;
            continue;
        }
        size_t n = ident_at(text, len, i);
        if (n && word_is(text + i, n, qualifiers)) {
            i += n;
            continue;
        }
        return text[i] == '(' ? i : 0;
    }
    return 0;
}

/* text[at] begins an operand (`"` or `[`) in an operand list: when the code
 * before it over blanks is an operand's `)`, the first space or tab after
 * that `)` becomes a comma. */
static bool add_comma(char *text, size_t at)
{
    size_t b = at;
    while (b > 0 && isspace((unsigned char)text[b - 1]))
        b--;
    if (b == 0 || b == at || text[b - 1] != ')')
        return false;
    for (size_t k = b; k < at; k++)
        if (text[k] == ' ' || text[k] == '\t') {
            text[k] = ',';
            return true;
        }
    return false; /* only line breaks between them: left alone */
}

/* Walks the asm statement whose `(` is at open; returns the index of its
 * closing `)` (or len). */
static size_t rewrite_statement(char *text, size_t len, size_t open, bool *changed)
{
    int depth = 1, colons = 0;
    for (size_t i = open + 1; i < len; i++) {
        char c = text[i];
        if (depth == 1 && colons >= 1 && colons <= 2 && (c == '"' || c == '['))
            *changed |= add_comma(text, i);
        size_t past = hms_skip_non_code(text, len, i);
        if (past != i) {
            i = past - 1;
            continue;
        }
        if (c == '(' || c == '[')
            depth++;
        else if ((c == ')' || c == ']') && --depth == 0)
            return i;
        else if (c == ':' && depth == 1)
            colons++;
        else if (c == ';')
            return i; /* unbalanced: not an asm statement after all */
    }
    return len;
}

bool hms_join_asm_operands(char *text, size_t len)
{
    bool changed = false;
    for (size_t i = 0; i < len; i++) {
        size_t past = hms_skip_non_code(text, len, i);
        if (past != i) {
            i = past - 1;
            continue;
        }
        size_t n = ident_at(text, len, i);
        if (!n)
            continue;
        size_t open = word_is(text + i, n, asm_words) ? asm_open_paren(text, len, i + n) : 0;
        i = open ? rewrite_statement(text, len, open, &changed) : i + n - 1;
    }
    return changed;
}
