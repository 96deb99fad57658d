/*
 * test_nexus_card_windows.c - the Nexus panels played in a card's own
 * window, built from rules version 8 (engine/nexus_bene_gesserit.c row 6,
 * engine/nexus_choam.c row 27 (a); docs/RULINGS.md R150, R151): under
 * version 7 nothing opens and the panel is refused naming its row, so the
 * stored rooms re-fold unchanged; under version 8 the
 * Bene Gesserit Secret Ally's window opens before the plans and the
 * prescience, asks each side holding a Nexus card the same question
 * whatever it holds, lets the holder alone Voice its opponent, binds the
 * opponent's plan and survives the encoding; it opens in no battle where
 * the Bene Gesserit are seated or no side holds a card; as Spice
 * Collection ends the CHOAM Secret Ally's window asks the seats holding a
 * Nexus card and a treachery card, and lets the holder alone trade a
 * worthless card of its own for 2 spice; after a battle won it lets the
 * holder alone see one card of the loser's hand, which the audit's rules
 * of knowledge (inspect/audit_marks.c) accept. Positions are
 * constructed and folded by engine_apply, as a room would be.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/phase.h"
#include "inspect/internal.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {31};

/* Turn 3's battle in The Great Flat: seat 0 (`first`) against the
 * Harkonnen (seat 1, with a Chaumas and a Snooper), seat 2 (`third`) looks
 * on. Seat 0 holds the Nexus card printed for `card0`, seat 1 that for
 * `card1` (ENGINE_FACTION_COUNT: none). */
static void battle(engine_state *st, engine_rng *rng, unsigned rules_version, unsigned first,
                   unsigned third, unsigned card0, unsigned card1, int *chaumas)
{
    assert_int_equal(test_nexus_room(st, rng, SEED, rules_version, first, ENGINE_FACTION_HARKONNEN,
                                     third),
                     ENGINE_ACCEPTED);
    int flat = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_true(flat >= 0);
    assert_int_equal(engine_position_forces(st, 0, (unsigned)flat, 5, 0), 0);
    assert_int_equal(engine_position_forces(st, 1, (unsigned)flat, 5, 0), 0);
    *chaumas = engine_position_give_card(st, 1, ENGINE_CARD_CHAUMAS);
    assert_true(*chaumas >= 0 && engine_position_give_card(st, 1, ENGINE_CARD_SNOOPER) >= 0);
    if (card0 < ENGINE_FACTION_COUNT)
        assert_true(engine_position_nexus_give(st, 0, card0) >= 0);
    if (card1 < ENGINE_FACTION_COUNT)
        assert_true(engine_position_nexus_give(st, 1, card1) >= 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 3, 0, rng), 0);
}

static engine_action answer(unsigned seat, const char *slug, int a1, int a2)
{
    return test_generic(ENGINE_ACTION_ANSWER, seat, engine_window_from_slug(slug), a1, a2);
}

/* The open window if it is the generic one `slug`, else NULL. */
static const engine_frame *window(const engine_state *st, const char *slug)
{
    const engine_frame *f = engine_window_top(st);
    return f && f->point == ENGINE_WINDOW_GENERIC &&
                   f->window == (uint16_t)engine_window_from_slug(slug)
               ? f
               : NULL;
}

/* How many families of the open window `seat` is offered. */
static size_t answers_offered(const engine_state *st, unsigned seat)
{
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, (uint8_t)seat), k = 0;
    for (size_t i = 0; i < n; i++)
        k += legal[i].kind == ENGINE_ACTION_ANSWER;
    return k;
}

/* Row 6 under version 7: no window; the card's panel refused naming its row. */
static void test_nexus_card_windows__voice_not_under_version_7(void **state)
{
    (void)state;
    static engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    int chaumas;
    battle(&st, &rng, 7, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_EMPEROR,
           ENGINE_FACTION_BENE_GESSERIT, ENGINE_FACTION_FREMEN, &chaumas);
    assert_null(window(&st, "nexus_voice"));
    assert_non_null(engine_window_find(&st, ENGINE_WINDOW_PRESCIENCE));
    engine_action p = test_generic(ENGINE_ACTION_POWER, 0,
                                   engine_power_from_slug("nexus_bene_gesserit_secret_ally"), 0, 0);
    assert_int_equal(test_try(&why, &st, &p, &rng), ENGINE_REJECT_RULE_NOT_IMPLEMENTED);
    assert_int_equal(why.value, 6);
}

/* Row 6 under version 8: both sides hold a card and both are asked; the
 * Harkonnen's Voice is refused (not held), the Atreides' binds the
 * Harkonnen, spends the card and survives the encoding; the prescience
 * comes after; a poison weapon is then refused to the Harkonnen plan. */
static void test_nexus_card_windows__voice(void **state)
{
    (void)state;
    static engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    int chaumas;
    battle(&st, &rng, 8, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_EMPEROR,
           ENGINE_FACTION_BENE_GESSERIT, ENGINE_FACTION_FREMEN, &chaumas);
    const engine_frame *f = window(&st, "nexus_voice");
    assert_non_null(f);
    assert_int_equal(f->asked, ENGINE_SEAT_BIT(0) | ENGINE_SEAT_BIT(1));
    assert_null(engine_window_find(&st, ENGINE_WINDOW_PRESCIENCE)); /* before the prescience */
    assert_int_equal(answers_offered(&st, 0), 2); /* pass; the Voice */
    assert_int_equal(answers_offered(&st, 1), 1); /* pass */
    int card = engine_nexus_held(&st, 0);
    assert_true(card >= 0);
    engine_action a = answer(1, "nexus_voice", 0, ENGINE_VOICE_POISON_WEAPON);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_CARD_NOT_HELD);
    a = answer(0, "nexus_voice", 1, ENGINE_VOICE_NONE); /* a pass names no command */
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    a = answer(0, "nexus_voice", 0, ENGINE_VOICE_POISON_WEAPON);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_nexus_held(&st, 0), -1);
    assert_int_equal(st.nexus_card[card].place, ENGINE_PLACE_DISCARD);
    assert_true(st.nexus_card[card].known_by & ENGINE_KNOWN_PUBLIC);
    const engine_effect *e = engine_effect_find(&st, ENGINE_EFFECT_NEXUS_VOICE);
    assert_non_null(e);
    assert_int_equal(e->owner, 1);
    assert_int_equal(e->value, ENGINE_VOICE_POISON_WEAPON);
    assert_int_equal(e->arg, 0);
    assert_int_equal(engine_battle_voice(&st), ENGINE_VOICE_POISON_WEAPON);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(test_state_round_trip(&st), 0);
    a = answer(0, "nexus_voice", 0, ENGINE_VOICE_PROJECTILE_WEAPON);
    assert_int_not_equal(test_try(&why, &st, &a, &rng), ENGINE_ACCEPTED); /* one answer */
    a = answer(1, "nexus_voice", 0, ENGINE_VOICE_NONE);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_null(window(&st, "nexus_voice"));
    assert_non_null(engine_window_find(&st, ENGINE_WINDOW_PRESCIENCE));
    engine_action pass = {.kind = ENGINE_ACTION_PRESCIENCE_PASS, .seat = 0};
    assert_int_equal(engine_apply(&why, &st, &pass, &rng), ENGINE_ACCEPTED);
    engine_action plan = {.kind = ENGINE_ACTION_BATTLE_PLAN, .seat = 1};
    plan.arg[0] = (int16_t)engine_leader_from_slug("feyd_rautha");
    plan.arg[1] = -1;
    plan.arg[2] = (int16_t)chaumas;
    plan.arg[3] = -1;
    plan.arg[4] = 2;
    assert_int_equal(test_try(&why, &st, &plan, &rng), ENGINE_REJECT_VOICE_DISOBEYED);
    plan.arg[2] = -1;
    assert_int_equal(engine_apply(&why, &st, &plan, &rng), ENGINE_ACCEPTED);
}

/* Who is asked follows from public facts: a side holding another card is
 * asked as the holder is; a side holding none is not; no side holding
 * one, or the Bene Gesserit seated (their card a Betrayal), opens none. */
static void test_nexus_card_windows__voice_asks_neutrally(void **state)
{
    (void)state;
    static engine_state st;
    engine_rng rng;
    int chaumas;
    battle(&st, &rng, 8, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_EMPEROR, ENGINE_FACTION_FREMEN,
           ENGINE_FACTION_COUNT, &chaumas);
    const engine_frame *f = window(&st, "nexus_voice");
    assert_non_null(f);
    assert_int_equal(f->asked, ENGINE_SEAT_BIT(0));
    assert_int_equal(answers_offered(&st, 0), 1); /* pass only: not the holder */
    engine_verdict_detail why;
    engine_action a = answer(0, "nexus_voice", 1, ENGINE_VOICE_LASGUN);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_CARD_NOT_HELD);
    a = answer(0, "nexus_voice", 0, ENGINE_VOICE_NONE);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_non_null(engine_window_find(&st, ENGINE_WINDOW_PRESCIENCE));
    assert_null(engine_effect_find(&st, ENGINE_EFFECT_NEXUS_VOICE));
    battle(&st, &rng, 8, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_EMPEROR, ENGINE_FACTION_COUNT,
           ENGINE_FACTION_COUNT, &chaumas);
    assert_null(window(&st, "nexus_voice"));
    assert_non_null(engine_window_find(&st, ENGINE_WINDOW_PRESCIENCE));
    battle(&st, &rng, 8, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_BENE_GESSERIT,
           ENGINE_FACTION_BENE_GESSERIT, ENGINE_FACTION_FREMEN, &chaumas);
    assert_null(window(&st, "nexus_voice"));
}

/* Spice Collection of turn 2 (rules `rules_version`): the Atreides (seat 0)
 * hold the CHOAM card, a Baliset and a Crysknife; the Harkonnen (seat 1)
 * the Fremen card and a Chaumas; the Emperor (seat 2) the Guild card and
 * no treachery card. */
static void collection(engine_state *st, engine_rng *rng, unsigned rules_version, int *baliset,
                       int *crysknife, int *chaumas)
{
    assert_int_equal(test_nexus_room(st, rng, SEED, rules_version, ENGINE_FACTION_ATREIDES,
                                     ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_EMPEROR),
                     ENGINE_ACCEPTED);
    *baliset = engine_position_give_card(st, 0, ENGINE_CARD_BALISET);
    *crysknife = engine_position_give_card(st, 0, ENGINE_CARD_CRYSKNIFE);
    *chaumas = engine_position_give_card(st, 1, ENGINE_CARD_CHAUMAS);
    assert_true(*baliset >= 0 && *crysknife >= 0 && *chaumas >= 0);
    assert_true(engine_position_nexus_give(st, 0, ENGINE_FACTION_CHOAM) >= 0);
    assert_true(engine_position_nexus_give(st, 1, ENGINE_FACTION_FREMEN) >= 0);
    assert_true(engine_position_nexus_give(st, 2, ENGINE_FACTION_GUILD) >= 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SPICE_COLLECTION, 2, 0, rng), 0);
}

/* Row 27 (a) under version 7: no window, the phase goes on. */
static void test_nexus_card_windows__worthless_not_under_version_7(void **state)
{
    (void)state;
    static engine_state st;
    engine_rng rng;
    int baliset, crysknife, chaumas;
    collection(&st, &rng, 7, &baliset, &crysknife, &chaumas);
    assert_null(window(&st, "nexus_worthless"));
    assert_int_not_equal(st.phase, ENGINE_PHASE_SPICE_COLLECTION);
}

/* Row 27 (a) under version 8: the seats holding a Nexus card and a
 * treachery card are asked, the Emperor (no treachery card) is not; only
 * the holder may discard, and only a worthless card of its own; it gains
 * 2 spice from the bank, the Baliset and the card discarded; the last
 * answer ends the phase. */
static void test_nexus_card_windows__worthless(void **state)
{
    (void)state;
    static engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    int baliset, crysknife, chaumas;
    collection(&st, &rng, 8, &baliset, &crysknife, &chaumas);
    const engine_frame *f = window(&st, "nexus_worthless");
    assert_non_null(f);
    assert_int_equal(st.phase, ENGINE_PHASE_SPICE_COLLECTION);
    assert_int_equal(f->asked, ENGINE_SEAT_BIT(0) | ENGINE_SEAT_BIT(1));
    assert_int_equal(answers_offered(&st, 0), 2); /* pass; the Baliset */
    assert_int_equal(answers_offered(&st, 1), 1); /* pass */
    assert_int_equal(test_state_round_trip(&st), 0);
    int card = engine_nexus_held(&st, 0);
    unsigned spice = st.seat[0].spice, minted = st.spice_minted;
    engine_action a = answer(1, "nexus_worthless", chaumas, 0);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_CARD_NOT_HELD);
    a = answer(0, "nexus_worthless", crysknife, 0); /* not worthless */
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    a = answer(0, "nexus_worthless", chaumas, 0); /* not its own */
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    a = answer(0, "nexus_worthless", baliset, 0);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[0].spice, spice + 2);
    assert_int_equal(st.spice_minted, minted + 2);
    assert_int_equal(st.card[baliset].place, ENGINE_PLACE_DISCARD);
    assert_int_equal(st.card[crysknife].place, ENGINE_PLACE_HAND);
    assert_int_equal(engine_nexus_held(&st, 0), -1);
    assert_int_equal(st.nexus_card[card].place, ENGINE_PLACE_DISCARD);
    assert_int_equal(engine_state_check(&st), 0);
    a = answer(1, "nexus_worthless", -1, 0);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_null(window(&st, "nexus_worthless"));
    assert_int_not_equal(st.phase, ENGINE_PHASE_SPICE_COLLECTION);
    assert_int_equal(engine_state_check(&st), 0);
}

/* Bidding of turn 2 (rules `rules_version`): the Emperor (seat 0), the
 * Harkonnen (seat 1, holding the Nexus card printed for `card1`), the
 * Guild (seat 2, holding the Guild card); a Baliset the first card up.
 * The Emperor bid 1, the Harkonnen 2, the Guild and the Emperor pass:
 * the Harkonnen buy it, and draw their free card, the Snooper the deck
 * then shows; a Shield lies under it. */
static void purchase(engine_state *st, engine_rng *rng, unsigned rules_version, unsigned card1,
                     int *baliset, int *snooper, int *shield)
{
    assert_int_equal(test_nexus_room(st, rng, SEED, rules_version, ENGINE_FACTION_EMPEROR,
                                     ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_GUILD),
                     ENGINE_ACCEPTED);
    for (unsigned s = 0; s < 3; s++)
        assert_int_equal(engine_position_seat_spice(st, (uint8_t)s, 10), 0);
    assert_true(engine_position_nexus_give(st, 1, card1) >= 0);
    assert_true(engine_position_nexus_give(st, 2, ENGINE_FACTION_GUILD) >= 0);
    *baliset = engine_position_deck_top(st, ENGINE_CARD_BALISET);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BIDDING, 2, 0, rng), 0);
    assert_int_equal(st->auction[0], *baliset);
    *shield = engine_position_deck_top(st, ENGINE_CARD_SHIELD);
    *snooper = engine_position_deck_top(st, ENGINE_CARD_SNOOPER);
    static const struct {
        unsigned kind, seat;
        int amount;
    } bids[] = {{ENGINE_ACTION_BID, 0, 1}, {ENGINE_ACTION_BID, 1, 2},
                {ENGINE_ACTION_BID_PASS, 2, 0}, {ENGINE_ACTION_BID_PASS, 0, 0}};
    for (size_t i = 0; i < sizeof bids / sizeof bids[0]; i++) {
        engine_action a = test_generic(bids[i].kind, bids[i].seat, bids[i].amount, 0, 0);
        assert_int_equal(engine_apply(NULL, st, &a, rng), ENGINE_ACCEPTED);
    }
    assert_int_equal(st->card[*baliset].place, ENGINE_PLACE_HAND);
    assert_int_equal(st->card[*baliset].holder, 1);
    assert_int_equal(st->card[*snooper].holder, 1); /* the Harkonnen's free card */
}

/* Row 21 under version 7: no window; the next card comes up at once. */
static void test_nexus_card_windows__replace_not_under_version_7(void **state)
{
    (void)state;
    static engine_state st;
    engine_rng rng;
    int baliset, snooper, shield;
    purchase(&st, &rng, 7, ENGINE_FACTION_IXIANS, &baliset, &snooper, &shield);
    assert_null(window(&st, "nexus_replace"));
    assert_int_equal(st.auction_index, 1);
}

/* Row 21 under version 8: the buyer alone is asked, after its free card;
 * the card bought goes to the discard face up, the deck top comes to the
 * hand seen by the buyer alone; nothing is refunded, no second free card;
 * the next card comes up. A buyer holding another card is asked the same
 * and refused the replacement. */
static void test_nexus_card_windows__replace(void **state)
{
    (void)state;
    static engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    int baliset, snooper, shield;
    purchase(&st, &rng, 8, ENGINE_FACTION_IXIANS, &baliset, &snooper, &shield);
    const engine_frame *f = window(&st, "nexus_replace");
    assert_non_null(f);
    assert_int_equal(f->asked, ENGINE_SEAT_BIT(1));
    assert_int_equal(test_state_round_trip(&st), 0);
    unsigned spice = st.seat[1].spice, hand = 0;
    for (unsigned i = 0; i < st.n_cards; i++)
        hand += st.card[i].place == ENGINE_PLACE_HAND && st.card[i].holder == 1;
    engine_action a = answer(1, "nexus_replace", 1, 0);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.card[baliset].place, ENGINE_PLACE_DISCARD);
    assert_true(st.card[baliset].known_by & ENGINE_KNOWN_PUBLIC);
    assert_int_equal(st.card[shield].place, ENGINE_PLACE_HAND);
    assert_int_equal(st.card[shield].holder, 1);
    assert_int_equal(st.card[shield].known_by, ENGINE_SEAT_BIT(1));
    assert_int_equal(st.card[snooper].holder, 1);
    assert_int_equal(st.seat[1].spice, spice);
    unsigned after = 0;
    for (unsigned i = 0; i < st.n_cards; i++)
        after += st.card[i].place == ENGINE_PLACE_HAND && st.card[i].holder == 1;
    assert_int_equal(after, hand);
    assert_int_equal(engine_nexus_held(&st, 1), -1);
    assert_null(window(&st, "nexus_replace"));
    assert_int_equal(st.auction_index, 1); /* the next card is up */
    assert_int_equal(st.phase, ENGINE_PHASE_BIDDING);
    assert_int_equal(engine_state_check(&st), 0);
    for (unsigned viewer = 0; viewer <= 3; viewer++) {
        static engine_state v;
        engine_view(&v, &st, viewer < 3 ? (uint8_t)viewer : ENGINE_VIEW_PUBLIC);
        assert_int_equal(v.card_kind[shield] == ENGINE_CARD_KIND_UNKNOWN, viewer != 1);
        assert_int_equal(v.card_kind[baliset], ENGINE_CARD_BALISET);
    }
    purchase(&st, &rng, 8, ENGINE_FACTION_FREMEN, &baliset, &snooper, &shield);
    f = window(&st, "nexus_replace");
    assert_non_null(f);
    assert_int_equal(f->asked, ENGINE_SEAT_BIT(1));
    assert_int_equal(answers_offered(&st, 1), 1);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_CARD_NOT_HELD);
    a = answer(1, "nexus_replace", 0, 0);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.card[baliset].holder, 1);
    assert_int_equal(st.card[baliset].place, ENGINE_PLACE_HAND);
}

/* Row 27 (b) under version 8: the Atreides (holding the CHOAM card) beat
 * the Harkonnen, who played no card and hold a Chaumas and a Snooper; the
 * winner alone is asked, looks, and sees one of the two, told to no one
 * else; under version 7 no window opens. */
static void test_nexus_card_windows__glimpse(void **state)
{
    (void)state;
    static engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    int chaumas;
    for (unsigned version = 7; version <= 8; version++) {
        battle(&st, &rng, version, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_EMPEROR,
               ENGINE_FACTION_CHOAM, ENGINE_FACTION_COUNT, &chaumas);
        engine_action a = answer(0, "nexus_voice", 0, 0);
        if (version == 8)
            assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
        engine_action pass = {.kind = ENGINE_ACTION_PRESCIENCE_PASS, .seat = 0};
        assert_int_equal(engine_apply(&why, &st, &pass, &rng), ENGINE_ACCEPTED);
        engine_action plan = {.kind = ENGINE_ACTION_BATTLE_PLAN, .seat = 1};
        plan.arg[0] = (int16_t)engine_leader_from_slug("feyd_rautha");
        plan.arg[1] = plan.arg[2] = plan.arg[3] = -1;
        plan.arg[4] = 0;
        assert_int_equal(engine_apply(&why, &st, &plan, &rng), ENGINE_ACCEPTED);
        plan.seat = 0;
        plan.arg[0] = (int16_t)engine_leader_from_slug("duncan_idaho");
        plan.arg[4] = 5;
        assert_int_equal(engine_apply(&why, &st, &plan, &rng), ENGINE_ACCEPTED);
        for (unsigned s = 0; s < 2; s++) /* no traitor called */
            if (st.step == BATTLE_STEP_TRAITOR && (st.awaiting & ENGINE_SEAT_BIT(s))) {
                engine_action no = {.kind = ENGINE_ACTION_TRAITOR_CALL, .seat = (uint8_t)s};
                assert_int_equal(engine_apply(&why, &st, &no, &rng), ENGINE_ACCEPTED);
            }
        if (version == 7) {
            assert_null(window(&st, "nexus_glimpse"));
            continue;
        }
        const engine_frame *f = window(&st, "nexus_glimpse");
        assert_non_null(f);
        assert_int_equal(f->asked, ENGINE_SEAT_BIT(0));
        assert_int_equal(answers_offered(&st, 0), 1); /* look 0..1 */
        assert_int_equal(test_state_round_trip(&st), 0);
        uint16_t seen = 0;
        for (unsigned i = 0; i < st.n_cards; i++)
            if (st.card[i].place == ENGINE_PLACE_HAND && st.card[i].holder == 1)
                seen |= (uint16_t)(st.card[i].known_by & ENGINE_SEAT_BIT(0));
        assert_int_equal(seen, 0);
        a = answer(0, "nexus_glimpse", 1, 0);
        static engine_state before;
        before = st;
        assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
        /* the audit's rules give the look (a legitimate disclosure), and
         * no more: the same mark on a card of the deck is a leak */
        inspect__marks_result m;
        assert_int_equal(inspect__marks_check(&m, &before, &st, &a), 0);
        static engine_state planted;
        planted = st;
        unsigned deck_card = st.n_cards;
        for (unsigned i = 0; i < st.n_cards && deck_card == st.n_cards; i++)
            if (st.card[i].place == ENGINE_PLACE_DECK && !(st.card[i].known_by & ENGINE_SEAT_BIT(0)))
                deck_card = i;
        assert_true(deck_card < st.n_cards);
        planted.card[deck_card].known_by |= ENGINE_SEAT_BIT(0);
        assert_int_equal(inspect__marks_check(&m, &before, &planted, &a), 1);
        assert_null(window(&st, "nexus_glimpse"));
        assert_int_equal(engine_nexus_held(&st, 0), -1);
        unsigned told = 0;
        for (unsigned i = 0; i < st.n_cards; i++)
            if (st.card[i].place == ENGINE_PLACE_HAND && st.card[i].holder == 1) {
                told += (st.card[i].known_by & ENGINE_SEAT_BIT(0)) != 0;
                assert_false(st.card[i].known_by & (ENGINE_SEAT_BIT(2) | ENGINE_KNOWN_PUBLIC));
            }
        assert_int_equal(told, 1);
        assert_int_equal(engine_state_check(&st), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nexus_card_windows__voice_not_under_version_7),
        cmocka_unit_test(test_nexus_card_windows__voice),
        cmocka_unit_test(test_nexus_card_windows__voice_asks_neutrally),
        cmocka_unit_test(test_nexus_card_windows__worthless_not_under_version_7),
        cmocka_unit_test(test_nexus_card_windows__worthless),
        cmocka_unit_test(test_nexus_card_windows__replace_not_under_version_7),
        cmocka_unit_test(test_nexus_card_windows__replace),
        cmocka_unit_test(test_nexus_card_windows__glimpse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
