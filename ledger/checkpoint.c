/*
 * checkpoint.c - checkpoints: the engine state of a room at a version,
 * stored compressed so that a fold starts from the nearest one instead of
 * the genesis, with the chain hash of that version so a hash chain can be
 * resumed there too.
 *
 * The state holds every hidden fact of the game (the deck orders, the
 * hands, the traitors), so a room with a room key (ledger/room_key.c)
 * has its checkpoints sealed with it until its seed is revealed.
 *
 * Part of ledger/. A checkpoint is a cache of what the events already say:
 * it is never signed, never the only record of anything, and a damaged
 * one is refused (its digest is checked), never trusted. It never writes
 * the state of a room with a room key in the clear (unless the room is
 * revealed: one whose key it cannot open gets no checkpoint), and never
 * seals two different frames under one nonce.
 *
 * `checkpoints`: room (8) || version u32 BE ->
 *   0      1  tag 0x02
 *   1     32  chain hash of event `version` (the genesis hash at 0)
 *  33      n  one zstd frame of the Checkpoint protobuf (room, version,
 *             canonical engine state, its BLAKE2b-256 digest)
 * or, sealed:
 *   0      1  tag 0x03
 *   1     32  chain hash of event `version` (in the clear: a chain resumes
 *             there without the key)
 *  33     24  nonce = BLAKE2b-192 keyed with the room key of
 *             "MNCK" || room (8) || version u32 BE || chain hash || frame
 *  57   n+16  XChaCha20-Poly1305-IETF of that zstd frame, additional data
 *             "MNCK" || room || version || chain hash, then the tag
 * The nonce is a keyed hash of everything sealed, so it repeats only for
 * the very same bytes (a checkpoint written again), never for others.
 */
#include <stdio.h>
#include <string.h>

#include "ledger/internal.h"

#define ZSTD_LEVEL 3
#define SEAL_DOMAIN "MNCK"
#define SEAL_AD_BYTES (4 + SCHEMA_ROOM_CHARS + 4 + SCHEMA_HASH_BYTES)
#define NONCE_BYTES crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
#define TAG_BYTES crypto_aead_xchacha20poly1305_ietf_ABYTES
#define SEALED_HEADER (1 + SCHEMA_HASH_BYTES + NONCE_BYTES)

static void ckpt_key(uint8_t out[LEDGER_CKPT_KEY_BYTES], const char *room, uint32_t version)
{
    memcpy(out, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(out + SCHEMA_ROOM_CHARS, version);
}

/* The additional data of a sealed checkpoint. */
static void seal_ad(uint8_t ad[SEAL_AD_BYTES], const char *room, uint32_t version,
                    const uint8_t hash[SCHEMA_HASH_BYTES])
{
    memcpy(ad, SEAL_DOMAIN, 4);
    memcpy(ad + 4, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(ad + 4 + SCHEMA_ROOM_CHARS, version);
    memcpy(ad + 8 + SCHEMA_ROOM_CHARS, hash, SCHEMA_HASH_BYTES);
}

/* The room key the checkpoints of room are sealed with: *is_sealed_out 1
 * and key_out set, or 0 for a room whose checkpoints stay in the clear
 * (no room key, or the seed revealed). Returns 0 or an error
 * (LEDGER_EKEY: the key is sealed to an audit key not held). */
static int sealing_key(ledger *db, ledger_txn *txn, int *is_sealed_out, const char *room,
                       uint8_t key_out[LEDGER_ROOM_KEY_BYTES])
{
    int is_revealed = 0;
    *is_sealed_out = 0;
    int rc = ledger__room_is_revealed(db, txn, &is_revealed, room);
    if (rc != 0 || is_revealed)
        return rc;
    rc = ledger__room_key(db, txn, room, key_out);
    if (rc == LEDGER_ENOTFOUND)
        return 0;
    *is_sealed_out = rc == 0;
    return rc;
}

int ledger__checkpoint_put(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                           const uint8_t hash[SCHEMA_HASH_BYTES], const engine_state *st)
{
    uint8_t *state_buf = db->scratch;
    uint8_t *pb = db->scratch + LEDGER_SCRATCH_PART;
    uint8_t *out = db->scratch + 2 * LEDGER_SCRATCH_PART;
    uint8_t key[LEDGER_ROOM_KEY_BYTES];
    int is_sealed = 0;
    int rc = sealing_key(db, txn, &is_sealed, room, key);
    if (rc == LEDGER_EKEY)
        return 0; /* sealed to an audit key not held: a cache it cannot seal is not kept */
    if (rc != 0)
        return rc;
    size_t state_len = engine_state_encode(state_buf, LEDGER_SCRATCH_PART, st);
    if (state_len == 0 || state_len > LEDGER_SCRATCH_PART) {
        rc = ledger__fail(db, LEDGER_ERROR, "the state of %s at %u does not encode", room,
                          version);
        goto out;
    }
    codec_checkpoint c;
    memset(&c, 0, sizeof c);
    memcpy(c.room, room, SCHEMA_ROOM_CHARS);
    c.version = version;
    c.state = state_buf;
    c.state_len = state_len;
    engine_state_digest(c.state_digest, st);
    size_t pb_len = 0;
    rc = codec_checkpoint_encode(pb, LEDGER_SCRATCH_PART, &pb_len, &c);
    if (rc != 0) {
        rc = ledger__fail(db, LEDGER_ERROR, "checkpoint of %s at %u does not encode (%d)", room,
                          version, rc);
        goto out;
    }
    /* The frame goes where the record wants it, or beside it to be sealed. */
    uint8_t *frame = is_sealed ? state_buf : out + 1 + SCHEMA_HASH_BYTES;
    size_t z = ZSTD_compressCCtx(db->cctx, frame, LEDGER_SCRATCH_PART - SEALED_HEADER - TAG_BYTES,
                                 pb, pb_len, ZSTD_LEVEL);
    if (ZSTD_isError(z)) {
        rc = ledger__fail(db, LEDGER_ERROR, "compressing a checkpoint: %s",
                          ZSTD_getErrorName(z));
        goto out;
    }
    size_t len = 1 + SCHEMA_HASH_BYTES + z;
    out[0] = LEDGER_TAG_CHECKPOINT;
    memcpy(out + 1, hash, SCHEMA_HASH_BYTES);
    if (is_sealed) {
        uint8_t ad[SEAL_AD_BYTES];
        uint8_t *nonce = out + 1 + SCHEMA_HASH_BYTES;
        crypto_generichash_state h;
        seal_ad(ad, room, version, hash);
        crypto_generichash_init(&h, key, sizeof key, NONCE_BYTES);
        crypto_generichash_update(&h, ad, sizeof ad);
        crypto_generichash_update(&h, frame, z);
        crypto_generichash_final(&h, nonce, NONCE_BYTES);
        unsigned long long clen = 0;
        crypto_aead_xchacha20poly1305_ietf_encrypt(out + SEALED_HEADER, &clen, frame, z, ad,
                                                   sizeof ad, NULL, nonce, key);
        out[0] = LEDGER_TAG_CHECKPOINT_SEALED;
        len = SEALED_HEADER + (size_t)clen;
    }
    uint8_t kbuf[LEDGER_CKPT_KEY_BYTES];
    ckpt_key(kbuf, room, version);
    MDB_val k = {sizeof kbuf, kbuf}, v = {len, out};
    rc = ledger__put(txn, db->dbi_checkpoints, &k, &v, 0);
out:
    if (is_sealed) {
        sodium_memzero(key, sizeof key);
        sodium_memzero(db->scratch, 2 * LEDGER_SCRATCH_PART);
    }
    return rc;
}

/* The state of a decompressed Checkpoint protobuf, checked. */
static int state_read(ledger *db, engine_state *state_out, const char *room, uint32_t version,
                      const uint8_t *pb, size_t n)
{
    char err[SCHEMA_ERRMSG] = "";
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

/* A sealed checkpoint's frame, opened into db's third scratch part. */
static int unseal(ledger *db, const uint8_t **frame_out, size_t *len_out, const char *room,
                  uint32_t version, const uint8_t *val, size_t len, const uint8_t *key)
{
    uint8_t *frame = db->scratch + 2 * LEDGER_SCRATCH_PART;
    uint8_t ad[SEAL_AD_BYTES];
    if (key == NULL)
        return ledger__fail(db, LEDGER_EKEY, "room %s: the state at %u is sealed with the room "
                            "key, which needs the audit key", room, version);
    if (len < SEALED_HEADER + TAG_BYTES + 1 ||
        len - SEALED_HEADER - TAG_BYTES > LEDGER_SCRATCH_PART)
        return LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: bad size", room, version);
    seal_ad(ad, room, version, val + 1);
    unsigned long long n = 0;
    if (crypto_aead_xchacha20poly1305_ietf_decrypt(frame, &n, NULL, val + SEALED_HEADER,
                                                   len - SEALED_HEADER, ad, sizeof ad,
                                                   val + 1 + SCHEMA_HASH_BYTES, key) != 0)
        return LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: does not open with the room key", room,
                                  version);
    *frame_out = frame;
    *len_out = (size_t)n;
    return 0;
}

int ledger__checkpoint_decode(ledger *db, engine_state *state_out, const char *room,
                              uint32_t version, const uint8_t *val, size_t len,
                              const uint8_t *key)
{
    uint8_t *pb = db->scratch + LEDGER_SCRATCH_PART;
    if (len < 34 || (val[0] != LEDGER_TAG_CHECKPOINT && val[0] != LEDGER_TAG_CHECKPOINT_SEALED))
        return LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: bad tag or size", room, version);
    const uint8_t *frame = val + 1 + SCHEMA_HASH_BYTES;
    size_t frame_len = len - 1 - SCHEMA_HASH_BYTES;
    if (val[0] == LEDGER_TAG_CHECKPOINT_SEALED) {
        int rc = unseal(db, &frame, &frame_len, room, version, val, len, key);
        if (rc != 0)
            return rc;
    }
    unsigned long long size = ZSTD_getFrameContentSize(frame, frame_len);
    int rc = 0;
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
        size > LEDGER_SCRATCH_PART) {
        rc = LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: bad zstd frame", room, version);
        goto out;
    }
    size_t n = ZSTD_decompressDCtx(db->dctx, pb, LEDGER_SCRATCH_PART, frame, frame_len);
    if (ZSTD_isError(n) || n != size) {
        rc = LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: %s", room, version,
                                ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short frame");
        goto out;
    }
    rc = state_read(db, state_out, room, version, pb, n);
out:
    if (val[0] == LEDGER_TAG_CHECKPOINT_SEALED)
        sodium_memzero(db->scratch + LEDGER_SCRATCH_PART, 2 * LEDGER_SCRATCH_PART);
    return rc;
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
    if (v.mv_size < 34 ||
        (val[0] != LEDGER_TAG_CHECKPOINT && val[0] != LEDGER_TAG_CHECKPOINT_SEALED)) {
        rc = LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u: bad tag or size", room, found);
        goto out;
    }
    if (state_out != NULL) {
        uint8_t key[LEDGER_ROOM_KEY_BYTES];
        int has_key = 0;
        if (val[0] == LEDGER_TAG_CHECKPOINT_SEALED) {
            rc = ledger__room_key(db, txn, room, key);
            if (rc == LEDGER_ENOTFOUND)
                rc = LEDGER_CORRUPT_MSG(db, "checkpoint %s@%u is sealed but the room has no "
                                        "room key", room, found);
            else if (rc == LEDGER_EKEY) {
                char why[sizeof db->errmsg];
                snprintf(why, sizeof why, "%s", db->errmsg);
                rc = ledger__fail(db, LEDGER_EKEY, "%s: its states are sealed with the room "
                                  "key", why);
            }
            if (rc != 0)
                goto out;
            has_key = 1;
        }
        rc = ledger__checkpoint_decode(db, state_out, room, found, val, v.mv_size,
                                       has_key ? key : NULL);
        sodium_memzero(key, sizeof key);
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
