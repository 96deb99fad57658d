/*
 * test_nexus_moments.c - the Nexus window of a seat's own moment (rules
 * version 8 on, engine/nexus_moment.c; docs/RULINGS.md R140-R141) and the
 * panels played there: the Fremen Secret Ally's (a) as a worm is about to
 * strike (engine/nexus_fremen.c, row 12a) and the Harkonnen Secret Ally in
 * the Mentat Pause (engine/nexus_harkonnen.c, row 15). The window asks
 * every seat whose moment it is and that holds a Nexus card, whatever it
 * holds, the same question; only the real holder is offered the panel,
 * anyone else naming it is refused; a panel played at another moment, or
 * with its faction seated, or beyond its face's limits, is refused; under
 * version 7 no window opens and the phases go on as they did. Positions
 * are constructed and folded by engine_apply, as a room would be.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/phase.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {31};

static engine_action answer(unsigned seat, int panel)
{
    engine_action a;
    memset(&a, 0, sizeof a);
    a.kind = ENGINE_ACTION_ANSWER;
    a.seat = (uint8_t)seat;
    a.arg[0] = (int16_t)engine_window_from_slug("nexus_moment");
    a.arg[1] = (int16_t)panel;
    return a;
}

/* The panels the seat is offered in the open moment window (bit per
 * panel row), 0 if it is offered no answer there; bit 0 is the pass. */
static uint64_t offered(const engine_state *st, unsigned seat)
{
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, (uint8_t)seat);
    uint64_t panels = 0;
    for (size_t i = 0; i < n; i++)
        if (legal[i].kind == ENGINE_ACTION_ANSWER &&
            legal[i].lo[0] == engine_window_from_slug("nexus_moment"))
            for (int p = legal[i].lo[1]; p <= legal[i].hi[1]; p++)
                panels |= UINT64_C(1) << p;
    return panels;
}

/* ============================================================ the worm */

/* Turn 2's worm strikes Cielago North, where seats 0 and 1 stand with 4
 * forces each and seat 2 with 2; seat 0 holds the card printed `card`,
 * seat 1 the Guild's (`card1`), seat 2 none. `quiet1`: seat 1's standing
 * policy, set before the blow. */
static void worm_position(engine_state *st, engine_rng *rng, unsigned rules_version,
                          const uint8_t factions[3], unsigned card, unsigned quiet1)
{
    test_nexus_three_seats(st, rng, SEED, rules_version, factions[0], factions[1], factions[2]);
    int north = engine_location_find(ENGINE_TERRITORY_CIELAGO_NORTH, 2);
    assert_true(north >= 0);
    assert_int_equal(engine_position_forces(st, 0, (unsigned)north, 4, 0), 0);
    assert_int_equal(engine_position_forces(st, 1, (unsigned)north, 4, 0), 0);
    assert_int_equal(engine_position_forces(st, 2, (unsigned)north, 2, 0), 0);
    assert_true(engine_position_nexus_give(st, 0, card) >= 0);
    assert_true(engine_position_nexus_give(st, 1, ENGINE_FACTION_GUILD) >= 0);
    st->nexus_quiet[1] = (uint8_t)quiet1;
    st->nexus_quiet_turn[1] = quiet1 ? 1 : 0;
    int devoured = engine_spice_card_of(ENGINE_TERRITORY_CIELAGO_NORTH);
    int placed = engine_spice_card_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
    assert_int_equal(engine_position_spice_discard(st, (unsigned)devoured), 0);
    assert_int_equal(engine_position_spice_top(st, (unsigned)placed), 0);
    assert_int_equal(engine_position_spice_top(st, (unsigned)engine_spice_worm(0)), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SPICE_BLOW, 2, 0, rng), 0);
}

static unsigned forces_in(const engine_state *st, unsigned seat, unsigned territory)
{
    unsigned n = 0;
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine_location_territory(l) == territory)
            n += st->forces[l][seat];
    return n;
}

static const uint8_t NO_FREMEN[3] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN,
                                     ENGINE_FACTION_EMPEROR};

/* Row 12a: the window asks seats 0 and 1 (holders standing where the worm
 * strikes), not seat 2 (no card); both get the pass, only seat 0 the
 * panel; seat 1 naming it is refused as not held; seat 0's play keeps its
 * forces from this worm, spends the card, and the blow goes on to the
 * Nexus once seat 1 has answered; the others are devoured. */
static void test_nexus_moments__worm_spares_the_holder(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    worm_position(&st, &rng, ENGINE_RULES_VERSION, NO_FREMEN, ENGINE_FACTION_FREMEN, 0);
    const engine_frame *f = engine_nexus_moment_window(&st);
    assert_non_null(f);
    assert_int_equal(f->asked, ENGINE_SEAT_BIT(0) | ENGINE_SEAT_BIT(1));
    assert_int_equal(f->held.arg[0], ENGINE_NEXUS_AT_WORM);
    assert_int_equal(f->held.arg[1], ENGINE_TERRITORY_CIELAGO_NORTH);
    assert_int_equal(offered(&st, 0), (UINT64_C(1) << 0) | (UINT64_C(1) << 12));
    assert_int_equal(offered(&st, 1), UINT64_C(1) << 0);
    assert_int_equal(offered(&st, 2), 0);
    engine_action a = answer(1, 12);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_CARD_NOT_HELD);
    a = answer(0, 9); /* a panel of another card */
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_CARD_NOT_HELD);
    a = answer(0, 12);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_nexus_held(&st, 0), -1);
    assert_non_null(engine_nexus_moment_window(&st)); /* seat 1 still asked */
    assert_int_equal(engine_state_check(&st), 0);
    a = answer(1, 0);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&st));
    assert_int_equal(st.step, BLOW_STEP_NEXUS);
    assert_int_equal(forces_in(&st, 0, ENGINE_TERRITORY_CIELAGO_NORTH), 4);
    assert_int_equal(forces_in(&st, 1, ENGINE_TERRITORY_CIELAGO_NORTH), 0);
    assert_int_equal(forces_in(&st, 2, ENGINE_TERRITORY_CIELAGO_NORTH), 0);
    assert_null(engine_effect_find(&st, ENGINE_EFFECT_NEXUS_SPARED)); /* used up */
    assert_int_equal(engine_state_check(&st), 0);
}

/* A pass by the holder, or a holder quiet at the worm, and every force is
 * devoured; seat 1 quiet is not asked. */
static void test_nexus_moments__worm_pass_and_quiet(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    worm_position(&st, &rng, ENGINE_RULES_VERSION, NO_FREMEN, ENGINE_FACTION_FREMEN,
                  1u << ENGINE_NEXUS_AT_WORM);
    const engine_frame *f = engine_nexus_moment_window(&st);
    assert_non_null(f);
    assert_int_equal(f->asked, ENGINE_SEAT_BIT(0));
    engine_action a = answer(0, 0);
    assert_int_equal(engine_apply(NULL, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&st));
    assert_int_equal(engine_nexus_held(&st, 0) >= 0, 1);
    for (unsigned s = 0; s < 3; s++)
        assert_int_equal(forces_in(&st, s, ENGINE_TERRITORY_CIELAGO_NORTH), 0);
}

/* The Fremen seated: their card is a Betrayal or their own Cunning for
 * every seat, so no Secret Ally exists and no window opens; under rules
 * version 7 none opens either. Both devour every force. */
static void test_nexus_moments__worm_no_window(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    static const uint8_t with_fremen[3] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN,
                                           ENGINE_FACTION_FREMEN};
    worm_position(&st, &rng, ENGINE_RULES_VERSION, with_fremen, ENGINE_FACTION_FREMEN, 0);
    assert_null(engine_window_top(&st));
    assert_int_equal(forces_in(&st, 0, ENGINE_TERRITORY_CIELAGO_NORTH), 0);
    assert_int_equal(forces_in(&st, 1, ENGINE_TERRITORY_CIELAGO_NORTH), 0);
    worm_position(&st, &rng, 7, NO_FREMEN, ENGINE_FACTION_FREMEN, 0);
    assert_null(engine_window_top(&st));
    assert_int_equal(forces_in(&st, 0, ENGINE_TERRITORY_CIELAGO_NORTH), 0);
    assert_int_equal(st.step, BLOW_STEP_NEXUS);
}

/* The window asks whatever the seats hold: with the Emperor's card at seat
 * 0 the same two seats are asked, offered the pass alone, and 12 is
 * refused to both. */
static void test_nexus_moments__worm_asks_whatever_held(void **state)
{
    (void)state;
    engine_state st, other;
    engine_rng rng;
    worm_position(&st, &rng, ENGINE_RULES_VERSION, NO_FREMEN, ENGINE_FACTION_FREMEN, 0);
    worm_position(&other, &rng, ENGINE_RULES_VERSION, NO_FREMEN, ENGINE_FACTION_EMPEROR, 0);
    const engine_frame *f = engine_nexus_moment_window(&st);
    const engine_frame *g = engine_nexus_moment_window(&other);
    assert_non_null(f);
    assert_non_null(g);
    assert_int_equal(f->asked, g->asked);
    assert_memory_equal(&f->held, &g->held, sizeof f->held);
    assert_int_equal(offered(&other, 0), UINT64_C(1) << 0);
    engine_verdict_detail why;
    engine_action a = answer(0, 12);
    assert_int_equal(test_try(&why, &other, &a, &rng), ENGINE_REJECT_CARD_NOT_HELD);
    /* the public view of each is the same window */
    engine_state v1, v2;
    engine_view(&v1, &st, ENGINE_VIEW_PUBLIC);
    engine_view(&v2, &other, ENGINE_VIEW_PUBLIC);
    assert_int_equal(v1.frame[v1.n_frames - 1].asked, v2.frame[v2.n_frames - 1].asked);
}

/* ================================================== the Mentat Pause */

/* Turn 2's Mentat Pause with the Harkonnen absent: seat 0 holds the card
 * printed `card`, seat 1 the Guild's, seat 2 none. */
static void pause_position(engine_state *st, engine_rng *rng, unsigned rules_version,
                           const uint8_t factions[3], unsigned card)
{
    test_nexus_three_seats(st, rng, SEED, rules_version, factions[0], factions[1], factions[2]);
    assert_true(engine_position_nexus_give(st, 0, card) >= 0);
    assert_true(engine_position_nexus_give(st, 1, ENGINE_FACTION_GUILD) >= 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_MENTAT_PAUSE, 2, 0, rng), 0);
}

static const uint8_t NO_HARKONNEN[3] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_FREMEN,
                                        ENGINE_FACTION_EMPEROR};

static unsigned traitors_of(const engine_state *st, unsigned seat)
{
    unsigned n = 0;
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        n += st->traitor[l].place == ENGINE_PLACE_HAND && st->traitor[l].holder == seat;
    return n;
}

/* Row 15: both holders asked, only seat 0 offered 15; its play draws two
 * traitors at once (the card shown, two owed back); on seat 1's pass the
 * window closes and the Mentat Pause waits on seat 0's returns alone,
 * every family it is offered one; the second spends the card and the
 * storm begins. */
static void test_nexus_moments__mentat_pause_two_traitors(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    pause_position(&st, &rng, ENGINE_RULES_VERSION, NO_HARKONNEN, ENGINE_FACTION_HARKONNEN);
    const engine_frame *f = engine_nexus_moment_window(&st);
    assert_non_null(f);
    assert_int_equal(f->asked, ENGINE_SEAT_BIT(0) | ENGINE_SEAT_BIT(1));
    assert_int_equal(f->held.arg[0], ENGINE_NEXUS_AT_MENTAT_PAUSE);
    assert_int_equal(offered(&st, 0), (UINT64_C(1) << 0) | (UINT64_C(1) << 15));
    assert_int_equal(offered(&st, 1), UINT64_C(1) << 0);
    engine_action a = answer(1, 15);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_CARD_NOT_HELD);
    unsigned before = traitors_of(&st, 0), deck = st.n_traitor_deck;
    a = answer(0, 15);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(traitors_of(&st, 0), before + 2);
    assert_int_equal(st.n_traitor_deck, deck - 2);
    assert_int_equal(engine__nexus_owed(&st, 0), 2);
    assert_true(engine_nexus_held(&st, 0) >= 0); /* shown, spent by the returns */
    a = answer(1, 0);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    /* the Mentat Pause waits on seat 0 alone, offered its returns only */
    assert_null(engine_window_top(&st));
    assert_int_equal(st.phase, ENGINE_PHASE_MENTAT_PAUSE);
    assert_int_equal(engine_state_awaiting(&st), ENGINE_SEAT_BIT(0));
    assert_int_equal(engine_state_check(&st), 0);
    engine_action quiet;
    memset(&quiet, 0, sizeof quiet);
    quiet.kind = ENGINE_ACTION_POWER;
    quiet.seat = 1;
    quiet.arg[0] = (int16_t)engine_power_from_slug("nexus_policy");
    assert_int_equal(test_try(&why, &st, &quiet, &rng), ENGINE_REJECT_NOT_AWAITED);
    quiet.seat = 0;
    assert_int_equal(test_try(&why, &st, &quiet, &rng), ENGINE_REJECT_NEXUS_RETURN_OWED);
    for (unsigned k = 0; k < 2; k++) {
        assert_int_equal(st.phase, ENGINE_PHASE_MENTAT_PAUSE);
        static engine_legal legal[ENGINE_LEGAL_MAX];
        size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, &st, 0);
        int id = engine_power_from_slug("nexus_traitor_return");
        size_t i = 0;
        while (i < n && !(legal[i].kind == ENGINE_ACTION_POWER && legal[i].lo[0] == id))
            i++;
        assert_true(i < n);
        engine_action r;
        memset(&r, 0, sizeof r);
        r.kind = ENGINE_ACTION_POWER;
        r.seat = 0;
        r.arg[0] = (int16_t)id;
        r.arg[1] = legal[i].lo[1];
        assert_int_equal(engine_apply(&why, &st, &r, &rng), ENGINE_ACCEPTED);
    }
    assert_int_equal(st.phase, ENGINE_PHASE_STORM);
    assert_int_equal(st.turn, 3);
    assert_int_equal(traitors_of(&st, 0), before);
    assert_int_equal(st.n_traitor_deck, deck);
    assert_int_equal(engine_nexus_held(&st, 0), -1);
    assert_int_equal(engine_state_check(&st), 0);
}

/* The face's limits and moments: fewer than two traitors in the deck, 15
 * is not offered and refused; 12 at the Mentat Pause (the Fremen card
 * there, the Fremen seated: no Secret Ally, so it is not asked; Fremen
 * absent: asked, 12 refused as not played at this moment); the Harkonnen
 * seated, no window; version 7, none. */
static void test_nexus_moments__mentat_pause_refusals(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    pause_position(&st, &rng, ENGINE_RULES_VERSION, NO_HARKONNEN, ENGINE_FACTION_HARKONNEN);
    st.n_traitor_deck = 1; /* as if the rest were dealt */
    assert_int_equal(offered(&st, 0), UINT64_C(1) << 0);
    engine_action a = answer(0, 15);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NO_CARD);
    static const uint8_t no_fremen[3] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_GUILD,
                                         ENGINE_FACTION_EMPEROR};
    pause_position(&st, &rng, ENGINE_RULES_VERSION, no_fremen, ENGINE_FACTION_FREMEN);
    assert_non_null(engine_nexus_moment_window(&st)); /* the Harkonnen absent too */
    a = answer(0, 12);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    static const uint8_t with_harkonnen[3] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN,
                                              ENGINE_FACTION_EMPEROR};
    pause_position(&st, &rng, ENGINE_RULES_VERSION, with_harkonnen, ENGINE_FACTION_HARKONNEN);
    assert_null(engine_window_top(&st));
    assert_int_equal(st.phase, ENGINE_PHASE_STORM);
    pause_position(&st, &rng, 7, NO_HARKONNEN, ENGINE_FACTION_HARKONNEN);
    assert_null(engine_window_top(&st));
    assert_int_equal(st.phase, ENGINE_PHASE_STORM);
    /* as a power of its own: refused naming its row under version 7; from
     * version 8 it is played at its moment only */
    engine_action p;
    memset(&p, 0, sizeof p);
    p.kind = ENGINE_ACTION_POWER;
    p.arg[0] = (int16_t)engine_power_from_slug("nexus_harkonnen_secret_ally");
    p.seat = 0;
    while (!(engine_state_awaiting(&st) & ENGINE_SEAT_BIT(p.seat)))
        p.seat++;
    pause_position(&st, &rng, 7, NO_HARKONNEN, ENGINE_FACTION_HARKONNEN);
    engine_position_nexus_give(&st, p.seat, ENGINE_FACTION_HARKONNEN);
    assert_int_equal(test_try(&why, &st, &p, &rng), ENGINE_REJECT_RULE_NOT_IMPLEMENTED);
    assert_int_equal(why.value, 15);
}

/* ========================================================= the lots */

/* Turn 2's Bidding with 10 spice each: seat `holder` holds the card
 * printed `card`; `ally`: seats 0 and 1 are allies, seat 1 allowing 4.
 * Seat 0 bids 3 on the first lot, everyone else passes: the lot is won. */
static void lot_position(engine_state *st, engine_rng *rng, unsigned rules_version,
                         const uint8_t factions[3], unsigned holder, unsigned card, int ally)
{
    test_nexus_three_seats(st, rng, SEED, rules_version, factions[0], factions[1], factions[2]);
    for (unsigned s = 0; s < 3; s++)
        assert_int_equal(engine_position_seat_spice(st, (uint8_t)s, 10), 0);
    assert_true(engine_position_nexus_give(st, (uint8_t)holder, card) >= 0);
    if (ally)
        assert_int_equal(engine_position_alliance(st, 0, 1), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BIDDING, 2, 0, rng), 0);
    if (ally) {
        engine_action support = {.kind = ENGINE_ACTION_ALLY_SUPPORT, .seat = 1, .arg = {4}};
        if (engine_state_awaiting(st) & ENGINE_SEAT_BIT(1))
            assert_int_equal(engine_apply(NULL, st, &support, rng), ENGINE_ACCEPTED);
        for (uint8_t s = 0; s < 3; s++) {
            engine_action none = {.kind = ENGINE_ACTION_ALLY_SUPPORT, .seat = s};
            if (engine_state_awaiting(st) & ENGINE_SEAT_BIT(s))
                (void)engine_apply(NULL, st, &none, rng);
        }
    }
    for (int guard = 0; guard < 10 && st->high_bidder != 0; guard++) {
        uint8_t s = 0;
        while (!(engine_state_awaiting(st) & ENGINE_SEAT_BIT(s)))
            s++;
        engine_action a = {.kind = s == 0 ? ENGINE_ACTION_BID : ENGINE_ACTION_BID_PASS, .seat = s};
        a.arg[0] = s == 0 ? 3 : 0;
        assert_int_equal(engine_apply(NULL, st, &a, rng), ENGINE_ACCEPTED);
    }
    assert_int_equal(st->high_bidder, 0);
    for (int guard = 0; guard < 3 && engine_window_top(st) == NULL &&
                        st->auction_index == 0; guard++) {
        uint8_t s = 0;
        while (!(engine_state_awaiting(st) & ENGINE_SEAT_BIT(s)))
            s++;
        engine_action pass = {.kind = ENGINE_ACTION_BID_PASS, .seat = s};
        assert_int_equal(engine_apply(NULL, st, &pass, rng), ENGINE_ACCEPTED);
    }
}

static const uint8_t NO_EMPEROR[3] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN,
                                      ENGINE_FACTION_FREMEN};
static const uint8_t EMPEROR_AT_1[3] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_EMPEROR,
                                        ENGINE_FACTION_FREMEN};

/* Row 9a: the buyer (seat 0, the Emperor absent) alone is asked; played,
 * the card is its and nobody pays; passed, it pays 3 to the bank. Another
 * seat naming 9 is refused. */
static void test_nexus_moments__lot_won_keeps_the_spice(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    lot_position(&st, &rng, ENGINE_RULES_VERSION, NO_EMPEROR, 0, ENGINE_FACTION_EMPEROR, 0);
    const engine_frame *f = engine_nexus_moment_window(&st);
    assert_non_null(f);
    assert_int_equal(f->asked, ENGINE_SEAT_BIT(0));
    assert_int_equal(f->held.arg[0], ENGINE_NEXUS_AT_LOT_WON);
    assert_int_equal(offered(&st, 0), (UINT64_C(1) << 0) | (UINT64_C(1) << 9));
    engine_state passed = st;
    unsigned burned = st.spice_burned;
    engine_action a = answer(0, 9);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&st));
    assert_int_equal(engine_nexus_held(&st, 0), -1);
    assert_int_equal(st.seat[0].spice, 10);
    assert_int_equal(st.spice_burned, burned);
    assert_int_equal(st.auction_index, 1);
    assert_int_equal(engine_state_check(&st), 0);
    a = answer(0, 0);
    assert_int_equal(engine_apply(&why, &passed, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(passed.seat[0].spice, 7);
    assert_int_equal(passed.spice_burned, burned + 3);
    assert_true(engine_nexus_held(&passed, 0) >= 0);
    /* held by another seat: the buyer holding none is not asked */
    lot_position(&st, &rng, ENGINE_RULES_VERSION, NO_EMPEROR, 1, ENGINE_FACTION_EMPEROR, 0);
    assert_null(engine_nexus_moment_window(&st));
    /* the Emperor seated: no Secret Ally, no window (seat 0 is not his ally) */
    lot_position(&st, &rng, ENGINE_RULES_VERSION, EMPEROR_AT_1, 0, ENGINE_FACTION_EMPEROR, 0);
    assert_null(engine_nexus_moment_window(&st));
    /* version 7: none */
    lot_position(&st, &rng, 7, NO_EMPEROR, 0, ENGINE_FACTION_EMPEROR, 0);
    assert_null(engine_nexus_moment_window(&st));
}

/* Row 7a: the Emperor (seat 1) allied with seat 0, which wins the lot for
 * 3; seat 2 holds the Emperor card (a Betrayal for it). Every seat but the
 * Emperor that holds a card is asked; seat 2 plays 7: the Emperor pays the
 * 3 to the bank, seat 0 keeps its 10. With the Emperor short (1 spice),
 * he pays 1 and the ally the 2 it lacks. */
static void test_nexus_moments__ally_purchase_emperor_pays(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    for (int short_of = 0; short_of < 2; short_of++) {
        lot_position(&st, &rng, ENGINE_RULES_VERSION, EMPEROR_AT_1, 2, ENGINE_FACTION_EMPEROR, 1);
        const engine_frame *f = engine_nexus_moment_window(&st);
        assert_non_null(f);
        assert_int_equal(f->held.arg[0], ENGINE_NEXUS_AT_ALLY_PURCHASE);
        assert_int_equal(f->asked, ENGINE_SEAT_BIT(2));
        if (short_of)
            assert_int_equal(engine_position_seat_spice(&st, 1, 1), 0);
        unsigned burned = st.spice_burned;
        engine_action a = answer(2, 7);
        assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
        assert_null(engine_window_top(&st));
        assert_int_equal(st.seat[1].spice, 0u + (short_of ? 0 : 7));
        assert_int_equal(st.seat[0].spice, 0u + (short_of ? 8 : 10));
        assert_int_equal(st.seat[2].spice, 10);
        assert_int_equal(st.spice_burned, burned + 3);
        assert_int_equal(engine_state_check(&st), 0);
    }
    /* passed: the ally pays the Emperor as ever */
    lot_position(&st, &rng, ENGINE_RULES_VERSION, EMPEROR_AT_1, 2, ENGINE_FACTION_EMPEROR, 1);
    engine_action a = answer(2, 0);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[0].spice, 7);
    assert_int_equal(st.seat[1].spice, 13);
    /* the Emperor holding his own card (Cunning) is never asked; seat 2
     * holding another card is asked and may only pass */
    lot_position(&st, &rng, ENGINE_RULES_VERSION, EMPEROR_AT_1, 2, ENGINE_FACTION_GUILD, 1);
    assert_non_null(engine_nexus_moment_window(&st));
    assert_int_equal(offered(&st, 2), UINT64_C(1) << 0);
    a = answer(2, 7);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_CARD_NOT_HELD);
    lot_position(&st, &rng, ENGINE_RULES_VERSION, EMPEROR_AT_1, 1, ENGINE_FACTION_EMPEROR, 1);
    assert_null(engine_nexus_moment_window(&st));
}

/* The standing policy: version 7 names the neutral window's points only;
 * version 8 the moments too. */
static void test_nexus_moments__policy_points(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    for (unsigned v = 7; v <= ENGINE_RULES_VERSION; v++) {
        test_nexus_three_seats(&st, &rng, SEED, v, ENGINE_FACTION_ATREIDES,
                               ENGINE_FACTION_FREMEN, ENGINE_FACTION_EMPEROR);
        assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_CHOAM_CHARITY, 2, 0, &rng), 0);
        engine_action p;
        memset(&p, 0, sizeof p);
        p.kind = ENGINE_ACTION_POWER;
        p.seat = 0;
        p.arg[0] = (int16_t)engine_power_from_slug("nexus_policy");
        p.arg[1] = (int16_t)(1u << ENGINE_NEXUS_AT_WORM);
        assert_int_equal(test_try(&why, &st, &p, &rng),
                         v >= 8 ? ENGINE_ACCEPTED : ENGINE_REJECT_ARG_OUT_OF_RANGE);
        assert_int_equal(engine_nexus_points(&st),
                         v >= 8 ? ENGINE_NEXUS_POINTS_ALL : ENGINE_NEXUS_POINTS_V7);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nexus_moments__worm_spares_the_holder),
        cmocka_unit_test(test_nexus_moments__worm_pass_and_quiet),
        cmocka_unit_test(test_nexus_moments__worm_no_window),
        cmocka_unit_test(test_nexus_moments__worm_asks_whatever_held),
        cmocka_unit_test(test_nexus_moments__mentat_pause_two_traitors),
        cmocka_unit_test(test_nexus_moments__mentat_pause_refusals),
        cmocka_unit_test(test_nexus_moments__lot_won_keeps_the_spice),
        cmocka_unit_test(test_nexus_moments__ally_purchase_emperor_pays),
        cmocka_unit_test(test_nexus_moments__policy_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
