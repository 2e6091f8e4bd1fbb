/* The checks' documentation pages (docs/checks/<name>.md), embedded at build
 * time by cmake/embed_files.cmake, so report writers can quote them
 * (SARIF rule help, the HTML report) without data files at run time. */
#ifndef HMS_ANALYZER_CHECK_DOCS_H
#define HMS_ANALYZER_CHECK_DOCS_H

struct hms_embedded_doc {
    const char *name; /* "hms-shared-bank-conflict" */
    const char *text; /* the whole markdown page */
};

/* Terminated by {0, 0}; generated. */
extern const struct hms_embedded_doc hms_embedded_check_docs[];

/* The page of a check, or NULL when it has none. */
const char *hms_check_doc(const char *name);

/* The text of the "## <heading>" section, trimmed, without the heading
 * (malloc'd), or NULL when the page or the section is missing. */
char *hms_check_doc_section(const char *name, const char *heading);

#endif
