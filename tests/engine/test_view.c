/*
 * test_view.c - what each seat may see (DESIGN.md "Hidden information"):
 * counterfactual pairs. In random positions, change a hidden fact a seat
 * does not know (swap two card faces it has not seen, two traitors it does
 * not hold, two spice cards in the deck, the prediction) and require that
 * seat's view and legal actions to stay byte-identical, also after playing
 * on with the same actions; and check that what a seat does know shows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "engine/phase.h"
#include "tests/support/support.h"

static int views_equal(const engine_state *a, const engine_state *b, uint8_t viewer)
{
    static engine_state va, vb;
    static uint8_t ea[ENGINE_STATE_ENCODED_MAX], eb[ENGINE_STATE_ENCODED_MAX];
    static engine_legal la[ENGINE_LEGAL_MAX], lb[ENGINE_LEGAL_MAX];
    engine_view(&va, a, viewer);
    engine_view(&vb, b, viewer);
    size_t na = engine_state_encode(ea, sizeof ea, &va);
    size_t nb = engine_state_encode(eb, sizeof eb, &vb);
    if (na != nb || memcmp(ea, eb, na) != 0)
        return 0;
    if (viewer >= a->config.n_seats)
        return 1;
    size_t ka = engine_legal_actions(la, ENGINE_LEGAL_MAX, a, viewer);
    size_t kb = engine_legal_actions(lb, ENGINE_LEGAL_MAX, b, viewer);
    return ka == kb && memcmp(la, lb, ka * sizeof la[0]) == 0;
}

static int knows(const engine_state *st, uint8_t viewer, uint16_t known_by)
{
    return (known_by & ENGINE_KNOWN_PUBLIC) || (viewer < st->config.n_seats && (known_by >> viewer & 1));
}

/* Swaps the faces of two treachery cards `viewer` has not seen. */
static int swap_cards(engine_state *st, uint8_t viewer, uint64_t *prng)
{
    uint8_t cand[ENGINE_TREACHERY_MAX];
    unsigned n = 0;
    for (unsigned i = 0; i < st->n_cards; i++)
        if (!knows(st, viewer, st->card[i].known_by))
            cand[n++] = (uint8_t)i;
    for (int tries = 0; tries < 20 && n >= 2; tries++) {
        unsigned a = cand[test_prng_below(prng, n)], b = cand[test_prng_below(prng, n)];
        if (st->card_kind[a] == st->card_kind[b])
            continue;
        /* A swap must keep the game legal: a hand over its limit cannot
         * arise, kinds only move. */
        uint8_t t = st->card_kind[a];
        st->card_kind[a] = st->card_kind[b];
        st->card_kind[b] = t;
        return 1;
    }
    return 0;
}

/* Swaps where two traitor cards are when `viewer` knows neither. */
static int swap_traitors(engine_state *st, uint8_t viewer, uint64_t *prng)
{
    uint8_t cand[ENGINE_LEADER_COUNT];
    unsigned n = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->traitor[l].place != ENGINE_PLACE_OUT && !knows(st, viewer, st->traitor[l].known_by))
            cand[n++] = (uint8_t)l;
    if (n < 2)
        return 0;
    unsigned a = cand[test_prng_below(prng, n)], b = cand[test_prng_below(prng, n)];
    if (a == b)
        return 0;
    engine_card_state t = st->traitor[a];
    st->traitor[a] = st->traitor[b];
    st->traitor[b] = t;
    for (unsigned i = 0; i < st->n_traitor_deck; i++) {
        if (st->traitor_deck[i] == a)
            st->traitor_deck[i] = (uint8_t)b;
        else if (st->traitor_deck[i] == b)
            st->traitor_deck[i] = (uint8_t)a;
    }
    return 1;
}

static int swap_spice_deck(engine_state *st, uint8_t viewer, uint64_t *prng)
{
    if (st->n_spice_deck < 2)
        return 0;
    unsigned a = test_prng_below(prng, st->n_spice_deck), b = test_prng_below(prng, st->n_spice_deck);
    if (a == b || knows(st, viewer, st->spice_card[st->spice_deck[a]].known_by) ||
        knows(st, viewer, st->spice_card[st->spice_deck[b]].known_by))
        return 0;
    uint8_t t = st->spice_deck[a];
    st->spice_deck[a] = st->spice_deck[b];
    st->spice_deck[b] = t;
    return 1;
}

static void test_view__counterfactual_worlds_look_the_same(void **state)
{
    (void)state;
    unsigned checked = 0;
    for (uint64_t g = 0; g < 300; g++) {
        uint64_t prng = g + 1;
        uint8_t seed[ENGINE_SEED_BYTES] = {(uint8_t)g, (uint8_t)(g >> 8)};
        engine_config cfg;
        test_random_config(&cfg, 2 + (unsigned)(g % 5), 0, &prng);
        if (cfg.n_seats >= ENGINE_NEXUS_MIN_SEATS && g % 3 == 0)
            cfg.modules = ENGINE_MODULE_NEXUS_CARDS; /* and the Nexus Cards' views */
        engine_state st;
        engine_rng rng;
        engine_rng_init(&rng, seed, 0);
        assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
        unsigned stop = test_prng_below(&prng, 400);
        for (uint32_t v = 1; v < stop; v++) {
            engine_action act;
            if (test_random_legal(&act, &st, &prng) != 0)
                break;
            engine_rng_init(&rng, seed, v);
            assert_int_equal(engine_apply(NULL, &st, &act, &rng), ENGINE_ACCEPTED);
        }
        for (uint8_t viewer = 0; viewer <= cfg.n_seats; viewer++) {
            uint8_t who = viewer == cfg.n_seats ? ENGINE_VIEW_PUBLIC : viewer;
            engine_state other = st;
            int changed = swap_cards(&other, who, &prng) | swap_traitors(&other, who, &prng) |
                          swap_spice_deck(&other, who, &prng);
            /* A committed battle plan the viewer has not seen yet. */
            if (st.phase == ENGINE_PHASE_BATTLE && st.step == BATTLE_STEP_PLAN)
                for (unsigned i = 0; i < 2; i++)
                    if (st.plan[i].is_committed && st.battle_seat[i] != who) {
                        other.plan[i].dial = (uint8_t)(other.plan[i].dial ^ 1);
                        changed = 1;
                    }
            int bg = engine__seat_of(&st, ENGINE_FACTION_BENE_GESSERIT);
            if (bg >= 0 && who != bg && other.prediction_turn && st.phase != ENGINE_PHASE_GAME_OVER) {
                other.prediction_turn = (uint8_t)(other.prediction_turn % cfg.turn_limit + 1);
                changed = 1;
            }
            if (!changed)
                continue;
            assert_true(views_equal(&st, &other, who));
            /* Play on in both worlds with the same actions while both accept. */
            engine_state a = st, b = other;
            uint64_t p2 = prng;
            for (uint32_t v = 100; v < 110; v++) {
                engine_action act;
                if (test_random_legal(&act, &a, &p2) != 0)
                    break;
                engine_rng ra, rb;
                engine_rng_init(&ra, seed, v);
                engine_rng_init(&rb, seed, v);
                engine_state a2 = a, b2 = b;
                if (engine_apply(NULL, &a2, &act, &ra) != ENGINE_ACCEPTED ||
                    engine_apply(NULL, &b2, &act, &rb) != ENGINE_ACCEPTED)
                    break;
                a = a2;
                b = b2;
                /* A viewer who now learns a swapped card may tell the worlds
                 * apart; stop comparing once the swap is revealed to it. */
                if (!views_equal(&a, &b, who))
                    break;
                checked++;
            }
            checked++;
        }
    }
    assert_true(checked > 500);
}

/* A seat sees its own hand and traitors; others and the public do not. */
static void test_view__own_secrets_show_others_do_not(void **state)
{
    (void)state;
    uint8_t seed[ENGINE_SEED_BYTES] = {4};
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[0] = ENGINE_FACTION_BENE_GESSERIT;
    cfg.faction[1] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[2] = ENGINE_FACTION_GUILD;
    engine_state st;
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    engine_action predict = {ENGINE_ACTION_PREDICT, 0, {ENGINE_FACTION_GUILD, 7}};
    engine_rng_init(&rng, seed, 1);
    assert_int_equal(engine_apply(NULL, &st, &predict, &rng), ENGINE_ACCEPTED);
    engine_state v;
    engine_view(&v, &st, 0);
    assert_int_equal(v.prediction_turn, 7);
    engine_view(&v, &st, 2);
    assert_int_equal(v.prediction_turn, 0);
    assert_int_equal(v.prediction_faction, ENGINE_FACTION_NONE);
    engine_view(&v, &st, ENGINE_VIEW_PUBLIC);
    assert_int_equal(v.prediction_turn, 0);
    /* Harkonnen's four traitors: visible to Harkonnen only. */
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++) {
        if (st.traitor[l].holder != 1)
            continue;
        engine_view(&v, &st, 1);
        assert_int_equal(v.traitor[l].place, ENGINE_PLACE_HAND);
        engine_view(&v, &st, 2);
        assert_int_equal(v.traitor[l].place, ENGINE_PLACE_HIDDEN);
        assert_int_equal(v.traitor[l].holder, ENGINE_UNKNOWN);
        assert_int_equal(v.traitor[l].known_by, 0);
    }
    /* Deck faces: unknown to every seat and the public. */
    engine_view(&v, &st, ENGINE_VIEW_PUBLIC);
    for (unsigned i = 0; i < st.n_deck; i++)
        assert_int_equal(v.card_kind[st.deck[i]], ENGINE_CARD_KIND_UNKNOWN);
    for (unsigned i = 0; i < st.n_spice_deck; i++)
        assert_int_equal(v.spice_deck[i], ENGINE_UNKNOWN);
    /* The auditor sees everything. */
    engine_view(&v, &st, ENGINE_SEAT_ENGINE);
    assert_memory_equal(&v, &st, sizeof st);
}

/* Applies `a`; a refusal must leave the state byte-identical. */
static engine_verdict play_action(engine_state *st, const engine_action *a)
{
    static const uint8_t seed[ENGINE_SEED_BYTES] = {6};
    engine_rng rng;
    engine_rng_init(&rng, seed, 9);
    engine_state before = *st;
    engine_verdict v = engine_apply(NULL, st, a, &rng);
    if (v != ENGINE_ACCEPTED)
        assert_memory_equal(&before, st, sizeof before);
    return v;
}

static engine_verdict play(engine_state *st, unsigned kind, unsigned seat, int a0, int a1)
{
    engine_action a = {(uint8_t)kind, (uint8_t)seat, {(int16_t)a0, (int16_t)a1}};
    return play_action(st, &a);
}

/* A Truthtrance question and its answer are public: every seat and the
 * public see who asked whom and what was answered. While it is pending
 * the game waits on the target alone (any seat, not only one the step
 * asks), and the answer resumes the paused step exactly as it was. */
static void test_view__truthtrance_is_public_and_pauses_the_step(void **state)
{
    (void)state;
    uint8_t seed[ENGINE_SEED_BYTES] = {6};
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[0] = ENGINE_FACTION_EMPEROR;
    cfg.faction[1] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[2] = ENGINE_FACTION_GUILD;
    engine_state st;
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_position_new(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    int card = engine_position_give_card(&st, 1, ENGINE_CARD_TRUTHTRANCE);
    assert_true(card >= 0);
    assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_BIDDING, 2, 0, &rng), 0);
    /* The Emperor opens; the Harkonnen are asked next. */
    assert_int_equal(engine_state_awaiting(&st), 1u << 0);
    assert_int_equal(play(&st, ENGINE_ACTION_TRUTHTRANCE, 1, ENGINE_FACTION_GUILD, 0),
                     ENGINE_REJECT_NOT_AWAITED);
    assert_int_equal(play(&st, ENGINE_ACTION_BID, 0, 1, 0), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_awaiting(&st), 1u << 1);
    engine_state before = st;
    assert_int_equal(play(&st, ENGINE_ACTION_TRUTHTRANCE, 1, ENGINE_FACTION_HARKONNEN, 0),
                     ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(play(&st, ENGINE_ACTION_TRUTHTRANCE_ANSWER, 1, 1, 0),
                     ENGINE_REJECT_WRONG_PHASE);
    assert_int_equal(play(&st, ENGINE_ACTION_TRUTHTRANCE, 1, ENGINE_FACTION_GUILD, 0),
                     ENGINE_ACCEPTED);
    /* Pending: the Guild, whom the auction does not ask, alone. */
    assert_int_equal(engine_state_awaiting(&st), 1u << 2);
    engine_legal legal[8];
    assert_int_equal(engine_legal_actions(legal, 8, &st, ENGINE_SEAT_ENGINE), 1);
    assert_int_equal(legal[0].kind, ENGINE_ACTION_TRUTHTRANCE_ANSWER);
    assert_int_equal(legal[0].seat, 2);
    assert_int_equal(legal[0].hi[0], 1);
    assert_int_equal(play(&st, ENGINE_ACTION_BID, 1, 2, 0), ENGINE_REJECT_NOT_AWAITED);
    assert_int_equal(play(&st, ENGINE_ACTION_BID_PASS, 2, 0, 0), ENGINE_REJECT_WRONG_PHASE);
    assert_int_equal(play(&st, ENGINE_ACTION_TRUTHTRANCE_ANSWER, 2, 2, 0),
                     ENGINE_REJECT_ARG_OUT_OF_RANGE);
    static const uint8_t viewers[] = {0, 1, 2, ENGINE_VIEW_PUBLIC};
    engine_state v;
    for (unsigned i = 0; i < sizeof viewers; i++) {
        engine_view(&v, &st, viewers[i]);
        const engine_frame *q = engine_window_find(&v, ENGINE_WINDOW_TRUTHTRANCE);
        assert_non_null(q);
        assert_int_equal(q->asked, 1u << 2);
        assert_int_equal(q->owner, 1);
        assert_int_equal(engine_state_awaiting(&v), 1u << 2);
        assert_int_equal(v.card_kind[card], ENGINE_CARD_TRUTHTRANCE); /* discarded face up */
    }
    assert_int_equal(play(&st, ENGINE_ACTION_TRUTHTRANCE_ANSWER, 2, 0, 0), ENGINE_ACCEPTED);
    for (unsigned i = 0; i < sizeof viewers; i++) {
        engine_view(&v, &st, viewers[i]);
        assert_null(engine_window_find(&v, ENGINE_WINDOW_TRUTHTRANCE));
        const engine_effect *answer = engine_effect_find(&v, ENGINE_EFFECT_ANSWER);
        assert_non_null(answer);
        assert_int_equal(answer->owner, 1);
        assert_int_equal(answer->value, 0);
    }
    /* The auction resumes where it stood. */
    assert_int_equal(st.phase, before.phase);
    assert_int_equal(st.step, before.step);
    assert_int_equal(st.awaiting, before.awaiting);
    assert_int_equal(st.answered, before.answered);
    assert_int_equal(st.bid_turn, before.bid_turn);
    assert_int_equal(st.high_bid, before.high_bid);
    assert_int_equal(st.high_bidder, before.high_bidder);
    assert_int_equal(engine_state_awaiting(&st), 1u << 1);
    assert_int_equal(st.card[card].place, ENGINE_PLACE_DISCARD);
    assert_int_equal(play(&st, ENGINE_ACTION_BID, 1, 2, 0), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_check(&st), 0);
}

/* `st` survives the canonical encoding: it decodes to the same frames,
 * effects and step and encodes again to the same bytes. */
static void assert_round_trips(const engine_state *st)
{
    static uint8_t buf[ENGINE_STATE_ENCODED_MAX], again[ENGINE_STATE_ENCODED_MAX];
    static engine_state back;
    size_t len = engine_state_encode(buf, sizeof buf, st);
    assert_int_equal(engine_state_decode(&back, buf, len), 0);
    assert_int_equal(engine_state_encode(again, sizeof again, &back), len);
    assert_memory_equal(again, buf, len);
    assert_int_equal(back.n_frames, st->n_frames);
    assert_memory_equal(back.frame, st->frame, sizeof back.frame);
    assert_memory_equal(back.effect, st->effect, sizeof back.effect);
    assert_int_equal(back.step, st->step);
    assert_int_equal(back.awaiting, st->awaiting);
}

static engine_verdict propose(engine_state *st, unsigned seat, int loc, int forces, int payer)
{
    engine_action a = {ENGINE_ACTION_SHIP_KARAMA_FROM, (uint8_t)seat,
                       {(int16_t)loc, (int16_t)forces, 0, (int16_t)payer}};
    return play_action(st, &a);
}

/* A shipment proposed with another seat's Karama (docs/RULINGS.md R67) is
 * public, and being named tells nothing of the hand: the Emperor holding a
 * Shield or a Karama, everyone else sees the same proposal, the same
 * prompt and, after a decline, the same step; only the Emperor's own legal
 * answers differ. A held proposal that is no longer valid is refused by
 * the checker, so the decoder never accepts one. */
static void test_view__karama_shipment_for_another_is_public(void **state)
{
    (void)state;
    uint8_t seed[ENGINE_SEED_BYTES] = {7};
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[0] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[1] = ENGINE_FACTION_EMPEROR;
    cfg.faction[2] = ENGINE_FACTION_GUILD;
    int loc = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_true(loc >= 0);
    /* World 1 is world 0 with the faces of the Emperor's Shield and a
     * Karama in the deck swapped. */
    static engine_state world[2];
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_position_new(NULL, &world[0], &cfg, &rng), ENGINE_ACCEPTED);
    int shield = engine_position_give_card(&world[0], 1, ENGINE_CARD_SHIELD);
    assert_true(shield >= 0);
    int karama = -1;
    for (unsigned i = 0; i < world[0].n_cards && karama < 0; i++)
        if (world[0].card_kind[i] == ENGINE_CARD_KARAMA)
            karama = (int)i;
    assert_true(karama >= 0);
    world[1] = world[0];
    world[1].card_kind[shield] = ENGINE_CARD_KARAMA;
    world[1].card_kind[karama] = ENGINE_CARD_SHIELD;
    for (unsigned w = 0; w < 2; w++) {
        engine_rng_init(&rng, seed, 1);
        assert_int_equal(engine_position_enter(&world[w], ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 0,
                                               &rng), 0);
        engine_state *st = &world[w];
        assert_int_equal(engine_state_awaiting(st), 1u << 0);
        assert_int_equal(propose(st, 0, loc, 2, ENGINE_FACTION_GUILD),
                         ENGINE_REJECT_PAYER_HOLDS_NO_CARDS);
        assert_int_equal(propose(st, 0, loc, 2, ENGINE_FACTION_HARKONNEN),
                         ENGINE_REJECT_ARG_OUT_OF_RANGE);
        assert_int_equal(propose(st, 0, loc, 2, ENGINE_FACTION_EMPEROR), ENGINE_ACCEPTED);
        assert_int_equal(engine_state_awaiting(st), 1u << 1);
        engine_legal legal[4];
        /* The answer, then the side action every asked seat has (rules
         * version 3: its standing Karama policy). */
        assert_int_equal(engine_legal_actions(legal, 4, st, 1), 2);
        assert_int_equal(legal[0].kind, ENGINE_ACTION_SHIP_KARAMA_ANSWER);
        assert_int_equal(legal[1].kind, ENGINE_ACTION_KARAMA_POLICY);
        assert_int_equal(legal[0].lo[0], 0);
        assert_int_equal(legal[0].hi[0], (int)w);
        assert_int_equal(engine_legal_actions(legal, 4, st, 0), 0);
        static const uint8_t viewers[] = {0, 2, ENGINE_VIEW_PUBLIC};
        for (unsigned i = 0; i < sizeof viewers; i++) {
            engine_state v;
            engine_view(&v, st, viewers[i]);
            const engine_frame *ship = engine_window_find(&v, ENGINE_WINDOW_SHIP_PAYER);
            assert_non_null(ship);
            assert_int_equal(ship->owner, 0);
            assert_int_equal(ship->user, 1);
            assert_int_equal(ship->held.arg[0], loc);
            assert_int_equal(ship->held.arg[1], 2);
        }
        /* The proposal round-trips; a proposal no longer payable breaks (7). */
        assert_round_trips(st);
        static engine_state broken;
        broken = *st;
        broken.frame[0].held.arg[1] = 40;
        assert_true(engine_state_check(&broken) > 0);
    }
    static const uint8_t others[] = {0, 2, ENGINE_VIEW_PUBLIC};
    for (unsigned i = 0; i < sizeof others; i++)
        assert_true(views_equal(&world[0], &world[1], others[i]));
    for (unsigned w = 0; w < 2; w++) {
        assert_int_equal(play(&world[w], ENGINE_ACTION_SHIP_KARAMA_ANSWER, 1, 0, 0),
                         ENGINE_ACCEPTED);
        assert_int_equal(engine_state_awaiting(&world[w]), 1u << 0);
        assert_int_equal(world[w].step, 0);
        assert_int_equal(propose(&world[w], 0, loc, 2, ENGINE_FACTION_EMPEROR),
                         ENGINE_REJECT_ALREADY_PROPOSED);
    }
    for (unsigned i = 0; i < sizeof others; i++)
        assert_true(views_equal(&world[0], &world[1], others[i]));
}

/* `a` is refused as a wrong step, told as `step`, and changes nothing. */
static void assert_told_step(engine_state *st, const engine_action *a, unsigned step)
{
    static const uint8_t seed[ENGINE_SEED_BYTES] = {8};
    engine_rng rng;
    engine_rng_init(&rng, seed, 2);
    engine_verdict_detail why;
    static engine_state before;
    before = *st;
    assert_int_equal(engine_apply(&why, st, a, &rng), ENGINE_REJECT_WRONG_STEP);
    assert_int_equal(why.value, step);
    assert_memory_equal(&before, st, sizeof before);
}

/* A table of three in turn 2's Shipment, storm at sector 0, Harkonnen
 * (seat 0, in turn) and the Guild around `second`, which holds a
 * Truthtrance, a Karama in the hand of `karama_seat`: returns the sector
 * of The Great Flat the Harkonnen ship to. */
static int shipment_table(engine_state *st, unsigned second, unsigned karama_seat)
{
    uint8_t seed[ENGINE_SEED_BYTES] = {8};
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[0] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[1] = (uint8_t)second;
    cfg.faction[2] = ENGINE_FACTION_GUILD;
    int loc = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_true(loc >= 0);
    engine_rng rng;
    engine_rng_init(&rng, seed, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    assert_true(engine_position_give_card(st, (uint8_t)karama_seat, ENGINE_CARD_KARAMA) >= 0);
    assert_true(engine_position_give_card(st, 1, ENGINE_CARD_TRUTHTRANCE) >= 0);
    engine_rng_init(&rng, seed, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 0, &rng), 0);
    return loc;
}

/* Windows nest (engine/frame.c): the payer asked for a shipment may ask a
 * Truthtrance question first; the question goes on top and waits on its
 * target alone, its answer gives the payer's window back as it was, and
 * the payment then lands the shipment. Both stacks round-trip through the
 * canonical encoding, and a wrong step in the payer's window is told as
 * the step it was (KARAMA_ANSWER). */
static void test_view__question_nests_over_a_payers_window(void **state)
{
    (void)state;
    static engine_state st;
    int loc = shipment_table(&st, ENGINE_FACTION_EMPEROR, 1);
    unsigned reserves = st.seat[0].reserves;
    assert_int_equal(propose(&st, 0, loc, 2, ENGINE_FACTION_EMPEROR), ENGINE_ACCEPTED);
    engine_action ship = {ENGINE_ACTION_SHIP, 0, {(int16_t)loc, 2, 0, 0}};
    assert_told_step(&st, &ship, SHIP_STEP_KARAMA_ANSWER);
    assert_int_equal(play(&st, ENGINE_ACTION_TRUTHTRANCE, 1, ENGINE_FACTION_GUILD, 0),
                     ENGINE_ACCEPTED);
    assert_int_equal(st.n_frames, 2);
    assert_int_equal(engine_window_top(&st)->point, ENGINE_WINDOW_TRUTHTRANCE);
    assert_int_equal(engine_state_awaiting(&st), 1u << 2);
    assert_int_equal(play(&st, ENGINE_ACTION_SHIP_KARAMA_ANSWER, 1, 1, 0),
                     ENGINE_REJECT_NOT_AWAITED);
    assert_round_trips(&st);
    assert_int_equal(play(&st, ENGINE_ACTION_TRUTHTRANCE_ANSWER, 2, 1, 0), ENGINE_ACCEPTED);
    assert_round_trips(&st);
    /* The question is a record now; the payer's window is back on top. */
    assert_int_equal(st.n_frames, 1);
    assert_int_equal(engine_window_top(&st)->point, ENGINE_WINDOW_SHIP_PAYER);
    assert_int_equal(engine_state_awaiting(&st), 1u << 1);
    const engine_effect *answer = engine_effect_find(&st, ENGINE_EFFECT_ANSWER);
    assert_non_null(answer);
    assert_int_equal(answer->owner, 1);
    assert_int_equal(answer->value, 1);
    assert_int_equal(play(&st, ENGINE_ACTION_SHIP_KARAMA_ANSWER, 1, 1, 0), ENGINE_ACCEPTED);
    assert_int_equal(st.n_frames, 0);
    assert_int_equal(st.forces[loc][0], 2);
    assert_int_equal(st.seat[0].reserves, reserves - 2);
}

/* The Bene Gesserit's send after another's shipment (LR 2.02.05) is a
 * BG_SEND window over the shipper's SHIP step: it asks the Bene Gesserit
 * alone, a wrong step in it is told as the step it was (BG_SEND), a
 * Truthtrance question and a Karama window nest over it, every stack
 * round-trips through the canonical encoding, and the send goes on to the
 * shipper's MOVE step. */
static void test_view__bg_send_is_a_window_over_the_ship_step(void **state)
{
    (void)state;
    static engine_state st;
    int loc = shipment_table(&st, ENGINE_FACTION_BENE_GESSERIT, 2);
    unsigned sink = st.forces[0][1], reserves = st.seat[1].reserves;
    assert_int_equal(play_action(&st, &(engine_action){ENGINE_ACTION_SHIP, 0,
                                                       {(int16_t)loc, 2, 0, 0}}),
                     ENGINE_ACCEPTED);
    /* The Guild's payment may be cancelled first: the Bene Gesserit let it stand. */
    if (engine_window_top(&st)->point == ENGINE_WINDOW_KARAMA)
        assert_int_equal(play(&st, ENGINE_ACTION_KARAMA_ALLOW, 1, 0, 0), ENGINE_ACCEPTED);
    const engine_frame *send = engine_window_top(&st);
    assert_non_null(send);
    assert_int_equal(send->point, ENGINE_WINDOW_BG_SEND);
    assert_int_equal(send->owner, 0);
    assert_int_equal(send->user, 1);
    assert_int_equal(st.step, SHIP_STEP_SHIP);
    assert_int_equal(engine_state_awaiting(&st), 1u << 1);
    engine_legal legal[4];
    assert_int_equal(engine_legal_actions(legal, 4, &st, 0), 0);
    assert_true(engine_legal_actions(legal, 4, &st, 1) >= 1);
    assert_int_equal(legal[0].kind, ENGINE_ACTION_BG_SEND);
    assert_int_equal(legal[0].hi[0], 1);
    engine_action pass = {ENGINE_ACTION_MOVE_PASS, 0, {0}};
    assert_told_step(&st, &pass, SHIP_STEP_BG_SEND);
    assert_int_equal(play(&st, ENGINE_ACTION_BG_SEND, 0, 1, 0), ENGINE_REJECT_NOT_AWAITED);
    assert_round_trips(&st);

    /* A question nests over it and gives it back as it was. */
    assert_int_equal(play(&st, ENGINE_ACTION_TRUTHTRANCE, 1, ENGINE_FACTION_GUILD, 0),
                     ENGINE_ACCEPTED);
    assert_int_equal(st.n_frames, 2);
    assert_int_equal(engine_window_top(&st)->point, ENGINE_WINDOW_TRUTHTRANCE);
    assert_round_trips(&st);
    assert_int_equal(play(&st, ENGINE_ACTION_TRUTHTRANCE_ANSWER, 2, 1, 0), ENGINE_ACCEPTED);
    assert_int_equal(st.n_frames, 1);
    assert_int_equal(engine_window_top(&st)->point, ENGINE_WINDOW_BG_SEND);
    assert_int_equal(engine_state_awaiting(&st), 1u << 1);

    /* The send: a Karama window over it asks the Guild, holding a Karama;
     * allowed, the force lands and the shipper moves. */
    assert_int_equal(play(&st, ENGINE_ACTION_BG_SEND, 1, 1, 0), ENGINE_ACCEPTED);
    assert_int_equal(st.n_frames, 2);
    assert_int_equal(engine_window_top(&st)->point, ENGINE_WINDOW_KARAMA);
    assert_int_equal(st.frame[0].point, ENGINE_WINDOW_BG_SEND);
    assert_int_equal(engine_state_awaiting(&st), 1u << 2);
    assert_round_trips(&st);
    /* Cancelled, nothing is sent and the shipper moves all the same. */
    static engine_state cancelled;
    cancelled = st;
    assert_int_equal(play(&cancelled, ENGINE_ACTION_KARAMA_CANCEL, 2,
                          ENGINE_ADVANTAGE_BG_POLAR_SINK_SEND, 0),
                     ENGINE_ACCEPTED);
    assert_int_equal(cancelled.n_frames, 0);
    assert_int_equal(cancelled.forces[0][1], sink);
    assert_int_equal(cancelled.step, SHIP_STEP_MOVE);
    assert_int_equal(engine_state_awaiting(&cancelled), 1u << 0);
    assert_int_equal(play(&st, ENGINE_ACTION_KARAMA_ALLOW, 2, 0, 0), ENGINE_ACCEPTED);
    assert_int_equal(st.n_frames, 0);
    assert_int_equal(st.forces[0][1], sink + 1);
    assert_int_equal(st.seat[1].reserves, reserves - 1);
    assert_int_equal(st.step, SHIP_STEP_MOVE);
    assert_int_equal(engine_state_awaiting(&st), 1u << 0);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view__counterfactual_worlds_look_the_same),
        cmocka_unit_test(test_view__own_secrets_show_others_do_not),
        cmocka_unit_test(test_view__truthtrance_is_public_and_pauses_the_step),
        cmocka_unit_test(test_view__karama_shipment_for_another_is_public),
        cmocka_unit_test(test_view__question_nests_over_a_payers_window),
        cmocka_unit_test(test_view__bg_send_is_a_window_over_the_ship_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
