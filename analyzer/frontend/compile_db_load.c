/* See compile_db_load.h. */
#include "analyzer/frontend/compile_db_load.h"

#define MALFORMED "malformed compile database: "

json_t *hms_compile_db_load(const char *path, hms_file_error *err)
{
    json_error_t je;
    json_t *db = json_load_file(path, 0, &je);
    if (!db) {
        /* line -1: jansson could not open or read the file; no position */
        unsigned line = je.line > 0 ? (unsigned)je.line : 0;
        unsigned col = je.column > 0 ? (unsigned)je.column : 0;
        if (line)
            hms_file_error_set(err, path, line, col, MALFORMED "%s", je.text);
        else
            hms_file_error_set(err, path, 0, 0, "%s", je.text);
        return NULL;
    }
    if (!json_is_array(db)) {
        json_decref(db);
        hms_file_error_set(err, path, 0, 0, MALFORMED "not a JSON array of compile commands");
        return NULL;
    }
    size_t i;
    json_t *e;
    json_array_foreach(db, i, e)
    {
        if (!json_is_string(json_object_get(e, "file")) ||
            !json_is_string(json_object_get(e, "directory"))) {
            json_decref(db);
            hms_file_error_set(err, path, 0, 0,
                               MALFORMED "entry %zu is not an object with \"directory\" and "
                                         "\"file\" strings",
                               i + 1);
            return NULL;
        }
    }
    return db;
}
