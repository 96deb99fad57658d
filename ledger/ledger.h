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
/* One line describing the last failure on this handle; never NULL.
 * Borrowed until the next call on the handle. */
const char *ledger_errmsg(const ledger *db);

/* ----------------------------------------------------------------- keys */

/* Creates keys_dir (mode 0700) with a new Ed25519 signing key and an
 * X25519 audit key pair (files mode 0600). LEDGER_EEXISTS if either key
 * file exists. err (SCHEMA_ERRMSG bytes) may be NULL. */
int ledger_keygen(const char *keys_dir, char *err) MENTAT_MUST_CHECK;
/* Retires the current signing key and makes a new one; the old public key
 * stays in `keys` so its events still verify. *new_id_out may be NULL. */
int ledger_key_rotate(ledger *db, uint32_t *new_id_out) MENTAT_MUST_CHECK;

/* ---------------------------------------------------------------- rooms */

typedef struct ledger_room_info {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t version;              /* head version, 0 = only the genesis */
    engine_config config;
    uint64_t created_at;           /* unix ms */
    int is_constructed;
} ledger_room_info;

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
void ledger_group_free(ledger_group *g);

/* --------------------------------------------------------------- reading */

int ledger_head(ledger *db, const char *room, uint32_t *version_out,
                uint8_t hash_out[SCHEMA_HASH_BYTES]) MENTAT_MUST_CHECK;
/* The room's genesis; out->position (constructed rooms only, else NULL) is
 * a copy held by the handle, borrowed until the next call on it. */
int ledger_genesis_get(ledger *db, codec_genesis *out, const char *room) MENTAT_MUST_CHECK;
/* The event at `version`, decoded and verified against its signature, with
 * prev_hash filled in. */
int ledger_event_get(ledger *db, codec_event *out, const char *room,
                     uint32_t version) MENTAT_MUST_CHECK;
/* Calls fn for versions from..to (inclusive; to 0 = head) in order, each
 * with prev_hash filled in (signatures are not checked here: that is
 * ledger_verify_room). fn runs inside a read transaction and must not
 * write to this ledger. */
int ledger_event_foreach(ledger *db, const char *room, uint32_t from, uint32_t to,
                         int (*fn)(void *ctx, const codec_event *ev), void *ctx) MENTAT_MUST_CHECK;
/* The engine state after `version` (0 = the opening position): nearest
 * checkpoint plus a fold. Needs the audit key to unseal the room's seed. */
int ledger_state_at(ledger *db, engine_state *out, const char *room,
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
    uint32_t bad_version;          /* first bad version; 0 = the genesis; valid if rc != 0 */
    int is_refolded;               /* 1 = digests re-folded (audit key or revealed seed present) */
    char reason[200];              /* why it is bad */
} ledger_verify_report;

/* Checks the genesis and its signature, dense versions, the hash chain,
 * every signature against the key that made it, and (when the seed can be
 * had) re-folds every version comparing digests and engine invariants.
 * 0 if all hold; LEDGER_ECORRUPT or LEDGER_EBADSIG naming the first bad
 * version in *out. threads 1 or 2. */
int ledger_verify_room(ledger *db, ledger_verify_report *out, const char *room,
                       unsigned threads) MENTAT_MUST_CHECK;
/* Checks a receipt: signature by a known key, event present, hash equal. */
int ledger_receipt_check(ledger *db, const codec_receipt *r) MENTAT_MUST_CHECK;

/* -------------------------------------------------------------- archives */

/* Writes the room's archive (docs/FORMAT.md) to path, atomically (a
 * temporary file renamed into place). */
int ledger_backup_room(ledger *db, const char *room, const char *path) MENTAT_MUST_CHECK;
/* Writes one archive per room into dir, plus a compact LMDB copy
 * dir/mentat.db. *n_rooms_out may be NULL. */
int ledger_backup_all(ledger *db, const char *dir, size_t *n_rooms_out) MENTAT_MUST_CHECK;

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

/* ---------------------------------------------------------------- reveal */

/* Unseals the room's seed with the audit key, checks it against the
 * genesis commitment and records it as revealed. Refused (LEDGER_EINPUT)
 * while the game is not over unless is_forced. */
int ledger_reveal(ledger *db, uint8_t seed_out[ENGINE_SEED_BYTES], const char *room,
                  int is_forced) MENTAT_MUST_CHECK;

/* ----------------------------------------------------------------- stats */

typedef struct ledger_stats {
    uint64_t n_rooms;
    uint64_t n_events;
    uint64_t events_bytes;         /* pages of the events database, in bytes */
    uint64_t file_bytes;           /* pages in use in the whole file, in bytes */
    size_t map_size;
} ledger_stats;
int ledger_stats_get(ledger *db, ledger_stats *out) MENTAT_MUST_CHECK;

/* Current time in unix milliseconds (the only clock Mentat reads). */
uint64_t ledger_now_ms(void);

#endif
