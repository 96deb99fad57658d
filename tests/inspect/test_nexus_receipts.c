/*
 * test_nexus_receipts.c - the receipts of a Nexus Cards room's draw
 * opportunities and windows (inspect_room_nexus_check, `mentat verify`):
 * a genuine game of `mentat games --modules nexus_cards` passes with
 * every opportunity opened and closed once and one answer a seat asked;
 * the same ledger surgically altered (an answer duplicated in place of
 * the next, the closing answer replaced by the event after it) is named
 * at the version altered, by the check and by `mentat verify`.
 *
 * The game is real (the bots, the real append path, real keys); the
 * alteration goes straight at the LMDB file through the ledger's
 * internals, as an operator holding the file could.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "inspect/inspect.h"
#include "ledger/internal.h"
#include "tests/support/support.h"

static char mentat_bin[PATH_MAX];

typedef struct fixture {
    char dir[PATH_MAX];
    char old_cwd[PATH_MAX];
    char room[SCHEMA_ROOM_CHARS + 1]; /* a room with an opportunity of 2+ answers */
    uint32_t answer[ENGINE_MAX_SEATS]; /* versions of its answers, in order */
    unsigned n_answers;
} fixture;

static ledger *open_db(void)
{
    ledger_options opt;
    ledger_options_init(&opt);
    opt.path = "mentat.db";
    opt.keys_dir = "mentat.keys";
    ledger *db = NULL;
    assert_int_equal(ledger_open(&db, &opt), 0);
    return db;
}

static void run(int status, test_run_result *r, const char *const *args)
{
    int got = test_run_argv(r, mentat_bin, ".out", ".err", args);
    if (got != status)
        print_error("%s: exit %d, expected %d\n%s%s", args[0], got, status, r->out, r->err);
    assert_int_equal(got, status);
}

typedef struct answers {
    fixture *f;
    uint32_t first;                /* the opportunity's first answer, 0 = none yet */
} answers;

/* The answers (nexus_draw events) of the room's first opportunity: the
 * first run of nexus_draw events. */
static int collect(void *vctx, const codec_event *ev)
{
    answers *a = vctx;
    if (ev->action.kind != ENGINE_ACTION_NEXUS_DRAW)
        return a->first != 0; /* the run is over: stop */
    if (a->first == 0)
        a->first = ev->version;
    a->f->answer[a->f->n_answers++] = ev->version;
    return 0;
}

/* Genuine games, one at a time, until one has an opportunity with two or
 * more answers: the bots and the rules decide which seed gives one, so
 * the suite does not pin a seed. Played once, kept as genuine.db. */
static int group_setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (f == NULL || test_tmpdir_enter(f->dir, f->old_cwd, "mentat-nexus-receipts") != 0)
        return -1;
    test_run_result r;
    const char *kg[] = {"keygen", NULL};
    run(0, &r, kg);
    test_run_free(&r);
    for (unsigned seed = 5; seed < 25 && f->n_answers < 2; seed++) {
        char s[16];
        snprintf(s, sizeof s, "%u", seed);
        const char *games[] = {"games", "--players", "5", "--rules", "basic", "--modules",
                               "nexus_cards", "--games", "1", "--seed", s, "--turns", "5",
                               NULL};
        run(0, &r, games);
        const char *p = strstr(r.out, "rooms: ");
        assert_non_null(p);
        memcpy(f->room, p + 7, SCHEMA_ROOM_CHARS);
        f->room[SCHEMA_ROOM_CHARS] = '\0';
        test_run_free(&r);
        ledger *db = open_db();
        uint32_t head;
        assert_int_equal(ledger_head(db, f->room, &head, NULL), 0);
        f->n_answers = 0;
        answers a = {f, 0};
        int rc = ledger_event_foreach(db, f->room, 1, head, collect, &a);
        assert_true(rc == 0 || rc == 1);
        ledger_close(db);
    }
    assert_true(f->n_answers >= 2);
    assert_int_equal(rename("mentat.db", "genuine.db"), 0);
    unlink("mentat.db-lock");
    *state = f;
    return 0;
}

static int group_teardown(void **state)
{
    fixture *f = *state;
    int rc = test_tmpdir_leave(f->dir, f->old_cwd);
    free(f);
    return rc;
}

/* Each test alters a copy of the genuine ledger. */
static int setup(void **state)
{
    (void)state;
    test_copy_file("genuine.db", "mentat.db", 0600);
    unlink("mentat.db-lock");
    return 0;
}

static void check(inspect_nexus_report *out, const char *room)
{
    ledger *db = open_db();
    assert_int_equal(inspect_room_nexus_check(out, db, room), 0);
    ledger_close(db);
}

/* The stored record of version `to` replaced by event `from`'s, renumbered. */
static void transplant(const char *room, uint32_t from, uint32_t to)
{
    ledger *db = open_db();
    codec_event ev;
    assert_int_equal(ledger_event_get(db, &ev, room, from), 0);
    ev.version = to;
    if (ev.sealed_len > 0) {
        /* its secret arguments sealed again for the version it now has,
         * as an operator holding the room key would (docs/FORMAT.md) */
        ledger_txn rt;
        ev.sealed_len = 0;
        assert_int_equal(ledger__txn_begin(&rt, db, 0), 0);
        assert_int_equal(ledger__event_seal(db, &rt, &ev, room), 0);
        ledger__txn_abort(&rt);
    }
    uint8_t rec[4 + 1 + LEDGER_EVENT_RECORD_MAX];
    size_t len = 0;
    ledger__be32_put(rec, to);
    rec[4] = LEDGER_TAG_PROTOBUF;
    assert_int_equal(codec_event_encode(rec + 5, sizeof rec - 5, &len, &ev, 0), SCHEMA_OK);
    MDB_txn *txn;
    MDB_cursor *cur;
    uint8_t vbuf[4];
    ledger__be32_put(vbuf, to);
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v = {4, vbuf};
    assert_int_equal(mdb_txn_begin(db->env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_cursor_open(txn, db->dbi_events, &cur), 0);
    assert_int_equal(mdb_cursor_get(cur, &k, &v, MDB_GET_BOTH_RANGE), 0);
    assert_int_equal(ledger__be32_get(v.mv_data), to);
    assert_int_equal(mdb_cursor_del(cur, 0), 0);
    mdb_cursor_close(cur);
    MDB_val nv = {len + 5, rec};
    assert_int_equal(mdb_put(txn, db->dbi_events, &k, &nv, MDB_NODUPDATA), 0);
    assert_int_equal(mdb_txn_commit(txn), 0);
    ledger_close(db);
}

/* `mentat verify ROOM --json` fails at `version` naming `why`. */
static void verify_names(const char *room, uint32_t version, const char *why)
{
    test_run_result r;
    const char *verify[] = {"verify", room, "--json", NULL};
    run(1, &r, verify);
    char bad[32];
    snprintf(bad, sizeof bad, "\"bad_version\":%u,", version);
    if (strstr(r.out, bad) == NULL || strstr(r.out, why) == NULL)
        print_error("expected %s and \"%s\" in %s\n", bad, why, r.out);
    assert_non_null(strstr(r.out, bad));
    assert_non_null(strstr(r.out, why));
    test_run_free(&r);
}

static void test_nexus_receipts__genuine_game(void **state)
{
    fixture *f = *state;
    inspect_nexus_report rep;
    check(&rep, f->room);
    if (!rep.is_ok)
        print_error("%u: %s\n", rep.bad_version, rep.reason);
    assert_true(rep.is_checked);
    assert_true(rep.is_ok);
    assert_true(rep.n_opportunities >= 1);
    assert_int_equal(rep.n_closed + (unsigned)rep.is_open, rep.n_opportunities);
    assert_true(rep.n_answers >= f->n_answers);
    assert_int_equal(rep.n_windows_closed + rep.n_windows_open, rep.n_windows_opened);
    test_run_result r;
    const char *verify[] = {"verify", f->room, NULL};
    run(0, &r, verify);
    assert_non_null(strstr(r.out, "Nexus draw opportunit"));
    assert_non_null(strstr(r.out, "each opened and closed once"));
    test_run_free(&r);
}

/* The first answer again in place of the second: that seat answers twice. */
static void test_nexus_receipts__duplicated_answer(void **state)
{
    fixture *f = *state;
    transplant(f->room, f->answer[0], f->answer[1]);
    inspect_nexus_report rep;
    check(&rep, f->room);
    assert_true(rep.is_checked);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, f->answer[1]);
    assert_non_null(strstr(rep.reason, "a second time"));
    verify_names(f->room, f->answer[1], "a second time");
}

/* The closing answer replaced by the event after it: the opportunity is
 * never closed. */
static void test_nexus_receipts__missing_close(void **state)
{
    fixture *f = *state;
    uint32_t last = f->answer[f->n_answers - 1];
    transplant(f->room, last + 1, last);
    inspect_nexus_report rep;
    check(&rep, f->room);
    assert_true(rep.is_checked);
    assert_false(rep.is_ok);
    assert_int_equal(rep.bad_version, last);
    assert_non_null(strstr(rep.reason, "never closes"));
    verify_names(f->room, last, "never closes");
}

int main(int argc, char **argv)
{
    (void)argc;
    if (sodium_init() < 0 || test_find_mentat(mentat_bin, argv[0], "test_nexus_receipts") != 0)
        return 1;
    unsetenv("MENTAT_KEYS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_nexus_receipts__genuine_game, setup),
        cmocka_unit_test_setup(test_nexus_receipts__duplicated_answer, setup),
        cmocka_unit_test_setup(test_nexus_receipts__missing_close, setup),
    };
    return cmocka_run_group_tests_name("nexus_receipts", tests, group_setup, group_teardown);
}
