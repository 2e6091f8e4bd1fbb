/* Joining spaced launch chevrons (launch_chevrons.h). */
#include "analyzer/frontend/launch_chevrons.h"

#include <ctype.h>
#include <string.h>

#include "analyzer/frontend/source_scan.h"

static bool blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Is text[at] preceded (over blanks) by the identifier `operator`? */
static bool after_operator(const char *text, size_t at)
{
    size_t i = at;
    while (i > 0 && blank(text[i - 1]))
        i--;
    if (i < 8 || strncmp(text + i - 8, "operator", 8))
        return false;
    return i == 8 || !(isalnum((unsigned char)text[i - 9]) || text[i - 9] == '_');
}

/* `c` `c` blanks `c` at text[i] (the first two not part of a longer run):
 * the index of the third, else 0. */
static size_t spaced_triple(const char *text, size_t len, size_t i, char c)
{
    if (i + 3 >= len || text[i] != c || text[i + 1] != c || !blank(text[i + 2]))
        return 0;
    if (i > 0 && text[i - 1] == c)
        return 0;
    size_t j = i + 2;
    while (j < len && blank(text[j]))
        j++;
    if (j >= len || text[j] != c || (j + 1 < len && (text[j + 1] == c || text[j + 1] == '=')))
        return 0;
    return j;
}

/* text[i..j] = `cc` blanks `c` becomes `ccc` blanks. */
static void join(char *text, size_t i, size_t j, char c)
{
    text[i + 2] = c;
    for (size_t k = i + 3; k <= j; k++)
        text[k] = ' ';
}

bool hms_join_spaced_chevrons(char *text, size_t len)
{
    bool open = false, changed = false;
    for (size_t i = 0; i < len; i++) {
        size_t past = hms_skip_non_code(text, len, i);
        if (past != i) { /* a comment or a literal */
            i = past - 1;
            continue;
        }
        char c = text[i], n = i + 1 < len ? text[i + 1] : '\0';
        size_t j;
        if (!open && c == '<' && (j = spaced_triple(text, len, i, '<')) &&
            !after_operator(text, i)) {
            join(text, i, j, '<');
            open = changed = true;
            i = j;
        } else if (open && c == '>' && (j = spaced_triple(text, len, i, '>'))) {
            join(text, i, j, '>');
            open = false;
            i = j;
        } else if (open && c == '>' && n == '>' && i + 2 < len && text[i + 2] == '>') {
            open = false; /* closed unspaced */
            i += 2;
        }
    }
    return changed;
}
