/*
 * outfile.c - every file Mentat writes besides the ledger itself (an
 * archive, a backup's ledger copy, a rendered board): which paths may be
 * written, and the write under a temporary name renamed into place.
 *
 * Part of ledger/. It must never let an output replace this ledger, its
 * lock file, a key, a directory, a device or anything else that is not a
 * regular file; another ledger is replaced only when the caller says so
 * (--force). It must never leave a half-written file under the path: the
 * bytes go to a file without a name (O_TMPFILE in the path's directory;
 * where the file system has none, "<dir>/.<base>.XXXXXX"), synced, given
 * the name "<dir>/.<base>.XXXXXX" and renamed over the path, then the
 * directory synced; a failure removes the temporary file. A kill -9 before
 * the commit leaves nothing at all behind an unnamed file.
 */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ledger/internal.h"

#define LMDB_MAGIC 0xBEEFC0DEu     /* MDB_MAGIC: meta pages at 16, lock file at 0 */
#define LMDB_META_MAGIC_AT 16      /* page header: pgno 8, pad 2, flags 2, lower 2, upper 2 */
#define LOCK_SUFFIX "-lock"

/* 1 if a and b are the same file. */
static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The file's LMDB kind by its first bytes: 2 a lock file, 1 a data file,
 * 0 neither (or unreadable: then the other checks decide). */
static int lmdb_kind(const char *path)
{
    uint8_t head[LMDB_META_MAGIC_AT + 4];
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, head, sizeof head);
    close(fd);
    uint32_t m0 = 0, m16 = 0;
    if (n >= 4)
        memcpy(&m0, head, 4);
    if (n >= (ssize_t)sizeof head)
        memcpy(&m16, head + LMDB_META_MAGIC_AT, 4);
    if (m16 == LMDB_MAGIC)
        return 1;
    return m0 == LMDB_MAGIC ? 2 : 0;
}

/* 1 if path ends in "-lock" and the file it locks exists. */
static int is_lock_name(const char *path)
{
    size_t n = strlen(path), s = sizeof LOCK_SUFFIX - 1;
    if (n <= s || strcmp(path + n - s, LOCK_SUFFIX) != 0)
        return 0;
    char *data = strndup(path, n - s);
    if (data == NULL)
        return 0;
    struct stat st;
    int is = stat(data, &st) == 0;
    free(data);
    return is;
}

/* 1 if path's directory is db's key directory. */
static int is_in_keys_dir(const ledger *db, const char *path)
{
    char *copy = strdup(path);
    struct stat d, k;
    int is = copy != NULL && stat(dirname(copy), &d) == 0 && stat(db->keys_dir, &k) == 0 &&
             same_file(&d, &k);
    free(copy);
    return is;
}

int ledger_outfile_check(ledger *db, const char *path, unsigned flags)
{
    struct stat st, live;
    if (path == NULL || path[0] == '\0')
        return ledger__fail(db, LEDGER_EINPUT, "no output path given");
    if (is_in_keys_dir(db, path))
        return ledger__fail(db, LEDGER_EINPUT, "%s is in the key directory %s; write elsewhere",
                            path, db->keys_dir);
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        return ledger__fail(db, LEDGER_EINPUT, "%s: %s", path, strerror(errno));
    }
    if (S_ISLNK(st.st_mode))
        return ledger__fail(db, LEDGER_EINPUT, "%s is a symbolic link; name the file itself",
                            path);
    if (S_ISDIR(st.st_mode))
        return ledger__fail(db, LEDGER_EINPUT, "%s is a directory", path);
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        return ledger__fail(db, LEDGER_EINPUT, "%s is a device, not a regular file", path);
    if (!S_ISREG(st.st_mode))
        return ledger__fail(db, LEDGER_EINPUT, "%s is not a regular file", path);
    if (stat(db->path, &live) == 0 && same_file(&st, &live))
        return ledger__fail(db, LEDGER_EINPUT, "%s is this ledger's own file", path);
    size_t n = strlen(db->path);
    char *lock = malloc(n + sizeof LOCK_SUFFIX);
    if (lock == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    memcpy(lock, db->path, n);
    memcpy(lock + n, LOCK_SUFFIX, sizeof LOCK_SUFFIX);
    int is_own_lock = stat(lock, &live) == 0 && same_file(&st, &live);
    free(lock);
    if (is_own_lock)
        return ledger__fail(db, LEDGER_EINPUT, "%s is this ledger's lock file", path);
    int kind = lmdb_kind(path);
    if (kind == 2 || is_lock_name(path))
        return ledger__fail(db, LEDGER_EINPUT, "%s is a ledger's lock file", path);
    /* A ledger copy (backup --all's DIR/mentat.db) replaces an earlier copy:
     * that is its purpose; any other output replaces a ledger only when
     * forced. */
    if (kind == 1 && (flags & (LEDGER_OUT_FORCE | LEDGER_OUT_LEDGER_COPY)) == 0)
        return ledger__fail(db, LEDGER_EINPUT,
                            "%s is a ledger; refusing to replace it (--force replaces it)", path);
    return 0;
}

int ledger_outfile_open(ledger *db, ledger_outfile *out, const char *path, unsigned flags)
{
    memset(out, 0, sizeof *out);
    out->fd = -1;
    int rc = ledger_outfile_check(db, path, flags);
    if (rc != 0)
        return rc;
    char *a = strdup(path), *b = strdup(path);
    if (a == NULL || b == NULL) {
        rc = ledger__fail(db, LEDGER_ERROR, "out of memory");
        goto out;
    }
    const char *d = dirname(a), *base = basename(b);
    if ((size_t)snprintf(out->path, sizeof out->path, "%s", path) >= sizeof out->path ||
        (size_t)snprintf(out->dir, sizeof out->dir, "%s", d) >= sizeof out->dir ||
        (size_t)snprintf(out->tmp, sizeof out->tmp, "%s/.%s.XXXXXX", d, base) >=
            sizeof out->tmp) {
        rc = ledger__fail(db, LEDGER_EINPUT, "path too long: %s", path);
        goto out;
    }
    rc = ledger__fault_hit(db);
    if (rc != 0) {
        rc = ledger__fail(db, rc, "cannot create a file in %s: %s", out->dir, strerror(rc));
        goto out;
    }
#ifdef O_TMPFILE
    out->fd = open(out->dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    out->is_unnamed = out->fd >= 0;
    if (out->fd < 0)
#endif
        out->fd = mkstemp(out->tmp);
    if (out->fd < 0)
        rc = ledger__fail(db, errno == ENOENT || errno == ENOTDIR ? LEDGER_EINPUT : errno,
                          "cannot create a file in %s: %s", out->dir, strerror(errno));
out:
    free(a);
    free(b);
    return rc;
}

/* Gives the synced unnamed file its temporary name: tmp's XXXXXX drawn
 * afresh until no file has it. */
static int name_unnamed(ledger *db, ledger_outfile *f)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", f->fd);
    size_t n = strlen(f->tmp);
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int tries = 0; tries < 100; tries++) {
        for (size_t i = n - 6; i < n; i++)
            f->tmp[i] = letters[randombytes_uniform(sizeof letters - 1)];
        if (linkat(AT_FDCWD, proc, AT_FDCWD, f->tmp, AT_SYMLINK_FOLLOW) == 0) {
            f->is_unnamed = 0;
            return 0;
        }
        if (errno != EEXIST)
            return ledger__io_fail(db, errno, f->dir, "cannot name the file in %s", f->dir);
    }
    return ledger__fail(db, LEDGER_ERROR, "cannot name the file in %s", f->dir);
}

int ledger_outfile_commit(ledger *db, ledger_outfile *f, unsigned flags)
{
    int rc = ledger__fault_hit(db);
    if (rc == 0 && fsync(f->fd) != 0)
        rc = errno;
    if (rc != 0)
        rc = ledger__io_fail(db, rc, f->dir, "cannot sync %s", f->tmp);
    else if (f->is_unnamed)
        rc = name_unnamed(db, f);
    if (close(f->fd) != 0 && rc == 0)
        rc = ledger__io_fail(db, errno, f->dir, "cannot write %s", f->tmp);
    f->fd = -1;
    /* Checked again: the path may have become something else meanwhile. */
    if (rc == 0)
        rc = ledger_outfile_check(db, f->path, flags);
    if (rc == 0 && (rc = ledger__fault_hit(db)) != 0)
        rc = ledger__fail(db, rc, "cannot rename %s to %s: %s", f->tmp, f->path, strerror(rc));
    if (rc == 0 && rename(f->tmp, f->path) != 0)
        rc = ledger__fail(db, errno, "cannot rename %s to %s: %s", f->tmp, f->path,
                          strerror(errno));
    if (rc != 0) {
        if (!f->is_unnamed)
            unlink(f->tmp);
        return rc;
    }
    int dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0 || fsync(dfd) != 0)
        rc = ledger__fail(db, errno, "cannot sync directory %s: %s", f->dir, strerror(errno));
    if (dfd >= 0)
        close(dfd);
    return rc;
}

void ledger_outfile_abort(ledger_outfile *f)
{
    if (f->fd >= 0) {
        close(f->fd);
        if (!f->is_unnamed)
            unlink(f->tmp);
    }
    f->fd = -1;
}
