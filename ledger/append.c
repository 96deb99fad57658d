/*
 * append.c - the append path (DESIGN.md "Append path"): compare-and-swap
 * on the head, idempotent retry, the engine's verdict, and then either a
 * recorded rejection or an event (format 2: unsigned, its hash in the
 * chain and the tree; format 3 when its action's secret arguments are
 * sealed with the room key) written with its signed head and any checkpoint, all in one write transaction per append or per batch.
 *
 * Part of ledger/. It must never acknowledge an append before its
 * transaction has committed, never write a part of an append without the
 * rest (invariants of internal.h (1)-(3)), and never draw randomness other
 * than the (seed, version) stream of the event being appended.
 *
 * Invariants:
 *  (A1) an event, its head and its checkpoint are written in one txn.
 *  (A2) a request refused before writing (conflict, unknown room, bad
 *       input) leaves the txn untouched, so the rest of a batch proceeds.
 *  (A3) the head record's version is always the largest stored version.
 *  (A4) the head record carries the receipt of its version, signed.
 *
 * `rejections`: room (8) || counter u32 BE -> tag 0x01 + Rejection
 * protobuf; the counter is the room's head n_rejections before it.
 *
 * The receipt of an accepted append is signed in its transaction: it is
 * the signed tree head the new head record stores (read.c), so that a
 * head cannot be moved back without a signature the file does not hold.
 * Its tree root comes from the room's compact range, kept in the room
 * cache beside the head state: an append hashes O(log n) nodes and reads
 * no event back (tree.c reads the range from `trees` when the cache has
 * none for the head).
 */
#include <stdio.h>
#include <string.h>

#include "ledger/internal.h"

/* ========================================================== the append */

/* Codes for which a request fails alone (A2); any other code fails the
 * whole transaction. */
static int is_request_error(int rc)
{
    return rc == LEDGER_ECONFLICT || rc == LEDGER_ENOTFOUND || rc == LEDGER_EINPUT;
}

static int action_check(ledger *db, const engine_action *act)
{
    const engine_action_spec *spec = engine_action_spec_of(act->kind);
    if (spec == NULL)
        return ledger__fail(db, LEDGER_EINPUT, "unknown action kind %u", act->kind);
    for (unsigned i = spec->n_args; i < ENGINE_ACTION_MAX_ARGS; i++)
        if (act->arg[i] != 0)
            return ledger__fail(db, LEDGER_EINPUT, "%s takes %u arguments; argument %u is set",
                                spec->name, spec->n_args, i);
    if (act->seat != ENGINE_SEAT_ENGINE && act->seat >= ENGINE_MAX_SEATS)
        return ledger__fail(db, LEDGER_EINPUT, "seat %u is out of range", act->seat);
    return 0;
}

static int same_action(const engine_action *a, const engine_action *b)
{
    if (a->kind != b->kind || a->seat != b->seat)
        return 0;
    for (int i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        if (a->arg[i] != b->arg[i])
            return 0;
    return 1;
}

/* The head moved past expected: the very same action at expected+1 is a
 * retry answered with the original receipt; anything else a conflict. */
static int retry_or_conflict(ledger *db, ledger_txn *txn, ledger_append_result *out,
                             const char *room, uint32_t expected, const ledger_head_rec *head,
                             const engine_action *act, const uint8_t *seat_sig,
                             const uint8_t *bind_key)
{
    if (expected < head->version) {
        codec_event ev;
        uint8_t hash[SCHEMA_HASH_BYTES];
        engine_action stored;
        int rc = ledger__event_load(db, txn, &ev, hash, room, expected + 1);
        if (rc == 0)
            rc = ledger__event_open(db, txn, &stored, room, &ev); /* its secrets, if sealed */
        if (rc != 0)
            return rc;
        int is_same = ev.seat == act->seat && same_action(&stored, act);
        sodium_memzero(&stored, sizeof stored);
        if (is_same) {
            /* A bound seat's retry carries the very signature (and binding) stored. */
            if (ev.has_seat_signature && seat_sig == NULL)
                return ledger__fail(db, LEDGER_EINPUT, "seat %u is bound to a key and its "
                                    "action carries no seat signature; nothing written",
                                    act->seat + 1u);
            if ((seat_sig != NULL) != ev.has_seat_signature ||
                (bind_key != NULL) != ev.has_bind_key ||
                (seat_sig != NULL &&
                 sodium_memcmp(seat_sig, ev.seat_signature, SCHEMA_SIG_BYTES) != 0) ||
                (bind_key != NULL && sodium_memcmp(bind_key, ev.bind_key, SCHEMA_KEY_BYTES) != 0))
                return ledger__fail(db, LEDGER_EINPUT, "a retry of version %u must carry the seat "
                                    "signature and binding of the action stored there; nothing "
                                    "written", expected + 1);
            rc = ledger__receipt_make(db, txn, &out->receipt, room, expected + 1, hash,
                                      ev.committed_at);
            if (rc != 0)
                return rc;
            out->verdict = ENGINE_ACCEPTED;
            out->is_retry = 1;
            return 0;
        }
    }
    return ledger__fail(db, LEDGER_ECONFLICT, "room %s is at version %u, not %u", room,
                        head->version, expected);
}

static int reject(ledger *db, ledger_txn *txn, const char *room, uint32_t expected,
                  ledger_head_rec *head, const engine_action *act, engine_verdict verdict,
                  const engine_verdict_detail *why)
{
    codec_rejection r;
    uint8_t kbuf[LEDGER_REJ_KEY_BYTES], vbuf[256];
    size_t len = 0;
    memset(&r, 0, sizeof r);
    memcpy(r.room, room, SCHEMA_ROOM_CHARS);
    r.seat = act->seat;
    r.expected_version = expected;
    r.action = *act;
    r.reason = (uint32_t)verdict;
    r.detail_arg = why->arg;
    r.detail_value = why->value;
    r.at = ledger_now_ms();
    int rc = ledger__rejection_seal(db, txn, &r, head->n_rejections); /* no secret in the clear */
    if (rc != 0)
        return rc;
    vbuf[0] = LEDGER_TAG_PROTOBUF;
    rc = codec_rejection_encode(vbuf + 1, sizeof vbuf - 1, &len, &r);
    if (rc != 0)
        return ledger__fail(db, LEDGER_EINPUT, "the rejection cannot be encoded (%d)", rc);
    memcpy(kbuf, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(kbuf + SCHEMA_ROOM_CHARS, head->n_rejections);
    MDB_val k = {sizeof kbuf, kbuf}, v = {len + 1, vbuf};
    rc = ledger__put(txn, db->dbi_rejections, &k, &v, 0);
    if (rc != 0)
        return rc;
    head->n_rejections++;
    return ledger__head_write(db, txn, room, head);
}

/* One request inside the open write txn. */
static int append_one(ledger *db, ledger_txn *txn, ledger_append_result *out, const char *room,
                      uint32_t expected, const engine_action *act, const uint8_t *seat_sig,
                      const uint8_t *bind_key)
{
    engine_state st;
    ledger_head_rec head;
    uint8_t seed[ENGINE_SEED_BYTES];
    memset(out, 0, sizeof *out);
    out->why.arg = -1;
    if (!ledger__room_valid(room))
        return ledger__room_refuse(db, room);
    int rc = action_check(db, act);
    if (rc != 0)
        return rc;
    rc = ledger__head_read(db, txn, &head, room);
    if (rc != 0)
        return rc;
    if (head.version != expected)
        return retry_or_conflict(db, txn, out, room, expected, &head, act, seat_sig, bind_key);
    if (expected == UINT32_MAX)
        return ledger__fail(db, LEDGER_EINPUT, "room %s has no versions left", room);
    rc = ledger__seat_sig_admit(db, txn, room, expected, head.hash, act, seat_sig, bind_key);
    if (rc != 0)
        return rc;

    rc = ledger__state_load(db, txn, &st, room, expected);
    if (rc == 0)
        rc = ledger__room_seed(db, txn, room, seed);
    if (rc != 0)
        return rc == LEDGER_ENOTFOUND ? LEDGER_CORRUPT_MSG(db, "room %s: %s", room,
                                                           ledger_errmsg(db))
                                      : rc;
    engine_rng rng;
    engine_rng_init(&rng, seed, expected + 1);
    sodium_memzero(seed, sizeof seed);
    engine_verdict verdict = engine_apply(&out->why, &st, act, &rng);
    sodium_memzero(&rng, sizeof rng);
    out->verdict = verdict;
    if (verdict != ENGINE_ACCEPTED)
        return reject(db, txn, room, expected, &head, act, verdict, &out->why);

    codec_event ev;
    uint8_t canon[LEDGER_EVENT_CANONICAL_MAX], hash[SCHEMA_HASH_BYTES];
    uint8_t rec[LEDGER_EVENT_RECORD_MAX];
    size_t rec_len = 0;
    memset(&ev, 0, sizeof ev);
    ev.version = expected + 1;
    ev.has_prev_hash = 1;
    memcpy(ev.prev_hash, head.hash, SCHEMA_HASH_BYTES);
    ev.seat = act->seat;
    ev.action = *act;
    ev.committed_at = ledger_now_ms();
    engine_state_digest(ev.state_digest, &st);
    if (seat_sig != NULL) { /* admitted above: stored, and hashed with the event */
        ev.has_seat_signature = 1;
        memcpy(ev.seat_signature, seat_sig, SCHEMA_SIG_BYTES);
    }
    if (bind_key != NULL) { /* admitted above: the seat is bound from this event on */
        ev.has_bind_key = 1;
        memcpy(ev.bind_key, bind_key, SCHEMA_KEY_BYTES);
    }
    /* Format 2: the ledger's one signature is the receipt's, below, over
     * the tree head that covers this event's hash. */
    if (db->is_signing_events) {
        ev.has_signature = 1;
        ev.key_id = db->key_id;
    }
    /* Format 3 when the action has secrets: sealed with the room key, 0 in
     * the clear (the state above was folded from the real action). */
    rc = ledger__event_seal(db, txn, &ev, room);
    if (rc != 0)
        return rc;
    size_t len = ledger__event_canonical(canon, room, &ev);
    if (len == 0)
        return ledger__fail(db, LEDGER_EINPUT, "the action has no canonical form");
    if (ev.has_signature && (rc = ledger__sign(db, ev.signature, canon, len)) != 0)
        return rc;
    ledger__event_chain_hash(hash, canon, len, &ev);
    rc = ledger__event_record_encode(db, rec, sizeof rec, &rec_len, &ev);
    if (rc != 0)
        return rc;
    if (LEDGER_EVENT_PREFIX + rec_len > db->max_dup_bytes)
        return ledger__fail(db, LEDGER_EINPUT, "event of %zu bytes exceeds the %zu bytes LMDB "
                            "allows", LEDGER_EVENT_PREFIX + rec_len, db->max_dup_bytes);
    /* (A1): event, head and checkpoint in this txn. */
    rc = ledger__event_put(db, txn, room, ev.version, rec, rec_len);
    if (rc != 0)
        return rc == LEDGER_ECONFLICT ? LEDGER_CORRUPT_MSG(db, "room %s: head %u but event %u "
                                                           "exists", room, expected, ev.version)
                                      : rc;
    if (bind_key != NULL && (rc = ledger__seat_bind_record(db, txn, room, act->seat, bind_key)) != 0)
        return rc;
    /* The tree grows from the room's compact range, kept in the cache
     * with the head it belongs to; read from `trees` when not. */
    ledger_cache_entry *e = ledger__cache_take(db, room);
    uint8_t root[LEDGER_TREE_HASH_BYTES];
    if (!e->has_range || e->range.size != expected ||
        memcmp(e->range_hash, head.hash, SCHEMA_HASH_BYTES) != 0) {
        e->has_range = 0;
        e->is_dirty = 1; /* (3) */
        rc = ledger__tree_range(db, txn, &e->range, room, expected);
        if (rc != 0)
            return rc;
        e->has_range = 1;
    }
    e->is_dirty = 1; /* (3): the range moves with this txn */
    rc = ledger__tree_append(db, txn, &e->range, root, room, ev.version, hash);
    memcpy(e->range_hash, hash, SCHEMA_HASH_BYTES);
    if (rc == 0)
        rc = ledger__receipt_fill_root(db, &out->receipt, room, ev.version, hash,
                                       ev.committed_at, root);
    if (rc != 0) {
        e->has_range = 0; /* a batch may go on past this request */
        return rc;
    }
    ledger__receipt_sign(&out->receipt, db->signing_sk);
    head.version = ev.version; /* (A3) */
    memcpy(head.hash, hash, SCHEMA_HASH_BYTES);
    ledger__head_sign_as(&head, &out->receipt); /* (A4) */
    rc = ledger__head_write(db, txn, room, &head);
    if (rc != 0)
        return rc;
    if (ev.version % db->checkpoint_every == 0) {
        rc = ledger__checkpoint_put(db, txn, room, ev.version, hash, &st);
        if (rc != 0)
            return rc;
    }
    rc = ledger__view_put(db, txn, e, room, ev.version, ev.prev_hash, hash, &st); /* (A1) */
    if (rc != 0)
        return rc;
    e->has_state = 1;
    e->version = ev.version;
    memcpy(e->hash, hash, SCHEMA_HASH_BYTES);
    e->state = st;
    return 0;
}

typedef struct batch_ctx {
    ledger_append_result *out;
    int *rc_out;
    const ledger_append_req *req;
    const uint8_t *const *seat_sigs; /* seat_sigs[i] for req[i] (NULL: none at all) */
    const uint8_t *const *bind_keys; /* bind_keys[i] for req[i] (NULL: none at all) */
    size_t n;
    const char *room;              /* single append: these instead of req */
    uint32_t expected_version;
    const engine_action *act;
    const uint8_t *seat_sig;
    const uint8_t *bind_key;
} batch_ctx;

static int single_body(ledger_txn *txn, void *vctx)
{
    batch_ctx *ctx = vctx;
    int rc = ledger__keys_register(txn->db, txn); /* a foreign keys directory writes nothing */
    if (rc != 0)
        return rc;
    return append_one(txn->db, txn, ctx->out, ctx->room, ctx->expected_version, ctx->act,
                      ctx->seat_sig, ctx->bind_key);
}

static int batch_body(ledger_txn *txn, void *vctx)
{
    batch_ctx *ctx = vctx;
    ledger *db = txn->db;
    int krc = ledger__keys_register(db, txn); /* a foreign keys directory writes nothing */
    if (krc != 0)
        return krc;
    for (size_t i = 0; i < ctx->n; i++) {
        const ledger_append_req *r = &ctx->req[i];
        int rc = append_one(db, txn, &ctx->out[i], r->room, r->expected_version, &r->action,
                            ctx->seat_sigs != NULL ? ctx->seat_sigs[i] : NULL,
                            ctx->bind_keys != NULL ? ctx->bind_keys[i] : NULL);
        ctx->rc_out[i] = rc;
        if (rc != 0 && (!is_request_error(rc) || txn->is_poisoned))
            return rc;
    }
    return 0;
}

/* Without the signing key nothing is written, not even a rejection. */
static int can_write(ledger *db)
{
    if (!db->has_signing_key)
        return ledger__fail(db, LEDGER_EKEY, "no signing key in %s: the ledger may not be "
                            "written", db->keys_dir);
    return 0;
}

int ledger_append(ledger *db, ledger_append_result *out, const char *room,
                  uint32_t expected_version, const engine_action *act)
{
    return ledger_append_signed(db, out, room, expected_version, act, NULL);
}

int ledger_append_signed(ledger *db, ledger_append_result *out, const char *room,
                         uint32_t expected_version, const engine_action *act,
                         const uint8_t *seat_sig)
{
    return ledger_append_bind(db, out, room, expected_version, act, seat_sig, NULL);
}

int ledger_append_bind(ledger *db, ledger_append_result *out, const char *room,
                       uint32_t expected_version, const engine_action *act,
                       const uint8_t seat_sig[SCHEMA_SIG_BYTES],
                       const uint8_t bind_key[SCHEMA_KEY_BYTES])
{
    batch_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.out = out;
    ctx.room = room;
    ctx.expected_version = expected_version;
    ctx.act = act;
    ctx.seat_sig = seat_sig;
    ctx.bind_key = bind_key;
    int rc = can_write(db);
    if (rc == 0)
        rc = ledger__write(db, single_body, &ctx);
    if (rc != 0) { /* nothing was written: no verdict, no receipt */
        memset(out, 0, sizeof *out);
        out->why.arg = -1;
    }
    return rc;
}

int ledger_append_batch(ledger *db, ledger_append_result *out, int *rc_out,
                        const ledger_append_req *req, size_t n)
{
    return ledger__append_batch_signed(db, out, rc_out, req, NULL, NULL, n);
}

int ledger__append_batch_signed(ledger *db, ledger_append_result *out, int *rc_out,
                                const ledger_append_req *req, const uint8_t *const *seat_sigs,
                                const uint8_t *const *bind_keys, size_t n)
{
    if (n == 0)
        return 0;
    batch_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.out = out;
    ctx.rc_out = rc_out;
    ctx.req = req;
    ctx.seat_sigs = seat_sigs;
    ctx.bind_keys = bind_keys;
    ctx.n = n;
    char msg[sizeof db->errmsg];
    int rc = can_write(db);
    if (rc == 0)
        rc = ledger__write(db, batch_body, &ctx);
    if (rc != 0) {
        /* Nothing was written: every request failed with the txn. */
        snprintf(msg, sizeof msg, "%s", db->errmsg);
        for (size_t i = 0; i < n; i++) {
            memset(&out[i], 0, sizeof out[i]);
            out[i].why.arg = -1;
            rc_out[i] = rc;
        }
        ledger__fail(db, rc, "%s", msg);
    }
    return rc;
}
