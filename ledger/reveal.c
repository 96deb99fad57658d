/*
 * reveal.c - ledger_reveal: after a game, the room's seed unsealed with the
 * audit key, checked against the genesis commitment and kept in `meta`
 * under "reveal/<ROOM>", so that anyone holding the ledger or an archive of
 * the room can re-fold it and check every shuffle without the audit key;
 * and the room key beside it ("revealkey/<ROOM>", ledger/room_key.c), so
 * that what was sealed with it (checkpoints, refused actions' secrets)
 * opens for them too.
 *
 * Part of ledger/. It never reveals the seed of a game that is still being
 * played unless forced (the seed decides every card still to be drawn),
 * never stores a seed that does not match its commitment, and never draws
 * randomness.
 */
#include <string.h>

#include "ledger/internal.h"

void ledger__reveal_key(uint8_t out[LEDGER_REVEAL_KEY_BYTES], const char *room)
{
    memcpy(out, LEDGER_META_REVEAL_PREFIX, sizeof LEDGER_META_REVEAL_PREFIX - 1);
    memcpy(out + sizeof LEDGER_META_REVEAL_PREFIX - 1, room, SCHEMA_ROOM_CHARS);
}

typedef struct reveal_ctx {
    const char *room;
    int is_forced;
    uint8_t seed[ENGINE_SEED_BYTES]; /* the result */
} reveal_ctx;

static int commitment_check(ledger *db, const codec_genesis *g,
                            const uint8_t seed[ENGINE_SEED_BYTES])
{
    uint8_t h[SCHEMA_HASH_BYTES];
    crypto_generichash(h, sizeof h, seed, ENGINE_SEED_BYTES, NULL, 0);
    if (sodium_memcmp(h, g->seed_commitment, sizeof h) != 0)
        return ledger__fail(db, LEDGER_EBADSIG, "room %s: the seed does not match the genesis "
                            "commitment", g->room);
    return 0;
}

static int reveal_body(ledger_txn *txn, void *vctx)
{
    reveal_ctx *ctx = vctx;
    ledger *db = txn->db;
    codec_genesis g;
    int rc = ledger__genesis_read(db, txn, &g, ctx->room);
    if (rc != 0)
        return rc;

    uint8_t kbuf[LEDGER_REVEAL_KEY_BYTES];
    ledger__reveal_key(kbuf, ctx->room);
    MDB_val k = {sizeof kbuf, kbuf}, v;
    rc = ledger__get(txn, db->dbi_meta, &k, &v);
    if (rc == 0) {
        /* Revealed before: public already, so given again as it is. */
        if (v.mv_size != ENGINE_SEED_BYTES)
            return LEDGER_CORRUPT_MSG(db, "room %s: revealed seed of %zu bytes", ctx->room,
                                      v.mv_size);
        memcpy(ctx->seed, v.mv_data, ENGINE_SEED_BYTES);
        rc = commitment_check(db, &g, ctx->seed);
        return rc == 0 ? ledger__room_key_reveal(db, txn, ctx->room) : rc;
    }
    if (rc != MDB_NOTFOUND)
        return rc;

    rc = ledger__genesis_seal(db, txn, &g); /* a resealed room: its seal/<room> */
    if (rc != 0)
        return rc;
    if (!db->has_audit_key)
        return ledger__fail(db, LEDGER_EKEY, "no audit key in %s to unseal the seed of room %s",
                            db->keys_dir, ctx->room);
    if (g.audit_key_id != db->audit_key_id)
        return ledger__fail(db, LEDGER_EKEY, "room %s is sealed to audit key %08x; this ledger "
                            "holds %08x", ctx->room, g.audit_key_id, db->audit_key_id);
    if (crypto_box_seal_open(ctx->seed, g.sealed_seed, SCHEMA_SEALED_SEED_BYTES, db->audit_pk,
                             db->audit_sk) != 0)
        return ledger__fail(db, LEDGER_EBADSIG, "room %s: the sealed seed does not open with "
                            "audit key %08x", ctx->room, db->audit_key_id);
    rc = commitment_check(db, &g, ctx->seed);
    if (rc != 0)
        return rc;

    if (!ctx->is_forced) {
        ledger_head_rec head;
        engine_state st;
        rc = ledger__head_read(db, txn, &head, ctx->room);
        if (rc == 0)
            rc = ledger__state_load(db, txn, &st, ctx->room, head.version);
        if (rc != 0)
            return rc;
        if (st.phase != ENGINE_PHASE_GAME_OVER)
            return ledger__fail(db, LEDGER_EINPUT, "the game is not over (room %s is at version "
                                "%u, in phase %s); force the reveal to publish the seed anyway",
                                ctx->room, head.version, engine_phase_name(st.phase));
    }
    MDB_val sv = {ENGINE_SEED_BYTES, ctx->seed};
    rc = ledger__put(txn, db->dbi_meta, &k, &sv, 0);
    return rc == 0 ? ledger__room_key_reveal(db, txn, ctx->room) : rc;
}

int ledger_reveal(ledger *db, uint8_t seed_out[ENGINE_SEED_BYTES], const char *room,
                  int is_forced)
{
    reveal_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    if (!ledger__room_valid(room))
        return ledger__room_refuse(db, room);
    ctx.room = room;
    ctx.is_forced = is_forced != 0;
    int rc = ledger__write(db, reveal_body, &ctx);
    if (rc == 0)
        memcpy(seed_out, ctx.seed, ENGINE_SEED_BYTES);
    sodium_memzero(ctx.seed, sizeof ctx.seed);
    return rc;
}

int ledger_room_revealed_seed(ledger *db, uint8_t seed_out[ENGINE_SEED_BYTES], const char *room)
{
    ledger_txn txn;
    codec_genesis g;
    uint8_t key[LEDGER_REVEAL_KEY_BYTES];
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__genesis_read(db, &txn, &g, room);
    if (rc == 0) {
        ledger__reveal_key(key, room);
        MDB_val k = {sizeof key, key}, v;
        rc = ledger__get(&txn, db->dbi_meta, &k, &v);
        if (rc == MDB_NOTFOUND)
            rc = ledger__fail(db, LEDGER_ENOTFOUND, "room %s: the seed is not revealed", room);
        else if (rc == 0 && v.mv_size != ENGINE_SEED_BYTES)
            rc = LEDGER_CORRUPT_MSG(db, "room %s: revealed seed of %zu bytes", room, v.mv_size);
        else if (rc == 0) {
            memcpy(seed_out, v.mv_data, ENGINE_SEED_BYTES);
            rc = commitment_check(db, &g, seed_out);
            if (rc != 0)
                sodium_memzero(seed_out, ENGINE_SEED_BYTES);
        }
    }
    ledger__txn_abort(&txn);
    return rc;
}
