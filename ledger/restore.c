/*
 * restore.c - ledger_restore: an archive (ledger/archive.c) verified end to
 * end, then written as a new room or as the missing tail of a room whose
 * history it extends.
 *
 * Part of ledger/. Nothing from the archive is trusted: it is read and
 * checked whole before the write transaction begins, and a restore that
 * fails at any point leaves the ledger as it was. It never signs anything
 * and never draws randomness; what it writes is exactly the archive's
 * signed records plus the head, checkpoints and keys derived from them.
 *
 * Invariants:
 * (R1) Verify, then write: the genesis and its signature, dense versions
 *      from 1, every prev_hash link (recomputed), every signature against
 *      its key, and, when the seed can be had (this ledger's audit key or
 *      the archive's revealed seed, each checked against the commitment),
 *      a re-fold comparing every state digest and the engine invariants.
 * (R2) A key that signed anything in the archive must be this ledger's
 *      (its `keys` table or its signing key file) unless the caller trusts
 *      the archive's keys; an archive key never replaces a different key
 *      of the same id, trusted or not.
 * (R3) One write transaction: the room, its keys, the events, the head,
 *      the checkpoints and a revealed seed land together or not at all.
 * (R4) An existing room is only extended: its genesis must be the
 *      archive's byte for byte and its chain hash at min(head, n) the
 *      archive's; else LEDGER_EDIVERGED and nothing is written.
 */
#include <stdlib.h>
#include <string.h>

#include "ledger/internal.h"

/* A signing key the archive's records were checked against. */
typedef struct known_key {
    uint32_t key_id;               /* its id */
    uint8_t pk[SCHEMA_KEY_BYTES];  /* the Ed25519 public key */
    int is_put;                    /* 1 = already in `keys` */
    uint64_t created_at;           /* for the record written if not */
    uint64_t retired_at;           /* ditto; 0 = active */
    const codec_key *theirs;       /* the archive's record, if it has one (borrowed) */
} known_key;

/* Everything a restore learns before it writes, and what it wrote. */
typedef struct plan {
    ledger_archive a;              /* the archive read; owned */
    int is_trusted;                /* trust the archive's keys */
    codec_genesis g;               /* borrows from a.data */
    uint8_t genesis_hash[SCHEMA_HASH_BYTES]; /* the chain hash of version 0 */
    uint8_t (*hash)[SCHEMA_HASH_BYTES]; /* hash[v - 1]: chain hash of version v; owned */
    known_key *keys;               /* every signer; owned */
    size_t n_keys;                 /* signers resolved */
    size_t keys_cap;               /* room in keys */
    int has_unsigned;              /* 1 = an event of format 2: the archive's head must hold */
    int has_audit_record;          /* 1 = audit_record is to be imported */
    codec_key audit_record;        /* the genesis's audit key from the archive */
    int has_seed;                  /* 1 = seed is the room's, checked */
    uint8_t seed[ENGINE_SEED_BYTES]; /* from the archive or unsealed */
    ledger_seat_keys bound;        /* the seats bound so far, at creation or as they joined */
    ledger_seat_keys joined;       /* of them, those the events bound as they joined */
    int has_room_key;              /* 1 = room_key opens the events of format 3 */
    uint8_t room_key[LEDGER_ROOM_KEY_BYTES]; /* from the archive, or this ledger's */
    int has_opening;               /* 1 = opening holds the position at version 0 */
    int is_folding;                /* 1 = the events were re-folded (seed and rules known) */
    engine_state *opening;         /* the position at version 0; owned */
    engine_state *state;           /* the verifying fold, then the write body's; owned */
    /* results of the write body (set afresh on each run) */
    uint32_t n_added;              /* events written */
    int is_new_room;               /* 1 = the room was created */
} plan;

static void plan_free(plan *p)
{
    ledger__archive_free(&p->a);
    free(p->hash);
    free(p->keys);
    free(p->opening);
    free(p->state);
    sodium_memzero(p->seed, sizeof p->seed);
    sodium_memzero(p->room_key, sizeof p->room_key);
}

static const codec_key *archive_key(const ledger_archive *a, uint32_t key_id)
{
    size_t lo = 0, hi = a->n_keys;
    while (lo < hi) { /* ascending key_id (archive.c (4)) */
        size_t mid = lo + (hi - lo) / 2;
        if (a->keys[mid].key_id == key_id)
            return &a->keys[mid];
        if (a->keys[mid].key_id < key_id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* ======================================================== verification */

/* (R2): the public key that key_id names, remembered in p->keys. */
static int key_resolve(ledger *db, ledger_txn *txn, plan *p, uint32_t key_id,
                       const uint8_t **pk_out)
{
    for (size_t i = 0; i < p->n_keys; i++)
        if (p->keys[i].key_id == key_id) {
            *pk_out = p->keys[i].pk;
            return 0;
        }
    if (p->n_keys == p->keys_cap) {
        size_t cap = p->keys_cap ? p->keys_cap * 2 : 4;
        known_key *k = realloc(p->keys, cap * sizeof *k);
        if (k == NULL)
            return ledger__fail(db, LEDGER_ERROR, "out of memory");
        p->keys = k;
        p->keys_cap = cap;
    }
    known_key *k = &p->keys[p->n_keys];
    memset(k, 0, sizeof *k);
    k->key_id = key_id;
    const codec_key *theirs = archive_key(&p->a, key_id);
    k->theirs = theirs;
    codec_key ours;
    int rc = ledger__key_record(db, txn, &ours, key_id, &k->is_put);
    if (rc == 0) {
        if (ours.is_audit)
            return ledger__fail(db, LEDGER_EKEY, "the archive is signed by key %08x, an audit "
                                "key in this ledger", key_id);
        if (theirs != NULL && (theirs->is_audit || sodium_memcmp(theirs->public_key,
                                                                 ours.public_key,
                                                                 SCHEMA_KEY_BYTES) != 0))
            return ledger__fail(db, LEDGER_EKEY, "the archive's key %08x differs from this "
                                "ledger's", key_id);
        memcpy(k->pk, ours.public_key, SCHEMA_KEY_BYTES);
        k->created_at = ours.created_at;
        k->retired_at = ours.retired_at;
    } else if (rc != LEDGER_ENOTFOUND) {
        return rc;
    } else if (theirs == NULL) {
        return ledger__fail(db, LEDGER_EKEY, "the archive is signed by key %08x, which neither "
                            "it nor this ledger holds", key_id);
    } else if (!p->is_trusted) {
        return ledger__fail(db, LEDGER_EKEY, "the archive is signed by key %08x, which this "
                            "ledger does not know (trust the archive's keys to import it)",
                            key_id);
    } else if (theirs->is_audit) {
        return ledger__fail(db, LEDGER_EKEY, "the archive is signed by key %08x, which it "
                            "lists as an audit key", key_id);
    } else {
        memcpy(k->pk, theirs->public_key, SCHEMA_KEY_BYTES);
        k->created_at = theirs->created_at;
        k->retired_at = theirs->retired_at;
    }
    p->n_keys++;
    *pk_out = k->pk;
    return 0;
}

/* The genesis's audit key record, imported only from a trusted archive
 * and never over a different key of the same id (R2). */
static int audit_key_resolve(ledger *db, ledger_txn *txn, plan *p)
{
    const codec_key *theirs = archive_key(&p->a, p->g.audit_key_id);
    if (theirs == NULL)
        return 0;
    codec_key ours;
    int is_put = 0;
    int rc = ledger__key_record(db, txn, &ours, theirs->key_id, &is_put);
    if (rc == 0) {
        if (ours.is_audit != theirs->is_audit ||
            sodium_memcmp(ours.public_key, theirs->public_key, SCHEMA_KEY_BYTES) != 0)
            return ledger__fail(db, LEDGER_EKEY, "the archive's key %08x differs from this "
                                "ledger's", theirs->key_id);
        if (is_put)
            return 0;
    } else if (rc != LEDGER_ENOTFOUND) {
        return rc;
    }
    if (theirs->key_id == p->g.key_id || !theirs->is_audit || !p->is_trusted)
        return 0;
    p->audit_record = *theirs;
    p->audit_record.is_imported = 1;
    p->has_audit_record = 1;
    return 0;
}

/* The room's seed, when this ledger's audit key or the archive can give
 * it; checked against the commitment either way. A resealed room's seed
 * is opened from the archive's seal record, in place of the genesis's. */
static int seed_find(ledger *db, plan *p)
{
    const codec_genesis *g = &p->g;
    uint8_t h[SCHEMA_HASH_BYTES];
    uint32_t audit_key_id = g->audit_key_id;
    const uint8_t *sealed = g->sealed_seed;
    if (p->a.has_sealed_seed) {
        audit_key_id = ledger__be32_get(p->a.sealed_seed);
        sealed = p->a.sealed_seed + 4;
    }
    if (p->a.has_seed) {
        crypto_generichash(h, sizeof h, p->a.seed, ENGINE_SEED_BYTES, NULL, 0);
        if (sodium_memcmp(h, g->seed_commitment, sizeof h) != 0)
            return ledger__fail(db, LEDGER_EBADSIG, "the archive's revealed seed does not match "
                                "the genesis commitment");
        memcpy(p->seed, p->a.seed, ENGINE_SEED_BYTES);
        p->has_seed = 1;
    }
    if (db->has_audit_key && audit_key_id == db->audit_key_id) {
        uint8_t seed[ENGINE_SEED_BYTES];
        if (crypto_box_seal_open(seed, sealed, SCHEMA_SEALED_SEED_BYTES, db->audit_pk,
                                 db->audit_sk) != 0)
            return ledger__fail(db, LEDGER_EBADSIG, "the archive's sealed seed does not open "
                                "with audit key %08x", db->audit_key_id);
        crypto_generichash(h, sizeof h, seed, sizeof seed, NULL, 0);
        int is_bad = sodium_memcmp(h, g->seed_commitment, sizeof h) != 0;
        if (!is_bad) {
            memcpy(p->seed, seed, sizeof seed);
            p->has_seed = 1;
        }
        sodium_memzero(seed, sizeof seed);
        if (is_bad)
            return ledger__fail(db, LEDGER_EBADSIG, "the archive's sealed seed does not match "
                                "the genesis commitment");
    }
    return 0;
}

/* One event: decoded, linked to prev, its signature checked, its hash
 * computed, and folded onto st when st is not NULL. */
static int verify_event(ledger *db, ledger_txn *txn, plan *p, uint32_t version,
                        const uint8_t prev[SCHEMA_HASH_BYTES], engine_state *st)
{
    const ledger_archive_span *s = &p->a.events[version - 1];
    const uint8_t *pk = NULL;
    codec_event ev;
    uint8_t canon[LEDGER_EVENT_CANONICAL_MAX];
    if (s->len > LEDGER_EVENT_RECORD_MAX)
        return LEDGER_CORRUPT_MSG(db, "archive event %u: record of %zu bytes", version, s->len);
    int rc = ledger__event_record_decode(db, &ev, p->a.data + s->off, s->len);
    if (rc != 0)
        return LEDGER_CORRUPT_MSG(db, "archive event %u: %s", version, ledger_errmsg(db));
    if (ev.version != version)
        return LEDGER_CORRUPT_MSG(db, "archive event %u says it is version %u", version,
                                  ev.version);
    ev.has_prev_hash = 1;
    memcpy(ev.prev_hash, prev, SCHEMA_HASH_BYTES);
    size_t len = ledger__event_canonical(canon, p->a.room, &ev);
    if (len == 0)
        return LEDGER_CORRUPT_MSG(db, "archive event %u has no canonical form", version);
    if (ev.has_signature) { /* format 1; format 2 is covered by the archive's head */
        rc = key_resolve(db, txn, p, ev.key_id, &pk);
        if (rc != 0)
            return rc;
        if (ledger__verify_sig(ev.signature, canon, len, pk) != 0)
            return ledger__fail(db, LEDGER_EBADSIG, "archive event %u: bad signature (key "
                                "%08x)", version, ev.key_id);
    } else {
        p->has_unsigned = 1;
    }
    ledger__event_chain_hash(p->hash[version - 1], canon, len, &ev);
    /* A seat bound as it joins: bound from this event on, once. */
    ledger_seat_keys before = p->bound;
    char seat_why[240];
    if (ev.has_bind_key) {
        if (ledger__seat_bind_check(seat_why, sizeof seat_why, &p->bound, p->g.config.n_seats,
                                    ev.seat, ev.bind_key) != 0)
            return ledger__fail(db, LEDGER_EBADSIG, "archive event %u: %s", version, seat_why);
        p->bound.bound = (uint16_t)(p->bound.bound | 1u << ev.seat);
        memcpy(p->bound.key[ev.seat], ev.bind_key, SCHEMA_KEY_BYTES);
        p->joined.bound = (uint16_t)(p->joined.bound | 1u << ev.seat);
        memcpy(p->joined.key[ev.seat], ev.bind_key, SCHEMA_KEY_BYTES);
    }
    /* A sealed action: its seat signature and its fold need it opened. */
    engine_action act = ev.action;
    if (ev.sealed_len != 0 && !p->has_room_key) {
        if (st != NULL)
            return ledger__fail(db, LEDGER_EKEY, "archive event %u is sealed with the room key, "
                                "which this ledger cannot open", version);
        return 0;
    }
    rc = p->has_room_key ? ledger__event_open_with(db, &act, p->a.room, &ev, p->room_key) : 0;
    if (rc != 0)
        return rc;
    if (ledger__seat_sig_verify(seat_why, sizeof seat_why, &before, p->g.config.n_seats,
                                p->a.room, version - 1, prev, &act,
                                ev.has_seat_signature ? ev.seat_signature : NULL,
                                ev.has_bind_key ? ev.bind_key : NULL) != 0)
        return ledger__fail(db, LEDGER_EBADSIG, "archive event %u: %s", version, seat_why);
    if (st == NULL)
        return 0;
    engine_rng rng;
    engine_verdict_detail why = {-1, 0};
    engine_rng_init(&rng, p->seed, version);
    engine_verdict v = engine_apply(&why, st, &act, &rng);
    sodium_memzero(&act, sizeof act);
    sodium_memzero(&rng, sizeof rng);
    if (v != ENGINE_ACCEPTED)
        return ledger__fail(db, LEDGER_EBADSIG, "archive event %u: the engine refuses it on "
                            "replay: %s", version, engine_verdict_name(v));
    int broken = engine_state_check(st);
    if (broken != 0)
        return LEDGER_CORRUPT_MSG(db, "archive event %u: %d engine invariants broken", version,
                                  broken);
    uint8_t digest[ENGINE_DIGEST_BYTES];
    engine_state_digest(digest, st);
    if (memcmp(digest, ev.state_digest, sizeof digest) != 0)
        return ledger__fail(db, LEDGER_EBADSIG, "archive event %u: the replayed state differs "
                            "from its digest", version);
    return 0;
}

/* (R1): everything in the archive, with a read txn for the keys only. */
/* (R2) The keys that rotated in the archive's signers, back to the first
 * of its chain: imported with them so the restored room's signatures verify
 * along the whole chain (ledger/key_chain.c checks each endorsement). An
 * archive written before it carried its chain lacks them; verify then names
 * the missing link. */
static int chain_resolve(ledger *db, ledger_txn *txn, plan *p)
{
    for (size_t i = 0; i < p->n_keys; i++) { /* p->keys grows as links are added */
        const codec_key *theirs = p->keys[i].theirs;
        if (theirs == NULL || !theirs->has_predecessor ||
            archive_key(&p->a, theirs->predecessor) == NULL)
            continue;
        const uint8_t *pk;
        int rc = key_resolve(db, txn, p, theirs->predecessor, &pk);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* The archive's signed tree head: of its last event, over the tree of
 * its events, at that event's time, by a key that verifies (R2). Events
 * of format 2 are authenticated by nothing else. */
static int head_verify(ledger *db, ledger_txn *txn, plan *p)
{
    const ledger_archive *a = &p->a;
    if (!a->has_head)
        return p->has_unsigned ? ledger__fail(db, LEDGER_EBADSIG, "the archive has events of "
                                              "format 2 but no signed head to cover them")
                               : 0;
    const codec_receipt *h = &a->head;
    codec_event last;
    uint8_t canon[LEDGER_RECEIPT_CANONICAL_MAX], root[LEDGER_TREE_HASH_BYTES];
    uint8_t leaf[LEDGER_TREE_HASH_BYTES];
    const uint8_t *pk = NULL;
    const ledger_archive_span *s = &a->events[a->n_events - 1]; /* archive.c: n >= 1 */
    int rc = ledger__event_record_decode(db, &last, a->data + s->off, s->len);
    if (rc != 0)
        return rc;
    ledger__range *range = calloc(1, sizeof *range);
    if (range == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    for (uint32_t v = 1; v <= a->n_events; v++) {
        ledger_merkle_leaf_hash(leaf, p->hash[v - 1], SCHEMA_HASH_BYTES);
        ledger__range_push(range, leaf, NULL);
    }
    ledger__range_root(range, root);
    free(range);
    if (sodium_memcmp(h->event_hash, p->hash[a->n_events - 1], SCHEMA_HASH_BYTES) != 0 ||
        sodium_memcmp(h->tree_root, root, sizeof root) != 0 || h->tree_time != last.committed_at)
        return ledger__fail(db, LEDGER_EBADSIG, "the archive's signed head is not the tree of "
                            "its events");
    size_t len = ledger__receipt_canonical(canon, h);
    rc = len == 0 ? LEDGER_CORRUPT_MSG(db, "the archive's head names no room")
                  : key_resolve(db, txn, p, h->key_id, &pk);
    if (rc == 0 && ledger__verify_sig(h->signature, canon, len, pk) != 0)
        rc = ledger__fail(db, LEDGER_EBADSIG, "the archive's head: bad signature (key %08x)",
                          h->key_id);
    return rc;
}

static int verify_archive(ledger *db, ledger_txn *txn, plan *p)
{
    ledger_archive *a = &p->a;
    const uint8_t *pk = NULL;
    int rc = ledger__genesis_record_decode(db, &p->g, a->data + a->genesis.off, a->genesis.len);
    if (rc != 0)
        return LEDGER_CORRUPT_MSG(db, "archive genesis: %s", ledger_errmsg(db));
    const codec_genesis *g = &p->g;
    ledger__seat_keys_of_genesis(&p->bound, g);
    memset(&p->joined, 0, sizeof p->joined);
    if (memcmp(g->room, a->room, SCHEMA_ROOM_CHARS + 1) != 0)
        return LEDGER_CORRUPT_MSG(db, "the archive of room %s holds the genesis of %s", a->room,
                                  g->room);
    if (g->format_version != LEDGER_FORMAT_VERSION)
        return ledger__fail(db, LEDGER_EINPUT, "the archived room has ledger format %u; this "
                            "build has %u", g->format_version, LEDGER_FORMAT_VERSION);

    uint8_t *gcanon = malloc(LEDGER_GENESIS_CANONICAL_MAX);
    if (gcanon == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    size_t glen = ledger__genesis_canonical(gcanon, LEDGER_GENESIS_CANONICAL_MAX, g);
    rc = glen == 0 ? LEDGER_CORRUPT_MSG(db, "archive genesis has no canonical form")
                   : key_resolve(db, txn, p, g->key_id, &pk);
    if (rc == 0 && ledger__verify_sig(g->signature, gcanon, glen, pk) != 0)
        rc = ledger__fail(db, LEDGER_EBADSIG, "archive genesis: bad signature (key %08x)",
                          g->key_id);
    if (rc == 0)
        ledger__event_hash(p->genesis_hash, gcanon, glen, g->signature);
    free(gcanon);
    if (rc == 0)
        rc = audit_key_resolve(db, txn, p);
    if (rc == 0)
        rc = seed_find(db, p);
    if (rc != 0)
        return rc;
    rc = ledger__room_key_of_archive(db, txn, p->room_key, a);
    p->has_room_key = rc == 0;
    if (rc != 0 && rc != LEDGER_EKEY && rc != LEDGER_ENOTFOUND)
        return rc;

    /* The opening position, when it can be had: a checkpoint at 0, and
     * with the seed the start of the re-fold. */
    if ((p->has_seed || g->position_len > 0) && (!g->is_position_sealed || p->has_room_key)) {
        rc = ledger__opening_state(db, p->opening, g, p->seed,
                                   p->has_room_key ? p->room_key : NULL);
        if (rc != 0)
            return rc;
        p->has_opening = 1;
        p->is_folding = p->has_seed;
        *p->state = *p->opening;
    }
    p->hash = malloc((a->n_events ? a->n_events : 1) * sizeof *p->hash);
    if (p->hash == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    const uint8_t *prev = p->genesis_hash;
    for (uint32_t v = 1; v <= a->n_events; v++) {
        rc = verify_event(db, txn, p, v, prev, p->is_folding ? p->state : NULL);
        if (rc != 0)
            return rc;
        prev = p->hash[v - 1];
    }
    rc = head_verify(db, txn, p);
    if (rc != 0)
        return rc;
    return chain_resolve(db, txn, p);
}

/* ================================================================ write */

static int key_put(ledger *db, ledger_txn *txn, const codec_key *key)
{
    uint8_t kbuf[4], vbuf[128];
    size_t len = 0;
    ledger__be32_put(kbuf, key->key_id);
    vbuf[0] = LEDGER_TAG_PROTOBUF;
    if (codec_key_encode(vbuf + 1, sizeof vbuf - 1, &len, key) != 0)
        return ledger__fail(db, LEDGER_ERROR, "key %08x does not encode", key->key_id);
    MDB_val k = {sizeof kbuf, kbuf}, v = {len + 1, vbuf};
    return ledger__put(txn, db->dbi_keys, &k, &v, MDB_NOOVERWRITE);
}

/* Puts the signers and the audit key that `keys` lacks (R2). */
static int keys_import(ledger *db, ledger_txn *txn, const plan *p)
{
    codec_key key;
    for (size_t i = 0; i < p->n_keys; i++) {
        const known_key *k = &p->keys[i];
        int is_stored = 0;
        if (k->is_put)
            continue;
        /* This ledger's own key, registered just before (restore_body). */
        int src = ledger__key_record(db, txn, &key, k->key_id, &is_stored);
        if (src != 0 && src != LEDGER_ENOTFOUND)
            return src;
        if (src == 0 && is_stored)
            continue;
        memset(&key, 0, sizeof key);
        key.key_id = k->key_id;
        memcpy(key.public_key, k->pk, SCHEMA_KEY_BYTES);
        key.created_at = k->created_at;
        key.retired_at = k->retired_at;
        if (k->theirs != NULL) {
            /* A key of another ledger's chain, trusted by the caller: kept
             * apart from this ledger's own (ledger/key_chain.c). */
            key.is_imported = 1;
            key.has_predecessor = k->theirs->has_predecessor;
            key.predecessor = k->theirs->predecessor;
            memcpy(key.endorsement, k->theirs->endorsement, SCHEMA_SIG_BYTES);
        }
        int rc = key_put(db, txn, &key);
        if (rc != 0)
            return rc == MDB_KEYEXIST ? ledger__fail(db, LEDGER_EKEY, "key %08x appeared during "
                                                     "the restore", k->key_id)
                                      : rc;
    }
    if (p->has_audit_record) {
        /* This ledger's own audit key, registered just before (restore_body). */
        int is_stored = 0;
        int src = ledger__key_record(db, txn, &key, p->audit_record.key_id, &is_stored);
        if (src != 0 && src != LEDGER_ENOTFOUND)
            return src;
        if (src == 0 && is_stored)
            return sodium_memcmp(key.public_key, p->audit_record.public_key,
                                 SCHEMA_KEY_BYTES) == 0
                       ? 0
                       : ledger__fail(db, LEDGER_EKEY, "the archive's key %08x differs from "
                                      "this ledger's", p->audit_record.key_id);
        int rc = key_put(db, txn, &p->audit_record);
        if (rc != 0)
            return rc == MDB_KEYEXIST ? ledger__fail(db, LEDGER_EKEY, "key %08x appeared during "
                                                     "the restore", p->audit_record.key_id)
                                      : rc;
    }
    return 0;
}

/* The checkpoints every K after version `from` and the public view of each
 * version after it, from a second fold of the events verified already
 * (cheaper than keeping every state). A restore that cannot fold writes
 * neither: such a room keeps no public views (ledger/public_view.c). */
static int checkpoints_put(ledger *db, ledger_txn *txn, plan *p, uint32_t from)
{
    const ledger_archive *a = &p->a;
    const uint32_t k = db->checkpoint_every;
    if (!p->is_folding || a->n_events <= from)
        return 0;
    const uint32_t last = a->n_events;
    ledger_cache_entry *e = ledger__cache_take(db, a->room);
    engine_state *st = p->state;
    *st = *p->opening;
    for (uint32_t v = 1; v <= last; v++) {
        const ledger_archive_span *s = &a->events[v - 1];
        codec_event ev;
        engine_rng rng;
        engine_verdict_detail why = {-1, 0};
        engine_action act;
        int rc = ledger__event_record_decode(db, &ev, a->data + s->off, s->len);
        if (rc == 0 && p->has_room_key)
            rc = ledger__event_open_with(db, &act, a->room, &ev, p->room_key);
        else if (rc == 0)
            act = ev.action; /* verify_archive folded it: nothing was sealed */
        if (rc != 0)
            return rc;
        engine_rng_init(&rng, p->seed, v);
        engine_verdict verdict = engine_apply(&why, st, &act, &rng);
        sodium_memzero(&rng, sizeof rng);
        sodium_memzero(&act, sizeof act);
        if (verdict != ENGINE_ACCEPTED) /* it was accepted moments ago */
            return LEDGER_CORRUPT_MSG(db, "archive event %u: refused on the second fold", v);
        if (v > from && v % k == 0) {
            rc = ledger__checkpoint_put(db, txn, a->room, v, p->hash[v - 1], st);
            if (rc != 0)
                return rc;
        }
        if (v > from) {
            rc = ledger__view_put(db, txn, e, a->room, v, v == 1 ? p->genesis_hash
                                                                : p->hash[v - 2],
                                  p->hash[v - 1], st);
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}

/* The restored head's signed tree head, when this ledger can sign (a
 * ledger without its signing key writes the head unsigned, as older
 * builds did; the next append signs it). */
static int head_sign(ledger *db, ledger_txn *txn, const plan *p, ledger_head_rec *head)
{
    head->is_signed = 0;
    if (!db->has_signing_key) {
        /* The archive's own signed head, verified above, when it is of
         * this version: events of format 2 are never left uncovered. */
        if (p->a.has_head && p->a.head.version == head->version)
            ledger__head_sign_as(head, &p->a.head);
        return 0;
    }
    int rc;
    uint64_t time = 0;
    if (head->version == 0) {
        codec_genesis g;
        rc = ledger__genesis_read(db, txn, &g, p->a.room);
        if (rc != 0)
            return rc;
        time = g.created_at;
    } else {
        codec_event ev;
        const ledger_archive_span *s = &p->a.events[head->version - 1];
        rc = ledger__event_record_decode(db, &ev, p->a.data + s->off, s->len);
        if (rc != 0)
            return rc;
        time = ev.committed_at;
    }
    codec_receipt r;
    rc = ledger__receipt_make(db, txn, &r, p->a.room, head->version, head->hash, time);
    if (rc == 0)
        ledger__head_sign_as(head, &r);
    return rc;
}

/* (R3): one transaction; may run again from scratch after a map growth. */
static int restore_body(ledger_txn *txn, void *vctx)
{
    plan *p = vctx;
    ledger *db = txn->db;
    const ledger_archive *a = &p->a;
    const char *room = a->room;
    const uint32_t n = a->n_events;
    ledger_head_rec head;
    memset(&head, 0, sizeof head);
    p->n_added = 0;
    p->is_new_room = 0;

    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v;
    int rc = ledger__get(txn, db->dbi_rooms, &k, &v);
    if (rc == MDB_NOTFOUND) {
        p->is_new_room = 1;
        MDB_val gv = {a->genesis.len, a->data + a->genesis.off};
        rc = ledger__put(txn, db->dbi_rooms, &k, &gv, MDB_NOOVERWRITE);
    } else if (rc == 0) {
        /* (R4) */
        if (v.mv_size != a->genesis.len || memcmp(v.mv_data, a->data + a->genesis.off,
                                                  a->genesis.len) != 0)
            return ledger__fail(db, LEDGER_EDIVERGED, "room %s exists with another genesis",
                                room);
        rc = ledger__head_read(db, txn, &head, room);
        if (rc != 0)
            return rc;
        uint32_t m = head.version < n ? head.version : n;
        uint8_t ours[SCHEMA_HASH_BYTES];
        const uint8_t *theirs = m == 0 ? p->genesis_hash : p->hash[m - 1];
        if (m == head.version)
            memcpy(ours, head.hash, SCHEMA_HASH_BYTES);
        else if ((rc = ledger__event_hash_at(db, txn, ours, room, m)) != 0)
            return rc;
        if (memcmp(ours, theirs, SCHEMA_HASH_BYTES) != 0)
            return ledger__fail(db, LEDGER_EDIVERGED, "room %s and the archive differ at or "
                                "before version %u", room, m);
    }
    if (rc != 0)
        return rc;

    /* The revealed seed first: a revealed room's checkpoints are not
     * sealed (ledger/checkpoint.c). */
    if (a->has_seed) {
        uint8_t kbuf[LEDGER_REVEAL_KEY_BYTES];
        ledger__reveal_key(kbuf, room);
        MDB_val mk = {sizeof kbuf, kbuf}, mv = {ENGINE_SEED_BYTES, (void *)a->seed};
        rc = ledger__put(txn, db->dbi_meta, &mk, &mv, 0);
        if (rc != 0)
            return rc;
    }
    const uint32_t from = head.version;
    if (n > from || p->is_new_room) {
        /* This ledger's own key first: on an empty ledger it becomes the
         * chain's first key, never one of the archive's. */
        rc = db->has_signing_key ? ledger__keys_register(db, txn) : 0;
        if (rc == 0)
            rc = keys_import(db, txn, p);
        if (rc == 0 && p->is_new_room)
            rc = ledger__trees_init(db, txn, room);
        /* The room key comes with the archive (it opens the events of
         * format 3); an archive of an older build has none, and a room new
         * here then gets a key of its own for the rejections it will
         * record (none without an audit key). */
        /* A resealed room keeps its seal: readers here open the seed with it. */
        if (rc == 0 && p->is_new_room && a->has_sealed_seed)
            rc = ledger__seal_record_put(db, txn, room, a->sealed_seed);
        if (rc == 0 && p->is_new_room && a->has_room_key)
            rc = ledger__room_key_import(db, txn, a->room_key, NULL, room);
        else if (rc == 0 && p->is_new_room && db->has_audit_key)
            rc = ledger__room_key_new(db, txn, room);
        for (uint32_t ver = from + 1; rc == 0 && ver <= n; ver++) {
            const ledger_archive_span *s = &a->events[ver - 1];
            rc = ledger__event_put(db, txn, room, ver, a->data + s->off, s->len);
            if (rc == 0)
                rc = ledger__tree_extend(db, txn, room, ver, p->hash[ver - 1]);
        }
        if (rc == 0) /* the lookup of the seats the events bind as they join */
            rc = ledger__seat_joined_put(db, txn, room, &p->joined);
        if (rc != 0)
            return rc;
        head.version = n;
        memcpy(head.hash, n == 0 ? p->genesis_hash : p->hash[n - 1], SCHEMA_HASH_BYTES);
        rc = head_sign(db, txn, p, &head);
        if (rc == 0)
            rc = ledger__head_write(db, txn, room, &head);
        if (rc == 0 && p->is_new_room && p->has_opening)
            rc = ledger__checkpoint_put(db, txn, room, 0, p->genesis_hash, p->opening);
        if (rc == 0 && p->is_new_room && p->has_opening && p->is_folding)
            rc = ledger__view_put(db, txn, NULL, room, 0, NULL, p->genesis_hash, p->opening);
        if (rc == 0)
            rc = checkpoints_put(db, txn, p, from);
        if (rc != 0)
            return rc;
        p->n_added = n - from;
    }
    /* A revealed room's key is as public as its seed. */
    if (a->has_revealed_room_key)
        return ledger__room_key_import(db, txn, NULL, a->revealed_room_key, room);
    return a->has_seed ? ledger__room_key_reveal(db, txn, room) : rc;
}

int ledger_restore(ledger *db, ledger_restore_report *out, const char *path,
                   int trust_archive_keys)
{
    plan p;
    ledger_txn txn;
    memset(out, 0, sizeof *out);
    memset(&p, 0, sizeof p);
    p.is_trusted = trust_archive_keys != 0;
    if (db->is_read_only)
        return ledger__fail(db, LEDGER_EINPUT, "the ledger was opened read-only");
    if (path == NULL || path[0] == '\0')
        return ledger__fail(db, LEDGER_EINPUT, "no archive path given");
    p.opening = malloc(sizeof *p.opening);
    p.state = malloc(sizeof *p.state);
    int rc = p.opening == NULL || p.state == NULL
                 ? ledger__fail(db, LEDGER_ERROR, "out of memory")
                 : ledger__archive_read(db, &p.a, path);
    if (rc == 0) {
        memcpy(out->room, p.a.room, sizeof out->room);
        out->n_events = p.a.n_events;
        rc = ledger__txn_begin(&txn, db, 0);
        if (rc == 0) {
            rc = verify_archive(db, &txn, &p);
            ledger__txn_abort(&txn);
        }
    }
    if (rc == 0) {
        rc = ledger__write(db, restore_body, &p);
        /* The room changed beneath whatever the cache held of it. */
        ledger__cache_forget(db, p.a.room);
    }
    if (rc == 0) {
        out->n_added = p.n_added;
        out->is_new_room = p.is_new_room;
    }
    plan_free(&p);
    return rc;
}
