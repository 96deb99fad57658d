/*
 * test_archive.c - archives, restore and reveal: a backup restores to the
 * same room; a restore extends a prefix and refuses a divergent history;
 * truncated, malformed and tampered archives (every byte flipped in turn)
 * are refused with nothing written; unknown keys are refused unless
 * trusted; backup_all writes archives and a compact copy that verifies;
 * reveal waits for the end of the game unless forced and checks the
 * commitment.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <time.h>

#include "tests/ledger/helpers.h"

#define EVENTS_WANTED 12
#define MAX_RECORDS 128
#define CONTENT_MAX ((size_t)1 << 20)

/* Two ledgers with different keys: A makes rooms, B receives them. */
typedef struct world {
    fixture *a;
    fixture *b;
    char tmp[256];                 /* a scratch file in A's directory */
} world;

static int setup(void **state)
{
    world *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->a = fixture_new(2);
    w->b = fixture_new(2);
    snprintf(w->tmp, sizeof w->tmp, "%s/scratch.mentat-archive", w->a->dir);
    *state = w;
    return 0;
}

static int teardown(void **state)
{
    world *w = *state;
    fixture_free(w->a);
    fixture_free(w->b);
    free(w);
    return 0;
}

/* =============================================================== helpers */

static void path_in(char *out, size_t cap, const fixture *f, const char *name)
{
    assert_true((size_t)snprintf(out, cap, "%s/%s", f->dir, name) < cap);
}

static uint8_t *file_read(const char *path, size_t *len_out)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 0, SEEK_END), 0);
    long n = ftell(fp);
    assert_true(n >= 0);
    rewind(fp);
    uint8_t *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len_out = (size_t)n;
    return buf;
}

static void file_write(const char *path, const uint8_t *p, size_t len)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(p, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
}

static void backup(ledger *db, const char *room, const char *path)
{
    int rc = ledger_backup_room(db, room, path);
    if (rc != 0)
        fprintf(stderr, "ledger_backup_room: %s\n", ledger_errmsg(db));
    assert_int_equal(rc, 0);
}

static int restore(ledger *db, ledger_restore_report *rep, const char *path, int trust)
{
    ledger_restore_report tmp;
    return ledger_restore(db, rep != NULL ? rep : &tmp, path, trust);
}

static int count_room(void *ctx, const ledger_room_info *room)
{
    (void)room;
    (*(size_t *)ctx)++;
    return 0;
}

static size_t n_rooms(ledger *db)
{
    size_t n = 0;
    assert_int_equal(ledger_room_foreach(db, count_room, &n), 0);
    return n;
}

/* Nothing at all in db: no room, no event, no key row but its own. */
static void assert_empty(ledger *db)
{
    ledger_stats st;
    assert_int_equal(n_rooms(db), 0);
    assert_int_equal(ledger_stats_get(db, &st), 0);
    assert_int_equal(st.n_rooms, 0);
    assert_int_equal(st.n_events, 0);
}

/* The same stored genesis, events and head in x and y. */
static void assert_same_room(ledger *x, ledger *y, const char *room)
{
    uint32_t vx, vy;
    uint8_t hx[SCHEMA_HASH_BYTES], hy[SCHEMA_HASH_BYTES];
    assert_int_equal(ledger_head(x, room, &vx, hx), 0);
    assert_int_equal(ledger_head(y, room, &vy, hy), 0);
    assert_int_equal(vx, vy);
    assert_memory_equal(hx, hy, SCHEMA_HASH_BYTES);
    ledger_txn tx, ty;
    assert_int_equal(ledger__txn_begin(&tx, x, 0), 0);
    assert_int_equal(ledger__txn_begin(&ty, y, 0), 0);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, gx, gy;
    assert_int_equal(ledger__get(&tx, x->dbi_rooms, &k, &gx), 0);
    assert_int_equal(ledger__get(&ty, y->dbi_rooms, &k, &gy), 0);
    assert_int_equal(gx.mv_size, gy.mv_size);
    assert_memory_equal(gx.mv_data, gy.mv_data, gx.mv_size);
    for (uint32_t v = 1; v <= vx; v++) {
        const uint8_t *rx, *ry;
        size_t lx, ly;
        assert_int_equal(ledger__event_read(x, &tx, room, v, &rx, &lx), 0);
        assert_int_equal(ledger__event_read(y, &ty, room, v, &ry, &ly), 0);
        assert_int_equal(lx, ly);
        assert_memory_equal(rx, ry, lx);
    }
    ledger__txn_abort(&tx);
    ledger__txn_abort(&ty);
}

/* A room of A with up to n events; returns how many. */
static uint32_t room_played(ledger *db, char room[SCHEMA_ROOM_CHARS + 1], uint32_t n)
{
    room_new(db, room);
    return play(db, room, n);
}

static int has_reveal(ledger *db, const char *room)
{
    ledger_txn txn;
    uint8_t kbuf[LEDGER_REVEAL_KEY_BYTES];
    ledger__reveal_key(kbuf, room);
    MDB_val k = {sizeof kbuf, kbuf}, v;
    assert_int_equal(ledger__txn_begin(&txn, db, 0), 0);
    int rc = ledger__get(&txn, db->dbi_meta, &k, &v);
    ledger__txn_abort(&txn);
    assert_true(rc == 0 || rc == MDB_NOTFOUND);
    return rc == 0;
}

/* The version of the last checkpoint at or before v. */
static int ckpt_at(ledger *db, uint32_t *at, const char *room, uint32_t v)
{
    ledger_txn txn;
    assert_int_equal(ledger__txn_begin(&txn, db, 0), 0);
    int rc = ledger__checkpoint_find(db, &txn, NULL, at, NULL, room, v);
    ledger__txn_abort(&txn);
    return rc;
}

static int errmsg_has(ledger *db, const char *s)
{
    return strstr(ledger_errmsg(db), s) != NULL;
}

/* ============================================== archive content surgery */

/* An archive's records, parsed out of its frame, to be altered and packed
 * again: what a careless or hostile writer could produce. */
typedef struct content {
    uint8_t *rec[MAX_RECORDS];
    size_t len[MAX_RECORDS];
    size_t n;
} content;

static void content_free(content *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->rec[i]);
    c->n = 0;
}

static void content_insert(content *c, size_t at, const uint8_t *p, size_t len)
{
    assert_true(c->n < MAX_RECORDS && at <= c->n);
    memmove(&c->rec[at + 1], &c->rec[at], (c->n - at) * sizeof c->rec[0]);
    memmove(&c->len[at + 1], &c->len[at], (c->n - at) * sizeof c->len[0]);
    c->rec[at] = malloc(len ? len : 1);
    assert_non_null(c->rec[at]);
    memcpy(c->rec[at], p, len);
    c->len[at] = len;
    c->n++;
}

static void content_remove(content *c, size_t at)
{
    assert_true(at < c->n);
    free(c->rec[at]);
    memmove(&c->rec[at], &c->rec[at + 1], (c->n - at - 1) * sizeof c->rec[0]);
    memmove(&c->len[at], &c->len[at + 1], (c->n - at - 1) * sizeof c->len[0]);
    c->n--;
}

static void content_insert_record(content *c, size_t at, const codec_archive_record *r)
{
    static uint8_t buf[CONTENT_MAX];
    size_t len = 0;
    assert_int_equal(codec_archive_record_encode(buf, sizeof buf, &len, r), 0);
    content_insert(c, at, buf, len);
}

static int record_kind(const content *c, size_t i)
{
    codec_archive_record r;
    char err[SCHEMA_ERRMSG];
    assert_int_equal(codec_archive_record_decode(&r, c->rec[i], c->len[i], err), 0);
    return r.kind;
}

/* Index of the nth (0-based) record of `kind`. */
static size_t record_find(const content *c, int kind, size_t nth)
{
    for (size_t i = 0; i < c->n; i++)
        if (record_kind(c, i) == kind && nth-- == 0)
            return i;
    fail_msg("no record of kind %d", kind);
    return 0;
}

/* Parses an archive file into its records, trailer included. */
static void content_unpack(content *c, const uint8_t *file, size_t len)
{
    static uint8_t data[CONTENT_MAX];
    memset(c, 0, sizeof *c);
    assert_true(len > LEDGER_ARCHIVE_MAGIC_BYTES);
    assert_memory_equal(file, LEDGER_ARCHIVE_MAGIC, LEDGER_ARCHIVE_MAGIC_BYTES);
    ZSTD_DCtx *d = ZSTD_createDCtx();
    ZSTD_inBuffer in = {file + LEDGER_ARCHIVE_MAGIC_BYTES, len - LEDGER_ARCHIVE_MAGIC_BYTES, 0};
    ZSTD_outBuffer out = {data, sizeof data, 0};
    size_t r;
    do {
        r = ZSTD_decompressStream(d, &out, &in);
        assert_false(ZSTD_isError(r));
    } while (r != 0);
    ZSTD_freeDCtx(d);
    for (size_t at = 0; at < out.pos;) {
        size_t n = 0;
        for (unsigned shift = 0;; shift += 7) {
            uint8_t b = data[at++];
            n |= (size_t)(b & 0x7F) << shift;
            if ((b & 0x80) == 0)
                break;
        }
        assert_true(at + n <= out.pos);
        content_insert(c, c->n, data + at, n);
        at += n;
    }
}

enum {
    PACK_FRESH_TRAILER = 1 << 0,   /* drop any trailer and append a correct one */
    PACK_BAD_DIGEST = 1 << 1,      /* ... whose digest is wrong */
    PACK_BAD_COUNT = 1 << 2,       /* ... whose count is wrong */
    PACK_NONMINIMAL = 1 << 3,      /* first length prefix with a needless zero group */
    PACK_ZERO_RECORD = 1 << 4,     /* a zero length before the first record */
    PACK_HUGE_LENGTH = 1 << 5,     /* a length of 2 MiB before the first record */
    WRAP_NO_DIGEST = 1 << 8,       /* no file digest frame */
    WRAP_BAD_DIGEST = 1 << 9,      /* a wrong file digest */
    WRAP_TRAILING = 1 << 10,       /* one byte after the digest */
    WRAP_NO_CHECKSUM = 1 << 11,    /* the frame without its content checksum */
    WRAP_TWO_FRAMES = 1 << 12      /* the content split over two frames */
};

static size_t put_uvarint(uint8_t *p, size_t v)
{
    size_t k = 0;
    do {
        p[k] = (uint8_t)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
        v >>= 7;
        k++;
    } while (v > 0);
    return k;
}

/* Writes c as an archive file at path, altered as flags say. */
static void content_pack(const content *c, const char *path, unsigned flags)
{
    static uint8_t data[CONTENT_MAX], file[CONTENT_MAX];
    size_t at = 0, n = c->n;
    if ((flags & PACK_FRESH_TRAILER) && n > 0 && record_kind(c, n - 1) == CODEC_ARCHIVE_TRAILER)
        n--;
    if (flags & PACK_ZERO_RECORD)
        data[at++] = 0;
    if (flags & PACK_HUGE_LENGTH)
        at += put_uvarint(data + at, (size_t)2 << 20);
    for (size_t i = 0; i < n; i++) {
        size_t k = put_uvarint(data + at, c->len[i]);
        if (i == 0 && (flags & PACK_NONMINIMAL)) {
            data[at + k - 1] |= 0x80;
            data[at + k++] = 0;
        }
        at += k;
        memcpy(data + at, c->rec[i], c->len[i]);
        at += c->len[i];
    }
    if (flags & PACK_FRESH_TRAILER) {
        codec_archive_record t;
        memset(&t, 0, sizeof t);
        t.kind = CODEC_ARCHIVE_TRAILER;
        t.n_records = (uint32_t)n + ((flags & PACK_BAD_COUNT) ? 1u : 0u);
        crypto_generichash(t.digest, SCHEMA_HASH_BYTES, data, at, NULL, 0);
        if (flags & PACK_BAD_DIGEST)
            t.digest[5] ^= 0x10;
        uint8_t rec[256];
        size_t len = 0;
        assert_int_equal(codec_archive_record_encode(rec, sizeof rec, &len, &t), 0);
        at += put_uvarint(data + at, len);
        memcpy(data + at, rec, len);
        at += len;
    }

    size_t flen = LEDGER_ARCHIVE_MAGIC_BYTES;
    memcpy(file, LEDGER_ARCHIVE_MAGIC, flen);
    ZSTD_CCtx *z = ZSTD_createCCtx();
    assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(z, ZSTD_c_checksumFlag,
                                                     (flags & WRAP_NO_CHECKSUM) ? 0 : 1)));
    size_t half = (flags & WRAP_TWO_FRAMES) ? at / 2 : at;
    size_t r = ZSTD_compress2(z, file + flen, sizeof file - flen, data, half);
    assert_false(ZSTD_isError(r));
    flen += r;
    if (flags & WRAP_TWO_FRAMES) {
        r = ZSTD_compress2(z, file + flen, sizeof file - flen, data + half, at - half);
        assert_false(ZSTD_isError(r));
        flen += r;
    }
    ZSTD_freeCCtx(z);
    if (!(flags & WRAP_NO_DIGEST)) {
        static const uint8_t frame[8] = {0x50, 0x2A, 0x4D, 0x18, 32, 0, 0, 0};
        uint8_t digest[SCHEMA_HASH_BYTES];
        crypto_generichash(digest, sizeof digest, file, flen, NULL, 0);
        if (flags & WRAP_BAD_DIGEST)
            digest[31] ^= 1;
        memcpy(file + flen, frame, sizeof frame);
        memcpy(file + flen + sizeof frame, digest, sizeof digest);
        flen += sizeof frame + sizeof digest;
    }
    if (flags & WRAP_TRAILING)
        file[flen++] = 0;
    file_write(path, file, flen);
}

/* ================================================================= tests */

static void test_archive__backup_restores_the_same_room(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1], path[256], cpath[256];
    uint32_t n = room_played(w->a->db, room, EVENTS_WANTED);
    assert_true(n >= 4);
    path_in(path, sizeof path, w->a, "room.mentat-archive");
    backup(w->a->db, room, path);

    /* A fresh ledger with A's keys: every key known, the seed unsealable. */
    fixture c;
    memset(&c, 0, sizeof c);
    c.opt = w->a->opt;
    path_in(cpath, sizeof cpath, w->a, "c.db");
    c.opt.path = cpath;
    assert_int_equal(fixture_open(&c), 0);
    ledger_restore_report rep;
    int rc = restore(c.db, &rep, path, 0);
    if (rc != 0)
        fprintf(stderr, "restore: %s\n", ledger_errmsg(c.db));
    assert_int_equal(rc, 0);
    assert_string_equal(rep.room, room);
    assert_int_equal(rep.n_events, n);
    assert_int_equal(rep.n_added, n);
    assert_true(rep.is_new_room);
    assert_same_room(w->a->db, c.db, room);

    ledger_verify_report vr;
    assert_int_equal(ledger_verify_room(c.db, &vr, room, 1), 0);
    assert_true(vr.is_refolded);
    assert_int_equal(vr.n_events, n);
    /* checkpoints every K = 2, as appends write them */
    uint32_t at = 0;
    assert_int_equal(ckpt_at(c.db, &at, room, n), 0);
    assert_int_equal(at, n - n % 2);
    engine_state sa, sc;
    uint8_t da[ENGINE_DIGEST_BYTES], dc[ENGINE_DIGEST_BYTES];
    assert_int_equal(ledger_state_at(w->a->db, &sa, room, n), 0);
    assert_int_equal(ledger_state_at(c.db, &sc, room, n), 0);
    engine_state_digest(da, &sa);
    engine_state_digest(dc, &sc);
    assert_memory_equal(da, dc, sizeof da);

    /* never over the ledger file itself */
    assert_int_equal(ledger_backup_room(w->a->db, room, w->a->path), LEDGER_EINPUT);
    assert_int_equal(verify_ok(w->a->db, room), 0);

    /* Again: nothing to add. */
    assert_int_equal(restore(c.db, &rep, path, 0), 0);
    assert_int_equal(rep.n_added, 0);
    assert_false(rep.is_new_room);
    assert_same_room(w->a->db, c.db, room);
    fixture_close(&c);

    /* The same, trusting the archive's keys: its audit key is this
     * ledger's own, registered as the fresh ledger takes its first room. */
    fixture d;
    memset(&d, 0, sizeof d);
    d.opt = w->a->opt;
    path_in(cpath, sizeof cpath, w->a, "d.db");
    d.opt.path = cpath;
    assert_int_equal(fixture_open(&d), 0);
    rc = restore(d.db, &rep, path, 1);
    if (rc != 0)
        fprintf(stderr, "restore --trust-keys: %s\n", ledger_errmsg(d.db));
    assert_int_equal(rc, 0);
    assert_int_equal(rep.n_added, n);
    assert_int_equal(ledger_verify_room(d.db, &vr, room, 1), 0);
    assert_true(vr.is_refolded);
    assert_same_room(w->a->db, d.db, room);
    fixture_close(&d);
}

static void test_archive__unknown_key_refused_unless_trusted(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1], path[256], id[16];
    uint32_t n = room_played(w->a->db, room, 3);
    path_in(path, sizeof path, w->a, "room.mentat-archive");
    backup(w->a->db, room, path);

    assert_int_equal(restore(w->b->db, NULL, path, 0), LEDGER_EKEY);
    snprintf(id, sizeof id, "%08x", w->a->db->key_id);
    assert_true(errmsg_has(w->b->db, id));
    assert_empty(w->b->db);

    ledger_restore_report rep;
    assert_int_equal(restore(w->b->db, &rep, path, 1), 0);
    assert_int_equal(rep.n_added, n);
    assert_same_room(w->a->db, w->b->db, room);
    /* the signer is now a known key of B: it verifies, and a second
     * restore needs no trust */
    assert_int_equal(verify_ok(w->b->db, room), 0);
    assert_int_equal(restore(w->b->db, &rep, path, 0), 0);
    assert_int_equal(rep.n_added, 0);
    /* B cannot unseal A's seed: the events could not be re-folded */
    ledger_verify_report vr;
    assert_int_equal(ledger_verify_room(w->b->db, &vr, room, 1), 0);
    assert_false(vr.is_refolded);
}

/* A ledger without a signing key takes the archive's own signed head (the
 * one signature over its events of format 2), so the restored room
 * verifies with its head signed, and a second ledger can take it again. */
static void test_archive__keyless_restore_keeps_the_signed_head(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1], path[256], again[256];
    uint32_t n = room_played(w->a->db, room, 5);
    path_in(path, sizeof path, w->a, "room.mentat-archive");
    backup(w->a->db, room, path);
    fixture bare;
    fixture_make_bare(&bare);
    assert_int_equal(fixture_open(&bare), 0);
    ledger_restore_report rep;
    assert_int_equal(restore(bare.db, &rep, path, 1), 0);
    assert_int_equal(rep.n_added, n);
    ledger_verify_report vr;
    assert_int_equal(ledger_verify_room(bare.db, &vr, room, 1), 0);
    assert_true(vr.is_head_signed);
    assert_int_equal(vr.n_events, n);
    snprintf(again, sizeof again, "%s/again.mentat-archive", bare.dir);
    backup(bare.db, room, again);
    assert_int_equal(restore(w->b->db, &rep, again, 1), 0);
    assert_same_room(w->a->db, w->b->db, room);
    assert_int_equal(verify_ok(w->b->db, room), 0);
    fixture_close(&bare);
    fixture_rm(&bare);
}

static void test_archive__restore_extends_a_prefix(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1], p1[256], p2[256];
    room_new(w->a->db, room);
    assert_int_equal(play(w->a->db, room, 3), 3);
    path_in(p1, sizeof p1, w->a, "short.mentat-archive");
    backup(w->a->db, room, p1);
    uint32_t more = play(w->a->db, room, EVENTS_WANTED);
    assert_true(more >= 1);
    path_in(p2, sizeof p2, w->a, "long.mentat-archive");
    backup(w->a->db, room, p2);

    ledger_restore_report rep;
    assert_int_equal(restore(w->b->db, &rep, p1, 1), 0);
    assert_int_equal(rep.n_added, 3);
    assert_true(rep.is_new_room);
    assert_int_equal(restore(w->b->db, &rep, p2, 1), 0);
    assert_int_equal(rep.n_events, 3 + more);
    assert_int_equal(rep.n_added, more);
    assert_false(rep.is_new_room);
    assert_same_room(w->a->db, w->b->db, room);
    assert_int_equal(verify_ok(w->b->db, room), 0);

    /* the shorter archive is a prefix: nothing to add, nothing changed */
    assert_int_equal(restore(w->b->db, &rep, p1, 1), 0);
    assert_int_equal(rep.n_added, 0);
    assert_same_room(w->a->db, w->b->db, room);
}

/* Appends at version 2 an action other than play()'s would be. */
static void play_other(ledger *db, const char *room)
{
    static engine_legal legal[ENGINE_LEGAL_MAX];
    engine_state st;
    engine_action first, act;
    uint32_t head;
    assert_true(next_action(db, &first, room, &head));
    assert_int_equal(ledger_state_at(db, &st, room, head), 0);
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, &st, ENGINE_SEAT_ENGINE);
    act = first;
    for (size_t i = 0; i < n && i < ENGINE_LEGAL_MAX; i++) {
        const engine_legal *l = &legal[i];
        engine_action cand;
        memset(&cand, 0, sizeof cand);
        cand.kind = l->kind;
        cand.seat = l->seat;
        for (unsigned a = 0; a < ENGINE_ACTION_MAX_ARGS; a++)
            cand.arg[a] = l->hi[a];
        if (engine_legal_contains(l, &cand) && memcmp(&cand, &first, sizeof cand) != 0) {
            act = cand;
            break;
        }
    }
    if (memcmp(&act, &first, sizeof act) == 0) {
        /* one choice only: the committed time still tells them apart */
        struct timespec ts = {0, 5L * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    ledger_append_result res;
    assert_int_equal(ledger_append(db, &res, room, head, &act), 0);
    assert_int_equal(res.verdict, ENGINE_ACCEPTED);
}

static void test_archive__divergent_history_refused(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1], copy_dir[256], path[256], div[256];
    room_new(w->a->db, room);
    assert_int_equal(play(w->a->db, room, 1), 1);
    /* a twin of A at version 1, through backup_all's copy */
    path_in(copy_dir, sizeof copy_dir, w->a, "twin");
    assert_int_equal(ledger_backup_all(w->a->db, copy_dir, NULL), 0);
    fixture twin;
    memset(&twin, 0, sizeof twin);
    twin.opt = w->a->opt;
    char twin_path[300];
    snprintf(twin_path, sizeof twin_path, "%s/mentat.db", copy_dir);
    twin.opt.path = twin_path;
    assert_int_equal(fixture_open(&twin), 0);

    assert_int_equal(play(w->a->db, room, 2), 2);
    play_other(twin.db, room);
    path_in(path, sizeof path, w->a, "a.mentat-archive");
    backup(w->a->db, room, path);
    path_in(div, sizeof div, w->a, "div.mentat-archive");
    backup(twin.db, room, div);

    /* same genesis, same event 1, another event 2 */
    uint32_t before;
    uint8_t hash[SCHEMA_HASH_BYTES], after_hash[SCHEMA_HASH_BYTES];
    assert_int_equal(ledger_head(w->a->db, room, &before, hash), 0);
    ledger_stats st0, st1;
    assert_int_equal(ledger_stats_get(w->a->db, &st0), 0);
    assert_int_equal(restore(w->a->db, NULL, div, 0), LEDGER_EDIVERGED);
    uint32_t after;
    assert_int_equal(ledger_head(w->a->db, room, &after, after_hash), 0);
    assert_int_equal(after, before);
    assert_memory_equal(hash, after_hash, SCHEMA_HASH_BYTES);
    assert_int_equal(ledger_stats_get(w->a->db, &st1), 0);
    assert_int_equal(st1.n_events, st0.n_events);

    /* and the other way round, on a third ledger holding A's history */
    assert_int_equal(restore(w->b->db, NULL, path, 1), 0);
    assert_int_equal(restore(w->b->db, NULL, div, 1), LEDGER_EDIVERGED);
    assert_same_room(w->a->db, w->b->db, room);
    fixture_close(&twin);
}

static void test_archive__every_byte_flip_refused(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1], path[256];
    assert_int_equal(room_played(w->a->db, room, 2), 2);
    assert_int_equal(ledger_reveal(w->a->db, (uint8_t[ENGINE_SEED_BYTES]){0}, room, 1), 0);
    path_in(path, sizeof path, w->a, "small.mentat-archive");
    backup(w->a->db, room, path);
    size_t len;
    uint8_t *orig = file_read(path, &len);
    uint8_t *buf = malloc(len + 1);
    assert_non_null(buf);
    static const uint8_t masks[] = {0x01, 0x10, 0x80, 0xFF};
    for (size_t i = 0; i < len; i++) {
        for (size_t m = 0; m < sizeof masks; m++) {
            memcpy(buf, orig, len);
            buf[i] ^= masks[m];
            file_write(w->tmp, buf, len);
            int rc = restore(w->b->db, NULL, w->tmp, 1);
            if (rc == 0)
                fail_msg("byte %zu ^ 0x%02x of %zu accepted", i, masks[m], len);
        }
    }
    assert_empty(w->b->db);
    /* the untouched file restores */
    file_write(w->tmp, orig, len);
    assert_int_equal(restore(w->b->db, NULL, w->tmp, 1), 0);
    free(orig);
    free(buf);
}

static void test_archive__truncated_and_extended_refused(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1], path[256];
    assert_int_equal(room_played(w->a->db, room, 3), 3);
    path_in(path, sizeof path, w->a, "t.mentat-archive");
    backup(w->a->db, room, path);
    size_t len;
    uint8_t *orig = file_read(path, &len);
    for (size_t cut = 0; cut < len; cut++) {
        file_write(w->tmp, orig, cut);
        int rc = restore(w->b->db, NULL, w->tmp, 1);
        if (rc == 0)
            fail_msg("a cut at %zu of %zu accepted", cut, len);
        assert_true(rc == LEDGER_ECORRUPT || rc == LEDGER_EBADSIG);
    }
    uint8_t *longer = malloc(len + 64);
    assert_non_null(longer);
    memcpy(longer, orig, len);
    memset(longer + len, 0, 64);
    for (size_t extra = 1; extra <= 64; extra *= 2) {
        file_write(w->tmp, longer, len + extra);
        assert_int_equal(restore(w->b->db, NULL, w->tmp, 1), LEDGER_ECORRUPT);
    }
    /* a second copy of the digest frame, and a second whole archive */
    memcpy(longer + len, orig + len - 40, 40);
    file_write(w->tmp, longer, len + 40);
    assert_int_equal(restore(w->b->db, NULL, w->tmp, 1), LEDGER_ECORRUPT);
    assert_int_equal(restore(w->b->db, NULL, "/nonexistent/x.mentat-archive", 1),
                     LEDGER_ENOTFOUND);
    assert_int_equal(restore(w->b->db, NULL, w->a->dir, 1), LEDGER_EINPUT);
    assert_empty(w->b->db);
    free(longer);
    free(orig);
}

/* One alteration of a valid archive's records and what it must give. */
typedef struct surgery {
    const char *name;
    void (*cut)(content *c);       /* may be NULL */
    unsigned flags;                /* PACK_* and WRAP_* */
    int rc;                        /* the code restore must return */
} surgery;

static void swap_events(content *c)
{
    size_t i = record_find(c, CODEC_ARCHIVE_EVENT, 0), j = i + 1;
    uint8_t *p = c->rec[i];
    size_t l = c->len[i];
    c->rec[i] = c->rec[j];
    c->len[i] = c->len[j];
    c->rec[j] = p;
    c->len[j] = l;
}

static void drop_event(content *c)
{
    content_remove(c, record_find(c, CODEC_ARCHIVE_EVENT, 1));
}

/* Rewrites the header with f applied. */
static void header_edit(content *c, void (*f)(codec_archive_record *r))
{
    codec_archive_record r;
    char err[SCHEMA_ERRMSG];
    size_t i = record_find(c, CODEC_ARCHIVE_HEADER, 0);
    assert_int_equal(codec_archive_record_decode(&r, c->rec[i], c->len[i], err), 0);
    f(&r);
    content_remove(c, i);
    content_insert_record(c, i, &r);
}

static void fewer_events(codec_archive_record *r)
{
    r->n_events--;
}

static void drop_event_fix_header(content *c)
{
    drop_event(c);
    header_edit(c, fewer_events);
}

static void format_two(codec_archive_record *r)
{
    r->format_version = 2;
}

static void header_format_two(content *c)
{
    header_edit(c, format_two);
}

static void other_room(codec_archive_record *r)
{
    memcpy(r->room, r->room[0] == '2' ? "33333333" : "22222222", SCHEMA_ROOM_CHARS + 1);
}

static void header_other_room(content *c)
{
    header_edit(c, other_room);
}

static void drop_trailer(content *c)
{
    content_remove(c, record_find(c, CODEC_ARCHIVE_TRAILER, 0));
}

static void record_after_trailer(content *c)
{
    size_t k = record_find(c, CODEC_ARCHIVE_KEY, 0);
    content_insert(c, c->n, c->rec[k], c->len[k]);
}

static void header_after_key(content *c)
{
    uint8_t *h = c->rec[0];
    size_t l = c->len[0];
    c->rec[0] = c->rec[1];
    c->len[0] = c->len[1];
    c->rec[1] = h;
    c->len[1] = l;
}

static void two_headers(content *c)
{
    content_insert(c, 1, c->rec[0], c->len[0]);
}

static void genesis_first(content *c)
{
    size_t g = record_find(c, CODEC_ARCHIVE_GENESIS, 0);
    while (g > 1 && record_kind(c, g - 1) == CODEC_ARCHIVE_KEY) {
        content_insert(c, g - 1, c->rec[g], c->len[g]);
        content_remove(c, g + 1);
        g--;
    }
}

static void drop_genesis(content *c)
{
    content_remove(c, record_find(c, CODEC_ARCHIVE_GENESIS, 0));
}

static void drop_keys(content *c)
{
    while (record_kind(c, 1) == CODEC_ARCHIVE_KEY)
        content_remove(c, 1);
}

static void key_wrong_id(content *c)
{
    codec_archive_record r;
    char err[SCHEMA_ERRMSG];
    size_t i = record_find(c, CODEC_ARCHIVE_KEY, 0);
    assert_int_equal(codec_archive_record_decode(&r, c->rec[i], c->len[i], err), 0);
    r.key.key_id ^= 1;
    content_remove(c, i);
    content_insert_record(c, i, &r);
}

static void keys_twice(content *c)
{
    size_t i = record_find(c, CODEC_ARCHIVE_KEY, 0);
    content_insert(c, i, c->rec[i], c->len[i]);
}

static void garbage_record(content *c)
{
    static const uint8_t junk[] = {0xFF, 0xFF, 0xFF, 0x01, 0x02};
    content_insert(c, 1, junk, sizeof junk);
}

/* Re-encodes the stored record of `kind` (event 2 or the genesis) with a
 * field changed, its signature left as it was. */
static void record_retimed(content *c, int kind)
{
    static uint8_t rec[CONTENT_MAX];
    codec_archive_record r;
    char err[SCHEMA_ERRMSG];
    size_t i = record_find(c, kind, kind == CODEC_ARCHIVE_EVENT ? 1 : 0);
    assert_int_equal(codec_archive_record_decode(&r, c->rec[i], c->len[i], err), 0);
    size_t len = 0;
    rec[0] = LEDGER_TAG_PROTOBUF;
    if (kind == CODEC_ARCHIVE_EVENT) {
        codec_event ev;
        assert_int_equal(codec_event_decode(&ev, r.bytes + 1, r.bytes_len - 1, err), 0);
        ev.committed_at++;
        assert_int_equal(codec_event_encode(rec + 1, sizeof rec - 1, &len, &ev, 0), 0);
    } else {
        codec_genesis g;
        assert_int_equal(codec_genesis_decode(&g, r.bytes + 1, r.bytes_len - 1, err), 0);
        g.created_at++;
        assert_int_equal(codec_genesis_encode(rec + 1, sizeof rec - 1, &len, &g), 0);
    }
    r.bytes = rec;
    r.bytes_len = len + 1;
    content_remove(c, i);
    content_insert_record(c, i, &r);
}

static void event_retimed(content *c)
{
    record_retimed(c, CODEC_ARCHIVE_EVENT);
}

static void genesis_retimed(content *c)
{
    record_retimed(c, CODEC_ARCHIVE_GENESIS);
}

static void wrong_seed(content *c)
{
    codec_archive_record r;
    memset(&r, 0, sizeof r);
    r.kind = CODEC_ARCHIVE_REVEALED_SEED;
    randombytes_buf(r.seed, sizeof r.seed);
    /* Where a seed goes: before the room key's record, else the trailer. */
    size_t at = record_find(c, CODEC_ARCHIVE_TRAILER, 0);
    for (size_t i = 0; i < c->n; i++)
        if (record_kind(c, i) == CODEC_ARCHIVE_ROOM_KEY) {
            at = i;
            break;
        }
    content_insert_record(c, at, &r);
}

static void seed_twice(content *c)
{
    wrong_seed(c);
    wrong_seed(c);
}

static void drop_head(content *c)
{
    content_remove(c, record_find(c, CODEC_ARCHIVE_HEAD, 0));
}

/* Rewrites the signed head with f applied. */
static void head_edit(content *c, void (*f)(codec_receipt *h))
{
    codec_archive_record r;
    char err[SCHEMA_ERRMSG];
    size_t i = record_find(c, CODEC_ARCHIVE_HEAD, 0);
    assert_int_equal(codec_archive_record_decode(&r, c->rec[i], c->len[i], err), 0);
    f(&r.head);
    content_remove(c, i);
    content_insert_record(c, i, &r);
}

static void bad_signature(codec_receipt *h)
{
    h->signature[7] ^= 1;
}

static void head_badly_signed(content *c)
{
    head_edit(c, bad_signature);
}

static void earlier_version(codec_receipt *h)
{
    h->version--;
}

static void head_of_an_earlier_version(content *c)
{
    head_edit(c, earlier_version);
}

static void other_root(codec_receipt *h)
{
    h->tree_root[0] ^= 1;
}

static void head_of_another_tree(content *c)
{
    head_edit(c, other_root);
}

static void head_twice(content *c)
{
    size_t i = record_find(c, CODEC_ARCHIVE_HEAD, 0);
    content_insert(c, i, c->rec[i], c->len[i]);
}

static const surgery surgeries[] = {
    {"untouched, repacked", NULL, PACK_FRESH_TRAILER, 0},
    {"events swapped", swap_events, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"event dropped", drop_event, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"event dropped, header count fixed", drop_event_fix_header, PACK_FRESH_TRAILER,
     LEDGER_ECORRUPT},
    {"no trailer", drop_trailer, 0, LEDGER_ECORRUPT},
    {"trailer digest wrong", NULL, PACK_FRESH_TRAILER | PACK_BAD_DIGEST, LEDGER_EBADSIG},
    {"trailer count wrong", NULL, PACK_FRESH_TRAILER | PACK_BAD_COUNT, LEDGER_ECORRUPT},
    {"record after the trailer", record_after_trailer, 0, LEDGER_ECORRUPT},
    {"header after a key", header_after_key, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"two headers", two_headers, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"genesis before the keys", genesis_first, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"no keys", drop_keys, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"no genesis", drop_genesis, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"key under another id", key_wrong_id, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"a key twice", keys_twice, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"undecodable record", garbage_record, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"non-minimal length", NULL, PACK_FRESH_TRAILER | PACK_NONMINIMAL, LEDGER_ECORRUPT},
    {"zero-length record", NULL, PACK_FRESH_TRAILER | PACK_ZERO_RECORD, LEDGER_ECORRUPT},
    {"2 MiB record length", NULL, PACK_FRESH_TRAILER | PACK_HUGE_LENGTH, LEDGER_ECORRUPT},
    {"header format 2", header_format_two, PACK_FRESH_TRAILER, LEDGER_EINPUT},
    {"header names another room", header_other_room, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"event 2 re-timed", event_retimed, PACK_FRESH_TRAILER, LEDGER_EBADSIG},
    {"genesis re-timed", genesis_retimed, PACK_FRESH_TRAILER, LEDGER_EBADSIG},
    {"revealed seed wrong", wrong_seed, PACK_FRESH_TRAILER, LEDGER_EBADSIG},
    {"revealed seed twice", seed_twice, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    /* events of format 2: the signed head is what covers them */
    {"no signed head", drop_head, PACK_FRESH_TRAILER, LEDGER_EBADSIG},
    {"head badly signed", head_badly_signed, PACK_FRESH_TRAILER, LEDGER_EBADSIG},
    {"head of an earlier version", head_of_an_earlier_version, PACK_FRESH_TRAILER,
     LEDGER_ECORRUPT},
    {"head of another tree", head_of_another_tree, PACK_FRESH_TRAILER, LEDGER_EBADSIG},
    {"head twice", head_twice, PACK_FRESH_TRAILER, LEDGER_ECORRUPT},
    {"no file digest", NULL, PACK_FRESH_TRAILER | WRAP_NO_DIGEST, LEDGER_ECORRUPT},
    {"file digest wrong", NULL, PACK_FRESH_TRAILER | WRAP_BAD_DIGEST, LEDGER_EBADSIG},
    {"byte after the digest", NULL, PACK_FRESH_TRAILER | WRAP_TRAILING, LEDGER_ECORRUPT},
    {"frame without checksum", NULL, PACK_FRESH_TRAILER | WRAP_NO_CHECKSUM, LEDGER_ECORRUPT},
    {"two frames", NULL, PACK_FRESH_TRAILER | WRAP_TWO_FRAMES, LEDGER_ECORRUPT},
};

static void test_archive__malformed_content_refused(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1], path[256];
    assert_true(room_played(w->a->db, room, 4) >= 2);
    path_in(path, sizeof path, w->a, "m.mentat-archive");
    backup(w->a->db, room, path);
    size_t len;
    uint8_t *orig = file_read(path, &len);
    for (size_t s = 0; s < sizeof surgeries / sizeof surgeries[0]; s++) {
        const surgery *op = &surgeries[s];
        content c;
        content_unpack(&c, orig, len);
        if (op->cut != NULL)
            op->cut(&c);
        content_pack(&c, w->tmp, op->flags);
        content_free(&c);
        int rc = restore(w->b->db, NULL, w->tmp, 1);
        if (rc != op->rc)
            fail_msg("%s: restore gave %d (%s), not %d", op->name, rc, ledger_errmsg(w->b->db),
                     op->rc);
        /* what a user reads names the damage, not a place in our sources */
        if (rc != 0 && strstr(ledger_errmsg(w->b->db), ".c:") != NULL)
            fail_msg("%s: the message names a source line: %s", op->name,
                     ledger_errmsg(w->b->db));
        if (op->rc == 0) {
            assert_int_equal(n_rooms(w->b->db), 1);
            fixture_close(w->b);
            unlink(w->b->path);
            assert_int_equal(fixture_open(w->b), 0);
        }
        assert_empty(w->b->db);
    }
    free(orig);
}

static void test_archive__backup_all_writes_archives_and_a_copy(void **state)
{
    world *w = *state;
    char r1[SCHEMA_ROOM_CHARS + 1], r2[SCHEMA_ROOM_CHARS + 1], dir[256], path[300];
    room_played(w->a->db, r1, 5);
    room_played(w->a->db, r2, 2);
    path_in(dir, sizeof dir, w->a, "backup/nested");
    assert_int_equal(ledger_backup_all(w->a->db, dir, NULL), LEDGER_EINPUT); /* no parent */
    path_in(dir, sizeof dir, w->a, "backup");
    size_t n = 0;
    assert_int_equal(ledger_backup_all(w->a->db, dir, &n), 0);
    assert_int_equal(n, 2);

    /* the compact copy: a plain file that opens and verifies */
    struct stat st;
    snprintf(path, sizeof path, "%s/mentat.db", dir);
    assert_int_equal(stat(path, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    fixture copy;
    memset(&copy, 0, sizeof copy);
    copy.opt = w->a->opt;
    copy.opt.path = path;
    copy.opt.is_read_only = 1;
    assert_int_equal(fixture_open(&copy), 0);
    assert_int_equal(n_rooms(copy.db), 2);
    const char *rooms[2] = {r1, r2};
    for (int i = 0; i < 2; i++) {
        ledger_verify_report vr;
        assert_int_equal(ledger_verify_room(copy.db, &vr, rooms[i], 1), 0);
        assert_true(vr.is_refolded);
        assert_same_room(w->a->db, copy.db, rooms[i]);
    }
    fixture_close(&copy);

    /* one archive per room, nothing else left behind */
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s.mentat-archive", dir, rooms[i]);
        assert_int_equal(restore(w->b->db, NULL, path, 1), 0);
        assert_same_room(w->a->db, w->b->db, rooms[i]);
    }
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    size_t n_files = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            assert_true(strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0);
            continue;
        }
        if (strcmp(e->d_name, "mentat.db-lock") != 0)
            n_files++;
    }
    closedir(d);
    assert_int_equal(n_files, 3);

    /* again over the same directory: replaced in place */
    assert_int_equal(ledger_backup_all(w->a->db, dir, &n), 0);
    assert_int_equal(n, 2);

    /* never over the live ledger: A's file is A's directory's mentat.db */
    assert_int_equal(ledger_backup_all(w->a->db, w->a->dir, &n), LEDGER_EINPUT);
    assert_int_equal(n, 0);
    assert_int_equal(n_rooms(w->a->db), 2);
    assert_int_equal(verify_ok(w->a->db, r1), 0);
}

static void test_archive__restore_is_atomic_under_faults(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1], path[256];
    uint32_t n = room_played(w->a->db, room, 5);
    path_in(path, sizeof path, w->a, "f.mentat-archive");
    backup(w->a->db, room, path);
    int rc = -1;
    for (long countdown = 1; countdown < 400 && rc != 0; countdown++) {
        ledger__fault_set(w->b->db, countdown, EIO);
        rc = restore(w->b->db, NULL, path, 1);
        ledger__fault_set(w->b->db, 0, 0);
        if (rc != 0)
            assert_empty(w->b->db);
    }
    assert_int_equal(rc, 0);
    uint32_t head;
    assert_int_equal(ledger_head(w->b->db, room, &head, NULL), 0);
    assert_int_equal(head, n);
    assert_int_equal(verify_ok(w->b->db, room), 0);
}

static void test_reveal__refused_before_game_over(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1];
    uint8_t seed[ENGINE_SEED_BYTES];
    room_played(w->a->db, room, 3);
    assert_int_equal(ledger_reveal(w->a->db, seed, room, 0), LEDGER_EINPUT);
    assert_true(errmsg_has(w->a->db, "not over"));
    assert_false(has_reveal(w->a->db, room));
    assert_int_equal(ledger_reveal(w->a->db, seed, "NOTAROOM", 1), LEDGER_EINPUT);
    assert_int_equal(ledger_reveal(w->a->db, seed, "22222222", 1), LEDGER_ENOTFOUND);
    /* B holds no audit key for A's rooms */
    char path[256];
    path_in(path, sizeof path, w->a, "r.mentat-archive");
    backup(w->a->db, room, path);
    assert_int_equal(restore(w->b->db, NULL, path, 1), 0);
    assert_int_equal(ledger_reveal(w->b->db, seed, room, 1), LEDGER_EKEY);
}

static void test_reveal__forced_reveal_travels_with_the_archive(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1], path[256];
    uint8_t seed[ENGINE_SEED_BYTES], again[ENGINE_SEED_BYTES], h[SCHEMA_HASH_BYTES];
    uint32_t n = room_played(w->a->db, room, 4);
    assert_int_equal(ledger_reveal(w->a->db, seed, room, 1), 0);
    codec_genesis g;
    assert_int_equal(ledger_genesis_get(w->a->db, &g, room), 0);
    crypto_generichash(h, sizeof h, seed, sizeof seed, NULL, 0);
    assert_memory_equal(h, g.seed_commitment, sizeof h);
    assert_true(has_reveal(w->a->db, room));
    /* once revealed it is public: given again without force */
    assert_int_equal(ledger_reveal(w->a->db, again, room, 0), 0);
    assert_memory_equal(seed, again, sizeof seed);

    /* B has another audit key, but the archive carries the seed */
    path_in(path, sizeof path, w->a, "rv.mentat-archive");
    backup(w->a->db, room, path);
    ledger_restore_report rep;
    assert_int_equal(restore(w->b->db, &rep, path, 1), 0);
    assert_int_equal(rep.n_added, n);
    assert_true(has_reveal(w->b->db, room));
    ledger_verify_report vr;
    assert_int_equal(ledger_verify_room(w->b->db, &vr, room, 1), 0);
    assert_true(vr.is_refolded);
    assert_int_equal(ledger_reveal(w->b->db, again, room, 0), 0);
    assert_memory_equal(seed, again, sizeof seed);
    /* checkpoints could be written: the fold had the seed */
    uint32_t at = 0;
    assert_int_equal(ckpt_at(w->b->db, &at, room, n), 0);
    assert_int_equal(at, n - n % 2);
}

typedef struct tamper_ctx {
    const char *room;
} tamper_ctx;

/* Re-signs the genesis with a commitment that no seed matches. */
static int tamper_body(ledger_txn *txn, void *vctx)
{
    tamper_ctx *ctx = vctx;
    ledger *db = txn->db;
    codec_genesis g;
    uint8_t canon[512], rec[1024];
    size_t len = 0;
    int rc = ledger__genesis_read(db, txn, &g, ctx->room);
    if (rc != 0)
        return rc;
    g.seed_commitment[0] ^= 0x5A;
    size_t clen = ledger__genesis_canonical(canon, sizeof canon, &g);
    assert_true(clen > 0);
    rc = ledger__sign(db, g.signature, canon, clen);
    if (rc == 0)
        rc = ledger__genesis_record_encode(db, rec, sizeof rec, &len, &g);
    if (rc != 0)
        return rc;
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)ctx->room}, v = {len, rec};
    return ledger__put(txn, db->dbi_rooms, &k, &v, 0);
}

static void test_reveal__commitment_mismatch_detected(void **state)
{
    world *w = *state;
    char room[SCHEMA_ROOM_CHARS + 1];
    uint8_t seed[ENGINE_SEED_BYTES];
    room_new(w->a->db, room);
    tamper_ctx ctx = {room};
    assert_int_equal(ledger__write(w->a->db, tamper_body, &ctx), 0);
    ledger__cache_forget(w->a->db, room);
    assert_int_equal(ledger_reveal(w->a->db, seed, room, 1), LEDGER_EBADSIG);
    assert_false(has_reveal(w->a->db, room));
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_archive__backup_restores_the_same_room, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_archive__unknown_key_refused_unless_trusted, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_archive__keyless_restore_keeps_the_signed_head,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_archive__restore_extends_a_prefix, setup, teardown),
        cmocka_unit_test_setup_teardown(test_archive__divergent_history_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_archive__every_byte_flip_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_archive__truncated_and_extended_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_archive__malformed_content_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_archive__backup_all_writes_archives_and_a_copy,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_archive__restore_is_atomic_under_faults, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_reveal__refused_before_game_over, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reveal__forced_reveal_travels_with_the_archive,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_reveal__commitment_mismatch_detected, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
