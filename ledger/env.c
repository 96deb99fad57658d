/*
 * env.c - opening and closing the ledger: the LMDB environment (one file,
 * MDB_NOSUBDIR), its named databases, the format version in `meta`, the
 * handle's error message, the clock and the storage statistics.
 *
 * Part of ledger/. It never writes an event and never interprets a record
 * beyond the format version; a ledger written by a newer format is refused,
 * never "upgraded" in place.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "ledger/internal.h"

#define DEFAULT_MAP_SIZE ((size_t)64 << 20)
#define DEFAULT_MAX_MAP_SIZE ((size_t)1 << 40)
#define N_DBS 9

/* ============================================================== errors */

int ledger__fail(ledger *db, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(db->errmsg, sizeof db->errmsg, fmt, ap);
    va_end(ap);
    return rc;
}

int ledger__corrupt(ledger *db, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(db->errmsg, sizeof db->errmsg, fmt, ap);
    va_end(ap);
    /* The source location is kept for a debugger, out of the message a
     * user reads. */
    db->corrupt_file = file;
    db->corrupt_line = line;
    return LEDGER_ECORRUPT;
}

/* Below this many free bytes a failed write is taken for a full disk:
 * LMDB reports a short write as EIO, not ENOSPC. */
#define FULL_DISK_BYTES ((uint64_t)1 << 20)

int ledger__io_fail(ledger *db, int rc, const char *path, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int is_full = rc == ENOSPC || rc == EDQUOT;
    if (!is_full && rc == EIO && path != NULL) {
        struct statvfs vfs;
        char *copy = strdup(path);
        struct stat st;
        const char *dir = copy == NULL ? NULL
                          : stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? path
                                                                        : dirname(copy);
        is_full = dir != NULL && statvfs(dir, &vfs) == 0 &&
                  (uint64_t)vfs.f_bavail * vfs.f_frsize < FULL_DISK_BYTES;
        free(copy);
    }
    if (is_full)
        return ledger__fail(db, ENOSPC, "%s: the disk is full (no space left on the device)",
                            what);
    return ledger__fail(db, rc, "%s: %s", what, ledger__strerror(rc));
}

const char *ledger__strerror(int rc)
{
    return mdb_strerror(rc); /* covers errno values too */
}

const char *ledger_errmsg(const ledger *db)
{
    return db != NULL ? db->errmsg : "out of memory";
}

uint64_t ledger_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void ledger_options_init(ledger_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->keys_dir = LEDGER_DEFAULT_KEYS_DIR;
    opt->checkpoint_every = LEDGER_DEFAULT_CHECKPOINT_EVERY;
    opt->map_size = DEFAULT_MAP_SIZE;
    opt->max_map_size = DEFAULT_MAX_MAP_SIZE;
}

/* ======================================================== open / close */

/* Explains why the file at path cannot be opened, before LMDB tries:
 * LMDB's own errors name neither the file nor the cause. */
static int check_path(ledger *db, const char *path, int is_read_only, int *is_missing)
{
    *is_missing = 0;
    char *copy = strdup(path);
    if (copy == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    const char *dir = dirname(copy);
    struct stat st;
    int rc = 0;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        rc = ledger__fail(db, LEDGER_EINPUT, "directory %s does not exist", dir);
        goto out;
    }
    if (stat(path, &st) != 0) {
        if (errno != ENOENT) {
            rc = ledger__fail(db, errno, "%s: %s", path, strerror(errno));
        } else if (is_read_only) {
            rc = ledger__fail(db, LEDGER_ENOTFOUND, "no ledger at %s", path);
        } else if (access(dir, W_OK) != 0) {
            rc = ledger__fail(db, errno, "cannot create %s: %s", path,
                              errno == EROFS ? "the file system is read-only" : strerror(errno));
        } else {
            *is_missing = 1;
        }
        goto out;
    }
    if (!S_ISREG(st.st_mode)) {
        rc = ledger__fail(db, LEDGER_EINPUT, "%s is not a regular file", path);
        goto out;
    }
    /* LMDB would make an empty file a ledger; an empty file is not one. */
    if (st.st_size == 0) {
        rc = ledger__fail(db, LEDGER_EINPUT, "%s is empty, not a Mentat ledger", path);
        goto out;
    }
    ledger_file_report fr;
    int frc = ledger_file_check(&fr, path);
    if (frc == LEDGER_EINPUT) {
        rc = ledger__fail(db, frc, "%s", fr.damage);
        goto out;
    }
    if (frc == LEDGER_ECORRUPT) {
        rc = ledger__fail(db, frc, "%s is damaged: %s", path, fr.damage);
        goto out;
    }
    if (frc != 0) {
        rc = ledger__fail(db, frc, "%s: %s", path, strerror(frc));
        goto out;
    }
    /* Root may write anything; a file without write bits is still meant
     * read-only, so refuse it for everyone. */
    if (!is_read_only && (st.st_mode & 0222) == 0) {
        rc = ledger__fail(db, EACCES, "ledger file %s is read-only (open it read-only to read it)",
                          path);
        goto out;
    }
out:
    free(copy);
    return rc;
}

static int open_env_error(ledger *db, int rc, const char *path)
{
    if (rc == EROFS)
        return ledger__fail(db, rc, "the file system holding %s is read-only "
                                    "(open it read-only to read it)", path);
    if (rc == EACCES)
        return ledger__fail(db, rc, "permission denied opening %s or its lock file %s-lock",
                            path, path);
    if (rc == MDB_INVALID || rc == MDB_VERSION_MISMATCH)
        return ledger__fail(db, LEDGER_ECORRUPT, "%s is not an LMDB file of this version: %s",
                            path, mdb_strerror(rc));
    return ledger__fail(db, rc, "cannot open %s: %s", path, mdb_strerror(rc));
}

static const char *const db_names[N_DBS] = {
    "rooms", "events", "heads", "checkpoints", "rejections", "keys", "meta", "trees", "views",
};

static int open_dbs(ledger *db)
{
    MDB_dbi *dbis[N_DBS] = {
        &db->dbi_rooms, &db->dbi_events, &db->dbi_heads, &db->dbi_checkpoints,
        &db->dbi_rejections, &db->dbi_keys, &db->dbi_meta, &db->dbi_trees, &db->dbi_views,
    };
    MDB_txn *txn = NULL;
    int rc = mdb_txn_begin(db->env, NULL, db->is_read_only ? MDB_RDONLY : 0, &txn);
    if (rc != 0)
        return ledger__fail(db, rc, "%s: %s", db->path, mdb_strerror(rc));
    for (int i = 0; i < N_DBS; i++) {
        unsigned flags = db->is_read_only ? 0u : MDB_CREATE;
        if (dbis[i] == &db->dbi_events || dbis[i] == &db->dbi_trees || dbis[i] == &db->dbi_views)
            flags |= MDB_DUPSORT;
        rc = mdb_dbi_open(txn, db_names[i], flags, dbis[i]);
        if (rc == MDB_NOTFOUND && dbis[i] == &db->dbi_trees) {
            /* A file no writer of this build has opened: its rooms have no
             * tree records, which readers fold from the chain. */
            db->has_trees = 0;
            continue;
        }
        if (rc == MDB_NOTFOUND && dbis[i] == &db->dbi_views) {
            /* Nor one of a build that stores public views: none to read. */
            db->has_views = 0;
            continue;
        }
        if (dbis[i] == &db->dbi_trees)
            db->has_trees = 1;
        if (dbis[i] == &db->dbi_views)
            db->has_views = 1;
        if (rc == MDB_NOTFOUND) {
            rc = ledger__fail(db, LEDGER_ECORRUPT, "%s is not a Mentat ledger (no `%s` database)",
                              db->path, db_names[i]);
            goto out;
        }
        if (rc == MDB_INCOMPATIBLE) {
            rc = ledger__fail(db, LEDGER_ECORRUPT, "%s: database `%s` has the wrong flags",
                              db->path, db_names[i]);
            goto out;
        }
        if (rc != 0) {
            rc = ledger__fail(db, rc, "%s: %s", db->path, mdb_strerror(rc));
            goto out;
        }
    }
    /* The format version: written by the first writer, checked by all. */
    MDB_val key = {sizeof LEDGER_META_FORMAT - 1, (void *)LEDGER_META_FORMAT};
    MDB_val val;
    rc = mdb_get(txn, db->dbi_meta, &key, &val);
    if (rc == MDB_NOTFOUND && !db->is_read_only) {
        uint8_t buf[4], when[8];
        ledger__be32_put(buf, LEDGER_FORMAT_VERSION);
        val.mv_size = sizeof buf;
        val.mv_data = buf;
        rc = mdb_put(txn, db->dbi_meta, &key, &val, 0);
        if (rc == 0) {
            MDB_val ckey = {sizeof LEDGER_META_CREATED - 1, (void *)LEDGER_META_CREATED};
            ledger__be64_put(when, ledger_now_ms());
            val.mv_size = sizeof when;
            val.mv_data = when;
            rc = mdb_put(txn, db->dbi_meta, &ckey, &val, 0);
        }
        if (rc != 0) {
            rc = ledger__fail(db, rc, "%s: %s", db->path, mdb_strerror(rc));
            goto out;
        }
    } else if (rc == MDB_NOTFOUND) {
        rc = ledger__fail(db, LEDGER_ECORRUPT, "%s has no format version", db->path);
        goto out;
    } else if (rc != 0) {
        rc = ledger__fail(db, rc, "%s: %s", db->path, mdb_strerror(rc));
        goto out;
    } else if (val.mv_size != 4) {
        rc = LEDGER_CORRUPT_MSG(db, "%s: format version of %zu bytes", db->path, val.mv_size);
        goto out;
    } else {
        uint32_t format = ledger__be32_get(val.mv_data);
        if (format > LEDGER_FORMAT_VERSION) {
            rc = ledger__fail(db, LEDGER_EINPUT,
                              "%s has ledger format %u, newer than this build's %u",
                              db->path, format, LEDGER_FORMAT_VERSION);
            goto out;
        }
        if (format == 0) {
            rc = LEDGER_CORRUPT_MSG(db, "%s: format version 0", db->path);
            goto out;
        }
    }
    rc = mdb_txn_commit(txn);
    txn = NULL;
    if (rc != 0)
        rc = ledger__fail(db, rc, "%s: %s", db->path, mdb_strerror(rc));
out:
    if (txn != NULL)
        mdb_txn_abort(txn);
    return rc;
}

/* Frees everything but the struct and its message. */
static void release(ledger *db)
{
    if (db->env != NULL)
        mdb_env_close(db->env);
    db->env = NULL;
    ZSTD_freeCCtx(db->cctx);
    ZSTD_freeDCtx(db->dctx);
    db->cctx = NULL;
    db->dctx = NULL;
    free(db->scratch);
    free(db->position);
    free(db->view_buf);
    free(db->path);
    free(db->keys_dir);
    db->scratch = db->position = db->view_buf = NULL;
    db->path = db->keys_dir = NULL;
    sodium_memzero(db->signing_sk, sizeof db->signing_sk);
    sodium_memzero(db->audit_sk, sizeof db->audit_sk);
    sodium_memzero(db->cache, sizeof db->cache);
    db->has_signing_key = db->has_audit_key = 0;
}

static int env_new(ledger *db)
{
    int rc = mdb_env_create(&db->env);
    if (rc != 0) {
        db->env = NULL;
        return ledger__fail(db, rc, "mdb_env_create: %s", mdb_strerror(rc));
    }
    mdb_env_set_maxdbs(db->env, N_DBS);
    rc = mdb_env_set_mapsize(db->env, db->map_size);
    if (rc != 0)
        return ledger__fail(db, LEDGER_EINPUT, "map size %zu refused: %s", db->map_size,
                            mdb_strerror(rc));
    return 0;
}

/* A new ledger is built whole under "<dir>/.<base>.new-XXXXXX" (its
 * databases and format version committed and synced), then linked to its
 * path, which never names a half-made file: a crash leaves no ledger or a
 * valid empty one (and at worst the hidden temporary file). If another
 * process made the ledger meanwhile, that one is used. */
static int create_atomically(ledger *db)
{
    char *a = strdup(db->path), *b = strdup(db->path);
    char tmp[4096], lock[4200];
    int rc = 0, fd = -1;
    tmp[0] = '\0';
    if (a == NULL || b == NULL) {
        rc = ledger__fail(db, LEDGER_ERROR, "out of memory");
        goto out;
    }
    if ((size_t)snprintf(tmp, sizeof tmp, "%s/.%s.new-XXXXXX", dirname(a), basename(b)) >=
        sizeof tmp) {
        tmp[0] = '\0';
        rc = ledger__fail(db, LEDGER_EINPUT, "path too long: %s", db->path);
        goto out;
    }
    ledger_temp_sweep(db->path);
    fd = mkstemp(tmp);
    if (fd < 0) {
        tmp[0] = '\0';
        rc = ledger__io_fail(db, errno, db->path, "cannot create %s", db->path);
        goto out;
    }
    fchmod(fd, 0644);              /* as LMDB makes its files */
    close(fd);
    snprintf(lock, sizeof lock, "%s-lock", tmp);
    rc = env_new(db);
    if (rc == 0) {
        rc = mdb_env_open(db->env, tmp, MDB_NOSUBDIR | MDB_NOTLS, 0644);
        if (rc != 0)
            rc = ledger__io_fail(db, rc, db->path, "cannot create %s", db->path);
    }
    if (rc == 0) {
        char *real = db->path;
        db->path = tmp;            /* its messages name the file being made */
        rc = open_dbs(db);
        db->path = real;
    }
    if (db->env != NULL)
        mdb_env_close(db->env);
    db->env = NULL;
    if (rc == 0 && link(tmp, db->path) != 0 && errno != EEXIST)
        rc = ledger__io_fail(db, errno, db->path, "cannot create %s", db->path);
    unlink(lock);
out:
    if (tmp[0] != '\0')
        unlink(tmp);
    free(a);
    free(b);
    return rc;
}

int ledger_open(ledger **out, const ledger_options *opt)
{
    *out = NULL;
    ledger *db = calloc(1, sizeof *db);
    if (db == NULL)
        return LEDGER_ERROR;
    int rc = 0;
    if (opt == NULL || opt->path == NULL || opt->path[0] == '\0') {
        rc = ledger__fail(db, LEDGER_EINPUT, "no ledger path given");
        goto fail;
    }
    db->is_read_only = opt->is_read_only != 0;
    db->checkpoint_every = opt->checkpoint_every ? opt->checkpoint_every
                                                 : LEDGER_DEFAULT_CHECKPOINT_EVERY;
    db->map_size = opt->map_size ? opt->map_size : DEFAULT_MAP_SIZE;
    db->max_map_size = opt->max_map_size ? opt->max_map_size : DEFAULT_MAX_MAP_SIZE;
    if (db->max_map_size < db->map_size)
        db->max_map_size = db->map_size;
    db->path = strdup(opt->path);
    db->keys_dir = strdup(opt->keys_dir ? opt->keys_dir : LEDGER_DEFAULT_KEYS_DIR);
    db->cctx = ZSTD_createCCtx();
    db->dctx = ZSTD_createDCtx();
    db->scratch = malloc(LEDGER_SCRATCH_BYTES);
    if (db->path == NULL || db->keys_dir == NULL || db->cctx == NULL || db->dctx == NULL ||
        db->scratch == NULL) {
        rc = ledger__fail(db, LEDGER_ERROR, "out of memory");
        goto fail;
    }
    int is_missing = 0;
    rc = check_path(db, db->path, db->is_read_only, &is_missing);
    if (rc != 0)
        goto fail;

    if (is_missing) {
        rc = create_atomically(db);
        if (rc != 0)
            goto fail;
    }
    rc = env_new(db);
    if (rc != 0)
        goto fail;
    unsigned flags = MDB_NOSUBDIR | MDB_NOTLS;
    if (db->is_read_only)
        flags |= MDB_RDONLY;
    if (opt->is_unsafe_no_sync)
        flags |= MDB_NOSYNC;
    rc = mdb_env_open(db->env, db->path, flags, 0644);
    if ((rc == EROFS || rc == EACCES) && db->is_read_only) {
        /* A read-only mount cannot hold a lock file, and cannot hold a
         * writer either: reading without locks is safe there. */
        mdb_env_close(db->env);
        db->env = NULL;
        if (mdb_env_create(&db->env) == 0) {
            mdb_env_set_maxdbs(db->env, N_DBS);
            mdb_env_set_mapsize(db->env, db->map_size);
            rc = mdb_env_open(db->env, db->path, flags | MDB_NOLOCK, 0644);
        }
    }
    if (rc != 0) {
        rc = open_env_error(db, rc, db->path);
        goto fail;
    }
    MDB_envinfo info;
    MDB_stat st;
    mdb_env_info(db->env, &info);
    mdb_env_stat(db->env, &st);
    db->map_size = info.me_mapsize;
    if (db->max_map_size < db->map_size)
        db->max_map_size = db->map_size;
    db->page_size = st.ms_psize;
    db->max_dup_bytes = (size_t)mdb_env_get_maxkeysize(db->env);

    rc = open_dbs(db);
    if (rc != 0)
        goto fail;
    rc = ledger__keys_perm_check(db);
    if (rc != 0)
        goto fail;
    rc = ledger__keys_load(db);
    if (rc != 0)
        goto fail;
    db->errmsg[0] = '\0';
    *out = db;
    return 0;
fail:
    /* The handle keeps only its message for ledger_errmsg (ledger.h). */
    release(db);
    *out = db;
    return rc;
}

int ledger_keys_check(ledger *db)
{
    if (!db->has_signing_key)
        return ledger__fail(db, LEDGER_EKEY, "no signing key in %s: rooms cannot be created",
                            db->keys_dir);
    if (!db->has_audit_key)
        return ledger__fail(db, LEDGER_EKEY, "no audit key in %s: a room's seed must be sealed",
                            db->keys_dir);
    return 0;
}

void ledger_close(ledger *db)
{
    if (db == NULL)
        return;
    release(db);
    free(db);
}

/* ================================================================ stats */

static uint64_t tree_pages(const MDB_stat *st)
{
    return (uint64_t)st->ms_branch_pages + st->ms_leaf_pages + st->ms_overflow_pages;
}

/*
 * mdb_stat of a MDB_DUPSORT database counts only its main tree: the pages
 * of each room's duplicate sub-tree are counted in that room's node, which
 * the API does not expose. So events_bytes is what remains of the file's
 * used pages once every other tree and the free pages are taken away:
 *   used = 2 meta pages + free pages + free-list tree + main tree
 *          + every other named tree + events and trees with their sub-trees
 * (the Merkle records of `trees` and the public views of `views` are part
 * of what an event costs).
 */
int ledger_stats_get(ledger *db, ledger_stats *out)
{
    memset(out, 0, sizeof *out);
    MDB_txn *txn = NULL;
    MDB_cursor *cur = NULL;
    int rc = mdb_txn_begin(db->env, NULL, MDB_RDONLY, &txn);
    if (rc != 0)
        return ledger__fail(db, rc, "stats: %s", mdb_strerror(rc));
    MDB_dbi named[N_DBS] = {
        db->dbi_rooms, db->dbi_events, db->dbi_heads, db->dbi_checkpoints,
        db->dbi_rejections, db->dbi_keys, db->dbi_meta, db->dbi_trees, db->dbi_views,
    };
    MDB_stat st;
    uint64_t other_pages = 0;
    for (int i = 0; i < N_DBS; i++) {
        if ((named[i] == db->dbi_trees && !db->has_trees) ||
            (named[i] == db->dbi_views && !db->has_views))
            continue;
        rc = mdb_stat(txn, named[i], &st);
        if (rc != 0)
            goto out;
        if (named[i] == db->dbi_rooms)
            out->n_rooms = st.ms_entries;
        if (named[i] != db->dbi_events && named[i] != db->dbi_trees &&
            named[i] != db->dbi_views)
            other_pages += tree_pages(&st);
    }
    /* Events: the heads' versions (the version-0 markers are not events). */
    rc = mdb_cursor_open(txn, db->dbi_heads, &cur);
    if (rc != 0)
        goto out;
    MDB_val k, v;
    while ((rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) == 0)
        if (v.mv_size == LEDGER_HEAD_BYTES || v.mv_size == LEDGER_HEAD_SIGNED_BYTES)
            out->n_events += ledger__be32_get(v.mv_data);
    mdb_cursor_close(cur);
    cur = NULL;
    if (rc != MDB_NOTFOUND)
        goto out;
    rc = mdb_stat(txn, 0, &st); /* the free-list tree (FREE_DBI) */
    if (rc != 0)
        goto out;
    other_pages += tree_pages(&st);
    rc = mdb_stat(txn, 1, &st); /* the main tree holding the names (MAIN_DBI) */
    if (rc != 0)
        goto out;
    other_pages += tree_pages(&st);
    /* Free pages: each free-list value is a page list whose first word is
     * its length (LMDB's IDL; mdb_stat -f counts them the same way). */
    uint64_t free_pages = 0;
    rc = mdb_cursor_open(txn, 0, &cur);
    if (rc != 0)
        goto out;
    while ((rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) == 0) {
        size_t n = 0;
        if (v.mv_size >= sizeof n)
            memcpy(&n, v.mv_data, sizeof n);
        free_pages += n;
    }
    if (rc != MDB_NOTFOUND)
        goto out;
    rc = 0;
    MDB_envinfo info;
    mdb_env_info(db->env, &info);
    uint64_t used = (uint64_t)info.me_last_pgno + 1;
    uint64_t not_events = 2 + free_pages + other_pages;
    uint64_t events_pages = used > not_events ? used - not_events : 0;
    out->events_bytes = events_pages * db->page_size;
    out->file_bytes = used * db->page_size;
    out->map_size = info.me_mapsize;
out:
    if (cur != NULL)
        mdb_cursor_close(cur);
    mdb_txn_abort(txn);
    if (rc != 0)
        return ledger__fail(db, rc, "stats: %s", mdb_strerror(rc));
    return 0;
}
