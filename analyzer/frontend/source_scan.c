/* Comments and literals in source text (source_scan.h). */
#include "analyzer/frontend/source_scan.h"

#include <ctype.h>
#include <stdbool.h>

size_t hms_skip_non_code(const char *text, size_t len, size_t i)
{
    char c = text[i], n = i + 1 < len ? text[i + 1] : '\0';
    if (c == '/' && n == '/') {
        while (i < len && text[i] != '\n')
            i++;
        return i < len ? i + 1 : len;
    }
    if (c == '/' && n == '*') {
        for (i += 2; i + 1 < len; i++)
            if (text[i] == '*' && text[i + 1] == '/')
                return i + 2;
        return len;
    }
    bool quote = c == '"' || (c == '\'' && !(i > 0 && isxdigit((unsigned char)text[i - 1])));
    if (!quote)
        return i;
    for (i++; i < len; i++) {
        if (text[i] == '\\')
            i++;
        else if (text[i] == c || text[i] == '\n')
            return i + 1;
    }
    return len;
}
