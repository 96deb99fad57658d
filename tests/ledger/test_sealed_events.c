/*
 * test_sealed_events.c - the secret arguments of accepted actions (traitor
 * picks, storm dials, ...) sealed with the room key in events of format 3:
 * nowhere in the ledger file in the clear, opened for a reader holding the
 * audit key (the fold, verify and restore as before), left sealed for one
 * without it (verify still checks the chain and the tree), opened for
 * everyone after the reveal, and carried by an archive.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

#define VERSIONS 40

/* The whole ledger file. */
static uint8_t *file_bytes(const char *path, size_t *len_out)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 0, SEEK_END), 0);
    long n = ftell(fp);
    assert_true(n > 0);
    rewind(fp);
    uint8_t *buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len_out = (size_t)n;
    return buf;
}

/* The stored event (room, v), decoded as it is in the file. */
static void stored_event(ledger *db, codec_event *out, const char *room, uint32_t v)
{
    ledger_txn txn;
    const uint8_t *rec;
    size_t len;
    assert_int_equal(ledger__txn_begin(&txn, db, 0), 0);
    assert_int_equal(ledger__event_read(db, &txn, room, v, &rec, &len), 0);
    assert_int_equal(ledger__event_record_decode(db, out, rec, len), 0);
    ledger__txn_abort(&txn);
}

static void test_sealed_events__secrets_sealed_in_the_file(void **state)
{
    (void)state;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, VERSIONS), VERSIONS);
    static codec_event real[VERSIONS + 1];
    uint8_t d_head[ENGINE_DIGEST_BYTES], d[ENGINE_DIGEST_BYTES];
    static engine_state st;
    assert_int_equal(ledger_state_at(f->db, &st, room, VERSIONS), 0);
    engine_state_digest(d_head, &st);

    /* Every action with secret arguments is sealed, its secrets 0 in the
     * stored event; the record a clear event would have is nowhere in the
     * file. */
    size_t file_len;
    uint8_t *file = file_bytes(f->path, &file_len);
    uint32_t n_sealed = 0, n_hidden = 0, first_sealed = 0;
    for (uint32_t v = 1; v <= VERSIONS; v++) {
        codec_event stored;
        assert_int_equal(ledger_event_get(f->db, &real[v], room, v), 0);
        assert_int_equal(real[v].is_sealed, 0);
        stored_event(f->db, &stored, room, v);
        uint8_t mask = engine_action_secret_args(&real[v].action);
        if (mask == 0) {
            assert_int_equal(stored.sealed_len, 0);
            assert_memory_equal(&stored.action, &real[v].action, sizeof stored.action);
            continue;
        }
        n_sealed++;
        if (first_sealed == 0)
            first_sealed = v;
        assert_true(stored.sealed_len >= SCHEMA_SEALED_EVENT_MIN);
        int is_hidden = 0;
        for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++) {
            if ((unsigned)mask >> i & 1u) {
                assert_int_equal(stored.action.arg[i], 0);
                is_hidden |= real[v].action.arg[i] != 0;
            } else {
                assert_int_equal(stored.action.arg[i], real[v].action.arg[i]);
            }
        }
        if (!is_hidden)
            continue;
        n_hidden++;
        codec_event clear = real[v];
        clear.sealed_len = 0;
        uint8_t rec[LEDGER_EVENT_RECORD_MAX];
        size_t rec_len = 0;
        assert_int_equal(ledger__event_record_encode(f->db, rec, sizeof rec, &rec_len, &clear), 0);
        assert_false(test_has_bytes(file, file_len, rec + 1, rec_len - 1));
    }
    free(file);
    assert_true(n_sealed >= 6); /* six traitor picks at least */
    assert_true(n_hidden >= 2); /* the first storm dials at least (the first legal traitor is 0) */

    /* With the audit key: verify re-folds; a retry of a sealed action is
     * answered as the original. */
    ledger_verify_report rep;
    assert_int_equal(ledger_verify_room(f->db, &rep, room, 2), 0);
    assert_true(rep.is_refolded);
    assert_int_equal(rep.n_sealed_unopened, 0);
    ledger_append_result res;
    assert_int_equal(ledger_append(f->db, &res, room, first_sealed - 1,
                                   &real[first_sealed].action), 0);
    assert_true(res.is_retry);

    /* Without it: sealed, verify checks chain and tree only. */
    fixture_reopen_keyless(f);
    codec_event ev;
    assert_int_equal(ledger_event_get(f->db, &ev, room, first_sealed), 0);
    assert_int_equal(ev.is_sealed, 1);
    for (unsigned i = 0; i < ENGINE_ACTION_MAX_ARGS; i++)
        if ((unsigned)engine_action_secret_args(&real[first_sealed].action) >> i & 1u)
            assert_int_equal(ev.action.arg[i], 0);
    assert_int_equal(ledger_verify_room(f->db, &rep, room, 1), 0);
    assert_false(rep.is_refolded);
    assert_int_equal(rep.n_sealed_unopened, n_sealed);

    /* An archive carries the room key: restored on the same host into a
     * new ledger, the room re-folds to the same head. */
    fixture_reopen_keyed(f);
    char path[256];
    snprintf(path, sizeof path, "%s/sealed.mentat-archive", f->dir);
    assert_int_equal(ledger_backup_room(f->db, room, path), 0);
    fixture *g = fixture_new_with_keys(16, f->keys);
    ledger_restore_report rr;
    assert_int_equal(ledger_restore(g->db, &rr, path, 1), 0);
    assert_int_equal(ledger_verify_room(g->db, &rep, room, 1), 0);
    assert_true(rep.is_refolded);
    assert_int_equal(ledger_state_at(g->db, &st, room, VERSIONS), 0);
    engine_state_digest(d, &st);
    assert_memory_equal(d, d_head, sizeof d);
    fixture_free(g);

    /* After the reveal every reader opens them. */
    uint8_t seed[ENGINE_SEED_BYTES];
    assert_int_equal(ledger_reveal(f->db, seed, room, 1), 0);
    fixture_reopen_keyless(f);
    assert_int_equal(ledger_event_get(f->db, &ev, room, first_sealed), 0);
    assert_int_equal(ev.is_sealed, 0);
    assert_memory_equal(&ev.action, &real[first_sealed].action, sizeof ev.action);
    assert_int_equal(ledger_verify_room(f->db, &rep, room, 1), 0);
    assert_true(rep.is_refolded);
    assert_int_equal(rep.n_sealed_unopened, 0);
    fixture_free(f);
}

/* A sealed action altered in the file breaks the chain; one whose seal
 * does not open to its event is corrupt, never another action. */
static void test_sealed_events__altered_seal_refused(void **state)
{
    (void)state;
    fixture *f = fixture_new(16);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 8), 8);
    codec_event ev;
    stored_event(f->db, &ev, room, 1);
    assert_true(ev.sealed_len > 0);
    engine_action act;
    uint8_t key[LEDGER_ROOM_KEY_BYTES];
    ledger_txn txn;
    assert_int_equal(ledger__txn_begin(&txn, f->db, 0), 0);
    assert_int_equal(ledger__room_key(f->db, &txn, room, key), 0);
    ledger__txn_abort(&txn);
    assert_int_equal(ledger__event_open_with(f->db, &act, room, &ev, key), 0);
    codec_event bad = ev;
    bad.sealed_action[bad.sealed_len - 1] ^= 0x01;
    assert_int_equal(ledger__event_open_with(f->db, &act, room, &bad, key), LEDGER_ECORRUPT);
    bad = ev;
    bad.version = 2; /* the seal names its version */
    assert_int_equal(ledger__event_open_with(f->db, &act, room, &bad, key), LEDGER_ECORRUPT);
    bad = ev;
    bad.action.kind = ev.action.kind == ENGINE_ACTION_STORM_DIAL ? ENGINE_ACTION_TRAITOR_PICK
                                                                 : ENGINE_ACTION_STORM_DIAL;
    assert_int_equal(ledger__event_open_with(f->db, &act, room, &bad, key), LEDGER_ECORRUPT);
    sodium_memzero(key, sizeof key);

    /* In the file: the chain no longer holds. */
    uint8_t rec[LEDGER_EVENT_RECORD_MAX];
    size_t len = 0;
    bad = ev;
    bad.sealed_action[5] ^= 0x10;
    assert_int_equal(ledger__event_record_encode(f->db, rec, sizeof rec, &len, &bad), 0);
    MDB_txn *mt;
    uint8_t val[LEDGER_EVENT_PREFIX + LEDGER_EVENT_RECORD_MAX];
    ledger__be32_put(val, 1);
    memcpy(val + LEDGER_EVENT_PREFIX, rec, len);
    MDB_val k = {SCHEMA_ROOM_CHARS, room}, v = {LEDGER_EVENT_PREFIX + 4, val};
    MDB_cursor *cur;
    assert_int_equal(mdb_txn_begin(f->db->env, NULL, 0, &mt), 0);
    assert_int_equal(mdb_cursor_open(mt, f->db->dbi_events, &cur), 0);
    assert_int_equal(mdb_cursor_get(cur, &k, &v, MDB_GET_BOTH_RANGE), 0);
    assert_int_equal(ledger__be32_get(v.mv_data), 1);
    assert_int_equal(mdb_cursor_del(cur, 0), 0);
    mdb_cursor_close(cur);
    MDB_val nv = {LEDGER_EVENT_PREFIX + len, val};
    assert_int_equal(mdb_put(mt, f->db->dbi_events, &k, &nv, 0), 0);
    assert_int_equal(mdb_txn_commit(mt), 0);
    fixture_reopen_keyed(f);
    ledger_verify_report rep;
    assert_int_not_equal(ledger_verify_room(f->db, &rep, room, 1), 0);
    fixture_free(f);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sealed_events__secrets_sealed_in_the_file),
        cmocka_unit_test(test_sealed_events__altered_seal_refused),
    };
    return cmocka_run_group_tests_name("ledger_sealed_events", tests, NULL, NULL);
}
