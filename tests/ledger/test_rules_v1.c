/*
 * test_rules_v1.c - rules version 1 is folded, never played
 * (engine/rules_v1.c): every state the three stored version-1 rooms
 * (tests/fixtures/rooms/v1/) reach re-folds to its signed digest and
 * decodes and re-encodes to the same bytes, Karama windows and the
 * Revival's Ghola included; what version 1 could not do is refused under
 * it with a reason; and no new room is created under it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/ledger/helpers.h"

static const char *const rooms[] = {"9L9A6SMD", "FKN99V27", "XC8WMWV5"};
#define N_ROOMS (sizeof rooms / sizeof rooms[0])
#define SEAT_BIT(s) ((uint16_t)(1u << (s)))

static engine_state st, back;
static uint8_t enc[1 << 16], re[1 << 16];

static fixture *restored(void)
{
    fixture *f = fixture_new(0);
    for (size_t i = 0; i < N_ROOMS; i++) {
        char path[128];
        snprintf(path, sizeof path, "tests/fixtures/rooms/v1/%s.mentat-archive", rooms[i]);
        ledger_restore_report rep;
        if (ledger_restore(f->db, &rep, path, 1) != 0)
            fail_msg("restore %s: %s", path, ledger_errmsg(f->db));
        assert_string_equal(rep.room, rooms[i]);
    }
    return f;
}

typedef struct tally {
    unsigned karama_windows;       /* states with a Karama window open */
    unsigned karama_cancels, gholas, allows;
    unsigned cancel_at;            /* the version of a karama_cancel, 0 none */
    unsigned ghola_at;
} tally;

static int count(void *ctx, const codec_event *ev)
{
    tally *t = ctx;
    switch (ev->action.kind) {
    case ENGINE_ACTION_KARAMA_CANCEL:
        assert_int_equal(engine_action_n_given(&ev->action), 0); /* version 1's has none */
        t->karama_cancels++;
        t->cancel_at = ev->version;
        break;
    case ENGINE_ACTION_KARAMA_ALLOW:
        t->allows++;
        break;
    case ENGINE_ACTION_GHOLA:
        t->gholas++;
        t->ghola_at = ev->version;
        break;
    default:
        break;
    }
    return 0;
}

/* Every state of every room: the ledger re-folds it to the digest its
 * event signed (ledger_state_at checks each), and its version-1 encoding
 * decodes to a state that encodes to the same bytes. */
static void test_rules_v1__every_state_refolds_and_reencodes(void **state)
{
    (void)state;
    fixture *f = restored();
    tally t = {0};
    for (size_t i = 0; i < N_ROOMS; i++) {
        ledger_room_info info;
        assert_int_equal(ledger_room_info_get(f->db, &info, rooms[i]), 0);
        uint8_t seed[ENGINE_SEED_BYTES];
        assert_int_equal(ledger_room_seed(f->db, seed, rooms[i]), 0);
        assert_int_equal(ledger_event_foreach(f->db, rooms[i], 1, 0, count, &t), 0);
        for (uint32_t v = 0; v <= info.version; v++) {
            if (ledger_state_at(f->db, &st, rooms[i], v) != 0)
                fail_msg("%s at %u: %s", rooms[i], v, ledger_errmsg(f->db));
            assert_int_equal(st.config.rules_version, 1);
            size_t n = engine_state_encode(enc, sizeof enc, &st);
            assert_true(n > 0 && n <= sizeof enc);
            if (engine_state_decode(&back, enc, n) != 0)
                fail_msg("%s at %u: its version-1 encoding does not decode", rooms[i], v);
            size_t m = engine_state_encode(re, sizeof re, &back);
            assert_int_equal(m, n);
            assert_memory_equal(re, enc, n);
            t.karama_windows += engine_window_find(&st, ENGINE_WINDOW_KARAMA) != NULL;
            /* the decoded state plays on as the room did: the next event
             * is accepted and reaches the digest it signed */
            if (v == info.version)
                continue;
            codec_event ev;
            assert_int_equal(ledger_event_get(f->db, &ev, rooms[i], v + 1), 0);
            engine_rng rng;
            engine_rng_init(&rng, seed, v + 1);
            assert_int_equal(engine_apply(NULL, &back, &ev.action, &rng), ENGINE_ACCEPTED);
            uint8_t digest[ENGINE_DIGEST_BYTES];
            engine_state_digest(digest, &back);
            if (memcmp(digest, ev.state_digest, sizeof digest) != 0)
                fail_msg("%s: event %u folded on the decoded state %u misses its digest",
                         rooms[i], v + 1, v);
        }
    }
    /* what ARCHITECTURE.md counts in the three rooms: the battle's Karama
     * step answered 39 times, one cancel, two Gholas */
    assert_int_equal(t.allows + t.karama_cancels, 40);
    assert_int_equal(t.karama_cancels, 1);
    assert_int_equal(t.gholas, 2);
    assert_int_equal(t.karama_windows, 40);
    fixture_free(f);
}

/* Under version 1 the kinds version 2 added, an argument version 1's
 * karama_cancel did not have, a Ghola outside the Revival phase: refused,
 * each with its verdict. */
static void test_rules_v1__what_version_1_could_not_do_is_refused(void **state)
{
    (void)state;
    fixture *f = restored();
    tally t = {0};
    assert_int_equal(ledger_event_foreach(f->db, "XC8WMWV5", 1, 0, count, &t), 0);
    assert_true(t.cancel_at > 1 && t.ghola_at > 1);

    /* the Karama window the room's cancel answered */
    codec_event ev;
    assert_int_equal(ledger_event_get(f->db, &ev, "XC8WMWV5", t.cancel_at), 0);
    assert_int_equal(ledger_state_at(f->db, &st, "XC8WMWV5", t.cancel_at - 1), 0);
    const engine_frame *w = engine_window_top(&st);
    assert_non_null(w);
    assert_int_equal(w->point, ENGINE_WINDOW_KARAMA);
    /* one family, without the advantage */
    engine_legal legal[64];
    size_t n = engine_legal_actions(legal, 64, &st, ev.action.seat);
    unsigned cancels = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        if (legal[i].kind == ENGINE_ACTION_KARAMA_CANCEL) {
            cancels++;
            assert_int_equal(engine_legal_n_given(&legal[i]), 0);
        }
    assert_int_equal(cancels, 1);
    engine_verdict_detail why;
    engine_rng rng;
    uint8_t seed[ENGINE_SEED_BYTES] = {0};
    engine_rng_init(&rng, seed, 1);
    back = st;
    engine_action named = ev.action;
    for (named.arg[0] = 1; named.arg[0] < ENGINE_ADVANTAGE_COUNT; named.arg[0]++) {
        back = st;
        assert_int_equal(engine_apply(&why, &back, &named, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
        assert_int_equal(why.arg, 0);
    }
    back = st;
    assert_int_equal(engine_apply(&why, &back, &ev.action, &rng), ENGINE_ACCEPTED);

    /* the kinds version 2 added do not exist under version 1 */
    assert_int_equal(ledger_state_at(f->db, &st, "XC8WMWV5", t.ghola_at - 1), 0);
    for (unsigned k = ENGINE_ACTION_SHIP_KARAMA_FROM; k < ENGINE_ACTION_KIND_COUNT; k++) {
        engine_action a = {0};
        a.kind = (uint8_t)k;
        a.seat = ev.action.seat;
        back = st;
        assert_int_equal(engine_apply(&why, &back, &a, &rng), ENGINE_REJECT_UNKNOWN_KIND);
        assert_int_equal(why.value, (int32_t)k);
    }
    /* the room's Ghola, in the Revival phase; the same one a step later is
     * of another phase */
    assert_int_equal(ledger_event_get(f->db, &ev, "XC8WMWV5", t.ghola_at), 0);
    assert_int_equal(st.phase, ENGINE_PHASE_REVIVAL);
    for (uint32_t v = t.ghola_at;; v++) {
        assert_int_equal(ledger_state_at(f->db, &st, "XC8WMWV5", v), 0);
        if (st.phase != ENGINE_PHASE_REVIVAL && engine_window_top(&st) == NULL) {
            uint16_t open = engine_state_awaiting(&st);
            assert_true(open != 0);
            ev.action.seat = (uint8_t)__builtin_ctz(open);
            assert_int_equal(engine_apply(&why, &st, &ev.action, &rng), ENGINE_REJECT_WRONG_PHASE);
            break;
        }
    }
    fixture_free(f);
}

/* Gives `seat` a Truthtrance: the first card in its hand becomes one. */
static void hand_truthtrance(engine_state *s, unsigned seat)
{
    for (unsigned i = 0; i < s->n_cards; i++)
        if (s->card[i].place == ENGINE_PLACE_HAND && s->card[i].holder == seat &&
            s->card_kind[i] != ENGINE_CARD_TRUTHTRANCE) {
            s->card_kind[i] = ENGINE_CARD_TRUTHTRANCE;
            return;
        }
    fail_msg("seat %u holds no card", seat);
}

/* The encoding's step byte, and its re-encoding after a decode is the same. */
static unsigned v1_step_round_trip(const engine_state *s)
{
    size_t n = engine_state_encode(enc, sizeof enc, s);
    assert_true(n > 0 && n <= sizeof enc);
    assert_int_equal(engine_state_decode(&back, enc, n), 0);
    assert_int_equal(engine_state_encode(re, sizeof re, &back), n);
    assert_memory_equal(re, enc, n);
    return enc[16 + s->config.n_seats]; /* magic, version, viewer, n, factions, 7, phase */
}

/* Version 1's Truthtrance: asked while the plans are, by a seat asked for
 * one, its answer a step of its own (TRUTH_ANSWER, 7) that then gives the
 * plans back as they stood; a second question leaves the last answer
 * standing until it is answered; no Truthtrance in another step. */
static void test_rules_v1__truthtrance_while_the_plans_are_asked(void **state)
{
    (void)state;
    fixture *f = restored();
    ledger_room_info info;
    assert_int_equal(ledger_room_info_get(f->db, &info, "XC8WMWV5"), 0);
    uint32_t v = 1;
    for (;; v++) {
        assert_true(v < info.version);
        assert_int_equal(ledger_state_at(f->db, &st, "XC8WMWV5", v), 0);
        if (st.phase == ENGINE_PHASE_BATTLE && engine_window_top(&st) == NULL &&
            st.awaiting == (SEAT_BIT(st.battle_seat[0]) | SEAT_BIT(st.battle_seat[1])) &&
            st.answered == 0)
            break;
    }
    assert_int_equal(v1_step_round_trip(&st), 6); /* PLAN */
    unsigned a = st.battle_seat[0], d = st.battle_seat[1];
    engine_rng rng;
    uint8_t seed[ENGINE_SEED_BYTES] = {0};
    engine_rng_init(&rng, seed, 1);
    engine_verdict_detail why;
    hand_truthtrance(&st, a);
    engine_action ask = {0}, answer = {0};
    ask.kind = ENGINE_ACTION_TRUTHTRANCE;
    ask.seat = (uint8_t)a;
    ask.arg[0] = st.seat[d].faction;
    assert_int_equal(engine_apply(&why, &st, &ask, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_awaiting(&st), SEAT_BIT(d));
    assert_int_equal(v1_step_round_trip(&st), 7); /* TRUTH_ANSWER */
    answer.kind = ENGINE_ACTION_TRUTHTRANCE_ANSWER;
    answer.seat = (uint8_t)d;
    answer.arg[0] = 1;
    assert_int_equal(engine_apply(&why, &st, &answer, &rng), ENGINE_ACCEPTED);
    assert_int_equal(v1_step_round_trip(&st), 6);
    assert_int_equal(engine_state_awaiting(&st), SEAT_BIT(a) | SEAT_BIT(d));
    /* a second question, by the other side: the first answer (1) stands
     * meanwhile, as version 1 wrote it */
    hand_truthtrance(&st, d);
    ask.seat = (uint8_t)d;
    ask.arg[0] = st.seat[a].faction;
    assert_int_equal(engine_apply(&why, &st, &ask, &rng), ENGINE_ACCEPTED);
    assert_int_equal(v1_step_round_trip(&st), 7);
    const engine_effect *kept = engine_effect_find(&back, ENGINE_EFFECT_ANSWER);
    assert_non_null(kept);
    assert_int_equal(kept->value, 1);
    answer.seat = (uint8_t)a;
    answer.arg[0] = 0;
    assert_int_equal(engine_apply(&why, &st, &answer, &rng), ENGINE_ACCEPTED);
    assert_int_equal(v1_step_round_trip(&st), 6);
    /* no Truthtrance but while the plans are asked */
    for (;; v++) {
        assert_true(v < info.version);
        assert_int_equal(ledger_state_at(f->db, &st, "XC8WMWV5", v), 0);
        if (st.phase != ENGINE_PHASE_BATTLE && engine_window_top(&st) == NULL &&
            engine_state_awaiting(&st) != 0)
            break;
    }
    unsigned s = (unsigned)__builtin_ctz(engine_state_awaiting(&st));
    hand_truthtrance(&st, s);
    ask.seat = (uint8_t)s;
    ask.arg[0] = st.seat[(s + 1) % st.config.n_seats].faction;
    assert_int_equal(engine_apply(&why, &st, &ask, &rng), ENGINE_REJECT_WRONG_PHASE);
    fixture_free(f);
}

/* A room is never created under version 1; version 2 still is. */
static void test_rules_v1__no_room_is_created_under_version_1(void **state)
{
    (void)state;
    fixture *f = fixture_new(0);
    engine_config cfg;
    test_config_six(&cfg);
    char room[SCHEMA_ROOM_CHARS + 1];
    cfg.rules_version = 1;
    assert_int_equal(ledger_room_create(f->db, room, &cfg), LEDGER_EINPUT);
    assert_non_null(strstr(ledger_errmsg(f->db), "rules version 1 is replayed, never played"));
    assert_false(engine_rules_version_is_creatable(1));
    assert_true(engine_rules_version_is_folded(1));
    cfg.rules_version = 2;
    assert_true(engine_rules_version_is_creatable(2));
    assert_int_equal(ledger_room_create(f->db, room, &cfg), 0);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_v1__every_state_refolds_and_reencodes),
        cmocka_unit_test(test_rules_v1__what_version_1_could_not_do_is_refused),
        cmocka_unit_test(test_rules_v1__truthtrance_while_the_plans_are_asked),
        cmocka_unit_test(test_rules_v1__no_room_is_created_under_version_1),
    };
    return cmocka_run_group_tests_name("rules_v1", tests, NULL, NULL);
}
