/* --source-root: the directory report paths are relative to (SARIF
 * %SRCROOT%, baselines). Default: the top of the git work tree holding the
 * current directory, else the current directory. */
#ifndef HMS_ANALYZER_SOURCE_ROOT_H
#define HMS_ANALYZER_SOURCE_ROOT_H

#include <stddef.h>

#include "runtime/file_error.h"

/* Absolute, canonical (malloc'd); NULL with err at `given` when it is not a
 * directory. */
char *hms_source_root_find(const char *given, hms_file_error *err);

/* `path` as an absolute path with "." and ".." resolved (symlinks too when
 * it exists); malloc'd. */
char *hms_absolute_path(const char *path);

/* `path` relative to `root` when it lies under it ("src/k.cu"), else NULL;
 * malloc'd. */
char *hms_path_under_root(const char *root, const char *path);

#endif
