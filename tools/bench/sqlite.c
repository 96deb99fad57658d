/*
 * bench/sqlite.c - the SQLite peer of `mentat bench`: the same games
 * stored as a game server would store them in SQLite, so that the append
 * ratios compare storage and nothing else.
 *
 * Layer: tools; bench only. The database is a real sqlite3 file in WAL
 * mode with synchronous=FULL (every commit is durable, as every Mentat
 * append is) and one table
 *     events(room TEXT, version INTEGER, body TEXT, PRIMARY KEY(room, version))
 * with one JSON row per event holding the fields of a Mentat event:
 * version, prev hash (hex), seat, action (JSON), committed_at, state
 * digest (hex) and the seat's signature (hex). Version 0 is the room's
 * genesis row, signed.
 *
 * Per event the peer does the work Mentat does: it reads the room's last
 * row and checks its version (compare-and-swap), hashes that row with
 * BLAKE2b-256 (the prev hash), folds the action into the cached head state
 * with the room's randomness, and digests the new state; the acting seat
 * signs its action as its client would (ledger_seat_message's bytes) and
 * the peer checks that signature against the seat's key and stores it in
 * the row, as the ledger does. Like an event of format 2 (ledger/event.c),
 * the row carries no signature of the peer's own: once the transaction is
 * durable the peer signs each event's receipt in the layout of the
 * ledger's signed tree head ("MNTH": room, version, the row's BLAKE2b-256,
 * key id, 32 bytes of root, time), one Ed25519 signature per event as
 * ledger_append makes. SQLite keeps no Merkle tree, so the root is the
 * row's hash again: the peer is spared the tree's hashing, never a
 * signature. An action with secret arguments is sealed as the ledger seals
 * it in an event of format 3 (ledger/room_key.c): a nonce keyed-hashed
 * with the room key over the room, the version and the canonical action,
 * XChaCha20-Poly1305 of that action, stored in the row (hex) beside the
 * action with those arguments 0. Only where the bytes go differs. It must
 * never be given an easier job than the ledger:
 * no unsafe pragmas, no skipped check, one transaction per call.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <sqlite3.h>

#include "tools/internal.h"

#define BUSY_TIMEOUT_MS 60000
#define BODY_MAX 1024

struct bench_peer {
    sqlite3 *db;                   /* one connection, one thread */
    sqlite3_stmt *begin;           /* BEGIN IMMEDIATE: take the write lock first */
    sqlite3_stmt *commit;          /* COMMIT: durable (WAL synced) on return */
    sqlite3_stmt *rollback;        /* ROLLBACK, after a failure */
    sqlite3_stmt *head;            /* the room's last row */
    sqlite3_stmt *insert;          /* one event row */
    const bench_ctx *c;            /* the signing key; borrowed */
    engine_state *next;            /* scratch: the states a transaction makes */
    uint8_t (*row_hash)[SCHEMA_HASH_BYTES]; /* scratch: the hash of each row written */
    uint64_t *row_at;              /* scratch: the committed_at of each row written */
    size_t n_next;                 /* states (and row hashes) allocated */
    uint8_t room_key[32];          /* seals secret arguments, as a room key does */
    char err[BENCH_ERRMSG];        /* last failure */
};

static const char schema_sql[] =
    "CREATE TABLE IF NOT EXISTS events("
    "room TEXT NOT NULL, version INTEGER NOT NULL, body TEXT NOT NULL, "
    "PRIMARY KEY(room, version))";

static int fail(bench_peer *p, const char *what)
{
    snprintf(p->err, sizeof p->err, "sqlite %s: %s", what,
             p->db != NULL ? sqlite3_errmsg(p->db) : "out of memory");
    return -1;
}

const char *bench_peer_errmsg(const bench_peer *p)
{
    return p->err;
}

void bench_peer_head_init(bench_peer_head *h, const bench_room *room)
{
    h->room = room;
    h->version = 0;
    h->state = room->opening;
}

/* =========================================================== open/close */

void bench_peer_close(bench_peer *p)
{
    if (p == NULL)
        return;
    sqlite3_finalize(p->begin);
    sqlite3_finalize(p->commit);
    sqlite3_finalize(p->rollback);
    sqlite3_finalize(p->head);
    sqlite3_finalize(p->insert);
    sqlite3_close(p->db);
    free(p->next);
    free(p->row_hash);
    free(p->row_at);
    free(p);
}

static int prepare(bench_peer *p, sqlite3_stmt **out, const char *sql)
{
    if (sqlite3_prepare_v2(p->db, sql, -1, out, NULL) != SQLITE_OK)
        return fail(p, "prepare");
    return 0;
}

int bench_peer_open(bench_peer **out, bench_ctx *c, const char *path)
{
    *out = NULL;
    bench_peer *p = calloc(1, sizeof *p);
    if (p == NULL)
        return bench_fail(c, "out of memory");
    p->c = c;
    randombytes_buf(p->room_key, sizeof p->room_key);
    int rc = sqlite3_open_v2(path, &p->db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             NULL);
    if (rc != SQLITE_OK) {
        fail(p, "open");
        goto bad;
    }
    sqlite3_busy_timeout(p->db, BUSY_TIMEOUT_MS);
    char *msg = NULL;
    if (sqlite3_exec(p->db, "PRAGMA journal_mode=WAL", NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(p->db, "PRAGMA synchronous=FULL", NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(p->db, schema_sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(p->err, sizeof p->err, "sqlite setup: %s", msg != NULL ? msg : "?");
        sqlite3_free(msg);
        goto bad;
    }
    if (prepare(p, &p->begin, "BEGIN IMMEDIATE") != 0 ||
        prepare(p, &p->commit, "COMMIT") != 0 ||
        prepare(p, &p->rollback, "ROLLBACK") != 0 ||
        prepare(p, &p->head,
                "SELECT version, body FROM events WHERE room = ?1 "
                "ORDER BY version DESC LIMIT 1") != 0 ||
        prepare(p, &p->insert, "INSERT INTO events(room, version, body) VALUES(?1, ?2, ?3)") != 0)
        goto bad;
    *out = p;
    return 0;
bad:
    bench_fail(c, "%s (%s)", p->err, path);
    bench_peer_close(p);
    return -1;
}

/* ======================================================== transactions */

static int run(bench_peer *p, sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return fail(p, what);
    return 0;
}

static void abandon(bench_peer *p)
{
    if (!sqlite3_get_autocommit(p->db)) {
        sqlite3_step(p->rollback);
        sqlite3_reset(p->rollback);
    }
}

static int insert_row(bench_peer *p, const char *room, uint32_t version, const char *body,
                      size_t body_len)
{
    sqlite3_bind_text(p->insert, 1, room, SCHEMA_ROOM_CHARS, SQLITE_STATIC);
    sqlite3_bind_int64(p->insert, 2, version);
    sqlite3_bind_text(p->insert, 3, body, (int)body_len, SQLITE_STATIC);
    int rc = sqlite3_step(p->insert);
    sqlite3_reset(p->insert);
    sqlite3_clear_bindings(p->insert);
    if (rc != SQLITE_DONE)
        return fail(p, "insert");
    return 0;
}

static void put32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 24);
    b[1] = (uint8_t)(v >> 16);
    b[2] = (uint8_t)(v >> 8);
    b[3] = (uint8_t)v;
}

/* The JSON row of one event into body: its length, or 0 if it does not fit. */
static size_t event_json(char body[BODY_MAX], uint32_t version,
                         const uint8_t prev[SCHEMA_HASH_BYTES], const engine_action *act,
                         uint64_t committed_at, const uint8_t digest[SCHEMA_HASH_BYTES],
                         const uint8_t *seat_sig, const char *sealed_hex)
{
    char action[512], prev_hex[2 * SCHEMA_HASH_BYTES + 1], digest_hex[2 * SCHEMA_HASH_BYTES + 1];
    char seat_hex[2 * SCHEMA_SIG_BYTES + 1] = "";
    if (codec_action_to_json(action, sizeof action, act) != 0)
        return 0;
    tool_hex(prev_hex, prev, SCHEMA_HASH_BYTES);
    tool_hex(digest_hex, digest, SCHEMA_HASH_BYTES);
    if (seat_sig != NULL)
        tool_hex(seat_hex, seat_sig, SCHEMA_SIG_BYTES);
    int n = snprintf(body, BODY_MAX,
                     "{\"version\":%u,\"prev_hash\":\"%s\",\"seat\":%u,\"action\":%s,"
                     "\"committed_at\":%llu,\"state_digest\":\"%s\"%s%s%s%s%s%s}",
                     version, prev_hex,
                     act->seat == ENGINE_SEAT_ENGINE ? 0u : act->seat + 1u, action,
                     (unsigned long long)committed_at, digest_hex,
                     seat_sig != NULL ? ",\"seat_signature\":\"" : "", seat_hex,
                     seat_sig != NULL ? "\"" : "",
                     sealed_hex != NULL ? ",\"sealed_action\":\"" : "",
                     sealed_hex != NULL ? sealed_hex : "", sealed_hex != NULL ? "\"" : "");
    return n > 0 && n < BODY_MAX ? (size_t)n : 0;
}

int bench_peer_genesis(bench_peer *p, const bench_room *rooms, size_t n)
{
    if (run(p, p->begin, "begin") != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const bench_room *r = &rooms[i];
        uint8_t commitment[SCHEMA_HASH_BYTES], sig[SCHEMA_SIG_BYTES];
        crypto_generichash(commitment, sizeof commitment, r->seed, sizeof r->seed, NULL, 0);
        char body[BODY_MAX], hex[2 * SCHEMA_HASH_BYTES + 1], sig_hex[2 * SCHEMA_SIG_BYTES + 1];
        tool_hex(hex, commitment, sizeof commitment);
        int len = snprintf(body, sizeof body,
                           "{\"version\":0,\"room\":\"%s\",\"rules_version\":%d,"
                           "\"n_seats\":%u,\"advanced\":%u,\"seed_commitment\":\"%s\","
                           "\"created_at\":%llu,\"key_id\":%u",
                           r->room, ENGINE_RULES_VERSION, r->opening.config.n_seats,
                           r->opening.config.is_advanced, hex,
                           (unsigned long long)ledger_now_ms(), p->c->peer_key_id);
        assert(len > 0 && (size_t)len < sizeof body - 200);
        len += snprintf(body + len, sizeof body - (size_t)len, ",\"seat_keys\":[");
        for (unsigned s = 0; s < r->opening.config.n_seats; s++) {
            tool_hex(hex, p->c->seat_keys.key[s], SCHEMA_KEY_BYTES);
            len += snprintf(body + len, sizeof body - (size_t)len, "%s\"%s\"", s ? "," : "",
                            hex);
        }
        len += snprintf(body + len, sizeof body - (size_t)len, "]");
        assert((size_t)len < sizeof body - 200);
        crypto_sign_detached(sig, NULL, (const uint8_t *)body, (unsigned long long)len,
                             p->c->peer_sk);
        tool_hex(sig_hex, sig, sizeof sig);
        len += snprintf(body + len, sizeof body - (size_t)len, ",\"signature\":\"%s\"}", sig_hex);
        if (insert_row(p, r->room, 0, body, (size_t)len) != 0) {
            abandon(p);
            return -1;
        }
    }
    if (run(p, p->commit, "commit") != 0) {
        abandon(p);
        return -1;
    }
    return 0;
}

/* One event of head h into the open transaction; the new state to *next. */
#define SEALED_MAX (24 + 2 + 2 * ENGINE_ACTION_MAX_ARGS + 16)

/* An action with secret arguments, sealed as an event of format 3 seals
 * it: sealed_hex gets the nonce, ciphertext and tag in hex, shown the
 * action with those arguments 0. 0 if there is nothing secret. */
static int seal_action(const bench_peer *p, char sealed_hex[2 * SEALED_MAX + 1],
                       engine_action *shown, const char *room, uint32_t version)
{
    uint8_t mask = engine_action_secret_args(shown);
    if (mask == 0)
        return 0;
    uint8_t plain[2 + 2 * ENGINE_ACTION_MAX_ARGS], ad[4 + SCHEMA_ROOM_CHARS + 4];
    uint8_t sealed[SEALED_MAX];
    const engine_action_spec *spec = engine_action_spec_of(shown->kind);
    unsigned n = spec != NULL ? spec->n_args : 0;
    plain[0] = shown->kind;
    plain[1] = (uint8_t)n;
    for (unsigned i = 0; i < n; i++) {
        plain[2 + 2 * i] = (uint8_t)((uint16_t)shown->arg[i] >> 8);
        plain[3 + 2 * i] = (uint8_t)shown->arg[i];
    }
    memcpy(ad, "MNEV", 4);
    memcpy(ad + 4, room, SCHEMA_ROOM_CHARS);
    put32(ad + 4 + SCHEMA_ROOM_CHARS, version);
    crypto_generichash_state h;
    crypto_generichash_init(&h, p->room_key, sizeof p->room_key, 24);
    crypto_generichash_update(&h, ad, sizeof ad);
    crypto_generichash_update(&h, plain, 2 + 2 * n);
    crypto_generichash_final(&h, sealed, 24);
    unsigned long long clen = 0;
    crypto_aead_xchacha20poly1305_ietf_encrypt(sealed + 24, &clen, plain, 2 + 2 * n, ad,
                                               sizeof ad, NULL, sealed, p->room_key);
    tool_hex(sealed_hex, sealed, 24 + (size_t)clen);
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        if ((unsigned)mask >> i & 1u)
            shown->arg[i] = 0;
    return 1;
}

static int append_one(bench_peer *p, engine_state *next, uint8_t row_hash[SCHEMA_HASH_BYTES],
                      uint64_t *at_out, const bench_peer_head *h)
{
    const bench_room *r = h->room;
    assert(h->version < r->n_actions);
    const engine_action *act = &r->action[h->version];
    uint32_t version = h->version + 1;

    /* Compare-and-swap on the room's last row, whose hash is the prev hash. */
    sqlite3_bind_text(p->head, 1, r->room, SCHEMA_ROOM_CHARS, SQLITE_STATIC);
    int rc = sqlite3_step(p->head);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(p->head);
        if (rc == SQLITE_DONE)
            snprintf(p->err, sizeof p->err, "room %s has no genesis row", r->room);
        else
            fail(p, "select head");
        return -1;
    }
    int64_t head = sqlite3_column_int64(p->head, 0);
    const unsigned char *prev_body = sqlite3_column_text(p->head, 1);
    int prev_len = sqlite3_column_bytes(p->head, 1);
    uint8_t prev[SCHEMA_HASH_BYTES];
    if (head == (int64_t)h->version && prev_body != NULL)
        crypto_generichash(prev, sizeof prev, prev_body, (unsigned long long)prev_len, NULL, 0);
    sqlite3_reset(p->head);
    if (head != (int64_t)h->version || prev_body == NULL) {
        snprintf(p->err, sizeof p->err, "room %s: head at %lld, not %u", r->room,
                 (long long)head, h->version);
        return -1;
    }

    /* The fold, with the room's randomness for this version. */
    *next = h->state;
    engine_rng rng;
    engine_rng_init(&rng, r->seed, version);
    engine_verdict v = engine_apply(NULL, next, act, &rng);
    if (v != ENGINE_ACCEPTED) {
        const char *name = engine_verdict_name(v);
        snprintf(p->err, sizeof p->err, "room %s version %u: refused: %s", r->room, version,
                 name != NULL ? name : "?");
        return -1;
    }
    uint8_t digest[SCHEMA_HASH_BYTES];
    engine_state_digest(digest, next);

    uint64_t at = ledger_now_ms();
    uint8_t seat_buf[SCHEMA_SIG_BYTES], seat_msg[LEDGER_SEAT_MESSAGE_MAX];
    const uint8_t *seat_sig = bench_seat_sign(p->c, seat_buf, r->room, h->version, prev, act);
    if (seat_sig != NULL) {
        size_t seat_len = ledger_seat_message(seat_msg, r->room, h->version, prev, act);
        if (seat_len == 0 || crypto_sign_verify_detached(seat_sig, seat_msg, seat_len,
                                                         p->c->seat_keys.key[act->seat]) != 0) {
            snprintf(p->err, sizeof p->err, "room %s version %u: bad seat signature", r->room,
                     version);
            return -1;
        }
    }
    char body[BODY_MAX], sealed_hex[2 * SEALED_MAX + 1];
    engine_action shown = *act;
    int is_sealed = seal_action(p, sealed_hex, &shown, r->room, version);
    size_t body_len = event_json(body, version, prev, &shown, at, digest, seat_sig,
                                 is_sealed ? sealed_hex : NULL);
    if (body_len == 0) {
        snprintf(p->err, sizeof p->err, "room %s version %u: row too long", r->room, version);
        return -1;
    }
    crypto_generichash(row_hash, SCHEMA_HASH_BYTES, (const uint8_t *)body, body_len, NULL, 0);
    *at_out = at;
    return insert_row(p, r->room, version, body, body_len);
}

/* The receipt of a durable row: the layout of the ledger's signed tree
 * head (ledger/event.c, "MNTH": room, version, event hash, key id, root,
 * time; the row hash stands for the root), signed. */
static void sign_receipt(const bench_peer *p, const char *room, uint32_t version,
                         const uint8_t hash[SCHEMA_HASH_BYTES], uint64_t at)
{
    uint8_t msg[4 + SCHEMA_ROOM_CHARS + 4 + SCHEMA_HASH_BYTES + 4 + SCHEMA_HASH_BYTES + 8];
    uint8_t sig[SCHEMA_SIG_BYTES];
    memcpy(msg, "MNTH", 4);
    memcpy(msg + 4, room, SCHEMA_ROOM_CHARS);
    put32(msg + 12, version);
    memcpy(msg + 16, hash, SCHEMA_HASH_BYTES);
    put32(msg + 48, p->c->peer_key_id);
    memcpy(msg + 52, hash, SCHEMA_HASH_BYTES);
    put32(msg + 84, (uint32_t)(at >> 32));
    put32(msg + 88, (uint32_t)at);
    crypto_sign_detached(sig, NULL, msg, sizeof msg, p->c->peer_sk);
}

int bench_peer_append(bench_peer *p, bench_peer_head *const *heads, size_t n)
{
    if (n > p->n_next) {
        engine_state *s = realloc(p->next, n * sizeof *s);
        if (s != NULL)
            p->next = s;
        uint8_t(*hs)[SCHEMA_HASH_BYTES] = s != NULL ? realloc(p->row_hash, n * sizeof *hs) : NULL;
        if (hs != NULL)
            p->row_hash = hs;
        uint64_t *ats = hs != NULL ? realloc(p->row_at, n * sizeof *ats) : NULL;
        if (s == NULL || hs == NULL || ats == NULL) {
            snprintf(p->err, sizeof p->err, "out of memory");
            return -1;
        }
        p->row_at = ats;
        p->n_next = n;
    }
    if (run(p, p->begin, "begin") != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (append_one(p, &p->next[i], p->row_hash[i], &p->row_at[i], heads[i]) != 0) {
            abandon(p);
            return -1;
        }
    if (run(p, p->commit, "commit") != 0) {
        abandon(p);
        return -1;
    }
    /* Durable: only now does the cached head move, and each is answered. */
    for (size_t i = 0; i < n; i++) {
        heads[i]->state = p->next[i];
        heads[i]->version++;
        sign_receipt(p, heads[i]->room->room, heads[i]->version, p->row_hash[i], p->row_at[i]);
    }
    return 0;
}
