/* `hms-lint -p <build-dir>` with no file names lints the database, as
 * run-clang-tidy does: this lists its CUDA sources. */
#ifndef HMS_ANALYZER_COMPILE_DB_SOURCES_H
#define HMS_ANALYZER_COMPILE_DB_SOURCES_H

#include <stdbool.h>
#include <stdio.h>

#include "analyzer/frontend/compile_flags.h"
#include "analyzer/report/diag_sink.h"

/* Every CUDA source of <build_dir>/compile_commands.json (a .cu file, or an
 * entry compiled with -x cu), absolute, each once, in database order. False
 * with "<file>[:line:col]: error: <reason>" in diags when the
 * database is missing or malformed. */
bool hms_compile_db_cuda_sources(const char *build_dir, hms_flag_list *out, hms_diag_sink *diags);

#endif
