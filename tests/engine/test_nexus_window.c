/*
 * test_nexus_window.c - the neutral Nexus window of the Nexus Cards module
 * (engine/nexus_window.c, rules version 7; docs/ARCHITECTURE.md "The Nexus
 * window", docs/RULINGS.md R120-R122): a Voice held in one window asking
 * every seat holding a Nexus card that could hold the Bene Gesserit card
 * as a Betrayal, whatever it really holds (worlds differing only in the
 * faces held ask the same seats and offer them the same form), never the
 * Voice's user nor a seat without a card; the families exact (pass, and
 * the panel the seat holds); the standing policy (a seat quiet at the
 * Voice not asked; once a turn); several players applied in storm order,
 * the later one's card shown and kept; no window under rules version 6;
 * the state with the window open encoded and decoded to the same bytes.
 * Positions are constructed and folded by engine_apply, as a room would be.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/phase.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {71};

/* The Bene Gesserit fight the Harkonnen; the Atreides and the Fremen sit
 * out. The Emperor is seated too, so every card of the five is a
 * Betrayal for a seat not its faction. */
enum { BG = 0, HARKONNEN = 1, ATREIDES = 2, FREMEN = 3, EMPEROR = 4, N_SEATS = 5 };

/* `cards[s]` the faction of the Nexus card seat s holds, -1 none. */
static void position(engine_state *st, engine_rng *rng, unsigned rules_version,
                     const int cards[N_SEATS])
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = N_SEATS;
    cfg.faction[BG] = ENGINE_FACTION_BENE_GESSERIT;
    cfg.faction[HARKONNEN] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[ATREIDES] = ENGINE_FACTION_ATREIDES;
    cfg.faction[FREMEN] = ENGINE_FACTION_FREMEN;
    cfg.faction[EMPEROR] = ENGINE_FACTION_EMPEROR;
    cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
    cfg.rules_version = (uint16_t)rules_version;
    engine_rng_init(rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, rng), ENGINE_ACCEPTED);
    int at = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_true(at >= 0);
    unsigned flat = (unsigned)at;
    assert_int_equal(engine_position_forces(st, BG, flat, 5, 0), 0);
    assert_int_equal(engine_position_forces(st, HARKONNEN, flat, 5, 0), 0);
    for (unsigned s = 0; s < N_SEATS; s++)
        if (cards[s] >= 0)
            assert_true(engine_position_nexus_give(st, (uint8_t)s, (unsigned)cards[s]) >= 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 3, 0, rng), 0);
}

static engine_action voice(void)
{
    engine_action a = {ENGINE_ACTION_VOICE, BG, {0, 2}};
    return a;
}

static engine_action answer(unsigned seat, int panel)
{
    engine_action a;
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_ANSWER;
    a.seat = (uint8_t)seat;
    a.arg[0] = (int16_t)engine_window_from_slug("nexus");
    a.arg[1] = (int16_t)panel;
    return a;
}

static void apply_ok(engine_state *st, const engine_action *a, engine_rng *rng)
{
    engine_verdict_detail why;
    assert_int_equal(engine_apply(&why, st, a, rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_check(st), 0);
}

static engine_verdict try(const engine_state *st, const engine_action *a, engine_rng *rng)
{
    engine_state copy = *st;
    engine_verdict_detail why;
    engine_verdict v = engine_apply(&why, &copy, a, rng);
    if (v != ENGINE_ACCEPTED)
        assert_memory_equal(&copy, st, sizeof copy); /* a refusal changes nothing */
    return v;
}

static const engine_frame *nexus_window(const engine_state *st)
{
    const engine_frame *f = engine_nexus_window(st);
    assert_true(f == NULL || f->window == (uint16_t)engine_window_from_slug("nexus"));
    return f;
}

/* The answer families of `seat`: a bit per panel offered (bit 0 = pass). */
static uint64_t panels_offered(const engine_state *st, unsigned seat)
{
    engine_legal legal[64];
    size_t n = engine_legal_actions(legal, 64, st, (uint8_t)seat);
    assert_true(n <= 64);
    uint64_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (legal[i].kind != ENGINE_ACTION_ANSWER)
            continue;
        assert_int_equal(legal[i].lo[1], legal[i].hi[1]);
        m |= UINT64_C(1) << legal[i].lo[1];
    }
    return m;
}

/* ============================================================ who is asked */

static void test_nexus_window__asks_every_possible_holder_whatever_it_holds(void **state)
{
    (void)state;
    /* World A: the Atreides hold the Bene Gesserit card; world B: the
     * Emperor's. The Fremen hold a card in both; the Bene Gesserit (the
     * user) and the Harkonnen (no card) are never asked. */
    static const int a_cards[N_SEATS] = {-1, -1, ENGINE_FACTION_BENE_GESSERIT,
                                         ENGINE_FACTION_HARKONNEN, -1};
    engine_state a, b;
    engine_rng rng;
    position(&a, &rng, ENGINE_RULES_VERSION, a_cards);
    /* World B: the same card numbers, the faces of the Atreides' card and
     * of the Emperor's (in the deck) swapped, as the audit's counterfactual. */
    b = a;
    int held = engine_nexus_held(&a, ATREIDES);
    assert_true(held >= 0);
    for (unsigned c = 0; c < ENGINE_NEXUS_CARD_COUNT; c++)
        if (a.nexus_face[c] == ENGINE_FACTION_EMPEROR) {
            b.nexus_face[c] = a.nexus_face[held];
            b.nexus_face[held] = ENGINE_FACTION_EMPEROR;
        }
    assert_int_equal(engine_state_check(&b), 0);
    engine_action v = voice();
    apply_ok(&a, &v, &rng);
    apply_ok(&b, &v, &rng);
    const engine_frame *fa = nexus_window(&a), *fb = nexus_window(&b);
    assert_non_null(fa);
    assert_non_null(fb);
    uint16_t asked = (uint16_t)(ENGINE_SEAT_BIT(ATREIDES) | ENGINE_SEAT_BIT(FREMEN));
    assert_int_equal(fa->asked, asked);
    assert_int_equal(fb->asked, asked);
    assert_int_equal(engine_state_awaiting(&a), asked);
    /* Every other seat's view is the same in both worlds. */
    for (unsigned viewer = 0; viewer <= N_SEATS; viewer++) {
        if (viewer == ATREIDES)
            continue;
        uint8_t who = viewer == N_SEATS ? ENGINE_VIEW_PUBLIC : (uint8_t)viewer;
        engine_state va, vb;
        engine_view(&va, &a, who);
        engine_view(&vb, &b, who);
        uint8_t xa[ENGINE_STATE_ENCODED_MAX], xb[ENGINE_STATE_ENCODED_MAX];
        size_t la = engine_state_encode(xa, sizeof xa, &va);
        size_t lb = engine_state_encode(xb, sizeof xb, &vb);
        assert_int_equal(la, lb);
        assert_memory_equal(xa, xb, la);
    }
    /* The families are the seat's own: pass for all, panel 4 for the one
     * holding it. */
    assert_int_equal(panels_offered(&a, ATREIDES), (UINT64_C(1) << 0) | (UINT64_C(1) << 4));
    assert_int_equal(panels_offered(&b, ATREIDES), UINT64_C(1) << 0);
    assert_int_equal(panels_offered(&a, FREMEN), UINT64_C(1) << 0);
    assert_int_equal(panels_offered(&a, HARKONNEN), 0);
    /* Refused to the seat alone: a panel it does not hold, one it holds
     * that does not answer; a seat not asked; the user. */
    engine_action x = answer(ATREIDES, 4);
    assert_int_equal(try(&b, &x, &rng), ENGINE_REJECT_CARD_NOT_HELD);
    x = answer(FREMEN, 1);
    assert_int_equal(try(&a, &x, &rng), ENGINE_REJECT_CARD_NOT_HELD);
    x = answer(HARKONNEN, 0);
    assert_int_equal(try(&a, &x, &rng), ENGINE_REJECT_NOT_AWAITED);
    x = answer(BG, 0);
    assert_int_equal(try(&a, &x, &rng), ENGINE_REJECT_NOT_AWAITED);
    /* The state with the window open encodes and decodes to itself. */
    uint8_t buf[ENGINE_STATE_ENCODED_MAX], again[ENGINE_STATE_ENCODED_MAX];
    size_t n = engine_state_encode(buf, sizeof buf, &a);
    engine_state back;
    assert_int_equal(engine_state_decode(&back, buf, n), 0);
    assert_int_equal(engine_state_encode(again, sizeof again, &back), n);
    assert_memory_equal(buf, again, n);
    /* Both pass: the Voice binds. */
    x = answer(ATREIDES, 0);
    apply_ok(&a, &x, &rng);
    x = answer(FREMEN, 0);
    apply_ok(&a, &x, &rng);
    assert_null(nexus_window(&a));
    assert_non_null(engine_effect_find(&a, ENGINE_EFFECT_VOICE));
    assert_true(engine_nexus_held(&a, ATREIDES) >= 0);
}

static void test_nexus_window__none_without_a_possible_holder_or_before_version_7(void **state)
{
    (void)state;
    /* Nobody but the Bene Gesserit hold a card: nobody to ask. */
    static const int own[N_SEATS] = {ENGINE_FACTION_BENE_GESSERIT, -1, -1, -1, -1};
    static const int held[N_SEATS] = {-1, -1, ENGINE_FACTION_BENE_GESSERIT, -1, -1};
    engine_state st;
    engine_rng rng;
    position(&st, &rng, ENGINE_RULES_VERSION, own);
    engine_action v = voice();
    apply_ok(&st, &v, &rng);
    assert_null(nexus_window(&st));
    assert_non_null(engine_effect_find(&st, ENGINE_EFFECT_VOICE));
    /* Rules version 6: the Voice is cast at once, whoever holds what. */
    position(&st, &rng, 6, held);
    apply_ok(&st, &v, &rng);
    assert_null(nexus_window(&st));
    assert_non_null(engine_effect_find(&st, ENGINE_EFFECT_VOICE));
}

/* ================================================================ policy */

static void test_nexus_window__policy_quiet_seat_not_asked_once_a_turn(void **state)
{
    (void)state;
    static const int cards[N_SEATS] = {-1, -1, ENGINE_FACTION_BENE_GESSERIT,
                                       ENGINE_FACTION_HARKONNEN, -1};
    engine_state st;
    engine_rng rng;
    position(&st, &rng, ENGINE_RULES_VERSION, cards);
    /* The Bene Gesserit, asked by their Voice's window, set a policy (a
     * public side action offered whatever a seat holds, none here). */
    engine_action p;
    memset(&p, 0, sizeof p);
    p.kind = ENGINE_ACTION_POWER;
    p.seat = BG;
    p.arg[0] = (int16_t)engine_power_from_slug("nexus_policy");
    p.arg[1] = ENGINE_NEXUS_POINTS_ALL + 1;
    assert_int_equal(try(&st, &p, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    p.arg[1] = 1 << ENGINE_NEXUS_AT_PRESCIENCE;
    apply_ok(&st, &p, &rng);
    assert_int_equal(st.nexus_quiet[BG], 1 << ENGINE_NEXUS_AT_PRESCIENCE);
    assert_int_equal(st.nexus_quiet_turn[BG], st.turn);
    p.arg[1] = 0;
    assert_int_equal(try(&st, &p, &rng), ENGINE_REJECT_NOT_YOUR_POWER); /* once a turn */
    /* The Fremen, holding a card, chose the same earlier this turn: the
     * window asks the Atreides alone. */
    st.nexus_quiet[FREMEN] = 1 << ENGINE_NEXUS_AT_VOICE;
    st.nexus_quiet_turn[FREMEN] = st.turn;
    assert_int_equal(engine_state_check(&st), 0);
    engine_action v = voice();
    apply_ok(&st, &v, &rng);
    const engine_frame *f = nexus_window(&st);
    assert_non_null(f);
    assert_int_equal(f->asked, ENGINE_SEAT_BIT(ATREIDES));
    /* A policy beyond the points, or set in a later turn, is no state. */
    engine_state bad = st;
    bad.nexus_quiet[FREMEN] = ENGINE_NEXUS_POINTS_ALL + 1;
    assert_int_not_equal(engine_state_check(&bad), 0);
    bad = st;
    bad.nexus_quiet_turn[FREMEN] = (uint8_t)(st.turn + 1);
    assert_int_not_equal(engine_state_check(&bad), 0);
}

/* =============================================================== a play */

static void test_nexus_window__a_play_applies_once_every_seat_has_answered(void **state)
{
    (void)state;
    /* The Atreides hold the Bene Gesserit card; the Fremen and the
     * Emperor hold others, and are asked the same. */
    static const int cards[N_SEATS] = {-1, -1, ENGINE_FACTION_BENE_GESSERIT,
                                       ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_FREMEN};
    engine_state st;
    engine_rng rng;
    position(&st, &rng, ENGINE_RULES_VERSION, cards);
    engine_action v = voice();
    apply_ok(&st, &v, &rng);
    const engine_frame *f = nexus_window(&st);
    assert_non_null(f);
    assert_int_equal(f->asked, ENGINE_SEAT_BIT(ATREIDES) | ENGINE_SEAT_BIT(FREMEN) |
                                   ENGINE_SEAT_BIT(EMPEROR));
    engine_action x = answer(ATREIDES, 4);
    apply_ok(&st, &x, &rng);
    /* Played, not yet applied: the card is still held and hidden, the
     * Voice still held, until every seat asked has answered. */
    assert_int_equal(st.nexus_played, ENGINE_SEAT_BIT(ATREIDES));
    assert_true(engine_nexus_held(&st, ATREIDES) >= 0);
    assert_non_null(nexus_window(&st));
    x = answer(FREMEN, 0);
    apply_ok(&st, &x, &rng);
    x = answer(EMPEROR, 0);
    apply_ok(&st, &x, &rng);
    assert_null(nexus_window(&st));
    assert_int_equal(st.nexus_played, 0);
    assert_null(engine_effect_find(&st, ENGINE_EFFECT_VOICE)); /* stopped */
    assert_int_equal(engine_nexus_held(&st, ATREIDES), -1);
    assert_int_equal(st.n_nexus_discard, 1);
    assert_true(st.nexus_card[st.nexus_discard[0]].known_by & ENGINE_KNOWN_PUBLIC);
    assert_int_equal(st.nexus_face[st.nexus_discard[0]], ENGINE_FACTION_BENE_GESSERIT);
    /* The plans are asked of both sides. */
    assert_int_equal(engine_state_awaiting(&st), ENGINE_SEAT_BIT(BG) | ENGINE_SEAT_BIT(HARKONNEN));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nexus_window__asks_every_possible_holder_whatever_it_holds),
        cmocka_unit_test(test_nexus_window__none_without_a_possible_holder_or_before_version_7),
        cmocka_unit_test(test_nexus_window__policy_quiet_seat_not_asked_once_a_turn),
        cmocka_unit_test(test_nexus_window__a_play_applies_once_every_seat_has_answered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
