/* A small RFC 4180 CSV reader: quoted cells, doubled quotes, commas and
 * newlines inside quotes, CRLF. Enough for measurement tables and Nsight
 * Compute's `--csv` export. */
#ifndef HMS_ANALYZER_CSV_H
#define HMS_ANALYZER_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/file_error.h"

typedef struct {
    char **cell;
    size_t ncells;
    unsigned line; /* line the row starts on (1-based) */
} hms_csv_row;

typedef struct {
    hms_csv_row *row;
    size_t nrows;
} hms_csv;

/* Reads the whole file; blank lines are skipped. False with the
 * file (and line, for an unterminated quote) and the reason in err. */
bool hms_csv_read(const char *path, hms_csv *out, hms_file_error *err);
void hms_csv_free(hms_csv *c);

#endif
