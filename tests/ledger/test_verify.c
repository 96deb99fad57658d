/*
 * test_verify.c - corruption: flip bytes of stored events, swap
 * signatures, delete events, damage the head and the genesis, re-sign a
 * false digest; ledger_verify_room names the exact first bad version,
 * returns non-zero, and never crashes. With one thread and with two.
 * Each on a room of format 1 (every event signed, as every stored room)
 * and, where it applies, of format 2 (events unsigned, the signed head
 * covering them): there a change that leaves the event readable and the
 * fold unchanged is named at the head, the one signature that covers it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

typedef struct vfix {
    fixture *f;
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t head;
    int is_signed;                 /* 1 = events of format 1 */
} vfix;

static int setup_as(void **state, int is_signing_events)
{
    vfix *v = calloc(1, sizeof *v);
    v->f = calloc(1, sizeof *v->f);
    fixture_make(v->f);
    v->f->opt.is_unsafe_no_sync = 1; /* hundreds of damaging commits */
    assert_int_equal(fixture_open(v->f), 0);
    v->f->db->is_signing_events = is_signing_events;
    v->is_signed = is_signing_events;
    room_new(v->f->db, v->room);
    v->head = play(v->f->db, v->room, 12); /* every flip re-folds the game */
    assert_true(v->head >= 6);
    assert_int_equal(verify_ok(v->f->db, v->room), 0);
    *state = v;
    return 0;
}

/* Format 1: every event signed by the ledger. */
static int setup(void **state)
{
    return setup_as(state, 1);
}

/* Format 2: the events unsigned, the signed head covering them. */
static int setup_unsigned(void **state)
{
    return setup_as(state, 0);
}

static int teardown(void **state)
{
    vfix *v = *state;
    fixture_free(v->f);
    free(v);
    return 0;
}

/* The stored dup value of `version` (prefix included), copied. */
static size_t raw_get(ledger *db, const char *room, uint32_t version, uint8_t *out)
{
    MDB_txn *txn;
    MDB_cursor *cur;
    uint8_t vbuf[4];
    ledger__be32_put(vbuf, version);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v = {4, vbuf};
    assert_int_equal(mdb_txn_begin(db->env, NULL, MDB_RDONLY, &txn), 0);
    assert_int_equal(mdb_cursor_open(txn, db->dbi_events, &cur), 0);
    assert_int_equal(mdb_cursor_get(cur, &k, &v, MDB_GET_BOTH_RANGE), 0);
    assert_int_equal(ledger__be32_get(v.mv_data), version);
    memcpy(out, v.mv_data, v.mv_size);
    size_t len = v.mv_size;
    mdb_cursor_close(cur);
    mdb_txn_abort(txn);
    return len;
}

/* Replaces the dup `old` with `new` (new_len 0: deletes it). */
static void raw_replace(ledger *db, const char *room, const uint8_t *old, size_t old_len,
                        const uint8_t *new, size_t new_len)
{
    MDB_txn *txn;
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v = {old_len, (void *)old};
    assert_int_equal(mdb_txn_begin(db->env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_del(txn, db->dbi_events, &k, &v), 0);
    if (new_len > 0) {
        MDB_val nv = {new_len, (void *)new};
        int rc = mdb_put(txn, db->dbi_events, &k, &nv, MDB_NODUPDATA);
        assert_true(rc == 0 || rc == MDB_KEYEXIST);
    }
    assert_int_equal(mdb_txn_commit(txn), 0);
}

/* Verify fails, naming a version in [lo, hi]. */
static void expect_bad_in(ledger *db, const char *room, uint32_t lo, uint32_t hi)
{
    for (unsigned threads = 1; threads <= 2; threads++) {
        ledger_verify_report rep;
        int rc = ledger_verify_room(db, &rep, room, threads);
        assert_int_not_equal(rc, 0);
        assert_true(rc == LEDGER_ECORRUPT || rc == LEDGER_EBADSIG);
        if (rep.bad_version < lo || rep.bad_version > hi)
            fprintf(stderr, "expected version %u..%u, got %u: %s\n", lo, hi, rep.bad_version,
                    rep.reason);
        assert_in_range(rep.bad_version, lo, hi);
        assert_true(strlen(rep.reason) > 0);
    }
}

static void expect_bad(ledger *db, const char *room, uint32_t bad)
{
    expect_bad_in(db, room, bad, bad);
}

static void test_verify__flip_every_byte_of_an_event(void **state)
{
    vfix *v = *state;
    ledger *db = v->f->db;
    uint32_t target = 3;
    uint8_t orig[600], bad[600];
    size_t len = raw_get(db, v->room, target, orig);
    for (size_t i = 0; i < len; i++) {
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(bad, orig, len);
            bad[i] ^= (uint8_t)(1u << bit);
            raw_replace(db, v->room, orig, len, bad, len);
            /* format 2: named at the event when it no longer reads or
             * folds, else at the head whose signed tree it leaves */
            expect_bad_in(db, v->room, target, v->is_signed ? target : v->head);
            /* reads refuse it too, never crash */
            codec_event ev;
            engine_state st;
            assert_int_not_equal(ledger_event_get(db, &ev, v->room, target), 0);
            int src = ledger_state_at(db, &st, v->room, v->head);
            assert_true(src == 0 || src == LEDGER_ECORRUPT || src == LEDGER_EBADSIG);
            raw_replace(db, v->room, bad, len, orig, len);
        }
    }
    assert_int_equal(verify_ok(db, v->room), 0);
}

static void test_verify__truncated_event(void **state)
{
    vfix *v = *state;
    ledger *db = v->f->db;
    uint8_t orig[600];
    size_t len = raw_get(db, v->room, 4, orig);
    for (size_t cut = 4; cut < len; cut += 7) {
        raw_replace(db, v->room, orig, len, orig, cut);
        expect_bad(db, v->room, 4);
        raw_replace(db, v->room, orig, cut, orig, len);
    }
    assert_int_equal(verify_ok(db, v->room), 0);
}

static void test_verify__swap_signatures(void **state)
{
    vfix *v = *state;
    ledger *db = v->f->db;
    codec_event a, b;
    uint8_t ra[600], rb[600], na[600], nb[600];
    size_t la = raw_get(db, v->room, 2, ra), lb = raw_get(db, v->room, 5, rb);
    assert_int_equal(ledger__event_record_decode(db, &a, ra + 4, la - 4), 0);
    assert_int_equal(ledger__event_record_decode(db, &b, rb + 4, lb - 4), 0);
    uint8_t sig[SCHEMA_SIG_BYTES];
    memcpy(sig, a.signature, sizeof sig);
    memcpy(a.signature, b.signature, sizeof sig);
    memcpy(b.signature, sig, sizeof sig);
    size_t ma, mb;
    memcpy(na, ra, 4);
    memcpy(nb, rb, 4);
    assert_int_equal(ledger__event_record_encode(db, na + 4, sizeof na - 4, &ma, &a), 0);
    assert_int_equal(ledger__event_record_encode(db, nb + 4, sizeof nb - 4, &mb, &b), 0);
    raw_replace(db, v->room, ra, la, na, ma + 4);
    raw_replace(db, v->room, rb, lb, nb, mb + 4);
    expect_bad(db, v->room, 2);
}

static void test_verify__delete_an_event(void **state)
{
    vfix *v = *state;
    ledger *db = v->f->db;
    uint8_t orig[600];
    size_t len = raw_get(db, v->room, 5, orig);
    raw_replace(db, v->room, orig, len, NULL, 0);
    expect_bad(db, v->room, 5);
    codec_event ev;
    assert_int_not_equal(ledger_event_get(db, &ev, v->room, 6), 0);
}

static void test_verify__delete_the_last_event(void **state)
{
    vfix *v = *state;
    ledger *db = v->f->db;
    uint8_t orig[600];
    size_t len = raw_get(db, v->room, v->head, orig);
    raw_replace(db, v->room, orig, len, NULL, 0);
    expect_bad(db, v->room, v->head);
}

static void test_verify__damaged_head_and_genesis(void **state)
{
    vfix *v = *state;
    ledger *db = v->f->db;
    MDB_txn *txn;
    MDB_val k = {SCHEMA_ROOM_CHARS, v->room}, val;
    uint8_t head[LEDGER_HEAD_SIGNED_BYTES], copy[LEDGER_HEAD_SIGNED_BYTES];

    /* a head hash that is not the chain's */
    assert_int_equal(mdb_txn_begin(db->env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_get(txn, db->dbi_heads, &k, &val), 0);
    assert_int_equal(val.mv_size, sizeof head); /* a signed head */
    memcpy(head, val.mv_data, sizeof head);
    memcpy(copy, head, sizeof copy);
    copy[10] ^= 1;
    val.mv_data = copy;
    assert_int_equal(mdb_put(txn, db->dbi_heads, &k, &val, 0), 0);
    assert_int_equal(mdb_txn_commit(txn), 0);
    expect_bad(db, v->room, v->head);

    /* a head one past the stored events */
    memcpy(copy, head, sizeof copy);
    ledger__be32_put(copy, v->head + 1);
    assert_int_equal(mdb_txn_begin(db->env, NULL, 0, &txn), 0);
    val.mv_size = sizeof copy;
    val.mv_data = copy;
    assert_int_equal(mdb_put(txn, db->dbi_heads, &k, &val, 0), 0);
    assert_int_equal(mdb_txn_commit(txn), 0);
    expect_bad(db, v->room, v->head + 1);

    /* restore the head, then damage the genesis */
    assert_int_equal(mdb_txn_begin(db->env, NULL, 0, &txn), 0);
    val.mv_data = head;
    assert_int_equal(mdb_put(txn, db->dbi_heads, &k, &val, 0), 0);
    assert_int_equal(mdb_get(txn, db->dbi_rooms, &k, &val), 0);
    uint8_t g[1024];
    size_t glen = val.mv_size;
    memcpy(g, val.mv_data, glen);
    assert_int_equal(mdb_txn_commit(txn), 0);
    assert_int_equal(verify_ok(db, v->room), 0);
    for (size_t i = 0; i < glen; i += 5) {
        uint8_t bad[1024];
        memcpy(bad, g, glen);
        bad[i] ^= 0x10;
        assert_int_equal(mdb_txn_begin(db->env, NULL, 0, &txn), 0);
        val.mv_size = glen;
        val.mv_data = bad;
        assert_int_equal(mdb_put(txn, db->dbi_rooms, &k, &val, 0), 0);
        assert_int_equal(mdb_txn_commit(txn), 0);
        ledger__cache_forget(db, v->room); /* a seed cached from the good genesis */
        expect_bad(db, v->room, 0);
    }
}

/* Someone holding the ledger key rewrites event 3 with a false digest and
 * re-signs it: every signature of event 3 checks, but the re-fold (and the
 * chain at event 4) does not. */
static void test_verify__resigned_false_digest(void **state)
{
    vfix *v = *state;
    ledger *db = v->f->db;
    uint8_t orig[600], nrec[600], canon[LEDGER_EVENT_CANONICAL_MAX], prev[SCHEMA_HASH_BYTES];
    size_t len = raw_get(db, v->room, 3, orig), nlen;
    codec_event ev;
    ledger_txn txn;
    assert_int_equal(ledger__txn_begin(&txn, db, 0), 0);
    assert_int_equal(ledger__event_hash_at(db, &txn, prev, v->room, 2), 0);
    ledger__txn_abort(&txn);
    assert_int_equal(ledger__event_record_decode(db, &ev, orig + 4, len - 4), 0);
    ev.has_prev_hash = 1;
    memcpy(ev.prev_hash, prev, sizeof prev);
    ev.state_digest[0] ^= 1;
    size_t clen = ledger__event_canonical(canon, v->room, &ev);
    assert_true(clen > 0);
    assert_int_equal(ledger__sign(db, ev.signature, canon, clen), 0);
    memcpy(nrec, orig, 4);
    assert_int_equal(ledger__event_record_encode(db, nrec + 4, sizeof nrec - 4, &nlen, &ev), 0);
    raw_replace(db, v->room, orig, len, nrec, nlen + 4);
    codec_event got;
    assert_int_equal(ledger_event_get(db, &got, v->room, 3), 0); /* the signature holds */
    ledger_verify_report rep;
    int rc = ledger_verify_room(db, &rep, v->room, 2);
    assert_int_equal(rc, LEDGER_EBADSIG);
    assert_int_equal(rep.bad_version, 3);
    assert_int_equal(rep.is_refolded, 1);
    assert_non_null(strstr(rep.reason, "digest"));
}

/* Format 2: event 3 rewritten with a false digest (nothing to re-sign):
 * the head's signed tree no longer covers it, and the re-fold names it. */
static void test_verify__unsigned_false_digest(void **state)
{
    vfix *v = *state;
    ledger *db = v->f->db;
    uint8_t orig[600], nrec[600];
    size_t len = raw_get(db, v->room, 3, orig), nlen;
    codec_event ev, got;
    assert_int_equal(ledger__event_record_decode(db, &ev, orig + 4, len - 4), 0);
    assert_false(ev.has_signature);
    ev.state_digest[0] ^= 1;
    memcpy(nrec, orig, 4);
    assert_int_equal(ledger__event_record_encode(db, nrec + 4, sizeof nrec - 4, &nlen, &ev), 0);
    raw_replace(db, v->room, orig, len, nrec, nlen + 4);
    assert_int_equal(ledger_event_get(db, &got, v->room, 3), LEDGER_EBADSIG);
    assert_non_null(strstr(ledger_errmsg(db), "not in the head's signed tree"));
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(db, &rep, v->room, 2), LEDGER_EBADSIG);
    assert_int_equal(rep.bad_version, 3);
    assert_non_null(strstr(rep.reason, "digest"));
}

/* Format 2: a head put back unsigned (as an older build wrote it) leaves
 * the events covered by nothing: verify fails at the head. */
static void test_verify__unsigned_events_need_a_signed_head(void **state)
{
    vfix *v = *state;
    ledger *db = v->f->db;
    MDB_txn *txn;
    MDB_val k = {SCHEMA_ROOM_CHARS, v->room}, val;
    uint8_t head[LEDGER_HEAD_BYTES];
    assert_int_equal(mdb_txn_begin(db->env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_get(txn, db->dbi_heads, &k, &val), 0);
    assert_int_equal(val.mv_size, LEDGER_HEAD_SIGNED_BYTES);
    memcpy(head, val.mv_data, sizeof head);
    val.mv_size = sizeof head;
    val.mv_data = head;
    assert_int_equal(mdb_put(txn, db->dbi_heads, &k, &val, 0), 0);
    assert_int_equal(mdb_txn_commit(txn), 0);
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(db, &rep, v->room, 1), LEDGER_EBADSIG);
    assert_int_equal(rep.bad_version, v->head);
    assert_non_null(strstr(rep.reason, "unsigned"));
    codec_event got;
    assert_int_equal(ledger_event_get(db, &got, v->room, 2), LEDGER_EBADSIG);
}

/* A revealed seed that does not match the genesis commitment is a bad
 * genesis (version 0), even when the audit key could open the sealed seed. */
static void test_verify__revealed_seed_against_commitment(void **state)
{
    vfix *v = *state;
    uint8_t seed[ENGINE_SEED_BYTES];
    assert_int_equal(ledger_reveal(v->f->db, seed, v->room, 1), 0);
    assert_int_equal(verify_ok(v->f->db, v->room), 0);
    char key[sizeof LEDGER_META_REVEAL_PREFIX - 1 + SCHEMA_ROOM_CHARS];
    memcpy(key, LEDGER_META_REVEAL_PREFIX, sizeof LEDGER_META_REVEAL_PREFIX - 1);
    memcpy(key + sizeof LEDGER_META_REVEAL_PREFIX - 1, v->room, SCHEMA_ROOM_CHARS);
    seed[0] ^= 1;
    MDB_txn *txn;
    MDB_val k = {sizeof key, key}, val = {sizeof seed, seed};
    assert_int_equal(mdb_txn_begin(v->f->db->env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_put(txn, v->f->db->dbi_meta, &k, &val, 0), 0);
    assert_int_equal(mdb_txn_commit(txn), 0);
    expect_bad(v->f->db, v->room, 0);
}

static void test_verify__unknown_room_and_clean_report(void **state)
{
    vfix *v = *state;
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(v->f->db, &rep, "ZZZZZZZZ", 1), LEDGER_ENOTFOUND);
    assert_int_equal(ledger_verify_room(v->f->db, &rep, v->room, 2), 0);
    assert_int_equal(rep.n_events, v->head);
    assert_int_equal(rep.is_refolded, 1);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_verify__flip_every_byte_of_an_event, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_verify__truncated_event, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verify__swap_signatures, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verify__delete_an_event, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verify__delete_the_last_event, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verify__damaged_head_and_genesis, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verify__resigned_false_digest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verify__revealed_seed_against_commitment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verify__unknown_room_and_clean_report, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_verify__flip_every_byte_of_an_event,
                                        setup_unsigned, teardown),
        cmocka_unit_test_setup_teardown(test_verify__truncated_event, setup_unsigned, teardown),
        cmocka_unit_test_setup_teardown(test_verify__delete_an_event, setup_unsigned, teardown),
        cmocka_unit_test_setup_teardown(test_verify__delete_the_last_event, setup_unsigned,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_verify__damaged_head_and_genesis, setup_unsigned,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_verify__unsigned_false_digest, setup_unsigned,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_verify__unsigned_events_need_a_signed_head,
                                        setup_unsigned, teardown),
        cmocka_unit_test_setup_teardown(test_verify__revealed_seed_against_commitment,
                                        setup_unsigned, teardown),
        cmocka_unit_test_setup_teardown(test_verify__unknown_room_and_clean_report,
                                        setup_unsigned, teardown),
    };
    return cmocka_run_group_tests_name("ledger_verify", tests, NULL, NULL);
}
