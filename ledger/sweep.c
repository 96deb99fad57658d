/*
 * sweep.c - removing what a killed process left of a ledger it was making:
 * the hidden names "<dir>/.<base>.new-XXXXXX" (ledger_open building a new
 * ledger, ledger/env.c) and "<dir>/.<base>.pending-XXXXXX" (a command's
 * ledger not yet in place, tools/output.c), each with its "-lock" file.
 *
 * Part of ledger/. Such a file is in use exactly while some process has it
 * open as an LMDB environment, and LMDB then holds a record lock on its
 * lock file; a name whose lock file nobody locks (or that has none) is
 * left over and removed. It must never remove anything else: only names of
 * those two forms beside the given path, never the ledger, never a file
 * whose lock is held.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ledger/internal.h"

static const char *const kinds[] = {".new-", ".pending-"};

/* 1 if some process holds a record lock on the file at path, or it
 * cannot be told (a lock file this process may not open is left alone). */
static int is_locked(const char *path)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return errno != ENOENT;
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = 0;
    fl.l_len = 0;                  /* the whole file: LMDB locks byte 0 */
    int held = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
    close(fd);
    return held;
}

/* 1 if name is ".<base><kind>XXXXXX" (the six of mkstemp), lock file or not. */
static int is_temp_of(const char *name, const char *base, int *is_lock_out)
{
    size_t nb = strlen(base);
    if (name[0] != '.' || strncmp(name + 1, base, nb) != 0)
        return 0;
    const char *rest = name + 1 + nb;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t nk = strlen(kinds[k]);
        if (strncmp(rest, kinds[k], nk) != 0)
            continue;
        const char *tail = rest + nk;
        size_t nt = strlen(tail);
        *is_lock_out = nt == 6 + 5 && strcmp(tail + 6, "-lock") == 0;
        return nt == 6 || *is_lock_out;
    }
    return 0;
}

unsigned ledger_temp_sweep(const char *path)
{
    char *a = strdup(path), *b = strdup(path);
    unsigned n = 0;
    DIR *d = NULL;
    if (a == NULL || b == NULL)
        goto out;
    const char *dir = dirname(a), *base = basename(b);
    d = opendir(dir);
    if (d == NULL)
        goto out;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int is_lock = 0;
        if (!is_temp_of(e->d_name, base, &is_lock) || is_lock)
            continue;
        char data[4096], lock[4200];
        if ((size_t)snprintf(data, sizeof data, "%s/%s", dir, e->d_name) >= sizeof data)
            continue;
        snprintf(lock, sizeof lock, "%s-lock", data);
        if (is_locked(lock))
            continue;
        n += unlink(data) == 0;
        unlink(lock);
    }
    /* a lock file whose data file is gone */
    rewinddir(d);
    while ((e = readdir(d)) != NULL) {
        int is_lock = 0;
        char lock[4096], data[4096];
        if (!is_temp_of(e->d_name, base, &is_lock) || !is_lock ||
            (size_t)snprintf(lock, sizeof lock, "%s/%s", dir, e->d_name) >= sizeof lock)
            continue;
        snprintf(data, sizeof data, "%.*s", (int)(strlen(lock) - 5), lock);
        if (access(data, F_OK) != 0 && !is_locked(lock))
            n += unlink(lock) == 0;
    }
out:
    if (d != NULL)
        closedir(d);
    free(a);
    free(b);
    return n;
}
