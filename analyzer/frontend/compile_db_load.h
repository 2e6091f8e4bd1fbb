/* compile_commands.json read and checked in one place, for both users: the
 * -p check before any file is parsed (analyzer/cli/build_dir_check.c) and
 * the listing of the database's sources (compile_db_sources.c), so that a
 * malformed database gets one message whichever path finds it. */
#ifndef HMS_ANALYZER_COMPILE_DB_LOAD_H
#define HMS_ANALYZER_COMPILE_DB_LOAD_H

#include <jansson.h>

#include "runtime/file_error.h"

/* The database at `path`: a JSON array of objects, each with "directory"
 * and "file" strings (what the JSON compilation database format requires
 * and what hms-lint reads). NULL when it cannot be read or has another
 * shape, with err at the file (and jansson's line and column for a syntax
 * error), message "malformed compile database: <why>". Caller json_decref()s. */
json_t *hms_compile_db_load(const char *path, hms_file_error *err);

#endif
