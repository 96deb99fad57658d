/*
 * test_errors.c - operational errors: a full map that may not grow (and
 * one that may), a read-only ledger file, a missing directory, a ledger of
 * a newer format; each a clear one-line message and an unchanged ledger.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

#define SMALL_MAP ((size_t)256 << 10)

#define EVENTS_PER_ROOM 20

/* Creates rooms and plays EVENTS_PER_ROOM events in each until a call
 * fails; returns that code. On failure, checks that the ledger is exactly
 * as before the failing call. */
static int fill(ledger *db, int max_rooms, int *n_rooms_out)
{
    engine_config cfg;
    test_config_six(&cfg);
    static char rooms[4096][SCHEMA_ROOM_CHARS + 1];
    int n = 0;
    for (; n < max_rooms && n < 4096; n++) {
        ledger_stats before, after;
        assert_int_equal(ledger_stats_get(db, &before), 0);
        int rc = ledger_room_create(db, rooms[n], &cfg);
        if (rc == 0) {
            engine_action act;
            uint32_t head = 0;
            while (rc == 0 && head < EVENTS_PER_ROOM && next_action(db, &act, rooms[n], &head)) {
                ledger_append_result res;
                assert_int_equal(ledger_stats_get(db, &before), 0);
                rc = ledger_append(db, &res, rooms[n], head, &act);
                if (rc != 0) {
                    uint32_t again;
                    assert_int_equal(ledger_head(db, rooms[n], &again, NULL), 0);
                    assert_int_equal(again, head);
                }
            }
            if (rc == 0)
                continue;
            n++;
        }
        assert_int_equal(ledger_stats_get(db, &after), 0);
        assert_int_equal(after.n_events, before.n_events);
        *n_rooms_out = n;
        return rc;
    }
    *n_rooms_out = n;
    return 0;
}

static void test_errors__full_map_may_not_grow(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    f.opt.map_size = SMALL_MAP;
    f.opt.max_map_size = SMALL_MAP;
    assert_int_equal(fixture_open(&f), 0);
    int n = 0;
    int rc = fill(f.db, 4096, &n);
    assert_int_equal(rc, LEDGER_EFULL);
    assert_non_null(strstr(ledger_errmsg(f.db), "full"));
    assert_null(strchr(ledger_errmsg(f.db), '\n'));
    assert_true(n >= 2);
    ledger_stats s;
    assert_int_equal(ledger_stats_get(f.db, &s), 0);
    assert_int_equal(s.map_size, SMALL_MAP);
    /* what is there is whole */
    {
        char room[SCHEMA_ROOM_CHARS + 1];
        MDB_txn *txn;
        MDB_cursor *cur;
        MDB_val k, v;
        assert_int_equal(mdb_txn_begin(f.db->env, NULL, MDB_RDONLY, &txn), 0);
        assert_int_equal(mdb_cursor_open(txn, f.db->dbi_rooms, &cur), 0);
        while (mdb_cursor_get(cur, &k, &v, MDB_NEXT) == 0) {
            memcpy(room, k.mv_data, SCHEMA_ROOM_CHARS);
            room[SCHEMA_ROOM_CHARS] = '\0';
            assert_int_equal(verify_ok(f.db, room), 0);
        }
        mdb_cursor_close(cur);
        mdb_txn_abort(txn);
    }
    fixture_close(&f);
    /* reopened with room to grow, it goes on */
    f.opt.max_map_size = SMALL_MAP * 64;
    assert_int_equal(fixture_open(&f), 0);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f.db, room);
    assert_true(play(f.db, room, 1000) >= 1);
    fixture_close(&f);
    fixture_rm(&f);
}

static void test_errors__map_that_may_grow_grows(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    f.opt.map_size = SMALL_MAP;
    f.opt.max_map_size = SMALL_MAP * 64;
    f.opt.is_unsafe_no_sync = 1;
    assert_int_equal(fixture_open(&f), 0);
    int n = 0;
    assert_int_equal(fill(f.db, 300, &n), 0);
    assert_int_equal(n, 300);
    ledger_stats s;
    assert_int_equal(ledger_stats_get(f.db, &s), 0);
    assert_true(s.map_size > SMALL_MAP);
    assert_true(s.file_bytes > SMALL_MAP);
    assert_int_equal(s.n_rooms, 300);
    fixture_close(&f);
    fixture_rm(&f);
}

static void test_errors__read_only_file(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_true(play(f->db, room, 2) >= 1);
    fixture_close(f);
    assert_int_equal(chmod(f->path, 0444), 0);

    ledger *db = NULL;
    int rc = ledger_open(&db, &f->opt);
    assert_int_not_equal(rc, 0);
    assert_non_null(strstr(ledger_errmsg(db), "read-only"));
    assert_non_null(strstr(ledger_errmsg(db), f->path));
    ledger_close(db);

    /* opened read-only, it reads and verifies, and refuses writes */
    f->opt.is_read_only = 1;
    assert_int_equal(fixture_open(f), 0);
    assert_int_equal(verify_ok(f->db, room), 0);
    engine_action act;
    uint32_t head;
    if (next_action(f->db, &act, room, &head)) {
        ledger_append_result res;
        assert_int_equal(ledger_append(f->db, &res, room, head, &act), LEDGER_EINPUT);
        assert_non_null(strstr(ledger_errmsg(f->db), "read-only"));
    }
    engine_config cfg;
    test_config_six(&cfg);
    assert_int_equal(ledger_room_create(f->db, room, &cfg), LEDGER_EINPUT);
    assert_int_equal(ledger_key_rotate(f->db, NULL), LEDGER_EINPUT);
    fixture_free(f);
}

static void test_errors__missing_directory(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    char path[256];
    snprintf(path, sizeof path, "%s/no/such/dir/mentat.db", f.dir);
    f.opt.path = path;
    ledger *db = NULL;
    assert_int_equal(ledger_open(&db, &f.opt), LEDGER_EINPUT);
    assert_non_null(strstr(ledger_errmsg(db), "does not exist"));
    assert_null(strchr(ledger_errmsg(db), '\n'));
    ledger_close(db);

    /* read-only, a missing file */
    snprintf(path, sizeof path, "%s/absent.db", f.dir);
    f.opt.is_read_only = 1;
    assert_int_equal(ledger_open(&db, &f.opt), LEDGER_ENOTFOUND);
    assert_non_null(strstr(ledger_errmsg(db), "no ledger"));
    ledger_close(db);
    f.opt.path = NULL;
    assert_int_equal(ledger_open(&db, &f.opt), LEDGER_EINPUT);
    ledger_close(db);
    fixture_rm(&f);
}

static void test_errors__newer_format_refused(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    MDB_txn *txn;
    uint8_t buf[4];
    ledger__be32_put(buf, LEDGER_FORMAT_VERSION + 1);
    MDB_val k = {sizeof LEDGER_META_FORMAT - 1, (void *)LEDGER_META_FORMAT}, v = {4, buf};
    assert_int_equal(mdb_txn_begin(f->db->env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_put(txn, f->db->dbi_meta, &k, &v, 0), 0);
    assert_int_equal(mdb_txn_commit(txn), 0);
    fixture_close(f);
    ledger *db = NULL;
    assert_int_equal(ledger_open(&db, &f->opt), LEDGER_EINPUT);
    assert_non_null(strstr(ledger_errmsg(db), "newer"));
    ledger_close(db);
    fixture_free(f);
}

static void test_errors__not_a_ledger(void **state)
{
    (void)state;
    fixture f;
    fixture_make(&f);
    FILE *fp = fopen(f.path, "w");
    assert_non_null(fp);
    for (int i = 0; i < 3000; i++)
        fputs("not an lmdb file ", fp);
    fclose(fp);
    ledger *db = NULL;
    assert_int_not_equal(ledger_open(&db, &f.opt), 0);
    assert_true(strlen(ledger_errmsg(db)) > 0);
    ledger_close(db);
    fixture_rm(&f);
}

static void test_errors__bad_configuration(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 1;
    char room[SCHEMA_ROOM_CHARS + 1];
    assert_int_equal(ledger_room_create(f->db, room, &cfg), LEDGER_EINPUT);
    assert_non_null(strstr(ledger_errmsg(f->db), "bad_config"));
    ledger_stats s;
    assert_int_equal(ledger_stats_get(f->db, &s), 0);
    assert_int_equal(s.n_rooms, 0);
    fixture_free(f);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors__full_map_may_not_grow),
        cmocka_unit_test(test_errors__map_that_may_grow_grows),
        cmocka_unit_test(test_errors__read_only_file),
        cmocka_unit_test(test_errors__missing_directory),
        cmocka_unit_test(test_errors__newer_format_refused),
        cmocka_unit_test(test_errors__not_a_ledger),
        cmocka_unit_test(test_errors__bad_configuration),
    };
    return cmocka_run_group_tests_name("ledger_errors", tests, NULL, NULL);
}
