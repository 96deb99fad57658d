/*
 * read.c - reading a room: its head, its events (with the hash chain
 * relinked, since prev_hash is not stored), and its state at any version.
 * Also the record layouts of `heads` and `events`, which append.c writes
 * through the helpers here, and the reader of `rejections` (append.c
 * writes them; docs/FORMAT.md has the layout).
 *
 * Part of ledger/. Nothing here writes, except the two put helpers that
 * the write path calls inside its own transaction. A returned event is a
 * copy: nothing borrowed from LMDB outlives the read transaction
 * (internal.h (4)).
 *
 * `heads`: room (8) -> 148 bytes (40 in a head an older build wrote):
 *     0   4  version u32 BE (0 = only the genesis)
 *     4  32  chain hash of event `version` (the genesis hash at 0)
 *    36   4  n_rejections u32 BE: rejections recorded so far; the next
 *            one is stored under room || n_rejections
 *    40  32  tree root of versions 1..version (the empty tree's at 0)
 *    72   8  tree time: committed_at of event `version` (created_at at 0)
 *    80   4  key_id of the signer
 *    84  64  signature: the receipt of `version` (event.c, "MNTH"), so the
 *            stored head is a signed tree head; n_rejections is not signed
 * `events` (MDB_DUPSORT, one key per room, duplicates sorted bytewise,
 * so by version): room (8) -> version u32 BE || stored event record
 * (event.c). Appended with MDB_APPENDDUP so each room's pages fill up.
 * Each room's first duplicate is the version-0 marker (4 zero bytes)
 * left by ledger__events_init; readers start at version 1.
 */
#include <string.h>

#include "ledger/internal.h"

/* ================================================================ heads */

int ledger__head_read(ledger *db, ledger_txn *txn, ledger_head_rec *out, const char *room)
{
    if (!ledger__room_valid(room))
        return ledger__room_refuse(db, room);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v;
    int rc = ledger__get(txn, db->dbi_heads, &k, &v);
    if (rc == MDB_NOTFOUND)
        return ledger__fail(db, LEDGER_ENOTFOUND, "no room %s", room);
    if (rc != 0)
        return rc;
    if (v.mv_size != LEDGER_HEAD_BYTES && v.mv_size != LEDGER_HEAD_SIGNED_BYTES)
        return LEDGER_CORRUPT_MSG(db, "room %s: head record of %zu bytes", room, v.mv_size);
    const uint8_t *p = v.mv_data;
    memset(out, 0, sizeof *out);
    out->version = ledger__be32_get(p);
    memcpy(out->hash, p + 4, SCHEMA_HASH_BYTES);
    out->n_rejections = ledger__be32_get(p + 36);
    if (v.mv_size == LEDGER_HEAD_SIGNED_BYTES) {
        out->is_signed = 1;
        memcpy(out->tree_root, p + 40, SCHEMA_HASH_BYTES);
        out->tree_time = ledger__be64_get(p + 72);
        out->key_id = ledger__be32_get(p + 80);
        memcpy(out->signature, p + 84, SCHEMA_SIG_BYTES);
    }
    return 0;
}

int ledger__head_write(ledger *db, ledger_txn *txn, const char *room, const ledger_head_rec *h)
{
    uint8_t buf[LEDGER_HEAD_SIGNED_BYTES];
    ledger__be32_put(buf, h->version);
    memcpy(buf + 4, h->hash, SCHEMA_HASH_BYTES);
    ledger__be32_put(buf + 36, h->n_rejections);
    memcpy(buf + 40, h->tree_root, SCHEMA_HASH_BYTES);
    ledger__be64_put(buf + 72, h->tree_time);
    ledger__be32_put(buf + 80, h->key_id);
    memcpy(buf + 84, h->signature, SCHEMA_SIG_BYTES);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room};
    MDB_val v = {h->is_signed ? LEDGER_HEAD_SIGNED_BYTES : LEDGER_HEAD_BYTES, buf};
    return ledger__put(txn, db->dbi_heads, &k, &v, 0);
}

void ledger__head_sign_as(ledger_head_rec *h, const codec_receipt *r)
{
    assert(r->version == h->version && r->has_tree_head);
    h->is_signed = 1;
    memcpy(h->tree_root, r->tree_root, SCHEMA_HASH_BYTES);
    h->tree_time = r->tree_time;
    h->key_id = r->key_id;
    memcpy(h->signature, r->signature, SCHEMA_SIG_BYTES);
}

void ledger__head_receipt(codec_receipt *out, const char *room, const ledger_head_rec *h)
{
    memset(out, 0, sizeof *out);
    memcpy(out->room, room, SCHEMA_ROOM_CHARS);
    out->version = h->version;
    memcpy(out->event_hash, h->hash, SCHEMA_HASH_BYTES);
    out->key_id = h->key_id;
    memcpy(out->signature, h->signature, SCHEMA_SIG_BYTES);
    out->has_tree_head = 1;
    memcpy(out->tree_root, h->tree_root, SCHEMA_HASH_BYTES);
    out->tree_time = h->tree_time;
}

int ledger__head_sig_check(ledger *db, ledger_txn *txn, const char *room,
                           const ledger_head_rec *h)
{
    codec_receipt r;
    codec_key key;
    uint8_t canon[LEDGER_RECEIPT_CANONICAL_MAX];
    if (!h->is_signed)
        return ledger__fail(db, LEDGER_EBADSIG, "room %s: the head is unsigned", room);
    ledger__head_receipt(&r, room, h);
    size_t len = ledger__receipt_canonical(canon, &r);
    if (len == 0)
        return ledger__room_refuse(db, room);
    int rc = ledger__key_chain_check(db, txn, &key, h->key_id);
    if (rc != 0)
        return rc == LEDGER_ECORRUPT ? ledger__fail(db, LEDGER_EBADSIG, "%s", ledger_errmsg(db))
                                     : rc;
    if (key.retired_at != 0 && h->tree_time > key.retired_at)
        return ledger__fail(db, LEDGER_EBADSIG, "room %s: the head is signed by key %08x after "
                            "it was retired", room, h->key_id);
    if (ledger__verify_sig(h->signature, canon, len, key.public_key) != 0)
        return ledger__fail(db, LEDGER_EBADSIG, "room %s: bad head signature", room);
    return 0;
}

int ledger_head(ledger *db, const char *room, uint32_t *version_out,
                uint8_t hash_out[SCHEMA_HASH_BYTES])
{
    ledger_txn txn;
    ledger_head_rec h = {0};
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__head_read(db, &txn, &h, room);
    ledger__txn_abort(&txn);
    if (rc != 0)
        return rc;
    if (version_out != NULL)
        *version_out = h.version;
    if (hash_out != NULL)
        memcpy(hash_out, h.hash, SCHEMA_HASH_BYTES);
    return 0;
}

/* =============================================================== events */

int ledger__event_put(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                      const uint8_t *rec, size_t rec_len)
{
    uint8_t buf[LEDGER_EVENT_PREFIX + LEDGER_EVENT_RECORD_MAX];
    if (rec_len > LEDGER_EVENT_RECORD_MAX || LEDGER_EVENT_PREFIX + rec_len > db->max_dup_bytes)
        return ledger__fail(db, LEDGER_EINPUT, "event %u of %zu bytes exceeds the %zu bytes "
                            "LMDB allows", version, rec_len + LEDGER_EVENT_PREFIX,
                            db->max_dup_bytes);
    ledger__be32_put(buf, version);
    memcpy(buf + LEDGER_EVENT_PREFIX, rec, rec_len);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v = {LEDGER_EVENT_PREFIX + rec_len, buf};
    int rc = ledger__put(txn, db->dbi_events, &k, &v, MDB_APPENDDUP);
    if (rc == MDB_KEYEXIST)
        return ledger__fail(db, LEDGER_ECONFLICT, "room %s already has event %u", room, version);
    return rc;
}

int ledger__dups_open(ledger *db, ledger_txn *txn, MDB_dbi dbi, const char *room)
{
    uint8_t buf[LEDGER_EVENT_PREFIX + LEDGER_EVENT_RECORD_MAX];
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room};
    MDB_val v = {LEDGER_EVENT_PREFIX, buf};
    memset(buf, 0, LEDGER_EVENT_PREFIX);
    int rc = ledger__put(txn, dbi, &k, &v, MDB_NODUPDATA | MDB_NOOVERWRITE);
    if (rc == MDB_KEYEXIST)
        return ledger__fail(db, LEDGER_EEXISTS, "room %s already has records", room);
    if (rc != 0)
        return rc;
    /* Fillers sort between the marker and the first record (prefix 0,
     * then 0xFF bytes); enough of them exceed LMDB's node limit of half a
     * page, which moves the room's duplicates to a sub-database. */
    size_t len = sizeof buf < db->max_dup_bytes ? sizeof buf : db->max_dup_bytes;
    size_t n = db->page_size / 2 / (len + 10) + 2;
    memset(buf + LEDGER_EVENT_PREFIX, 0xFF, len - LEDGER_EVENT_PREFIX);
    v.mv_size = len;
    for (size_t i = 0; i < n && rc == 0; i++) {
        buf[LEDGER_EVENT_PREFIX] = (uint8_t)(0xFF - i);
        rc = ledger__put(txn, dbi, &k, &v, MDB_NODUPDATA);
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        buf[LEDGER_EVENT_PREFIX] = (uint8_t)(0xFF - i);
        rc = ledger__del(txn, dbi, &k, &v);
    }
    return rc;
}

int ledger__events_init(ledger *db, ledger_txn *txn, const char *room)
{
    return ledger__dups_open(db, txn, db->dbi_events, room);
}

/* Positions cur on the dup of (room, version); MDB_NOTFOUND if absent. */
static int event_seek(ledger *db, ledger_txn *txn, MDB_cursor *cur, const char *room,
                      uint32_t version, MDB_val *val)
{
    uint8_t vbuf[LEDGER_EVENT_PREFIX];
    ledger__be32_put(vbuf, version);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room};
    val->mv_size = sizeof vbuf;
    val->mv_data = vbuf;
    int rc = ledger__cursor_get(txn, cur, &k, val, MDB_GET_BOTH_RANGE);
    if (rc != 0)
        return rc;
    if (val->mv_size < LEDGER_EVENT_PREFIX ||
        ledger__be32_get(val->mv_data) != version)
        return MDB_NOTFOUND;
    (void)db;
    return 0;
}

int ledger__event_read(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                       const uint8_t **rec_out, size_t *len_out)
{
    MDB_cursor *cur;
    MDB_val v;
    int rc = ledger__cursor_open(txn, db->dbi_events, &cur);
    if (rc != 0)
        return rc;
    rc = event_seek(db, txn, cur, room, version, &v);
    mdb_cursor_close(cur);
    if (rc == MDB_NOTFOUND)
        return ledger__fail(db, LEDGER_ENOTFOUND, "room %s has no event %u", room, version);
    if (rc != 0)
        return rc;
    *rec_out = (const uint8_t *)v.mv_data + LEDGER_EVENT_PREFIX;
    *len_out = v.mv_size - LEDGER_EVENT_PREFIX;
    return 0;
}

/* Links ev (decoded, at `version`) to prev and computes its hash. */
static int event_link(ledger *db, codec_event *ev, uint8_t hash_out[SCHEMA_HASH_BYTES],
                      const char *room, uint32_t version, const uint8_t prev[SCHEMA_HASH_BYTES])
{
    uint8_t canon[LEDGER_EVENT_CANONICAL_MAX];
    if (ev->version != version)
        return LEDGER_CORRUPT_MSG(db, "room %s: event %u says it is %u", room, version,
                                  ev->version);
    ev->has_prev_hash = 1;
    memcpy(ev->prev_hash, prev, SCHEMA_HASH_BYTES);
    size_t len = ledger__event_canonical(canon, room, ev);
    if (len == 0)
        return LEDGER_CORRUPT_MSG(db, "room %s: event %u has no canonical form", room, version);
    if (hash_out != NULL)
        ledger__event_chain_hash(hash_out, canon, len, ev);
    return 0;
}

static int genesis_hash(ledger *db, ledger_txn *txn, uint8_t out[SCHEMA_HASH_BYTES],
                        const char *room)
{
    codec_genesis g;
    int rc = ledger__genesis_read(db, txn, &g, room);
    if (rc != 0)
        return rc;
    if (ledger__genesis_hash(out, &g) != 0)
        return LEDGER_CORRUPT_MSG(db, "room %s: the genesis has no canonical form", room);
    return 0;
}

int ledger__event_hash_at(ledger *db, ledger_txn *txn, uint8_t out[SCHEMA_HASH_BYTES],
                          const char *room, uint32_t version)
{
    ledger_head_rec head = {0};
    int rc = ledger__head_read(db, txn, &head, room);
    if (rc != 0)
        return rc;
    if (version > head.version)
        return ledger__fail(db, LEDGER_ENOTFOUND, "room %s has no event %u (head %u)", room,
                            version, head.version);
    if (version == head.version) {
        memcpy(out, head.hash, SCHEMA_HASH_BYTES);
        return 0;
    }
    /* Resume the chain at the nearest checkpoint below: at most K links. */
    uint32_t from = 0;
    rc = ledger__checkpoint_find(db, txn, NULL, &from, out, room, version);
    if (rc == LEDGER_ENOTFOUND) {
        from = 0;
        rc = genesis_hash(db, txn, out, room);
    }
    if (rc != 0)
        return rc;
    return ledger__chain_walk(db, txn, out, NULL, room, from + 1, version);
}

int ledger__chain_walk(ledger *db, ledger_txn *txn, uint8_t hash[SCHEMA_HASH_BYTES],
                       uint8_t (*hashes_out)[SCHEMA_HASH_BYTES], const char *room,
                       uint32_t from, uint32_t to)
{
    if (from > to)
        return 0;
    MDB_cursor *cur;
    int rc = ledger__cursor_open(txn, db->dbi_events, &cur);
    if (rc != 0)
        return rc;
    MDB_val v;
    for (uint32_t ver = from; ver <= to; ver++) {
        codec_event ev;
        rc = ver == from ? event_seek(db, txn, cur, room, ver, &v)
                         : ledger__cursor_get(txn, cur, &(MDB_val){0, NULL}, &v, MDB_NEXT_DUP);
        if (rc == MDB_NOTFOUND ||
            (rc == 0 && (v.mv_size < LEDGER_EVENT_PREFIX || ledger__be32_get(v.mv_data) != ver))) {
            rc = LEDGER_CORRUPT_MSG(db, "room %s: event %u is missing", room, ver);
            break;
        }
        if (rc != 0)
            break;
        rc = ledger__event_record_decode(db, &ev, (const uint8_t *)v.mv_data + LEDGER_EVENT_PREFIX,
                                         v.mv_size - LEDGER_EVENT_PREFIX);
        if (rc == 0)
            rc = event_link(db, &ev, hash, room, ver, hash);
        if (rc != 0)
            break;
        if (hashes_out != NULL)
            memcpy(hashes_out[ver - from], hash, SCHEMA_HASH_BYTES);
        if (ver == UINT32_MAX)
            break;
    }
    mdb_cursor_close(cur);
    return rc;
}

int ledger__event_load(ledger *db, ledger_txn *txn, codec_event *out,
                       uint8_t hash_out[SCHEMA_HASH_BYTES], const char *room, uint32_t version)
{
    uint8_t prev[SCHEMA_HASH_BYTES];
    const uint8_t *rec = NULL;
    size_t len = 0;
    if (version == 0)
        return ledger__fail(db, LEDGER_ENOTFOUND, "versions start at 1");
    int rc = ledger__event_hash_at(db, txn, prev, room, version - 1);
    if (rc == LEDGER_ENOTFOUND)
        return ledger__fail(db, LEDGER_ENOTFOUND, "room %s has no event %u", room, version);
    if (rc != 0)
        return rc;
    rc = ledger__event_read(db, txn, room, version, &rec, &len);
    if (rc != 0)
        return rc;
    rc = ledger__event_record_decode(db, out, rec, len);
    if (rc != 0)
        return rc;
    return event_link(db, out, hash_out, room, version, prev);
}

/* Checks ev: a format-1 event against its signature with the key that
 * made it; a format-2 one by its inclusion in the head's signed tree. */
static int event_check_sig(ledger *db, ledger_txn *txn, const codec_event *ev, const char *room)
{
    uint8_t canon[LEDGER_EVENT_CANONICAL_MAX], pk[SCHEMA_KEY_BYTES];
    size_t len = ledger__event_canonical(canon, room, ev);
    if (len == 0)
        return LEDGER_CORRUPT_MSG(db, "room %s: event %u has no canonical form", room,
                                  ev->version);
    if (!ev->has_signature) {
        ledger_head_rec head = {0};
        uint8_t hash[SCHEMA_HASH_BYTES];
        ledger__event_chain_hash(hash, canon, len, ev);
        int rc = ledger__head_read(db, txn, &head, room);
        if (rc == 0)
            rc = ledger__head_sig_check(db, txn, room, &head);
        if (rc == 0 && ev->version > head.version)
            rc = LEDGER_CORRUPT_MSG(db, "room %s: event %u is past the head", room, ev->version);
        if (rc == 0 &&
            ledger__tree_included(db, txn, room, ev->version, hash, head.version,
                                  head.tree_root) == LEDGER_EBADSIG)
            rc = ledger__fail(db, LEDGER_EBADSIG, "room %s: event %u is not in the head's "
                              "signed tree", room, ev->version);
        return rc;
    }
    int rc = ledger__key_public(db, txn, ev->key_id, pk);
    if (rc == LEDGER_ENOTFOUND)
        return ledger__fail(db, LEDGER_EBADSIG, "room %s: event %u is signed by unknown key %08x",
                            room, ev->version, ev->key_id);
    if (rc != 0)
        return rc;
    if (ledger__verify_sig(ev->signature, canon, len, pk) != 0)
        return ledger__fail(db, LEDGER_EBADSIG, "room %s: event %u: bad signature", room,
                            ev->version);
    return 0;
}

/* What the public readers give: an event with its sealed action opened
 * when the room key is held (is_sealed 0), else left with its secret
 * arguments 0 and is_sealed 1. */
static int event_unseal(ledger *db, ledger_txn *txn, codec_event *ev, const char *room)
{
    engine_action act;
    int rc = ledger__event_open(db, txn, &act, room, ev);
    ev->is_sealed = rc == LEDGER_EKEY;
    if (rc == 0)
        ev->action = act;
    sodium_memzero(&act, sizeof act);
    return rc == LEDGER_EKEY ? 0 : rc;
}

int ledger_event_get(ledger *db, codec_event *out, const char *room, uint32_t version)
{
    ledger_txn txn;
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__event_load(db, &txn, out, NULL, room, version);
    if (rc == 0)
        rc = event_check_sig(db, &txn, out, room);
    if (rc == 0)
        rc = event_unseal(db, &txn, out, room);
    ledger__txn_abort(&txn);
    return rc;
}

int ledger_event_foreach(ledger *db, const char *room, uint32_t from, uint32_t to,
                         int (*fn)(void *ctx, const codec_event *ev), void *ctx)
{
    ledger_txn txn;
    ledger_head_rec head = {0};
    MDB_cursor *cur = NULL;
    uint8_t hash[SCHEMA_HASH_BYTES];
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__head_read(db, &txn, &head, room);
    if (rc != 0)
        goto out;
    if (from == 0)
        from = 1;
    if (to == 0)
        to = head.version;
    if (to > head.version) {
        rc = ledger__fail(db, LEDGER_ENOTFOUND, "room %s has no event %u (head %u)", room, to,
                          head.version);
        goto out;
    }
    if (from > to)
        goto out; /* nothing to visit (an empty room, or an empty range) */
    rc = ledger__event_hash_at(db, &txn, hash, room, from - 1);
    if (rc == 0)
        rc = ledger__cursor_open(&txn, db->dbi_events, &cur);
    MDB_val v;
    for (uint32_t ver = from; rc == 0 && ver <= to; ver++) {
        codec_event ev;
        rc = ver == from ? event_seek(db, &txn, cur, room, ver, &v)
                         : ledger__cursor_get(&txn, cur, &(MDB_val){0, NULL}, &v, MDB_NEXT_DUP);
        if (rc == MDB_NOTFOUND ||
            (rc == 0 && (v.mv_size < LEDGER_EVENT_PREFIX || ledger__be32_get(v.mv_data) != ver))) {
            rc = LEDGER_CORRUPT_MSG(db, "room %s: event %u is missing", room, ver);
            break;
        }
        if (rc != 0)
            break;
        rc = ledger__event_record_decode(db, &ev, (const uint8_t *)v.mv_data + LEDGER_EVENT_PREFIX,
                                         v.mv_size - LEDGER_EVENT_PREFIX);
        if (rc == 0)
            rc = event_link(db, &ev, hash, room, ver, hash);
        if (rc == 0)
            rc = event_unseal(db, &txn, &ev, room);
        if (rc == 0)
            rc = fn(ctx, &ev);
    }
out:
    if (cur != NULL)
        mdb_cursor_close(cur);
    ledger__txn_abort(&txn);
    return rc;
}

/* ============================================================ rejections */

int ledger__rejection_record_decode(ledger *db, codec_rejection *out, const uint8_t *rec,
                                    size_t rec_len)
{
    char err[SCHEMA_ERRMSG] = "";
    if (rec_len < 1 || rec[0] != LEDGER_TAG_PROTOBUF)
        return LEDGER_CORRUPT_MSG(db, "a rejection record without its tag");
    if (codec_rejection_decode(out, rec + 1, rec_len - 1, err) != 0)
        return LEDGER_CORRUPT_MSG(db, "a malformed rejection record: %.120s", err);
    return 0;
}

int ledger_rejection_foreach(ledger *db, const char *room,
                             int (*fn)(void *ctx, uint32_t n, const codec_rejection *r), void *ctx)
{
    ledger_txn txn;
    ledger_head_rec head = {0};
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__head_read(db, &txn, &head, room);
    for (uint32_t n = 0; rc == 0 && n < head.n_rejections; n++) {
        uint8_t kbuf[LEDGER_REJ_KEY_BYTES];
        memcpy(kbuf, room, SCHEMA_ROOM_CHARS);
        ledger__be32_put(kbuf + SCHEMA_ROOM_CHARS, n);
        MDB_val k = {sizeof kbuf, kbuf}, v;
        rc = ledger__get(&txn, db->dbi_rejections, &k, &v);
        if (rc == MDB_NOTFOUND) {
            rc = LEDGER_CORRUPT_MSG(db, "room %s: rejection %u is missing", room, n);
            break;
        }
        if (rc != 0)
            break;
        codec_rejection r;
        rc = ledger__rejection_record_decode(db, &r, v.mv_data, v.mv_size);
        if (rc == 0 && memcmp(r.room, room, SCHEMA_ROOM_CHARS) != 0)
            rc = LEDGER_CORRUPT_MSG(db, "room %s: rejection %u is another room's", room, n);
        if (rc == 0)
            rc = ledger__rejection_open(db, &txn, &r, n);
        if (rc == 0)
            rc = fn(ctx, n, &r);
    }
    ledger__txn_abort(&txn);
    return rc;
}

int ledger_state_at(ledger *db, engine_state *out, const char *room, uint32_t version)
{
    ledger_txn txn;
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__state_load(db, &txn, out, room, version);
    ledger__txn_abort(&txn);
    return rc;
}

int ledger_room_seed(ledger *db, uint8_t seed_out[ENGINE_SEED_BYTES], const char *room)
{
    ledger_txn txn;
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__room_seed(db, &txn, room, seed_out);
    ledger__txn_abort(&txn);
    return rc;
}
