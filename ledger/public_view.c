/*
 * public_view.c - the public view of every version of a room (what
 * engine_view gives ENGINE_VIEW_PUBLIC, a spectator), stored beside the
 * events so that a reader without the audit key, who can neither unseal
 * the seed nor open the sealed actions and checkpoints, still shows the
 * room exactly as the public saw it, at any version, without folding.
 *
 * Part of ledger/. A view is written by whoever folds the room: the room's
 * creation (version 0), the append path (each accepted event, in its
 * transaction) and a restore that folds. It is derived from the state, so
 * like a checkpoint it is never signed and never the record of anything:
 * an auditor's verify re-derives every view from its fold and compares
 * them byte for byte, and a keyless verify checks that every version has
 * a view that decodes (docs/FORMAT.md "views" says what each proves). It
 * never stores a fact the public view does not show (the view is taken
 * from the state here, never handed in), and a room stored without views
 * (by an older build, or restored without the audit key) never gets a
 * partial run of them: a room has a view of every version or of none.
 *
 * `views` (DUPSORT, like `events`): room (8) -> records, each cut into
 * pieces of at most LEDGER_VIEW_PIECE bytes, one duplicate a piece:
 *   0      4  version u32 BE (a block: its first, a multiple of
 *             LEDGER_VIEW_BLOCK; an open view: its version)
 *   4      1  kind: 0x01 a full block, 0x02 an open view
 *   5      1  piece index, from 0
 *   6      n  the piece
 * (after the room's marker, 4 zero bytes, which says the room keeps views).
 * A full block's bytes:
 *   0      1  n = LEDGER_VIEW_BLOCK
 *   1      m  one zstd frame of n times (u16 BE length || the canonical
 *             encoding of the public view of versions first..first+n-1),
 *             compressed with the last view of the block before as its
 *             raw-content dictionary, but at a multiple of VIEW_ANCHOR
 * An open view's bytes, one for each version of the block still open: one
 * zstd frame of the encoded view, compressed with the view of the version
 * before (for a block's first, the last of the block before; none at 0)
 * as its raw-content dictionary. The append that writes a block's last
 * version deletes the block's open views and appends the full block,
 * whose one frame costs a fraction of theirs (consecutive views differ in
 * a few bytes); records are appended in order (MDB_APPENDDUP), so each
 * room's pages fill up.
 */
#include <stdlib.h>
#include <string.h>

#include "ledger/internal.h"

#define VIEW_LEVEL_OPEN 3
#define VIEW_LEVEL_BLOCK 9
#define VIEW_ENTRY_MAX (2 + ENGINE_STATE_ENCODED_MAX)
#define VIEW_BLOCK_RAW_MAX ((size_t)LEDGER_VIEW_BLOCK * VIEW_ENTRY_MAX)
#define REC_CAP (1 + ZSTD_COMPRESSBOUND(VIEW_BLOCK_RAW_MAX))
#define KIND_BLOCK 0x01
#define KIND_OPEN 0x02
#define VIEW_ANCHOR (16u * LEDGER_VIEW_BLOCK) /* a block starting at a multiple has no dictionary */

/* The handle's buffers: a raw block, a view, the view before it (a
 * dictionary), the last view of the block before (a block's dictionary),
 * then a record's bytes. */
#define RAW(db) ((db)->view_buf)
#define ENC(db) ((db)->view_buf + VIEW_BLOCK_RAW_MAX)
#define DICT(db) (ENC(db) + ENGINE_STATE_ENCODED_MAX)
#define PREV(db) (DICT(db) + ENGINE_STATE_ENCODED_MAX)
#define REC(db) (PREV(db) + ENGINE_STATE_ENCODED_MAX)

static int buffers(ledger *db)
{
    if (db->view_buf != NULL)
        return 0;
    db->view_buf = malloc(VIEW_BLOCK_RAW_MAX + 3 * (size_t)ENGINE_STATE_ENCODED_MAX + REC_CAP);
    if (db->view_buf == NULL)
        return ledger__fail(db, LEDGER_ERROR, "out of memory for public views");
    return 0;
}

#define VIEW_PIECE_HEADER 6

/* The key of a room's records of `kind`: the room for its full blocks
 * (and its marker), the room and 0x01 for the views of its open block,
 * which come and go, so that their pages never sit between blocks. */
static MDB_val record_key(uint8_t kbuf[SCHEMA_ROOM_CHARS + 1], const char *room, unsigned kind)
{
    memcpy(kbuf, room, SCHEMA_ROOM_CHARS);
    kbuf[SCHEMA_ROOM_CHARS] = 0x01;
    MDB_val k = {kind == KIND_BLOCK ? SCHEMA_ROOM_CHARS : SCHEMA_ROOM_CHARS + 1, kbuf};
    return k;
}

/* Positions cur on the first piece of (version, kind) of room, or past
 * it: MDB_NOTFOUND when the room has no such record. */
static int piece_seek(ledger_txn *txn, MDB_cursor *cur, MDB_val *val, const char *room,
                      uint32_t version, unsigned kind)
{
    uint8_t p[VIEW_PIECE_HEADER];
    ledger__be32_put(p, version);
    p[4] = (uint8_t)kind;
    p[5] = 0;
    uint8_t kbuf[SCHEMA_ROOM_CHARS + 1];
    MDB_val k = record_key(kbuf, room, kind);
    val->mv_size = sizeof p;
    val->mv_data = p;
    int rc = ledger__cursor_get(txn, cur, &k, val, MDB_GET_BOTH_RANGE);
    if (rc != 0)
        return rc;
    const uint8_t *q = val->mv_data;
    if (val->mv_size <= VIEW_PIECE_HEADER || ledger__be32_get(q) != version || q[4] != kind ||
        q[5] != 0)
        return MDB_NOTFOUND;
    return 0;
}

/* The bytes of record (version, kind) of room, joined into out (cap
 * bytes); MDB_NOTFOUND when there is none. */
static int record_get(ledger *db, ledger_txn *txn, uint8_t *out, size_t cap, size_t *len_out,
                      const char *room, uint32_t version, unsigned kind)
{
    MDB_cursor *cur = NULL;
    MDB_val val;
    size_t n = 0;
    *len_out = 0;
    if (!db->has_views)
        return MDB_NOTFOUND;
    int rc = ledger__cursor_open(txn, db->dbi_views, &cur);
    if (rc != 0)
        return rc;
    rc = piece_seek(txn, cur, &val, room, version, kind);
    for (unsigned i = 0; rc == 0; i++) {
        const uint8_t *q = val.mv_data;
        size_t piece = val.mv_size - VIEW_PIECE_HEADER;
        if (piece > cap - n) {
            rc = LEDGER_CORRUPT_MSG(db, "public views %s@%u: a record too large", room,
                                    version);
            break;
        }
        memcpy(out + n, q + VIEW_PIECE_HEADER, piece);
        n += piece;
        MDB_val k;
        rc = ledger__cursor_get(txn, cur, &k, &val, MDB_NEXT_DUP);
        if (rc == MDB_NOTFOUND)
            break;
        q = val.mv_data;
        if (rc == 0 && (val.mv_size <= VIEW_PIECE_HEADER || ledger__be32_get(q) != version ||
                        q[4] != kind))
            break;
        if (rc == 0 && q[5] != (uint8_t)(i + 1)) {
            rc = LEDGER_CORRUPT_MSG(db, "public views %s@%u: pieces out of order", room,
                                    version);
            break;
        }
    }
    if (rc == MDB_NOTFOUND && n > 0)
        rc = 0;
    mdb_cursor_close(cur);
    if (rc == 0)
        *len_out = n;
    return rc;
}

/* Appends record (version, kind) of room, cut into pieces. */
static int record_put(ledger *db, ledger_txn *txn, const char *room, uint32_t version,
                      unsigned kind, const uint8_t *bytes, size_t len)
{
    uint8_t piece[VIEW_PIECE_HEADER + LEDGER_VIEW_PIECE];
    uint8_t kbuf[SCHEMA_ROOM_CHARS + 1];
    MDB_val k = record_key(kbuf, room, kind);
    ledger__be32_put(piece, version);
    piece[4] = (uint8_t)kind;
    size_t n_pieces = (len + LEDGER_VIEW_PIECE - 1) / LEDGER_VIEW_PIECE;
    if (n_pieces > 255)
        return ledger__fail(db, LEDGER_ERROR, "public views of %s at %u: %zu bytes do not fit "
                            "a record", room, version, len);
    for (size_t i = 0, off = 0; off < len; i++, off += LEDGER_VIEW_PIECE) {
        size_t m = len - off < LEDGER_VIEW_PIECE ? len - off : LEDGER_VIEW_PIECE;
        piece[5] = (uint8_t)i;
        memcpy(piece + VIEW_PIECE_HEADER, bytes + off, m);
        MDB_val v = {VIEW_PIECE_HEADER + m, piece};
        int rc = ledger__put(txn, db->dbi_views, &k, &v, MDB_APPENDDUP);
        if (rc == MDB_KEYEXIST)
            return LEDGER_CORRUPT_MSG(db, "room %s: the public view of %u is out of order",
                                      room, version);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* Deletes the views of room's open block (every record under their key). */
static int open_views_del(ledger *db, ledger_txn *txn, const char *room)
{
    uint8_t kbuf[SCHEMA_ROOM_CHARS + 1];
    MDB_val k = record_key(kbuf, room, KIND_OPEN);
    int rc = ledger__del(txn, db->dbi_views, &k, NULL);
    return rc == MDB_NOTFOUND ? 0 : rc;
}

/* An open view's bytes (its frame, len bytes at rec) decompressed into out
 * (cap ENGINE_STATE_ENCODED_MAX) with dict, the view before it, or none. */
static int open_view_read(ledger *db, size_t *len_out, uint8_t *out, const char *room,
                          uint32_t version, const uint8_t *rec, size_t len,
                          const uint8_t *dict, size_t dict_len)
{
    size_t n = dict != NULL ? ZSTD_decompress_usingDict(db->dctx, out, ENGINE_STATE_ENCODED_MAX,
                                                        rec, len, dict, dict_len)
                            : ZSTD_decompressDCtx(db->dctx, out, ENGINE_STATE_ENCODED_MAX, rec,
                                                  len);
    if (ZSTD_isError(n) || n == 0)
        return LEDGER_CORRUPT_MSG(db, "public view %s@%u: %s", room, version,
                                  ZSTD_isError(n) ? ZSTD_getErrorName(n) : "empty frame");
    *len_out = n;
    return 0;
}

int ledger__view_block_decode(ledger *db, size_t off_out[LEDGER_VIEW_BLOCK],
                              size_t len_out[LEDGER_VIEW_BLOCK], uint8_t *raw, size_t raw_cap,
                              const char *room, uint32_t first, const uint8_t *val, size_t len,
                              const uint8_t *dict, size_t dict_len)
{
    if (len < 2 || val[0] != LEDGER_VIEW_BLOCK)
        return LEDGER_CORRUPT_MSG(db, "public views %s@%u: bad block header", room, first);
    unsigned long long size = ZSTD_getFrameContentSize(val + 1, len - 1);
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > raw_cap)
        return LEDGER_CORRUPT_MSG(db, "public views %s@%u: bad zstd frame", room, first);
    size_t n = dict != NULL ? ZSTD_decompress_usingDict(db->dctx, raw, raw_cap, val + 1, len - 1,
                                                        dict, dict_len)
                            : ZSTD_decompressDCtx(db->dctx, raw, raw_cap, val + 1, len - 1);
    if (ZSTD_isError(n) || n != size)
        return LEDGER_CORRUPT_MSG(db, "public views %s@%u: %s", room, first,
                                  ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short frame");
    size_t pos = 0;
    for (unsigned i = 0; i < LEDGER_VIEW_BLOCK; i++) {
        if (n - pos < 2)
            return LEDGER_CORRUPT_MSG(db, "public views %s@%u: short block", room, first);
        size_t l = (size_t)raw[pos] << 8 | raw[pos + 1];
        pos += 2;
        if (l == 0 || l > ENGINE_STATE_ENCODED_MAX || l > n - pos)
            return LEDGER_CORRUPT_MSG(db, "public views %s@%u: bad length of view %u", room,
                                      first, first + i);
        off_out[i] = pos;
        len_out[i] = l;
        pos += l;
    }
    if (pos != n)
        return LEDGER_CORRUPT_MSG(db, "public views %s@%u: trailing bytes", room, first);
    return 0;
}

/* The open view of `version` into ENC (*len_out bytes), its dictionary
 * (the view before it, dict_len bytes) in DICT. */
static int open_view_next(ledger *db, ledger_txn *txn, size_t *len_out, const char *room,
                          uint32_t version, size_t dict_len)
{
    size_t rec_len = 0;
    int rc = record_get(db, txn, REC(db), REC_CAP, &rec_len, room, version, KIND_OPEN);
    if (rc == MDB_NOTFOUND)
        return LEDGER_CORRUPT_MSG(db, "public view %s@%u is missing", room, version);
    if (rc != 0)
        return rc;
    return open_view_read(db, len_out, ENC(db), room, version, REC(db), rec_len,
                          version > 0 ? DICT(db) : NULL, dict_len);
}

/* The full block of `first` decoded into RAW with dict (the last view of
 * the block before, or NULL for an anchor); MDB_NOTFOUND when the block is
 * still open (or the room keeps no views). */
static int block_get(ledger *db, ledger_txn *txn, size_t off[LEDGER_VIEW_BLOCK],
                     size_t len[LEDGER_VIEW_BLOCK], const char *room, uint32_t first,
                     const uint8_t *dict, size_t dict_len)
{
    size_t n = 0;
    int rc = record_get(db, txn, REC(db), REC_CAP, &n, room, first, KIND_BLOCK);
    if (rc != 0)
        return rc;
    return ledger__view_block_decode(db, off, len, RAW(db), VIEW_BLOCK_RAW_MAX, room, first,
                                     REC(db), n, first % VIEW_ANCHOR != 0 ? dict : NULL,
                                     dict_len);
}

/* The full block of `first` decoded into RAW, from the anchor before it
 * (each block's frame is compressed with the last view of the block
 * before, but every VIEW_ANCHOR versions: at most 15 frames before it);
 * MDB_NOTFOUND when the block is still open. */
static int block_read(ledger *db, ledger_txn *txn, size_t off[LEDGER_VIEW_BLOCK],
                      size_t len[LEDGER_VIEW_BLOCK], const char *room, uint32_t first)
{
    size_t prev_len = 0;
    for (uint32_t f = first - first % VIEW_ANCHOR;; f += LEDGER_VIEW_BLOCK) {
        int rc = block_get(db, txn, off, len, room, f, PREV(db), prev_len);
        if (rc == MDB_NOTFOUND && f < first)
            return LEDGER_CORRUPT_MSG(db, "public views %s@%u are missing", room, f);
        if (rc != 0 || f == first)
            return rc;
        prev_len = len[LEDGER_VIEW_BLOCK - 1];
        memcpy(PREV(db), RAW(db) + off[LEDGER_VIEW_BLOCK - 1], prev_len);
    }
}

/* The room's marker: it keeps public views from version 0 on. Its few
 * records stay in the page of the room's key (no sub-database of their
 * own, unlike `events`) until they outgrow it. */
static int marker_put(ledger *db, ledger_txn *txn, const char *room)
{
    uint8_t zero[4] = {0, 0, 0, 0};
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v = {sizeof zero, zero};
    int rc = ledger__put(txn, db->dbi_views, &k, &v, MDB_NODUPDATA | MDB_NOOVERWRITE);
    if (rc == MDB_KEYEXIST)
        return ledger__fail(db, LEDGER_EEXISTS, "room %s already has public views", room);
    return rc;
}

/* Whether the room keeps public views: its marker in `views`. */
static int keeps_views(ledger *db, ledger_txn *txn, int *is_out, const char *room)
{
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v;
    *is_out = 0;
    if (!db->has_views)
        return 0;
    int rc = ledger__get(txn, db->dbi_views, &k, &v);
    if (rc == MDB_NOTFOUND)
        return 0;
    *is_out = rc == 0;
    return rc;
}

/* The open views first..upto decoded in turn, the last into ENC (*len_out
 * bytes); with raw_pos, each also appended to RAW as a block entry. The
 * view before `first` (the last of the block before) is the dictionary of
 * the first, and is left in PREV (*prev_len_out bytes). */
static int chain(ledger *db, ledger_txn *txn, size_t *len_out, size_t *prev_len_out,
                 size_t *raw_pos, const char *room, uint32_t first, uint32_t upto)
{
    *prev_len_out = 0;
    size_t dict_len = 0, n = 0;
    int rc = 0;
    if (first > 0) {
        size_t off[LEDGER_VIEW_BLOCK] = {0}, len[LEDGER_VIEW_BLOCK] = {0};
        rc = block_read(db, txn, off, len, room, first - LEDGER_VIEW_BLOCK);
        if (rc == MDB_NOTFOUND)
            return LEDGER_CORRUPT_MSG(db, "public views %s@%u are missing", room,
                                      first - LEDGER_VIEW_BLOCK);
        if (rc != 0)
            return rc;
        dict_len = len[LEDGER_VIEW_BLOCK - 1];
        memcpy(DICT(db), RAW(db) + off[LEDGER_VIEW_BLOCK - 1], dict_len);
        memcpy(PREV(db), DICT(db), dict_len); /* the block's dictionary, if it closes */
        *prev_len_out = dict_len;
    }
    for (uint32_t v = first; v <= upto; v++) {
        rc = open_view_next(db, txn, &n, room, v, dict_len);
        if (rc != 0)
            return rc;
        if (raw_pos != NULL) {
            uint8_t *at = RAW(db) + *raw_pos;
            at[0] = (uint8_t)(n >> 8);
            at[1] = (uint8_t)n;
            memcpy(at + 2, ENC(db), n);
            *raw_pos += 2 + n;
        }
        memcpy(DICT(db), ENC(db), n);
        dict_len = n;
    }
    *len_out = n;
    return 0;
}

/* The encoded view of `version` into ENC. LEDGER_ENOTFOUND when the room
 * keeps none. */
static int view_read(ledger *db, ledger_txn *txn, size_t *len_out, const char *room,
                     uint32_t version)
{
    uint32_t first = version - version % LEDGER_VIEW_BLOCK;
    size_t off[LEDGER_VIEW_BLOCK] = {0}, len[LEDGER_VIEW_BLOCK] = {0};
    int is_kept = 0;
    int rc = buffers(db);
    if (rc == 0)
        rc = keeps_views(db, txn, &is_kept, room);
    if (rc != 0)
        return rc;
    if (!is_kept)
        return ledger__fail(db, LEDGER_ENOTFOUND, "room %s keeps no public views (it was "
                            "stored by an older build, or restored without the audit key), "
                            "and its states need the audit key", room);
    rc = block_read(db, txn, off, len, room, first);
    if (rc == 0) {
        memcpy(ENC(db), RAW(db) + off[version - first], len[version - first]);
        *len_out = len[version - first];
        return 0;
    }
    if (rc != MDB_NOTFOUND)
        return rc;
    size_t prev_len = 0;
    return chain(db, txn, len_out, &prev_len, NULL, room, first, version);
}

int ledger__view_get(ledger *db, ledger_txn *txn, engine_state *out, const char *room,
                     uint32_t version)
{
    size_t n = 0;
    int rc = view_read(db, txn, &n, room, version);
    if (rc != 0)
        return rc;
    if (engine_view_decode(out, ENC(db), n) != 0)
        return LEDGER_CORRUPT_MSG(db, "public view %s@%u does not decode", room, version);
    return 0;
}

/* st's public view, encoded into ENC. */
static int view_encode(ledger *db, size_t *len_out, const char *room, uint32_t version,
                       const engine_state *st)
{
    engine_state view;
    engine_view(&view, st, ENGINE_VIEW_PUBLIC);
    size_t n = engine_state_encode(ENC(db), ENGINE_STATE_ENCODED_MAX, &view);
    if (n == 0 || n > ENGINE_STATE_ENCODED_MAX)
        return ledger__fail(db, LEDGER_ERROR, "the public view of %s at %u does not encode",
                            room, version);
    *len_out = n;
    return 0;
}

/* The append of the block's last version, `last`, of state st: its open
 * views give way to the full block. */
static int block_close(ledger *db, ledger_txn *txn, size_t *len_out, const char *room,
                       uint32_t last, const engine_state *st)
{
    uint32_t first = last - (LEDGER_VIEW_BLOCK - 1);
    size_t pos = 0, n = 0, prev_len = 0;
    int rc = chain(db, txn, &n, &prev_len, &pos, room, first, last - 1);
    if (rc == 0)
        rc = view_encode(db, &n, room, last, st);
    if (rc != 0)
        return rc;
    uint8_t *raw = RAW(db);
    raw[pos] = (uint8_t)(n >> 8);
    raw[pos + 1] = (uint8_t)n;
    memcpy(raw + pos + 2, ENC(db), n);
    pos += 2 + n;
    uint8_t *rec = REC(db);
    size_t z = first % VIEW_ANCHOR != 0
                   ? ZSTD_compress_usingDict(db->cctx, rec + 1, REC_CAP - 1, raw, pos, PREV(db),
                                             prev_len, VIEW_LEVEL_BLOCK)
                   : ZSTD_compressCCtx(db->cctx, rec + 1, REC_CAP - 1, raw, pos,
                                       VIEW_LEVEL_BLOCK);
    if (ZSTD_isError(z))
        return ledger__fail(db, LEDGER_ERROR, "compressing public views: %s",
                            ZSTD_getErrorName(z));
    rec[0] = LEDGER_VIEW_BLOCK;
    rc = open_views_del(db, txn, room);
    if (rc == 0)
        rc = record_put(db, txn, room, first, KIND_BLOCK, rec, z + 1);
    *len_out = n;
    return rc;
}

int ledger__view_put(ledger *db, ledger_txn *txn, ledger_cache_entry *e, const char *room,
                     uint32_t version, const uint8_t *prev_hash,
                     const uint8_t hash[SCHEMA_HASH_BYTES], const engine_state *st)
{
    int is_kept = 1;
    size_t n = 0, dict_len = 0;
    int rc = buffers(db);
    if (rc == 0 && version == 0) /* the room keeps views from its creation on */
        rc = marker_put(db, txn, room);
    else if (rc == 0)
        rc = keeps_views(db, txn, &is_kept, room);
    if (rc != 0 || !is_kept)
        return rc;
    if (e != NULL)
        e->is_dirty = 1; /* (3) */
    if (version % LEDGER_VIEW_BLOCK == LEDGER_VIEW_BLOCK - 1) {
        rc = block_close(db, txn, &n, room, version, st);
    } else {
        if (version > 0) {
            /* The view before: the cache's when it is of the head before. */
            if (e != NULL && e->has_view && e->view_version == version - 1 && prev_hash != NULL &&
                memcmp(e->view_hash, prev_hash, SCHEMA_HASH_BYTES) == 0) {
                memcpy(DICT(db), e->view, e->view_len);
                dict_len = e->view_len;
            } else {
                rc = view_read(db, txn, &dict_len, room, version - 1);
                if (rc != 0)
                    return rc;
                memcpy(DICT(db), ENC(db), dict_len);
            }
        }
        rc = view_encode(db, &n, room, version, st);
        if (rc != 0)
            return rc;
        uint8_t *rec = REC(db);
        size_t z = version > 0 ? ZSTD_compress_usingDict(db->cctx, rec, REC_CAP, ENC(db), n,
                                                         DICT(db), dict_len, VIEW_LEVEL_OPEN)
                               : ZSTD_compressCCtx(db->cctx, rec, REC_CAP, ENC(db), n,
                                                   VIEW_LEVEL_OPEN);
        if (ZSTD_isError(z))
            return ledger__fail(db, LEDGER_ERROR, "compressing a public view: %s",
                                ZSTD_getErrorName(z));
        rc = record_put(db, txn, room, version, KIND_OPEN, rec, z);
    }
    if (e != NULL) {
        e->has_view = rc == 0;
        if (rc == 0) {
            memcpy(e->view, ENC(db), n);
            e->view_len = n;
            e->view_version = version;
            memcpy(e->view_hash, hash, SCHEMA_HASH_BYTES);
        }
    }
    return rc;
}

int ledger__view_check(ledger *db, ledger_txn *txn, uint32_t *bad_out, const char *room,
                       uint32_t head, const uint8_t (*digests)[ENGINE_DIGEST_BYTES])
{
    size_t off[LEDGER_VIEW_BLOCK] = {0}, len[LEDGER_VIEW_BLOCK] = {0};
    size_t n = 0, dict_len = 0;
    int is_block = 0, is_kept = 0;
    engine_state view;
    int rc = buffers(db);
    if (rc == 0)
        rc = keeps_views(db, txn, &is_kept, room);
    if (rc != 0)
        return rc;
    if (!is_kept)
        return ledger__fail(db, LEDGER_ENOTFOUND, "room %s keeps no public views", room);
    for (uint32_t v = 0; v <= head; v++) {
        uint32_t first = v - v % LEDGER_VIEW_BLOCK;
        const uint8_t *at;
        *bad_out = v;
        if (v == first) {
            rc = block_get(db, txn, off, len, room, first, DICT(db), dict_len);
            is_block = rc == 0;
            if (rc == MDB_NOTFOUND)
                rc = 0;
            if (rc != 0)
                return rc;
        }
        if (is_block) {
            at = RAW(db) + off[v - first];
            n = len[v - first];
        } else {
            rc = open_view_next(db, txn, &n, room, v, dict_len);
            if (rc != 0)
                return rc;
            at = ENC(db);
        }
        if (engine_view_decode(&view, at, n) != 0)
            return LEDGER_CORRUPT_MSG(db, "public view %s@%u does not decode", room, v);
        if (digests != NULL) {
            uint8_t d[ENGINE_DIGEST_BYTES];
            crypto_generichash(d, sizeof d, at, n, NULL, 0);
            if (memcmp(d, digests[v], sizeof d) != 0)
                return ledger__fail(db, LEDGER_EBADSIG, "room %s: the public view of %u "
                                    "differs from the fold", room, v);
        }
        memmove(DICT(db), at, n);
        dict_len = n;
    }
    return 0;
}

void ledger__view_digest(uint8_t out[ENGINE_DIGEST_BYTES], const engine_state *st)
{
    engine_state view;
    uint8_t enc[ENGINE_STATE_ENCODED_MAX];
    engine_view(&view, st, ENGINE_VIEW_PUBLIC);
    size_t n = engine_state_encode(enc, sizeof enc, &view);
    crypto_generichash(out, ENGINE_DIGEST_BYTES, enc, n < sizeof enc ? n : sizeof enc, NULL, 0);
}

int ledger_public_view_at(ledger *db, engine_state *out, const char *room, uint32_t version)
{
    ledger_txn txn;
    ledger_head_rec head;
    memset(out, 0, sizeof *out);
    if (!ledger__room_valid(room))
        return ledger__room_refuse(db, room);
    int rc = ledger__txn_begin(&txn, db, 0);
    if (rc != 0)
        return rc;
    rc = ledger__head_read(db, &txn, &head, room);
    if (rc == 0 && version > head.version)
        rc = ledger__fail(db, LEDGER_ENOTFOUND, "room %s has no version %u (head %u)", room,
                          version, head.version);
    if (rc == 0)
        rc = ledger__view_get(db, &txn, out, room, version);
    ledger__txn_abort(&txn);
    return rc;
}
