/*
 * test_fork.c - ledger_room_fork: a new room opening on another room's
 * state at a version. Its opening is that very state but constructed (so
 * no digest of the fork equals one of the original), its genesis names
 * the original, the version and that version's chain hash, signed; it
 * verifies, plays on, and survives a backup and restore into another
 * ledger; a genesis that lies about its origin, though signed, does not
 * verify; refusals (a version past the head, no audit key) write nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "ledger/internal.h"
#include "tests/ledger/helpers.h"

/* The chain hash of `room` at v: the prev_hash of v + 1, or the head's. */
static void chain_hash(uint8_t out[SCHEMA_HASH_BYTES], ledger *db, const char *room, uint32_t v)
{
    uint32_t head;
    assert_int_equal(ledger_head(db, room, &head, out), 0);
    if (v < head) {
        codec_event ev;
        assert_int_equal(ledger_event_get(db, &ev, room, v + 1), 0);
        assert_true(ev.has_prev_hash);
        memcpy(out, ev.prev_hash, SCHEMA_HASH_BYTES);
    }
}

static void test_fork__opens_on_the_state_and_says_whence(void **state)
{
    (void)state;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1], fork[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 90), 90);
    static engine_state orig, opening;
    static uint8_t a[ENGINE_STATE_ENCODED_MAX], b[ENGINE_STATE_ENCODED_MAX];
    const uint32_t at[] = {0, 37, 90};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        uint32_t v = at[i];
        int rc = ledger_room_fork(f->db, fork, room, v);
        if (rc != 0)
            fprintf(stderr, "ledger_room_fork: %s\n", ledger_errmsg(f->db));
        assert_int_equal(rc, 0);
        assert_string_not_equal(fork, room);
        /* the opening is the original's state, constructed */
        assert_int_equal(ledger_state_at(f->db, &orig, room, v), 0);
        assert_int_equal(ledger_state_at(f->db, &opening, fork, 0), 0);
        assert_true(opening.config.is_constructed);
        size_t na = test_state_canonical(a, &orig), nb = test_state_canonical(b, &opening);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na);
        uint8_t d1[ENGINE_DIGEST_BYTES], d2[ENGINE_DIGEST_BYTES];
        engine_state_digest(d1, &orig);
        engine_state_digest(d2, &opening);
        assert_memory_not_equal(d1, d2, sizeof d1);
        /* the genesis names where it comes from */
        ledger_room_info info;
        assert_int_equal(ledger_room_info_get(f->db, &info, fork), 0);
        assert_true(info.is_fork && info.is_constructed);
        assert_string_equal(info.fork_room, room);
        assert_int_equal(info.fork_version, v);
        assert_int_equal(info.version, 0);
        codec_genesis g;
        assert_int_equal(ledger_genesis_get(f->db, &g, fork), 0);
        uint8_t h[SCHEMA_HASH_BYTES];
        chain_hash(h, f->db, room, v);
        assert_true(g.is_fork);
        assert_memory_equal(g.fork_hash, h, SCHEMA_HASH_BYTES);
        ledger_room_info oi;
        assert_int_equal(ledger_room_info_get(f->db, &oi, room), 0);
        assert_false(oi.is_fork);
        /* it verifies and plays on */
        assert_int_equal(verify_ok(f->db, fork), 0);
        assert_int_equal(play(f->db, fork, 20), 20);
        assert_int_equal(verify_ok(f->db, fork), 0);
    }
    assert_int_equal(verify_ok(f->db, room), 0);
    fixture_free(f);
}

static void test_fork__travels_in_an_archive(void **state)
{
    (void)state;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1], fork[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 40), 40);
    assert_int_equal(ledger_room_fork(f->db, fork, room, 25), 0);
    assert_int_equal(play(f->db, fork, 10), 10);
    char path[256];
    snprintf(path, sizeof path, "%s/fork.archive", f->dir);
    assert_int_equal(ledger_backup_room(f->db, fork, path), 0);
    fixture *g = fixture_new(16);
    ledger_restore_report rep;
    int rc = ledger_restore(g->db, &rep, path, 1);
    if (rc != 0)
        fprintf(stderr, "ledger_restore: %s\n", ledger_errmsg(g->db));
    assert_int_equal(rc, 0);
    ledger_room_info info;
    assert_int_equal(ledger_room_info_get(g->db, &info, fork), 0);
    assert_true(info.is_fork);
    assert_string_equal(info.fork_room, room);
    assert_int_equal(info.fork_version, 25);
    assert_int_equal(info.version, 10);
    /* another ledger, without the fork's audit key: chain and signatures */
    ledger_verify_report vr;
    assert_int_equal(ledger_verify_room(g->db, &vr, fork, 1), 0);
    fixture_free(g);
    fixture_free(f);
}

/* Rewrites the genesis of an empty room to claim another fork version,
 * signed again with the ledger's own key, its head following: a genesis
 * every signature check accepts, but a lie about its origin. */
typedef struct forge_ctx {
    const char *room;
    uint32_t fork_version;
} forge_ctx;

static int forge_body(ledger_txn *txn, void *vctx)
{
    forge_ctx *fc = vctx;
    ledger *db = txn->db;
    static uint8_t canon[LEDGER_GENESIS_CANONICAL_MAX], rec[LEDGER_GENESIS_CANONICAL_MAX + 256];
    static uint8_t position[ENGINE_STATE_ENCODED_MAX];
    codec_genesis g;
    int rc = ledger__genesis_read(db, txn, &g, fc->room);
    if (rc != 0)
        return rc;
    memcpy(position, g.position, g.position_len);
    g.position = position;
    g.fork_version = fc->fork_version;
    size_t len = ledger__genesis_canonical(canon, sizeof canon, &g);
    if (len == 0)
        return LEDGER_ERROR;
    rc = ledger__sign(db, g.signature, canon, len);
    size_t rec_len = 0;
    if (rc == 0)
        rc = ledger__genesis_record_encode(db, rec, sizeof rec, &rec_len, &g);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)fc->room}, v = {rec_len, rec};
    if (rc == 0)
        rc = ledger__put(txn, db->dbi_rooms, &k, &v, 0);
    ledger_head_rec head;
    memset(&head, 0, sizeof head);
    ledger__event_hash(head.hash, canon, len, g.signature);
    if (rc == 0)
        rc = ledger__head_write(db, txn, fc->room, &head);
    return rc;
}

/* A fork's position is the origin's whole state, hidden facts and all:
 * its genesis holds it sealed with the fork's room key, so the ledger
 * file holds the origin's state nowhere in the clear (not as the fork's
 * position, not as the origin's), the auditor still opens and folds it,
 * and a reader without the audit key is refused it and verifies the
 * chain without a re-fold. */
static void test_fork__position_sealed_at_rest(void **state)
{
    (void)state;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1], fork[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 60), 60);
    assert_int_equal(ledger_room_fork(f->db, fork, room, 41), 0);
    static engine_state orig, opening;
    static uint8_t as_origin[ENGINE_STATE_ENCODED_MAX], as_fork[ENGINE_STATE_ENCODED_MAX];
    assert_int_equal(ledger_state_at(f->db, &orig, room, 41), 0);
    size_t n_origin = engine_state_encode(as_origin, sizeof as_origin, &orig);
    orig.config.is_constructed = 1;
    size_t n_fork = engine_state_encode(as_fork, sizeof as_fork, &orig);
    assert_true(n_origin > 0 && n_fork > 0);
    assert_true(orig.n_deck >= 8);

    codec_genesis g;
    assert_int_equal(ledger_genesis_get(f->db, &g, fork), 0);
    assert_true(g.is_fork && g.is_position_sealed);
    assert_int_equal(g.position_len, n_fork + 24 + 16);
    assert_false(test_has_bytes(g.position, g.position_len, orig.deck, orig.n_deck));
    size_t len = 0;
    uint8_t *file = (uint8_t *)test_slurp(f->path, &len);
    assert_false(test_has_bytes(file, len, as_fork, n_fork));
    assert_false(test_has_bytes(file, len, as_origin, n_origin));
    free(file);

    /* The auditor opens it: the opening is the origin's state, and it folds. */
    assert_int_equal(ledger_state_at(f->db, &opening, fork, 0), 0);
    static uint8_t back[ENGINE_STATE_ENCODED_MAX];
    assert_int_equal(engine_state_encode(back, sizeof back, &opening), n_fork);
    assert_memory_equal(back, as_fork, n_fork);
    assert_int_equal(play(f->db, fork, 10), 10);
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(f->db, &rep, fork, 2), 0);
    assert_true(rep.is_refolded);

    /* Without the audit key: refused, and the chain still verifies. */
    fixture_reopen_keyless(f);
    assert_int_equal(ledger_state_at(f->db, &opening, fork, 0), LEDGER_EKEY);
    assert_int_equal(ledger_verify_room(f->db, &rep, fork, 1), 0);
    assert_false(rep.is_refolded);
    fixture_free(f);
}

static void test_fork__a_false_origin_does_not_verify(void **state)
{
    (void)state;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1], fork[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 30), 30);
    assert_int_equal(ledger_room_fork(f->db, fork, room, 12), 0);
    assert_int_equal(verify_ok(f->db, fork), 0);
    /* claims version 13: another chain hash there */
    forge_ctx fc = {fork, 13};
    assert_int_equal(ledger__write(f->db, forge_body, &fc), 0);
    ledger__cache_forget(f->db, fork);
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(f->db, &rep, fork, 1), LEDGER_EBADSIG);
    assert_non_null(strstr(rep.reason, "not a fork of"));
    fixture_free(f);
}

static int count_room(void *ctx, const ledger_room_info *room)
{
    (void)room;
    (*(size_t *)ctx)++;
    return 0;
}

static void test_fork__refusals_write_nothing(void **state)
{
    (void)state;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1], fork[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 5), 5);
    assert_int_equal(ledger_room_fork(f->db, fork, room, 6), LEDGER_ENOTFOUND);
    assert_int_equal(ledger_room_fork(f->db, fork, "ZZZZZZZZ", 0), LEDGER_ENOTFOUND);
    /* without the audit key the state cannot be folded */
    fixture_close(f);
    char nokeys[160];
    snprintf(nokeys, sizeof nokeys, "%s/none", f->dir);
    f->opt.keys_dir = nokeys;
    assert_int_equal(fixture_open(f), 0);
    assert_int_equal(ledger_room_fork(f->db, fork, room, 5), LEDGER_EKEY);
    size_t n = 0;
    assert_int_equal(ledger_room_foreach(f->db, count_room, &n), 0);
    assert_int_equal(n, 1);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fork__position_sealed_at_rest),
        cmocka_unit_test(test_fork__opens_on_the_state_and_says_whence),
        cmocka_unit_test(test_fork__travels_in_an_archive),
        cmocka_unit_test(test_fork__refusals_write_nothing),
        cmocka_unit_test(test_fork__a_false_origin_does_not_verify),
    };
    return cmocka_run_group_tests_name("fork", tests, NULL, NULL);
}
