/*
 * room.c - rooms: creating one (code, seed, sealed seed, opening position,
 * signed genesis, head at version 0, first checkpoint), listing them,
 * reading their genesis, and recovering their seed.
 *
 * Part of ledger/. The seed is drawn once, at creation, and never again:
 * nothing here may draw randomness for an existing room. The plain seed is
 * never stored; only its commitment and its sealed form are, and a seed
 * recovered later must match the commitment before it is used.
 *
 * `rooms`: room (8 ASCII bytes) -> tag 0x01 + Genesis protobuf.
 * Room codes: 8 characters from "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
 * (40 bits, no 0/O or 1/I/L to misread).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/internal.h"

static const char room_alphabet[] = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
_Static_assert(sizeof room_alphabet - 1 == 32, "32 room characters");

int ledger_room_code_valid(const char *room)
{
    if (room == NULL)
        return 0;
    for (int i = 0; i < SCHEMA_ROOM_CHARS; i++)
        if (room[i] == '\0' || strchr(room_alphabet, room[i]) == NULL)
            return 0;
    return room[SCHEMA_ROOM_CHARS] == '\0';
}

int ledger__room_valid(const char *room)
{
    return ledger_room_code_valid(room);
}

int ledger__room_refuse(ledger *db, const char *room)
{
    return ledger__fail(db, LEDGER_EINPUT,
                        "\"%.16s\" is not a room code (8 upper-case letters and digits of %s)",
                        room != NULL ? room : "", room_alphabet);
}

static void room_draw(char out[SCHEMA_ROOM_CHARS + 1])
{
    for (int i = 0; i < SCHEMA_ROOM_CHARS; i++)
        out[i] = room_alphabet[randombytes_uniform(sizeof room_alphabet - 1)];
    out[SCHEMA_ROOM_CHARS] = '\0';
}

/* ============================================================ genesis */

int ledger__genesis_read(ledger *db, ledger_txn *txn, codec_genesis *out, const char *room)
{
    if (!ledger__room_valid(room))
        return ledger__room_refuse(db, room);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v;
    int rc = ledger__get(txn, db->dbi_rooms, &k, &v);
    if (rc == MDB_NOTFOUND)
        return ledger__fail(db, LEDGER_ENOTFOUND, "no room %s", room);
    if (rc != 0)
        return rc;
    rc = ledger__genesis_record_decode(db, out, v.mv_data, v.mv_size);
    if (rc != 0)
        return rc;
    if (memcmp(out->room, room, SCHEMA_ROOM_CHARS) != 0)
        return LEDGER_CORRUPT_MSG(db, "room %s holds the genesis of %s", room, out->room);
    return 0;
}

int ledger_genesis_get(ledger *db, codec_genesis *out, const char *room)
{
    ledger_txn txn;
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__genesis_read(db, &txn, out, room);
    if (rc == 0 && out->position_len > 0) {
        /* The position borrows from the txn: keep a copy on the handle. */
        if (db->position_cap < out->position_len) {
            uint8_t *p = realloc(db->position, out->position_len);
            if (p == NULL) {
                rc = ledger__fail(db, LEDGER_ERROR, "out of memory");
                goto out;
            }
            db->position = p;
            db->position_cap = out->position_len;
        }
        memcpy(db->position, out->position, out->position_len);
        out->position = db->position;
    } else if (rc == 0) {
        out->position = NULL;
    }
out:
    ledger__txn_abort(&txn);
    return rc;
}

/* ================================================================ seeds */

static int seed_check(ledger *db, const codec_genesis *g, const uint8_t seed[ENGINE_SEED_BYTES])
{
    uint8_t h[SCHEMA_HASH_BYTES];
    crypto_generichash(h, sizeof h, seed, ENGINE_SEED_BYTES, NULL, 0);
    if (sodium_memcmp(h, g->seed_commitment, sizeof h) != 0)
        return ledger__fail(db, LEDGER_EBADSIG, "room %s: the seed does not match its commitment",
                            g->room);
    return 0;
}

int ledger__rules_check(ledger *db, int rc, const codec_genesis *g)
{
    if (engine_rules_version_is_folded(g->config.rules_version))
        return 0;
    return ledger__fail(db, rc, "room %s is played by rules version %u; this build folds "
                        "rules versions %u to %u", g->room, (unsigned)g->config.rules_version,
                        ENGINE_RULES_VERSION_MIN, ENGINE_RULES_VERSION);
}

static int seed_find(ledger *db, ledger_txn *txn, const char *room,
                     uint8_t seed_out[ENGINE_SEED_BYTES])
{
    codec_genesis g = {0};
    int rc = ledger__genesis_read(db, txn, &g, room);
    if (rc != 0)
        return rc;
    rc = ledger__rules_check(db, LEDGER_ERROR, &g);
    if (rc == 0)
        rc = ledger__genesis_seal(db, txn, &g);
    if (rc != 0)
        return rc;
    if (db->has_audit_key && g.audit_key_id == db->audit_key_id) {
        if (crypto_box_seal_open(seed_out, g.sealed_seed, SCHEMA_SEALED_SEED_BYTES,
                                 db->audit_pk, db->audit_sk) != 0)
            return LEDGER_CORRUPT_MSG(db, "room %s: the sealed seed does not open", room);
        return seed_check(db, &g, seed_out);
    }
    /* Without the room's audit key: a seed revealed after the game. */
    uint8_t kbuf[sizeof LEDGER_META_REVEAL_PREFIX - 1 + SCHEMA_ROOM_CHARS];
    memcpy(kbuf, LEDGER_META_REVEAL_PREFIX, sizeof LEDGER_META_REVEAL_PREFIX - 1);
    memcpy(kbuf + sizeof LEDGER_META_REVEAL_PREFIX - 1, room, SCHEMA_ROOM_CHARS);
    MDB_val k = {sizeof kbuf, kbuf}, v;
    rc = ledger__get(txn, db->dbi_meta, &k, &v);
    if (rc == MDB_NOTFOUND) {
        if (db->has_audit_key)
            return ledger__fail(db, LEDGER_EKEY, "room %s is sealed to audit key %08x; "
                                "the key directory %s holds audit key %08x", room,
                                g.audit_key_id, db->keys_dir, db->audit_key_id);
        return ledger__fail(db, LEDGER_EKEY, "room %s: no audit key and no revealed seed", room);
    }
    if (rc != 0)
        return rc;
    if (v.mv_size != ENGINE_SEED_BYTES)
        return LEDGER_CORRUPT_MSG(db, "room %s: revealed seed of %zu bytes", room, v.mv_size);
    memcpy(seed_out, v.mv_data, ENGINE_SEED_BYTES);
    return seed_check(db, &g, seed_out);
}

int ledger__room_seed(ledger *db, ledger_txn *txn, const char *room,
                      uint8_t seed_out[ENGINE_SEED_BYTES])
{
    ledger_cache_entry *e = ledger__cache_find(db, room);
    if (e != NULL && e->has_seed) {
        memcpy(seed_out, e->seed, ENGINE_SEED_BYTES);
        return 0;
    }
    ledger_txn own;
    int rc;
    if (txn == NULL) {
        rc = ledger__txn_begin(&own, db, 0);
        if (rc != 0)
            return rc;
        rc = seed_find(db, &own, room, seed_out);
        ledger__txn_abort(&own);
    } else {
        rc = seed_find(db, txn, room, seed_out);
    }
    if (rc != 0)
        return rc;
    e = ledger__cache_take(db, room);
    memcpy(e->seed, seed_out, ENGINE_SEED_BYTES);
    e->has_seed = 1;
    if (txn != NULL && txn->is_write)
        e->is_dirty = 1; /* (3): the genesis may be this txn's own */
    return 0;
}

/* A fork's sealed position (docs/FORMAT.md "Genesis"): additional data
 * "MNFP" || room, so it opens only as this room's genesis. */
#define POSITION_AD "MNFP"
#define POSITION_AD_BYTES (4 + SCHEMA_ROOM_CHARS)
#define POSITION_NONCE crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
#define POSITION_TAG crypto_aead_xchacha20poly1305_ietf_ABYTES
#define POSITION_SEALED_MAX (POSITION_NONCE + ENGINE_STATE_ENCODED_MAX + POSITION_TAG)

static void position_ad(uint8_t ad[POSITION_AD_BYTES], const char *room)
{
    memcpy(ad, POSITION_AD, 4);
    memcpy(ad + 4, room, SCHEMA_ROOM_CHARS);
}

static int position_open(ledger *db, engine_state *out, const codec_genesis *g,
                         const uint8_t *room_key)
{
    if (room_key == NULL)
        return ledger__fail(db, LEDGER_EKEY, "room %s: its opening position (a fork's) is "
                            "sealed with the room key, which this reader cannot open", g->room);
    size_t n = g->position_len;
    if (n < POSITION_NONCE + POSITION_TAG || n > POSITION_SEALED_MAX)
        return LEDGER_CORRUPT_MSG(db, "room %s: a sealed position of %zu bytes", g->room, n);
    uint8_t *plain = malloc(ENGINE_STATE_ENCODED_MAX);
    if (plain == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    uint8_t ad[POSITION_AD_BYTES];
    unsigned long long plen = 0;
    position_ad(ad, g->room);
    int rc = 0;
    if (crypto_aead_xchacha20poly1305_ietf_decrypt(plain, &plen, NULL, g->position + POSITION_NONCE,
                                                   n - POSITION_NONCE, ad, sizeof ad,
                                                   g->position, room_key) != 0)
        rc = LEDGER_CORRUPT_MSG(db, "room %s: the sealed position does not open with its room "
                                "key", g->room);
    else if (engine_state_decode(out, plain, (size_t)plen) != 0)
        rc = LEDGER_CORRUPT_MSG(db, "room %s: the constructed position does not decode",
                                g->room);
    sodium_memzero(plain, ENGINE_STATE_ENCODED_MAX);
    free(plain);
    return rc;
}

int ledger__opening_state(ledger *db, engine_state *out, const codec_genesis *g,
                          const uint8_t seed[ENGINE_SEED_BYTES], const uint8_t *room_key)
{
    if (g->position_len > 0 && g->is_position_sealed)
        return position_open(db, out, g, room_key);
    if (g->position_len > 0) {
        if (engine_state_decode(out, g->position, g->position_len) != 0)
            return LEDGER_CORRUPT_MSG(db, "room %s: the constructed position does not decode",
                                      g->room);
        return 0;
    }
    engine_rng rng;
    engine_verdict_detail why = {-1, 0};
    engine_rng_init(&rng, seed, 0);
    memset(out, 0, sizeof *out);
    engine_verdict v = engine_setup(&why, out, &g->config, &rng);
    sodium_memzero(&rng, sizeof rng);
    if (v != ENGINE_ACCEPTED)
        return LEDGER_CORRUPT_MSG(db, "room %s: the engine refuses its configuration: %s",
                                  g->room, engine_verdict_name(v));
    return 0;
}

int ledger__opening_state_in(ledger *db, ledger_txn *txn, engine_state *out,
                             const codec_genesis *g, const uint8_t seed[ENGINE_SEED_BYTES])
{
    uint8_t key[LEDGER_ROOM_KEY_BYTES];
    if (!g->is_position_sealed)
        return ledger__opening_state(db, out, g, seed, NULL);
    int rc = ledger__room_key(db, txn, g->room, key);
    if (rc == LEDGER_ENOTFOUND)
        rc = LEDGER_CORRUPT_MSG(db, "room %s: a sealed position and no room key", g->room);
    if (rc == 0)
        rc = ledger__opening_state(db, out, g, seed, key);
    sodium_memzero(key, sizeof key);
    return rc;
}

/* ============================================================= create */

/* A stored genesis record: the canonical bytes' fields in protobuf. */
#define CREATE_RECORD_MAX (LEDGER_GENESIS_CANONICAL_MAX + 256)

typedef struct create_ctx {
    const engine_config *cfg;
    const uint8_t *seed;
    const engine_state *opening;
    codec_genesis genesis;         /* all but room and signature filled */
    char room[SCHEMA_ROOM_CHARS + 1];
    uint8_t canon[LEDGER_GENESIS_CANONICAL_MAX]; /* the genesis's signed bytes */
    uint8_t rec[CREATE_RECORD_MAX]; /* its stored record */
    uint8_t position[ENGINE_STATE_ENCODED_MAX]; /* a constructed opening, encoded */
    size_t position_len;           /* of it */
    uint8_t sealed[POSITION_SEALED_MAX]; /* a fork's: it sealed with the room key */
} create_ctx;

/* A fork's position, sealed with the room key just drawn for it: the
 * genesis holds that, never the origin's state in the clear. */
static int position_seal(ledger *db, ledger_txn *txn, create_ctx *ctx)
{
    uint8_t key[LEDGER_ROOM_KEY_BYTES], ad[POSITION_AD_BYTES];
    unsigned long long clen = 0;
    int rc = ledger__room_key_new(db, txn, ctx->room);
    if (rc == 0)
        rc = ledger__room_key(db, txn, ctx->room, key);
    if (rc != 0)
        return rc;
    position_ad(ad, ctx->room);
    randombytes_buf(ctx->sealed, POSITION_NONCE);
    crypto_aead_xchacha20poly1305_ietf_encrypt(ctx->sealed + POSITION_NONCE, &clen, ctx->position,
                                               ctx->position_len, ad, sizeof ad, NULL,
                                               ctx->sealed, key);
    sodium_memzero(key, sizeof key);
    ctx->genesis.position = ctx->sealed;
    ctx->genesis.position_len = POSITION_NONCE + (size_t)clen;
    return 0;
}

static int create_body(ledger_txn *txn, void *vctx)
{
    create_ctx *ctx = vctx;
    ledger *db = txn->db;
    codec_genesis *g = &ctx->genesis;
    uint8_t *canon = ctx->canon, *rec = ctx->rec, hash[SCHEMA_HASH_BYTES];
    size_t rec_len = 0;
    int rc = ledger__keys_register(db, txn);
    if (rc != 0)
        return rc;
    /* A fresh code: 2^40 codes make a collision rare, never impossible. */
    for (int tries = 0;; tries++) {
        room_draw(ctx->room);
        MDB_val k = {SCHEMA_ROOM_CHARS, ctx->room}, v;
        rc = ledger__get(txn, db->dbi_rooms, &k, &v);
        if (rc == MDB_NOTFOUND)
            break;
        if (rc != 0)
            return rc;
        if (tries >= 64)
            return ledger__fail(db, LEDGER_ERROR, "no free room code after 64 draws");
    }
    memcpy(g->room, ctx->room, sizeof g->room);
    if (g->is_position_sealed && (rc = position_seal(db, txn, ctx)) != 0)
        return rc;
    size_t len = ledger__genesis_canonical(canon, LEDGER_GENESIS_CANONICAL_MAX, g);
    if (len == 0)
        return ledger__fail(db, LEDGER_EINPUT, "the genesis cannot be encoded");
    rc = ledger__sign(db, g->signature, canon, len);
    if (rc != 0)
        return rc;
    ledger__event_hash(hash, canon, len, g->signature);
    rc = ledger__genesis_record_encode(db, rec, CREATE_RECORD_MAX, &rec_len, g);
    if (rc != 0)
        return rc;
    MDB_val k = {SCHEMA_ROOM_CHARS, ctx->room}, v = {rec_len, rec};
    rc = ledger__put(txn, db->dbi_rooms, &k, &v, MDB_NOOVERWRITE);
    if (rc == 0 && !g->is_position_sealed) /* (a fork's was drawn to seal its position) */
        rc = ledger__room_key_new(db, txn, ctx->room);
    if (rc != 0)
        return rc;
    ledger_head_rec head;
    codec_receipt r0;
    memset(&head, 0, sizeof head);
    memcpy(head.hash, hash, sizeof hash);
    /* The head of version 0 is signed too: the empty tree at the genesis. */
    rc = ledger__receipt_make(db, txn, &r0, ctx->room, 0, hash, g->created_at);
    if (rc != 0)
        return rc;
    ledger__head_sign_as(&head, &r0);
    rc = ledger__head_write(db, txn, ctx->room, &head);
    if (rc != 0)
        return rc;
    rc = ledger__events_init(db, txn, ctx->room);
    if (rc == 0)
        rc = ledger__trees_init(db, txn, ctx->room);
    if (rc != 0)
        return rc;
    rc = ledger__checkpoint_put(db, txn, ctx->room, 0, hash, ctx->opening);
    if (rc == 0) /* a room keeps the public view of every version from here on */
        rc = ledger__view_put(db, txn, NULL, ctx->room, 0, NULL, hash, ctx->opening);
    if (rc != 0)
        return rc;
    ledger_cache_entry *e = ledger__cache_take(db, ctx->room);
    memcpy(e->seed, ctx->seed, ENGINE_SEED_BYTES);
    e->has_seed = 1;
    e->has_state = 1;
    e->version = 0;
    memcpy(e->hash, hash, sizeof hash);
    e->state = *ctx->opening;
    e->is_dirty = 1; /* (3) */
    return 0;
}

/* The genesis binds the seats of `seats` (a fork keeps its room's). */
static int seats_bind(ledger *db, codec_genesis *g, const engine_config *cfg,
                      const ledger_seat_keys *seats)
{
    static const uint8_t zero[SCHEMA_KEY_BYTES];
    if (((unsigned)seats->bound >> cfg->n_seats) != 0)
        return ledger__fail(db, LEDGER_EINPUT, "a seat key is bound past the room's %u seats",
                            cfg->n_seats);
    for (unsigned s = 0; s < cfg->n_seats; s++) {
        if (!((unsigned)seats->bound >> s & 1u))
            continue;
        if (memcmp(seats->key[s], zero, sizeof zero) == 0)
            return ledger__fail(db, LEDGER_EINPUT, "seat %u: the zero key binds no one", s + 1);
        for (unsigned t = 0; t < s; t++)
            if (((unsigned)seats->bound >> t & 1u) && memcmp(seats->key[s], seats->key[t], sizeof zero) == 0)
                return ledger__fail(db, LEDGER_EINPUT, "seats %u and %u are bound to the same "
                                    "key", t + 1, s + 1);
        memcpy(g->seat_key[s], seats->key[s], SCHEMA_KEY_BYTES);
    }
    g->seat_bound = seats->bound;
    return 0;
}

/* Creates a room: of cfg, dealt by the engine from seed; or, when
 * `position` is given, opening on that constructed state (cfg is its own),
 * with `fork` naming where it was taken from (or NULL). */
static int room_create(ledger *db, char room_out[SCHEMA_ROOM_CHARS + 1],
                       const engine_config *cfg, const uint8_t seed[ENGINE_SEED_BYTES],
                       const engine_state *position, const codec_genesis *fork,
                       const ledger_seat_keys *seats)
{
    engine_rng rng;
    int rc;
    rc = ledger_keys_check(db);
    if (rc != 0)
        return rc;
    create_ctx *ctx = calloc(1, sizeof *ctx);
    engine_state *opening = calloc(1, sizeof *opening);
    if (ctx == NULL || opening == NULL) {
        rc = ledger__fail(db, LEDGER_ERROR, "out of memory");
        goto out;
    }
    codec_genesis *g = &ctx->genesis;
    /* rules version 1 is folded, never played (engine/rules_v1.c) */
    unsigned version = (position != NULL ? &position->config : cfg)->rules_version;
    if (!engine_rules_version_is_creatable(version)) {
        rc = ledger__fail(db, LEDGER_EINPUT, "rules version %u is replayed, never played: no "
                          "new room is created under it", version);
        goto out;
    }
    if (position != NULL) {
        assert(position->config.is_constructed);
        *opening = *position;
        cfg = &position->config;
        g->position_len = engine_state_encode(ctx->position, sizeof ctx->position, position);
        if (g->position_len == 0) {
            rc = ledger__fail(db, LEDGER_EINPUT, "the position cannot be encoded");
            goto out;
        }
        g->position = ctx->position;
        ctx->position_len = g->position_len;
    } else {
        engine_rng_init(&rng, seed, 0);
        engine_verdict_detail why = {-1, 0};
        engine_verdict v = engine_setup(&why, opening, cfg, &rng);
        sodium_memzero(&rng, sizeof rng);
        if (v != ENGINE_ACCEPTED) {
            rc = ledger__fail(db, LEDGER_EINPUT, "the engine refuses this configuration: %s "
                              "(detail %d)", engine_verdict_name(v), why.value);
            goto out;
        }
    }
    if (fork != NULL) {
        g->is_fork = 1;
        memcpy(g->fork_room, fork->fork_room, sizeof g->fork_room);
        g->fork_version = fork->fork_version;
        memcpy(g->fork_hash, fork->fork_hash, sizeof g->fork_hash);
        g->is_position_sealed = 1; /* the origin's hidden facts stay sealed */
    }
    if (seats != NULL) {
        rc = seats_bind(db, g, cfg, seats);
        if (rc != 0)
            goto out;
    }
    ctx->cfg = cfg;
    ctx->seed = seed;
    ctx->opening = opening;
    g->format_version = LEDGER_FORMAT_VERSION;
    g->config = *cfg;
    crypto_generichash(g->seed_commitment, SCHEMA_HASH_BYTES, seed, ENGINE_SEED_BYTES, NULL, 0);
    if (crypto_box_seal(g->sealed_seed, seed, ENGINE_SEED_BYTES, db->audit_pk) != 0) {
        rc = ledger__fail(db, LEDGER_ERROR, "sealing the seed failed");
        goto out;
    }
    g->audit_key_id = db->audit_key_id;
    g->key_id = db->key_id;
    g->created_at = ledger_now_ms();
    rc = ledger__write(db, create_body, ctx);
    if (rc == 0)
        memcpy(room_out, ctx->room, SCHEMA_ROOM_CHARS + 1);
out:
    free(opening);
    free(ctx);
    return rc;
}

int ledger_room_create(ledger *db, char room_out[SCHEMA_ROOM_CHARS + 1],
                       const engine_config *cfg)
{
    return ledger_room_create_bound(db, room_out, cfg, NULL, NULL);
}

int ledger_room_create_bound(ledger *db, char room_out[SCHEMA_ROOM_CHARS + 1],
                             const engine_config *cfg, const uint8_t *seed,
                             const ledger_seat_keys *seats)
{
    if (seed != NULL)
        return room_create(db, room_out, cfg, seed, NULL, NULL, seats);
    uint8_t drawn[ENGINE_SEED_BYTES];
    randombytes_buf(drawn, sizeof drawn);
    int rc = room_create(db, room_out, cfg, drawn, NULL, NULL, seats);
    sodium_memzero(drawn, sizeof drawn);
    return rc;
}

int ledger_room_create_seeded(ledger *db, char room_out[SCHEMA_ROOM_CHARS + 1],
                              const engine_config *cfg, const uint8_t seed[ENGINE_SEED_BYTES])
{
    return ledger_room_create_bound(db, room_out, cfg, seed, NULL);
}

int ledger_room_fork(ledger *db, char room_out[SCHEMA_ROOM_CHARS + 1], const char *room,
                     uint32_t version)
{
    engine_state *st = calloc(1, sizeof *st);
    codec_genesis fork, from = {0};
    ledger_seat_keys seats;
    ledger_head_rec head = {0};
    ledger_txn txn;
    if (st == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    memset(&fork, 0, sizeof fork);
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc == 0) {
        rc = ledger__head_read(db, &txn, &head, room);
        if (rc == 0 && version > head.version)
            rc = ledger__fail(db, LEDGER_ENOTFOUND, "room %s has no version %u (head %u)", room,
                              version, head.version);
        if (rc == 0)
            rc = ledger__event_hash_at(db, &txn, fork.fork_hash, room, version);
        if (rc == 0)
            rc = ledger__state_load(db, &txn, st, room, version);
        if (rc == 0)
            rc = ledger__genesis_read(db, &txn, &from, room);
        ledger__txn_abort(&txn);
    }
    if (rc == 0) {
        memcpy(fork.fork_room, room, SCHEMA_ROOM_CHARS);
        fork.fork_version = version;
        /* Constructed: no digest of the fork can equal one of `room`. */
        st->config.is_constructed = 1;
        uint8_t seed[ENGINE_SEED_BYTES];
        randombytes_buf(seed, sizeof seed);
        seats.bound = from.seat_bound; /* the seats play on in the fork: still bound */
        memcpy(seats.key, from.seat_key, sizeof seats.key);
        rc = room_create(db, room_out, &st->config, seed, st, &fork, &seats);
        sodium_memzero(seed, sizeof seed);
    }
    sodium_memzero(st, sizeof *st);
    free(st);
    return rc;
}

/* ============================================================ listing */

static int info_fill(ledger *db, ledger_txn *txn, ledger_room_info *out, const char *room)
{
    codec_genesis g = {0};
    ledger_head_rec head = {0};
    int rc = ledger__genesis_read(db, txn, &g, room);
    if (rc == 0)
        rc = ledger__head_read(db, txn, &head, room);
    if (rc != 0)
        return rc;
    memset(out, 0, sizeof *out);
    memcpy(out->room, room, SCHEMA_ROOM_CHARS);
    out->version = head.version;
    out->config = g.config;
    out->created_at = g.created_at;
    out->is_constructed = g.config.is_constructed;
    out->is_fork = g.is_fork;
    if (g.is_fork) {
        memcpy(out->fork_room, g.fork_room, sizeof out->fork_room);
        out->fork_version = g.fork_version;
    }
    return 0;
}

int ledger_room_info_get(ledger *db, ledger_room_info *out, const char *room)
{
    ledger_txn txn;
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = info_fill(db, &txn, out, room);
    ledger__txn_abort(&txn);
    return rc;
}

int ledger_room_foreach(ledger *db, int (*fn)(void *ctx, const ledger_room_info *room),
                        void *ctx)
{
    /* Collected first, so fn may call the ledger (even write) freely. */
    ledger_room_info *rooms = NULL;
    size_t n = 0, cap = 0;
    ledger_txn txn;
    MDB_cursor *cur = NULL;
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__cursor_open(&txn, db->dbi_rooms, &cur);
    MDB_val k, v;
    MDB_cursor_op op = MDB_FIRST;
    while (rc == 0 && (rc = ledger__cursor_get(&txn, cur, &k, &v, op)) == 0) {
        op = MDB_NEXT;
        char room[SCHEMA_ROOM_CHARS + 1] = "";
        if (k.mv_size != SCHEMA_ROOM_CHARS) {
            rc = LEDGER_CORRUPT_MSG(db, "`rooms` holds a key of %zu bytes", k.mv_size);
            break;
        }
        memcpy(room, k.mv_data, SCHEMA_ROOM_CHARS);
        if (!ledger__room_valid(room)) {
            rc = LEDGER_CORRUPT_MSG(db, "`rooms` holds a key that is not a room code");
            break;
        }
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            ledger_room_info *p = realloc(rooms, ncap * sizeof *p);
            if (p == NULL) {
                rc = ledger__fail(db, LEDGER_ERROR, "out of memory");
                break;
            }
            rooms = p;
            cap = ncap;
        }
        rc = info_fill(db, &txn, &rooms[n], room);
        if (rc == 0)
            n++;
    }
    if (rc == MDB_NOTFOUND)
        rc = 0;
    if (cur != NULL)
        mdb_cursor_close(cur);
    ledger__txn_abort(&txn);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = fn(ctx, &rooms[i]);
    free(rooms);
    return rc;
}
