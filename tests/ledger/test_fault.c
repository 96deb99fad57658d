/*
 * test_fault.c - fault injection: fail the Nth wrapped LMDB call of an
 * append (or a room creation, or a batch), for N = 1, 2, ... until the
 * operation succeeds; after each failure the ledger is at the old head,
 * verifies, and goes on correctly (no half-written event, no stale cache).
 * A backup and a restore fail the same way at each LMDB and file-system
 * call in turn: the archive path holds the old archive or the new one and
 * nothing beside it, the restored ledger the old room or the whole one.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"
#include "tests/support/support.h"

typedef struct snapshot {
    uint32_t version;
    uint8_t hash[SCHEMA_HASH_BYTES];
    uint64_t n_events;
    uint64_t n_rooms;
} snapshot;

static void snap(ledger *db, snapshot *s, const char *room)
{
    ledger_stats st;
    assert_int_equal(ledger_head(db, room, &s->version, s->hash), 0);
    assert_int_equal(ledger_stats_get(db, &st), 0);
    s->n_events = st.n_events;
    s->n_rooms = st.n_rooms;
}

/* Returns how many calls were failed in turn before the append went through. */
static long append_under_faults(fixture *f, const char *room, int fault_rc)
{
    engine_action act;
    uint32_t head;
    assert_true(next_action(f->db, &act, room, &head));
    snapshot before, after;
    snap(f->db, &before, room);
    long n = 1;
    for (;; n++) {
        assert_true(n < 1000);
        ledger_append_result res;
        ledger__fault_set(f->db, n, fault_rc);
        int rc = ledger_append(f->db, &res, room, head, &act);
        ledger__fault_set(f->db, 0, 0);
        snap(f->db, &after, room);
        if (rc == 0) {
            assert_int_equal(res.verdict, ENGINE_ACCEPTED);
            assert_int_equal(after.version, before.version + 1);
            assert_int_equal(after.n_events, before.n_events + 1);
            assert_memory_equal(after.hash, res.receipt.event_hash, SCHEMA_HASH_BYTES);
            break;
        }
        assert_int_equal(rc, fault_rc);
        /* the old head, whole */
        assert_int_equal(after.version, before.version);
        assert_memory_equal(after.hash, before.hash, SCHEMA_HASH_BYTES);
        assert_int_equal(after.n_events, before.n_events);
        assert_int_equal(verify_ok(f->db, room), 0);
    }
    assert_int_equal(verify_ok(f->db, room), 0);
    return n - 1;
}

static void test_fault__append_fails_at_every_call(void **state)
{
    (void)state;
    /* K = 1: every append writes a checkpoint too */
    fixture *f = fixture_new(1);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    engine_action act;
    uint32_t head;
    int steps = 0;
    long n_failed = 0;
    while (next_action(f->db, &act, room, &head) && steps < 6) {
        n_failed += append_under_faults(f, room, EIO);
        steps++;
    }
    assert_true(steps >= 3);
    printf("campaign fault injection, append: %d appends, each failed at every one of its "
           "calls in turn (%ld failures), each leaving the old head whole\n", steps, n_failed);
    /* the game still plays on and replays to the same digests */
    play(f->db, room, 1000);
    assert_int_equal(verify_ok(f->db, room), 0);
    fixture_free(f);
}

static void test_fault__append_faults_after_reopen(void **state)
{
    (void)state;
    /* without a warm cache the fold path's calls fail in turn too */
    fixture *f = fixture_new(64);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 3), 3);
    fixture_close(f);
    assert_int_equal(fixture_open(f), 0);
    append_under_faults(f, room, EIO);
    fixture_close(f);
    assert_int_equal(fixture_open(f), 0);
    append_under_faults(f, room, MDB_PANIC);
    fixture_free(f);
}

typedef struct count_ctx {
    int n;
} count_ctx;

static int count_room(void *ctx, const ledger_room_info *room)
{
    (void)room;
    ((count_ctx *)ctx)->n++;
    return 0;
}

static void test_fault__room_create_fails_at_every_call(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    engine_config cfg;
    test_config_six(&cfg);
    for (long n = 1;; n++) {
        assert_true(n < 1000);
        char room[SCHEMA_ROOM_CHARS + 1] = "";
        ledger__fault_set(f->db, n, EIO);
        int rc = ledger_room_create(f->db, room, &cfg);
        ledger__fault_set(f->db, 0, 0);
        count_ctx c = {0};
        assert_int_equal(ledger_room_foreach(f->db, count_room, &c), 0);
        ledger_stats st;
        assert_int_equal(ledger_stats_get(f->db, &st), 0);
        if (rc == 0) {
            assert_int_equal(c.n, 1);
            assert_int_equal(verify_ok(f->db, room), 0);
            assert_true(play(f->db, room, 1000) >= 1);
            assert_int_equal(verify_ok(f->db, room), 0);
            break;
        }
        assert_int_equal(rc, EIO);
        assert_int_equal(c.n, 0);
        assert_int_equal(st.n_rooms, 0);
    }
    fixture_free(f);
}

static void test_fault__batch_is_all_or_nothing(void **state)
{
    (void)state;
    fixture *f = fixture_new(1);
    char a[SCHEMA_ROOM_CHARS + 1], b[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, a);
    room_new(f->db, b);
    ledger_append_req req[2];
    uint32_t ha, hb;
    assert_true(next_action(f->db, &req[0].action, a, &ha));
    assert_true(next_action(f->db, &req[1].action, b, &hb));
    req[0].room = a;
    req[0].expected_version = ha;
    req[1].room = b;
    req[1].expected_version = hb;
    for (long n = 1;; n++) {
        assert_true(n < 1000);
        ledger_append_result res[2];
        int rcs[2];
        ledger__fault_set(f->db, n, EIO);
        int rc = ledger_append_batch(f->db, res, rcs, req, 2);
        ledger__fault_set(f->db, 0, 0);
        uint32_t va, vb;
        assert_int_equal(ledger_head(f->db, a, &va, NULL), 0);
        assert_int_equal(ledger_head(f->db, b, &vb, NULL), 0);
        if (rc == 0) {
            assert_int_equal(rcs[0], 0);
            assert_int_equal(rcs[1], 0);
            assert_int_equal(va, ha + 1);
            assert_int_equal(vb, hb + 1);
            break;
        }
        assert_int_equal(rc, EIO);
        assert_int_equal(rcs[0], EIO);
        assert_int_equal(rcs[1], EIO);
        assert_int_equal(va, ha);
        assert_int_equal(vb, hb);
    }
    assert_int_equal(verify_ok(f->db, a), 0);
    assert_int_equal(verify_ok(f->db, b), 0);
    fixture_free(f);
}

static void test_fault__poisoned_txn_refuses_later_calls(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    ledger_txn txn;
    ledger_head_rec head;
    assert_int_equal(ledger__txn_begin(&txn, f->db, 1), 0);
    ledger__fault_set(f->db, 1, EIO);
    assert_int_equal(ledger__head_read(f->db, &txn, &head, room), EIO);
    assert_true(txn.is_poisoned);
    assert_int_equal(ledger__head_read(f->db, &txn, &head, room), LEDGER_EBADTXN);
    assert_int_equal(ledger__head_write(f->db, &txn, room, &head), LEDGER_EBADTXN);
    assert_int_equal(ledger__txn_commit(&txn), LEDGER_EBADTXN);
    ledger__txn_abort(&txn);
    /* a fresh txn works */
    assert_int_equal(ledger__txn_begin(&txn, f->db, 0), 0);
    assert_int_equal(ledger__head_read(f->db, &txn, &head, room), 0);
    ledger__txn_abort(&txn);
    fixture_free(f);
}

static void test_fault__map_full_grows_and_retries(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    size_t before = f->db->map_size;
    engine_action act;
    uint32_t head;
    assert_true(next_action(f->db, &act, room, &head));
    ledger_append_result res;
    /* the third call of the append reports a full map */
    ledger__fault_set(f->db, 3, MDB_MAP_FULL);
    assert_int_equal(ledger_append(f->db, &res, room, head, &act), 0);
    assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    assert_int_equal(f->db->map_size, before * 2);
    assert_int_equal(verify_ok(f->db, room), 0);
    fixture_free(f);
}

/* The names in dir other than "." and "..", counted. */
static size_t dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void test_fault__backup_fails_at_every_call(void **state)
{
    (void)state;
    fixture *f = fixture_new(64);
    char room[SCHEMA_ROOM_CHARS + 1], dir[256], path[300];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 3), 3);
    snprintf(dir, sizeof dir, "%s/out", f->dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/%s.mentat-archive", dir, room);
    assert_int_equal(ledger_backup_room(f->db, room, path), 0);
    size_t old_len = 0, len = 0;
    char *old = test_slurp(path, &old_len);
    assert_int_equal(play(f->db, room, 2), 2);
    long n = 1;
    for (;; n++) {
        assert_true(n < 1000);
        ledger__fault_set(f->db, n, EIO);
        int rc = ledger_backup_room(f->db, room, path);
        ledger__fault_set(f->db, 0, 0);
        assert_int_equal(dir_entries(dir), 1); /* no temporary file left */
        char *now = test_slurp(path, &len);
        if (rc == 0) {
            assert_true(len != old_len || memcmp(now, old, len) != 0);
            free(now);
            break;
        }
        assert_int_equal(len, old_len);    /* the old archive, whole */
        assert_memory_equal(now, old, len);
        free(now);
    }
    assert_true(n > 3);                    /* it did fail at calls of its own */
    printf("campaign fault injection, backup: failed at each of its %ld LMDB and file-system "
           "calls in turn, each leaving the old archive whole and nothing beside it\n", n - 1);
    free(old);
    /* what was finally written restores to the same room */
    fixture *g = fixture_new(64);
    ledger_restore_report rep;
    assert_int_equal(ledger_restore(g->db, &rep, path, 1), 0);
    assert_int_equal(rep.n_events, 5);
    assert_int_equal(verify_ok(g->db, room), 0);
    fixture_free(g);
    fixture_free(f);
}

static void test_fault__restore_fails_at_every_call(void **state)
{
    (void)state;
    fixture *f = fixture_new(64);
    char room[SCHEMA_ROOM_CHARS + 1], path[300];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 6), 6);
    snprintf(path, sizeof path, "%s/a.mentat-archive", f->dir);
    assert_int_equal(ledger_backup_room(f->db, room, path), 0);
    fixture *g = fixture_new(64);
    long n = 1;
    for (;; n++) {
        assert_true(n < 1000);
        ledger_restore_report rep;
        ledger__fault_set(g->db, n, EIO);
        int rc = ledger_restore(g->db, &rep, path, 1);
        ledger__fault_set(g->db, 0, 0);
        count_ctx c = {0};
        assert_int_equal(ledger_room_foreach(g->db, count_room, &c), 0);
        if (rc == 0) {
            assert_int_equal(c.n, 1);
            break;
        }
        assert_int_equal(c.n, 0);          /* nothing of the room */
    }
    assert_true(n > 1);
    printf("campaign fault injection, restore: failed at each of its %ld LMDB and file-system "
           "calls in turn, each leaving no part of the room\n", n - 1);
    assert_int_equal(verify_ok(g->db, room), 0);
    fixture_free(g);
    fixture_free(f);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault__append_fails_at_every_call),
        cmocka_unit_test(test_fault__append_faults_after_reopen),
        cmocka_unit_test(test_fault__room_create_fails_at_every_call),
        cmocka_unit_test(test_fault__batch_is_all_or_nothing),
        cmocka_unit_test(test_fault__poisoned_txn_refuses_later_calls),
        cmocka_unit_test(test_fault__map_full_grows_and_retries),
        cmocka_unit_test(test_fault__backup_fails_at_every_call),
        cmocka_unit_test(test_fault__restore_fails_at_every_call),
    };
    return cmocka_run_group_tests_name("ledger_fault", tests, NULL, NULL);
}
