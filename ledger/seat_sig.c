/*
 * seat_sig.c - seats that sign their own actions: the seat key files, the
 * message a seat signs, and the check of a seat signature on the append
 * path, in `verify` and in a restore.
 *
 * Part of ledger/. A room's genesis may bind each seat to an Ed25519
 * public key (Genesis.seat_keys, docs/FORMAT.md "Seat signature"), and a
 * seat not bound there may be bound as its player joins, by its action
 * that carries the key (Event.bind_key) signed by it over the binding
 * message ("Seat binding"); an action of a bound seat is then accepted
 * only with that seat's signature, and the ledger stores it in the event
 * and hashes it with the event, so the operator cannot make up an action
 * for a bound seat and the seat cannot deny one. It never holds a seat's
 * secret key longer than the call that was given it, never accepts an
 * action of a bound seat without a signature, nor a signature on an
 * action of an unbound one that binds no key, nor a second binding.
 *
 * SEAT MESSAGE (50 + 2 * n_args bytes, at most 68), what a seat signs:
 *   off  len  field
 *     0    4  "MNSA"
 *     4    1  format version (LEDGER_FORMAT_VERSION, 1)
 *     5    8  room
 *    13    4  version the action acts on (the head; the event is version + 1)
 *    17   32  prev_hash: chain hash of that version (the genesis hash at 0)
 *    49    1  seat, wire form: 1..N = engine seat index + 1
 *    50 2+2n  the canonical action bytes: kind, n_args, args int16 BE
 *   seat_signature = Ed25519 (crypto_sign_detached) over those bytes
 * BINDING MESSAGE: the same bytes with "MNSB" for "MNSA", signed by the
 * key the action binds its seat to (Event.bind_key).
 *
 * `meta` seatbind/<room> -> 194 bytes (only where a seat was bound as it
 * joined), the append path's lookup; verify checks it against the events:
 *     0    2  bound u16 BE: bit s = seat s was bound as it joined
 *     2  192  six 32-byte Ed25519 public keys in seat order (0 if not)
 *
 * Seat key files: FILE holds the 64-byte Ed25519 secret key (libsodium
 * layout, as signing.key), mode 0600; FILE.pub its public key as 64
 * lower-case hex digits and a newline.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ledger/internal.h"

#define SEAT_MAGIC "MNSA"
#define BIND_MAGIC "MNSB"
#define BIND_META "seatbind/"
#define BIND_META_KEY_BYTES (sizeof BIND_META - 1 + SCHEMA_ROOM_CHARS)
#define BIND_RECORD_BYTES (2 + ENGINE_MAX_SEATS * SCHEMA_KEY_BYTES)
#define PUB_SUFFIX ".pub"
#define PUB_TEXT_BYTES (2 * SCHEMA_KEY_BYTES + 1) /* hex digits and a newline */

/* ====================================================== the message */

/* The message signed under magic: SEAT_MAGIC for an action, BIND_MAGIC
 * for the action that binds its seat (the same layout otherwise). */
static size_t message(uint8_t out[LEDGER_SEAT_MESSAGE_MAX], const char *magic, const char *room,
                      uint32_t version, const uint8_t prev_hash[SCHEMA_HASH_BYTES],
                      const engine_action *act)
{
    if (!ledger__room_valid(room) || act->seat >= ENGINE_MAX_SEATS)
        return 0;
    memcpy(out, magic, 4);
    out[4] = LEDGER_FORMAT_VERSION;
    memcpy(out + 5, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(out + 13, version);
    memcpy(out + 17, prev_hash, SCHEMA_HASH_BYTES);
    out[49] = ledger__seat_to_wire(act->seat);
    size_t alen = ledger__action_canonical(out + 50, LEDGER_SEAT_MESSAGE_MAX - 50, act);
    return alen == 0 ? 0 : 50 + alen;
}

size_t ledger_seat_message(uint8_t out[LEDGER_SEAT_MESSAGE_MAX], const char *room,
                           uint32_t version, const uint8_t prev_hash[SCHEMA_HASH_BYTES],
                           const engine_action *act)
{
    return message(out, SEAT_MAGIC, room, version, prev_hash, act);
}

size_t ledger_seat_bind_message(uint8_t out[LEDGER_SEAT_MESSAGE_MAX], const char *room,
                                uint32_t version, const uint8_t prev_hash[SCHEMA_HASH_BYTES],
                                const engine_action *act)
{
    return message(out, BIND_MAGIC, room, version, prev_hash, act);
}

static int sign_as(uint8_t sig_out[SCHEMA_SIG_BYTES], const char *magic,
                   const uint8_t sk[LEDGER_SEAT_SECRET_BYTES], const char *room, uint32_t version,
                   const uint8_t prev_hash[SCHEMA_HASH_BYTES], const engine_action *act)
{
    uint8_t msg[LEDGER_SEAT_MESSAGE_MAX];
    size_t len = message(msg, magic, room, version, prev_hash, act);
    if (len == 0)
        return LEDGER_EINPUT;
    crypto_sign_detached(sig_out, NULL, msg, len, sk);
    return 0;
}

int ledger_seat_sign(uint8_t sig_out[SCHEMA_SIG_BYTES],
                     const uint8_t sk[LEDGER_SEAT_SECRET_BYTES], const char *room,
                     uint32_t version, const uint8_t prev_hash[SCHEMA_HASH_BYTES],
                     const engine_action *act)
{
    return sign_as(sig_out, SEAT_MAGIC, sk, room, version, prev_hash, act);
}

int ledger_seat_sign_bind(uint8_t sig_out[SCHEMA_SIG_BYTES],
                          const uint8_t sk[LEDGER_SEAT_SECRET_BYTES], const char *room,
                          uint32_t version, const uint8_t prev_hash[SCHEMA_HASH_BYTES],
                          const engine_action *act)
{
    return sign_as(sig_out, BIND_MAGIC, sk, room, version, prev_hash, act);
}

/* 1 if sig is key pk's signature under magic of act at (version, prev). */
static int signs(const uint8_t sig[SCHEMA_SIG_BYTES], const char *magic,
                 const uint8_t pk[SCHEMA_KEY_BYTES], const char *room, uint32_t version,
                 const uint8_t prev[SCHEMA_HASH_BYTES], const engine_action *act)
{
    uint8_t msg[LEDGER_SEAT_MESSAGE_MAX];
    size_t len = message(msg, magic, room, version, prev, act);
    return len != 0 && ledger__verify_sig(sig, msg, len, pk) == 0;
}

int ledger__seat_bind_check(char *why, size_t why_cap, const ledger_seat_keys *k,
                            unsigned n_seats, uint8_t seat, const uint8_t key[SCHEMA_KEY_BYTES])
{
    if (seat == ENGINE_SEAT_ENGINE || seat >= n_seats || seat >= ENGINE_MAX_SEATS) {
        snprintf(why, why_cap, "a binding for no seat of the room (seat %u of %u)", seat + 1u,
                 n_seats);
        return LEDGER_EBADSIG;
    }
    if ((unsigned)k->bound >> seat & 1u) {
        snprintf(why, why_cap, "seat %u is already bound to a key, and a seat is bound once",
                 seat + 1u);
        return LEDGER_EBADSIG;
    }
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        if (((unsigned)k->bound >> s & 1u) && sodium_memcmp(k->key[s], key, SCHEMA_KEY_BYTES) == 0) {
            snprintf(why, why_cap, "the key seat %u would be bound to is already seat %u's",
                     seat + 1u, s + 1u);
            return LEDGER_EBADSIG;
        }
    return 0;
}

int ledger__seat_sig_verify(char *why, size_t why_cap, const ledger_seat_keys *k,
                            unsigned n_seats, const char *room, uint32_t version,
                            const uint8_t prev[SCHEMA_HASH_BYTES], const engine_action *act,
                            const uint8_t *sig, const uint8_t *bind_key)
{
    if (bind_key != NULL) {
        if (ledger__seat_bind_check(why, why_cap, k, n_seats, act->seat, bind_key) != 0)
            return LEDGER_EBADSIG;
        if (sig == NULL) {
            snprintf(why, why_cap, "the binding of seat %u carries no signature by the key it "
                     "binds", act->seat + 1u);
            return LEDGER_EBADSIG;
        }
        if (signs(sig, BIND_MAGIC, bind_key, room, version, prev, act))
            return 0;
        snprintf(why, why_cap, "the binding of seat %u is not signed by the key it binds for "
                 "this action at version %u of room %s (another key, room, version, seat or "
                 "action)", act->seat + 1u, version, room);
        return LEDGER_EBADSIG;
    }
    int is_bound = act->seat < ENGINE_MAX_SEATS && ((unsigned)k->bound >> act->seat & 1u);
    if (!is_bound && sig == NULL)
        return 0;
    if (!is_bound) {
        if (act->seat == ENGINE_SEAT_ENGINE)
            snprintf(why, why_cap, "an automatic step carries a seat signature");
        else
            snprintf(why, why_cap, "seat %u is not bound to a key but its action carries a "
                     "seat signature and binds no key", act->seat + 1u);
        return LEDGER_EBADSIG;
    }
    if (sig == NULL) {
        snprintf(why, why_cap, "seat %u is bound to a key and its action carries no seat "
                 "signature", act->seat + 1u);
        return LEDGER_EBADSIG;
    }
    if (signs(sig, SEAT_MAGIC, k->key[act->seat], room, version, prev, act))
        return 0;
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        if (s != act->seat && ((unsigned)k->bound >> s & 1u) &&
            signs(sig, SEAT_MAGIC, k->key[s], room, version, prev, act)) {
            snprintf(why, why_cap, "the seat signature is seat %u's, not seat %u's", s + 1u,
                     act->seat + 1u);
            return LEDGER_EBADSIG;
        }
    snprintf(why, why_cap, "seat %u's signature does not sign this action at version %u of "
             "room %s (another room, version or action)", act->seat + 1u, version, room);
    return LEDGER_EBADSIG;
}

/* ================================================ the bindings record */

static void bind_meta_key(uint8_t out[BIND_META_KEY_BYTES], const char *room)
{
    memcpy(out, BIND_META, sizeof BIND_META - 1);
    memcpy(out + sizeof BIND_META - 1, room, SCHEMA_ROOM_CHARS);
}

void ledger__seat_keys_of_genesis(ledger_seat_keys *out, const codec_genesis *g)
{
    memset(out, 0, sizeof *out);
    out->bound = g->seat_bound;
    memcpy(out->key, g->seat_key, sizeof out->key);
}

int ledger__seat_joined_read(ledger *db, ledger_txn *txn, ledger_seat_keys *out,
                             const char *room)
{
    MDB_val v;
    memset(out, 0, sizeof *out);
    int rc = ledger__meta_room_get(txn, &v, BIND_META, room);
    if (rc == MDB_NOTFOUND)
        return 0;
    if (rc != 0)
        return rc;
    const uint8_t *p = v.mv_data;
    if (v.mv_size != BIND_RECORD_BYTES || (p[0] << 8 | p[1]) == 0 ||
        (p[0] << 8 | p[1]) >> ENGINE_MAX_SEATS != 0)
        return LEDGER_CORRUPT_MSG(db, "room %s: a seat binding record of %zu bytes that binds "
                                  "no seat", room, v.mv_size);
    out->bound = (uint16_t)(p[0] << 8 | p[1]);
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        memcpy(out->key[s], p + 2 + (size_t)s * SCHEMA_KEY_BYTES, SCHEMA_KEY_BYTES);
    return 0;
}

int ledger__seat_joined_put(ledger *db, ledger_txn *txn, const char *room,
                            const ledger_seat_keys *joined)
{
    uint8_t kbuf[BIND_META_KEY_BYTES], rec[BIND_RECORD_BYTES];
    bind_meta_key(kbuf, room);
    MDB_val k = {sizeof kbuf, kbuf};
    if (joined->bound == 0) {
        int rc = ledger__del(txn, db->dbi_meta, &k, NULL);
        return rc == MDB_NOTFOUND ? 0 : rc;
    }
    memset(rec, 0, sizeof rec);
    rec[0] = (uint8_t)(joined->bound >> 8);
    rec[1] = (uint8_t)joined->bound;
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        if ((unsigned)joined->bound >> s & 1u)
            memcpy(rec + 2 + (size_t)s * SCHEMA_KEY_BYTES, joined->key[s], SCHEMA_KEY_BYTES);
    MDB_val v = {sizeof rec, rec};
    return ledger__put(txn, db->dbi_meta, &k, &v, 0);
}

/* Every seat g binds and every seat bound as it joined (joined). */
static void bindings_merge(ledger_seat_keys *out, const ledger_seat_keys *joined)
{
    for (unsigned s = 0; s < ENGINE_MAX_SEATS; s++)
        if (((unsigned)joined->bound >> s & 1u) && !((unsigned)out->bound >> s & 1u)) {
            out->bound = (uint16_t)(out->bound | 1u << s);
            memcpy(out->key[s], joined->key[s], SCHEMA_KEY_BYTES);
        }
}

int ledger__seat_bindings(ledger *db, ledger_txn *txn, ledger_seat_keys *out,
                          unsigned *n_seats_out, const char *room)
{
    codec_genesis g;
    ledger_seat_keys joined;
    int rc = ledger__genesis_read(db, txn, &g, room);
    if (rc != 0)
        return rc;
    ledger__seat_keys_of_genesis(out, &g);
    /* A seat the genesis binds is never bound again as it joins, so a room
     * whose genesis binds every seat has no join record to read (the
     * append path asks this for every action). */
    uint16_t all = (uint16_t)((1u << g.config.n_seats) - 1u);
    if ((out->bound & all) != all) {
        if ((rc = ledger__seat_joined_read(db, txn, &joined, room)) != 0)
            return rc;
        bindings_merge(out, &joined);
    }
    if (n_seats_out != NULL)
        *n_seats_out = g.config.n_seats;
    return 0;
}

int ledger__seat_sig_admit(ledger *db, ledger_txn *txn, const char *room, uint32_t expected,
                           const uint8_t prev[SCHEMA_HASH_BYTES], const engine_action *act,
                           const uint8_t *sig, const uint8_t *bind_key)
{
    ledger_seat_keys k;
    unsigned n_seats = 0;
    char why[240];
    if (act->seat == ENGINE_SEAT_ENGINE && sig == NULL && bind_key == NULL)
        return 0; /* an automatic step binds no one: no genesis read */
    int rc = ledger__seat_bindings(db, txn, &k, &n_seats, room);
    if (rc != 0)
        return rc;
    if (ledger__seat_sig_verify(why, sizeof why, &k, n_seats, room, expected, prev, act, sig,
                                bind_key) != 0)
        return ledger__fail(db, LEDGER_EINPUT, "%s; nothing written", why);
    return 0;
}

int ledger__seat_bind_record(ledger *db, ledger_txn *txn, const char *room, uint8_t seat,
                             const uint8_t key[SCHEMA_KEY_BYTES])
{
    ledger_seat_keys joined;
    int rc = ledger__seat_joined_read(db, txn, &joined, room);
    if (rc != 0)
        return rc;
    joined.bound = (uint16_t)(joined.bound | 1u << seat);
    memcpy(joined.key[seat], key, SCHEMA_KEY_BYTES);
    return ledger__seat_joined_put(db, txn, room, &joined);
}

int ledger_chain_hash(ledger *db, uint8_t out[SCHEMA_HASH_BYTES], const char *room,
                      uint32_t version)
{
    ledger_txn txn;
    ledger_head_rec head;
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__head_read(db, &txn, &head, room);
    if (rc == 0 && version > head.version)
        rc = ledger__fail(db, LEDGER_ENOTFOUND, "room %s has no version %u (head %u)", room,
                          version, head.version);
    if (rc == 0 && version == head.version)
        memcpy(out, head.hash, SCHEMA_HASH_BYTES);
    else if (rc == 0)
        rc = ledger__event_hash_at(db, &txn, out, room, version);
    ledger__txn_abort(&txn);
    return rc;
}

int ledger_room_seat_keys(ledger *db, ledger_seat_keys *out, const char *room)
{
    ledger_txn txn;
    memset(out, 0, sizeof *out);
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__seat_bindings(db, &txn, out, NULL, room);
    ledger__txn_abort(&txn);
    if (rc != 0)
        memset(out, 0, sizeof *out);
    return rc;
}

/* ======================================================== key files */

/* dir and base name of path into the two buffers (4096 bytes each). */
static int path_split(char dir[4096], char name[4096], const char *path, char *err)
{
    const char *slash = strrchr(path, '/');
    size_t dlen = slash == NULL ? 1 : (slash == path ? 1 : (size_t)(slash - path));
    const char *base = slash == NULL ? path : slash + 1;
    if (*base == '\0' || dlen >= 4096 || strlen(base) + sizeof PUB_SUFFIX > 4096) {
        snprintf(err, SCHEMA_ERRMSG, "%.100s is no file name", path);
        return LEDGER_EINPUT;
    }
    if (slash == NULL)
        memcpy(dir, ".", 2);
    else {
        memcpy(dir, slash == path ? "/" : path, dlen);
        dir[dlen] = '\0';
    }
    snprintf(name, 4096, "%s", base);
    return 0;
}

int ledger_seat_keygen(uint8_t pk_out[SCHEMA_KEY_BYTES], const char *path, char *err)
{
    char dir[4096], name[4096], pub_name[4096 + sizeof PUB_SUFFIX];
    uint8_t sk[LEDGER_SEAT_SECRET_BYTES], pk[SCHEMA_KEY_BYTES];
    char text[PUB_TEXT_BYTES + 1];
    int rc = path_split(dir, name, path, err);
    if (rc != 0)
        return rc;
    snprintf(pub_name, sizeof pub_name, "%s%s", name, PUB_SUFFIX);
    if (access(path, F_OK) == 0 || errno != ENOENT) {
        snprintf(err, SCHEMA_ERRMSG, "%.120s exists; refusing to overwrite a key", path);
        return LEDGER_EEXISTS;
    }
    crypto_sign_keypair(pk, sk);
    sodium_bin2hex(text, sizeof text, pk, sizeof pk);
    text[(size_t)2 * SCHEMA_KEY_BYTES] = '\n';
    /* The public file first: a secret key never exists without it. */
    rc = ledger__key_file_write(dir, pub_name, (const uint8_t *)text, PUB_TEXT_BYTES, err);
    if (rc == 0) {
        rc = ledger__key_file_write(dir, name, sk, sizeof sk, err);
        if (rc != 0) {
            char pub_path[8200];
            snprintf(pub_path, sizeof pub_path, "%s/%s", dir, pub_name);
            unlink(pub_path);
        }
    }
    sodium_memzero(sk, sizeof sk);
    if (rc == 0)
        memcpy(pk_out, pk, sizeof pk);
    return rc;
}

int ledger_seat_key_load(uint8_t sk_out[LEDGER_SEAT_SECRET_BYTES],
                         uint8_t pk_out[SCHEMA_KEY_BYTES], const char *path, char *err)
{
    char dir[4096], name[4096];
    uint8_t sk[LEDGER_SEAT_SECRET_BYTES], pk[SCHEMA_KEY_BYTES], seed[crypto_sign_SEEDBYTES];
    int rc = path_split(dir, name, path, err);
    if (rc != 0)
        return rc;
    rc = ledger__key_file_read(sk, sizeof sk, dir, name, err);
    if (rc == 0) {
        snprintf(err, SCHEMA_ERRMSG, "no seat key %.120s", path);
        return LEDGER_EKEY;
    }
    if (rc < 0)
        return rc;
    /* The public half must be the seed's: a damaged file signs nothing. */
    crypto_sign_ed25519_sk_to_seed(seed, sk);
    crypto_sign_seed_keypair(pk, sk_out, seed);
    sodium_memzero(seed, sizeof seed);
    rc = sodium_memcmp(sk_out, sk, sizeof sk) == 0 ? 0 : LEDGER_EKEY;
    sodium_memzero(sk, sizeof sk);
    if (rc != 0) {
        sodium_memzero(sk_out, LEDGER_SEAT_SECRET_BYTES);
        snprintf(err, SCHEMA_ERRMSG, "%.80s is no seat key (its public half is not its "
                 "seed's)", path);
        return rc;
    }
    memcpy(pk_out, pk, sizeof pk);
    return 0;
}

int ledger__public_key_load(uint8_t pk_out[SCHEMA_KEY_BYTES], const char *path, const char *what,
                            char *err)
{
    static const uint8_t zero[SCHEMA_KEY_BYTES];
    char text[PUB_TEXT_BYTES + 2];
    int fd = open(path, O_RDONLY | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, SCHEMA_ERRMSG, "cannot read %.100s: %s", path, strerror(errno));
        return LEDGER_EKEY;
    }
    ssize_t n = read(fd, text, sizeof text);
    close(fd);
    size_t len = n < 0 ? 0 : (size_t)n;
    if (len == PUB_TEXT_BYTES && text[len - 1] == '\n')
        len--;
    size_t bin_len = 0;
    if (n < 0 || len != (size_t)2 * SCHEMA_KEY_BYTES ||
        sodium_hex2bin(pk_out, SCHEMA_KEY_BYTES, text, len, NULL, &bin_len, NULL) != 0 ||
        bin_len != SCHEMA_KEY_BYTES || memcmp(pk_out, zero, sizeof zero) == 0) {
        snprintf(err, SCHEMA_ERRMSG, "%.80s is no %s", path, what);
        return LEDGER_EKEY;
    }
    return 0;
}

int ledger_seat_public_load(uint8_t pk_out[SCHEMA_KEY_BYTES], const char *path, char *err)
{
    return ledger__public_key_load(pk_out, path, "seat public key (64 hex digits, as `mentat "
                                   "seat keygen` writes)", err);
}

int ledger_audit_public_load(uint8_t pk_out[SCHEMA_KEY_BYTES], const char *path, char *err)
{
    return ledger__public_key_load(pk_out, path, "audit public key (64 hex digits, as `mentat "
                                   "key audit-pub` prints)", err);
}
