/* Fix-its of the reported findings: exported as clang-apply-replacements
 * YAML (--export-fixes) or applied to the sources (--fix). Positions are
 * converted from line:col (1-based, bytes, end exclusive) to byte offsets
 * with the source text as it is on disk now. */
#ifndef HMS_ANALYZER_FIXES_H
#define HMS_ANALYZER_FIXES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analyzer/report/diag_sink.h"
#include "analyzer/report/source_cache.h"
#include "passes/findings.h"

/* clang-tidy --export-fixes layout: MainSourceFile, Diagnostics[] {
 * DiagnosticName, DiagnosticMessage {Message, FilePath, FileOffset,
 * Replacements[] {FilePath, Offset, Length, ReplacementText}}, Level }.
 * `main_file` is the single input ("" when several). Fix-its whose position
 * is outside their file are left out with a warning in said. */
bool hms_write_fixes_yaml(const hms_report *r, hms_source_cache *src, const char *main_file,
                          FILE *out, hms_diag_sink *said);

/* Applies every fix-it, file by file, back to front, each file rewritten
 * atomically. Taking findings in report order, a replacement that overlaps
 * one already accepted is skipped with a warning (in said, as is a note of
 * each file rewritten); identical duplicates are applied once. Returns
 * false when a file could not be rewritten. *applied (may be NULL) gets the
 * count applied. */
bool hms_apply_fixes(const hms_report *r, hms_source_cache *src, hms_diag_sink *said,
                     size_t *applied);

#endif
