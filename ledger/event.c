/*
 * event.c - the canonical encodings: the bytes the ledger signs and hashes
 * for an event, a genesis and a receipt, and the stored record formats.
 *
 * Part of ledger/. These layouts are a file format: a byte moved here
 * breaks every signature ever made. Never derive them from protobuf
 * (whose encodings are not canonical), never depend on struct layout, and
 * never change one without a new format version. docs/FORMAT.md repeats
 * them.
 *
 * All integers are big-endian, unsigned unless said. No padding.
 *
 * EVENT canonical bytes, format 1 (96 + 2 * n_args bytes, at most 112;
 * 64 more with a seat signature):
 *   off  len  field
 *     0    4  "MNTE"
 *     4    1  event format (LEDGER_EVENT_FORMAT_SIGNED, 1)
 *     5    8  room, 8 ASCII characters of the room alphabet
 *    13    4  version, 1-based
 *    17   32  prev_hash: hash of event version-1, or of the genesis for 1
 *    49    1  seat, wire form: 0 = the engine, 1..N = engine seat index + 1
 *    50    1  action kind (engine_action_kind)
 *    51    1  n_args = engine_action_n_given(action): the kind's n_args
 *             less its trailing optional args that are 0 (absent)
 *    52 2*n   args[0..n_args), each int16 big-endian two's complement
 *             (the unused and absent args must be 0 and are not encoded)
 *  52+2n   8  committed_at, unix milliseconds
 *  60+2n  32  state_digest: BLAKE2b-256 of the canonical engine state after
 *  92+2n   4  key_id of the signing key
 *  96+2n  64  seat_signature: only for an action of a bound seat (the
 *             genesis's seat keys), the seat's signature of its action
 *             (ledger/seat_sig.c); absent for an unbound seat or the engine
 *  160+2n  32  bind_key: only in the event that binds its seat as its
 *             player joins (Event.bind_key, ledger/seat_sig.c), after the
 *             seat signature (which is then the binding's); absent in
 *             every other event, whose bytes are as before
 *   signature = Ed25519 (crypto_sign_detached) over those bytes
 *   event hash = BLAKE2b-256(signed bytes || signature (64))
 * EVENT canonical bytes, format 2 (92 + 2 * n_args bytes; every event an
 * append writes now): format byte 2 (LEDGER_EVENT_FORMAT_UNSIGNED), and no
 * key_id: bytes 0..92+2n as above without it, then the seat signature
 * and the bind key.
 * The ledger does not sign them: the signed tree head of the room's head
 * (and of every receipt) covers the event through the chain and the tree.
 *   event hash = BLAKE2b-256(canonical bytes)
 * EVENT canonical bytes, format 3 (124 + 2 * n_args bytes): an event of
 * format 2 whose action has secret arguments, in a room with a room key
 * (ledger/room_key.c). Format byte 3; the action as stored, those
 * arguments 0 (n_args counts the stored ones); then after state_digest
 *  92+2n  32  BLAKE2b-256 of the sealed action (Event.sealed_action: the
 *             nonce, the ciphertext of the whole canonical action, the tag)
 * then the seat signature and the bind key as in format 2. The seat
 * signature is the seat's over its real action (the seat message), checked once the sealed
 * action is opened; the chain, the tree and the signed tree head cover the
 * stored form, so they are checked without any key.
 *   event hash = BLAKE2b-256(canonical bytes)
 *
 * GENESIS signed bytes (165 + position_len bytes, + 48 for a fork, + 4 +
 * 32 * n_seats when seats are bound):
 *   off  len  field
 *     0    4  "MNTG"
 *     4    1  format version
 *     5    8  room
 *    13    4  rules_version (the rules version the room is played by)
 *    17    1  hash algorithm: 1 = BLAKE2b-256
 *    18    1  signature algorithm: 1 = Ed25519
 *    19    1  n_seats (2..6)
 *    20    6  faction of seats 0..5 (engine_faction), 0xFF past n_seats
 *    26    1  is_advanced (0/1)
 *    27    1  turn_limit
 *    28    4  modules (ENGINE_MODULE_* bits)
 *    32    1  is_constructed (0/1)
 *    33   32  seed_commitment: BLAKE2b-256(seed)
 *    65   80  sealed_seed: crypto_box_seal(seed, audit public key)
 *   145    4  audit_key_id
 *   149    4  key_id of the signing key
 *   153    8  created_at, unix milliseconds
 *   161    4  position_len (0 unless constructed)
 *   165    n  position: canonical engine state of a constructed room
 *   and only for a fork (`mentat room fork`), after the position:
 *   165+n   4  "FORK"; "FRKS" when the position is sealed (a fork made
 *             since: position = nonce 24 || XChaCha20-Poly1305 of the
 *             canonical state with the fork's room key, additional data
 *             "MNFP" || room || tag 16; ledger/room.c)
 *   169+n   8  fork_of_room
 *   177+n   4  fork_of_version
 *   181+n  32  fork_of_hash: chain hash of that version in fork_of_room
 *   and only for a room that binds seats, last (after any fork bytes):
 *   +0      4  "SEAT"
 *   +4   32*N  the Ed25519 public key of each seat 0..N-1, 32 zero bytes
 *              for an unbound seat
 *   signature = Ed25519 over those bytes
 *   genesis hash = BLAKE2b-256(signed bytes || signature): the prev_hash
 *   of version 1
 *
 * RECEIPT signed bytes (52 bytes; receipts made before the `trees`
 * database, without a tree head):
 *     0    4  "MNTR"
 *     4    8  room
 *    12    4  version
 *    16   32  event hash
 *    48    4  key_id of the signing key
 *   signature = Ed25519 over those bytes
 *
 * RECEIPT WITH TREE HEAD signed bytes (92 bytes; every receipt made now):
 *     0    4  "MNTH"
 *     4   48  room, version, event hash, key_id as above
 *    52   32  tree root: RFC 9162 root of versions 1..version (SHA-256)
 *    84    8  tree time: committed_at of the event, unix milliseconds
 *   signature = Ed25519 over those bytes: one signature for the receipt
 *   and the signed tree head (room, size = version, root, time)
 *
 * STORED RECORDS (values in LMDB):
 *   event    tag 0x01, then the Event protobuf without prev_hash (it is
 *            recomputed from the previous record when read; still signed)
 *   genesis  tag 0x01, then the Genesis protobuf
 */
#include <stdlib.h>
#include <string.h>

#include "ledger/internal.h"

#define HASH_ALGORITHM_BLAKE2B_256 1
#define SIGNATURE_ALGORITHM_ED25519 1

uint8_t ledger__seat_to_wire(uint8_t seat)
{
    return seat == ENGINE_SEAT_ENGINE ? 0 : (uint8_t)(seat + 1);
}

size_t ledger__action_canonical(uint8_t *out, size_t cap, const engine_action *act)
{
    const engine_action_spec *spec = engine_action_spec_of(act->kind);
    if (spec == NULL || spec->n_args > ENGINE_ACTION_MAX_ARGS)
        return 0;
    for (unsigned i = spec->n_args; i < ENGINE_ACTION_MAX_ARGS; i++)
        if (act->arg[i] != 0)
            return 0;
    unsigned n = engine_action_n_given(act);
    size_t len = 2 + 2u * n;
    if (cap < len)
        return 0;
    out[0] = act->kind;
    out[1] = (uint8_t)n;
    for (unsigned i = 0; i < n; i++) {
        uint16_t a = (uint16_t)act->arg[i];
        out[2 + 2 * i] = (uint8_t)(a >> 8);
        out[3 + 2 * i] = (uint8_t)a;
    }
    return len;
}

static int room_bytes(uint8_t out[SCHEMA_ROOM_CHARS], const char *room)
{
    if (!ledger__room_valid(room))
        return 0;
    memcpy(out, room, SCHEMA_ROOM_CHARS);
    return 1;
}

size_t ledger__event_canonical(uint8_t out[LEDGER_EVENT_CANONICAL_MAX], const char *room,
                               const codec_event *ev)
{
    if (ev->seat != ENGINE_SEAT_ENGINE && ev->seat >= ENGINE_MAX_SEATS)
        return 0;
    if (ev->action.seat != ev->seat || !ev->has_prev_hash)
        return 0;
    uint8_t *p = out;
    if (ev->sealed_len != 0 && ev->has_signature)
        return 0;
    memcpy(p, LEDGER_EVENT_MAGIC, 4);
    p[4] = ev->has_signature    ? LEDGER_EVENT_FORMAT_SIGNED
           : ev->sealed_len != 0 ? LEDGER_EVENT_FORMAT_SEALED
                                 : LEDGER_EVENT_FORMAT_UNSIGNED;
    if (!room_bytes(p + 5, room))
        return 0;
    ledger__be32_put(p + 13, ev->version);
    memcpy(p + 17, ev->prev_hash, SCHEMA_HASH_BYTES);
    p[49] = ledger__seat_to_wire(ev->seat);
    p += 50;
    size_t alen = ledger__action_canonical(p, LEDGER_EVENT_CANONICAL_MAX - 50 - 44 -
                                                   SCHEMA_HASH_BYTES - SCHEMA_SIG_BYTES,
                                           &ev->action);
    if (alen == 0)
        return 0;
    p += alen;
    ledger__be64_put(p, ev->committed_at);
    memcpy(p + 8, ev->state_digest, SCHEMA_HASH_BYTES);
    p += 40;
    if (ev->has_signature) { /* format 1: the signer's key id */
        ledger__be32_put(p, ev->key_id);
        p += 4;
    }
    if (ev->sealed_len != 0) { /* format 3: what the sealed action is */
        crypto_generichash(p, SCHEMA_HASH_BYTES, ev->sealed_action, ev->sealed_len, NULL, 0);
        p += SCHEMA_HASH_BYTES;
    }
    if (ev->has_seat_signature) { /* a bound seat's action: its signature is signed too */
        memcpy(p, ev->seat_signature, SCHEMA_SIG_BYTES);
        p += SCHEMA_SIG_BYTES;
    }
    if (ev->has_bind_key) { /* a seat bound as it joins: the key, hashed with the event */
        if (!ev->has_seat_signature)
            return 0;
        memcpy(p, ev->bind_key, SCHEMA_KEY_BYTES);
        p += SCHEMA_KEY_BYTES;
    }
    return (size_t)(p - out);
}

void ledger__event_hash(uint8_t out[SCHEMA_HASH_BYTES], const uint8_t *canonical,
                        size_t canonical_len, const uint8_t sig[SCHEMA_SIG_BYTES])
{
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, SCHEMA_HASH_BYTES);
    crypto_generichash_update(&st, canonical, canonical_len);
    crypto_generichash_update(&st, sig, SCHEMA_SIG_BYTES);
    crypto_generichash_final(&st, out, SCHEMA_HASH_BYTES);
}

void ledger__event_chain_hash(uint8_t out[SCHEMA_HASH_BYTES], const uint8_t *canonical,
                              size_t canonical_len, const codec_event *ev)
{
    if (ev->has_signature)
        ledger__event_hash(out, canonical, canonical_len, ev->signature);
    else
        crypto_generichash(out, SCHEMA_HASH_BYTES, canonical, canonical_len, NULL, 0);
}

size_t ledger__genesis_canonical(uint8_t *out, size_t cap, const codec_genesis *g)
{
    const engine_config *c = &g->config;
    size_t seats = g->seat_bound != 0 ? 4 + (size_t)SCHEMA_KEY_BYTES * c->n_seats : 0;
    size_t len = 165 + g->position_len + (g->is_fork ? 48 : 0) + seats;
    if (cap < len || g->format_version == 0 || g->format_version > 255)
        return 0;
    if (g->is_fork && (g->position_len == 0 || !c->is_constructed))
        return 0;
    if (c->n_seats > ENGINE_MAX_SEATS || g->position_len > UINT32_MAX ||
        (g->position_len > 0 && g->position == NULL))
        return 0;
    memcpy(out, LEDGER_GENESIS_MAGIC, 4);
    out[4] = (uint8_t)g->format_version;
    if (!room_bytes(out + 5, g->room))
        return 0;
    ledger__be32_put(out + 13, g->config.rules_version);
    out[17] = HASH_ALGORITHM_BLAKE2B_256;
    out[18] = SIGNATURE_ALGORITHM_ED25519;
    out[19] = c->n_seats;
    for (unsigned i = 0; i < ENGINE_MAX_SEATS; i++)
        out[20 + i] = i < c->n_seats ? c->faction[i] : 0xFF;
    out[26] = c->is_advanced;
    out[27] = c->turn_limit;
    ledger__be32_put(out + 28, c->modules);
    out[32] = c->is_constructed;
    memcpy(out + 33, g->seed_commitment, SCHEMA_HASH_BYTES);
    memcpy(out + 65, g->sealed_seed, SCHEMA_SEALED_SEED_BYTES);
    ledger__be32_put(out + 145, g->audit_key_id);
    ledger__be32_put(out + 149, g->key_id);
    ledger__be64_put(out + 153, g->created_at);
    ledger__be32_put(out + 161, (uint32_t)g->position_len);
    if (g->position_len > 0)
        memcpy(out + 165, g->position, g->position_len);
    if (g->is_fork) {
        uint8_t *f = out + 165 + g->position_len;
        memcpy(f, g->is_position_sealed ? "FRKS" : "FORK", 4);
        if (!room_bytes(f + 4, g->fork_room))
            return 0;
        ledger__be32_put(f + 12, g->fork_version);
        memcpy(f + 16, g->fork_hash, SCHEMA_HASH_BYTES);
    }
    if (seats != 0) {
        uint8_t *b = out + len - seats;
        if (((unsigned)g->seat_bound >> c->n_seats) != 0)
            return 0;
        memcpy(b, "SEAT", 4);
        for (unsigned i = 0; i < c->n_seats; i++) {
            uint8_t *k = b + 4 + (size_t)SCHEMA_KEY_BYTES * i;
            if ((unsigned)g->seat_bound >> i & 1u)
                memcpy(k, g->seat_key[i], SCHEMA_KEY_BYTES);
            else
                memset(k, 0, SCHEMA_KEY_BYTES);
        }
    }
    return len;
}

int ledger__genesis_hash(uint8_t out[SCHEMA_HASH_BYTES], const codec_genesis *g)
{
    size_t cap = LEDGER_GENESIS_CANONICAL_MAX;
    uint8_t *buf = malloc(cap);
    if (buf == NULL)
        return LEDGER_ERROR;
    size_t len = ledger__genesis_canonical(buf, cap, g);
    if (len > 0)
        ledger__event_hash(out, buf, len, g->signature);
    free(buf);
    return len > 0 ? 0 : LEDGER_ECORRUPT;
}

size_t ledger__receipt_canonical(uint8_t out[LEDGER_RECEIPT_CANONICAL_MAX],
                                 const codec_receipt *r)
{
    memcpy(out, r->has_tree_head ? LEDGER_RECEIPT_TREE_MAGIC : LEDGER_RECEIPT_MAGIC, 4);
    if (!room_bytes(out + 4, r->room))
        return 0;
    ledger__be32_put(out + 12, r->version);
    memcpy(out + 16, r->event_hash, SCHEMA_HASH_BYTES);
    ledger__be32_put(out + 48, r->key_id);
    if (!r->has_tree_head)
        return LEDGER_RECEIPT_CANONICAL_BYTES;
    memcpy(out + 52, r->tree_root, SCHEMA_HASH_BYTES);
    ledger__be64_put(out + 84, r->tree_time);
    return LEDGER_RECEIPT_CANONICAL_MAX;
}

int ledger__receipt_fill_root(ledger *db, codec_receipt *out, const char *room, uint32_t version,
                              const uint8_t hash[SCHEMA_HASH_BYTES], uint64_t committed_at,
                              const uint8_t root[LEDGER_TREE_HASH_BYTES])
{
    uint8_t buf[LEDGER_RECEIPT_CANONICAL_MAX];
    memset(out, 0, sizeof *out);
    memcpy(out->room, room, SCHEMA_ROOM_CHARS);
    out->version = version;
    memcpy(out->event_hash, hash, SCHEMA_HASH_BYTES);
    out->key_id = db->key_id;
    out->has_tree_head = 1;
    out->tree_time = committed_at;
    memcpy(out->tree_root, root, LEDGER_TREE_HASH_BYTES);
    if (ledger__receipt_canonical(buf, out) == 0)
        return ledger__fail(db, LEDGER_EINPUT, "room %.8s is not a room code", room);
    return 0;
}

int ledger__receipt_fill(ledger *db, ledger_txn *txn, codec_receipt *out, const char *room,
                         uint32_t version, const uint8_t hash[SCHEMA_HASH_BYTES],
                         uint64_t committed_at)
{
    uint8_t root[LEDGER_TREE_HASH_BYTES] = {0}; /* read below, once the room is checked */
    int rc = ledger__receipt_fill_root(db, out, room, version, hash, committed_at, root);
    if (rc == 0)
        rc = ledger__tree_root(db, txn, out->tree_root, room, version);
    return rc;
}

void ledger__receipt_sign(codec_receipt *r, const uint8_t sk[LEDGER_SIGN_SECRET_BYTES])
{
    uint8_t buf[LEDGER_RECEIPT_CANONICAL_MAX];
    size_t len = ledger__receipt_canonical(buf, r);
    assert(len != 0); /* ledger__receipt_fill checked the room */
    crypto_sign_detached(r->signature, NULL, buf, len, sk);
}

int ledger__receipt_make(ledger *db, ledger_txn *txn, codec_receipt *out, const char *room,
                         uint32_t version, const uint8_t hash[SCHEMA_HASH_BYTES],
                         uint64_t committed_at)
{
    int rc = ledger__receipt_fill(db, txn, out, room, version, hash, committed_at);
    if (rc != 0)
        return rc;
    if (!db->has_signing_key)
        return ledger__fail(db, LEDGER_EKEY, "no signing key in %s", db->keys_dir);
    ledger__receipt_sign(out, db->signing_sk);
    return 0;
}

/* ===================================================== stored records */

int ledger__event_record_encode(ledger *db, uint8_t *out, size_t cap, size_t *len_out,
                                const codec_event *ev)
{
    size_t len = 0;
    if (cap < 1)
        return ledger__fail(db, LEDGER_EINPUT, "no room for an event record");
    out[0] = LEDGER_TAG_PROTOBUF;
    int rc = codec_event_encode(out + 1, cap - 1, &len, ev, 0);
    if (rc == SCHEMA_ESPACE)
        return ledger__fail(db, LEDGER_EINPUT, "event %u needs %zu bytes, more than the %zu "
                            "a record may have", ev->version, len + 1, cap);
    if (rc != 0)
        return ledger__fail(db, LEDGER_EINPUT, "event %u cannot be encoded (%d)", ev->version,
                            rc);
    *len_out = len + 1;
    return 0;
}

int ledger__event_record_decode(ledger *db, codec_event *out, const uint8_t *rec,
                                size_t rec_len)
{
    char err[SCHEMA_ERRMSG] = "";
    memset(out, 0, sizeof *out);
    if (rec_len < 2)
        return LEDGER_CORRUPT_MSG(db, "event record of %zu bytes", rec_len);
    if (rec[0] != LEDGER_TAG_PROTOBUF)
        return LEDGER_CORRUPT_MSG(db, "event record with unknown tag 0x%02x", rec[0]);
    if (codec_event_decode(out, rec + 1, rec_len - 1, err) != 0)
        return LEDGER_CORRUPT_MSG(db, "event record does not decode: %s", err);
    if (out->has_prev_hash)
        return LEDGER_CORRUPT_MSG(db, "event %u stored with its prev_hash", out->version);
    if (out->action.seat != out->seat)
        return LEDGER_CORRUPT_MSG(db, "event %u: action seat differs from event seat",
                                  out->version);
    return 0;
}

int ledger__genesis_record_encode(ledger *db, uint8_t *out, size_t cap, size_t *len_out,
                                  const codec_genesis *g)
{
    size_t len = 0;
    if (cap < 1)
        return ledger__fail(db, LEDGER_EINPUT, "no room for a genesis record");
    out[0] = LEDGER_TAG_PROTOBUF;
    int rc = codec_genesis_encode(out + 1, cap - 1, &len, g);
    if (rc != 0)
        return ledger__fail(db, LEDGER_EINPUT, "the genesis cannot be encoded (%d)", rc);
    *len_out = len + 1;
    return 0;
}

int ledger__genesis_record_decode(ledger *db, codec_genesis *out, const uint8_t *rec,
                                  size_t rec_len)
{
    char err[SCHEMA_ERRMSG] = "";
    memset(out, 0, sizeof *out);
    if (rec_len < 2)
        return LEDGER_CORRUPT_MSG(db, "genesis record of %zu bytes", rec_len);
    if (rec[0] != LEDGER_TAG_PROTOBUF)
        return LEDGER_CORRUPT_MSG(db, "genesis record with unknown tag 0x%02x", rec[0]);
    if (codec_genesis_decode(out, rec + 1, rec_len - 1, err) != 0)
        return LEDGER_CORRUPT_MSG(db, "genesis record does not decode: %s", err);
    if (!ledger__room_valid(out->room))
        return LEDGER_CORRUPT_MSG(db, "genesis names no valid room");
    return 0;
}
