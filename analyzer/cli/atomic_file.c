/* Temporary file + rename (see atomic_file.h). */
#include "analyzer/cli/atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void release(hms_atomic_file *a)
{
    free(a->tmp);
    free(a->dest);
    a->tmp = a->dest = NULL;
    a->f = NULL;
}

FILE *hms_atomic_open(hms_atomic_file *a, const char *dest, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    char *real = realpath(dest, NULL); /* follow a symlink to the file it names */
    a->dest = real ? real : strdup(dest);
    if (!a->dest || asprintf(&a->tmp, "%s.hms-lint-XXXXXX", a->dest) < 0) {
        a->tmp = NULL;
        snprintf(err, errlen, "%s: out of memory", dest);
        release(a);
        return NULL;
    }
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create a temporary file: %s", dest, strerror(errno));
        release(a);
        return NULL;
    }
    struct stat st;
    mode_t mode;
    if (stat(a->dest, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0) {
        /* not fatal: the file keeps mkstemp's 0600 */
    }
    a->f = fdopen(fd, "wb");
    if (!a->f) {
        snprintf(err, errlen, "%s: %s", dest, strerror(errno));
        close(fd);
        unlink(a->tmp);
        release(a);
        return NULL;
    }
    return a->f;
}

bool hms_atomic_commit(hms_atomic_file *a, char *err, size_t errlen)
{
    bool ok = fflush(a->f) == 0 && !ferror(a->f) && fsync(fileno(a->f)) == 0;
    int saved = errno;
    if (fclose(a->f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(a->tmp, a->dest) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        snprintf(err, errlen, "%s: cannot write: %s", a->dest, strerror(saved));
        unlink(a->tmp);
    }
    release(a);
    return ok;
}

void hms_atomic_abort(hms_atomic_file *a)
{
    if (a->f)
        fclose(a->f);
    if (a->tmp)
        unlink(a->tmp);
    release(a);
}

bool hms_write_file_atomic(const char *dest, const char *data, size_t len, char *err, size_t errlen)
{
    hms_atomic_file a;
    FILE *f = hms_atomic_open(&a, dest, err, errlen);
    if (!f)
        return false;
    if (len && fwrite(data, 1, len, f) != len) {
        snprintf(err, errlen, "%s: cannot write: %s", dest, strerror(errno));
        hms_atomic_abort(&a);
        return false;
    }
    return hms_atomic_commit(&a, err, errlen);
}
