/*
 * test_tamper.c - an operator holding the ledger key turns on its seats:
 * a room forged, reordered, truncated, rewritten, forked and rolled back,
 * each caught by verify where the file alone shows it (the signed head
 * catches a truncation) and by the seats' receipts (signed tree heads)
 * where only they can (a rewrite re-signed with the key, a whole file
 * rolled back; over events of format 2 a head downgraded to an older
 * build's unsigned one fails verify itself), with
 * the versions where the histories part.
 *
 * The tampering goes straight at the LMDB file through the ledger's own
 * internals, as an operator with the file and the keys could.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "ledger/internal.h"
#include "tests/inspect/helpers.h"

#define N_PLAYED 40

static int setup(void **state)
{
    engine_config cfg;
    test_config_six(&cfg);
    ifix *f = ifix_new(&cfg, 0x7a3be001u, N_PLAYED, 16);
    assert_int_equal(f->head, N_PLAYED);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    ifix_free(*state);
    return 0;
}

/* ------------------------------------------------------- the operator */

typedef struct cut {
    const char *room;
    uint32_t keep;                 /* versions kept */
    int is_unsigned;               /* 1 = the head rewritten unsigned, as older builds wrote it */
} cut;

/* Deletes every record of the room past version c->keep (events, tree
 * records, checkpoints; and its public views) and moves the head back:
 * what a careful operator deleting the room's last events does. */
static int cut_body(ledger_txn *txn, void *vctx)
{
    const cut *c = vctx;
    ledger *db = txn->db;
    MDB_dbi dup_dbs[2] = {db->dbi_events, db->dbi_trees};
    for (int d = 0; d < 2; d++) {
        MDB_cursor *cur;
        int rc = ledger__cursor_open(txn, dup_dbs[d], &cur);
        if (rc != 0)
            return rc;
        MDB_val k = {SCHEMA_ROOM_CHARS, (void *)c->room}, v;
        rc = ledger__cursor_get(txn, cur, &k, &v, MDB_SET_KEY);
        while (rc == 0) {
            if (v.mv_size >= 4 && ledger__be32_get(v.mv_data) > c->keep &&
                (rc = mdb_cursor_del(cur, 0)) != 0)
                break;
            rc = ledger__cursor_get(txn, cur, &k, &v, MDB_NEXT_DUP);
        }
        mdb_cursor_close(cur);
        if (rc != MDB_NOTFOUND)
            return rc;
    }
    /* Its public views (blocks under the room, the open ones under the
     * room and 0x01): all of them, so the room keeps none from here on. */
    uint8_t vkey[SCHEMA_ROOM_CHARS + 1];
    memcpy(vkey, c->room, SCHEMA_ROOM_CHARS);
    vkey[SCHEMA_ROOM_CHARS] = 0x01;
    for (size_t len = SCHEMA_ROOM_CHARS; len <= SCHEMA_ROOM_CHARS + 1; len++) {
        MDB_val k = {len, vkey};
        int rc = ledger__del(txn, db->dbi_views, &k, NULL);
        if (rc != 0 && rc != MDB_NOTFOUND)
            return rc;
    }
    for (uint32_t v = c->keep + 1; v <= N_PLAYED + 20; v++) {
        uint8_t key[LEDGER_CKPT_KEY_BYTES];
        memcpy(key, c->room, SCHEMA_ROOM_CHARS);
        ledger__be32_put(key + SCHEMA_ROOM_CHARS, v);
        MDB_val k = {sizeof key, key};
        int rc = ledger__del(txn, db->dbi_checkpoints, &k, NULL);
        if (rc != 0 && rc != MDB_NOTFOUND)
            return rc;
    }
    ledger_head_rec head;
    int rc = ledger__head_read(db, txn, &head, c->room);
    if (rc == 0)
        rc = ledger__event_hash_at(db, txn, head.hash, c->room, c->keep);
    head.version = c->keep; /* the signed tree head of the old head is kept */
    if (c->is_unsigned)
        head.is_signed = 0;
    return rc != 0 ? rc : ledger__head_write(db, txn, c->room, &head);
}

static void truncate_room(ifix *f, uint32_t keep, int is_unsigned)
{
    cut c = {f->room, keep, is_unsigned};
    assert_int_equal(ledger__write(f->db, cut_body, &c), 0);
    ledger__cache_forget(f->db, f->room);
}

/* Appends n other legal actions (another random stream) with the ledger's
 * key: a history the seats never saw. Keeps their receipts in out. */
static void append_other(ifix *f, uint32_t n, uint64_t seed, codec_receipt *out)
{
    static engine_state st;
    uint32_t head;
    assert_int_equal(ledger_head(f->db, f->room, &head, NULL), 0);
    for (uint32_t i = 0; i < n; i++, head++) {
        assert_int_equal(ledger_state_at(f->db, &st, f->room, head), 0);
        engine_action act;
        assert_int_equal(test_random_legal(&act, &st, &seed), 0);
        ledger_append_result res;
        assert_int_equal(ledger_append(f->db, &res, f->room, head, &act), 0);
        assert_int_equal(res.verdict, ENGINE_ACCEPTED);
        out[i] = res.receipt;
    }
}

/* Another history of 10 events from version 31 on, its receipts in out:
 * drawn again until its event 31 is not the one the seats were told of
 * (the room's seed is fresh each run, and a draw may repeat the action). */
static void rewrite_from_31(ifix *f, uint64_t seed, codec_receipt out[10])
{
    for (uint64_t s = seed;; s++) {
        assert_true(s < seed + 64);
        truncate_room(f, 30, 0);
        append_other(f, 10, s, out);
        if (memcmp(out[0].event_hash, f->receipt[30].event_hash, SCHEMA_HASH_BYTES) != 0)
            return;
    }
}

/* The stored record of (room, version), copied. */
static size_t event_bytes(ifix *f, uint32_t version, uint8_t *out, size_t cap)
{
    ledger_txn txn;
    const uint8_t *rec;
    size_t len;
    assert_int_equal(ledger__txn_begin(&txn, f->db, 0), 0);
    assert_int_equal(ledger__event_read(f->db, &txn, f->room, version, &rec, &len), 0);
    assert_true(len <= cap);
    memcpy(out, rec, len);
    ledger__txn_abort(&txn);
    return len;
}

typedef struct put_ctx {
    const char *room;
    uint32_t version;
    const uint8_t *rec;
    size_t len;
} put_ctx;

/* Replaces the stored record of one version in place. */
static int replace_body(ledger_txn *txn, void *vctx)
{
    const put_ctx *p = vctx;
    uint8_t buf[LEDGER_EVENT_PREFIX + LEDGER_EVENT_RECORD_MAX];
    uint8_t prefix[LEDGER_EVENT_PREFIX];
    ledger__be32_put(prefix, p->version);
    MDB_cursor *cur;
    int rc = ledger__cursor_open(txn, txn->db->dbi_events, &cur);
    if (rc != 0)
        return rc;
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)p->room}, v = {sizeof prefix, prefix};
    rc = ledger__cursor_get(txn, cur, &k, &v, MDB_GET_BOTH_RANGE);
    if (rc == 0)
        rc = mdb_cursor_del(cur, 0);
    mdb_cursor_close(cur);
    if (rc != 0)
        return rc;
    memcpy(buf, prefix, sizeof prefix);
    memcpy(buf + sizeof prefix, p->rec, p->len);
    v.mv_size = sizeof prefix + p->len;
    v.mv_data = buf;
    return ledger__put(txn, txn->db->dbi_events, &k, &v, 0);
}

static void replace_event(ifix *f, uint32_t version, const uint8_t *rec, size_t len)
{
    put_ctx p = {f->room, version, rec, len};
    assert_int_equal(ledger__write(f->db, replace_body, &p), 0);
    ledger__cache_forget(f->db, f->room);
}

static void copy_file(const char *from, const char *to)
{
    size_t len;
    char *bytes = test_slurp(from, &len);
    FILE *w = fopen(to, "wb");
    assert_non_null(w);
    assert_int_equal(fwrite(bytes, 1, len, w), len);
    assert_int_equal(fclose(w), 0);
    free(bytes);
}

/* ---------------------------------------------------------------- tests */

static void test_tamper__a_forged_event_fails_verify(void **state)
{
    ifix *f = *state;
    uint8_t rec[LEDGER_EVENT_RECORD_MAX];
    size_t len = event_bytes(f, 12, rec, sizeof rec);
    rec[len - 3] ^= 0x20; /* a byte of the state digest, the last field of format 2 */
    replace_event(f, 12, rec, len);
    inspect_verify_report rep;
    ifix_verify(f, &rep, NULL, 0);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, 12);
    assert_false(rep.is_receipt_failure);
}

static void test_tamper__reordered_events_fail_verify(void **state)
{
    ifix *f = *state;
    uint8_t a[LEDGER_EVENT_RECORD_MAX], b[LEDGER_EVENT_RECORD_MAX];
    size_t na = event_bytes(f, 20, a, sizeof a), nb = event_bytes(f, 21, b, sizeof b);
    replace_event(f, 20, b, nb);
    replace_event(f, 21, a, na);
    inspect_verify_report rep;
    ifix_verify(f, &rep, NULL, 0);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, 20);
}

static void test_tamper__truncation_fails_verify(void **state)
{
    ifix *f = *state;
    /* The last ten events deleted and the head moved back: the head's
     * signed tree head still covers 40 events, and nobody without the key
     * can sign one for 30. */
    truncate_room(f, 30, 0);
    inspect_verify_report rep;
    ifix_verify(f, &rep, NULL, 0);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, 30);
    assert_false(rep.is_receipt_failure);
    assert_non_null(strstr(rep.reason, "truncated or rewritten"));
}

static void test_tamper__unsigned_head_truncation_caught(void **state)
{
    ifix *f = *state;
    /* The same with the head written as an older build wrote it, unsigned:
     * over events of format 2 (which nothing else covers) verify refuses
     * such a head; the receipts name the truncation. */
    truncate_room(f, 30, 1);
    ledger_verify_report lrep;
    assert_int_equal(ledger_verify_room(f->db, &lrep, f->room, 1), LEDGER_EBADSIG);
    assert_false(lrep.is_head_signed);
    assert_int_equal(lrep.bad_version, 30);
    assert_non_null(strstr(lrep.reason, "unsigned"));
    inspect_verify_report rep;
    ifix_verify(f, &rep, f->receipt, N_PLAYED);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, 30);
    assert_int_equal(ledger_receipt_check(f->db, &f->receipt[N_PLAYED - 1]), LEDGER_ENOTFOUND);
    assert_non_null(strstr(ledger_errmsg(f->db), "truncated or rolled back"));
}

static void test_tamper__rewrite_named_between_receipts(void **state)
{
    ifix *f = *state;
    codec_receipt other[10];
    rewrite_from_31(f, 0x5eed0002u, other);
    inspect_verify_report rep;
    ifix_verify(f, &rep, NULL, 0);
    assert_true(rep.is_ok); /* the file alone is a consistent history */
    /* A seat that kept receipts 10, 25 and 36: the rewrite lies in 26..36. */
    codec_receipt held[3] = {f->receipt[9], f->receipt[24], f->receipt[35]};
    ifix_verify(f, &rep, held, 3);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, 36);
    assert_int_equal(rep.differs_from, 26);
    assert_int_equal(rep.differs_to, 36);
    assert_non_null(strstr(rep.reason, "rewritten"));
    /* With every receipt the first version that differs is exact. */
    ifix_verify(f, &rep, f->receipt, N_PLAYED);
    assert_int_equal(rep.bad_version, 31);
    assert_int_equal(rep.differs_from, 31);
    assert_int_equal(rep.differs_to, 31);
    /* The tree head alone catches it: the event hash left as the ledger's
     * (the signature then fails, so re-sign as the operator would). */
    codec_receipt r = f->receipt[35];
    uint8_t hash[SCHEMA_HASH_BYTES];
    assert_int_equal(ledger_head(f->db, f->room, NULL, NULL), 0);
    ledger_txn txn;
    assert_int_equal(ledger__txn_begin(&txn, f->db, 0), 0);
    assert_int_equal(ledger__event_hash_at(f->db, &txn, hash, f->room, 36), 0);
    ledger__txn_abort(&txn);
    memcpy(r.event_hash, hash, sizeof hash);
    ledger__receipt_sign(&r, f->db->signing_sk);
    assert_int_equal(ledger_receipt_check(f->db, &r), LEDGER_EBADSIG);
    assert_non_null(strstr(ledger_errmsg(f->db), "consistency proof"));
}

static void test_tamper__fork_named(void **state)
{
    ifix *f = *state;
    codec_receipt other[10];
    rewrite_from_31(f, 0x5eed0003u, other);
    /* One seat holds the original 33, another the new 38: the ledger
     * signed both histories. */
    codec_receipt held[2] = {f->receipt[32], other[7]};
    inspect_verify_report rep;
    ifix_verify(f, &rep, held, 2);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, 33);
    assert_non_null(strstr(rep.reason, "fork"));
    assert_int_equal(rep.differs_from, 1);
    assert_int_equal(rep.differs_to, 33);
    /* Two receipts of one version that differ are a fork too. */
    codec_receipt same[2] = {f->receipt[34], other[4]};
    ifix_verify(f, &rep, same, 2);
    assert_false(rep.is_ok);
    assert_non_null(strstr(rep.reason, "two histories"));
}

static void test_tamper__rollback_caught_by_receipts(void **state)
{
    ifix *f = *state;
    /* The file as it was at version 40 is kept aside; the room goes on to
     * 48 with receipts; then the old file is put back. */
    char old_path[200];
    snprintf(old_path, sizeof old_path, "%s/old.db", f->dir);
    ledger_close(f->db);
    f->db = NULL;
    copy_file(f->path, old_path);
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = f->path;
    opt.keys_dir = f->keys;
    opt.is_unsafe_no_sync = 1;
    assert_int_equal(ledger_open(&f->db, &opt), 0);
    codec_receipt later[8];
    append_other(f, 8, 0x5eed0004u, later);
    ledger_close(f->db);
    f->db = NULL;
    assert_int_equal(rename(old_path, f->path), 0);
    assert_int_equal(ledger_open(&f->db, &opt), 0);
    inspect_verify_report rep;
    ifix_verify(f, &rep, NULL, 0);
    assert_true(rep.is_ok); /* the whole file rolled back is consistent */
    ifix_verify(f, &rep, later, 8);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, N_PLAYED + 1);
    assert_int_equal(rep.differs_from, N_PLAYED + 1);
    assert_non_null(strstr(rep.reason, "rolled back"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tamper__a_forged_event_fails_verify, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tamper__reordered_events_fail_verify, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_tamper__truncation_fails_verify, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tamper__unsigned_head_truncation_caught,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_tamper__rewrite_named_between_receipts, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_tamper__fork_named, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tamper__rollback_caught_by_receipts, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
