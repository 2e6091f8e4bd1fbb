/* Temporary file + rename (see atomic_file.h). */
#include "analyzer/cli/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
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

/* Opens the target itself for writing (truncating a regular file). */
static FILE *open_in_place(hms_atomic_file *a, const char *dest, bool regular, hms_file_error *err)
{
    int fd = open(a->dest, O_WRONLY | (regular ? O_TRUNC : 0) | O_NOCTTY | O_CLOEXEC);
    a->f = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!a->f) {
        hms_file_error_set(err, dest, 0, 0, "%s", strerror(errno));
        if (fd >= 0)
            close(fd);
        release(a);
    }
    return a->f;
}

FILE *hms_atomic_open(hms_atomic_file *a, const char *dest, hms_file_error *err)
{
    memset(a, 0, sizeof *a);
    char *real = realpath(dest, NULL); /* follow a symlink to the file it names */
    a->dest = real ? real : strdup(dest);
    struct stat target;
    bool exists = a->dest && stat(a->dest, &target) == 0;
    if (exists && S_ISDIR(target.st_mode)) {
        hms_file_error_set(err, dest, 0, 0, "is a directory");
        release(a);
        return NULL;
    }
    if (exists && access(a->dest, W_OK) != 0) {
        hms_file_error_set(err, dest, 0, 0, "%s; not written", strerror(errno));
        release(a);
        return NULL;
    }
    if (exists && !S_ISREG(target.st_mode))
        return open_in_place(a, dest, false, err);
    if (exists && target.st_nlink > 1)
        return open_in_place(a, dest, true, err); /* keep the other links */
    if (!a->dest || asprintf(&a->tmp, "%s.hms-lint-XXXXXX", a->dest) < 0) {
        a->tmp = NULL;
        hms_file_error_set(err, dest, 0, 0, "out of memory");
        release(a);
        return NULL;
    }
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        hms_file_error_set(err, dest, 0, 0, "cannot create a temporary file: %s", strerror(errno));
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
    if (exists && (target.st_uid != geteuid() || target.st_gid != getegid()) &&
        fchown(fd, target.st_uid, target.st_gid) != 0) {
        /* the new file could not keep the owner: write the old one in place */
        close(fd);
        unlink(a->tmp);
        free(a->tmp);
        a->tmp = NULL;
        return open_in_place(a, dest, true, err);
    }
    a->f = fdopen(fd, "wb");
    if (!a->f) {
        hms_file_error_set(err, dest, 0, 0, "%s", strerror(errno));
        close(fd);
        unlink(a->tmp);
        release(a);
        return NULL;
    }
    return a->f;
}

bool hms_atomic_commit(hms_atomic_file *a, hms_file_error *err)
{
    if (!a->tmp) { /* in place: no rename; a device need not support fsync */
        bool ok = fflush(a->f) == 0 && !ferror(a->f);
        int saved = errno;
        if (fclose(a->f) != 0 && ok) {
            ok = false;
            saved = errno;
        }
        if (!ok)
            hms_file_error_set(err, a->dest, 0, 0, "cannot write: %s", strerror(saved));
        release(a);
        return ok;
    }
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
        hms_file_error_set(err, a->dest, 0, 0, "cannot write: %s", strerror(saved));
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

bool hms_write_file_atomic(const char *dest, const char *data, size_t len, hms_file_error *err)
{
    hms_atomic_file a;
    FILE *f = hms_atomic_open(&a, dest, err);
    if (!f)
        return false;
    if (len && fwrite(data, 1, len, f) != len) {
        hms_file_error_set(err, dest, 0, 0, "cannot write: %s", strerror(errno));
        hms_atomic_abort(&a);
        return false;
    }
    return hms_atomic_commit(&a, err);
}

bool hms_write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        c += w;
        n -= (size_t)w;
    }
    return true;
}
