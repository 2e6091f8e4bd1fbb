/* Listing a compile database's CUDA sources (jansson: its own errors carry
 * line and column, which libclang's loader does not report). */
#include "analyzer/frontend/compile_db_sources.h"

#include "analyzer/frontend/compile_db_load.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Is the entry compiled as CUDA: a .cu file, or "-x cu" in its command? */
static bool is_cuda(const char *file, json_t *entry)
{
    if (ends_with(file, ".cu"))
        return true;
    const char *cmd = json_string_value(json_object_get(entry, "command"));
    if (cmd && (strstr(cmd, " -x cu ") || strstr(cmd, " -x cuda ")))
        return true;
    json_t *args = json_object_get(entry, "arguments"), *a;
    size_t i;
    bool after_x = false;
    json_array_foreach(args, i, a)
    {
        const char *s = json_string_value(a);
        if (s && after_x && (strcmp(s, "cu") == 0 || strcmp(s, "cuda") == 0))
            return true;
        after_x = s && strcmp(s, "-x") == 0;
    }
    return false;
}

bool hms_compile_db_cuda_sources(const char *build_dir, hms_flag_list *out, hms_diag_sink *diags)
{
    char *path = NULL;
    if (asprintf(&path, "%s/compile_commands.json", build_dir) < 0)
        return false;
    hms_file_error why;
    json_t *db = hms_compile_db_load(path, &why);
    if (!db) {
        hms_diag_file_error(diags, HMS_DIAG_ERROR, &why);
        free(path);
        return false;
    }
    size_t i;
    json_t *e;
    json_array_foreach(db, i, e)
    {
        const char *file = json_string_value(json_object_get(e, "file"));
        const char *dir = json_string_value(json_object_get(e, "directory"));
        if (!is_cuda(file, e))
            continue;
        char *abs = NULL;
        if (file[0] == '/')
            abs = strdup(file);
        else if (asprintf(&abs, "%s/%s", dir, file) < 0)
            abs = NULL;
        if (!abs)
            continue;
        bool seen = false;
        for (size_t k = 0; k < out->n && !seen; k++)
            seen = strcmp(out->v[k], abs) == 0;
        if (!seen)
            hms_flag_list_push(out, abs);
        free(abs);
    }
    json_decref(db);
    free(path);
    return true;
}
