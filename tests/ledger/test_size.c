/*
 * test_size.c - what an event costs on disk, and that it does not grow
 * with history: 10,000 events in one room, and 10,000 events over 50
 * rooms written interleaved.
 *
 * The engine's games are still short (it stops after the first storm), so
 * the events here are synthetic: real action kinds and arguments, events
 * of format 2 in a real prev_hash chain with a random state digest, and a
 * real signed tree head, written through the same record encoder, tree,
 * head update and MDB_APPENDDUP put as ledger_append, one transaction
 * each. Only the engine fold is skipped,
 * which does not touch the `events` pages being measured.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

#define N_EVENTS 10000
#define N_ROOMS 50
#define MAX_BYTES_ONE_ROOM 200.0   /* events and their Merkle tree records */
#define MAX_BYTES_FIFTY_ROOMS 230.0

typedef struct synth_ctx {
    const char *room;
    engine_action act;
    size_t rec_len;                /* out: the stored record's length */
} synth_ctx;

static int synth_body(ledger_txn *txn, void *vctx)
{
    synth_ctx *ctx = vctx;
    ledger *db = txn->db;
    ledger_head_rec head;
    codec_event ev;
    uint8_t canon[LEDGER_EVENT_CANONICAL_MAX], hash[SCHEMA_HASH_BYTES];
    uint8_t rec[LEDGER_EVENT_RECORD_MAX];
    size_t rec_len = 0;
    int rc = ledger__head_read(db, txn, &head, ctx->room);
    if (rc != 0)
        return rc;
    memset(&ev, 0, sizeof ev);
    ev.version = head.version + 1;
    ev.has_prev_hash = 1;
    memcpy(ev.prev_hash, head.hash, SCHEMA_HASH_BYTES);
    ev.seat = ctx->act.seat;
    ev.action = ctx->act;
    ev.committed_at = ledger_now_ms();
    randombytes_buf(ev.state_digest, sizeof ev.state_digest);
    size_t len = ledger__event_canonical(canon, ctx->room, &ev); /* format 2, as appended */
    assert_true(len > 0);
    ledger__event_chain_hash(hash, canon, len, &ev);
    rc = ledger__event_record_encode(db, rec, sizeof rec, &rec_len, &ev);
    if (rc == 0)
        rc = ledger__keys_register(db, txn);
    if (rc == 0)
        rc = ledger__event_put(db, txn, ctx->room, ev.version, rec, rec_len);
    if (rc == 0)
        rc = ledger__tree_extend(db, txn, ctx->room, ev.version, hash);
    codec_receipt r;
    if (rc == 0)
        rc = ledger__receipt_make(db, txn, &r, ctx->room, ev.version, hash, ev.committed_at);
    if (rc != 0)
        return rc;
    head.version = ev.version;
    memcpy(head.hash, hash, sizeof hash);
    ledger__head_sign_as(&head, &r);
    ctx->rec_len = rec_len;
    return ledger__head_write(db, txn, ctx->room, &head);
}

/* A plausible action for event i: the kinds and argument ranges of real
 * play (a storm dial 0..20, a traitor pick 0..61, a Fremen placement). */
static void synth_action(engine_action *out, uint32_t i)
{
    memset(out, 0, sizeof *out);
    out->seat = (uint8_t)(i % 6);
    switch (i % 4) {
    case 0:
    case 1:
        out->kind = ENGINE_ACTION_STORM_DIAL;
        out->arg[0] = (int16_t)randombytes_uniform(21);
        break;
    case 2:
        out->kind = ENGINE_ACTION_TRAITOR_PICK;
        out->arg[0] = (int16_t)randombytes_uniform(ENGINE_LEADER_COUNT);
        break;
    default:
        out->kind = ENGINE_ACTION_FREMEN_PLACE;
        out->arg[0] = 4;
        out->arg[1] = 3;
        out->arg[2] = 3;
        break;
    }
}

static size_t synth_append(ledger *db, const char *room, uint32_t i)
{
    synth_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.room = room;
    synth_action(&ctx.act, i);
    int rc = ledger__write(db, synth_body, &ctx);
    if (rc != 0)
        fprintf(stderr, "synthetic append: %s\n", ledger_errmsg(db));
    assert_int_equal(rc, 0);
    return ctx.rec_len;
}

static fixture *open_unsynced(void)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    fixture_make(f);
    f->opt.is_unsafe_no_sync = 1; /* layout, not durability, is measured */
    assert_int_equal(fixture_open(f), 0);
    return f;
}

static double bytes_per_event(ledger *db, uint64_t *n_out)
{
    ledger_stats s;
    assert_int_equal(ledger_stats_get(db, &s), 0);
    *n_out = s.n_events;
    return (double)s.events_bytes / (double)s.n_events;
}

static void test_size__one_room(void **state)
{
    (void)state;
    fixture *f = open_unsynced();
    char room[SCHEMA_ROOM_CHARS + 1];
    room_new(f->db, room);
    size_t early_max = 0, late_max = 0;
    for (uint32_t i = 0; i < N_EVENTS; i++) {
        size_t len = synth_append(f->db, room, i);
        if (i < 1000 && len > early_max)
            early_max = len;
        if (i >= N_EVENTS - 1000 && len > late_max)
            late_max = len;
    }
    assert_true(late_max <= early_max);
    uint64_t n;
    double per = bytes_per_event(f->db, &n);
    assert_int_equal(n, N_EVENTS);
    printf("one room: %u events, %.1f bytes per event on disk "
           "(largest record: %zu early, %zu late)\n", N_EVENTS, per, early_max, late_max);
    assert_true(per <= MAX_BYTES_ONE_ROOM);
    /* the chain written this way reads back and links up */
    codec_event ev;
    assert_int_equal(ledger_event_get(f->db, &ev, room, N_EVENTS / 2), 0);
    assert_int_equal(ledger_event_get(f->db, &ev, room, N_EVENTS), 0);
    fixture_free(f);
}

static void test_size__fifty_rooms_interleaved(void **state)
{
    (void)state;
    fixture *f = open_unsynced();
    char rooms[N_ROOMS][SCHEMA_ROOM_CHARS + 1];
    for (int r = 0; r < N_ROOMS; r++)
        room_new(f->db, rooms[r]);
    for (uint32_t i = 0; i < N_EVENTS; i++)
        synth_append(f->db, rooms[i % N_ROOMS], i / N_ROOMS);
    uint64_t n;
    double per = bytes_per_event(f->db, &n);
    assert_int_equal(n, N_EVENTS);
    printf("%d rooms interleaved: %u events, %.1f bytes per event on disk\n", N_ROOMS, N_EVENTS,
           per);
    assert_true(per <= MAX_BYTES_FIFTY_ROOMS);
    fixture_free(f);
}

/* Real games, as far as the engine plays them today: informational. */
static void test_size__real_games(void **state)
{
    (void)state;
    fixture *f = open_unsynced();
    char room[SCHEMA_ROOM_CHARS + 1];
    uint32_t total = 0;
    for (int r = 0; r < 20; r++) {
        room_new(f->db, room);
        total += play(f->db, room, 1000);
    }
    uint64_t n;
    double per = bytes_per_event(f->db, &n);
    assert_int_equal(n, total);
    printf("20 real games: %u events, %.1f bytes per event on disk\n", total, per);
    assert_int_equal(verify_ok(f->db, room), 0);
    fixture_free(f);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size__one_room),
        cmocka_unit_test(test_size__fifty_rooms_interleaved),
        cmocka_unit_test(test_size__real_games),
    };
    return cmocka_run_group_tests_name("ledger_size", tests, NULL, NULL);
}
