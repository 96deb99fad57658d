/*
 * test_public_view.c - the public view of every version, stored at each
 * append (ledger/public_view.c): a reader without the audit key gets
 * exactly what engine_view gives a spectator of the folded state, at every
 * version and every rules version, Basic, Advanced and with the Nexus
 * Cards; an auditor's verify re-derives every view and names a wrong one;
 * a keyless verify names a missing one; a room stored without views keeps
 * none and says so; a restore that folds writes them again.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

#define VERSIONS 140 /* two full blocks of views and an open one */
#define MAX_ROOMS 24

typedef struct expected {
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t head;
    size_t len[VERSIONS + 1];
    uint8_t enc[VERSIONS + 1][ENGINE_STATE_ENCODED_MAX];
} expected;

static size_t public_encoding(uint8_t out[ENGINE_STATE_ENCODED_MAX], const engine_state *st)
{
    static engine_state view;
    engine_view(&view, st, ENGINE_VIEW_PUBLIC);
    size_t n = engine_state_encode(out, ENGINE_STATE_ENCODED_MAX, &view);
    assert_true(n > 0 && n <= ENGINE_STATE_ENCODED_MAX);
    return n;
}

/* The public view of every version of room, computed with the key. */
static void expect(ledger *db, expected *x, const char *room)
{
    static engine_state st;
    snprintf(x->room, sizeof x->room, "%s", room);
    assert_int_equal(ledger_head(db, room, &x->head, NULL), 0);
    for (uint32_t v = 0; v <= x->head; v++) {
        assert_int_equal(ledger_state_at(db, &st, room, v), 0);
        x->len[v] = public_encoding(x->enc[v], &st);
    }
}

/* Every version's stored view, read without folding, is the expected one. */
static void check_stored(ledger *db, const expected *x)
{
    static engine_state view;
    static uint8_t enc[ENGINE_STATE_ENCODED_MAX];
    for (uint32_t v = 0; v <= x->head; v++) {
        int rc = ledger_public_view_at(db, &view, x->room, v);
        if (rc != 0)
            fprintf(stderr, "%s@%u: %s\n", x->room, v, ledger_errmsg(db));
        assert_int_equal(rc, 0);
        assert_int_equal(view.viewer, ENGINE_VIEW_PUBLIC);
        size_t n = engine_state_encode(enc, sizeof enc, &view);
        assert_int_equal(n, x->len[v]);
        assert_memory_equal(enc, x->enc[v], n);
    }
}

static void test_public_view__exact_at_every_version_keyless(void **state)
{
    (void)state;
    fixture *f = fixture_new(16);
    static expected x[MAX_ROOMS];
    size_t n = 0, n_long = 0;
    for (uint16_t rv = 2; rv <= ENGINE_RULES_VERSION; rv++) {
        for (unsigned kind = 0; kind < 3; kind++) {
            engine_config cfg;
            test_config_six(&cfg);
            cfg.rules_version = rv;
            if (kind == 1)
                cfg.is_advanced = 1;
            if (kind == 2) {
                cfg.modules |= ENGINE_MODULE_NEXUS_CARDS;
                cfg.n_seats = 5;
            }
            char room[SCHEMA_ROOM_CHARS + 1];
            if (ledger_room_create(f->db, room, &cfg) != 0) {
                assert_true(kind != 0); /* every rules version folds the Basic game */
                continue;
            }
            /* the first legal action takes the Basic game past two blocks;
             * the others as far as it goes */
            uint32_t played = play(f->db, room, VERSIONS);
            assert_true(played > (kind == 0 ? 2u * LEDGER_VIEW_BLOCK : 0u));
            n_long += played > LEDGER_VIEW_BLOCK;
            assert_true(n < MAX_ROOMS);
            expect(f->db, &x[n], room);
            check_stored(f->db, &x[n]); /* the writer's handle reads them too */
            n++;
        }
    }
    assert_true(n >= 7 + 2); /* Basic at every version, Advanced and Nexus at some */
    assert_true(n_long >= 7 + 2);

    fixture_reopen_keyless(f);
    static engine_state st;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ledger_state_at(f->db, &st, x[i].room, x[i].head), LEDGER_EKEY);
        check_stored(f->db, &x[i]);
        ledger_verify_report rep;
        assert_int_equal(ledger_verify_room(f->db, &rep, x[i].room, 1), 0);
        assert_int_equal(rep.has_public_views, 1);
        assert_int_equal(rep.is_refolded, 0);
    }
    fixture_free(f);
}

/* Past the first anchor (version 1,024, whose block has no dictionary)
 * and its next block (whose dictionary is the anchor's last view): every
 * stored view still the fold's, keyless, and verify re-derives them all. */
static void test_public_view__long_room_across_an_anchor(void **state)
{
    (void)state;
    enum { LONG = 1024 + 2 * LEDGER_VIEW_BLOCK + 5 };
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    fixture_make(f);
    f->opt.is_unsafe_no_sync = 1; /* what is stored, not its durability, is tested */
    assert_int_equal(fixture_open(f), 0);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    uint32_t played = play(f->db, room, LONG);
    if (played != LONG)
        fprintf(stderr, "the first legal action ends the game at %u\n", played);
    assert_int_equal(played, LONG);
    uint8_t (*enc)[ENGINE_STATE_ENCODED_MAX] = malloc((LONG + 1) * sizeof *enc);
    size_t *len = malloc((LONG + 1) * sizeof *len);
    assert_non_null(enc);
    assert_non_null(len);
    static engine_state st, view;
    for (uint32_t v = 0; v <= LONG; v++) {
        assert_int_equal(ledger_state_at(f->db, &st, room, v), 0);
        len[v] = public_encoding(enc[v], &st);
    }
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(f->db, &rep, room, 2), 0);
    assert_int_equal(rep.has_public_views, 1);
    fixture_reopen_keyless(f);
    static uint8_t got[ENGINE_STATE_ENCODED_MAX];
    const uint32_t probe[] = {0, 63, 64, 1023, 1024, 1087, 1088, 1151, 1152, LONG};
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
        uint32_t v = probe[i];
        assert_int_equal(ledger_public_view_at(f->db, &view, room, v), 0);
        size_t n = engine_state_encode(got, sizeof got, &view);
        assert_int_equal(n, len[v]);
        assert_memory_equal(got, enc[v], n);
    }
    assert_int_equal(ledger_verify_room(f->db, &rep, room, 1), 0);
    assert_int_equal(rep.has_public_views, 1);
    free(enc);
    free(len);
    fixture_free(f);
}

/* Deletes the stored view of `version` (the last of an open block). */
static void open_view_delete(ledger *db, const char *room, uint32_t version)
{
    ledger_txn txn;
    MDB_cursor *cur;
    uint8_t kbuf[SCHEMA_ROOM_CHARS + 1];
    memcpy(kbuf, room, SCHEMA_ROOM_CHARS);
    kbuf[SCHEMA_ROOM_CHARS] = 0x01;
    MDB_val k = {sizeof kbuf, kbuf}, v;
    assert_int_equal(ledger__txn_begin(&txn, db, 1), 0);
    assert_int_equal(mdb_cursor_open(txn.mdb, db->dbi_views, &cur), 0);
    assert_int_equal(mdb_cursor_get(cur, &k, &v, MDB_SET), 0);
    assert_int_equal(mdb_cursor_get(cur, &k, &v, MDB_LAST_DUP), 0);
    int n = 0;
    while (v.mv_size > 4 && ledger__be32_get(v.mv_data) == version) {
        assert_int_equal(mdb_cursor_del(cur, 0), 0);
        n++;
        if (mdb_cursor_get(cur, &k, &v, MDB_LAST_DUP) != 0)
            break;
    }
    assert_true(n >= 1);
    mdb_cursor_close(cur);
    assert_int_equal(ledger__txn_commit(&txn), 0);
}

static void test_public_view__verify_catches_a_wrong_or_missing_view(void **state)
{
    (void)state;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, VERSIONS), VERSIONS);
    const uint32_t head = VERSIONS;
    assert_true(head % LEDGER_VIEW_BLOCK != 0); /* the head's view is an open one */
    static engine_state before;
    assert_int_equal(ledger_state_at(f->db, &before, room, head - 2), 0);
    uint8_t prev[SCHEMA_HASH_BYTES], hash[SCHEMA_HASH_BYTES];
    assert_int_equal(ledger_chain_hash(f->db, prev, room, head - 1), 0);
    assert_int_equal(ledger_chain_hash(f->db, hash, room, head), 0);

    /* The head's view replaced by a well-formed one of another version:
     * only a verify that folds can tell. */
    open_view_delete(f->db, room, head);
    ledger_txn txn;
    assert_int_equal(ledger__txn_begin(&txn, f->db, 1), 0);
    assert_int_equal(ledger__view_put(f->db, &txn, NULL, room, head, prev, hash, &before), 0);
    assert_int_equal(ledger__txn_commit(&txn), 0);
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(f->db, &rep, room, 2), LEDGER_EBADSIG);
    assert_int_equal(rep.bad_version, head);
    assert_non_null(strstr(rep.reason, "public view"));
    fixture_reopen_keyless(f);
    assert_int_equal(ledger_verify_room(f->db, &rep, room, 1), 0);

    /* A view missing: every verify names it. */
    open_view_delete(f->db, room, head);
    assert_int_equal(ledger_verify_room(f->db, &rep, room, 1), LEDGER_ECORRUPT);
    assert_int_equal(rep.bad_version, head);
    static engine_state view;
    assert_int_equal(ledger_public_view_at(f->db, &view, room, head), LEDGER_ECORRUPT);
    fixture_free(f);
}

/* Removes every view of room, as a room an older build stored has none. */
static void views_drop(ledger *db, const char *room)
{
    ledger_txn txn;
    uint8_t kbuf[SCHEMA_ROOM_CHARS + 1];
    memcpy(kbuf, room, SCHEMA_ROOM_CHARS);
    kbuf[SCHEMA_ROOM_CHARS] = 0x01;
    MDB_val k8 = {SCHEMA_ROOM_CHARS, kbuf}, k9 = {sizeof kbuf, kbuf};
    assert_int_equal(ledger__txn_begin(&txn, db, 1), 0);
    assert_int_equal(mdb_del(txn.mdb, db->dbi_views, &k8, NULL), 0);
    int rc = mdb_del(txn.mdb, db->dbi_views, &k9, NULL);
    assert_true(rc == 0 || rc == MDB_NOTFOUND);
    assert_int_equal(ledger__txn_commit(&txn), 0);
}

static void test_public_view__a_room_without_views_keeps_none(void **state)
{
    (void)state;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 20), 20);
    views_drop(f->db, room);
    assert_int_equal(play(f->db, room, 60), 60); /* across a block's end: still none */
    static engine_state view;
    for (uint32_t v = 0; v <= 80; v += 40) {
        assert_int_equal(ledger_public_view_at(f->db, &view, room, v), LEDGER_ENOTFOUND);
        assert_non_null(strstr(ledger_errmsg(f->db), "keeps no public views"));
    }
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(f->db, &rep, room, 2), 0);
    assert_int_equal(rep.has_public_views, 0);
    assert_true(rep.is_refolded);

    /* A restore that folds (the audit key is here) writes every view. */
    char path[300];
    snprintf(path, sizeof path, "%s/room.mentat", f->dir);
    assert_int_equal(ledger_backup_room(f->db, room, path), 0);
    fixture *g = fixture_new_with_keys(16, f->keys);
    ledger_restore_report rr;
    assert_int_equal(ledger_restore(g->db, &rr, path, 0), 0);
    static expected x;
    expect(g->db, &x, room);
    check_stored(g->db, &x);
    assert_int_equal(ledger_verify_room(g->db, &rep, room, 2), 0);
    assert_int_equal(rep.has_public_views, 1);
    fixture_free(g);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_public_view__exact_at_every_version_keyless),
        cmocka_unit_test(test_public_view__long_room_across_an_anchor),
        cmocka_unit_test(test_public_view__verify_catches_a_wrong_or_missing_view),
        cmocka_unit_test(test_public_view__a_room_without_views_keeps_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
