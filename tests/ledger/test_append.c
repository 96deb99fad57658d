/*
 * test_append.c - the append path: create, append, compare-and-swap,
 * idempotent retry, rejections, unknown rooms, receipts, wrong seats.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

static int setup(void **state)
{
    *state = fixture_new(0);
    return 0;
}

static int teardown(void **state)
{
    fixture_free(*state);
    return 0;
}

static int last_rejection(void *ctx, uint32_t n, const codec_rejection *r)
{
    (void)n;
    *(codec_rejection *)ctx = *r;
    return 0;
}

static size_t count_rejections(ledger *db, const char *room)
{
    MDB_txn *txn;
    MDB_cursor *cur;
    MDB_val k = {SCHEMA_ROOM_CHARS, (void *)room}, v;
    size_t n = 0;
    assert_int_equal(mdb_txn_begin(db->env, NULL, MDB_RDONLY, &txn), 0);
    assert_int_equal(mdb_cursor_open(txn, db->dbi_rejections, &cur), 0);
    int rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
    while (rc == 0 && memcmp(k.mv_data, room, SCHEMA_ROOM_CHARS) == 0) {
        n++;
        rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT);
    }
    mdb_cursor_close(cur);
    mdb_txn_abort(txn);
    return n;
}

static void test_append__create_then_append(void **state)
{
    fixture *f = *state;
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_true(ledger__room_valid(room));

    ledger_room_info info;
    assert_int_equal(ledger_room_info_get(f->db, &info, room), 0);
    assert_int_equal(info.version, 0);
    assert_int_equal(info.config.n_seats, 6);

    engine_action act;
    uint32_t head;
    assert_true(next_action(f->db, &act, room, &head));
    assert_int_equal(head, 0);
    ledger_append_result res;
    assert_int_equal(ledger_append(f->db, &res, room, 0, &act), 0);
    assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    assert_int_equal(res.is_retry, 0);
    assert_int_equal(res.receipt.version, 1);
    assert_memory_equal(res.receipt.room, room, SCHEMA_ROOM_CHARS);

    uint8_t hash[SCHEMA_HASH_BYTES];
    assert_int_equal(ledger_head(f->db, room, &head, hash), 0);
    assert_int_equal(head, 1);
    assert_memory_equal(hash, res.receipt.event_hash, SCHEMA_HASH_BYTES);

    codec_event ev;
    assert_int_equal(ledger_event_get(f->db, &ev, room, 1), 0);
    assert_int_equal(ev.version, 1);
    assert_int_equal(ev.seat, act.seat);
    assert_memory_equal(&ev.action, &act, sizeof act);
    assert_true(ev.has_prev_hash);

    /* prev_hash of version 1 is the genesis hash */
    codec_genesis g;
    uint8_t gh[SCHEMA_HASH_BYTES];
    assert_int_equal(ledger_genesis_get(f->db, &g, room), 0);
    assert_int_equal(ledger__genesis_hash(gh, &g), 0);
    assert_memory_equal(ev.prev_hash, gh, SCHEMA_HASH_BYTES);

    /* the state digest is the engine's */
    engine_state st;
    uint8_t d[ENGINE_DIGEST_BYTES];
    assert_int_equal(ledger_state_at(f->db, &st, room, 1), 0);
    engine_state_digest(d, &st);
    assert_memory_equal(d, ev.state_digest, sizeof d);

    uint32_t n = play(f->db, room, 1000);
    assert_true(n >= 1);
    assert_int_equal(verify_ok(f->db, room), 0);
}

static void test_append__conflict_on_stale_version_writes_nothing(void **state)
{
    fixture *f = *state;
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    assert_int_equal(play(f->db, room, 2), 2);

    uint32_t head;
    uint8_t before[SCHEMA_HASH_BYTES], after[SCHEMA_HASH_BYTES];
    engine_action act;
    assert_true(next_action(f->db, &act, room, &head));
    assert_int_equal(ledger_head(f->db, room, NULL, before), 0);
    ledger_stats s0, s1;
    assert_int_equal(ledger_stats_get(f->db, &s0), 0);

    ledger_append_result res;
    assert_int_equal(ledger_append(f->db, &res, room, head - 1, &act), LEDGER_ECONFLICT);
    assert_non_null(strstr(ledger_errmsg(f->db), "version"));
    assert_int_equal(ledger_append(f->db, &res, room, head + 5, &act), LEDGER_ECONFLICT);

    uint32_t head2;
    assert_int_equal(ledger_head(f->db, room, &head2, after), 0);
    assert_int_equal(head2, head);
    assert_memory_equal(before, after, SCHEMA_HASH_BYTES);
    assert_int_equal(ledger_stats_get(f->db, &s1), 0);
    assert_int_equal(s0.n_events, s1.n_events);
    assert_int_equal(count_rejections(f->db, room), 0);
}

static void test_append__retry_returns_original_receipt(void **state)
{
    fixture *f = *state;
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    engine_action act;
    uint32_t head;
    assert_true(next_action(f->db, &act, room, &head));
    ledger_append_result first, again;
    assert_int_equal(ledger_append(f->db, &first, room, head, &act), 0);
    assert_int_equal(first.verdict, ENGINE_ACCEPTED);

    assert_int_equal(ledger_append(f->db, &again, room, head, &act), 0);
    assert_int_equal(again.verdict, ENGINE_ACCEPTED);
    assert_int_equal(again.is_retry, 1);
    assert_memory_equal(&again.receipt, &first.receipt, sizeof first.receipt);

    uint32_t now;
    assert_int_equal(ledger_head(f->db, room, &now, NULL), 0);
    assert_int_equal(now, head + 1);

    /* still a retry once the room has moved on */
    assert_true(play(f->db, room, 2) >= 1);
    assert_int_equal(ledger_append(f->db, &again, room, head, &act), 0);
    assert_int_equal(again.is_retry, 1);
    assert_memory_equal(&again.receipt, &first.receipt, sizeof first.receipt);

    /* a different action at that version is a conflict */
    engine_action other = act;
    other.arg[0] = (int16_t)(other.arg[0] + 1);
    assert_int_equal(ledger_append(f->db, &again, room, head, &other), LEDGER_ECONFLICT);
}

static void test_append__rejection_recorded_events_untouched(void **state)
{
    fixture *f = *state;
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    engine_action act;
    uint32_t head;
    assert_true(next_action(f->db, &act, room, &head));
    uint8_t before[SCHEMA_HASH_BYTES], after[SCHEMA_HASH_BYTES];
    assert_int_equal(ledger_head(f->db, room, NULL, before), 0);

    /* a storm dial while the game waits on setup decisions */
    engine_action bad;
    memset(&bad, 0, sizeof bad);
    bad.kind = ENGINE_ACTION_STORM_DIAL;
    bad.seat = 0;
    bad.arg[0] = 5;
    ledger_append_result res;
    assert_int_equal(ledger_append(f->db, &res, room, head, &bad), 0);
    assert_int_not_equal(res.verdict, ENGINE_ACCEPTED);
    assert_int_equal(res.is_retry, 0);
    assert_int_equal(count_rejections(f->db, room), 1);
    assert_int_equal(ledger_append(f->db, &res, room, head, &bad), 0);
    assert_int_equal(count_rejections(f->db, room), 2);

    uint32_t now;
    assert_int_equal(ledger_head(f->db, room, &now, after), 0);
    assert_int_equal(now, head);
    assert_memory_equal(before, after, SCHEMA_HASH_BYTES);

    /* the rejection is stored, decodable, naming the reason */
    MDB_txn *txn;
    uint8_t kbuf[LEDGER_REJ_KEY_BYTES];
    memcpy(kbuf, room, SCHEMA_ROOM_CHARS);
    ledger__be32_put(kbuf + SCHEMA_ROOM_CHARS, 1);
    MDB_val k = {sizeof kbuf, kbuf}, v;
    assert_int_equal(mdb_txn_begin(f->db->env, NULL, MDB_RDONLY, &txn), 0);
    assert_int_equal(mdb_get(txn, f->db->dbi_rejections, &k, &v), 0);
    codec_rejection r;
    const uint8_t *p = v.mv_data;
    assert_int_equal(p[0], LEDGER_TAG_PROTOBUF);
    assert_int_equal(codec_rejection_decode(&r, p + 1, v.mv_size - 1, NULL), 0);
    mdb_txn_abort(txn);
    assert_int_equal(r.reason, res.verdict);
    assert_int_equal(r.expected_version, head);
    /* the dial is secret: stored sealed, read back whole with the key */
    assert_true(r.sealed_len > 0);
    assert_int_equal(r.action.arg[0], 0);
    codec_rejection opened;
    assert_int_equal(ledger_rejection_foreach(f->db, room, last_rejection, &opened), 0);
    assert_int_equal(opened.sealed_len, 0);
    assert_memory_equal(&opened.action, &bad, sizeof bad);

    /* the legal action still goes through afterwards */
    assert_int_equal(ledger_append(f->db, &res, room, head, &act), 0);
    assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    assert_int_equal(verify_ok(f->db, room), 0);
}

static void test_append__unknown_room(void **state)
{
    fixture *f = *state;
    engine_action act;
    memset(&act, 0, sizeof act);
    act.kind = ENGINE_ACTION_STORM_DIAL;
    ledger_append_result res;
    assert_int_equal(ledger_append(f->db, &res, "ZZZZZZZZ", 0, &act), LEDGER_ENOTFOUND);
    assert_int_equal(ledger_append(f->db, &res, "not-room", 0, &act), LEDGER_EINPUT);
    assert_int_equal(ledger_head(f->db, "ZZZZZZZZ", NULL, NULL), LEDGER_ENOTFOUND);
    ledger_room_info info;
    assert_int_equal(ledger_room_info_get(f->db, &info, "ZZZZZZZZ"), LEDGER_ENOTFOUND);
}

static void test_append__receipt_signature_checks(void **state)
{
    fixture *f = *state;
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    engine_action act;
    uint32_t head;
    assert_true(next_action(f->db, &act, room, &head));
    ledger_append_result res;
    assert_int_equal(ledger_append(f->db, &res, room, head, &act), 0);
    codec_receipt r = res.receipt;
    assert_int_equal(ledger_receipt_check(f->db, &r), 0);

    /* the receipt verifies against the public key alone, tree head and all */
    assert_true(r.has_tree_head);
    uint8_t canon[LEDGER_RECEIPT_CANONICAL_MAX];
    assert_int_equal(ledger__receipt_canonical(canon, &r), sizeof canon);
    assert_int_equal(crypto_sign_verify_detached(r.signature, canon, sizeof canon,
                                                 f->db->signing_pk), 0);
    ledger_tree_head th;
    assert_int_equal(ledger_tree_head_get(f->db, &th, room, r.version), 0);
    assert_memory_equal(th.root, r.tree_root, LEDGER_TREE_HASH_BYTES);
    assert_true(th.time == r.tree_time);
    /* one leaf: the root is the leaf hash of the event hash */
    uint8_t leaf[LEDGER_TREE_HASH_BYTES];
    ledger_merkle_leaf_hash(leaf, r.event_hash, SCHEMA_HASH_BYTES);
    assert_memory_equal(leaf, r.tree_root, sizeof leaf);

    codec_receipt bad = r;
    bad.signature[7] ^= 1;
    assert_int_equal(ledger_receipt_check(f->db, &bad), LEDGER_EBADSIG);
    bad = r;
    bad.event_hash[0] ^= 1;
    assert_int_equal(ledger_receipt_check(f->db, &bad), LEDGER_EBADSIG);
    bad = r;
    bad.version = 9;
    assert_int_equal(ledger_receipt_check(f->db, &bad), LEDGER_EBADSIG); /* signature first */
    bad = r;
    bad.key_id ^= 0x01000000u;
    assert_int_equal(ledger_receipt_check(f->db, &bad), LEDGER_EBADSIG);
    bad = r;
    bad.tree_root[31] ^= 1;
    assert_int_equal(ledger_receipt_check(f->db, &bad), LEDGER_EBADSIG);
    bad = r;
    bad.has_tree_head = 0; /* the same signature over the older layout */
    assert_int_equal(ledger_receipt_check(f->db, &bad), LEDGER_EBADSIG);

    /* a well-signed receipt for an event the ledger does not have */
    bad = r;
    bad.version = 50;
    ledger__receipt_sign(&bad, f->db->signing_sk);
    assert_int_equal(ledger_receipt_check(f->db, &bad), LEDGER_ENOTFOUND);
    /* ... or whose tree head the ledger contradicts */
    bad = r;
    memset(bad.tree_root, 0xAB, sizeof bad.tree_root);
    ledger__receipt_sign(&bad, f->db->signing_sk);
    assert_int_equal(ledger_receipt_check(f->db, &bad), LEDGER_EBADSIG);
    /* ... or whose hash it contradicts, in a receipt of the older layout */
    bad = r;
    bad.has_tree_head = 0;
    memset(bad.event_hash, 0xAB, sizeof bad.event_hash);
    ledger__receipt_sign(&bad, f->db->signing_sk);
    assert_int_equal(ledger_receipt_check(f->db, &bad), LEDGER_EBADSIG);
    /* an older receipt that matches still checks */
    bad = r;
    bad.has_tree_head = 0;
    ledger__receipt_sign(&bad, f->db->signing_sk);
    assert_int_equal(ledger_receipt_check(f->db, &bad), 0);
}

static void test_append__wrong_seat(void **state)
{
    fixture *f = *state;
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    engine_action act;
    uint32_t head;
    assert_true(next_action(f->db, &act, room, &head));
    ledger_append_result res;

    /* a seat the game does not wait on: rejected and recorded */
    engine_action wrong = act;
    engine_state st;
    assert_int_equal(ledger_state_at(f->db, &st, room, head), 0);
    uint16_t awaiting = engine_state_awaiting(&st);
    for (uint8_t s = 0; s < 6; s++)
        if ((awaiting & (1u << s)) == 0 && s != act.seat) {
            wrong.seat = s;
            break;
        }
    if (wrong.seat != act.seat) {
        assert_int_equal(ledger_append(f->db, &res, room, head, &wrong), 0);
        assert_int_not_equal(res.verdict, ENGINE_ACCEPTED);
    }
    /* a seat past the table: refused as input, nothing written */
    wrong.seat = 9;
    assert_int_equal(ledger_append(f->db, &res, room, head, &wrong), LEDGER_EINPUT);
    /* an unknown kind, or a set unused argument: input errors */
    engine_action junk = act;
    junk.kind = 200;
    assert_int_equal(ledger_append(f->db, &res, room, head, &junk), LEDGER_EINPUT);
    junk = act;
    junk.arg[ENGINE_ACTION_MAX_ARGS - 1] = 1;
    assert_int_equal(ledger_append(f->db, &res, room, head, &junk), LEDGER_EINPUT);

    uint32_t now;
    assert_int_equal(ledger_head(f->db, room, &now, NULL), 0);
    assert_int_equal(now, head);
}

static void test_append__batch_and_group(void **state)
{
    fixture *f = *state;
    char a[SCHEMA_ROOM_CHARS + 1], b[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, a);
    room_new(f->db, b);
    ledger_append_req req[4];
    ledger_append_result res[4];
    int rcs[4];
    uint32_t ha, hb;
    assert_true(next_action(f->db, &req[0].action, a, &ha));
    assert_true(next_action(f->db, &req[1].action, b, &hb));
    req[0].room = a;
    req[0].expected_version = ha;
    req[1].room = b;
    req[1].expected_version = hb;
    req[2] = req[0];                 /* the same again: a retry */
    req[3] = req[1];
    req[3].expected_version = hb + 3; /* a conflict, alone */
    assert_int_equal(ledger_append_batch(f->db, res, rcs, req, 4), 0);
    assert_int_equal(rcs[0], 0);
    assert_int_equal(rcs[1], 0);
    assert_int_equal(rcs[2], 0);
    assert_int_equal(res[2].is_retry, 1);
    assert_memory_equal(&res[2].receipt, &res[0].receipt, sizeof res[0].receipt);
    assert_int_equal(rcs[3], LEDGER_ECONFLICT);

    ledger_group *g;
    assert_int_equal(ledger_group_new(&g, f->db), 0);
    engine_action act;
    uint32_t head;
    assert_true(next_action(f->db, &act, a, &head));
    ledger_append_result r;
    assert_int_equal(ledger_group_append(g, &r, a, head, &act), 0);
    assert_int_equal(r.verdict, ENGINE_ACCEPTED);
    assert_int_equal(r.receipt.version, head + 1);
    assert_int_equal(ledger_receipt_check(f->db, &r.receipt), 0); /* its caller signed it */
    ledger_group_free(g);
    assert_int_equal(verify_ok(f->db, a), 0);
    assert_int_equal(verify_ok(f->db, b), 0);
}

/* A thread playing its own room through the group, keeping its own copy
 * of the state (the handle belongs to the group's leader). */
typedef struct player {
    ledger_group *g;
    engine_state st;
    codec_receipt receipts[64];    /* the first ones, signed by this thread */
    uint32_t version;
    int n_accepted;
    int failed;
    char room[SCHEMA_ROOM_CHARS + 1];
    uint8_t seed[ENGINE_SEED_BYTES];
} player;

static void *player_run(void *vp)
{
    player *p = vp;
    engine_action act;
    while (legal_first(&act, &p->st)) {
        ledger_append_result res;
        int rc = ledger_group_append(p->g, &res, p->room, p->version, &act);
        if (rc != 0 || res.verdict != ENGINE_ACCEPTED || res.receipt.version != p->version + 1) {
            p->failed = 1;
            break;
        }
        if (p->n_accepted < 64)
            p->receipts[p->n_accepted] = res.receipt;
        engine_rng rng;
        engine_rng_init(&rng, p->seed, p->version + 1);
        if (engine_apply(NULL, &p->st, &act, &rng) != ENGINE_ACCEPTED) {
            p->failed = 1;
            break;
        }
        p->version++;
        p->n_accepted++;
    }
    return NULL;
}

static void test_append__group_threads(void **state)
{
    fixture *f = *state;
    enum { N = 8 };
    static player players[N];
    pthread_t tid[N];
    ledger_group *g;
    assert_int_equal(ledger_group_new(&g, f->db), 0);
    for (int i = 0; i < N; i++) {
        player *p = &players[i];
        memset(p, 0, sizeof *p);
        p->g = g;
        room_new(f->db, p->room);
        assert_int_equal(ledger__room_seed(f->db, NULL, p->room, p->seed), 0);
        assert_int_equal(ledger_state_at(f->db, &p->st, p->room, 0), 0);
    }
    unsigned long commits = f->db->n_commits;
    for (int i = 0; i < N; i++)
        assert_int_equal(pthread_create(&tid[i], NULL, player_run, &players[i]), 0);
    for (int i = 0; i < N; i++)
        pthread_join(tid[i], NULL);
    ledger_group_free(g);
    commits = f->db->n_commits - commits;
    int appended = 0;
    for (int i = 0; i < N; i++)
        appended += players[i].n_accepted;
    printf("group commit: %d appends in %lu transactions\n", appended, commits);
    assert_true(commits <= (unsigned long)appended);
    for (int i = 0; i < N; i++) {
        player *p = &players[i];
        assert_int_equal(p->failed, 0);
        assert_true(p->n_accepted >= 3);
        uint32_t head;
        assert_int_equal(ledger_head(f->db, p->room, &head, NULL), 0);
        assert_int_equal(head, p->version);
        engine_state st;
        uint8_t d1[ENGINE_DIGEST_BYTES], d2[ENGINE_DIGEST_BYTES];
        assert_int_equal(ledger_state_at(f->db, &st, p->room, head), 0);
        engine_state_digest(d1, &st);
        engine_state_digest(d2, &p->st);
        assert_memory_equal(d1, d2, sizeof d1);
        assert_int_equal(verify_ok(f->db, p->room), 0);
        for (int k = 0; k < p->n_accepted && k < 64; k++)
            assert_int_equal(ledger_receipt_check(f->db, &p->receipts[k]), 0);
    }
}

typedef struct room_count {
    int n;
} room_count;

static int count_room(void *ctx, const ledger_room_info *room)
{
    room_count *c = ctx;
    assert_true(ledger__room_valid(room->room));
    c->n++;
    return 0;
}

static void test_append__rooms_listed_and_reopened(void **state)
{
    fixture *f = *state;
    char room[SCHEMA_ROOM_CHARS + 1];
    for (int i = 0; i < 3; i++)
        room_new(f->db, room);
    assert_true(play(f->db, room, 3) >= 1);
    room_count c = {0};
    assert_int_equal(ledger_room_foreach(f->db, count_room, &c), 0);
    assert_int_equal(c.n, 3);

    uint32_t head;
    assert_int_equal(ledger_head(f->db, room, &head, NULL), 0);
    fixture_close(f);
    assert_int_equal(fixture_open(f), 0);
    uint32_t again;
    assert_int_equal(ledger_head(f->db, room, &again, NULL), 0);
    assert_int_equal(again, head);
    assert_int_equal(verify_ok(f->db, room), 0);
    /* appends resume without the cache */
    engine_action act;
    if (next_action(f->db, &act, room, &head)) {
        ledger_append_result r;
        assert_int_equal(ledger_append(f->db, &r, room, head, &act), 0);
        assert_int_equal(r.verdict, ENGINE_ACCEPTED);
    }
    assert_int_equal(verify_ok(f->db, room), 0);
}

/* An optional argument absent (0) is not in the signed bytes, so an event
 * of an older rules version signs exactly as it did; given, it is
 * (docs/FORMAT.md "Optional arguments"). */
static void test_append__absent_optional_argument_not_signed(void **state)
{
    (void)state;
    engine_action move = {ENGINE_ACTION_MOVE, 0, {5, 3, 2, 0, 0}};
    uint8_t out[2 + 2 * ENGINE_ACTION_MAX_ARGS];
    static const uint8_t plain[] = {ENGINE_ACTION_MOVE, 4, 0, 5, 0, 3, 0, 2, 0, 0};
    assert_int_equal(ledger__action_canonical(out, sizeof out, &move), sizeof plain);
    assert_memory_equal(out, plain, sizeof plain);
    move.arg[4] = 2;
    static const uint8_t sourced[] = {ENGINE_ACTION_MOVE, 5, 0, 5, 0, 3, 0, 2, 0, 0, 0, 2};
    assert_int_equal(ledger__action_canonical(out, sizeof out, &move), sizeof sourced);
    assert_memory_equal(out, sourced, sizeof sourced);
    engine_action send = {ENGINE_ACTION_BG_SEND, 1, {1, 0}};
    static const uint8_t polar_sink[] = {ENGINE_ACTION_BG_SEND, 1, 0, 1};
    assert_int_equal(ledger__action_canonical(out, sizeof out, &send), sizeof polar_sink);
    assert_memory_equal(out, polar_sink, sizeof polar_sink);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_append__create_then_append, setup, teardown),
        cmocka_unit_test_setup_teardown(test_append__conflict_on_stale_version_writes_nothing,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_append__retry_returns_original_receipt, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_append__rejection_recorded_events_untouched, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_append__unknown_room, setup, teardown),
        cmocka_unit_test_setup_teardown(test_append__receipt_signature_checks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_append__wrong_seat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_append__batch_and_group, setup, teardown),
        cmocka_unit_test_setup_teardown(test_append__rooms_listed_and_reopened, setup, teardown),
        cmocka_unit_test_setup_teardown(test_append__group_threads, setup, teardown),
        cmocka_unit_test(test_append__absent_optional_argument_not_signed),
    };
    return cmocka_run_group_tests_name("ledger_append", tests, NULL, NULL);
}
