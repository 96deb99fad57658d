/*
 * key_chain.c - the ledger's pinned signing key chain: its first key is
 * the one the ledger first wrote with, and every later key was rotated in
 * by the key it retired, which signed the rotation (the endorsement in the
 * new key's row of `keys`). Which keys may sign, checked by verify; which
 * keys directory may write, checked before every write.
 *
 * Part of ledger/. It never signs but through ledger_key_rotate's
 * endorsement (keys.c), and never trusts a key row it cannot tie to the
 * chain: a row the bytes say was rotated in must carry a good signature by
 * its predecessor; two rows claiming to be the ledger's first key are a
 * forgery, not a choice.
 *
 * ENDORSEMENT signed bytes (44): "MNTK", the predecessor's id u32, the
 * new key's id u32, the new public key (32); docs/FORMAT.md "keys".
 */
#include <string.h>

#include "ledger/internal.h"

#define CHAIN_MAX_LINKS 4096 /* longer than any chain of rotations */

size_t ledger__endorsement_canonical(uint8_t out[LEDGER_ENDORSEMENT_BYTES], uint32_t predecessor,
                                     uint32_t key_id, const uint8_t pk[SCHEMA_KEY_BYTES])
{
    memcpy(out, "MNTK", 4);
    ledger__be32_put(out + 4, predecessor);
    ledger__be32_put(out + 8, key_id);
    memcpy(out + 12, pk, SCHEMA_KEY_BYTES);
    return LEDGER_ENDORSEMENT_BYTES;
}

int ledger__each_signing_key(ledger *db, ledger_txn *txn,
                             int (*fn)(void *ctx, const codec_key *k), void *ctx)
{
    MDB_cursor *cur;
    int rc = ledger__cursor_open(txn, db->dbi_keys, &cur);
    if (rc != 0)
        return rc;
    MDB_val k, v;
    for (rc = ledger__cursor_get(txn, cur, &k, &v, MDB_FIRST); rc == 0;
         rc = ledger__cursor_get(txn, cur, &k, &v, MDB_NEXT)) {
        codec_key key;
        char err[SCHEMA_ERRMSG] = "";
        const uint8_t *p = v.mv_data;
        if (k.mv_size != 4 || v.mv_size < 2 || p[0] != LEDGER_TAG_PROTOBUF ||
            codec_key_decode(&key, p + 1, v.mv_size - 1, err) != 0) {
            rc = LEDGER_CORRUPT_MSG(db, "a row of `keys` does not decode");
            break;
        }
        if (key.is_audit)
            continue;
        if ((rc = fn(ctx, &key)) != 0)
            break;
    }
    mdb_cursor_close(cur);
    return rc == MDB_NOTFOUND ? 0 : rc;
}

typedef struct roots {
    uint32_t first, second;        /* the chain's first keys found (0 none) */
    int n;
} roots;

static int count_root(void *vctx, const codec_key *k)
{
    roots *r = vctx;
    if (k->is_imported || k->has_predecessor)
        return 0;
    if (r->n++ == 0)
        r->first = k->key_id;
    else if (r->n == 2)
        r->second = k->key_id;
    return 0;
}

/* The stored row of key_id: 0, LEDGER_ENOTFOUND (also for the handle's
 * own key not yet in `keys`), or an error. */
static int stored_key(ledger *db, ledger_txn *txn, codec_key *out, uint32_t key_id)
{
    int is_stored = 0;
    int rc = ledger__key_record(db, txn, out, key_id, &is_stored);
    return rc == 0 && !is_stored ? LEDGER_ENOTFOUND : rc;
}

/* The chain's first key: 0 and *root_out (0 if the ledger has no chain
 * yet), or LEDGER_EBADSIG when two rows claim it. */
static int chain_root(ledger *db, ledger_txn *txn, uint32_t *root_out)
{
    roots r = {0, 0, 0};
    int rc = ledger__each_signing_key(db, txn, count_root, &r);
    if (rc != 0)
        return rc;
    if (r.n > 1)
        return ledger__fail(db, LEDGER_EBADSIG, "keys %08x and %08x both claim to be the "
                            "ledger's first signing key: a forged chain, or rotations by an "
                            "older build (`mentat key repin`)", r.first, r.second);
    *root_out = r.first;
    return 0;
}

int ledger__key_chain_check(ledger *db, ledger_txn *txn, codec_key *out, uint32_t key_id)
{
    uint32_t root = 0;
    int rc = chain_root(db, txn, &root);
    if (rc != 0)
        return rc;
    uint32_t id = key_id;
    for (int links = 0; links < CHAIN_MAX_LINKS; links++) {
        codec_key k;
        rc = stored_key(db, txn, &k, id);
        if (rc == LEDGER_ENOTFOUND)
            return ledger__fail(db, LEDGER_EBADSIG, "key %08x is not in the ledger's key chain "
                                "(%s)", key_id, id == key_id ? "unknown key" : "a link is missing");
        if (rc != 0)
            return rc;
        if (k.is_audit)
            return ledger__fail(db, LEDGER_EBADSIG, "key %08x is an audit key; it cannot sign",
                                id);
        if (links == 0)
            *out = k;
        if (!k.has_predecessor) {
            /* The chain's first key, or the first of an archive's (a
             * restore that trusted the archive imported it). */
            if (k.is_imported || root == 0 || id == root)
                return 0;
            return ledger__fail(db, LEDGER_EBADSIG, "key %08x is outside the ledger's key chain "
                                "(its first key is %08x)", key_id, root);
        }
        codec_key pred;
        rc = stored_key(db, txn, &pred, k.predecessor);
        if (rc == LEDGER_ENOTFOUND)
            return ledger__fail(db, LEDGER_EBADSIG, "key %08x was rotated in by key %08x, which "
                                "the ledger does not hold", id, k.predecessor);
        if (rc != 0)
            return rc;
        uint8_t msg[LEDGER_ENDORSEMENT_BYTES];
        size_t len = ledger__endorsement_canonical(msg, k.predecessor, id, k.public_key);
        if (pred.is_audit || ledger__verify_sig(k.endorsement, msg, len, pred.public_key) != 0)
            return ledger__fail(db, LEDGER_EBADSIG, "key %08x's rotation is not signed by the "
                                "key it replaced (%08x)", id, k.predecessor);
        id = k.predecessor;
    }
    return ledger__fail(db, LEDGER_EBADSIG, "key %08x's chain does not end", key_id);
}

int ledger__key_chain_admits(ledger *db, ledger_txn *txn)
{
    uint32_t root = 0;
    int rc = chain_root(db, txn, &root);
    if (rc != 0 || root == 0)
        return rc; /* no chain yet: this key will be its first */
    codec_key mine;
    rc = stored_key(db, txn, &mine, db->key_id);
    if (rc != 0 && rc != LEDGER_ENOTFOUND)
        return rc;
    if (rc == 0 && !mine.is_imported && !mine.is_audit)
        return 0;
    return ledger__fail(db, LEDGER_EKEY, "the keys in %s are not this ledger's: it signs with "
                        "the key chain from %08x, and %s holds key %08x (give --keys the "
                        "ledger's own keys directory)", db->keys_dir, root, db->keys_dir,
                        db->key_id);
}
