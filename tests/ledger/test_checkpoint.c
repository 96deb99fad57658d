/*
 * test_checkpoint.c - checkpoints: written every K versions in the txn of
 * their event, and a fold from any of them reaches the same state as a
 * fold from the genesis, at every version; a room with a room key has
 * them sealed with it until its reveal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

/* Versions that have a checkpoint, in order. */
static size_t checkpoint_versions(ledger *db, const char *room, uint32_t *out, size_t cap)
{
    MDB_txn *txn;
    MDB_cursor *cur;
    uint8_t kbuf[LEDGER_CKPT_KEY_BYTES] = {0};
    memcpy(kbuf, room, SCHEMA_ROOM_CHARS);
    MDB_val k = {sizeof kbuf, kbuf}, v;
    size_t n = 0;
    assert_non_null(db);
    assert_int_equal(mdb_txn_begin(db->env, NULL, MDB_RDONLY, &txn), 0);
    assert_int_equal(mdb_cursor_open(txn, db->dbi_checkpoints, &cur), 0);
    int rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
    while (rc == 0 && memcmp(k.mv_data, room, SCHEMA_ROOM_CHARS) == 0) {
        assert_true(n < cap);
        out[n++] = ledger__be32_get((const uint8_t *)k.mv_data + SCHEMA_ROOM_CHARS);
        rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT);
    }
    mdb_cursor_close(cur);
    mdb_txn_abort(txn);
    return n;
}

/* The state after each version, folded from `start` (the state after
 * version `from`) with the stored events and their rngs. */
static void fold_from(ledger *db, const char *room, const engine_state *start, uint32_t from,
                      uint32_t head, uint8_t (*digests)[ENGINE_DIGEST_BYTES])
{
    static engine_state st;
    uint8_t seed[ENGINE_SEED_BYTES];
    st = *start;
    assert_int_equal(ledger__room_seed(db, NULL, room, seed), 0);
    engine_state_digest(digests[from], &st);
    for (uint32_t v = from + 1; v <= head; v++) {
        codec_event ev;
        engine_rng rng;
        assert_int_equal(ledger_event_get(db, &ev, room, v), 0);
        engine_rng_init(&rng, seed, v);
        assert_int_equal(engine_apply(NULL, &st, &ev.action, &rng), ENGINE_ACCEPTED);
        assert_int_equal(engine_state_check(&st), 0);
        engine_state_digest(digests[v], &st);
        assert_memory_equal(digests[v], ev.state_digest, ENGINE_DIGEST_BYTES);
    }
}

static void check_room(ledger *db, const char *room, unsigned k)
{
    uint32_t head;
    assert_int_equal(ledger_head(db, room, &head, NULL), 0);
    static uint8_t from_genesis[1024][ENGINE_DIGEST_BYTES];
    static uint8_t from_ckpt[1024][ENGINE_DIGEST_BYTES];
    assert_true(head < 1024);

    /* from the genesis: the opening position dealt afresh */
    static engine_state opening;
    codec_genesis g;
    uint8_t seed[ENGINE_SEED_BYTES];
    assert_int_equal(ledger_genesis_get(db, &g, room), 0);
    assert_int_equal(ledger__room_seed(db, NULL, room, seed), 0);
    assert_int_equal(ledger__opening_state(db, &opening, &g, seed, NULL), 0);
    fold_from(db, room, &opening, 0, head, from_genesis);

    /* checkpoints at 0, K, 2K, ... up to the head */
    uint32_t versions[1024];
    size_t n = checkpoint_versions(db, room, versions, 1024);
    assert_int_equal(n, head / k + 1);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(versions[i], i * k);

    /* from every checkpoint */
    ledger_txn txn;
    for (size_t i = 0; i < n; i++) {
        static engine_state st;
        uint32_t found;
        uint8_t hash[SCHEMA_HASH_BYTES], chain[SCHEMA_HASH_BYTES];
        assert_int_equal(ledger__txn_begin(&txn, db, 0), 0);
        assert_int_equal(ledger__checkpoint_find(db, &txn, &st, &found, hash, room, versions[i]),
                         0);
        assert_int_equal(ledger__event_hash_at(db, &txn, chain, room, versions[i]), 0);
        ledger__txn_abort(&txn);
        assert_int_equal(found, versions[i]);
        assert_memory_equal(hash, chain, SCHEMA_HASH_BYTES);
        fold_from(db, room, &st, found, head, from_ckpt);
        for (uint32_t v = found; v <= head; v++)
            assert_memory_equal(from_ckpt[v], from_genesis[v], ENGINE_DIGEST_BYTES);
    }

    /* ledger_state_at agrees at every version */
    for (uint32_t v = 0; v <= head; v++) {
        static engine_state st;
        uint8_t d[ENGINE_DIGEST_BYTES];
        assert_int_equal(ledger_state_at(db, &st, room, v), 0);
        engine_state_digest(d, &st);
        assert_memory_equal(d, from_genesis[v], sizeof d);
    }
    engine_state st;
    assert_int_equal(ledger_state_at(db, &st, room, head + 1), LEDGER_ENOTFOUND);
}

static void test_checkpoint__every_k_and_folds_agree(void **state)
{
    (void)state;
    static const unsigned ks[] = {1, 2, 3, 16};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        fixture *f = fixture_new(ks[i]);
        char room[SCHEMA_ROOM_CHARS + 1];
        room_new(f->db, room);
        uint32_t n = play(f->db, room, 40);
        assert_true(n >= 3);
        check_room(f->db, room, ks[i]);
        assert_int_equal(verify_ok(f->db, room), 0);
        fixture_free(f);
    }
}

static void test_checkpoint__reopened_without_cache(void **state)
{
    (void)state;
    fixture *f = fixture_new(2);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    uint32_t n = play(f->db, room, 5);
    fixture_close(f);
    assert_int_equal(fixture_open(f), 0);
    engine_state st;
    for (uint32_t v = 0; v <= n; v++)
        assert_int_equal(ledger_state_at(f->db, &st, room, v), 0);
    /* the game goes on from a state rebuilt from a checkpoint */
    assert_true(play(f->db, room, 30) >= 1);
    check_room(f->db, room, 2);
    fixture_free(f);
}

static void test_checkpoint__damaged_checkpoint_refused(void **state)
{
    (void)state;
    fixture *f = fixture_new(2);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    uint32_t n = play(f->db, room, 5);
    assert_true(n >= 3);
    /* flip a byte inside the compressed frame of checkpoint 2 */
    MDB_txn *txn;
    uint8_t kbuf[LEDGER_CKPT_KEY_BYTES];
    memcpy(kbuf, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(kbuf + SCHEMA_ROOM_CHARS, 2);
    MDB_val k = {sizeof kbuf, kbuf}, v;
    assert_int_equal(mdb_txn_begin(f->db->env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_get(txn, f->db->dbi_checkpoints, &k, &v), 0);
    uint8_t copy[LEDGER_SCRATCH_PART];
    assert_true(v.mv_size <= sizeof copy);
    memcpy(copy, v.mv_data, v.mv_size);
    copy[v.mv_size / 2] ^= 0x40;
    MDB_val nv = {v.mv_size, copy};
    assert_int_equal(mdb_put(txn, f->db->dbi_checkpoints, &k, &nv, 0), 0);
    assert_int_equal(mdb_txn_commit(txn), 0);
    fixture_close(f);
    assert_int_equal(fixture_open(f), 0);
    engine_state st;
    assert_int_equal(ledger_state_at(f->db, &st, room, 2), LEDGER_ECORRUPT);
    assert_non_null(strstr(ledger_errmsg(f->db), "checkpoint"));
    ledger_verify_report rep;
    assert_int_not_equal(ledger_verify_room(f->db, &rep, room, 1), 0);
    assert_int_equal(rep.bad_version, 2);
    fixture_free(f);
}

/* Every checkpoint of a room with a room key is sealed: the state's
 * compressed frame is nowhere in it, a reader without the audit key is
 * refused it (and verify still checks the chain), it opens only at its
 * own version, and after the reveal it opens for anyone while later
 * checkpoints are written in the clear. */
static void test_checkpoint__sealed_until_the_reveal(void **state)
{
    (void)state;
    fixture *f = fixture_new(2);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_true(play(f->db, room, 6) >= 4);
    static uint8_t val[LEDGER_SCRATCH_PART], frame[LEDGER_SCRATCH_PART];
    static uint8_t enc[LEDGER_SCRATCH_PART], pb[LEDGER_SCRATCH_PART];
    static engine_state st2, st4, other;
    uint8_t d2[ENGINE_DIGEST_BYTES], d[ENGINE_DIGEST_BYTES];
    assert_int_equal(ledger_state_at(f->db, &st2, room, 2), 0);
    assert_int_equal(ledger_state_at(f->db, &st4, room, 4), 0);
    engine_state_digest(d2, &st2);
    for (uint32_t v = 0; v <= 4; v += 2) {
        size_t len = raw_value_get(f->db, f->db->dbi_checkpoints, room, v, val, sizeof val);
        assert_int_equal(val[0], LEDGER_TAG_CHECKPOINT_SEALED);
        /* What a clear checkpoint would hold (ledger/checkpoint.c). */
        assert_int_equal(ledger_state_at(f->db, &other, room, v), 0);
        codec_checkpoint c;
        memset(&c, 0, sizeof c);
        memcpy(c.room, room, SCHEMA_ROOM_CHARS);
        c.version = v;
        c.state = enc;
        c.state_len = engine_state_encode(enc, sizeof enc, &other);
        engine_state_digest(c.state_digest, &other);
        size_t pb_len = 0;
        assert_int_equal(codec_checkpoint_encode(pb, sizeof pb, &pb_len, &c), 0);
        size_t z = ZSTD_compress(frame, sizeof frame, pb, pb_len, 3);
        assert_false(ZSTD_isError(z));
        assert_true(z > 40);
        assert_false(test_has_bytes(val, len, frame + 8, 32));
        assert_false(test_has_bytes(val, len, enc, 64));
    }

    /* Without the audit key: refused the state, the chain still checked. */
    fixture_reopen_keyless(f);
    assert_int_equal(ledger_state_at(f->db, &other, room, 2), LEDGER_EKEY);
    assert_non_null(strstr(ledger_errmsg(f->db), "sealed"));
    assert_int_equal(verify_ok(f->db, room), 0);

    /* Checkpoint 2's value under version 4 does not open. */
    fixture_reopen_keyed(f);
    size_t len2 = raw_value_get(f->db, f->db->dbi_checkpoints, room, 2, val, sizeof val);
    static uint8_t keep4[LEDGER_SCRATCH_PART];
    size_t len4 = raw_value_get(f->db, f->db->dbi_checkpoints, room, 4, keep4, sizeof keep4);
    raw_value_put(f->db, f->db->dbi_checkpoints, room, 4, val, len2);
    fixture_reopen_keyed(f);
    assert_int_equal(ledger_state_at(f->db, &other, room, 4), LEDGER_ECORRUPT);
    assert_non_null(strstr(ledger_errmsg(f->db), "checkpoint"));
    raw_value_put(f->db, f->db->dbi_checkpoints, room, 4, keep4, len4);

    /* After the reveal, anyone reads them; later ones are in the clear. */
    fixture_reopen_keyed(f);
    uint8_t seed[ENGINE_SEED_BYTES];
    assert_int_equal(ledger_reveal(f->db, seed, room, 1), 0);
    uint32_t head = 0;
    assert_int_equal(ledger_head(f->db, room, &head, NULL), 0);
    assert_true(play(f->db, room, 4) >= 2);
    uint32_t clear_at = (head / 2 + 1) * 2;
    assert_true(raw_value_get(f->db, f->db->dbi_checkpoints, room, clear_at, val, sizeof val) > 0);
    assert_int_equal(val[0], LEDGER_TAG_CHECKPOINT);
    fixture_reopen_keyless(f);
    assert_int_equal(ledger_state_at(f->db, &other, room, 2), 0);
    engine_state_digest(d, &other);
    assert_memory_equal(d, d2, sizeof d);
    assert_int_equal(verify_ok(f->db, room), 0);
    fixture_free(f);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checkpoint__every_k_and_folds_agree),
        cmocka_unit_test(test_checkpoint__reopened_without_cache),
        cmocka_unit_test(test_checkpoint__damaged_checkpoint_refused),
        cmocka_unit_test(test_checkpoint__sealed_until_the_reveal),
    };
    return cmocka_run_group_tests_name("ledger_checkpoint", tests, NULL, NULL);
}
