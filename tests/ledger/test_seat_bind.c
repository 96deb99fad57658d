/*
 * test_seat_bind.c - seats bound to a key as their players join: the
 * seat's action that carries the key (Event.bind_key) and that key's
 * signature of the binding binds the seat for the rest of the room; its
 * later actions need that signature, a second binding is refused, and
 * verify and restore check every binding and the lookup record beside it.
 *
 * Real LMDB file, real libsodium keys. Every refusal is checked to write
 * nothing (head, events, rejections and bindings unchanged); the
 * forgeries are made in the file the way an operator would make them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "tests/ledger/helpers.h"

typedef struct bfix {
    fixture *f;
    char room[SCHEMA_ROOM_CHARS + 1];  /* no seat bound at creation */
    char other[SCHEMA_ROOM_CHARS + 1]; /* another such room */
    uint8_t sk[ENGINE_MAX_SEATS][LEDGER_SEAT_SECRET_BYTES];
    uint8_t pk[ENGINE_MAX_SEATS][SCHEMA_KEY_BYTES];
} bfix;

static int setup(void **state)
{
    bfix *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->f = fixture_new(16);
    for (unsigned i = 0; i < ENGINE_MAX_SEATS; i++)
        crypto_sign_keypair(s->pk[i], s->sk[i]);
    room_new(s->f->db, s->room);
    room_new(s->f->db, s->other);
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    bfix *s = *state;
    fixture_free(s->f);
    sodium_memzero(s->sk, sizeof s->sk);
    free(s);
    return 0;
}

static uint16_t bound_now(ledger *db, const char *room)
{
    ledger_seat_keys k;
    assert_int_equal(ledger_room_seat_keys(db, &k, room), 0);
    return k.bound;
}

/* The binding (or action) is refused with LEDGER_EINPUT naming `why`, and
 * nothing of the room changed. */
static void expect_refused(bfix *s, const char *room, uint32_t head, const engine_action *act,
                           const uint8_t *sig, const uint8_t *key, const char *why)
{
    room_mark before, after;
    ledger_seat_keys keys_before, keys_after;
    room_mark_get(s->f->db, &before, room);
    assert_int_equal(ledger_room_seat_keys(s->f->db, &keys_before, room), 0);
    ledger_append_result res;
    int rc = ledger_append_bind(s->f->db, &res, room, head, act, sig, key);
    if (rc != LEDGER_EINPUT || strstr(ledger_errmsg(s->f->db), why) == NULL)
        fprintf(stderr, "rc %d, expected \"%s\" in: %s\n", rc, why, ledger_errmsg(s->f->db));
    assert_int_equal(rc, LEDGER_EINPUT);
    assert_non_null(strstr(ledger_errmsg(s->f->db), why));
    assert_non_null(strstr(ledger_errmsg(s->f->db), "nothing written"));
    assert_null(strchr(ledger_errmsg(s->f->db), '\n'));
    assert_int_equal(res.verdict, 0);
    room_mark_get(s->f->db, &after, room);
    assert_int_equal(ledger_room_seat_keys(s->f->db, &keys_after, room), 0);
    assert_int_equal(after.version, before.version);
    assert_memory_equal(after.hash, before.hash, sizeof after.hash);
    assert_int_equal(after.n_rejections, before.n_rejections);
    assert_memory_equal(&keys_after, &keys_before, sizeof keys_after);
}

/* The next legal action of room (of a seat, not the engine: engine steps
 * are appended unsigned on the way), the version it acts on and its
 * chain hash. */
static void next_seat_action(bfix *s, const char *room, engine_action *act, uint32_t *head,
                             uint8_t prev[SCHEMA_HASH_BYTES])
{
    for (;;) {
        assert_true(next_action(s->f->db, act, room, head));
        if (act->seat != ENGINE_SEAT_ENGINE)
            break;
        ledger_append_result res;
        assert_int_equal(ledger_append(s->f->db, &res, room, *head, act), 0);
        assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    }
    assert_int_equal(ledger_chain_hash(s->f->db, prev, room, *head), 0);
}

/* Plays n seat actions of room: each seat's first binds it to its key,
 * the rest are signed with it. Returns how many bindings were made. */
static unsigned play_binding(bfix *s, const char *room, unsigned n)
{
    unsigned n_binds = 0;
    for (unsigned i = 0; i < n; i++) {
        engine_action act;
        uint32_t head;
        uint8_t prev[SCHEMA_HASH_BYTES], sig[SCHEMA_SIG_BYTES];
        next_seat_action(s, room, &act, &head, prev);
        int is_bound = bound_now(s->f->db, room) >> act.seat & 1;
        ledger_append_result res;
        int rc;
        if (is_bound) {
            assert_int_equal(ledger_seat_sign(sig, s->sk[act.seat], room, head, prev, &act), 0);
            rc = ledger_append_signed(s->f->db, &res, room, head, &act, sig);
        } else {
            assert_int_equal(ledger_seat_sign_bind(sig, s->sk[act.seat], room, head, prev, &act),
                             0);
            rc = ledger_append_bind(s->f->db, &res, room, head, &act, sig, s->pk[act.seat]);
            n_binds++;
        }
        if (rc != 0)
            fprintf(stderr, "append: %s\n", ledger_errmsg(s->f->db));
        assert_int_equal(rc, 0);
        assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    }
    return n_binds;
}

/* Bindings made as the seats act: stored in the event, in force after it
 * (an unsigned action of a bound seat refused, a second binding refused),
 * counted and checked by verify, and kept by a restore elsewhere. */
static void test_seat_bind__joined_seats_sign_from_then_on(void **state)
{
    bfix *s = *state;
    assert_int_equal(bound_now(s->f->db, s->room), 0);
    unsigned n_binds = play_binding(s, s->room, 30);
    assert_int_equal(n_binds, 6);
    assert_int_equal(bound_now(s->f->db, s->room), 0x3f);
    ledger_seat_keys k;
    assert_int_equal(ledger_room_seat_keys(s->f->db, &k, s->room), 0);
    for (unsigned i = 0; i < 6; i++)
        assert_memory_equal(k.key[i], s->pk[i], SCHEMA_KEY_BYTES);

    /* Each binding is in the event that made it, and in no other. */
    uint32_t head = 0;
    assert_int_equal(ledger_head(s->f->db, s->room, &head, NULL), 0);
    unsigned n_stored = 0, n_signed = 0;
    for (uint32_t v = 1; v <= head; v++) {
        codec_event ev;
        assert_int_equal(ledger_event_get(s->f->db, &ev, s->room, v), 0);
        n_signed += ev.has_seat_signature != 0;
        if (ev.has_bind_key) {
            assert_true(ev.has_seat_signature);
            assert_memory_equal(ev.bind_key, s->pk[ev.seat], SCHEMA_KEY_BYTES);
            n_stored++;
        }
    }
    assert_int_equal(n_stored, 6);
    for (unsigned threads = 1; threads <= 2; threads++) {
        ledger_verify_report rep;
        assert_int_equal(ledger_verify_room(s->f->db, &rep, s->room, threads), 0);
        assert_int_equal(rep.n_seat_signatures, n_signed);
    }

    /* In force: the seat's next action without its signature, or bound
     * again (even to the same key), is refused. */
    engine_action act;
    uint8_t prev[SCHEMA_HASH_BYTES], sig[SCHEMA_SIG_BYTES];
    next_seat_action(s, s->room, &act, &head, prev);
    expect_refused(s, s->room, head, &act, NULL, NULL, "carries no seat signature");
    assert_int_equal(ledger_seat_sign_bind(sig, s->sk[act.seat], s->room, head, prev, &act), 0);
    expect_refused(s, s->room, head, &act, sig, s->pk[act.seat], "already bound");
    uint8_t pk2[SCHEMA_KEY_BYTES], sk2[LEDGER_SEAT_SECRET_BYTES];
    crypto_sign_keypair(pk2, sk2);
    assert_int_equal(ledger_seat_sign_bind(sig, sk2, s->room, head, prev, &act), 0);
    expect_refused(s, s->room, head, &act, sig, pk2, "already bound");
    sodium_memzero(sk2, sizeof sk2);

    /* A restore elsewhere checks each binding and rebuilds the lookup. */
    char archive[256];
    snprintf(archive, sizeof archive, "%s/joined.mentat-archive", s->f->dir);
    assert_int_equal(ledger_backup_room(s->f->db, s->room, archive), 0);
    fixture *g = fixture_new_with_keys(16, s->f->keys);
    ledger_restore_report rrep;
    assert_int_equal(ledger_restore(g->db, &rrep, archive, 1), 0);
    assert_int_equal(verify_ok(g->db, s->room), 0);
    ledger_seat_keys k2;
    assert_int_equal(ledger_room_seat_keys(g->db, &k2, s->room), 0);
    assert_memory_equal(&k2, &k, sizeof k);
    fixture_free(g);
}

/* A binding without a valid signature by the key it binds, or made for
 * another room, version or seat, or of a key another seat holds: each
 * refused, naming why, nothing written. */
static void test_seat_bind__refusals_write_nothing(void **state)
{
    bfix *s = *state;
    engine_action act;
    uint32_t head;
    uint8_t prev[SCHEMA_HASH_BYTES], sig[SCHEMA_SIG_BYTES];
    next_seat_action(s, s->room, &act, &head, prev);
    uint8_t seat = act.seat;
    const uint8_t *pk = s->pk[seat];
    expect_refused(s, s->room, head, &act, NULL, pk, "carries no signature by the key it binds");
    /* Signed by another key than the one it binds. */
    uint8_t other = (uint8_t)((seat + 1u) % 6u);
    assert_int_equal(ledger_seat_sign_bind(sig, s->sk[other], s->room, head, prev, &act), 0);
    expect_refused(s, s->room, head, &act, sig, pk, "not signed by the key it binds");
    /* The seat's ordinary signature of the action is no binding. */
    assert_int_equal(ledger_seat_sign(sig, s->sk[seat], s->room, head, prev, &act), 0);
    expect_refused(s, s->room, head, &act, sig, pk, "not signed by the key it binds");
    /* Made for another room, another version, another seat. */
    uint32_t ohead;
    uint8_t oprev[SCHEMA_HASH_BYTES];
    engine_action oact;
    assert_true(next_action(s->f->db, &oact, s->other, &ohead));
    assert_int_equal(ledger_chain_hash(s->f->db, oprev, s->other, ohead), 0);
    assert_int_equal(ledger_seat_sign_bind(sig, s->sk[seat], s->other, ohead, oprev, &act), 0);
    expect_refused(s, s->room, head, &act, sig, pk, "not signed by the key it binds");
    assert_int_equal(ledger_seat_sign_bind(sig, s->sk[seat], s->room, head + 1, prev, &act), 0);
    expect_refused(s, s->room, head, &act, sig, pk, "not signed by the key it binds");
    engine_action as_other = act;
    as_other.seat = other;
    assert_int_equal(ledger_seat_sign_bind(sig, s->sk[seat], s->room, head, prev, &as_other), 0);
    expect_refused(s, s->room, head, &act, sig, pk, "not signed by the key it binds");
    /* A key some seat already holds binds no second seat. */
    assert_int_equal(ledger_seat_sign_bind(sig, s->sk[seat], s->room, head, prev, &act), 0);
    ledger_append_result res;
    assert_int_equal(ledger_append_bind(s->f->db, &res, s->room, head, &act, sig, pk), 0);
    assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    next_seat_action(s, s->room, &act, &head, prev);
    if (act.seat != seat) {
        assert_int_equal(ledger_seat_sign_bind(sig, s->sk[seat], s->room, head, prev, &act), 0);
        expect_refused(s, s->room, head, &act, sig, pk, "already seat");
    }
    /* A bound room's automatic step binds no one. */
    assert_int_equal(bound_now(s->f->db, s->room), 1u << seat);
    assert_int_equal(verify_ok(s->f->db, s->room), 0);
}

/* A binding on an action the rules refuse binds nothing: the rejection
 * is recorded, the seat stays free, and a later binding takes. */
static void test_seat_bind__refused_action_binds_nothing(void **state)
{
    bfix *s = *state;
    engine_action act;
    uint32_t head;
    uint8_t prev[SCHEMA_HASH_BYTES], sig[SCHEMA_SIG_BYTES];
    next_seat_action(s, s->room, &act, &head, prev);
    engine_action bad = act;
    bad.kind = ENGINE_ACTION_BID_PASS; /* no bidding in the opening setup */
    memset(bad.arg, 0, sizeof bad.arg);
    assert_int_equal(ledger_seat_sign_bind(sig, s->sk[act.seat], s->room, head, prev, &bad), 0);
    ledger_append_result res;
    assert_int_equal(ledger_append_bind(s->f->db, &res, s->room, head, &bad, sig,
                                        s->pk[act.seat]),
                     0);
    assert_int_not_equal(res.verdict, ENGINE_ACCEPTED);
    assert_int_equal(bound_now(s->f->db, s->room), 0);
    assert_int_equal(ledger_seat_sign_bind(sig, s->sk[act.seat], s->room, head, prev, &act), 0);
    assert_int_equal(ledger_append_bind(s->f->db, &res, s->room, head, &act, sig,
                                        s->pk[act.seat]),
                     0);
    assert_int_equal(res.verdict, ENGINE_ACCEPTED);
    assert_int_equal(bound_now(s->f->db, s->room), 1u << act.seat);
    /* The very same binding again at the same version: the retry's receipt. */
    assert_int_equal(ledger_append_bind(s->f->db, &res, s->room, head, &act, sig,
                                        s->pk[act.seat]),
                     0);
    assert_true(res.is_retry);
    /* The same action without its binding is no retry of it. */
    expect_refused(s, s->room, head, &act, sig, NULL, "must carry the seat signature");
}

static uint8_t swapped_key[SCHEMA_KEY_BYTES];

/* The operator's edit: the binding's key swapped for another, the event
 * re-signed with the ledger key (format 1). */
static void swap_bind_key(ledger *db, const char *room, codec_event *ev)
{
    uint8_t canon[LEDGER_EVENT_CANONICAL_MAX];
    assert_true(ev->has_bind_key && ev->has_signature);
    memcpy(ev->bind_key, swapped_key, SCHEMA_KEY_BYTES);
    size_t len = ledger__event_canonical(canon, room, ev);
    assert_true(len > 0);
    assert_int_equal(ledger__sign(db, ev->signature, canon, len), 0);
}

static void expect_bad(ledger *db, const char *room, uint32_t version, const char *why)
{
    for (unsigned threads = 1; threads <= 2; threads++) {
        ledger_verify_report rep;
        int rc = ledger_verify_room(db, &rep, room, threads);
        if (rc == 0 || rep.bad_version != version || strstr(rep.reason, why) == NULL)
            fprintf(stderr, "rc %d at %u: %s\n", rc, rep.bad_version, rep.reason);
        assert_int_not_equal(rc, 0);
        assert_int_equal(rep.bad_version, version);
        assert_non_null(strstr(rep.reason, why));
    }
}

/* Format 1 events (the ledger signs each) let an operator holding the
 * ledger key re-sign an event: the binding's own signature still names
 * a swapped key. A lookup record that disagrees with the events is named
 * too. */
static void test_seat_bind__forged_bindings_fail_verify(void **state)
{
    bfix *s = *state;
    s->f->db->is_signing_events = 1;
    play_binding(s, s->room, 12);
    uint32_t v = 0, head = 0;
    assert_int_equal(ledger_head(s->f->db, s->room, &head, NULL), 0);
    for (uint32_t i = 1; i <= head && v == 0; i++) {
        codec_event ev;
        assert_int_equal(ledger_event_get(s->f->db, &ev, s->room, i), 0);
        if (ev.has_bind_key)
            v = i;
    }
    assert_true(v > 0);

    /* The lookup record says another key: verify names it. */
    ledger_seat_keys joined, forged;
    ledger_txn txn;
    assert_int_equal(ledger__txn_begin(&txn, s->f->db, 0), 0);
    assert_int_equal(ledger__seat_joined_read(s->f->db, &txn, &joined, s->room), 0);
    ledger__txn_abort(&txn);
    forged = joined;
    forged.key[0][0] ^= 1;
    forged.bound = (uint16_t)(forged.bound | 1u);
    assert_int_equal(ledger__txn_begin(&txn, s->f->db, 1), 0);
    assert_int_equal(ledger__seat_joined_put(s->f->db, &txn, s->room, &forged), 0);
    assert_int_equal(ledger__txn_commit(&txn), 0);
    expect_bad(s->f->db, s->room, head, "seat binding record");
    assert_int_equal(ledger__txn_begin(&txn, s->f->db, 1), 0);
    assert_int_equal(ledger__seat_joined_put(s->f->db, &txn, s->room, &joined), 0);
    assert_int_equal(ledger__txn_commit(&txn), 0);
    assert_int_equal(verify_ok(s->f->db, s->room), 0);

    /* The key of a binding swapped for the operator's: the binding's
     * signature is not that key's. */
    uint8_t sk[LEDGER_SEAT_SECRET_BYTES];
    crypto_sign_keypair(swapped_key, sk);
    sodium_memzero(sk, sizeof sk);
    event_raw_edit(s->f->db, s->room, v, swap_bind_key);
    expect_bad(s->f->db, s->room, v, "not signed by the key it binds");
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_seat_bind__joined_seats_sign_from_then_on, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_seat_bind__refusals_write_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_seat_bind__refused_action_binds_nothing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_seat_bind__forged_bindings_fail_verify, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
