/* From hms-lint's JSON report (docs/report-format.md) to LSP objects:
 * diagnostics, quick-fix code actions and hover text. Positions go from the
 * report's 1-based byte columns to LSP's 0-based UTF-16 ones through the text
 * that was linted. */
#ifndef HMS_LSP_CONVERT_H
#define HMS_LSP_CONVERT_H

#include <jansson.h>

/* file:// URI <-> path (percent-encoding both ways). Results malloc'd; NULL
 * for a URI that is not a file:// one. */
char *hms_lsp_uri_to_path(const char *uri);
char *hms_lsp_path_to_uri(const char *path);

/* LSP position {line, character} of a 1-based line and byte column of text. */
json_t *hms_lsp_position(const char *text, long line, long col);
/* The 1-based byte column of a 0-based UTF-16 character on a 0-based line. */
long hms_lsp_byte_column(const char *text, long line0, long character);

/* Diagnostic[] for one file of a report (`file` the report's files[] entry,
 * NULL: none): findings with their notes as relatedInformation, and the
 * run's `notifications` (the report's top level, structured records): its
 * errors and the warnings at the linted file (a clang error with its code
 * hms-parse-error, a header not found at its #include). */
json_t *hms_lsp_diagnostics(json_t *file, json_t *notifications, const char *text, const char *uri);

/* CodeAction[] (quickfix) for the fix-its of findings whose range meets the
 * 0-based LSP range [l0, l1]. */
json_t *hms_lsp_code_actions(json_t *file, const char *text, const char *uri, long l0, long l1);

/* Hover for the access at the 0-based position: its figures and the
 * placement ranking of its array; NULL (json null) when no access is there. */
json_t *hms_lsp_hover(json_t *file, const char *text, long line0, long character);

#endif
