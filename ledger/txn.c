/*
 * txn.c - the transactions of the ledger: wrappers around every LMDB call
 * of the write path, the write loop that grows the map, and the fault
 * injection that tests use to fail the Nth call (of LMDB, and of the file
 * system calls of archives and output files, ledger__fault_hit).
 *
 * Part of ledger/. It knows nothing of events or rooms. It must never let
 * a transaction that saw a failure commit (internal.h (2)), never grow the
 * map past max_map_size, and never keep a cache entry written by an
 * aborted transaction (internal.h (3)).
 */
#include <errno.h>
#include <string.h>

#include "ledger/internal.h"

void ledger__fault_set(ledger *db, long countdown, int rc)
{
    db->fault_countdown = countdown;
    db->fault_rc = rc;
}

/* Counts a wrapped call; non-zero when fault injection says it fails. */
static int fault(ledger *db)
{
    db->n_wrapped_calls++;
    if (db->fault_countdown > 0 && --db->fault_countdown == 0)
        return db->fault_rc != 0 ? db->fault_rc : EIO;
    return 0;
}

int ledger__fault_hit(ledger *db)
{
    return fault(db);
}

static int poison(ledger_txn *txn, int rc, const char *what)
{
    if (!txn->is_poisoned) {
        txn->is_poisoned = 1;
        txn->poison_rc = rc;
    }
    return ledger__io_fail(txn->db, rc, txn->db->path, "%s", what);
}

/* (3): a commit keeps what the txn cached, an abort drops it. */
static void cache_settle(ledger *db, int is_committed)
{
    for (int i = 0; i < LEDGER_CACHE_ROOMS; i++) {
        ledger_cache_entry *e = &db->cache[i];
        if (!e->is_dirty)
            continue;
        if (is_committed)
            e->is_dirty = 0;
        else
            memset(e, 0, sizeof *e);
    }
}

int ledger__txn_begin(ledger_txn *out, ledger *db, int is_write)
{
    memset(out, 0, sizeof *out);
    out->db = db;
    out->is_write = is_write;
    if (is_write && db->is_read_only)
        return ledger__fail(db, LEDGER_EINPUT, "the ledger was opened read-only");
    int rc = fault(db);
    if (rc != 0)
        return ledger__fail(db, rc, "txn begin: %s", ledger__strerror(rc));
    for (int tries = 0; tries < 2; tries++) {
        rc = mdb_txn_begin(db->env, NULL, is_write ? 0 : MDB_RDONLY, &out->mdb);
        if (rc != MDB_MAP_RESIZED)
            break;
        /* Another process grew the map: adopt its size and try again. */
        mdb_env_set_mapsize(db->env, 0);
        MDB_envinfo info;
        mdb_env_info(db->env, &info);
        db->map_size = info.me_mapsize;
        if (db->max_map_size < db->map_size)
            db->max_map_size = db->map_size;
    }
    if (rc != 0) {
        out->mdb = NULL;
        return ledger__fail(db, rc, "txn begin: %s", ledger__strerror(rc));
    }
    return 0;
}

int ledger__txn_commit(ledger_txn *txn)
{
    ledger *db = txn->db;
    assert(txn->mdb != NULL);
    int rc;
    if (txn->is_poisoned) {
        rc = LEDGER_EBADTXN;
        ledger__fail(db, rc, "commit refused: the transaction failed earlier");
        goto abort;
    }
    rc = fault(db);
    if (rc != 0) {
        ledger__fail(db, rc, "commit: %s", ledger__strerror(rc));
        goto abort;
    }
    rc = mdb_txn_commit(txn->mdb);
    txn->mdb = NULL;
    if (rc != 0) {
        if (txn->is_write)
            cache_settle(db, 0);
        txn->is_poisoned = 1;
        rc = ledger__io_fail(db, rc, db->path, "commit");
        txn->poison_rc = rc;
        return rc;
    }
    if (txn->is_write) {
        db->n_commits++;
        cache_settle(db, 1);
        if (txn->did_register_keys)
            db->is_key_registered = 1;
    }
    return 0;
abort:
    txn->is_poisoned = 1;
    if (txn->poison_rc == 0)
        txn->poison_rc = rc;
    ledger__txn_abort(txn);
    return rc;
}

void ledger__txn_abort(ledger_txn *txn)
{
    if (txn->mdb == NULL)
        return;
    mdb_txn_abort(txn->mdb);
    txn->mdb = NULL;
    if (txn->is_write)
        cache_settle(txn->db, 0);
}

/* Every wrapper: refuse on a poisoned txn, count, call, poison on error. */
#define WRAP_PROLOGUE(txn, what)                                                   \
    do {                                                                           \
        assert((txn)->mdb != NULL);                                                \
        if ((txn)->is_poisoned)                                                    \
            return ledger__fail((txn)->db, LEDGER_EBADTXN,                         \
                                "%s refused: the transaction failed earlier", what); \
        int frc_ = fault((txn)->db);                                               \
        if (frc_ != 0)                                                             \
            return poison((txn), frc_, what);                                      \
    } while (0)

int ledger__get(ledger_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *val)
{
    WRAP_PROLOGUE(txn, "get");
    int rc = mdb_get(txn->mdb, dbi, key, val);
    if (rc != 0 && rc != MDB_NOTFOUND)
        return poison(txn, rc, "get");
    return rc;
}

int ledger__meta_room_get(ledger_txn *txn, MDB_val *val, const char *prefix, const char *room)
{
    uint8_t kbuf[LEDGER_META_ROOM_KEY_MAX];
    size_t plen = strlen(prefix);
    if (plen + SCHEMA_ROOM_CHARS > sizeof kbuf)
        return MDB_BAD_VALSIZE;
    memcpy(kbuf, prefix, plen);
    memcpy(kbuf + plen, room, SCHEMA_ROOM_CHARS);
    MDB_val k = {plen + SCHEMA_ROOM_CHARS, kbuf};
    return ledger__get(txn, txn->db->dbi_meta, &k, val);
}

int ledger__put(ledger_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *val, unsigned flags)
{
    WRAP_PROLOGUE(txn, "put");
    int rc = mdb_put(txn->mdb, dbi, key, val, flags);
    if (rc != 0)
        return poison(txn, rc, "put");
    return 0;
}

int ledger__del(ledger_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *val)
{
    WRAP_PROLOGUE(txn, "del");
    int rc = mdb_del(txn->mdb, dbi, key, val);
    if (rc != 0 && rc != MDB_NOTFOUND)
        return poison(txn, rc, "del");
    return rc;
}

int ledger__cursor_open(ledger_txn *txn, MDB_dbi dbi, MDB_cursor **out)
{
    *out = NULL;
    WRAP_PROLOGUE(txn, "cursor open");
    int rc = mdb_cursor_open(txn->mdb, dbi, out);
    if (rc != 0) {
        *out = NULL;
        return poison(txn, rc, "cursor open");
    }
    return 0;
}

int ledger__cursor_get(ledger_txn *txn, MDB_cursor *cur, MDB_val *key, MDB_val *val,
                       MDB_cursor_op op)
{
    WRAP_PROLOGUE(txn, "cursor get");
    int rc = mdb_cursor_get(cur, key, val, op);
    if (rc != 0 && rc != MDB_NOTFOUND)
        return poison(txn, rc, "cursor get");
    return rc;
}

int ledger__cursor_put(ledger_txn *txn, MDB_cursor *cur, MDB_val *key, MDB_val *val,
                       unsigned flags)
{
    WRAP_PROLOGUE(txn, "cursor put");
    int rc = mdb_cursor_put(cur, key, val, flags);
    if (rc != 0)
        return poison(txn, rc, "cursor put");
    return 0;
}

/* ========================================================== write loop */

int ledger__write(ledger *db, int (*body)(ledger_txn *txn, void *ctx), void *ctx)
{
    for (;;) {
        ledger_txn txn;
        int rc = ledger__txn_begin(&txn, db, 1);
        if (rc != 0)
            return rc;
        rc = body(&txn, ctx);
        if (rc == 0 && !txn.is_poisoned) {
            rc = ledger__txn_commit(&txn);
        } else {
            if (rc == 0)
                rc = txn.poison_rc;
            ledger__txn_abort(&txn);
        }
        /* (1): a full map is the first failure of the txn, whatever the
         * body made of the calls that followed it. */
        int is_full = rc == MDB_MAP_FULL || (txn.is_poisoned && txn.poison_rc == MDB_MAP_FULL);
        if (!is_full)
            return rc;
        if (db->map_size >= db->max_map_size)
            return ledger__fail(db, LEDGER_EFULL,
                                "the ledger is full: its map of %zu bytes may not grow "
                                "(max_map_size); nothing was written",
                                db->map_size);
        size_t grown = db->map_size > db->max_map_size / 2 ? db->max_map_size
                                                           : db->map_size * 2;
        rc = mdb_env_set_mapsize(db->env, grown);
        if (rc != 0)
            return ledger__fail(db, rc, "growing the map to %zu bytes: %s", grown,
                                ledger__strerror(rc));
        MDB_envinfo info;
        mdb_env_info(db->env, &info);
        db->map_size = info.me_mapsize;
    }
}
