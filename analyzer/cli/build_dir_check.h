/* -p <build-dir>: checked once before any file is parsed, so that a missing
 * directory or a garbled compile_commands.json is an error (exit 2) rather
 * than a warning followed by analysis with the wrong flags. */
#ifndef HMS_ANALYZER_BUILD_DIR_CHECK_H
#define HMS_ANALYZER_BUILD_DIR_CHECK_H

#include <stdbool.h>

#include "runtime/file_error.h"

/* True when dir holds a well-formed compile_commands.json (compile_db_load.h)
 * or a readable compile_flags.txt; else false with err at the directory or
 * the database (line and column of a JSON syntax error). */
bool hms_check_build_dir(const char *dir, hms_file_error *err);

#endif
