/* -p <build-dir>: checked once before any file is parsed, so that a missing
 * directory or a garbled compile_commands.json is an error (exit 2) rather
 * than a warning followed by analysis with the wrong flags. */
#ifndef HMS_ANALYZER_BUILD_DIR_CHECK_H
#define HMS_ANALYZER_BUILD_DIR_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* True when dir holds a readable compile_commands.json (a JSON array of
 * objects) or compile_flags.txt; else false with "<path>: <reason>" in err. */
bool hms_check_build_dir(const char *dir, char *err, size_t errlen);

#endif
