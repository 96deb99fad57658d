/*
 * checkpoint.c - checkpoints: the engine state of a room at a version,
 * stored compressed so that a fold starts from the nearest one instead of
 * the genesis, with the chain hash of that version so a hash chain can be
 * resumed there too.
 *
 * Part of ledger/. A checkpoint is a cache of what the events already say:
 * it is never signed, never the only record of anything, and a damaged
 * one is refused (its digest is checked), never trusted.
 *
 * `checkpoints`: room (8) || version u32 BE ->
 *   0      1  tag 0x02
 *   1     32  chain hash of event `version` (the genesis hash at 0)
 *  33      n  one zstd frame of the Checkpoint protobuf (room, version,
 *             canonical engine state, its BLAKE2b-256 digest)
 */
#include <string.h>

#include "ledger/internal.h"

#define ZSTD_LEVEL 3

static void ckpt_key(uint8_t out[LEDGER_CKPT_KEY_BYTES], const char *room, uint32_t version)
{
    memcpy(out, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(out + SCHEMA_ROOM_CHARS, version);
}

int ledger__checkpoint_put(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                           const uint8_t hash[SCHEMA_HASH_BYTES], const engine_state *st)
{
    uint8_t *state_buf = db->scratch;
    uint8_t *pb = db->scratch + LEDGER_SCRATCH_PART;
    uint8_t *out = db->scratch + 2 * LEDGER_SCRATCH_PART;
    size_t state_len = engine_state_encode(state_buf, LEDGER_SCRATCH_PART, st);
    if (state_len == 0 || state_len > LEDGER_SCRATCH_PART)
        return ledger__fail(db, LEDGER_ERROR, "the state of %s at %u does not encode", room,
                            version);
    codec_checkpoint c;
    memset(&c, 0, sizeof c);
    memcpy(c.room, room, SCHEMA_ROOM_CHARS);
    c.version = version;
    c.state = state_buf;
    c.state_len = state_len;
    engine_state_digest(c.state_digest, st);
    size_t pb_len = 0;
    int rc = codec_checkpoint_encode(pb, LEDGER_SCRATCH_PART, &pb_len, &c);
    if (rc != 0)
        return ledger__fail(db, LEDGER_ERROR, "checkpoint of %s at %u does not encode (%d)", room,
                            version, rc);
    out[0] = LEDGER_TAG_CHECKPOINT;
    memcpy(out + 1, hash, SCHEMA_HASH_BYTES);
    size_t z = ZSTD_compressCCtx(db->cctx, out + 33, LEDGER_SCRATCH_PART - 33, pb, pb_len,
                                 ZSTD_LEVEL);
    if (ZSTD_isError(z))
        return ledger__fail(db, LEDGER_ERROR, "compressing a checkpoint: %s",
                            ZSTD_getErrorName(z));
    uint8_t kbuf[LEDGER_CKPT_KEY_BYTES];
    ckpt_key(kbuf, room, version);
    MDB_val k = {sizeof kbuf, kbuf}, v = {33 + z, out};
    return ledger__put(txn, db->dbi_checkpoints, &k, &v, 0);
}

int ledger__checkpoint_decode(ledger *db, engine_state *state_out, const char *room,
                              uint32_t version, const uint8_t *val, size_t len)
{
    uint8_t *pb = db->scratch + LEDGER_SCRATCH_PART;
    char err[SCHEMA_ERRMSG] = "";
    if (len < 34 || val[0] != LEDGER_TAG_CHECKPOINT)
        return LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: bad tag or size", room, version);
    unsigned long long size = ZSTD_getFrameContentSize(val + 33, len - 33);
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
        size > LEDGER_SCRATCH_PART)
        return LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: bad zstd frame", room, version);
    size_t n = ZSTD_decompressDCtx(db->dctx, pb, LEDGER_SCRATCH_PART, val + 33, len - 33);
    if (ZSTD_isError(n) || n != size)
        return LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: %s", room, version,
                                  ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short frame");
    codec_checkpoint c;
    if (codec_checkpoint_decode(&c, pb, n, err) != 0)
        return LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: %s", room, version, err);
    if (memcmp(c.room, room, SCHEMA_ROOM_CHARS) != 0 || c.version != version)
        return LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: names %s@%u", room, version, c.room,
                                  c.version);
    if (engine_state_decode(state_out, c.state, c.state_len) != 0)
        return LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: the state does not decode", room,
                                  version);
    uint8_t digest[ENGINE_DIGEST_BYTES];
    engine_state_digest(digest, state_out);
    if (memcmp(digest, c.state_digest, sizeof digest) != 0)
        return LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: state digest mismatch", room, version);
    return 0;
}

int ledger__checkpoint_find(ledger *db, ledger_txn *txn, engine_state *state_out,
                            uint32_t *version_out, uint8_t hash_out[SCHEMA_HASH_BYTES],
                            const char *room, uint32_t version)
{
    uint8_t kbuf[LEDGER_CKPT_KEY_BYTES];
    MDB_cursor *cur = NULL;
    ckpt_key(kbuf, room, version);
    MDB_val k = {sizeof kbuf, kbuf}, v;
    int rc = ledger__cursor_open(txn, db->dbi_checkpoints, &cur);
    if (rc != 0)
        return rc;
    rc = ledger__cursor_get(txn, cur, &k, &v, MDB_SET_RANGE);
    if (rc == MDB_NOTFOUND)
        rc = ledger__cursor_get(txn, cur, &k, &v, MDB_LAST);
    else if (rc == 0 && (k.mv_size != sizeof kbuf || memcmp(k.mv_data, kbuf, sizeof kbuf) != 0))
        rc = ledger__cursor_get(txn, cur, &k, &v, MDB_PREV);
    if (rc == 0 && (k.mv_size != sizeof kbuf || memcmp(k.mv_data, room, SCHEMA_ROOM_CHARS) != 0))
        rc = MDB_NOTFOUND;
    if (rc == MDB_NOTFOUND) {
        rc = ledger__fail(db, LEDGER_ENOTFOUND, "no checkpoint of %s at or before %u", room,
                          version);
        goto out;
    }
    if (rc != 0)
        goto out;
    uint32_t found = ledger__be32_get((const uint8_t *)k.mv_data + SCHEMA_ROOM_CHARS);
    const uint8_t *val = v.mv_data;
    if (v.mv_size < 34 || val[0] != LEDGER_TAG_CHECKPOINT) {
        rc = LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: bad tag or size", room, found);
        goto out;
    }
    if (state_out != NULL) {
        rc = ledger__checkpoint_decode(db, state_out, room, found, val, v.mv_size);
        if (rc != 0)
            goto out;
    }
    if (version_out != NULL)
        *version_out = found;
    if (hash_out != NULL)
        memcpy(hash_out, val + 1, SCHEMA_HASH_BYTES);
out:
    if (cur != NULL)
        mdb_cursor_close(cur);
    return rc;
}
