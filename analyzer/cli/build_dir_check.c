/* See build_dir_check.h. */
#include "analyzer/cli/build_dir_check.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool hms_check_build_dir(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "%s: %s (the -p build directory)", dir, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory (-p expects the build directory)", dir);
        return false;
    }
    char *json = NULL, *flags = NULL;
    if (asprintf(&json, "%s/compile_commands.json", dir) < 0)
        json = NULL;
    if (asprintf(&flags, "%s/compile_flags.txt", dir) < 0)
        flags = NULL;
    bool ok = false;
    if (!json || !flags) {
        snprintf(err, errlen, "%s: out of memory", dir);
    } else if (access(json, F_OK) != 0) {
        ok = access(flags, R_OK) == 0;
        if (!ok)
            snprintf(err, errlen, "%s: no compile_commands.json or compile_flags.txt", dir);
    } else {
        json_error_t je;
        json_t *db = json_load_file(json, 0, &je);
        size_t i;
        json_t *entry;
        ok = db && json_is_array(db);
        json_array_foreach(ok ? db : NULL, i, entry) ok &= json_is_object(entry);
        if (!db)
            snprintf(err, errlen, "%s:%d:%d: malformed compile database: %s", json, je.line,
                     je.column, je.text);
        else if (!ok)
            snprintf(err, errlen,
                     "%s: malformed compile database: not a JSON array of compile commands objects",
                     json);
        json_decref(db);
    }
    free(json);
    free(flags);
    return ok;
}
