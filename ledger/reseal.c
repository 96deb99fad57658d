/*
 * reseal.c - moving a room to another audit key (`mentat room reseal`):
 * its seed and its room key, sealed again to a new audit public key, so a
 * new host holding the matching secret key can read, audit and reveal it.
 *
 * Part of ledger/. The genesis is signed and hashed into the chain, so its
 * sealed seed is never rewritten: the reseal puts the seed, sealed to the
 * new key, in `meta` under seal/<room>, and every reader that opens the
 * seed takes that record in place of the genesis's (ledger__genesis_seal).
 * The room key's record (roomkey/<room>, room_key.c) keeps its layout and
 * is replaced. Both land in one write transaction, or neither. It never
 * writes a seed or a room key in the clear, never reseals what it did not
 * open with the key the room is sealed to, and never trusts a seal record
 * it reads: a seed it opens must still match the genesis commitment.
 *
 * `meta` seal/<room> -> 84 bytes (only in a room that was resealed):
 *     0   4  audit_key_id u32 BE: the audit key it is sealed to
 *     4  80  crypto_box_seal(seed (32), audit public key)
 */
#include <stdio.h>
#include <string.h>

#include "ledger/internal.h"

#define SEAL_META LEDGER_META_SEAL_PREFIX
#define SEAL_KEY_BYTES (sizeof SEAL_META - 1 + SCHEMA_ROOM_CHARS)
#define SEAL_RECORD_BYTES LEDGER_SEAL_RECORD_BYTES

static void seal_key(uint8_t out[SEAL_KEY_BYTES], const char *room)
{
    memcpy(out, SEAL_META, sizeof SEAL_META - 1);
    memcpy(out + sizeof SEAL_META - 1, room, SCHEMA_ROOM_CHARS);
}

int ledger__seal_record(ledger *db, ledger_txn *txn, const uint8_t **rec_out, const char *room)
{
    MDB_val v;
    int rc = ledger__meta_room_get(txn, &v, SEAL_META, room);
    if (rc != 0)
        return rc;
    if (v.mv_size != SEAL_RECORD_BYTES)
        return LEDGER_CORRUPT_MSG(db, "room %s: resealed seed record of %zu bytes", room,
                                  v.mv_size);
    *rec_out = v.mv_data;
    return 0;
}

int ledger__seal_record_put(ledger *db, ledger_txn *txn, const char *room,
                            const uint8_t rec[LEDGER_SEAL_RECORD_BYTES])
{
    uint8_t kbuf[SEAL_KEY_BYTES];
    seal_key(kbuf, room);
    MDB_val k = {sizeof kbuf, kbuf}, v = {SEAL_RECORD_BYTES, (void *)rec};
    return ledger__put(txn, db->dbi_meta, &k, &v, 0);
}

int ledger__genesis_seal(ledger *db, ledger_txn *txn, codec_genesis *g)
{
    const uint8_t *p = NULL;
    int rc = ledger__seal_record(db, txn, &p, g->room);
    if (rc == MDB_NOTFOUND)
        return 0;
    if (rc != 0 || p == NULL)
        return rc;
    g->audit_key_id = ledger__be32_get(p);
    memcpy(g->sealed_seed, p + 4, SCHEMA_SEALED_SEED_BYTES);
    return 0;
}

int ledger_room_seal(ledger *db, uint32_t *audit_key_id_out,
                     uint8_t sealed_out[SCHEMA_SEALED_SEED_BYTES], const char *room)
{
    ledger_txn txn;
    codec_genesis g;
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__genesis_read(db, &txn, &g, room);
    if (rc == 0)
        rc = ledger__genesis_seal(db, &txn, &g);
    if (rc == 0) {
        *audit_key_id_out = g.audit_key_id;
        memcpy(sealed_out, g.sealed_seed, SCHEMA_SEALED_SEED_BYTES);
    }
    ledger__txn_abort(&txn);
    return rc;
}

/* =============================================================== reseal */

typedef struct reseal_ctx {
    const char *room;
    const uint8_t *pk;             /* the new audit public key */
    int is_dry;                    /* 1 = check only, write nothing */
    ledger_reseal_report *out;
} reseal_ctx;

static int reseal_body(ledger_txn *txn, void *vctx)
{
    reseal_ctx *ctx = vctx;
    ledger *db = txn->db;
    ledger_reseal_report *out = ctx->out;
    codec_genesis g;
    uint8_t seed[ENGINE_SEED_BYTES], key[LEDGER_ROOM_KEY_BYTES], h[SCHEMA_HASH_BYTES];
    uint8_t rec[SEAL_RECORD_BYTES];
    int rc = ledger__genesis_read(db, txn, &g, ctx->room);
    if (rc == 0)
        rc = ledger__genesis_seal(db, txn, &g);
    if (rc != 0)
        return rc;
    out->from_key_id = g.audit_key_id;
    if (g.audit_key_id == out->to_key_id) {
        out->is_unchanged = 1; /* (the seed and the room key move together) */
        return 0;
    }
    if (!db->has_audit_key)
        return ledger__fail(db, LEDGER_EKEY, "no audit key in %s: room %s is sealed to audit "
                            "key %08x, and only that key may reseal it", db->keys_dir,
                            ctx->room, g.audit_key_id);
    if (g.audit_key_id != db->audit_key_id)
        return ledger__fail(db, LEDGER_EKEY, "room %s is sealed to audit key %08x; the key "
                            "directory %s holds audit key %08x, and only the room's may reseal "
                            "it", ctx->room, g.audit_key_id, db->keys_dir, db->audit_key_id);
    if (crypto_box_seal_open(seed, g.sealed_seed, SCHEMA_SEALED_SEED_BYTES, db->audit_pk,
                             db->audit_sk) != 0)
        return LEDGER_CORRUPT_MSG(db, "room %s: the sealed seed does not open with audit key "
                                  "%08x", ctx->room, db->audit_key_id);
    crypto_generichash(h, sizeof h, seed, sizeof seed, NULL, 0);
    if (sodium_memcmp(h, g.seed_commitment, sizeof h) != 0) {
        rc = ledger__fail(db, LEDGER_EBADSIG, "room %s: the seed does not match its "
                          "commitment", ctx->room);
        goto out;
    }
    rc = ledger__room_key(db, txn, ctx->room, key);
    out->has_room_key = rc == 0;
    if (rc == LEDGER_ENOTFOUND)
        rc = 0; /* a room of an older build: only its seed is sealed */
    if (rc != 0 || ctx->is_dry)
        goto out;
    ledger__be32_put(rec, out->to_key_id);
    if (crypto_box_seal(rec + 4, seed, sizeof seed, ctx->pk) != 0) {
        rc = ledger__fail(db, LEDGER_ERROR, "cannot seal room %s's seed", ctx->room);
        goto out;
    }
    rc = ledger__seal_record_put(db, txn, ctx->room, rec);
    if (rc == 0 && out->has_room_key)
        rc = ledger__room_key_put(db, txn, ctx->room, key, ctx->pk, 0);
out:
    sodium_memzero(seed, sizeof seed);
    sodium_memzero(key, sizeof key);
    return rc;
}

int ledger_room_reseal(ledger *db, ledger_reseal_report *out, const char *room,
                       const uint8_t audit_pk[SCHEMA_KEY_BYTES], int is_dry)
{
    reseal_ctx ctx = {room, audit_pk, is_dry != 0, out};
    memset(out, 0, sizeof *out);
    if (!ledger__room_valid(room))
        return ledger__room_refuse(db, room);
    out->to_key_id = ledger__key_id(audit_pk);
    if (is_dry) {
        ledger_txn txn;
        int rc = ledger__txn_begin(&txn, db, 0);
        if (rc != 0)
            return rc;
        rc = reseal_body(&txn, &ctx);
        ledger__txn_abort(&txn);
        return rc;
    }
    return ledger__write(db, reseal_body, &ctx);
}

/* ======================================================== the new key */

int ledger_audit_public(uint8_t pk_out[SCHEMA_KEY_BYTES], uint32_t *id_out,
                        const char *keys_dir, char *err)
{
    uint8_t audit[LEDGER_AUDIT_FILE_BYTES], pk[SCHEMA_KEY_BYTES];
    int rc = ledger__key_file_read(audit, sizeof audit, keys_dir, LEDGER_AUDIT_FILE, err);
    if (rc == 0) {
        snprintf(err, SCHEMA_ERRMSG, "no audit key in %s (mentat keygen makes one)", keys_dir);
        return LEDGER_ENOTFOUND;
    }
    if (rc < 0)
        return rc;
    int bad = crypto_scalarmult_base(pk, audit) != 0 ||
              sodium_memcmp(pk, audit + 32, SCHEMA_KEY_BYTES) != 0;
    sodium_memzero(audit, sizeof audit);
    if (bad) {
        snprintf(err, SCHEMA_ERRMSG, "%s/%s is not an X25519 key pair", keys_dir,
                 LEDGER_AUDIT_FILE);
        return LEDGER_EKEY;
    }
    memcpy(pk_out, pk, sizeof pk);
    *id_out = ledger__key_id(pk);
    return 0;
}
