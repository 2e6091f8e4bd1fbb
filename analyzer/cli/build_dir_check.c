/* See build_dir_check.h. */
#include "analyzer/cli/build_dir_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer/frontend/compile_db_load.h"

bool hms_check_build_dir(const char *dir, hms_file_error *err)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return hms_file_error_set(err, dir, 0, 0, "%s (the -p build directory)", strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return hms_file_error_set(err, dir, 0, 0,
                                  "not a directory (-p expects the build directory)");
    char *json = NULL, *flags = NULL;
    if (asprintf(&json, "%s/compile_commands.json", dir) < 0)
        json = NULL;
    if (asprintf(&flags, "%s/compile_flags.txt", dir) < 0)
        flags = NULL;
    bool ok = false;
    if (!json || !flags) {
        hms_file_error_set(err, dir, 0, 0, "out of memory");
    } else if (access(json, F_OK) != 0) {
        ok = access(flags, R_OK) == 0;
        if (!ok)
            hms_file_error_set(err, dir, 0, 0, "no compile_commands.json or compile_flags.txt");
    } else {
        json_t *db = hms_compile_db_load(json, err);
        ok = db != NULL;
        json_decref(db);
    }
    free(json);
    free(flags);
    return ok;
}
