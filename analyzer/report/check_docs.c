/* Lookup in the embedded check pages (see check_docs.h). */
#include "analyzer/report/check_docs.h"

#include <stdlib.h>
#include <string.h>

const char *hms_check_doc(const char *name)
{
    for (const struct hms_embedded_doc *d = hms_embedded_check_docs; name && d->name; d++)
        if (!strcmp(d->name, name))
            return d->text;
    return NULL;
}

/* Start of the line after "## heading", or NULL. */
static const char *section_start(const char *doc, const char *heading)
{
    size_t hl = strlen(heading);
    for (const char *p = doc; p && *p;) {
        if (!strncmp(p, "## ", 3) && !strncmp(p + 3, heading, hl) &&
            (p[3 + hl] == '\n' || p[3 + hl] == '\r' || p[3 + hl] == '\0')) {
            const char *nl = strchr(p, '\n');
            return nl ? nl + 1 : p + strlen(p);
        }
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : NULL;
    }
    return NULL;
}

char *hms_check_doc_section(const char *name, const char *heading)
{
    const char *doc = hms_check_doc(name);
    const char *s = doc ? section_start(doc, heading) : NULL;
    if (!s)
        return NULL;
    /* The section ends at the next heading of level 1 or 2. */
    const char *e = s;
    while (*e) {
        if (e[0] == '#' && (e[1] == ' ' || (e[1] == '#' && e[2] == ' ')))
            break;
        const char *nl = strchr(e, '\n');
        e = nl ? nl + 1 : e + strlen(e);
    }
    while (s < e && (*s == '\n' || *s == ' '))
        s++;
    while (e > s && (e[-1] == '\n' || e[-1] == ' '))
        e--;
    return e > s ? strndup(s, (size_t)(e - s)) : NULL;
}
