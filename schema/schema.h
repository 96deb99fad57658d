/*
 * schema.h - the codec between wire bytes (schema/mentat.proto, action JSON)
 * and the engine's plain C types.
 *
 * Decoding is strict: an unknown action kind, an out-of-range enum value, a
 * missing required field or a wrong-length byte field is SCHEMA_EDECODE
 * with a message naming the field; never a default. Nothing here signs,
 * hashes or stores: the codec only translates.
 */
#ifndef MENTAT_SCHEMA_H
#define MENTAT_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

#if defined(__GNUC__)
#define MENTAT_MUST_CHECK __attribute__((warn_unused_result))
#else
#define MENTAT_MUST_CHECK
#endif

#define SCHEMA_OK 0
#define SCHEMA_ERROR (-30500)      /* anything else (allocation) */
#define SCHEMA_EDECODE (-30501)    /* the bytes or text are not a valid message */
#define SCHEMA_ESPACE (-30502)     /* the output buffer is too small */

#define SCHEMA_ROOM_CHARS 8
#define SCHEMA_HASH_BYTES 32
#define SCHEMA_SIG_BYTES 64
#define SCHEMA_KEY_BYTES 32
#define SCHEMA_SEALED_SEED_BYTES 80  /* crypto_box_SEALBYTES + 32 */
/* A sealed action: nonce 24, the canonical action (2 + 2 * n_args bytes,
 * at most 18) and a detail value (4), tag 16. */
#define SCHEMA_SEALED_ACTION_MIN (24 + 2 + 4 + 16)
#define SCHEMA_SEALED_ACTION_MAX (24 + 2 + 2 * ENGINE_ACTION_MAX_ARGS + 4 + 16)
/* An event's sealed action (format 3): nonce 24, the canonical action, tag
 * 16; no detail value. */
#define SCHEMA_SEALED_EVENT_MIN (24 + 2 + 16)
#define SCHEMA_SEALED_EVENT_MAX (24 + 2 + 2 * ENGINE_ACTION_MAX_ARGS + 16)
#define SCHEMA_ERRMSG 160            /* size of an error message buffer */
#define SCHEMA_MAX_MODULES 8

/* Error messages: every decode function takes `err` (may be NULL) of
 * SCHEMA_ERRMSG bytes and writes one line naming the field on failure. */

/* ------------------------------------------------------------- actions */

/* Action <-> engine_action (kind and args; the seat travels outside). */
int codec_action_encode(uint8_t *out, size_t cap, size_t *len_out,
                        const engine_action *act) MENTAT_MUST_CHECK;
int codec_action_decode(engine_action *out, const uint8_t *in, size_t len,
                        char *err) MENTAT_MUST_CHECK;

/* Action JSON: {"kind":"storm_dial","value":7}. Field names and value
 * names come from the engine's action table (engine_action_spec_of):
 * factions, leaders and territories by slug, locations as
 * {"territory":"…","sector":N} or their index, plain numbers as numbers.
 * Unknown or duplicate fields, missing fields and trailing bytes are
 * errors. The seat is not part of the JSON. */
int codec_action_from_json(engine_action *out, const char *json, size_t len,
                           char *err) MENTAT_MUST_CHECK;
/* Writes NUL-terminated JSON; SCHEMA_ESPACE if cap is too small. */
int codec_action_to_json(char *out, size_t cap, const engine_action *act);

/* -------------------------------------------------------------- records */

typedef struct codec_genesis {
    uint32_t format_version;
    char room[SCHEMA_ROOM_CHARS + 1];          /* NUL-terminated */
    engine_config config;                      /* seats, rules, modules, turn limit, constructed,
                                                  rules version */
    uint8_t seed_commitment[SCHEMA_HASH_BYTES];
    uint8_t sealed_seed[SCHEMA_SEALED_SEED_BYTES];
    uint32_t audit_key_id;
    uint32_t key_id;
    uint64_t created_at;                       /* unix ms */
    const uint8_t *position;                   /* constructed only: borrowed, from the decoded input */
    size_t position_len;
    uint8_t signature[SCHEMA_SIG_BYTES];
    int is_fork;                               /* 1 = forked from fork_room (constructed) */
    int is_position_sealed;                    /* 1 = a fork's position, sealed with its room
                                                  key (nonce || ciphertext || tag) */
    char fork_room[SCHEMA_ROOM_CHARS + 1];     /* the room it was taken from, NUL-terminated */
    uint32_t fork_version;                     /* the version of fork_room it starts from */
    uint8_t fork_hash[SCHEMA_HASH_BYTES];      /* chain hash of that version in fork_room */
    uint16_t seat_bound;                       /* bit s: seat s is bound to seat_key[s]; 0 none */
    uint8_t seat_key[ENGINE_MAX_SEATS][SCHEMA_KEY_BYTES]; /* Ed25519 public keys of bound seats */
} codec_genesis;

typedef struct codec_event {
    uint32_t version;
    int has_prev_hash;
    uint8_t prev_hash[SCHEMA_HASH_BYTES];
    uint8_t seat;                              /* engine seat index, or ENGINE_SEAT_ENGINE */
    engine_action action;                      /* action.seat == seat */
    uint64_t committed_at;                     /* unix ms */
    uint8_t state_digest[SCHEMA_HASH_BYTES];
    int has_signature;                         /* 1 = format 1: the ledger signed it (key_id, signature); 0 = format 2 */
    uint32_t key_id;                           /* format 1 only */
    uint8_t signature[SCHEMA_SIG_BYTES];       /* format 1 only */
    int has_seat_signature;                    /* 1 = the acting seat signed (a bound seat) */
    uint8_t seat_signature[SCHEMA_SIG_BYTES];  /* Ed25519 by the seat's key (docs/FORMAT.md) */
    int has_bind_key;                          /* 1 = this event binds its seat to bind_key */
    uint8_t bind_key[SCHEMA_KEY_BYTES];        /* Ed25519 public key (with a seat signature) */
    size_t sealed_len;                         /* 0, or format 3: bytes in sealed_action */
    uint8_t sealed_action[SCHEMA_SEALED_EVENT_MAX]; /* nonce || ciphertext || tag */
    int is_sealed;                             /* 1 = action's secret arguments are 0, still
                                                  sealed (set by the ledger's readers, never
                                                  encoded) */
} codec_event;

typedef struct codec_rejection {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint8_t seat;                              /* engine seat index */
    uint32_t expected_version;
    engine_action action;
    uint32_t reason;                           /* engine_verdict */
    int32_t detail_arg;
    int32_t detail_value;
    uint64_t at;                               /* unix ms */
    size_t sealed_len;                         /* 0 = none; else bytes in sealed_action */
    uint8_t sealed_action[SCHEMA_SEALED_ACTION_MAX]; /* nonce || ciphertext || tag */
} codec_rejection;

typedef struct codec_receipt {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t version;
    uint8_t event_hash[SCHEMA_HASH_BYTES];
    uint32_t key_id;
    uint8_t signature[SCHEMA_SIG_BYTES];
    int has_tree_head;                         /* 1 = signed with the tree head below */
    uint8_t tree_root[SCHEMA_HASH_BYTES];      /* Merkle root of versions 1..version */
    uint64_t tree_time;                        /* committed_at of the event, unix ms */
} codec_receipt;

typedef struct codec_checkpoint {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t version;
    const uint8_t *state;                      /* borrowed from the decoded input */
    size_t state_len;
    uint8_t state_digest[SCHEMA_HASH_BYTES];
} codec_checkpoint;

typedef struct codec_key {
    uint32_t key_id;
    uint8_t public_key[SCHEMA_KEY_BYTES];
    uint64_t created_at;
    uint64_t retired_at;                       /* 0 = active */
    int is_audit;
    int has_predecessor;                       /* 1 = rotated in: the two below are set */
    uint32_t predecessor;                      /* the key it replaced */
    uint8_t endorsement[SCHEMA_SIG_BYTES];     /* the predecessor's signature of the rotation */
    int is_imported;                           /* 1 = taken from an archive's keys */
} codec_key;

typedef enum codec_archive_kind {
    CODEC_ARCHIVE_HEADER = 1,
    CODEC_ARCHIVE_KEY,
    CODEC_ARCHIVE_GENESIS,
    CODEC_ARCHIVE_EVENT,
    CODEC_ARCHIVE_REVEALED_SEED,
    CODEC_ARCHIVE_TRAILER,
    CODEC_ARCHIVE_HEAD,                        /* ArchiveRecord field 800 */
    CODEC_ARCHIVE_ROOM_KEY,                    /* field 1100: the sealed room key record */
    CODEC_ARCHIVE_REVEALED_ROOM_KEY,           /* field 1101: the room key, revealed */
    CODEC_ARCHIVE_SEALED_SEED                  /* field 1260: a resealed room's seed record */
} codec_archive_kind;

typedef struct codec_archive_record {
    uint8_t kind;                              /* codec_archive_kind */
    /* HEADER */
    uint32_t format_version;
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t n_events;
    uint64_t created_at;
    /* KEY */
    codec_key key;
    /* GENESIS, EVENT, ROOM_KEY, SEALED_SEED: borrowed bytes of the stored record */
    const uint8_t *bytes;
    size_t bytes_len;
    /* REVEALED_SEED, REVEALED_ROOM_KEY (as long) */
    uint8_t seed[ENGINE_SEED_BYTES];
    /* TRAILER */
    uint32_t n_records;
    uint8_t digest[SCHEMA_HASH_BYTES];
    /* HEAD: the signed tree head of the last event, with its tree head */
    codec_receipt head;
} codec_archive_record;

/* Each encoder writes the protobuf bytes into out[0..cap) and sets
 * *len_out (SCHEMA_ESPACE if they do not fit; *len_out then says how many
 * are needed). Each decoder validates everything; pointers it returns
 * borrow from `in`. */
int codec_genesis_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_genesis *g) MENTAT_MUST_CHECK;
int codec_genesis_decode(codec_genesis *out, const uint8_t *in, size_t len, char *err) MENTAT_MUST_CHECK;
/* with_prev_hash 0 drops prev_hash, as events are stored. */
int codec_event_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_event *ev,
                       int with_prev_hash) MENTAT_MUST_CHECK;
int codec_event_decode(codec_event *out, const uint8_t *in, size_t len, char *err) MENTAT_MUST_CHECK;
int codec_rejection_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_rejection *r) MENTAT_MUST_CHECK;
int codec_rejection_decode(codec_rejection *out, const uint8_t *in, size_t len, char *err) MENTAT_MUST_CHECK;
int codec_receipt_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_receipt *r) MENTAT_MUST_CHECK;
int codec_receipt_decode(codec_receipt *out, const uint8_t *in, size_t len, char *err) MENTAT_MUST_CHECK;
int codec_checkpoint_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_checkpoint *c) MENTAT_MUST_CHECK;
int codec_checkpoint_decode(codec_checkpoint *out, const uint8_t *in, size_t len, char *err) MENTAT_MUST_CHECK;
int codec_key_encode(uint8_t *out, size_t cap, size_t *len_out, const codec_key *k) MENTAT_MUST_CHECK;
int codec_key_decode(codec_key *out, const uint8_t *in, size_t len, char *err) MENTAT_MUST_CHECK;
int codec_archive_record_encode(uint8_t *out, size_t cap, size_t *len_out,
                                const codec_archive_record *r) MENTAT_MUST_CHECK;
int codec_archive_record_decode(codec_archive_record *out, const uint8_t *in, size_t len,
                                char *err) MENTAT_MUST_CHECK;

/* ----------------------------------------------------------------- JSON */

/* A small strict JSON reader (RFC 8259), no allocation: the caller gives
 * the token array. Used for action JSON and scenario files. */
typedef enum codec_json_type {
    CODEC_JSON_NULL = 0,
    CODEC_JSON_BOOL,
    CODEC_JSON_NUMBER,
    CODEC_JSON_STRING,
    CODEC_JSON_ARRAY,
    CODEC_JSON_OBJECT
} codec_json_type;

typedef struct codec_json_token {
    uint8_t type;                  /* codec_json_type */
    uint32_t start, end;           /* byte span in the text; strings without quotes */
    uint32_t size;                 /* array: elements; object: members */
    uint32_t next;                 /* index of the token after this value and its children */
} codec_json_token;

/* Tokenises `text`: returns the number of tokens (the first is the root),
 * or SCHEMA_EDECODE (with err naming the byte offset) or SCHEMA_ESPACE. */
int codec_json_parse(codec_json_token *tok, size_t cap, const char *text, size_t len,
                     char *err) MENTAT_MUST_CHECK;
/* Index of the value token of member `key` of object token `obj` (the
 * first such member), or -1 if there is none or `obj` is no object. */
int codec_json_member(const codec_json_token *tok, int obj, const char *text, const char *key);
/* Integer value of a number token: 0, or SCHEMA_EDECODE if not an integer
 * in [INT64_MIN, INT64_MAX]. */
int codec_json_int(int64_t *out, const codec_json_token *t, const char *text) MENTAT_MUST_CHECK;
/* Copies an unescaped string token into out (NUL-terminated): 0, or
 * SCHEMA_ESPACE / SCHEMA_EDECODE. */
int codec_json_string(char *out, size_t cap, const codec_json_token *t, const char *text) MENTAT_MUST_CHECK;
/* 1 if string token `t`, its escapes decoded, equals `s` exactly. */
int codec_json_eq(const codec_json_token *t, const char *text, const char *s);
/* A string token of exactly 2n hex digits (either case) into out[0..n):
 * 0, or SCHEMA_EDECODE (another type or length, a non-hex digit). */
int codec_json_hex(uint8_t *out, size_t n, const codec_json_token *t,
                   const char *text) MENTAT_MUST_CHECK;

#endif
