/*
 * archive.c - the archive file: one room (its genesis, the public keys
 * that signed it, every event, the seed if revealed) in a single
 * self-checking file. Writes them (ledger_backup_room, ledger_backup_all,
 * which also copies the whole LMDB file) and reads their framing for
 * ledger_restore (ledger/restore.c, which verifies what is inside).
 *
 * Part of ledger/. The writer only reads the ledger; the reader touches no
 * transaction at all. The reader must never trust a byte of the file: no
 * length is used before it is checked against what has been read, and no
 * input, however made, may crash it or make it read out of bounds.
 *
 * The format (docs/FORMAT.md, "Archives", says the same):
 *
 *   off  len  field
 *     0    8  magic "MENTATA\x01" (4D 45 4E 54 41 54 41 01); the last byte
 *             is the container version
 *     8    n  one zstd frame (RFC 8878): content checksum on, no
 *             dictionary, window at most 8 MiB (windowLog 23; this writer
 *             uses 21)
 *   8+n   40  one zstd skippable frame holding the file digest:
 *             50 2A 4D 18 (magic 0x184D2A50, little-endian), 20 00 00 00
 *             (32, little-endian), then BLAKE2b-256 (unkeyed) of bytes
 *             [0, 8+n): the magic and the frame
 *   nothing may follow. (Without the 8-byte magic the file is a plain zstd
 *   stream: `tail -c +9 F | zstd -d` shows the records.)
 *
 *   The frame's content is a sequence of records, each
 *     uvarint  length L, 1 <= L <= 1 MiB (LEB128, least significant group
 *              first, minimal: at most 3 bytes, no trailing zero group)
 *     L bytes  an ArchiveRecord protobuf (schema/mentat.proto), strict
 *   in this order and no other:
 *     1  header         format_version 1, room, n_events, created_at
 *                       (unix ms when the archive was written)
 *     2  key, 1 or more the public keys (Key) of every key id the genesis
 *                       and the events name, and of every key that rotated
 *                       one of those in, back to the chain's first;
 *                       ascending key_id, each id that of its own public
 *                       key; the genesis's audit key is included when the
 *                       ledger knows it
 *     3  genesis        the stored genesis record, byte for byte (tag 0x01
 *                       then the Genesis protobuf)
 *     4  event x n      the stored event records of versions 1..n in
 *                       order, byte for byte (tag 0x01 then the Event
 *                       protobuf without prev_hash); n = header n_events
 *     5  head           the signed tree head of version n (a Receipt with
 *                       its tree head), when the room's head is signed and
 *                       n > 0; events of format 2 are authenticated by it
 *     6  revealed_seed  only if the room's seed was revealed (32 bytes)
 *     7  room_key       the room key's `meta` record, sealed to the audit
 *                       key, as it is (84 bytes), for a room with one: it
 *                       opens the events of format 3
 *    10  sealed_seed    only for a resealed room (`room reseal`): its
 *                       `meta` seal/<room> record as it is (84 bytes: the
 *                       audit key id, the seed sealed to that key), which
 *                       a reader opens in place of the genesis's seal
 *     8  revealed_room_key  only if the room key was revealed (32 bytes)
 *     9  trailer        n_records = the number of records before it;
 *                       digest = BLAKE2b-256 (32 bytes, unkeyed) of every
 *                       byte of the content before the trailer's own
 *                       length prefix (the prefixes and the records)
 *   and nothing after the trailer.
 *
 * Invariants:
 * (1) Nothing half-written: a file is written to a temporary beside its
 *     target, fsynced, renamed over it, and the directory fsynced; on any
 *     failure the temporary is removed.
 * (2) Every byte is covered: the file digest covers the magic and the
 *     compressed frame, the zstd checksum and the trailer digest cover the
 *     content, and nothing may follow the digest or the trailer. So one
 *     changed byte anywhere is refused. The content checksums alone would
 *     not do: zstd ignores some bits of a frame (a window descriptor
 *     larger than needed, the unused descriptor bit, the padding nibble of
 *     directly stored Huffman weights), so a change there decodes to the
 *     same content.
 * (3) Memory is bounded: a record is at most 1 MiB, the content at most
 *     1 GiB, the zstd window at most 8 MiB, the keys at most 4096, and
 *     only event records that decode are indexed (16 bytes of index for
 *     at least ~100 of record). Records are parsed as the frame
 *     decompresses, so malformed content is refused as soon as it is
 *     seen, not after the whole file has been inflated.
 * (4) The reader checks the framing (sizes, order, the trailer, the file
 *     digest), that each key's id is its own, and that each event record
 *     decodes with the next version; the genesis, the signatures, the
 *     chain and the seed are restore.c's to verify.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ledger/internal.h"

#define ZSTD_LEVEL 3
#define ZSTD_WINDOW_LOG 21           /* what we write */
#define ZSTD_WINDOW_LOG_MAX 23       /* what we read */
#define DIGEST_FRAME_BYTES (8 + SCHEMA_HASH_BYTES)
#define UVARINT_MAX_BYTES 3          /* 1 MiB needs 21 bits */
#define DATA_INITIAL ((size_t)64 << 10)
#define COPY_NAME "mentat.db"

_Static_assert(sizeof LEDGER_ARCHIVE_MAGIC - 1 == LEDGER_ARCHIVE_MAGIC_BYTES, "8-byte magic");
_Static_assert(LEDGER_ARCHIVE_RECORD_MAX < (size_t)1 << (7 * UVARINT_MAX_BYTES),
               "a record length fits the uvarint");

/* The zstd frame magic, 0xFD2FB528 little-endian. */
static const uint8_t zstd_magic[4] = {0x28, 0xB5, 0x2F, 0xFD};
/* (2): the skippable frame that holds the file digest, before the digest. */
static const uint8_t digest_frame[8] = {0x50, 0x2A, 0x4D, 0x18, SCHEMA_HASH_BYTES, 0, 0, 0};

/* ========================================================== file helpers */

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Reads up to n bytes, fewer only at the end of the file: bytes read, or
 * -1 with errno set. */
static ssize_t read_full(int fd, uint8_t *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/* ================================================================ writer */

typedef struct writer {
    crypto_generichash_state hash; /* over the content before the trailer */
    crypto_generichash_state file; /* (2) over the magic and the frame */
    ledger *db;                    /* whose cctx compresses */
    int fd;                        /* the temporary file */
    uint32_t n_records;            /* records written before the trailer */
    uint8_t *rec;                  /* room for a uvarint and one record; owned */
    uint8_t *out;                  /* compressed output; owned */
    size_t out_cap;                /* bytes at out */
} writer;

/* Writes bytes of the file, digesting them (2). */
static int writer_emit(writer *w, const uint8_t *p, size_t n)
{
    int rc = ledger__fault_hit(w->db);
    if (rc == 0)
        rc = write_all(w->fd, p, n);
    if (rc != 0)
        return ledger__fail(w->db, rc, "cannot write the archive: %s", strerror(rc));
    crypto_generichash_update(&w->file, p, n);
    return 0;
}

static int writer_compress(writer *w, const uint8_t *p, size_t n, ZSTD_EndDirective end)
{
    ZSTD_inBuffer in = {p, n, 0};
    for (;;) {
        ZSTD_outBuffer out = {w->out, w->out_cap, 0};
        size_t r = ZSTD_compressStream2(w->db->cctx, &out, &in, end);
        if (ZSTD_isError(r))
            return ledger__fail(w->db, LEDGER_ERROR, "zstd: %s", ZSTD_getErrorName(r));
        if (out.pos > 0) {
            int rc = writer_emit(w, w->out, out.pos);
            if (rc != 0)
                return rc;
        }
        if (end == ZSTD_e_end ? r == 0 : in.pos == in.size)
            return 0;
    }
}

/* Appends one record: its uvarint length, then its bytes. */
static int writer_put(writer *w, const codec_archive_record *r)
{
    uint8_t *body = w->rec + UVARINT_MAX_BYTES;
    size_t len = 0;
    int rc = codec_archive_record_encode(body, LEDGER_ARCHIVE_RECORD_MAX, &len, r);
    if (rc == SCHEMA_ESPACE)
        return ledger__fail(w->db, LEDGER_ERROR, "an archive record of %zu bytes is over the "
                            "format's 1 MiB", len);
    if (rc != 0)
        return ledger__fail(w->db, LEDGER_ERROR, "archive record of kind %u does not encode (%d)",
                            (unsigned)r->kind, rc);
    uint8_t prefix[UVARINT_MAX_BYTES];
    size_t k = 0;
    for (size_t v = len; k == 0 || v > 0; v >>= 7)
        prefix[k++] = (uint8_t)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
    uint8_t *start = body - k;
    memcpy(start, prefix, k);
    if (r->kind != CODEC_ARCHIVE_TRAILER) {
        crypto_generichash_update(&w->hash, start, k + len);
        w->n_records++;
    }
    return writer_compress(w, start, k + len, ZSTD_e_continue);
}

/* The trailer, the end of the frame, then the file digest. */
static int writer_finish(writer *w)
{
    codec_archive_record r;
    uint8_t tail[DIGEST_FRAME_BYTES];
    memset(&r, 0, sizeof r);
    r.kind = CODEC_ARCHIVE_TRAILER;
    r.n_records = w->n_records;
    crypto_generichash_final(&w->hash, r.digest, SCHEMA_HASH_BYTES);
    int rc = writer_put(w, &r);
    if (rc == 0)
        rc = writer_compress(w, NULL, 0, ZSTD_e_end);
    if (rc != 0)
        return rc;
    memcpy(tail, digest_frame, sizeof digest_frame);
    crypto_generichash_final(&w->file, tail + sizeof digest_frame, SCHEMA_HASH_BYTES);
    return writer_emit(w, tail, sizeof tail);
}

static int writer_init(writer *w, ledger *db, int fd)
{
    memset(w, 0, sizeof *w);
    w->db = db;
    w->fd = fd;
    w->out_cap = ZSTD_CStreamOutSize();
    w->rec = malloc(UVARINT_MAX_BYTES + LEDGER_ARCHIVE_RECORD_MAX);
    w->out = malloc(w->out_cap);
    if (w->rec == NULL || w->out == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory");
    crypto_generichash_init(&w->hash, NULL, 0, SCHEMA_HASH_BYTES);
    crypto_generichash_init(&w->file, NULL, 0, SCHEMA_HASH_BYTES);
    ZSTD_CCtx *c = db->cctx;
    size_t z = ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
    if (!ZSTD_isError(z))
        z = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, ZSTD_LEVEL);
    if (!ZSTD_isError(z))
        z = ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, ZSTD_WINDOW_LOG);
    if (!ZSTD_isError(z))
        z = ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    if (ZSTD_isError(z))
        return ledger__fail(db, LEDGER_ERROR, "zstd: %s", ZSTD_getErrorName(z));
    return writer_emit(w, (const uint8_t *)LEDGER_ARCHIVE_MAGIC, LEDGER_ARCHIVE_MAGIC_BYTES);
}

static void writer_release(writer *w)
{
    /* The shared context goes back to its defaults for the next user. */
    ZSTD_CCtx_reset(w->db->cctx, ZSTD_reset_session_and_parameters);
    free(w->rec);
    free(w->out);
    w->rec = w->out = NULL;
}

/* ================================================================ backup */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The key ids a room names, distinct (sorted once gathered). */
typedef struct key_ids {
    uint32_t *id;                  /* owned */
    size_t n;                      /* ids in id */
    size_t cap;                    /* room in id */
} key_ids;

static int key_ids_add(ledger *db, key_ids *k, uint32_t id)
{
    for (size_t i = 0; i < k->n; i++)
        if (k->id[i] == id)
            return 0;
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 8;
        uint32_t *p = realloc(k->id, cap * sizeof *p);
        if (p == NULL)
            return ledger__fail(db, LEDGER_ERROR, "out of memory");
        k->id = p;
        k->cap = cap;
    }
    k->id[k->n++] = id;
    return 0;
}

int ledger__key_record(ledger *db, ledger_txn *txn, codec_key *out, uint32_t key_id,
                       int *is_stored_out)
{
    uint8_t kbuf[4];
    char err[SCHEMA_ERRMSG] = "";
    ledger__be32_put(kbuf, key_id);
    MDB_val k = {sizeof kbuf, kbuf}, v;
    *is_stored_out = 0;
    memset(out, 0, sizeof *out);
    int rc = ledger__get(txn, db->dbi_keys, &k, &v);
    if (rc == 0) {
        const uint8_t *p = v.mv_data;
        if (v.mv_size < 2 || p[0] != LEDGER_TAG_PROTOBUF)
            return LEDGER_CORRUPT_MSG(db, "key %08x: bad record", key_id);
        if (codec_key_decode(out, p + 1, v.mv_size - 1, err) != 0)
            return LEDGER_CORRUPT_MSG(db, "key %08x: %s", key_id, err);
        if (out->key_id != key_id || ledger__key_id(out->public_key) != key_id)
            return LEDGER_CORRUPT_MSG(db, "key %08x: stored under the wrong id", key_id);
        *is_stored_out = 1;
        return 0;
    }
    if (rc != MDB_NOTFOUND)
        return rc;
    out->key_id = key_id;
    if (db->has_signing_key && key_id == db->key_id) {
        memcpy(out->public_key, db->signing_pk, SCHEMA_KEY_BYTES);
        out->created_at = db->key_created_at;
        return 0;
    }
    if (db->has_audit_key && key_id == db->audit_key_id) {
        memcpy(out->public_key, db->audit_pk, SCHEMA_KEY_BYTES);
        out->is_audit = 1;
        return 0;
    }
    return ledger__fail(db, LEDGER_ENOTFOUND, "no key %08x in the ledger", key_id);
}

/* Adds to k the keys that rotated in the signing keys k names, back to the
 * chain's first: a restored room's signatures verify only along its whole
 * chain (ledger/key_chain.c), so the archive carries every link. A key the
 * ledger does not hold ends the walk; the archive's reader names it. */
static int key_ids_add_chain(ledger *db, ledger_txn *txn, key_ids *k)
{
    for (size_t i = 0; i < k->n && i < LEDGER_ARCHIVE_KEYS_MAX; i++) { /* k grows as it goes */
        codec_key key;
        int is_stored;
        int rc = ledger__key_record(db, txn, &key, k->id[i], &is_stored);
        if (rc == LEDGER_ENOTFOUND)
            continue;
        if (rc != 0)
            return rc;
        if (!key.is_audit && key.has_predecessor && (rc = key_ids_add(db, k, key.predecessor)) != 0)
            return rc;
    }
    return 0;
}

typedef struct backup {
    ledger *db;                    /* the ledger read */
    ledger_txn txn;                /* read: one snapshot for the whole archive */
    const char *room;              /* the room archived */
    const uint8_t *genesis;        /* its stored genesis record, borrowed from txn */
    size_t genesis_len;            /* bytes at genesis */
    codec_genesis g;               /* the genesis decoded (borrows from txn) */
    uint32_t n_events;             /* the head version */
    ledger_head_rec head;          /* the room's head, its signed tree head if is_signed */
    key_ids keys;                  /* every key id the room names */
    int has_seed;                  /* 1 = the seed was revealed */
    uint8_t seed[ENGINE_SEED_BYTES]; /* the revealed seed if has_seed */
} backup;

/* Reads what the header and key records need: the genesis, the head, the
 * key ids of every event, the revealed seed. */
static int backup_gather(backup *b)
{
    ledger *db = b->db;
    ledger_head_rec *head = &b->head;
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)b->room}, v;
    int rc = ledger__get(&b->txn, db->dbi_rooms, &k, &v);
    if (rc == MDB_NOTFOUND)
        return ledger__fail(db, LEDGER_ENOTFOUND, "no room %s", b->room);
    if (rc != 0)
        return rc;
    b->genesis = v.mv_data;
    b->genesis_len = v.mv_size;
    rc = ledger__genesis_record_decode(db, &b->g, b->genesis, b->genesis_len);
    if (rc == 0)
        rc = ledger__head_read(db, &b->txn, head, b->room);
    if (rc != 0)
        return rc;
    b->n_events = head->version;
    if ((rc = key_ids_add(db, &b->keys, b->g.key_id)) != 0 ||
        (rc = key_ids_add(db, &b->keys, b->g.audit_key_id)) != 0 ||
        (head->is_signed && (rc = key_ids_add(db, &b->keys, head->key_id)) != 0))
        return rc;
    for (uint32_t ver = 1; ver <= b->n_events; ver++) {
        const uint8_t *rec;
        size_t len;
        codec_event ev;
        rc = ledger__event_read(db, &b->txn, b->room, ver, &rec, &len);
        if (rc == 0)
            rc = ledger__event_record_decode(db, &ev, rec, len);
        if (rc != 0)
            return rc;
        if (ev.version != ver)
            return LEDGER_CORRUPT_MSG(db, "room %s: event %u stored as version %u", b->room, ver,
                                      ev.version);
        if (ev.has_signature && (rc = key_ids_add(db, &b->keys, ev.key_id)) != 0)
            return rc;
    }
    if ((rc = key_ids_add_chain(db, &b->txn, &b->keys)) != 0)
        return rc;
    qsort(b->keys.id, b->keys.n, sizeof b->keys.id[0], cmp_u32);

    uint8_t kbuf[LEDGER_REVEAL_KEY_BYTES];
    ledger__reveal_key(kbuf, b->room);
    MDB_val mk = {sizeof kbuf, kbuf}, mv;
    rc = ledger__get(&b->txn, db->dbi_meta, &mk, &mv);
    if (rc == MDB_NOTFOUND)
        return 0;
    if (rc != 0)
        return rc;
    if (mv.mv_size != ENGINE_SEED_BYTES)
        return LEDGER_CORRUPT_MSG(db, "room %s: revealed seed of %zu bytes", b->room, mv.mv_size);
    memcpy(b->seed, mv.mv_data, ENGINE_SEED_BYTES);
    b->has_seed = 1;
    return 0;
}

/* Every record of the room, in the order of the format. */
static int backup_write(backup *b, writer *w)
{
    ledger *db = b->db;
    codec_archive_record r;
    memset(&r, 0, sizeof r);
    r.kind = CODEC_ARCHIVE_HEADER;
    r.format_version = LEDGER_ARCHIVE_VERSION;
    memcpy(r.room, b->room, SCHEMA_ROOM_CHARS + 1);
    r.n_events = b->n_events;
    r.created_at = ledger_now_ms();
    int rc = writer_put(w, &r);
    for (size_t i = 0; rc == 0 && i < b->keys.n; i++) {
        int is_stored;
        memset(&r, 0, sizeof r);
        r.kind = CODEC_ARCHIVE_KEY;
        rc = ledger__key_record(db, &b->txn, &r.key, b->keys.id[i], &is_stored);
        if (rc == LEDGER_ENOTFOUND && b->keys.id[i] == b->g.audit_key_id &&
            b->keys.id[i] != b->g.key_id) {
            rc = 0; /* an audit key from elsewhere: not needed to verify */
            continue;
        }
        if (rc == LEDGER_ENOTFOUND)
            rc = LEDGER_CORRUPT_MSG(db, "room %s names key %08x, which is not in `keys`", b->room,
                                    b->keys.id[i]);
        if (rc == 0)
            rc = writer_put(w, &r);
    }
    if (rc != 0)
        return rc;
    memset(&r, 0, sizeof r);
    r.kind = CODEC_ARCHIVE_GENESIS;
    r.bytes = b->genesis;
    r.bytes_len = b->genesis_len;
    rc = writer_put(w, &r);
    for (uint32_t ver = 1; rc == 0 && ver <= b->n_events; ver++) {
        memset(&r, 0, sizeof r);
        r.kind = CODEC_ARCHIVE_EVENT;
        rc = ledger__event_read(db, &b->txn, b->room, ver, &r.bytes, &r.bytes_len);
        if (rc == 0)
            rc = writer_put(w, &r);
    }
    if (rc == 0 && b->head.is_signed && b->n_events > 0) {
        memset(&r, 0, sizeof r);
        r.kind = CODEC_ARCHIVE_HEAD;
        ledger__head_receipt(&r.head, b->room, &b->head);
        rc = writer_put(w, &r);
    }
    if (rc == 0 && b->has_seed) {
        memset(&r, 0, sizeof r);
        r.kind = CODEC_ARCHIVE_REVEALED_SEED;
        memcpy(r.seed, b->seed, ENGINE_SEED_BYTES);
        rc = writer_put(w, &r);
    }
    const uint8_t *sealed_key = NULL, *revealed_key = NULL;
    size_t sealed_key_len = 0;
    if (rc == 0)
        rc = ledger__room_key_records(db, &b->txn, &sealed_key, &sealed_key_len, &revealed_key,
                                      b->room);
    if (rc == 0 && sealed_key != NULL) {
        memset(&r, 0, sizeof r);
        r.kind = CODEC_ARCHIVE_ROOM_KEY;
        r.bytes = sealed_key;
        r.bytes_len = sealed_key_len;
        rc = writer_put(w, &r);
    }
    const uint8_t *seal = NULL;
    if (rc == 0) {
        rc = ledger__seal_record(db, &b->txn, &seal, b->room);
        if (rc == MDB_NOTFOUND) {
            seal = NULL;
            rc = 0;
        }
    }
    if (rc == 0 && seal != NULL) {
        memset(&r, 0, sizeof r);
        r.kind = CODEC_ARCHIVE_SEALED_SEED;
        r.bytes = seal;
        r.bytes_len = LEDGER_SEAL_RECORD_BYTES;
        rc = writer_put(w, &r);
    }
    if (rc == 0 && revealed_key != NULL) {
        memset(&r, 0, sizeof r);
        r.kind = CODEC_ARCHIVE_REVEALED_ROOM_KEY;
        memcpy(r.seed, revealed_key, ENGINE_SEED_BYTES);
        rc = writer_put(w, &r);
        sodium_memzero(&r, sizeof r);
    }
    if (rc == 0)
        rc = writer_finish(w);
    return rc;
}

int ledger_backup_room(ledger *db, const char *room, const char *path)
{
    return ledger_backup_room_flags(db, room, path, 0);
}

int ledger_backup_room_flags(ledger *db, const char *room, const char *path, unsigned flags)
{
    ledger_outfile f;
    writer w;
    backup b;
    memset(&w, 0, sizeof w);
    memset(&b, 0, sizeof b);
    f.fd = -1;
    b.db = db;
    b.room = room;
    if (!ledger__room_valid(room))
        return ledger__room_refuse(db, room);
    int rc = ledger_outfile_check(db, path, flags);
    if (rc != 0)
        return rc;
    rc = ledger__txn_begin(&b.txn, db, 0);
    if (rc != 0)
        return rc;
    rc = backup_gather(&b);
    if (rc == 0)
        rc = ledger_outfile_open(db, &f, path, flags);
    if (rc == 0) {
        rc = writer_init(&w, db, f.fd);
        if (rc == 0)
            rc = backup_write(&b, &w);
        writer_release(&w);
    }
    ledger__txn_abort(&b.txn);
    free(b.keys.id);
    if (f.fd >= 0) {
        if (rc == 0)
            return ledger_outfile_commit(db, &f, flags);
        ledger_outfile_abort(&f);
    }
    return rc;
}

typedef struct room_list {
    char (*room)[SCHEMA_ROOM_CHARS + 1]; /* owned */
    size_t n;                      /* rooms listed */
    size_t cap;                    /* room in room */
    int is_oom;                    /* 1 = a realloc failed */
} room_list;

static int list_room(void *ctx, const ledger_room_info *room)
{
    room_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char(*p)[SCHEMA_ROOM_CHARS + 1] = realloc(l->room, cap * sizeof *p);
        if (p == NULL) {
            l->is_oom = 1;
            return 1;
        }
        l->room = p;
        l->cap = cap;
    }
    memcpy(l->room[l->n++], room->room, SCHEMA_ROOM_CHARS + 1);
    return 0;
}

/* The compact LMDB copy dir/mentat.db, through an fd we own so that it is
 * a plain file whatever the environment's flags. */
static int copy_env(ledger *db, const char *dir, unsigned flags)
{
    char path[4096];
    ledger_outfile f;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, COPY_NAME) >= sizeof path)
        return ledger__fail(db, LEDGER_EINPUT, "path too long: %s", dir);
    int rc = ledger_outfile_open(db, &f, path, flags | LEDGER_OUT_LEDGER_COPY);
    if (rc != 0)
        return rc;
    rc = mdb_env_copyfd2(db->env, f.fd, MDB_CP_COMPACT);
    if (rc != 0) {
        ledger_outfile_abort(&f);
        return ledger__io_fail(db, rc, dir, "copying the ledger to %s", path);
    }
    return ledger_outfile_commit(db, &f, flags | LEDGER_OUT_LEDGER_COPY);
}

int ledger_backup_all(ledger *db, const char *dir, size_t *n_rooms_out)
{
    return ledger_backup_all_flags(db, dir, n_rooms_out, 0);
}

int ledger_backup_all_flags(ledger *db, const char *dir, size_t *n_rooms_out, unsigned flags)
{
    room_list l;
    char path[4096];
    struct stat st;
    memset(&l, 0, sizeof l);
    if (n_rooms_out != NULL)
        *n_rooms_out = 0;
    if (dir == NULL || dir[0] == '\0')
        return ledger__fail(db, LEDGER_EINPUT, "no backup directory given");
    int is_made = mkdir(dir, 0700) == 0;
    if (!is_made && errno != EEXIST)
        return ledger__fail(db, errno == ENOENT ? LEDGER_EINPUT : errno, "cannot create %s: %s",
                            dir, strerror(errno));
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return ledger__fail(db, LEDGER_EINPUT, "%s is not a directory", dir);
    /* The copy is renamed over dir/mentat.db: never over the live file
     * (checked before any archive is written, and again at the rename). */
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, COPY_NAME) >= sizeof path)
        return ledger__fail(db, LEDGER_EINPUT, "path too long: %s", dir);
    int rc = ledger_outfile_check(db, path, flags | LEDGER_OUT_LEDGER_COPY);
    if (rc != 0) {
        if (is_made)
            rmdir(dir);
        return rc;
    }
    rc = ledger_room_foreach(db, list_room, &l);
    size_t n_written = l.n;        /* archives written, when a later step fails */
    if (l.is_oom)
        rc = ledger__fail(db, LEDGER_ERROR, "out of memory");
    for (size_t i = 0; rc == 0 && i < l.n; i++) {
        if ((size_t)snprintf(path, sizeof path, "%s/%s%s", dir, l.room[i],
                             LEDGER_ARCHIVE_SUFFIX) >= sizeof path) {
            rc = ledger__fail(db, LEDGER_EINPUT, "path too long: %s", dir);
            break;
        }
        rc = ledger_backup_room_flags(db, l.room[i], path, flags);
        if (rc != 0) {
            /* name the room that failed */
            char msg[sizeof db->errmsg];
            snprintf(msg, sizeof msg, "%s", db->errmsg);
            snprintf(db->errmsg, sizeof db->errmsg, "room %s: %.200s", l.room[i], msg);
            n_written = i;
        }
    }
    if (rc == 0)
        rc = copy_env(db, dir, flags);
    if (rc == 0 && n_rooms_out != NULL)
        *n_rooms_out = l.n;
    if (rc != 0 && is_made) {
        /* a directory this call made is not left behind half filled */
        for (size_t i = 0; i < n_written; i++)
            if ((size_t)snprintf(path, sizeof path, "%s/%s%s", dir, l.room[i],
                                 LEDGER_ARCHIVE_SUFFIX) < sizeof path)
                unlink(path);
        rmdir(dir);
    }
    free(l.room);
    return rc;
}

/* ================================================================ reader */

enum expect {
    EXPECT_HEADER = 0,             /* nothing read yet */
    EXPECT_FIRST_KEY,              /* after the header */
    EXPECT_KEY_OR_GENESIS,         /* after a key */
    EXPECT_EVENT,                  /* after the genesis or an event: event, head, seed or trailer */
    EXPECT_SEED,                   /* after the head: seed, room key or trailer */
    EXPECT_TRAILER,                /* after the seed: room key or trailer */
    EXPECT_REVEALED_KEY,           /* after the room key: a sealed seed, the key's revealed
                                      form or trailer */
    EXPECT_ONLY_TRAILER,           /* after the revealed room key */
    EXPECT_NOTHING                 /* after the trailer */
};

typedef struct reader {
    ledger *db;
    ledger_archive *a;
    size_t cap;                    /* bytes allocated at a->data */
    size_t parsed;                 /* content bytes consumed as whole records */
    int expect;                    /* enum expect */
    uint32_t n_records;            /* records before the trailer */
    uint32_t header_n_events;      /* the header's count */
    size_t keys_cap;               /* room in a->keys */
    size_t events_cap;             /* room in a->events */
    crypto_generichash_state hash; /* (2) the content before the trailer */
    crypto_generichash_state file; /* (2) the magic and the compressed frame */
} reader;

/* p reallocated for twice *cap elements (first if none), or NULL with p
 * untouched. */
static void *grow(void *p, size_t *cap, size_t elem, size_t first)
{
    size_t cap2 = *cap ? *cap * 2 : first;
    void *q = realloc(p, cap2 * elem);
    if (q != NULL)
        *cap = cap2;
    return q;
}

/* Applies one decoded record to the archive, enforcing the order. */
static int reader_take(reader *rd, const codec_archive_record *r, size_t at)
{
    ledger *db = rd->db;
    ledger_archive *a = rd->a;
    if (rd->expect == EXPECT_NOTHING)
        return LEDGER_CORRUPT_MSG(db, "archive: a record after the trailer (content byte %zu)", at);
    switch ((codec_archive_kind)r->kind) {
    case CODEC_ARCHIVE_HEADER:
        if (rd->expect != EXPECT_HEADER)
            break;
        if (r->format_version != LEDGER_ARCHIVE_VERSION)
            return ledger__fail(db, LEDGER_EINPUT, "archive format %u; this build reads %u",
                                r->format_version, LEDGER_ARCHIVE_VERSION);
        if (!ledger__room_valid(r->room))
            return LEDGER_CORRUPT_MSG(db, "archive header: not a room code");
        memcpy(a->room, r->room, sizeof a->room);
        a->created_at = r->created_at;
        rd->header_n_events = r->n_events;
        rd->expect = EXPECT_FIRST_KEY;
        return 0;
    case CODEC_ARCHIVE_KEY:
        if (rd->expect != EXPECT_FIRST_KEY && rd->expect != EXPECT_KEY_OR_GENESIS)
            break;
        if (a->n_keys >= LEDGER_ARCHIVE_KEYS_MAX)
            return LEDGER_CORRUPT_MSG(db, "archive: more than %d keys", LEDGER_ARCHIVE_KEYS_MAX);
        if (a->n_keys > 0 && r->key.key_id <= a->keys[a->n_keys - 1].key_id)
            return LEDGER_CORRUPT_MSG(db, "archive: key %08x out of order", r->key.key_id);
        if (ledger__key_id(r->key.public_key) != r->key.key_id)
            return LEDGER_CORRUPT_MSG(db, "archive: key %08x is not the id of its public key",
                                      r->key.key_id);
        if (a->n_keys == rd->keys_cap) {
            codec_key *keys = grow(a->keys, &rd->keys_cap, sizeof *keys, 4);
            if (keys == NULL)
                return ledger__fail(db, LEDGER_ERROR, "out of memory");
            a->keys = keys;
        }
        a->keys[a->n_keys++] = r->key;
        rd->expect = EXPECT_KEY_OR_GENESIS;
        return 0;
    case CODEC_ARCHIVE_GENESIS:
        if (rd->expect != EXPECT_KEY_OR_GENESIS)
            break;
        a->genesis.off = (size_t)(r->bytes - a->data);
        a->genesis.len = r->bytes_len;
        rd->expect = EXPECT_EVENT;
        /* An action's wire and signed forms are those of the rules
         * version its room is played by: the events of a version this
         * build does not fold cannot be read, so say that first. */
        codec_genesis g;
        if (ledger__genesis_record_decode(db, &g, r->bytes, r->bytes_len) != 0)
            return LEDGER_CORRUPT_MSG(db, "archive genesis: %s", ledger_errmsg(db));
        return ledger__rules_check(db, LEDGER_EINPUT, &g);
    case CODEC_ARCHIVE_EVENT: {
        if (rd->expect != EXPECT_EVENT)
            break;
        if (a->n_events >= rd->header_n_events)
            return LEDGER_CORRUPT_MSG(db, "archive: more events than the header's %u",
                                      rd->header_n_events);
        /* (3): only real event records are indexed, so the index stays a
         * fraction of the content; and their versions are dense from 1. */
        codec_event ev;
        uint32_t want = a->n_events + 1;
        if (r->bytes_len > LEDGER_EVENT_RECORD_MAX)
            return LEDGER_CORRUPT_MSG(db, "archive event %u: record of %zu bytes", want,
                                      r->bytes_len);
        if (ledger__event_record_decode(db, &ev, r->bytes, r->bytes_len) != 0)
            return LEDGER_CORRUPT_MSG(db, "archive event %u: %s", want, ledger_errmsg(db));
        if (ev.version != want)
            return LEDGER_CORRUPT_MSG(db, "archive event %u says it is version %u", want,
                                      ev.version);
        if (a->n_events == rd->events_cap) {
            ledger_archive_span *events = grow(a->events, &rd->events_cap, sizeof *events, 256);
            if (events == NULL)
                return ledger__fail(db, LEDGER_ERROR, "out of memory");
            a->events = events;
        }
        a->events[a->n_events].off = (size_t)(r->bytes - a->data);
        a->events[a->n_events].len = r->bytes_len;
        a->n_events++;
        return 0;
    }
    case CODEC_ARCHIVE_HEAD:
        if (rd->expect != EXPECT_EVENT)
            break;
        if (a->n_events != rd->header_n_events || r->head.version != a->n_events ||
            memcmp(r->head.room, a->room, sizeof a->room) != 0)
            return LEDGER_CORRUPT_MSG(db, "archive: the head names %.8s version %u, not the "
                                      "last of its %u events", r->head.room, r->head.version,
                                      a->n_events);
        a->head = r->head;
        a->has_head = 1;
        rd->expect = EXPECT_SEED;
        return 0;
    case CODEC_ARCHIVE_REVEALED_SEED:
        if (rd->expect != EXPECT_EVENT && rd->expect != EXPECT_SEED)
            break;
        memcpy(a->seed, r->seed, ENGINE_SEED_BYTES);
        a->has_seed = 1;
        rd->expect = EXPECT_TRAILER;
        return 0;
    case CODEC_ARCHIVE_ROOM_KEY:
        if (rd->expect < EXPECT_EVENT || rd->expect > EXPECT_TRAILER)
            break;
        if (r->bytes_len != sizeof a->room_key)
            return LEDGER_CORRUPT_MSG(db, "archive: a room key record of %zu bytes",
                                      r->bytes_len);
        memcpy(a->room_key, r->bytes, sizeof a->room_key);
        a->has_room_key = 1;
        rd->expect = EXPECT_REVEALED_KEY;
        return 0;
    case CODEC_ARCHIVE_SEALED_SEED:
        if (rd->expect < EXPECT_EVENT || rd->expect > EXPECT_REVEALED_KEY || a->has_sealed_seed)
            break;
        if (r->bytes_len != sizeof a->sealed_seed)
            return LEDGER_CORRUPT_MSG(db, "archive: a sealed seed record of %zu bytes",
                                      r->bytes_len);
        memcpy(a->sealed_seed, r->bytes, sizeof a->sealed_seed);
        a->has_sealed_seed = 1;
        rd->expect = EXPECT_REVEALED_KEY;
        return 0;
    case CODEC_ARCHIVE_REVEALED_ROOM_KEY:
        if (rd->expect != EXPECT_REVEALED_KEY || !a->has_room_key)
            break;
        memcpy(a->revealed_room_key, r->seed, sizeof a->revealed_room_key);
        a->has_revealed_room_key = 1;
        rd->expect = EXPECT_ONLY_TRAILER;
        return 0;
    case CODEC_ARCHIVE_TRAILER: {
        if (rd->expect < EXPECT_EVENT || rd->expect > EXPECT_ONLY_TRAILER)
            break;
        uint8_t digest[SCHEMA_HASH_BYTES];
        crypto_generichash_final(&rd->hash, digest, sizeof digest);
        if (a->n_events != rd->header_n_events)
            return LEDGER_CORRUPT_MSG(db, "archive: %u events, the header says %u", a->n_events,
                                      rd->header_n_events);
        if (r->n_records != rd->n_records)
            return LEDGER_CORRUPT_MSG(db, "archive: %u records, the trailer says %u",
                                      rd->n_records, r->n_records);
        if (sodium_memcmp(digest, r->digest, sizeof digest) != 0)
            return ledger__fail(db, LEDGER_EBADSIG, "archive: the trailer digest does not match");
        rd->expect = EXPECT_NOTHING;
        return 0;
    }
    }
    return LEDGER_CORRUPT_MSG(db, "archive: record of kind %u out of order (content byte %zu)",
                              (unsigned)r->kind, at);
}

/* Parses every whole record in data[parsed, data_len). At the end of the
 * frame (is_final) a partial record is an error. */
static int reader_parse(reader *rd, int is_final)
{
    ledger *db = rd->db;
    ledger_archive *a = rd->a;
    char err[SCHEMA_ERRMSG] = "";
    while (rd->parsed < a->data_len) {
        const uint8_t *p = a->data + rd->parsed;
        size_t avail = a->data_len - rd->parsed;
        size_t len = 0, k = 0;
        int is_whole = 0;
        while (k < avail && k < UVARINT_MAX_BYTES) {
            uint8_t byte = p[k];
            len |= (size_t)(byte & 0x7F) << (7 * k);
            k++;
            if ((byte & 0x80) == 0) {
                if (k > 1 && byte == 0)
                    return LEDGER_CORRUPT_MSG(db, "archive: non-minimal record length at "
                                              "content byte %zu", rd->parsed);
                is_whole = 1;
                break;
            }
        }
        if (!is_whole && k == UVARINT_MAX_BYTES)
            return LEDGER_CORRUPT_MSG(db, "archive: record length over 1 MiB at content byte %zu",
                                      rd->parsed);
        if (is_whole && (len == 0 || len > LEDGER_ARCHIVE_RECORD_MAX))
            return LEDGER_CORRUPT_MSG(db, "archive: record length %zu at content byte %zu", len,
                                      rd->parsed);
        if (!is_whole || avail - k < len) {
            if (is_final)
                return LEDGER_CORRUPT_MSG(db, "archive: truncated record at content byte %zu",
                                          rd->parsed);
            return 0; /* the rest is still in the frame */
        }
        codec_archive_record r;
        memset(&r, 0, sizeof r);
        if (codec_archive_record_decode(&r, p + k, len, err) != 0)
            return LEDGER_CORRUPT_MSG(db, "archive record %u: %s", rd->n_records + 1, err);
        int is_trailer = r.kind == CODEC_ARCHIVE_TRAILER;
        int rc = reader_take(rd, &r, rd->parsed);
        if (rc != 0)
            return rc;
        if (!is_trailer) {
            crypto_generichash_update(&rd->hash, p, k + len);
            rd->n_records++;
        }
        rd->parsed += k + len;
    }
    if (is_final && rd->expect != EXPECT_NOTHING)
        return LEDGER_CORRUPT_MSG(db, "archive: truncated, no trailer");
    return 0;
}

void ledger__archive_free(ledger_archive *a)
{
    if (a == NULL)
        return;
    free(a->data);
    free(a->keys);
    free(a->events);
    memset(a, 0, sizeof *a);
}

/* The file digest (2): the skippable frame after the zstd frame, its
 * first `have` bytes already in buf, and then the end of the file. */
static int reader_digest(reader *rd, int fd, const uint8_t *buf, size_t have)
{
    ledger *db = rd->db;
    uint8_t tail[DIGEST_FRAME_BYTES + 1], digest[SCHEMA_HASH_BYTES];
    if (have > sizeof tail)
        return LEDGER_CORRUPT_MSG(db, "archive: bytes after the file digest");
    memcpy(tail, buf, have);
    ssize_t n = read_full(fd, tail + have, sizeof tail - have);
    if (n < 0)
        return ledger__fail(db, errno, "reading the archive: %s", strerror(errno));
    size_t len = have + (size_t)n;
    if (len < DIGEST_FRAME_BYTES)
        return LEDGER_CORRUPT_MSG(db, "archive: truncated in the file digest");
    if (len > DIGEST_FRAME_BYTES)
        return LEDGER_CORRUPT_MSG(db, "archive: bytes after the file digest");
    if (memcmp(tail, digest_frame, sizeof digest_frame) != 0)
        return LEDGER_CORRUPT_MSG(db, "archive: no file digest after the zstd frame");
    crypto_generichash_final(&rd->file, digest, sizeof digest);
    if (sodium_memcmp(digest, tail + sizeof digest_frame, sizeof digest) != 0)
        return ledger__fail(db, LEDGER_EBADSIG, "archive: the file digest does not match");
    return 0;
}

/* Inflates the frame from fd into a->data, parsing as it goes (3), then
 * checks the file digest. */
static int reader_inflate(reader *rd, int fd, uint8_t *inbuf, size_t in_cap)
{
    ledger *db = rd->db;
    ledger_archive *a = rd->a;
    ZSTD_DCtx *d = db->dctx;
    ZSTD_inBuffer in = {inbuf, 0, 0};
    size_t hashed = 0;             /* bytes of inbuf already in rd->file */
    size_t z = ZSTD_DCtx_reset(d, ZSTD_reset_session_and_parameters);
    if (!ZSTD_isError(z))
        z = ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, ZSTD_WINDOW_LOG_MAX);
    if (ZSTD_isError(z))
        return ledger__fail(db, LEDGER_ERROR, "zstd: %s", ZSTD_getErrorName(z));

    ssize_t n = read_full(fd, inbuf, in_cap);
    if (n < 0)
        return ledger__fail(db, errno, "reading the archive: %s", strerror(errno));
    in.size = (size_t)n;
    int is_eof = in.size < in_cap;
    /* The frame header's first 5 bytes (RFC 8878 3.1.1): the frame magic,
     * then a descriptor with Content_Checksum_flag set and no dictionary. */
    if (in.size < 5 || memcmp(inbuf, zstd_magic, sizeof zstd_magic) != 0)
        return LEDGER_CORRUPT_MSG(db, "archive: no zstd frame after the magic");
    if ((inbuf[4] & 0x04) == 0 || (inbuf[4] & 0x03) != 0)
        return LEDGER_CORRUPT_MSG(db, "archive: the zstd frame has no checksum or needs a "
                                  "dictionary");
    for (;;) {
        if (in.pos == in.size && !is_eof) {
            crypto_generichash_update(&rd->file, inbuf + hashed, in.size - hashed);
            hashed = 0;
            n = read_full(fd, inbuf, in_cap);
            if (n < 0)
                return ledger__fail(db, errno, "reading the archive: %s", strerror(errno));
            in.size = (size_t)n;
            in.pos = 0;
            is_eof = in.size < in_cap;
        }
        if (a->data_len == rd->cap) {
            if (rd->cap >= LEDGER_ARCHIVE_DATA_MAX)
                return LEDGER_CORRUPT_MSG(db, "archive: content over 1 GiB");
            size_t cap = rd->cap ? rd->cap * 2 : DATA_INITIAL;
            uint8_t *p = realloc(a->data, cap);
            if (p == NULL)
                return ledger__fail(db, LEDGER_ERROR, "out of memory");
            a->data = p;
            rd->cap = cap;
        }
        ZSTD_outBuffer out = {a->data, rd->cap, a->data_len};
        size_t was_in = in.pos;
        size_t r = ZSTD_decompressStream(d, &out, &in);
        if (ZSTD_isError(r))
            return LEDGER_CORRUPT_MSG(db, "archive: zstd: %s", ZSTD_getErrorName(r));
        int is_progress = out.pos != a->data_len || in.pos != was_in;
        a->data_len = out.pos;
        int rc = reader_parse(rd, r == 0);
        if (rc != 0)
            return rc;
        if (r == 0)
            break;
        if (!is_progress && is_eof && in.pos == in.size)
            return LEDGER_CORRUPT_MSG(db, "archive: truncated inside the zstd frame");
    }
    crypto_generichash_update(&rd->file, inbuf + hashed, in.pos - hashed);
    return reader_digest(rd, fd, inbuf + in.pos, in.size - in.pos);
}

int ledger__archive_read(ledger *db, ledger_archive *out, const char *path)
{
    reader rd;
    uint8_t magic[LEDGER_ARCHIVE_MAGIC_BYTES];
    uint8_t *inbuf = NULL;
    struct stat st;
    int rc = 0;
    memset(out, 0, sizeof *out);
    memset(&rd, 0, sizeof rd);
    rd.db = db;
    rd.a = out;
    crypto_generichash_init(&rd.hash, NULL, 0, SCHEMA_HASH_BYTES);
    crypto_generichash_init(&rd.file, NULL, 0, SCHEMA_HASH_BYTES);
    int frc = ledger__fault_hit(db);
    if (frc != 0)
        return ledger__fail(db, frc, "cannot open the archive: %s", strerror(frc));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ledger__fail(db, errno == ENOENT ? LEDGER_ENOTFOUND : errno,
                            "cannot open the archive: %s", strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = ledger__fail(db, LEDGER_EINPUT, "the archive is not a plain file");
        goto out;
    }
    ssize_t n = read_full(fd, magic, sizeof magic);
    if (n < 0) {
        rc = ledger__fail(db, errno, "reading the archive: %s", strerror(errno));
        goto out;
    }
    if ((size_t)n < sizeof magic || memcmp(magic, LEDGER_ARCHIVE_MAGIC, sizeof magic) != 0) {
        rc = LEDGER_CORRUPT_MSG(db, "not a Mentat archive (bad magic)");
        goto out;
    }
    crypto_generichash_update(&rd.file, magic, sizeof magic);
    size_t in_cap = ZSTD_DStreamInSize();
    inbuf = malloc(in_cap);
    if (inbuf == NULL) {
        rc = ledger__fail(db, LEDGER_ERROR, "out of memory");
        goto out;
    }
    rc = reader_inflate(&rd, fd, inbuf, in_cap);
out:
    /* The shared context goes back to its defaults for the next user. */
    ZSTD_DCtx_reset(db->dctx, ZSTD_reset_session_and_parameters);
    free(inbuf);
    close(fd);
    return rc;
}
