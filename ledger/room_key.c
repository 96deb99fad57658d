/*
 * room_key.c - the per-room key: 32 bytes from the CSPRNG drawn when a
 * room is made, sealed to the audit key as the room seed is, and kept in
 * `meta` under roomkey/<room> (a record of its own, never the signed
 * genesis, so that a reseal may rewrite it). With it the ledger seals the
 * secret arguments of a refused action (engine_action_secret_mask) before
 * the rejection is stored, and the room's checkpoints (ledger/checkpoint.c),
 * and opens them for a reader holding the audit key. `reveal` publishes it
 * beside the seed (revealkey/<room>, 32 bytes in the clear), and from then
 * on it opens for every reader.
 *
 * Part of ledger/. It never stores a room key or a secret argument in the
 * clear before the reveal, never reuses a nonce under one key (the nonce is derived from the
 * room and the rejection's counter, which only counts up and is written in
 * the transaction of the record it numbers), and never trusts sealed bytes
 * it reads: a record that does not open, or opens to another action, is
 * corrupt.
 *
 * `meta` roomkey/<room> -> 84 bytes:
 *     0   4  audit_key_id u32 BE: the audit key it is sealed to
 *     4  80  crypto_box_seal(room key (32), audit public key)
 *
 * A sealed rejected action (Rejection.sealed_action, 46..62 bytes):
 *     0  24  nonce = BLAKE2b-192("MNRJ" || room (8) || counter u32 BE)
 *    24  n   XChaCha20-Poly1305-IETF of the canonical action (kind, n_args,
 *            args; ledger__action_canonical) then the detail value (i32
 *            BE), additional data "MNRJ" || room || counter, then the
 *            16-byte tag
 *   and in the stored record the secret arguments are 0, and so is the
 *   detail value when the argument it is about is a secret one.
 */
#include <string.h>

#include "ledger/internal.h"

#define ROOM_KEY_META "roomkey/"
#define ROOM_KEY_RECORD_BYTES LEDGER_ROOM_KEY_RECORD_BYTES
_Static_assert(LEDGER_ROOM_KEY_RECORD_BYTES == 4 + crypto_box_SEALBYTES + LEDGER_ROOM_KEY_BYTES,
               "the room key record");
#define SEAL_DOMAIN "MNRJ"
#define SEAL_AD_BYTES (4 + SCHEMA_ROOM_CHARS + 4)
#define NONCE_BYTES crypto_aead_xchacha20poly1305_ietf_NPUBBYTES

#define META_NAME_MAX (sizeof LEDGER_META_REVEAL_KEY_PREFIX - 1 + SCHEMA_ROOM_CHARS)

/* The meta name prefix || room into out; its length. */
static size_t meta_name(uint8_t out[META_NAME_MAX], const char *prefix, const char *room)
{
    size_t n = strlen(prefix);
    memcpy(out, prefix, n);
    memcpy(out + n, room, SCHEMA_ROOM_CHARS);
    return n + SCHEMA_ROOM_CHARS;
}

int ledger__room_key_put(ledger *db, ledger_txn *txn, const char *room,
                         const uint8_t key[LEDGER_ROOM_KEY_BYTES],
                         const uint8_t pk[SCHEMA_KEY_BYTES], unsigned flags)
{
    uint8_t rec[ROOM_KEY_RECORD_BYTES];
    uint8_t kbuf[META_NAME_MAX];
    ledger__be32_put(rec, ledger__key_id(pk));
    if (crypto_box_seal(rec + 4, key, LEDGER_ROOM_KEY_BYTES, pk) != 0)
        return ledger__fail(db, LEDGER_ERROR, "cannot seal room %s's key", room);
    MDB_val k = {meta_name(kbuf, ROOM_KEY_META, room), kbuf}, v = {sizeof rec, rec};
    return ledger__put(txn, db->dbi_meta, &k, &v, flags);
}

int ledger__room_key_new(ledger *db, ledger_txn *txn, const char *room)
{
    uint8_t key[LEDGER_ROOM_KEY_BYTES];
    if (!db->has_audit_key)
        return ledger__fail(db, LEDGER_EKEY, "no audit key in %s to seal room %s's key to",
                            db->keys_dir, room);
    randombytes_buf(key, sizeof key);
    int rc = ledger__room_key_put(db, txn, room, key, db->audit_pk, MDB_NOOVERWRITE);
    sodium_memzero(key, sizeof key);
    return rc;
}

int ledger__room_key_open(ledger *db, uint8_t key_out[LEDGER_ROOM_KEY_BYTES],
                          const uint8_t *rec, const char *room)
{
    uint32_t id = ledger__be32_get(rec);
    if (db->has_audit_key && id != db->audit_key_id)
        return ledger__fail(db, LEDGER_EKEY, "room %s is sealed to audit key %08x; the key "
                            "directory %s holds audit key %08x", room, id, db->keys_dir,
                            db->audit_key_id);
    if (!db->has_audit_key)
        return ledger__fail(db, LEDGER_EKEY, "room %s: no audit key in %s and no revealed "
                            "room key", room, db->keys_dir);
    if (crypto_box_seal_open(key_out, rec + 4, ROOM_KEY_RECORD_BYTES - 4, db->audit_pk,
                             db->audit_sk) != 0)
        return LEDGER_CORRUPT_MSG(db, "room %s: the room key does not open with audit key %08x",
                                  room, id);
    return 0;
}

int ledger__room_key_records(ledger *db, ledger_txn *txn, const uint8_t **sealed_out,
                             size_t *sealed_len_out, const uint8_t **revealed_out,
                             const char *room)
{
    uint8_t kbuf[META_NAME_MAX];
    MDB_val k = {meta_name(kbuf, ROOM_KEY_META, room), kbuf}, v;
    *sealed_out = *revealed_out = NULL;
    *sealed_len_out = 0;
    int rc = ledger__get(txn, db->dbi_meta, &k, &v);
    if (rc == 0 && v.mv_size != ROOM_KEY_RECORD_BYTES)
        return LEDGER_CORRUPT_MSG(db, "room %s: room key record of %zu bytes", room, v.mv_size);
    if (rc == 0) {
        *sealed_out = v.mv_data;
        *sealed_len_out = v.mv_size;
    } else if (rc != MDB_NOTFOUND) {
        return rc;
    }
    MDB_val rk = {meta_name(kbuf, LEDGER_META_REVEAL_KEY_PREFIX, room), kbuf}, rv;
    rc = ledger__get(txn, db->dbi_meta, &rk, &rv);
    if (rc == 0 && rv.mv_size != LEDGER_ROOM_KEY_BYTES)
        return LEDGER_CORRUPT_MSG(db, "room %s: revealed room key of %zu bytes", room,
                                  rv.mv_size);
    if (rc == 0)
        *revealed_out = rv.mv_data;
    return rc == MDB_NOTFOUND ? 0 : rc;
}

int ledger__room_key_import(ledger *db, ledger_txn *txn, const uint8_t *sealed,
                            const uint8_t *revealed, const char *room)
{
    uint8_t kbuf[META_NAME_MAX];
    int rc = 0;
    if (sealed != NULL) {
        MDB_val k = {meta_name(kbuf, ROOM_KEY_META, room), kbuf},
                v = {ROOM_KEY_RECORD_BYTES, (void *)sealed};
        rc = ledger__put(txn, db->dbi_meta, &k, &v, 0);
    }
    if (rc == 0 && revealed != NULL) {
        MDB_val k = {meta_name(kbuf, LEDGER_META_REVEAL_KEY_PREFIX, room), kbuf},
                v = {LEDGER_ROOM_KEY_BYTES, (void *)revealed};
        rc = ledger__put(txn, db->dbi_meta, &k, &v, 0);
    }
    return rc;
}

int ledger__room_key_of_archive(ledger *db, ledger_txn *txn,
                                uint8_t key_out[LEDGER_ROOM_KEY_BYTES],
                                const struct ledger_archive *a)
{
    if (a->has_revealed_room_key) {
        memcpy(key_out, a->revealed_room_key, LEDGER_ROOM_KEY_BYTES);
        return 0;
    }
    if (a->has_room_key) {
        int rc = ledger__room_key_open(db, key_out, a->room_key, a->room);
        if (rc != LEDGER_EKEY)
            return rc;
    }
    return ledger__room_key(db, txn, a->room, key_out);
}

/* The key from its sealed record, else from its revealed one. */
static int room_key_read(ledger *db, ledger_txn *txn, const char *room,
                         uint8_t key_out[LEDGER_ROOM_KEY_BYTES])
{
    const uint8_t *sealed, *revealed;
    size_t len;
    int rc = ledger__room_key_records(db, txn, &sealed, &len, &revealed, room);
    if (rc != 0)
        return rc;
    if (sealed == NULL)
        return ledger__fail(db, LEDGER_ENOTFOUND, "room %s has no room key (made by an older "
                            "build)", room);
    rc = ledger__room_key_open(db, key_out, sealed, room);
    if (rc == LEDGER_EKEY && revealed != NULL) {
        memcpy(key_out, revealed, LEDGER_ROOM_KEY_BYTES);
        rc = 0;
    }
    return rc;
}

int ledger__room_key(ledger *db, ledger_txn *txn, const char *room,
                     uint8_t key_out[LEDGER_ROOM_KEY_BYTES])
{
    ledger_cache_entry *e = ledger__cache_find(db, room);
    if (e != NULL && e->has_room_key) {
        memcpy(key_out, e->room_key, LEDGER_ROOM_KEY_BYTES);
        return 0;
    }
    int rc = room_key_read(db, txn, room, key_out);
    if (rc != 0)
        return rc;
    e = ledger__cache_take(db, room);
    memcpy(e->room_key, key_out, LEDGER_ROOM_KEY_BYTES);
    e->has_room_key = 1;
    if (txn->is_write)
        e->is_dirty = 1; /* internal.h (3) */
    return 0;
}

int ledger__room_is_revealed(ledger *db, ledger_txn *txn, int *is_out, const char *room)
{
    uint8_t kbuf[META_NAME_MAX];
    MDB_val k = {meta_name(kbuf, LEDGER_META_REVEAL_PREFIX, room), kbuf}, v;
    int rc = ledger__get(txn, db->dbi_meta, &k, &v);
    *is_out = rc == 0;
    return rc == MDB_NOTFOUND ? 0 : rc;
}

int ledger__room_key_reveal(ledger *db, ledger_txn *txn, const char *room)
{
    uint8_t key[LEDGER_ROOM_KEY_BYTES];
    uint8_t kbuf[META_NAME_MAX];
    int rc = ledger__room_key(db, txn, room, key);
    if (rc == LEDGER_ENOTFOUND || rc == LEDGER_EKEY)
        return 0; /* nothing sealed with one, or not ours to publish */
    if (rc != 0)
        return rc;
    MDB_val k = {meta_name(kbuf, LEDGER_META_REVEAL_KEY_PREFIX, room), kbuf},
            v = {sizeof key, key};
    rc = ledger__put(txn, db->dbi_meta, &k, &v, 0);
    sodium_memzero(key, sizeof key);
    return rc;
}

#define PLAIN_MAX (2 + 2 * ENGINE_ACTION_MAX_ARGS + 4)

/* 1 if canonical action bytes plain (kind, n_args, args; n_args checked
 * by the caller) are the stored action with the arguments of mask filled
 * in: act gets them. */
static int opens_to(engine_action *act, const uint8_t *plain, const engine_action *stored,
                    uint8_t mask)
{
    if (plain[0] != stored->kind)
        return 0;
    *act = *stored;
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++) {
        uint16_t u = i < plain[1] ? (uint16_t)((unsigned)plain[2 + 2 * i] << 8 |
                                               (unsigned)plain[3 + 2 * i])
                                  : 0;
        int16_t a = (int16_t)u;
        if (!((unsigned)mask >> i & 1u) && a != stored->arg[i])
            return 0;
        act->arg[i] = a;
    }
    return 1;
}

/* 1 if the rejection's detail value is about a secret argument. */
static int is_secret_detail(const codec_rejection *r, uint8_t mask)
{
    return r->detail_arg >= 0 && r->detail_arg < ENGINE_ACTION_MAX_ARGS &&
           ((unsigned)mask >> (unsigned)r->detail_arg & 1u) != 0;
}

/* The nonce and the additional data of rejection `counter` of `room`. */
static void seal_context(uint8_t nonce[NONCE_BYTES], uint8_t ad[SEAL_AD_BYTES], const char *room,
                         uint32_t counter)
{
    memcpy(ad, SEAL_DOMAIN, 4);
    memcpy(ad + 4, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(ad + 4 + SCHEMA_ROOM_CHARS, counter);
    crypto_generichash(nonce, NONCE_BYTES, ad, SEAL_AD_BYTES, NULL, 0);
}

int ledger__rejection_seal(ledger *db, ledger_txn *txn, codec_rejection *r, uint32_t counter)
{
    uint8_t mask = engine_action_secret_mask(r->action.kind);
    uint8_t key[LEDGER_ROOM_KEY_BYTES], plain[PLAIN_MAX];
    uint8_t ad[SEAL_AD_BYTES];
    if (mask == 0)
        return 0;
    int rc = ledger__room_key(db, txn, r->room, key);
    if (rc == LEDGER_ENOTFOUND)
        return 0; /* a room of an older build: its rejections stay as they were */
    if (rc != 0)
        return rc;
    size_t len = ledger__action_canonical(plain, sizeof plain - 4, &r->action);
    if (len == 0) {
        sodium_memzero(key, sizeof key);
        return ledger__fail(db, LEDGER_EINPUT, "the action has no canonical form");
    }
    ledger__be32_put(plain + len, (uint32_t)r->detail_value);
    len += 4;
    seal_context(r->sealed_action, ad, r->room, counter);
    unsigned long long clen = 0;
    crypto_aead_xchacha20poly1305_ietf_encrypt(r->sealed_action + NONCE_BYTES, &clen, plain, len,
                                               ad, sizeof ad, NULL, r->sealed_action, key);
    sodium_memzero(key, sizeof key);
    sodium_memzero(plain, sizeof plain);
    r->sealed_len = NONCE_BYTES + (size_t)clen;
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        if ((unsigned)mask >> i & 1u)
            r->action.arg[i] = 0;
    if (is_secret_detail(r, mask))
        r->detail_value = 0;
    return 0;
}

int ledger__rejection_open(ledger *db, ledger_txn *txn, codec_rejection *r, uint32_t counter)
{
    uint8_t key[LEDGER_ROOM_KEY_BYTES], plain[PLAIN_MAX];
    uint8_t nonce[NONCE_BYTES], ad[SEAL_AD_BYTES];
    if (r->sealed_len == 0)
        return 0;
    int rc = ledger__room_key(db, txn, r->room, key);
    if (rc == LEDGER_EKEY)
        return 0; /* not ours to open: the reader sees it sealed */
    if (rc == LEDGER_ENOTFOUND)
        return LEDGER_CORRUPT_MSG(db, "room %s: rejection %u is sealed but the room has no key",
                                  r->room, counter);
    if (rc != 0)
        return rc;
    seal_context(nonce, ad, r->room, counter);
    unsigned long long len = 0;
    int bad = r->sealed_len < NONCE_BYTES + crypto_aead_xchacha20poly1305_ietf_ABYTES ||
              sodium_memcmp(nonce, r->sealed_action, NONCE_BYTES) != 0 ||
              r->sealed_len - NONCE_BYTES - crypto_aead_xchacha20poly1305_ietf_ABYTES >
                  sizeof plain ||
              crypto_aead_xchacha20poly1305_ietf_decrypt(
                  plain, &len, NULL, r->sealed_action + NONCE_BYTES, r->sealed_len - NONCE_BYTES,
                  ad, sizeof ad, nonce, key) != 0;
    sodium_memzero(key, sizeof key);
    /* It opens to the stored action with its secret arguments filled in. */
    engine_action act = r->action;
    uint8_t mask = engine_action_secret_mask(r->action.kind);
    if (!bad)
        bad = len < 6 || plain[1] > ENGINE_ACTION_MAX_ARGS || len != 2u + 2u * plain[1] + 4u;
    int32_t detail = bad ? 0 : (int32_t)ledger__be32_get(plain + len - 4);
    if (!bad && !is_secret_detail(r, mask) && detail != r->detail_value)
        bad = 1;
    if (!bad)
        bad = !opens_to(&act, plain, &r->action, mask);
    sodium_memzero(plain, sizeof plain);
    if (bad)
        return LEDGER_CORRUPT_MSG(db, "room %s: sealed rejection %u does not open to its action",
                                  r->room, counter);
    r->action = act;
    r->detail_value = detail;
    sodium_memzero(&act, sizeof act);
    r->sealed_len = 0;
    return 0;
}

/* ========================================================= sealed events */

#define EVENT_DOMAIN "MNEV"
#define EVENT_AD_BYTES (4 + SCHEMA_ROOM_CHARS + 4)
#define EVENT_PLAIN_MAX (2 + 2 * ENGINE_ACTION_MAX_ARGS)

/* The additional data of ev's sealed action. */
static void event_ad(uint8_t ad[EVENT_AD_BYTES], const char *room, const codec_event *ev)
{
    memcpy(ad, EVENT_DOMAIN, 4);
    memcpy(ad + 4, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(ad + 4 + SCHEMA_ROOM_CHARS, ev->version);
}

int ledger__event_seal(ledger *db, ledger_txn *txn, codec_event *ev, const char *room)
{
    uint8_t mask = engine_action_secret_args(&ev->action);
    uint8_t key[LEDGER_ROOM_KEY_BYTES], plain[EVENT_PLAIN_MAX], ad[EVENT_AD_BYTES];
    if (mask == 0 || ev->has_signature)
        return 0; /* nothing secret, or an event of format 1 (older rooms' suites) */
    int rc = ledger__room_key(db, txn, room, key);
    if (rc == LEDGER_ENOTFOUND)
        return 0; /* a room of an older build: its events stay as they were */
    if (rc != 0)
        return rc;
    size_t len = ledger__action_canonical(plain, sizeof plain, &ev->action);
    if (len == 0) {
        sodium_memzero(key, sizeof key);
        return ledger__fail(db, LEDGER_EINPUT, "the action has no canonical form");
    }
    /* The nonce: a keyed hash of all that is sealed, so it repeats only
     * with the very same bytes. */
    event_ad(ad, room, ev);
    crypto_generichash_state h;
    crypto_generichash_init(&h, key, sizeof key, NONCE_BYTES);
    crypto_generichash_update(&h, ad, sizeof ad);
    crypto_generichash_update(&h, plain, len);
    crypto_generichash_final(&h, ev->sealed_action, NONCE_BYTES);
    unsigned long long clen = 0;
    crypto_aead_xchacha20poly1305_ietf_encrypt(ev->sealed_action + NONCE_BYTES, &clen, plain,
                                               len, ad, sizeof ad, NULL, ev->sealed_action, key);
    sodium_memzero(key, sizeof key);
    sodium_memzero(plain, sizeof plain);
    sodium_memzero(&h, sizeof h);
    ev->sealed_len = NONCE_BYTES + (size_t)clen;
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        if ((unsigned)mask >> i & 1u)
            ev->action.arg[i] = 0;
    return 0;
}

int ledger__event_open_with(ledger *db, engine_action *out, const char *room,
                            const codec_event *ev, const uint8_t key[LEDGER_ROOM_KEY_BYTES])
{
    uint8_t plain[EVENT_PLAIN_MAX], ad[EVENT_AD_BYTES];
    *out = ev->action;
    if (ev->sealed_len == 0)
        return 0;
    event_ad(ad, room, ev);
    unsigned long long len = 0;
    int bad = ev->sealed_len < NONCE_BYTES + crypto_aead_xchacha20poly1305_ietf_ABYTES ||
              ev->sealed_len - NONCE_BYTES - crypto_aead_xchacha20poly1305_ietf_ABYTES >
                  sizeof plain ||
              crypto_aead_xchacha20poly1305_ietf_decrypt(
                  plain, &len, NULL, ev->sealed_action + NONCE_BYTES,
                  ev->sealed_len - NONCE_BYTES, ad, sizeof ad, ev->sealed_action, key) != 0;
    engine_action act;
    if (!bad)
        bad = len < 2 || plain[1] > ENGINE_ACTION_MAX_ARGS || len != 2u + 2u * plain[1];
    /* The secret arguments are those of the action it opens to, and zero
     * in the stored one; every other argument is the stored one. */
    uint8_t mask = 0;
    if (!bad) {
        bad = !opens_to(&act, plain, &ev->action, 0xFF);
        mask = bad ? 0 : engine_action_secret_args(&act);
    }
    for (unsigned i = 0; !bad && i < ENGINE_ACTION_MAX_ARGS; i++) {
        int is_secret = ((unsigned)mask >> i & 1u) != 0;
        if (is_secret ? ev->action.arg[i] != 0 : act.arg[i] != ev->action.arg[i])
            bad = 1;
    }
    if (!bad && (mask == 0 || engine_action_secret_args(&ev->action) != mask))
        bad = 1;
    sodium_memzero(plain, sizeof plain);
    if (bad) {
        sodium_memzero(&act, sizeof act);
        return LEDGER_CORRUPT_MSG(db, "room %s: the sealed action of event %u does not open "
                                  "to it", room, ev->version);
    }
    *out = act;
    sodium_memzero(&act, sizeof act);
    return 0;
}

int ledger__event_open(ledger *db, ledger_txn *txn, engine_action *out, const char *room,
                       const codec_event *ev)
{
    uint8_t key[LEDGER_ROOM_KEY_BYTES];
    *out = ev->action;
    if (ev->sealed_len == 0)
        return 0;
    int rc = ledger__room_key(db, txn, room, key);
    if (rc == LEDGER_ENOTFOUND)
        return LEDGER_CORRUPT_MSG(db, "room %s: event %u is sealed but the room has no room "
                                  "key", room, ev->version);
    if (rc == 0)
        rc = ledger__event_open_with(db, out, room, ev, key);
    sodium_memzero(key, sizeof key);
    return rc;
}
