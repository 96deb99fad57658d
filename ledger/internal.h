/*
 * internal.h - what the files of ledger/ share and nothing outside includes
 * (tests excepted): the handle, the transaction wrappers through which every
 * LMDB call of the write path goes (fault injection, poisoning, map growth),
 * the canonical encodings (ledger/event.c), keys and seeds, and the readers
 * of stored records.
 *
 * Invariants every file relies on (cited by number in the code):
 *  (1) A write runs inside ledger__write: one LMDB write transaction that
 *      commits whole or not at all; on MDB_MAP_FULL it is aborted, the map
 *      doubled (up to max_map_size) and the body run again from scratch.
 *  (2) A wrapped call that fails poisons its transaction: every later
 *      wrapped call in it returns LEDGER_EBADTXN until it is aborted.
 *  (3) The room cache on the handle only holds what a transaction saw; what
 *      a write transaction put there is marked dirty and dropped if the
 *      transaction aborts, kept if it commits.
 *  (4) Bytes read from LMDB are borrowed: they die with the transaction.
 */
#ifndef MENTAT_LEDGER_INTERNAL_H
#define MENTAT_LEDGER_INTERNAL_H

#include <assert.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <lmdb.h>
#include <sodium.h>
#include <zstd.h>

#include "ledger.h"

/* ========================================================= file layout */

/* Tags: the first byte of every stored record (docs/FORMAT.md). */
#define LEDGER_TAG_PROTOBUF 0x01   /* raw protobuf follows */
#define LEDGER_TAG_CHECKPOINT 0x02 /* chain hash (32) then a zstd frame of a Checkpoint */
#define LEDGER_TAG_CHECKPOINT_SEALED 0x03 /* chain hash (32), nonce (24), the frame sealed */

#define LEDGER_HEAD_BYTES 40       /* version u32 BE, hash 32, n_rejections u32 BE */
#define LEDGER_HEAD_SIGNED_BYTES 148 /* + tree root 32, tree time u64, key id u32, signature 64 */
#define LEDGER_CKPT_KEY_BYTES 12   /* room 8, version u32 BE */
#define LEDGER_VIEW_BLOCK 64       /* public views a `views` block holds (ledger/public_view.c) */
#define LEDGER_VIEW_PIECE 400      /* bytes of a `views` record one duplicate holds */
#define LEDGER_REJ_KEY_BYTES 12    /* room 8, rejection counter u32 BE */
#define LEDGER_EVENT_PREFIX 4      /* events dup value: version u32 BE, then the record */

/* meta keys (ASCII, no NUL) */
#define LEDGER_META_FORMAT "format"         /* u32 BE: LEDGER_FORMAT_VERSION */
#define LEDGER_META_CREATED "created_at"    /* u64 BE: unix ms */
#define LEDGER_META_REVEAL_PREFIX "reveal/" /* + room (8): the revealed seed, 32 bytes */
#define LEDGER_META_REVEAL_KEY_PREFIX "revealkey/" /* + room (8): the revealed room key, 32 */

/* Canonical signed encodings (ledger/event.c documents every byte). */
#define LEDGER_EVENT_MAGIC "MNTE"
#define LEDGER_GENESIS_MAGIC "MNTG"
#define LEDGER_RECEIPT_MAGIC "MNTR"         /* a receipt without a tree head (older) */
#define LEDGER_RECEIPT_TREE_MAGIC "MNTH"    /* a receipt with its signed tree head */
#define LEDGER_EVENT_CANONICAL_MAX 256      /* 4+1+8+4+32+1+2+2*8+8+32+4 = 112, + seat sig 64,
                                               + sealed action hash 32 (format 3, no key id),
                                               + bind key 32 */
#define LEDGER_EVENT_FORMAT_SIGNED 1        /* MNTE format byte: the ledger signs each event */
#define LEDGER_EVENT_FORMAT_UNSIGNED 2      /* MNTE format byte: the signed head covers it */
#define LEDGER_EVENT_FORMAT_SEALED 3        /* format 2 with the action's secrets sealed */
#define LEDGER_RECEIPT_CANONICAL_BYTES 52   /* 4+8+4+32+4 */
#define LEDGER_RECEIPT_CANONICAL_MAX 92     /* with the tree head: + root 32 + time 8 */
#define LEDGER_GENESIS_CANONICAL_MAX (512 + ENGINE_STATE_ENCODED_MAX) /* + fork 48 + seats 196 */
/* Largest stored event record (tag + protobuf); the dup value adds 4. */
#define LEDGER_EVENT_RECORD_MAX 480

#define LEDGER_ROOM_KEY_BYTES 32            /* a room key (ledger/room_key.c) */
#define LEDGER_META_SEAL_PREFIX "seal/"     /* + room (8): a resealed room's seed (reseal.c) */
#define LEDGER_SEAL_RECORD_BYTES (4 + SCHEMA_SEALED_SEED_BYTES) /* audit key id, sealed seed */
#define LEDGER_ROOM_KEY_RECORD_BYTES (4 + 48 + LEDGER_ROOM_KEY_BYTES) /* id, crypto_box_seal */
#define LEDGER_SIGN_SECRET_BYTES 64         /* crypto_sign_SECRETKEYBYTES */
#define LEDGER_AUDIT_FILE_BYTES 64          /* X25519 secret 32 + public 32 */
#define LEDGER_SIGNING_FILE "signing.key"
#define LEDGER_AUDIT_FILE "audit.key"

/* Scratch: three parts, each large enough for an encoded state, its
 * Checkpoint protobuf or their zstd frame. */
#define LEDGER_SCRATCH_PART ((size_t)ENGINE_STATE_ENCODED_MAX + 1024)
#define LEDGER_SCRATCH_BYTES (3 * LEDGER_SCRATCH_PART)

/* A compact range: the roots of the perfect subtrees of a tree of `size`
 * leaves, largest first, so that leaves are added one at a time and the
 * root read at any size (verify folds a room's tree as it walks it; the
 * append path keeps each room's in the cache). ledger/merkle.c. */
#define LEDGER__RANGE_MAX 33
typedef struct ledger__range {
    uint64_t size;                 /* leaves so far; zero the struct to start */
    size_t n;                      /* subtree roots in hash[] (popcount of size) */
    uint8_t hash[LEDGER__RANGE_MAX][LEDGER_TREE_HASH_BYTES];
} ledger__range;

/* The room cache: recent head states, unsealed seeds and tree ranges, LRU. */
#define LEDGER_CACHE_ROOMS 64

typedef struct ledger_cache_entry {
    char room[SCHEMA_ROOM_CHARS];  /* the room; all zero = free slot */
    int has_seed;                  /* 1 = seed below is the room's unsealed seed */
    uint8_t seed[ENGINE_SEED_BYTES];
    int has_room_key;              /* 1 = room_key below is the room's, opened */
    uint8_t room_key[LEDGER_ROOM_KEY_BYTES]; /* never written to any file */
    int has_state;                 /* 1 = state below is the head at (version, hash) */
    uint32_t version;              /* head version of `state` */
    uint8_t hash[SCHEMA_HASH_BYTES]; /* head hash of `state` */
    engine_state state;            /* state after `version` */
    int has_range;                 /* 1 = range below is the room's tree at range_hash */
    uint8_t range_hash[SCHEMA_HASH_BYTES]; /* chain hash of event range.size (genesis at 0) */
    ledger__range range;           /* the tree of versions 1..range.size */
    int has_view;                  /* 1 = view below is the public view at view_version */
    uint32_t view_version;         /* version of `view` */
    uint8_t view_hash[SCHEMA_HASH_BYTES]; /* chain hash of view_version */
    size_t view_len;               /* bytes in view */
    uint8_t view[ENGINE_STATE_ENCODED_MAX]; /* its canonical encoding (public facts only) */
    uint64_t used;                 /* LRU tick; larger = more recent */
    int is_dirty;                  /* (3) written by the open write txn */
} ledger_cache_entry;

/* ============================================================ the handle */

struct ledger {
    MDB_env *env;                  /* the LMDB environment (one file) */
    MDB_dbi dbi_rooms;             /* room (8) -> tag + Genesis */
    MDB_dbi dbi_events;            /* DUPSORT: room (8) -> version u32 BE + tag + Event */
    MDB_dbi dbi_heads;             /* room (8) -> LEDGER_HEAD_SIGNED_BYTES record (older: 40) */
    MDB_dbi dbi_checkpoints;       /* room (8) + version u32 BE -> tag 0x02 record */
    MDB_dbi dbi_rejections;        /* room (8) + counter u32 BE -> tag + Rejection */
    MDB_dbi dbi_keys;              /* key id u32 BE -> tag + Key */
    MDB_dbi dbi_meta;              /* ASCII name -> value (LEDGER_META_*) */
    MDB_dbi dbi_trees;             /* DUPSORT: room (8) -> group end u32 BE + hashes (ledger/tree.c) */
    int has_trees;                 /* 0 = a read-only file without `trees` (an older writer's) */
    MDB_dbi dbi_views;             /* DUPSORT: room (8) -> pieces of public views (public_view.c) */
    int has_views;                 /* 0 = a read-only file without `views` (an older writer's) */
    uint8_t *view_buf;             /* owned, lazily: public_view.c's buffers */
    char *path;                    /* the ledger file; owned */
    char *keys_dir;                /* the keys directory; owned */
    unsigned checkpoint_every;     /* K >= 1 */
    int is_signing_events;         /* 1 = append events of format 1, each signed, as builds
                                      before format 2 did (the suites of such rooms set it) */
    int is_read_only;              /* opened MDB_RDONLY */
    size_t map_size;               /* current map size in bytes */
    size_t max_map_size;           /* growth limit in bytes */
    size_t max_dup_bytes;          /* mdb_env_get_maxkeysize: largest events dup value */
    unsigned page_size;            /* LMDB page size in bytes */
    /* keys (ledger/keys.c) */
    int has_signing_key;           /* 1 = signing_sk/pk loaded */
    uint8_t signing_sk[LEDGER_SIGN_SECRET_BYTES]; /* Ed25519 secret key */
    uint8_t signing_pk[SCHEMA_KEY_BYTES];         /* Ed25519 public key */
    uint32_t key_id;               /* id of the signing key */
    uint64_t key_created_at;       /* unix ms, from the key file's mtime */
    int has_audit_key;             /* 1 = audit_sk/pk loaded */
    uint8_t audit_sk[SCHEMA_KEY_BYTES]; /* X25519 secret key */
    uint8_t audit_pk[SCHEMA_KEY_BYTES]; /* X25519 public key */
    uint32_t audit_key_id;         /* id of the audit key */
    int is_key_registered;         /* 1 = both keys are known to be in `keys` */
    /* caches (3) */
    ledger_cache_entry cache[LEDGER_CACHE_ROOMS];
    uint64_t cache_tick;           /* LRU clock */
    /* zstd contexts, reused; and scratch buffers for checkpoints */
    ZSTD_CCtx *cctx;               /* owned */
    ZSTD_DCtx *dctx;               /* owned */
    uint8_t *scratch;              /* owned, LEDGER_SCRATCH_BYTES (three parts) */
    uint8_t *position;             /* owned: ledger_genesis_get's copy of a position */
    size_t position_cap;           /* bytes allocated at position */
    /* errors */
    char errmsg[256];              /* last failure, one line */
    char warning[256];             /* what ledger_open found unsafe but allowed; "" if nothing */
    const char *corrupt_file;      /* where LEDGER_CORRUPT_HERE last fired */
    int corrupt_line;
    /* fault injection (tests only) */
    long fault_countdown;          /* > 0: the countdown-th wrapped call fails */
    int fault_rc;                  /* the code it fails with */
    unsigned long n_wrapped_calls; /* wrapped calls so far (tests size their loops) */
    unsigned long n_commits;       /* write txns committed (tests see group commit) */
};

/* ============================================================== errors */

/* Sets the handle's message (printf format) and returns rc. */
int ledger__fail(ledger *db, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Records file and line, sets "<message> (file:line)" and returns
 * LEDGER_ECORRUPT. Use through the macros below. */
int ledger__corrupt(ledger *db, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
#define LEDGER_CORRUPT_HERE(db) ledger__corrupt((db), __FILE__, __LINE__, "malformed stored bytes")
#define LEDGER_CORRUPT_MSG(db, ...) ledger__corrupt((db), __FILE__, __LINE__, __VA_ARGS__)

/* A message for an LMDB or errno code. */
const char *ledger__strerror(int rc);

/* ======================================================== transactions */

/* A transaction as the ledger uses it. Every LMDB call of the write path
 * goes through the wrappers below, which count calls for fault injection
 * and poison the transaction on failure (2). */
typedef struct ledger_txn {
    ledger *db;                    /* the handle it belongs to */
    MDB_txn *mdb;                  /* the LMDB transaction, NULL once ended */
    int is_write;                  /* 1 = a write transaction */
    int is_poisoned;               /* (2) a call failed; only abort is allowed */
    int poison_rc;                 /* the code of the call that poisoned it */
    int did_register_keys;         /* keys were put in `keys` by this txn */
} ledger_txn;

/* Begins a read (is_write 0) or write transaction. */
int ledger__txn_begin(ledger_txn *out, ledger *db, int is_write) MENTAT_MUST_CHECK;
/* Commits; on success marks the cache clean (3). On failure the txn is
 * aborted and the cache's dirty entries dropped. */
int ledger__txn_commit(ledger_txn *txn) MENTAT_MUST_CHECK;
/* Aborts (no-op if already ended); drops dirty cache entries (3). */
void ledger__txn_abort(ledger_txn *txn);

/* mdb_get: 0, MDB_NOTFOUND (does not poison), or an error. Borrowed (4). */
int ledger__get(ledger_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *val) MENTAT_MUST_CHECK;
/* ledger__get of `meta` prefix<room> (prefix e.g. "seal/"): 0, MDB_NOTFOUND
 * or an error. */
#define LEDGER_META_ROOM_KEY_MAX 32
int ledger__meta_room_get(ledger_txn *txn, MDB_val *val, const char *prefix,
                          const char *room) MENTAT_MUST_CHECK;
/* ledger/reseal.c: the resealed seed record of room (seal/<room>,
 * LEDGER_SEAL_RECORD_BYTES), borrowed from txn: 0, MDB_NOTFOUND when the
 * room was never resealed, LEDGER_ECORRUPT for a malformed record. */
int ledger__seal_record(ledger *db, ledger_txn *txn, const uint8_t **rec_out,
                        const char *room) MENTAT_MUST_CHECK;
/* Writes that record (a restore of a resealed room's archive). */
int ledger__seal_record_put(ledger *db, ledger_txn *txn, const char *room,
                            const uint8_t rec[LEDGER_SEAL_RECORD_BYTES]) MENTAT_MUST_CHECK;
int ledger__put(ledger_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *val,
                unsigned flags) MENTAT_MUST_CHECK;
/* mdb_del; MDB_NOTFOUND does not poison. */
int ledger__del(ledger_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *val) MENTAT_MUST_CHECK;
int ledger__cursor_open(ledger_txn *txn, MDB_dbi dbi, MDB_cursor **out) MENTAT_MUST_CHECK;
/* mdb_cursor_get: 0, MDB_NOTFOUND (does not poison), or an error. */
int ledger__cursor_get(ledger_txn *txn, MDB_cursor *cur, MDB_val *key, MDB_val *val,
                       MDB_cursor_op op) MENTAT_MUST_CHECK;
int ledger__cursor_put(ledger_txn *txn, MDB_cursor *cur, MDB_val *key, MDB_val *val,
                       unsigned flags) MENTAT_MUST_CHECK;

/* Runs body in a write transaction and commits it (1). body must start from
 * scratch each time it is called (it may be called again after a map
 * growth) and must not commit or abort. Returns body's code if it failed
 * (nothing written), LEDGER_EFULL past max_map_size, else the commit's. */
int ledger__write(ledger *db, int (*body)(ledger_txn *txn, void *ctx), void *ctx) MENTAT_MUST_CHECK;

/* Tests only: the countdown-th wrapped call from now fails with rc
 * (countdown 0 turns injection off). */
/* A failed write or sync of a file on the disk holding path: the message
 * "<what>: <why>"; ENOSPC (and its message says the disk is full) when the
 * disk is full, including LMDB's EIO for a short write on a full disk. */
int ledger__io_fail(ledger *db, int rc, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ledger__fault_set(ledger *db, long countdown, int rc);
/* Counts one file-system call of an archive or output file for fault
 * injection: non-zero (the code to fail with) when it is the one to fail. */
int ledger__fault_hit(ledger *db);

/* ============================================================ room key */
/* ledger/room_key.c: the per-room key, sealed to the audit key in `meta`
 * roomkey/<room>, and the sealing of refused actions' secret arguments. */

/* Draws room's key and puts it, sealed to the handle's audit key, in txn
 * (LEDGER_EKEY without an audit key). */
int ledger__room_key_new(ledger *db, ledger_txn *txn, const char *room) MENTAT_MUST_CHECK;
/* Puts room's key sealed to audit public key pk (its id first) in txn,
 * with the ledger__put flags (MDB_NOOVERWRITE for a new room; 0 replaces
 * the record, as a reseal does). */
int ledger__room_key_put(ledger *db, ledger_txn *txn, const char *room,
                         const uint8_t key[LEDGER_ROOM_KEY_BYTES],
                         const uint8_t pk[SCHEMA_KEY_BYTES], unsigned flags) MENTAT_MUST_CHECK;
/* The room's key: from the cache, else opened with the audit key, else
 * the one `reveal` published (revealkey/<room>). LEDGER_ENOTFOUND for a
 * room without one (an older build's), LEDGER_EKEY when it is sealed to
 * an audit key not held and not revealed (the message says so). */
int ledger__room_key(ledger *db, ledger_txn *txn, const char *room,
                     uint8_t key_out[LEDGER_ROOM_KEY_BYTES]) MENTAT_MUST_CHECK;
/* Before accepted event ev of room is stored: when
 * its action has secret arguments (engine_action_secret_args) and the room
 * has a room key, seals the whole canonical action into ev->sealed_action
 * and zeroes those arguments (an event of format 3). Otherwise nothing. */
int ledger__event_seal(ledger *db, ledger_txn *txn, codec_event *ev,
                       const char *room) MENTAT_MUST_CHECK;
/* The action ev stands for: ev->action for an event without a sealed
 * action, else the sealed one opened with key (checked against ev: same
 * kind, same public arguments, its secret ones zero in ev). Pure but for
 * db's message. LEDGER_ECORRUPT if it does not open to ev. */
int ledger__event_open_with(ledger *db, engine_action *out, const char *room,
                            const codec_event *ev,
                            const uint8_t key[LEDGER_ROOM_KEY_BYTES]) MENTAT_MUST_CHECK;
/* The same with the room key from txn (ledger__room_key): LEDGER_EKEY
 * when it is not held (out is then ev->action, its secrets 0). */
int ledger__event_open(ledger *db, ledger_txn *txn, engine_action *out, const char *room,
                       const codec_event *ev) MENTAT_MUST_CHECK;
/* *is_out 1 if the room's seed is revealed in txn (meta reveal/<room>),
 * else 0; returns 0 or a read error. */
int ledger__room_is_revealed(ledger *db, ledger_txn *txn, int *is_out,
                             const char *room) MENTAT_MUST_CHECK;
/* The room's key records as stored, borrowed from txn (4): the sealed one
 * (NULL if none) and the revealed one (NULL if not revealed). */
int ledger__room_key_records(ledger *db, ledger_txn *txn, const uint8_t **sealed_out,
                             size_t *sealed_len_out, const uint8_t **revealed_out,
                             const char *room) MENTAT_MUST_CHECK;
/* The room key of a sealed record (LEDGER_ROOM_KEY_RECORD_BYTES) opened
 * with the handle's audit key: LEDGER_EKEY if it is sealed to another,
 * LEDGER_ECORRUPT if it does not open. */
int ledger__room_key_open(ledger *db, uint8_t key_out[LEDGER_ROOM_KEY_BYTES],
                          const uint8_t *rec, const char *room) MENTAT_MUST_CHECK;
/* Puts the room key records of an archive for its room (restore). */
int ledger__room_key_import(ledger *db, ledger_txn *txn, const uint8_t *sealed,
                            const uint8_t *revealed, const char *room) MENTAT_MUST_CHECK;
/* The room key of an archive being restored: its revealed key, else its
 * sealed record opened with the audit key, else the one this ledger holds
 * for the room. LEDGER_ENOTFOUND if it has none, LEDGER_EKEY. */
struct ledger_archive;
int ledger__room_key_of_archive(ledger *db, ledger_txn *txn,
                                uint8_t key_out[LEDGER_ROOM_KEY_BYTES],
                                const struct ledger_archive *a) MENTAT_MUST_CHECK;
/* ledger_reveal's part: puts the room key in the clear under
 * revealkey/<room> when the room has one this handle can open (a room
 * without one, or sealed to an audit key not held: nothing, 0). */
int ledger__room_key_reveal(ledger *db, ledger_txn *txn, const char *room) MENTAT_MUST_CHECK;
/* Before rejection `counter` of r->room is stored: seals the action's
 * secret arguments with the room key (a room without one: unchanged). */
int ledger__rejection_seal(ledger *db, ledger_txn *txn, codec_rejection *r,
                           uint32_t counter) MENTAT_MUST_CHECK;
/* After it is read: opens them when the handle holds the room key
 * (r->sealed_len then 0); without it r is left sealed, its secret
 * arguments 0. LEDGER_ECORRUPT if the sealed bytes do not open to r. */
int ledger__rejection_open(ledger *db, ledger_txn *txn, codec_rejection *r,
                           uint32_t counter) MENTAT_MUST_CHECK;

/* ledger/reseal.c: a room moved to another audit key. Replaces
 * g->audit_key_id and g->sealed_seed with the room's resealed seed (`meta`
 * seal/<room>) when it has one: g is then the seal to open, no longer the
 * signed genesis. */
int ledger__genesis_seal(ledger *db, ledger_txn *txn, codec_genesis *g) MENTAT_MUST_CHECK;

/* ====================================================== canonical bytes */
/* ledger/event.c; each returns the length written, or 0 if the input
 * cannot be encoded (unknown action kind, non-zero unused argument, a field
 * out of range); out must hold the *_MAX bytes. */

size_t ledger__event_canonical(uint8_t out[LEDGER_EVENT_CANONICAL_MAX], const char *room,
                               const codec_event *ev);
/* BLAKE2b-256(canonical || signature). */
void ledger__event_hash(uint8_t out[SCHEMA_HASH_BYTES], const uint8_t *canonical,
                        size_t canonical_len, const uint8_t sig[SCHEMA_SIG_BYTES]);
/* An event's chain hash from its canonical bytes: BLAKE2b-256(canonical ||
 * signature) for format 1, BLAKE2b-256(canonical) for format 2. */
void ledger__event_chain_hash(uint8_t out[SCHEMA_HASH_BYTES], const uint8_t *canonical,
                              size_t canonical_len, const codec_event *ev);
size_t ledger__genesis_canonical(uint8_t *out, size_t cap, const codec_genesis *g);
/* BLAKE2b-256(genesis canonical || signature): prev_hash of version 1.
 * 0, or LEDGER_ECORRUPT if g cannot be encoded. */
int ledger__genesis_hash(uint8_t out[SCHEMA_HASH_BYTES], const codec_genesis *g) MENTAT_MUST_CHECK;
/* 52 bytes without a tree head, 92 with; 0 for a bad room. */
size_t ledger__receipt_canonical(uint8_t out[LEDGER_RECEIPT_CANONICAL_MAX],
                                 const codec_receipt *r);
/* Canonical action bytes (kind, n_args, args i16 BE): length, 0 if invalid. */
size_t ledger__action_canonical(uint8_t *out, size_t cap, const engine_action *act);

/* Wire seat (0 = engine, 1..N) of an engine seat, and back. */
uint8_t ledger__seat_to_wire(uint8_t seat);

/* Stored event record (tag + protobuf without prev_hash) into out[0..cap):
 * length, or an error (EINPUT if it would exceed cap). */
int ledger__event_record_encode(ledger *db, uint8_t *out, size_t cap, size_t *len_out,
                                const codec_event *ev) MENTAT_MUST_CHECK;
/* Stored record -> codec_event: checks the tag, decodes strictly; prev_hash
 * is left absent (the caller links it). LEDGER_ECORRUPT naming `version`. */
int ledger__event_record_decode(ledger *db, codec_event *out, const uint8_t *rec,
                                size_t rec_len) MENTAT_MUST_CHECK;
/* Stored rejection record (tag + Rejection protobuf) -> codec_rejection:
 * checks the tag, decodes strictly. LEDGER_ECORRUPT with a message. */
int ledger__rejection_record_decode(ledger *db, codec_rejection *out, const uint8_t *rec,
                                    size_t rec_len) MENTAT_MUST_CHECK;
/* Stored genesis record (tag + protobuf) -> codec_genesis; pointers borrow
 * from rec. */
int ledger__genesis_record_decode(ledger *db, codec_genesis *out, const uint8_t *rec,
                                  size_t rec_len) MENTAT_MUST_CHECK;
int ledger__genesis_record_encode(ledger *db, uint8_t *out, size_t cap, size_t *len_out,
                                  const codec_genesis *g) MENTAT_MUST_CHECK;

/* Fills a receipt for (room, version, event hash) with its tree head
 * (the root of versions 1..version in txn, time committed_at) and signs it
 * with the current signing key. */
int ledger__receipt_make(ledger *db, ledger_txn *txn, codec_receipt *out, const char *room,
                         uint32_t version, const uint8_t hash[SCHEMA_HASH_BYTES],
                         uint64_t committed_at) MENTAT_MUST_CHECK;
/* ledger__receipt_make without the signature (key_id is the current key's);
 * ledger__receipt_sign adds it. */
int ledger__receipt_fill(ledger *db, ledger_txn *txn, codec_receipt *out, const char *room,
                         uint32_t version, const uint8_t hash[SCHEMA_HASH_BYTES],
                         uint64_t committed_at) MENTAT_MUST_CHECK;
void ledger__receipt_sign(codec_receipt *r, const uint8_t sk[LEDGER_SIGN_SECRET_BYTES]);
/* ledger__receipt_fill with the tree root of `version` already known. */
int ledger__receipt_fill_root(ledger *db, codec_receipt *out, const char *room, uint32_t version,
                              const uint8_t hash[SCHEMA_HASH_BYTES], uint64_t committed_at,
                              const uint8_t root[LEDGER_TREE_HASH_BYTES]) MENTAT_MUST_CHECK;

/* ================================================================ keys */
/* ledger/keys.c */

/* Writes data to dir/name, mode 0600, atomically and never over an
 * existing file (LEDGER_EEXISTS); err (SCHEMA_ERRMSG bytes) gets why. */
int ledger__key_file_write(const char *dir, const char *name, const uint8_t *data, size_t len,
                           char *err) MENTAT_MUST_CHECK;
/* Reads exactly len bytes of dir/name: 1 = read, 0 = absent, or
 * LEDGER_EKEY with err saying why (another size, unreadable). */
int ledger__key_file_read(uint8_t *out, size_t len, const char *dir, const char *name,
                          char *err) MENTAT_MUST_CHECK;
/* Key id: first 4 bytes, big-endian, of BLAKE2b-256(public key). */
uint32_t ledger__key_id(const uint8_t pk[SCHEMA_KEY_BYTES]);
/* The key files' modes (ledger/keyperm.c): LEDGER_EKEY for a signing key
 * open to other users when writing; else 0, with db->warning set for what
 * is only warned of. */
int ledger__keys_perm_check(ledger *db);
/* chmod 700 of a key directory open to other users: 0, or an errno. */
int ledger__keys_dir_tighten(const char *dir);
/* Loads signing.key and audit.key from db->keys_dir when present.
 * A present but unreadable or wrong-sized file is LEDGER_EKEY. */
int ledger__keys_load(ledger *db) MENTAT_MUST_CHECK;
/* Puts the signing and audit keys in `keys` if absent (once per handle);
 * LEDGER_EKEY if their id is taken by a different public key. Called by
 * every write body before it signs. */
int ledger__keys_register(ledger *db, ledger_txn *txn) MENTAT_MUST_CHECK;
/* The Ed25519 public key with id key_id from `keys`: 0, LEDGER_ENOTFOUND,
 * LEDGER_ECORRUPT; an audit key is ENOTFOUND (it cannot sign). */
int ledger__key_public(ledger *db, ledger_txn *txn, uint32_t key_id,
                       uint8_t pk_out[SCHEMA_KEY_BYTES]) MENTAT_MUST_CHECK;
/* Ed25519 signature with the current signing key (LEDGER_EKEY without). */
int ledger__sign(ledger *db, uint8_t sig_out[SCHEMA_SIG_BYTES], const uint8_t *msg,
                 size_t len) MENTAT_MUST_CHECK;
/* 0 if sig is pk's signature of msg, else LEDGER_EBADSIG. No message. */
int ledger__verify_sig(const uint8_t sig[SCHEMA_SIG_BYTES], const uint8_t *msg, size_t len,
                       const uint8_t pk[SCHEMA_KEY_BYTES]) MENTAT_MUST_CHECK;

/* ledger_append_batch with seat_sigs[i] (NULL: none) the seat signature
 * of req[i], as ledger_append_signed takes it, and bind_keys[i] (NULL:
 * none) the key it binds its seat to, as ledger_append_bind takes it;
 * either array may be NULL. */
int ledger__append_batch_signed(ledger *db, ledger_append_result *out, int *rc_out,
                                const ledger_append_req *req, const uint8_t *const *seat_sigs,
                                const uint8_t *const *bind_keys, size_t n) MENTAT_MUST_CHECK;

/* ledger/seat_sig.c: seat signatures. */
/* Reads a public key file of 64 hex digits and an optional newline (not
 * all zero); LEDGER_EKEY with err "PATH is no <what>" otherwise. */
int ledger__public_key_load(uint8_t pk_out[SCHEMA_KEY_BYTES], const char *path, const char *what,
                            char *err) MENTAT_MUST_CHECK;
/* 0 if key may bind seat (of n_seats) where k holds the seats bound so
 * far: a seat of the room, not bound yet, the key no other seat's; else
 * LEDGER_EBADSIG with why (one line). Pure. */
int ledger__seat_bind_check(char *why, size_t why_cap, const ledger_seat_keys *k,
                            unsigned n_seats, uint8_t seat,
                            const uint8_t key[SCHEMA_KEY_BYTES]) MENTAT_MUST_CHECK;
/* 0 if sig (NULL = none) is what k (the seats bound before this action)
 * asks of act acting on `version` (chain hash prev): the bound seat's
 * signature, none for an unbound seat or the engine; or, with bind_key
 * (NULL = none), a binding of act's unbound seat (of n_seats) signed by
 * bind_key (docs/FORMAT.md "Seat binding"); else LEDGER_EBADSIG with why
 * (one line). Pure. */
int ledger__seat_sig_verify(char *why, size_t why_cap, const ledger_seat_keys *k,
                            unsigned n_seats, const char *room, uint32_t version,
                            const uint8_t prev[SCHEMA_HASH_BYTES], const engine_action *act,
                            const uint8_t *sig, const uint8_t *bind_key) MENTAT_MUST_CHECK;
/* The append path's check of the same (the bindings read from txn):
 * LEDGER_EINPUT naming why, so the request fails alone (append.c (A2)). */
int ledger__seat_sig_admit(ledger *db, ledger_txn *txn, const char *room, uint32_t expected,
                           const uint8_t prev[SCHEMA_HASH_BYTES], const engine_action *act,
                           const uint8_t *sig, const uint8_t *bind_key) MENTAT_MUST_CHECK;
/* The seats g binds, as a ledger_seat_keys. */
void ledger__seat_keys_of_genesis(ledger_seat_keys *out, const codec_genesis *g);
/* The seats bound as their players joined (meta seatbind/<room>; bound 0
 * when none): LEDGER_ECORRUPT for a malformed record. */
int ledger__seat_joined_read(ledger *db, ledger_txn *txn, ledger_seat_keys *out,
                             const char *room) MENTAT_MUST_CHECK;
/* Writes that record (deletes it when joined binds none). */
int ledger__seat_joined_put(ledger *db, ledger_txn *txn, const char *room,
                            const ledger_seat_keys *joined) MENTAT_MUST_CHECK;
/* Adds seat -> key to that record (the binding admitted and appended). */
int ledger__seat_bind_record(ledger *db, ledger_txn *txn, const char *room, uint8_t seat,
                             const uint8_t key[SCHEMA_KEY_BYTES]) MENTAT_MUST_CHECK;
/* Every seat of room bound now, at creation or as it joined;
 * *n_seats_out (may be NULL) the room's seats. */
int ledger__seat_bindings(ledger *db, ledger_txn *txn, ledger_seat_keys *out,
                          unsigned *n_seats_out, const char *room) MENTAT_MUST_CHECK;

/* ledger/key_chain.c: the pinned signing key chain. */
#define LEDGER_ENDORSEMENT_BYTES 44 /* "MNTK", predecessor u32, key id u32, public key */
size_t ledger__endorsement_canonical(uint8_t out[LEDGER_ENDORSEMENT_BYTES], uint32_t predecessor,
                                     uint32_t key_id, const uint8_t pk[SCHEMA_KEY_BYTES]);
/* 0 and the key's row in *out if key_id is the chain's first key, was
 * rotated in by a chain of good endorsements from it, or was imported from
 * an archive (a chain of its own); else LEDGER_EBADSIG with the message
 * (two first keys, a key outside the chain, a bad endorsement). */
int ledger__key_chain_check(ledger *db, ledger_txn *txn, codec_key *out,
                            uint32_t key_id) MENTAT_MUST_CHECK;
/* 0 if the handle's signing key may write: it is in the chain, or the
 * ledger has no chain yet (it becomes the first key). LEDGER_EKEY naming
 * both keys for a keys directory that is not the ledger's. */
int ledger__key_chain_admits(ledger *db, ledger_txn *txn) MENTAT_MUST_CHECK;
/* Calls fn on every signing key row of `keys` (audit keys skipped); stops
 * when fn returns non-zero and returns that. */
int ledger__each_signing_key(ledger *db, ledger_txn *txn,
                             int (*fn)(void *ctx, const codec_key *k),
                             void *ctx) MENTAT_MUST_CHECK;

/* ================================================================ rooms */

/* 1 if room is 8 characters of the room alphabet. */
int ledger__room_valid(const char *room);
/* LEDGER_EINPUT with the message every caller gives for a room argument
 * that is not a room code: it says what a code is (codes are upper case). */
int ledger__room_refuse(ledger *db, const char *room);
/* Genesis of room, decoded; pointers borrow from the txn (4).
 * LEDGER_ENOTFOUND, LEDGER_ECORRUPT. */
int ledger__genesis_read(ledger *db, ledger_txn *txn, codec_genesis *out,
                         const char *room) MENTAT_MUST_CHECK;
/* The room's seed: from the cache, else unsealed from the genesis with the
 * audit key, else the revealed seed in meta; checked against the genesis
 * commitment. txn may be NULL (a read txn is opened). LEDGER_EKEY when
 * neither the audit key nor a revealed seed is available. */
int ledger__room_seed(ledger *db, ledger_txn *txn, const char *room,
                      uint8_t seed_out[ENGINE_SEED_BYTES]) MENTAT_MUST_CHECK;
/* 0 if this build folds the rules version g is played by, else fails with
 * `rc` and a message naming both. */
int ledger__rules_check(ledger *db, int rc, const codec_genesis *g);
/* The opening position (version 0) of a genesis: its position if
 * constructed (a fork's sealed position opened with room_key: LEDGER_EKEY
 * when room_key is NULL), else engine_setup with the seed's version-0
 * stream. */
int ledger__opening_state(ledger *db, engine_state *out, const codec_genesis *g,
                          const uint8_t seed[ENGINE_SEED_BYTES],
                          const uint8_t *room_key) MENTAT_MUST_CHECK;
/* ledger__opening_state with the room key read from txn when g's
 * position is sealed (LEDGER_EKEY when this reader cannot open it). */
int ledger__opening_state_in(ledger *db, ledger_txn *txn, engine_state *out,
                             const codec_genesis *g,
                             const uint8_t seed[ENGINE_SEED_BYTES]) MENTAT_MUST_CHECK;

/* ============================================================ heads */

typedef struct ledger_head_rec {
    uint32_t version;              /* 0 = only the genesis */
    uint8_t hash[SCHEMA_HASH_BYTES]; /* hash of event `version` (or the genesis) */
    uint32_t n_rejections;         /* rejections recorded for the room */
    /* The signed tree head: the receipt of `version` (docs/FORMAT.md
     * `heads`); absent in a head an older build wrote. */
    int is_signed;
    uint8_t tree_root[SCHEMA_HASH_BYTES];
    uint64_t tree_time;            /* committed_at of event `version` (created_at at 0) */
    uint32_t key_id;               /* the key that signed it */
    uint8_t signature[SCHEMA_SIG_BYTES];
} ledger_head_rec;

/* The head's signed tree head taken from r, the receipt of its version. */
void ledger__head_sign_as(ledger_head_rec *h, const codec_receipt *r);
/* The receipt a signed head carries (room, version, hash and its tree head). */
void ledger__head_receipt(codec_receipt *out, const char *room, const ledger_head_rec *h);
/* 0 if the head's signed tree head verifies: signed (is_signed), by a key
 * of the ledger's key chain not retired before its tree time, with a good
 * signature; LEDGER_EBADSIG with the reason otherwise (or a read error). */
int ledger__head_sig_check(ledger *db, ledger_txn *txn, const char *room,
                           const ledger_head_rec *h) MENTAT_MUST_CHECK;

int ledger__head_read(ledger *db, ledger_txn *txn, ledger_head_rec *out,
                      const char *room) MENTAT_MUST_CHECK;
int ledger__head_write(ledger *db, ledger_txn *txn, const char *room,
                       const ledger_head_rec *h) MENTAT_MUST_CHECK;

/* ============================================================ events */

/* The stored record (without the version prefix) of (room, version):
 * borrowed until the txn ends (4). LEDGER_ENOTFOUND if absent. */
int ledger__event_read(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                       const uint8_t **rec_out, size_t *len_out) MENTAT_MUST_CHECK;
/* Decoded event (room, version) with prev_hash filled in and its own hash
 * in hash_out (may be NULL). Not signature-checked. The chain is walked
 * from the nearest checkpoint (or the genesis) below version. */
int ledger__event_load(ledger *db, ledger_txn *txn, codec_event *out,
                       uint8_t hash_out[SCHEMA_HASH_BYTES], const char *room,
                       uint32_t version) MENTAT_MUST_CHECK;
/* The chain hash of (room, version) (0 = the genesis hash). */
int ledger__event_hash_at(ledger *db, ledger_txn *txn, uint8_t out[SCHEMA_HASH_BYTES],
                          const char *room, uint32_t version) MENTAT_MUST_CHECK;
/* Opens a new room's duplicates in `events`: puts the version-0 marker (4
 * zero bytes, no record) and makes LMDB hold the room's events in a
 * sub-database of their own from the start (fillers pushed past its
 * inline limit, then deleted). Without it a young room's events sit
 * inline in the main tree, whose pages are never merged once the room
 * outgrows them (docs/FORMAT.md `events`). Call it once when a room is
 * created (room creation, restore); readers skip version 0. */
int ledger__events_init(ledger *db, ledger_txn *txn, const char *room) MENTAT_MUST_CHECK;
/* From the chain hash of version from-1 in hash, walks versions
 * from..to: hash ends as that of `to`, and hashes_out[v - from] (may be
 * NULL) gets each. LEDGER_ECORRUPT for a missing or malformed event. */
int ledger__chain_walk(ledger *db, ledger_txn *txn, uint8_t hash[SCHEMA_HASH_BYTES],
                       uint8_t (*hashes_out)[SCHEMA_HASH_BYTES], const char *room,
                       uint32_t from, uint32_t to) MENTAT_MUST_CHECK;
/* Puts a room's version-0 marker in a DUPSORT database and moves its
 * duplicates to a sub-database of their own (ledger__events_init). */
int ledger__dups_open(ledger *db, ledger_txn *txn, MDB_dbi dbi, const char *room) MENTAT_MUST_CHECK;
/* Appends a stored event record at (room, version) with MDB_APPENDDUP. */
int ledger__event_put(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                      const uint8_t *rec, size_t rec_len) MENTAT_MUST_CHECK;

/* ======================================================== checkpoints */

/* Writes the checkpoint of `st` at (room, version) with the chain hash of
 * that version (compressed with db->cctx). */
/* ============================================================ public views */

/* Writes the public view of st, the state after `version` (hash its chain
 * hash, prev_hash the one before, NULL at 0), when the room keeps views
 * (every version from its creation); e, the room's cache entry or NULL,
 * holds the last view written. */
int ledger__view_put(ledger *db, ledger_txn *txn, ledger_cache_entry *e, const char *room,
                     uint32_t version, const uint8_t *prev_hash,
                     const uint8_t hash[SCHEMA_HASH_BYTES],
                     const engine_state *st) MENTAT_MUST_CHECK;
/* The stored public view after `version`, decoded. LEDGER_ENOTFOUND when
 * the room keeps none. */
int ledger__view_get(ledger *db, ledger_txn *txn, engine_state *out, const char *room,
                     uint32_t version) MENTAT_MUST_CHECK;
/* Checks that versions 0..head each have a view that decodes and, with
 * digests (BLAKE2b-256 of each version's view, as ledger__view_digest),
 * that each is that one; the first bad version in *bad_out. */
int ledger__view_check(ledger *db, ledger_txn *txn, uint32_t *bad_out, const char *room,
                       uint32_t head,
                       const uint8_t (*digests)[ENGINE_DIGEST_BYTES]) MENTAT_MUST_CHECK;
/* BLAKE2b-256 of the canonical encoding of st's public view. */
void ledger__view_digest(uint8_t out[ENGINE_DIGEST_BYTES], const engine_state *st);
/* Splits a full block's bytes into its views, decompressed into raw with
 * dict (the last view of the block before; NULL for a block at a multiple
 * of 1,024, which has none). */
int ledger__view_block_decode(ledger *db, size_t off_out[LEDGER_VIEW_BLOCK],
                              size_t len_out[LEDGER_VIEW_BLOCK], uint8_t *raw, size_t raw_cap,
                              const char *room, uint32_t first, const uint8_t *val,
                              size_t len, const uint8_t *dict,
                              size_t dict_len) MENTAT_MUST_CHECK;

int ledger__checkpoint_put(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                           const uint8_t hash[SCHEMA_HASH_BYTES],
                           const engine_state *st) MENTAT_MUST_CHECK;
/* Decodes the checkpoint value stored under (room, version): the state,
 * its digest checked. A sealed one (tag 0x03) is opened with key, the
 * room key (NULL: LEDGER_EKEY). Uses db->dctx and db->scratch.
 * LEDGER_ECORRUPT. */
int ledger__checkpoint_decode(ledger *db, engine_state *state_out, const char *room,
                              uint32_t version, const uint8_t *val, size_t len,
                              const uint8_t *key) MENTAT_MUST_CHECK;
/* The checkpoint with the largest version <= version: state, its version
 * and chain hash (either out may be NULL). LEDGER_ENOTFOUND if none. The
 * state's digest is checked against the record. A sealed checkpoint's
 * state needs the room key (ledger__room_key): LEDGER_EKEY without it;
 * its version and chain hash are in the clear. */
int ledger__checkpoint_find(ledger *db, ledger_txn *txn, engine_state *state_out,
                            uint32_t *version_out, uint8_t hash_out[SCHEMA_HASH_BYTES],
                            const char *room, uint32_t version) MENTAT_MUST_CHECK;

/* ============================================================ states */

/* The state after `version` of room: cache, else checkpoint + fold (every
 * folded event must be accepted and match its digest). */
int ledger__state_load(ledger *db, ledger_txn *txn, engine_state *out, const char *room,
                       uint32_t version) MENTAT_MUST_CHECK;
/* The cache entry of room, or NULL; a hit refreshes its LRU tick. */
ledger_cache_entry *ledger__cache_find(ledger *db, const char *room);
/* The entry for room, evicting the least recently used (never a dirty one
 * while others are clean). Never NULL. */
ledger_cache_entry *ledger__cache_take(ledger *db, const char *room);
/* Drops the room's entry (after an outside change to the room: restore). */
void ledger__cache_forget(ledger *db, const char *room);

/* ========================================================= Merkle tree */
/* ledger/merkle.c (pure) and ledger/tree.c (the `trees` database). */

/* The hash of leaves [begin, end) (begin < end) into out: 0 or a code. */
typedef int (*ledger__subtree_fn)(void *ctx, uint8_t out[LEDGER_TREE_HASH_BYTES],
                                  uint64_t begin, uint64_t end);
/* RFC 9162 PATH and PROOF from any source of subtree hashes. EINPUT for
 * sizes out of range (index >= size; size1 0 or past size2). */
int ledger__merkle_inclusion(ledger_tree_proof *out, ledger__subtree_fn fn, void *ctx,
                             uint64_t index, uint64_t size) MENTAT_MUST_CHECK;
int ledger__merkle_consistency(ledger_tree_proof *out, ledger__subtree_fn fn, void *ctx,
                               uint64_t size1, uint64_t size2) MENTAT_MUST_CHECK;

/* A compact range (ledger__range, above the room cache): pushes a leaf;
 * with levels non-NULL, levels[l] gets the node of level l that ends at
 * the new size, for l = 0 (the leaf) .. the number of trailing zero bits
 * of the new size (the perfect subtrees the leaf completes). */
void ledger__range_push(ledger__range *r, const uint8_t leaf[LEDGER_TREE_HASH_BYTES],
                        uint8_t (*levels)[LEDGER_TREE_HASH_BYTES]);
void ledger__range_root(const ledger__range *r, uint8_t out[LEDGER_TREE_HASH_BYTES]);

/* Leaves per tree group: the `trees` database keeps, per group of
 * LEDGER_TREE_GROUP events, the chain hash after it and the nodes it
 * completes from level LEDGER_TREE_GROUP_LOG to at most
 * LEDGER_TREE_TOP_LEVEL (a record stays under LMDB's 511-byte dup limit). */
#define LEDGER_TREE_GROUP_LOG 3
#define LEDGER_TREE_GROUP (1u << LEDGER_TREE_GROUP_LOG)
#define LEDGER_TREE_TOP_LEVEL 16

/* The root of the room's first `size` events (size <= the room's events
 * in txn). */
int ledger__tree_root(ledger *db, ledger_txn *txn, uint8_t out[LEDGER_TREE_HASH_BYTES],
                      const char *room, uint32_t size) MENTAT_MUST_CHECK;
/* Called once event `version` (with chain hash `hash`) is put: when it
 * completes a group, writes the group's records. */
int ledger__tree_extend(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                        const uint8_t hash[SCHEMA_HASH_BYTES]) MENTAT_MUST_CHECK;
/* The compact range of the room's first `size` events, from `trees`. */
int ledger__tree_range(ledger *db, ledger_txn *txn, ledger__range *out, const char *room,
                       uint32_t size) MENTAT_MUST_CHECK;
/* ledger__tree_extend for the append path: `range` is the room's tree of
 * version - 1 events; pushes the event's leaf onto it, writes the group's
 * records from the nodes the push made (when it completes a group), and
 * sets root_out to the new root. No event is read. */
int ledger__tree_append(ledger *db, ledger_txn *txn, ledger__range *range,
                        uint8_t root_out[LEDGER_TREE_HASH_BYTES], const char *room,
                        uint32_t version, const uint8_t hash[SCHEMA_HASH_BYTES]) MENTAT_MUST_CHECK;
/* 0 if the room's tree of size2 (<= its events in txn) extends the tree
 * (size1, root1), shown by a consistency proof made from txn and checked
 * as any seat would; LEDGER_EBADSIG if it does not. */
int ledger__tree_consistent(ledger *db, ledger_txn *txn, const char *room, uint32_t size1,
                            const uint8_t root1[LEDGER_TREE_HASH_BYTES],
                            uint32_t size2) MENTAT_MUST_CHECK;
/* 0 if the event hash `hash` is leaf version - 1 of the tree (size,
 * root), shown by an inclusion proof made from txn and checked as any seat
 * would; LEDGER_EBADSIG if it is not. */
int ledger__tree_included(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                          const uint8_t hash[SCHEMA_HASH_BYTES], uint32_t size,
                          const uint8_t root[LEDGER_TREE_HASH_BYTES]) MENTAT_MUST_CHECK;
/* Opens a new room's duplicates in `trees` (as ledger__events_init). */
int ledger__trees_init(ledger *db, ledger_txn *txn, const char *room) MENTAT_MUST_CHECK;

/* ============================================================ archives */
/* ledger/archive.c: the archive file (docs/FORMAT.md, "Archives"). */

#define LEDGER_ARCHIVE_MAGIC "MENTATA\x01"  /* the file's first 8 bytes */
#define LEDGER_ARCHIVE_MAGIC_BYTES 8
#define LEDGER_ARCHIVE_VERSION 1            /* ArchiveHeader.format_version */
#define LEDGER_ARCHIVE_RECORD_MAX ((size_t)1 << 20) /* one record, bytes */
#define LEDGER_ARCHIVE_DATA_MAX ((size_t)1 << 30)   /* all records, decompressed */
#define LEDGER_ARCHIVE_KEYS_MAX 4096                /* key records in one archive */

typedef struct ledger_archive_span {
    size_t off;                    /* offset of the bytes in ledger_archive.data */
    size_t len;                    /* their length */
} ledger_archive_span;

/* An archive whose framing holds (magic, one checksummed zstd frame,
 * records in order, trailer count and digest, file digest), whose keys
 * carry their own ids and whose event records decode with versions 1..n:
 * what ledger__archive_read checks. Nothing is verified beyond that (the
 * genesis, the signatures, the chain, the seed): ledger_restore does. */
typedef struct ledger_archive {
    uint8_t *data;                 /* the decompressed records; owned */
    size_t data_len;               /* bytes in data */
    char room[SCHEMA_ROOM_CHARS + 1]; /* the header's room, a valid code */
    uint64_t created_at;           /* when the archive was written, unix ms */
    codec_key *keys;               /* the key records, ascending key_id, each
                                      id that of its public key; owned */
    size_t n_keys;
    ledger_archive_span genesis;   /* the stored genesis record */
    ledger_archive_span *events;   /* events[v - 1]: the stored record of version v; owned */
    uint32_t n_events;             /* event records, equal to the header's count */
    int has_seed;                  /* 1 = the archive carries the revealed seed */
    uint8_t seed[ENGINE_SEED_BYTES]; /* the revealed seed if has_seed (unchecked) */
    int has_room_key;              /* 1 = the archive carries the room key's record */
    uint8_t room_key[LEDGER_ROOM_KEY_RECORD_BYTES]; /* as `meta` roomkey/<room> holds it */
    int has_sealed_seed;           /* 1 = the archive carries a resealed room's seed record */
    uint8_t sealed_seed[LEDGER_SEAL_RECORD_BYTES]; /* as `meta` seal/<room> holds it (unchecked) */
    int has_revealed_room_key;     /* 1 = and the room key revealed (unchecked) */
    uint8_t revealed_room_key[LEDGER_ROOM_KEY_BYTES];
    int has_head;                  /* 1 = the archive carries the signed tree head */
    codec_receipt head;            /* of version n_events, its room's (signature unchecked) */
} ledger_archive;

/* Reads the archive at path and checks its framing; *out is zeroed first
 * and must be released with ledger__archive_free whatever the result.
 * LEDGER_ECORRUPT (bad magic, zstd error, truncation, bad record or order,
 * trailing bytes, a size past the caps), LEDGER_EBADSIG (the trailer or
 * the file digest),
 * LEDGER_EINPUT (an archive format this build does not know), or an errno
 * code (LEDGER_ENOTFOUND if there is no file). Uses db->dctx and db's
 * message; touches no transaction. */
int ledger__archive_read(ledger *db, ledger_archive *out, const char *path) MENTAT_MUST_CHECK;
void ledger__archive_free(ledger_archive *a);

/* The Key record of key_id: from `keys` (*is_stored_out 1), else built
 * from the handle's own signing or audit key (*is_stored_out 0).
 * LEDGER_ENOTFOUND if neither has it, LEDGER_ECORRUPT. */
int ledger__key_record(ledger *db, ledger_txn *txn, codec_key *out, uint32_t key_id,
                       int *is_stored_out) MENTAT_MUST_CHECK;

/* ledger/reveal.c: the `meta` key of a room's revealed seed,
 * LEDGER_META_REVEAL_PREFIX then the room's 8 characters. */
#define LEDGER_REVEAL_KEY_BYTES (sizeof LEDGER_META_REVEAL_PREFIX - 1 + SCHEMA_ROOM_CHARS)
void ledger__reveal_key(uint8_t out[LEDGER_REVEAL_KEY_BYTES], const char *room);

/* ========================================================= small helpers */

static inline void ledger__be32_put(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline uint32_t ledger__be32_get(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void ledger__be64_put(uint8_t *p, uint64_t v)
{
    ledger__be32_put(p, (uint32_t)(v >> 32));
    ledger__be32_put(p + 4, (uint32_t)v);
}

static inline uint64_t ledger__be64_get(const uint8_t *p)
{
    return (uint64_t)ledger__be32_get(p) << 32 | ledger__be32_get(p + 4);
}

#endif
