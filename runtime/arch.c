/* The architecture registry: built-in descriptions (the YAML files embedded at
 * build time, parsed once) and user files loaded by path (parsed once per path
 * and kept for the life of the process, so returned pointers stay valid). */
#include "runtime/arch.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "runtime/arch_embedded.h"

#define MAX_BUILTINS 32
#define MAX_FILE_BYTES (1 << 20)

static hms_arch builtins[MAX_BUILTINS];
static size_t builtin_count;
static char builtin_error[512]; /* set if an embedded file is broken: a build bug */
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

typedef struct user_arch {
    struct user_arch *next;
    char *path;
    hms_arch arch;
} user_arch;

static user_arch *user_arches;
static pthread_mutex_t user_lock = PTHREAD_MUTEX_INITIALIZER;

static bool arch_answers_to(const hms_arch *a, const char *name)
{
    if (strcasecmp(a->name, name) == 0 || strcasecmp(a->sm, name) == 0)
        return true;
    for (int i = 0; i < a->alias_count; i++)
        if (strcasecmp(a->aliases[i], name) == 0)
            return true;
    return false;
}

static int by_compute_capability(const void *x, const void *y)
{
    const hms_arch *a = x, *b = y;
    int ka = a->cc_major * 10 + a->cc_minor, kb = b->cc_major * 10 + b->cc_minor;
    return ka != kb ? (ka > kb) - (ka < kb) : strcmp(a->name, b->name);
}

/* Every name a built-in answers to must select exactly one of them. */
static bool names_unique(void)
{
    for (size_t i = 0; i < builtin_count; i++) {
        const hms_arch *a = &builtins[i];
        for (size_t j = i + 1; j < builtin_count; j++) {
            const hms_arch *b = &builtins[j];
            const char *clash = arch_answers_to(b, a->name) ? a->name
                                : arch_answers_to(b, a->sm) ? a->sm
                                                            : NULL;
            for (int k = 0; !clash && k < a->alias_count; k++)
                if (arch_answers_to(b, a->aliases[k]))
                    clash = a->aliases[k];
            if (clash) {
                snprintf(builtin_error, sizeof builtin_error,
                         "<builtin>: '%.31s' names both %.31s and %.31s", clash, a->name, b->name);
                return false;
            }
        }
    }
    return true;
}

static void load_builtins(void)
{
    for (const struct hms_embedded_arch *e = hms_embedded_arches; e->stem; e++) {
        char origin[96], err[512];
        snprintf(origin, sizeof origin, "<builtin>/%s.yaml", e->stem);
        if (builtin_count == MAX_BUILTINS) {
            snprintf(builtin_error, sizeof builtin_error, "%s: more than %d built-in arches",
                     origin, MAX_BUILTINS);
            return;
        }
        hms_arch *a = &builtins[builtin_count];
        if (!hms_arch_parse(e->yaml, strlen(e->yaml), origin, a, err, sizeof err)) {
            snprintf(builtin_error, sizeof builtin_error, "%s", err);
            return;
        }
        if (strcmp(a->name, e->stem) != 0) {
            snprintf(builtin_error, sizeof builtin_error,
                     "%s: name '%s' does not match the file name", origin, a->name);
            return;
        }
        snprintf(a->source_path, sizeof a->source_path, "<builtin>");
        builtin_count++;
    }
    qsort(builtins, builtin_count, sizeof builtins[0], by_compute_capability);
    if (!names_unique())
        builtin_count = 0;
}

static bool builtins_ready(void)
{
    pthread_once(&builtin_once, load_builtins);
    return builtin_error[0] == '\0';
}

size_t hms_arch_builtin_count(void)
{
    return builtins_ready() ? builtin_count : 0;
}

const hms_arch *hms_arch_builtin(size_t i)
{
    return i < hms_arch_builtin_count() ? &builtins[i] : NULL;
}

/* "gt200/sm_13, fermi/sm_21, ..." for error messages. */
static void known_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < builtin_count && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s/%s", i ? ", " : "", builtins[i].name,
                                 builtins[i].sm);
}

static char *read_whole(const char *path, size_t *len, hms_file_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        hms_file_error_set(err, path, 0, 0, "cannot read: %s", strerror(errno));
        return NULL;
    }
    char *buf = malloc(MAX_FILE_BYTES + 1);
    size_t n = buf ? fread(buf, 1, MAX_FILE_BYTES + 1, f) : 0;
    bool bad = ferror(f);
    fclose(f);
    if (!buf || bad || n > MAX_FILE_BYTES) {
        hms_file_error_set(err, path, 0, 0, "%s",
                           !buf  ? "out of memory"
                           : bad ? "read error"
                                 : "larger than 1 MB; not an architecture description");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static const hms_arch *load_user_file(const char *path, hms_file_error *err)
{
    pthread_mutex_lock(&user_lock);
    for (user_arch *u = user_arches; u; u = u->next) {
        if (strcmp(u->path, path) == 0) {
            pthread_mutex_unlock(&user_lock);
            return &u->arch;
        }
    }
    size_t len = 0;
    char *text = read_whole(path, &len, err);
    user_arch *u = text ? calloc(1, sizeof *u) : NULL;
    if (text && !u)
        hms_file_error_set(err, path, 0, 0, "out of memory");
    bool ok = u && hms_arch_parse_at(text, len, path, &u->arch, err);
    if (ok && !(u->path = strdup(path))) {
        hms_file_error_set(err, path, 0, 0, "out of memory");
        ok = false;
    }
    free(text);
    if (!ok) {
        free(u);
        pthread_mutex_unlock(&user_lock);
        return NULL;
    }
    u->next = user_arches;
    user_arches = u;
    pthread_mutex_unlock(&user_lock);
    return &u->arch;
}

static bool looks_like_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') || (n > 5 && strcasecmp(s + n - 5, ".yaml") == 0) ||
           (n > 4 && strcasecmp(s + n - 4, ".yml") == 0);
}

const hms_arch *hms_arch_find(const char *name_or_path, hms_file_error *err)
{
    if (!name_or_path || !*name_or_path) {
        hms_file_error_set(err, NULL, 0, 0, "(empty): no architecture named");
        return NULL;
    }
    if (!builtins_ready()) {
        hms_file_error_set(err, NULL, 0, 0, "%s", builtin_error);
        return NULL;
    }
    for (size_t i = 0; i < builtin_count; i++)
        if (arch_answers_to(&builtins[i], name_or_path))
            return &builtins[i];

    struct stat st;
    if (stat(name_or_path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            hms_file_error_set(err, name_or_path, 0, 0, "is a directory, not an architecture file");
            return NULL;
        }
        return load_user_file(name_or_path, err);
    }
    if (looks_like_path(name_or_path)) {
        hms_file_error_set(err, name_or_path, 0, 0, "cannot read: %s", strerror(errno));
        return NULL;
    }
    char names[512];
    known_names(names, sizeof names);
    hms_file_error_set(err, NULL, 0, 0,
                       "%s: unknown architecture (known: %s; or a path to a YAML file)",
                       name_or_path, names);
    return NULL;
}

const hms_arch *hms_arch_get(const char *name_or_path, char *err, size_t errlen)
{
    hms_file_error e;
    const hms_arch *a = hms_arch_find(name_or_path, &e);
    if (!a && err)
        hms_file_error_text(&e, err, errlen);
    return a;
}
