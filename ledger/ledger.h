/*
 * ledger.h - the Mentat ledger: LMDB storage of signed, hash-chained events.
 *
 * One LMDB environment (a single file, MDB_NOSUBDIR) with the named
 * databases rooms, events, heads, checkpoints, rejections, keys and meta
 * (docs/FORMAT.md has every byte). Every accepted action is folded by the
 * engine, signed with the ledger's Ed25519 key, and written with the new
 * head (and a checkpoint every K events) in one write transaction: the
 * ledger ends at the old head or the new one, never between.
 *
 * Return codes: 0 on success, a negative LEDGER_E* code, or an LMDB code
 * passed through unchanged. The message of the last failure is on the
 * handle (ledger_errmsg). Handles are not shared between threads except
 * through ledger_group.
 */
#ifndef MENTAT_LEDGER_H
#define MENTAT_LEDGER_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "schema/schema.h"

#define LEDGER_OK 0
#define LEDGER_ERROR (-1)             /* anything callers do not act on */
#define LEDGER_ENOTFOUND (-30601)     /* no such room, version or key */
#define LEDGER_ECONFLICT (-30602)     /* the head is not at the expected version */
#define LEDGER_ECORRUPT (-30603)      /* stored or archived bytes are malformed */
#define LEDGER_EBADSIG (-30604)       /* a signature, hash or digest does not match */
#define LEDGER_EFULL (-30605)         /* the map is full and may not grow further */
#define LEDGER_EBADTXN (-30606)       /* the transaction failed earlier; abort it */
#define LEDGER_EEXISTS (-30607)       /* a room or key file already exists */
#define LEDGER_EKEY (-30608)          /* a key file is missing, unreadable or wrong */
#define LEDGER_EDIVERGED (-30609)     /* an archive's history is not an extension of the room's */
#define LEDGER_EINPUT (-30610)        /* bad input from the caller (action, option, path) */

#define LEDGER_FORMAT_VERSION 1
#define LEDGER_DEFAULT_CHECKPOINT_EVERY 64
#define LEDGER_DEFAULT_KEYS_DIR "mentat.keys"

typedef struct ledger ledger;             /* an open ledger; opaque */
typedef struct ledger_group ledger_group; /* group commit across threads; opaque */

typedef struct ledger_options {
    const char *path;              /* the ledger file, e.g. "mentat.db" */
    const char *keys_dir;          /* signing and audit keys; NULL = LEDGER_DEFAULT_KEYS_DIR */
    unsigned checkpoint_every;     /* K: a checkpoint every K events; 0 = default 64 */
    int is_read_only;              /* 1 = open for reading only; keys optional */
    int is_unsafe_no_sync;         /* 1 = do not fsync commits (bench only; loses data on crash) */
    size_t map_size;               /* initial map size in bytes; 0 = 64 MiB */
    size_t max_map_size;           /* the map never grows past this; 0 = 1 TiB */
} ledger_options;

void ledger_options_init(ledger_options *opt);

/* Opens (creating if absent, unless read-only) the ledger at opt->path.
 * The signing key is loaded from keys_dir when present; without it the
 * ledger can be read and verified but not written (LEDGER_EKEY on write).
 * On failure *out is a handle holding only the message: read it with
 * ledger_errmsg, then ledger_close it (NULL only when out of memory;
 * ledger_errmsg(NULL) says so). */
int ledger_open(ledger **out, const ledger_options *opt) MENTAT_MUST_CHECK;
void ledger_close(ledger *db);
/* Removes the hidden files that killed processes left of ledgers being
 * made beside path (".<base>.new-XXXXXX", ".<base>.pending-XXXXXX" and
 * their lock files, FORMAT.md "Temporary names") when no process has them
 * open; ledger_open runs it before it makes a ledger. Returns how many. */
unsigned ledger_temp_sweep(const char *path);
/* 0 when both keys are loaded, so rooms can be created and events signed;
 * else LEDGER_EKEY with a message naming the key directory. */
int ledger_keys_check(ledger *db) MENTAT_MUST_CHECK;
/* One line describing the last failure on this handle; never NULL.
 * Borrowed until the next call on the handle. */
const char *ledger_errmsg(const ledger *db);
/* What ledger_open found unsafe but allowed (a key file or the key
 * directory open to other users), one line; "" when nothing. */
const char *ledger_warning(const ledger *db);

/* What the file's two LMDB meta pages say (ledger/filecheck.c). */
typedef struct ledger_file_report {
    uint64_t file_bytes;           /* the file's size */
    unsigned page_size;            /* from meta page 0 */
    int is_meta_ok[2];             /* 1 = meta page i is sound and fits the file */
    uint64_t txnid[2];             /* the transaction each meta page records */
    uint64_t last_page[2];         /* the last page each says is in use */
    int used_meta;                 /* the sound meta with the larger txnid; -1 none */
    char damage[256];              /* what is wrong, "" when nothing */
} ledger_file_report;

/* Reads the meta pages of the ledger file at path without mapping it:
 * 0 when both are sound and the file holds every page they use;
 * LEDGER_ECORRUPT with out->damage naming the damage; LEDGER_EINPUT when
 * the file is no LMDB data file at all (too short, no magic, a lock file);
 * an errno value when the file cannot be read. ledger_open runs it before mapping a file. */
int ledger_file_check(ledger_file_report *out, const char *path) MENTAT_MUST_CHECK;
/* The same check on bytes already read: the file's first len bytes (all
 * of it, or at least its first 128 KiB), file_bytes its size, name for
 * the messages. Pure: the fuzz target's entry point. */
int ledger_file_check_bytes(ledger_file_report *out, const uint8_t *bytes, size_t len,
                            uint64_t file_bytes, const char *name) MENTAT_MUST_CHECK;

/* ----------------------------------------------------------------- keys */

/* Creates keys_dir (mode 0700; an existing directory open to other users
 * is made 0700) with a new Ed25519 signing key and an X25519 audit key
 * pair (files mode 0600). LEDGER_EEXISTS if either key file exists. err (SCHEMA_ERRMSG bytes) may be NULL. */
int ledger_keygen(const char *keys_dir, char *err) MENTAT_MUST_CHECK;
/* Retires the current signing key and makes a new one; the old public key
 * stays in `keys` so its events still verify. *new_id_out may be NULL. */
int ledger_key_rotate(ledger *db, uint32_t *new_id_out) MENTAT_MUST_CHECK;

/* What ledger_key_repin did. */
#define LEDGER_REPIN_MAX 64        /* keys of one chain it can re-pin */
typedef struct ledger_repin_report {
    unsigned n_endorsed;           /* rotations endorsed; 0 = the chain was whole */
    uint32_t key_id[LEDGER_REPIN_MAX]; /* the chain, first key first (n_endorsed + 1 keys) */
} ledger_repin_report;
/* Re-pins a ledger whose signing key was rotated by a build older than the
 * key chain: such a build recorded each new key with no endorsement and
 * kept the retired secret as signing-<id>.retired, so the ledger has
 * several first keys and verify calls the chain forged. Orders those keys
 * by creation, requires each but the last to have been retired and the
 * last (not retired) to be the handle's signing key, signs each rotation with the secret
 * of the key it retired (which must match its public key), writes the
 * endorsements in one transaction and then destroys the retired secrets.
 * Nothing is written on any refusal (LEDGER_EKEY: a retired secret missing
 * or not the key's, not the ledger's newest key; LEDGER_EBADSIG: the keys
 * are not one line of rotations). A whole chain is left as it is
 * (n_endorsed 0). */
int ledger_key_repin(ledger *db, ledger_repin_report *out) MENTAT_MUST_CHECK;
/* ------------------------------------------------------------ seat keys */

/* A room may bind each seat to an Ed25519 public key at creation, or as
 * its player joins (the seat's action that carries the key, signed by it:
 * ledger_append_bind); an action of a bound seat is then accepted only
 * with the seat's signature of the seat message (ledger/seat_sig.c,
 * docs/FORMAT.md "Seat signature", "Seat binding"): the room, the version
 * it acts on, that version's chain hash and the canonical action bytes. */
#define LEDGER_SEAT_SECRET_BYTES 64    /* crypto_sign_SECRETKEYBYTES */
#define LEDGER_SEAT_MESSAGE_MAX 72     /* 50 + 2 + 2 * ENGINE_ACTION_MAX_ARGS, rounded up */

typedef struct ledger_seat_keys {
    uint16_t bound;                /* bit s: seat s (0-based) is bound to key[s]; 0 = none */
    uint8_t key[ENGINE_MAX_SEATS][SCHEMA_KEY_BYTES]; /* Ed25519 public keys */
} ledger_seat_keys;

/* Makes a seat key pair: path gets the secret key (mode 0600) and
 * path.pub the public key in hex; pk_out the public key. LEDGER_EEXISTS
 * (nothing written) when either file exists. err: SCHEMA_ERRMSG bytes. */
int ledger_seat_keygen(uint8_t pk_out[SCHEMA_KEY_BYTES], const char *path,
                       char *err) MENTAT_MUST_CHECK;
/* Reads a seat secret key file (checked against its own seed). The caller
 * wipes sk_out (sodium_memzero). LEDGER_EKEY with err saying why. */
int ledger_seat_key_load(uint8_t sk_out[LEDGER_SEAT_SECRET_BYTES],
                         uint8_t pk_out[SCHEMA_KEY_BYTES], const char *path,
                         char *err) MENTAT_MUST_CHECK;
/* Reads a seat public key file (64 hex digits, an optional newline). */
int ledger_seat_public_load(uint8_t pk_out[SCHEMA_KEY_BYTES], const char *path,
                            char *err) MENTAT_MUST_CHECK;
/* The seat message of act (act->seat a seat, not the engine) acting on
 * `version` of room, whose chain hash is prev_hash: its length, 0 if it
 * has none (a bad room, seat or action). Pure. */
size_t ledger_seat_message(uint8_t out[LEDGER_SEAT_MESSAGE_MAX], const char *room,
                           uint32_t version, const uint8_t prev_hash[SCHEMA_HASH_BYTES],
                           const engine_action *act);
/* As ledger_seat_message, the binding message ("MNSB" in place of
 * "MNSA"): what a seat joining with a key signs on the action that binds
 * it (docs/FORMAT.md "Seat binding"). Pure. */
size_t ledger_seat_bind_message(uint8_t out[LEDGER_SEAT_MESSAGE_MAX], const char *room,
                                uint32_t version, const uint8_t prev_hash[SCHEMA_HASH_BYTES],
                                const engine_action *act);
/* sig_out = the seat's signature of that message; LEDGER_EINPUT if none. */
int ledger_seat_sign(uint8_t sig_out[SCHEMA_SIG_BYTES],
                     const uint8_t sk[LEDGER_SEAT_SECRET_BYTES], const char *room,
                     uint32_t version, const uint8_t prev_hash[SCHEMA_HASH_BYTES],
                     const engine_action *act) MENTAT_MUST_CHECK;
/* As ledger_seat_sign, the signature of the binding message ("MNSB"):
 * what the key a seat is bound to signs on the action that binds it. */
int ledger_seat_sign_bind(uint8_t sig_out[SCHEMA_SIG_BYTES],
                          const uint8_t sk[LEDGER_SEAT_SECRET_BYTES], const char *room,
                          uint32_t version, const uint8_t prev_hash[SCHEMA_HASH_BYTES],
                          const engine_action *act) MENTAT_MUST_CHECK;
/* The chain hash of version of room (0: the genesis hash): what a seat
 * acting on that version signs as prev_hash. LEDGER_ENOTFOUND past the head. */
int ledger_chain_hash(ledger *db, uint8_t out[SCHEMA_HASH_BYTES], const char *room,
                      uint32_t version) MENTAT_MUST_CHECK;
/* The seats room binds now, at creation or as they joined (out->bound 0
 * when none). */
int ledger_room_seat_keys(ledger *db, ledger_seat_keys *out, const char *room) MENTAT_MUST_CHECK;

/* ---------------------------------------------------------------- rooms */

typedef struct ledger_room_info {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t version;              /* head version, 0 = only the genesis */
    engine_config config;
    uint64_t created_at;           /* unix ms */
    int is_constructed;
    int is_fork;                   /* 1 = made by ledger_room_fork */
    char fork_room[SCHEMA_ROOM_CHARS + 1]; /* a fork: the room it was taken from */
    uint32_t fork_version;         /* a fork: the version of fork_room it starts from */
} ledger_room_info;

/* 1 if room is a room code: exactly SCHEMA_ROOM_CHARS characters of the
 * room alphabet (docs/FORMAT.md), NUL-terminated; 0 otherwise or NULL. */
int ledger_room_code_valid(const char *room);

/* Creates a room: draws its seed, seals it to the audit key, deals the
 * opening position, signs and stores the genesis. LEDGER_EINPUT (message
 * says why) if the engine refuses the configuration. */
int ledger_room_create(ledger *db, char room_out[SCHEMA_ROOM_CHARS + 1],
                       const engine_config *cfg) MENTAT_MUST_CHECK;
/* As ledger_room_create, with the seed given instead of drawn: for bot
 * games that must replay from their own seed (`mentat games --seed`). The
 * room's secrecy then rests on whoever knows that seed: never for a room
 * with a human seat. The caller wipes its copy. */
int ledger_room_create_seeded(ledger *db, char room_out[SCHEMA_ROOM_CHARS + 1],
                              const engine_config *cfg,
                              const uint8_t seed[ENGINE_SEED_BYTES]) MENTAT_MUST_CHECK;
/* As ledger_room_create (seed NULL: drawn) or _seeded, with the seats of
 * `seats` bound to their keys in the genesis (seats may be NULL: none).
 * LEDGER_EINPUT for a bound seat past n_seats or one key bound twice. */
int ledger_room_create_bound(ledger *db, char room_out[SCHEMA_ROOM_CHARS + 1],
                             const engine_config *cfg, const uint8_t *seed,
                             const ledger_seat_keys *seats) MENTAT_MUST_CHECK;
/* Makes a new room whose opening is the state of `room` after `version`
 * (needs the audit key): a constructed room, so none of its digests can
 * pass for one of `room`'s, with a seed of its own, and a genesis that
 * names `room`, `version` and the chain hash of that version there
 * (docs/FORMAT.md, Genesis). LEDGER_ENOTFOUND if room has no such
 * version; LEDGER_EKEY without the audit or signing key. */
int ledger_room_fork(ledger *db, char room_out[SCHEMA_ROOM_CHARS + 1], const char *room,
                     uint32_t version) MENTAT_MUST_CHECK;
/* Calls fn for every room in code order; stops early when fn returns
 * non-zero and returns that value. */
int ledger_room_foreach(ledger *db, int (*fn)(void *ctx, const ledger_room_info *room),
                        void *ctx) MENTAT_MUST_CHECK;
int ledger_room_info_get(ledger *db, ledger_room_info *out, const char *room) MENTAT_MUST_CHECK;

/* --------------------------------------------------------------- append */

typedef struct ledger_append_result {
    engine_verdict verdict;        /* ENGINE_ACCEPTED or the rejection reason */
    engine_verdict_detail why;     /* detail of a rejection */
    int is_retry;                  /* 1 = the same action was already appended; receipt is the original */
    codec_receipt receipt;         /* accepted: signed (room, version, event hash) */
} ledger_append_result;

/* Appends `act` to `room` if its head is at `expected_version`.
 * Returns 0 with out->verdict telling accepted or rejected (a rejection is
 * recorded in `rejections`; the events are untouched). LEDGER_ECONFLICT if
 * the head moved (nothing written), unless this very action by this seat
 * was appended at expected_version + 1: then 0, is_retry 1 and the
 * original receipt. Nothing is acknowledged before it is durable. */
int ledger_append(ledger *db, ledger_append_result *out, const char *room,
                  uint32_t expected_version, const engine_action *act) MENTAT_MUST_CHECK;
/* ledger_append for an action with its seat's signature (seat_sig, 64
 * bytes, NULL for none): required for a seat the room binds, refused for
 * any other. A missing, wrong or replayed seat signature (another room,
 * version, seat or action) is LEDGER_EINPUT naming why; nothing written,
 * not even a rejection. ledger_append is this with seat_sig NULL. */
int ledger_append_signed(ledger *db, ledger_append_result *out, const char *room,
                         uint32_t expected_version, const engine_action *act,
                         const uint8_t *seat_sig) MENTAT_MUST_CHECK;
/* ledger_append_signed for the action that binds its seat, not yet bound,
 * to bind_key as its player joins: seat_sig is bind_key's signature of
 * the binding message (ledger_seat_sign_bind). Accepted, the event carries
 * the key and every later action of the seat needs its signature. A seat
 * already bound, a key already another seat's, a missing or wrong
 * signature (another key, room, version, seat or action): LEDGER_EINPUT
 * naming why, nothing written. An action the engine refuses binds
 * nothing. */
int ledger_append_bind(ledger *db, ledger_append_result *out, const char *room,
                       uint32_t expected_version, const engine_action *act,
                       const uint8_t seat_sig[SCHEMA_SIG_BYTES],
                       const uint8_t bind_key[SCHEMA_KEY_BYTES]) MENTAT_MUST_CHECK;

typedef struct ledger_append_req {
    const char *room;
    uint32_t expected_version;
    engine_action action;
} ledger_append_req;

/* Appends n requests in one write transaction (one sync). Each result is
 * as ledger_append's; rc_out[i] holds each request's return code. Returns
 * 0, or a failure of the transaction itself (then nothing was written). */
int ledger_append_batch(ledger *db, ledger_append_result *out, int *rc_out,
                        const ledger_append_req *req, size_t n) MENTAT_MUST_CHECK;

/* Group commit: threads call ledger_group_append concurrently; requests
 * waiting together go in one transaction, and each caller returns only
 * once its transaction is durable. */
int ledger_group_new(ledger_group **out, ledger *db) MENTAT_MUST_CHECK;
int ledger_group_append(ledger_group *g, ledger_append_result *out, const char *room,
                        uint32_t expected_version, const engine_action *act) MENTAT_MUST_CHECK;
/* ledger_group_append with the seat's signature (ledger_append_signed). */
int ledger_group_append_signed(ledger_group *g, ledger_append_result *out, const char *room,
                               uint32_t expected_version, const engine_action *act,
                               const uint8_t *seat_sig) MENTAT_MUST_CHECK;
/* ledger_group_append of a binding (ledger_append_bind). */
int ledger_group_append_bind(ledger_group *g, ledger_append_result *out, const char *room,
                             uint32_t expected_version, const engine_action *act,
                             const uint8_t seat_sig[SCHEMA_SIG_BYTES],
                             const uint8_t bind_key[SCHEMA_KEY_BYTES]) MENTAT_MUST_CHECK;
void ledger_group_free(ledger_group *g);

/* --------------------------------------------------------------- reading */

int ledger_head(ledger *db, const char *room, uint32_t *version_out,
                uint8_t hash_out[SCHEMA_HASH_BYTES]) MENTAT_MUST_CHECK;
/* The room's genesis; out->position (constructed rooms only, else NULL) is
 * a copy held by the handle, borrowed until the next call on it. */
int ledger_genesis_get(ledger *db, codec_genesis *out, const char *room) MENTAT_MUST_CHECK;
/* The event at `version`, decoded and verified, with prev_hash filled in:
 * an event of format 1 against its signature, one of format 2 or 3 by an
 * inclusion proof into the head's signed tree head (LEDGER_EBADSIG if the
 * head is unsigned or the proof fails). An event of format 3 comes with
 * its sealed action opened when the room key is held (the audit key, or
 * a reveal); without it with its secret arguments 0 and is_sealed 1. */
int ledger_event_get(ledger *db, codec_event *out, const char *room,
                     uint32_t version) MENTAT_MUST_CHECK;
/* Calls fn for versions from..to (inclusive; to 0 = head) in order, each
 * with prev_hash filled in and opened as ledger_event_get opens it
 * (signatures are not checked here: that is ledger_verify_room). fn runs inside a read transaction and must not
 * write to this ledger. */
int ledger_event_foreach(ledger *db, const char *room, uint32_t from, uint32_t to,
                         int (*fn)(void *ctx, const codec_event *ev), void *ctx) MENTAT_MUST_CHECK;
/* Calls fn for every refused action recorded for `room`, numbered from 0
 * in the order they happened (docs/FORMAT.md `rejections`); stops early
 * when fn returns non-zero and returns that value. fn runs inside a read
 * transaction and must not write to this ledger. LEDGER_ECORRUPT if a
 * record is missing or malformed. */
/* A rejection's secret arguments (engine_action_secret_mask) are stored
 * sealed with the room key; a handle holding the audit key reads them
 * opened, one without reads them 0 with r->sealed_len non-zero. */
int ledger_rejection_foreach(ledger *db, const char *room,
                             int (*fn)(void *ctx, uint32_t n, const codec_rejection *r),
                             void *ctx) MENTAT_MUST_CHECK;
/* The engine state after `version` (0 = the opening position): nearest
 * checkpoint plus a fold. Needs the audit key to unseal the room's seed. */
int ledger_state_at(ledger *db, engine_state *out, const char *room,
                    uint32_t version) MENTAT_MUST_CHECK;
/* The public view after `version` (engine_view with ENGINE_VIEW_PUBLIC)
 * as stored at its append: needs no key. 0; LEDGER_ENOTFOUND when the room
 * keeps no public views (stored by an older build, or restored without
 * the audit key) or has no such version; LEDGER_ECORRUPT. A view is
 * printed or compared, never applied. */
int ledger_public_view_at(ledger *db, engine_state *out, const char *room,
                          uint32_t version) MENTAT_MUST_CHECK;
/* The room's seed, unsealed with the audit key (or the revealed seed):
 * for a host that folds the room's accepted actions itself, as the ledger
 * does (the server keeps its rooms' head states so). Secret until
 * revealed: the caller wipes its copy (sodium_memzero). LEDGER_ENOTFOUND
 * without the audit key or a revealed seed. */
int ledger_room_seed(ledger *db, uint8_t seed_out[ENGINE_SEED_BYTES],
                     const char *room) MENTAT_MUST_CHECK;

/* -------------------------------------------------------------- checking */

typedef struct ledger_verify_report {
    uint32_t n_events;             /* events examined */
    uint32_t n_seat_signatures;    /* of them, signed by their seat (and checked) */
    uint32_t n_signatures;         /* every signature checked: the genesis's, the head's,
                                      each event's of format 1 and each seat's */
    uint32_t bad_version;          /* first bad version; 0 = the genesis; valid if rc != 0 */
    int is_refolded;               /* 1 = digests re-folded (audit key or revealed seed present) */
    uint32_t n_sealed_unopened;    /* events of format 3 whose sealed action this reader cannot
                                      open (no room key): their seat signatures unchecked */
    int is_head_signed;            /* 1 = the head's signed tree head checked; 0 = a head an
                                      older build wrote, unsigned (a truncation then shows
                                      only against receipts) */
    int has_public_views;          /* 1 = every version's stored public view checked: it
                                      decodes, and is the fold's when is_refolded; 0 = a
                                      room that keeps none (an older build's) */
    char reason[200];              /* why it is bad */
} ledger_verify_report;

/* Checks the genesis and its signature, dense versions, the hash chain,
 * every signature against the key that made it, the head's signed tree
 * head (required over events of format 2, which only it covers), and (when
 * the seed can be had) re-folds every version comparing digests and engine
 * invariants.
 * 0 if all hold; LEDGER_ECORRUPT or LEDGER_EBADSIG naming the first bad
 * version in *out. threads 1 or 2. */
int ledger_verify_room(ledger *db, ledger_verify_report *out, const char *room,
                       unsigned threads) MENTAT_MUST_CHECK;
/* Checks a receipt: signature by a known key, event present, hash equal. */
int ledger_receipt_check(ledger *db, const codec_receipt *r) MENTAT_MUST_CHECK;

/* ---------------------------------------------------------- Merkle tree */

/* Each room's events are the leaves of an RFC 9162 Merkle tree (RFC 6962
 * hashing, SHA-256): leaf v-1 is SHA-256(0x00 || event hash of version v),
 * so the tree of size n covers versions 1..n (docs/FORMAT.md "trees"). */
#define LEDGER_TREE_HASH_BYTES 32
#define LEDGER_PROOF_MAX 64        /* hashes in one proof; a 2^32 tree needs at most 33 */

/* A proof: its hashes from the bottom of the tree up. */
typedef struct ledger_tree_proof {
    size_t n_hashes;
    uint8_t hash[LEDGER_PROOF_MAX][LEDGER_TREE_HASH_BYTES];
} ledger_tree_proof;

/* A tree head: the root of the room's first `size` events. In a receipt
 * the ledger signs it with the event it names (time is that event's
 * committed_at). */
typedef struct ledger_tree_head {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t size;                 /* versions covered: 1..size */
    uint8_t root[LEDGER_TREE_HASH_BYTES]; /* empty-tree hash when size is 0 */
    uint64_t time;                 /* committed_at of event `size` (0 for size 0), unix ms */
} ledger_tree_head;

void ledger_merkle_leaf_hash(uint8_t out[LEDGER_TREE_HASH_BYTES], const uint8_t *entry,
                             size_t len);
void ledger_merkle_node_hash(uint8_t out[LEDGER_TREE_HASH_BYTES],
                             const uint8_t left[LEDGER_TREE_HASH_BYTES],
                             const uint8_t right[LEDGER_TREE_HASH_BYTES]);
void ledger_merkle_empty_root(uint8_t out[LEDGER_TREE_HASH_BYTES]);
/* RFC 9162 2.1.3.2: 0 if proof shows leaf at index (0-based) in the tree
 * of `size` leaves with `root`, else LEDGER_EBADSIG. Reads only its
 * arguments. */
int ledger_merkle_inclusion_verify(uint64_t index, uint64_t size,
                                   const uint8_t leaf[LEDGER_TREE_HASH_BYTES],
                                   const ledger_tree_proof *proof,
                                   const uint8_t root[LEDGER_TREE_HASH_BYTES]) MENTAT_MUST_CHECK;
/* RFC 9162 2.1.4.2: 0 if proof shows the tree (size1, root1) is a prefix
 * of the tree (size2, root2), else LEDGER_EBADSIG (also for size1 0). */
int ledger_merkle_consistency_verify(uint64_t size1, uint64_t size2,
                                     const ledger_tree_proof *proof,
                                     const uint8_t root1[LEDGER_TREE_HASH_BYTES],
                                     const uint8_t root2[LEDGER_TREE_HASH_BYTES]) MENTAT_MUST_CHECK;

/* The tree head of the room's first `size` events (size <= head). */
int ledger_tree_head_get(ledger *db, ledger_tree_head *out, const char *room,
                         uint32_t size) MENTAT_MUST_CHECK;
/* The inclusion proof of `version` in the tree of `size` events (1 <=
 * version <= size <= head); event_hash_out (may be NULL) gets the event
 * hash whose leaf hash the proof starts from. */
int ledger_proof_inclusion(ledger *db, ledger_tree_proof *out,
                           uint8_t event_hash_out[SCHEMA_HASH_BYTES], const char *room,
                           uint32_t version, uint32_t size) MENTAT_MUST_CHECK;
/* The consistency proof between the trees of size1 and size2 events
 * (1 <= size1 <= size2 <= head). */
int ledger_proof_consistency(ledger *db, ledger_tree_proof *out, const char *room,
                             uint32_t size1, uint32_t size2) MENTAT_MUST_CHECK;

/* -------------------------------------------------------------- archives */

/* Writes the room's archive (docs/FORMAT.md) to path, atomically (a
 * temporary file renamed into place). */
int ledger_backup_room(ledger *db, const char *room, const char *path) MENTAT_MUST_CHECK;
/* The same, with LEDGER_OUT_* flags: path is refused as ledger_outfile_check
 * says. ledger_backup_room is this with flags 0. */
int ledger_backup_room_flags(ledger *db, const char *room, const char *path,
                             unsigned flags) MENTAT_MUST_CHECK;
/* Writes one archive per room into dir, plus a compact LMDB copy
 * dir/mentat.db. *n_rooms_out may be NULL. */
int ledger_backup_all(ledger *db, const char *dir, size_t *n_rooms_out) MENTAT_MUST_CHECK;
int ledger_backup_all_flags(ledger *db, const char *dir, size_t *n_rooms_out,
                            unsigned flags) MENTAT_MUST_CHECK;

#define LEDGER_ARCHIVE_SUFFIX ".mentat-archive" /* ledger_backup_all names ROOM + this */

typedef struct ledger_restore_report {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t n_events;             /* events in the archive */
    uint32_t n_added;              /* events written (0 if the room already had them all) */
    int is_new_room;
} ledger_restore_report;

/* Verifies the whole archive (framing, trailer digest, genesis, chain,
 * signatures by keys this ledger knows, or any key in the archive when
 * trust_archive_keys) before writing anything; then creates the room, or
 * extends it when the archive's history has the room's as an exact
 * prefix. LEDGER_EDIVERGED for a divergent history; nothing written. */
int ledger_restore(ledger *db, ledger_restore_report *out, const char *path,
                   int trust_archive_keys) MENTAT_MUST_CHECK;

/* ---------------------------------------------------------- output files */

/* A file written beside its path under a temporary name and renamed into
 * place on commit (ledger/outfile.c): the path holds the old file or the
 * whole new one, never part of one. */
typedef struct ledger_outfile {
    int fd;                        /* the temporary file; -1 once closed */
    int is_unnamed;                /* 1 = an O_TMPFILE: no name until the commit */
    char tmp[4096];                /* "<dir>/.<base>.XXXXXX" (named at the commit if unnamed) */
    char dir[4096];                /* its directory, synced after the rename */
    char path[4096];               /* where it goes */
} ledger_outfile;

#define LEDGER_OUT_FORCE 1u        /* may replace another ledger (--force) */
#define LEDGER_OUT_LEDGER_COPY 2u  /* a ledger copy: may replace an earlier copy */

/* LEDGER_EINPUT, with a message naming why, if path may not be written:
 * this ledger's file or lock file, any ledger's lock file, a file of the
 * key directory, a symbolic link, a directory, a device or anything not a
 * regular file; another ledger unless flags allow it. A missing path or an
 * ordinary regular file is fine. */
int ledger_outfile_check(ledger *db, const char *path, unsigned flags) MENTAT_MUST_CHECK;
/* Checks path (as above) and opens a temporary file beside it in *out. */
int ledger_outfile_open(ledger *db, ledger_outfile *out, const char *path,
                        unsigned flags) MENTAT_MUST_CHECK;
/* Syncs and closes the file, checks path again and renames the file over
 * it, then syncs the directory. The temporary file is gone either way;
 * ENOSPC when the disk is full. */
int ledger_outfile_commit(ledger *db, ledger_outfile *f, unsigned flags) MENTAT_MUST_CHECK;
/* Closes and removes the temporary file, if still open. */
void ledger_outfile_abort(ledger_outfile *f);

/* ---------------------------------------------------------------- reseal */

typedef struct ledger_reseal_report {
    uint32_t from_key_id;          /* the audit key the room was sealed to */
    uint32_t to_key_id;            /* the audit key it is sealed to now */
    int has_room_key;              /* 1 = its room key was resealed too (0: an older room's) */
    int is_unchanged;              /* 1 = already sealed to that key: nothing written */
} ledger_reseal_report;

/* Seals room's seed and room key again, to the audit public key audit_pk
 * (docs/FORMAT.md `seal/<room>`), in one transaction; is_dry checks that it
 * could (the handle holds the key the room is sealed to and it opens) and
 * writes nothing. A room already sealed to audit_pk is left as it is
 * (is_unchanged). LEDGER_EKEY when the handle lacks the room's audit key;
 * on any failure nothing is written. */
int ledger_room_reseal(ledger *db, ledger_reseal_report *out, const char *room,
                       const uint8_t audit_pk[SCHEMA_KEY_BYTES], int is_dry) MENTAT_MUST_CHECK;
/* The seal of room's seed a reader opens: its resealed seed when it has
 * one, else the genesis's (audit key id and crypto_box_seal bytes). */
int ledger_room_seal(ledger *db, uint32_t *audit_key_id_out,
                     uint8_t sealed_out[SCHEMA_SEALED_SEED_BYTES],
                     const char *room) MENTAT_MUST_CHECK;
/* Reads an audit public key file (64 hex digits, an optional newline, as
 * `mentat key audit-pub` prints). LEDGER_EKEY with err saying why. */
int ledger_audit_public_load(uint8_t pk_out[SCHEMA_KEY_BYTES], const char *path,
                             char *err) MENTAT_MUST_CHECK;
/* keys_dir's audit public key and its id, for `room reseal` on another
 * host. LEDGER_ENOTFOUND without one; err: SCHEMA_ERRMSG bytes. */
int ledger_audit_public(uint8_t pk_out[SCHEMA_KEY_BYTES], uint32_t *id_out,
                        const char *keys_dir, char *err) MENTAT_MUST_CHECK;

/* ---------------------------------------------------------------- reveal */

/* Unseals the room's seed with the audit key, checks it against the
 * genesis commitment and records it as revealed. Refused (LEDGER_EINPUT)
 * while the game is not over unless is_forced. */
int ledger_reveal(ledger *db, uint8_t seed_out[ENGINE_SEED_BYTES], const char *room,
                  int is_forced) MENTAT_MUST_CHECK;
/* The room's revealed seed (`meta` reveal/<room>, kept by ledger_reveal
 * or restored from an archive), checked against the genesis commitment:
 * what lets anyone holding the archive re-fold and audit the room with no
 * audit key. LEDGER_ENOTFOUND when not revealed, LEDGER_EBADSIG when it
 * does not match. Public after the reveal: no secret. */
int ledger_room_revealed_seed(ledger *db, uint8_t seed_out[ENGINE_SEED_BYTES],
                              const char *room) MENTAT_MUST_CHECK;

/* ---------------------------------------------------------- audit reports */

/* The verdict of a room's privacy audit, signed with the ledger key
 * (ledger/audit_report.c, docs/FORMAT.md "Audit report"), so an auditor
 * can hand it over: anyone holding the room checks it with
 * ledger_audit_report_check, anyone holding the public key with
 * crypto_sign_verify_detached over ledger_audit_report_canonical. */
#define LEDGER_AUDIT_REPORT_BYTES 137
#define LEDGER_AUDIT_METHOD_COUNTERFACTUAL 1
#define LEDGER_AUDIT_SEED_AUDIT_KEY 1  /* the seed unsealed with the audit key */
#define LEDGER_AUDIT_SEED_REVEALED 2   /* the revealed seed (no audit key needed) */

typedef struct ledger_audit_report {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t version;              /* the head audited: also the tree size */
    uint8_t head_hash[SCHEMA_HASH_BYTES]; /* chain hash of version (filled by _sign) */
    uint8_t tree_root[LEDGER_TREE_HASH_BYTES]; /* root of versions 1..version (by _sign) */
    uint64_t tree_time;            /* committed_at of version, unix ms (by _sign) */
    uint8_t method;                /* LEDGER_AUDIT_METHOD_* */
    uint8_t seed_source;           /* LEDGER_AUDIT_SEED_* */
    uint8_t viewer;                /* a seat, ENGINE_VIEW_PUBLIC, or 0xFD every viewer */
    uint32_t facts;                /* bit per fact changed; 0 = all */
    uint64_t sample_seed;
    uint32_t n_trials;             /* pairs built and replayed */
    uint64_t n_steps;              /* events replayed in both worlds */
    uint64_t n_comparisons;
    uint32_t n_leaks;
    int is_leaky;                  /* the verdict: 1 = n_leaks > 0 */
    uint32_t key_id;               /* the signer (by _sign) */
    uint8_t public_key[SCHEMA_KEY_BYTES]; /* its public key (by _sign; not signed) */
    uint8_t signature[SCHEMA_SIG_BYTES];
} ledger_audit_report;

/* The signed bytes of r: LEDGER_AUDIT_REPORT_BYTES, or 0 if r has none. Pure. */
size_t ledger_audit_report_canonical(uint8_t out[LEDGER_AUDIT_REPORT_BYTES],
                                     const ledger_audit_report *r);
/* Fills r's head, tree head and signer from this ledger and signs it with
 * the signing key (LEDGER_EKEY without one). */
int ledger_audit_report_sign(ledger *db, ledger_audit_report *r) MENTAT_MUST_CHECK;
/* 0 if this handle holds the signing key, else LEDGER_EKEY saying so. */
int ledger_audit_report_can_sign(ledger *db) MENTAT_MUST_CHECK;
/* 0 if r is signed by a key of this ledger's chain and names the room's
 * own history at r->version (chain hash, tree root and time); else
 * LEDGER_EBADSIG (or LEDGER_EINPUT for a report with no canonical form)
 * naming why. */
int ledger_audit_report_check(ledger *db, const ledger_audit_report *r) MENTAT_MUST_CHECK;

/* ----------------------------------------------------------------- stats */

typedef struct ledger_stats {
    uint64_t n_rooms;
    uint64_t n_events;
    uint64_t events_bytes;         /* pages of the events and trees databases, in bytes */
    uint64_t file_bytes;           /* pages in use in the whole file, in bytes */
    size_t map_size;
} ledger_stats;
int ledger_stats_get(ledger *db, ledger_stats *out) MENTAT_MUST_CHECK;

/* Current time in unix milliseconds (the only clock Mentat reads). */
uint64_t ledger_now_ms(void);

#endif
