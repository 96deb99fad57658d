/*
 * test_phases.c - rule examples for the first half of the turn, each from a
 * constructed position (the test arranges decks, hands and spice through
 * the engine's internals, then enters the phase through its own entry
 * point): worm placement and devouring, the turn-1 worm rule, the Nexus,
 * charity, the auction's edge cases, revival limits and costs. Each case
 * names the rule it checks; every rejection is checked to leave the state
 * byte-identical.
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

/* The advantages the open Karama window offers (0 none), and those a
 * Karama cancelled until the retake. */
static uint32_t offered(const engine_state *st)
{
    const engine_frame *f = engine_window_find(st, ENGINE_WINDOW_KARAMA);
    return f ? f->rows : 0;
}

static uint32_t cancelled_of(const engine_state *st)
{
    return engine_effect_sources(st, ENGINE_EFFECT_CANCELLED);
}

static const uint8_t SEED[ENGINE_SEED_BYTES] = {11};

/* A Basic game of the given factions, just past setup (no decisions taken:
 * traitors and cards are placed by hand where a case needs them). */
static void table(engine_state *st, const uint8_t *factions, unsigned n)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = (uint8_t)n;
    for (unsigned i = 0; i < n; i++)
        cfg.faction[i] = factions[i];
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_setup(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    /* Finish setup with the first legal choice everywhere. */
    engine_legal legal[ENGINE_LEGAL_MAX];
    for (uint32_t v = 1; st->phase == ENGINE_PHASE_SETUP; v++) {
        size_t k = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, ENGINE_SEAT_ENGINE);
        assert_true(k > 0);
        engine_action act = {legal[0].kind, legal[0].seat, {0}};
        memcpy(act.arg, legal[0].lo, sizeof act.arg);
        if (legal[0].sum >= 0)
            act.arg[0] = (int16_t)(legal[0].sum - (legal[0].lo[1] + legal[0].lo[2]));
        engine_rng_init(&rng, SEED, v);
        assert_int_equal(engine_apply(NULL, st, &act, &rng), ENGINE_ACCEPTED);
    }
    st->turn = 2; /* past the turn-1 rules unless a case says otherwise */
}

static engine_verdict act(engine_state *st, unsigned kind, unsigned seat, int a0, int a1, int a2)
{
    engine_action a = {(uint8_t)kind, (uint8_t)seat, {(int16_t)a0, (int16_t)a1, (int16_t)a2}};
    engine_rng rng;
    engine_rng_init(&rng, SEED, 77);
    return engine_apply(NULL, st, &a, &rng);
}

static void expect_reject(engine_state *st, unsigned kind, unsigned seat, int a0, int a1, int a2,
                          engine_verdict want)
{
    engine_state before = *st;
    assert_int_equal(act(st, kind, seat, a0, a1, a2), want);
    assert_memory_equal(&before, st, sizeof before);
}

/* Every seat an open Karama window asks lets the advantage stand. */
static void allow_window(engine_state *st)
{
    for (unsigned s = 0; s < st->config.n_seats && offered(st) != 0; s++)
        if (engine_state_awaiting(st) & (1u << s))
            assert_int_equal(act(st, ENGINE_ACTION_KARAMA_ALLOW, s, 0, 0, 0), ENGINE_ACCEPTED);
}

/* The seat in turn passes; while a Karama window is open, the window is
 * answered instead. */
static void pass_or_allow(engine_state *st)
{
    if (offered(st) == 0) {
        assert_int_equal(act(st, ENGINE_ACTION_BID_PASS, st->bid_turn, 0, 0, 0), ENGINE_ACCEPTED);
        return;
    }
    allow_window(st);
}

/* Puts spice card `card` on top of the spice deck. */
static void spice_on_top(engine_state *st, unsigned card)
{
    for (unsigned i = 0; i < st->n_spice_deck; i++)
        if (st->spice_deck[i] == card) {
            memmove(&st->spice_deck[i], &st->spice_deck[i + 1], st->n_spice_deck - 1 - i);
            st->spice_deck[st->n_spice_deck - 1] = (uint8_t)card;
            return;
        }
    fail_msg("spice card %u not in the deck", card);
}

static unsigned spice_card_of(unsigned territory)
{
    for (unsigned c = 0; c < ENGINE_SPICE_BASE_CARDS; c++)
        if (!engine__spice_cards[c].is_worm && engine__spice_cards[c].territory == territory)
            return c;
    return 0xFF;
}

static unsigned a_worm(const engine_state *st, unsigned nth)
{
    for (unsigned i = 0; i < st->n_spice_deck; i++)
        if (engine__spice_cards[st->spice_deck[i]].is_worm && nth-- == 0)
            return st->spice_deck[i];
    return 0xFF;
}

static void blow(engine_state *st)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 50);
    engine__spice_blow_begin(st, &rng);
    assert_int_equal(engine_state_check(st), 0);
}

static const uint8_t FOUR[4] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_FREMEN,
                                ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_EMPEROR};

/* LR 1.02.04: a territory card places its spice on the icon sector. */
static void test_phases__blow_places_spice(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    st.storm_sector = 0;
    unsigned card = spice_card_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
    spice_on_top(&st, card);
    unsigned loc = engine__spice_cards[card].location;
    blow(&st);
    assert_int_equal(st.spice[loc], 10);
    assert_int_equal(st.spice_discard[st.n_spice_discard - 1], card);
    assert_false(st.is_nexus_this_phase);
}

/* LR 1.02.04: no spice where the storm is; the card is still discarded. */
static void test_phases__blow_in_storm_places_nothing(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    unsigned card = spice_card_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
    st.storm_sector = 14;
    spice_on_top(&st, card);
    uint32_t minted = st.spice_minted;
    blow(&st);
    assert_int_equal(st.spice[engine__spice_cards[card].location], 0);
    assert_int_equal(st.spice_minted, minted);
    assert_int_equal(st.spice_discard[st.n_spice_discard - 1], card);
}

/* LR 1.02.05, 2.04.07, 2.04.10: Shai-Hulud devours the territory of the
 * topmost territory card in the discard pile; Fremen and their ally are
 * unharmed; the spice there is lost; a Nexus follows. */
static void test_phases__worm_devours_and_brings_a_nexus(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    st.storm_sector = 0;
    unsigned flat = spice_card_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
    unsigned loc = engine__spice_cards[flat].location;
    /* The Great Flat's card lies on the discard pile already. */
    for (unsigned i = 0; i < st.n_spice_deck; i++)
        if (st.spice_deck[i] == flat) {
            st.spice_deck[i] = st.spice_deck[--st.n_spice_deck];
            break;
        }
    st.spice_card[flat].place = ENGINE_PLACE_DISCARD;
    st.spice_discard[st.n_spice_discard++] = (uint8_t)flat;
    st.spice[loc] = 10;
    st.spice_minted += 10;
    /* Atreides (seat 0), Fremen (1) and Emperor (3) have forces there;
     * the Emperor is the Fremen's ally. */
    st.forces[loc][0] = 3;
    st.seat[0].reserves = (uint8_t)(st.seat[0].reserves - 3);
    st.forces[loc][1] = 2;
    st.seat[1].reserves = (uint8_t)(st.seat[1].reserves - 2);
    st.forces[loc][3] = 4;
    st.seat[3].reserves = (uint8_t)(st.seat[3].reserves - 4);
    st.ally[1] = 3;
    st.ally[3] = 1;
    /* Then the deck: a worm, then Cielago North. */
    spice_on_top(&st, spice_card_of(ENGINE_TERRITORY_CIELAGO_NORTH));
    spice_on_top(&st, a_worm(&st, 0));
    assert_int_equal(engine_state_check(&st), 0);
    assert_true(engine_position_give_card(&st, 0, ENGINE_CARD_KARAMA) >= 0);
    blow(&st);
    /* Rules version 3: the Fremen decide first whether their ally, who
     * stands there, is spared (LR 2.04.10); nothing is devoured yet. */
    assert_int_equal(st.step, BLOW_STEP_WORM_ALLY);
    assert_int_equal(engine_state_awaiting(&st), 1u << 1);
    assert_int_equal(st.forces[loc][3], 4);
    /* The question is a window over the worm's step, which waits on
     * nobody meanwhile. */
    assert_int_equal(st.n_frames, 1);
    assert_int_equal(st.frame[0].point, ENGINE_WINDOW_WORM_ALLY);
    assert_int_equal(st.frame[0].owner, 1);
    assert_int_equal(st.frame[0].user, 3);
    assert_int_equal(st.awaiting, 0);
    assert_int_equal(test_state_round_trip(&st), 0);
    expect_reject(&st, ENGINE_ACTION_FREMEN_PROTECT_ALLY, 3, 1, 0, 0, ENGINE_REJECT_NOT_AWAITED);
    expect_reject(&st, ENGINE_ACTION_FREMEN_PROTECT_ALLY, 1, 2, 0, 0,
                  ENGINE_REJECT_ARG_OUT_OF_RANGE);
    engine_state declined = st;
    assert_int_equal(act(&declined, ENGINE_ACTION_FREMEN_PROTECT_ALLY, 1, 0, 0, 0), ENGINE_ACCEPTED);
    assert_int_equal(offered(&declined), ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_WORM));
    allow_window(&declined);
    assert_int_equal(declined.forces[loc][1], 2);
    assert_int_equal(declined.forces[loc][3], 0);
    assert_int_equal(declined.seat[3].tanks, 4);
    assert_int_equal(declined.fremen_gifts, 0);
    assert_int_equal(engine_state_check(&declined), 0);
    assert_int_equal(act(&st, ENGINE_ACTION_FREMEN_PROTECT_ALLY, 1, 1, 0, 0), ENGINE_ACCEPTED);
    /* The worm's Karama window opens as the question closes, alone on the
     * stack, holding the strike. */
    assert_int_equal(st.n_frames, 1);
    assert_int_equal(st.frame[0].point, ENGINE_WINDOW_KARAMA);
    assert_int_equal(st.frame[0].held.kind, ENGINE_ACTION_NONE);
    assert_int_equal(test_state_round_trip(&st), 0);
    engine_state cancelled = st;
    /* The protection waits on a Karama window (LR 2.04.07, 2.04.10,
     * 3.01.11.01): every seat holding a card but the Fremen. */
    assert_int_equal(offered(&st),
                     ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_WORM) |
                         ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_ALLY_WORM));
    assert_false(engine_state_awaiting(&st) & (1u << 1));
    assert_int_equal(st.forces[loc][0], 3); /* nothing devoured yet */
    allow_window(&st);
    assert_int_equal(st.forces[loc][0], 0);
    assert_int_equal(st.seat[0].tanks, 3);
    assert_int_equal(st.forces[loc][1], 2); /* Fremen */
    assert_int_equal(st.forces[loc][3], 4); /* the Fremen's ally */
    assert_int_equal(st.spice[loc], 0);
    unsigned cn = engine__spice_cards[spice_card_of(ENGINE_TERRITORY_CIELAGO_NORTH)].location;
    assert_int_equal(st.spice[cn], 8);
    assert_true(st.is_nexus_this_phase);
    assert_int_equal(st.step, BLOW_STEP_NEXUS);
    assert_int_equal(engine_state_awaiting(&st), 0xF);
    assert_int_equal(st.worm_territory, ENGINE_TERRITORY_THE_GREAT_FLAT);
    /* The Atreides cancel the ally's protection: the Emperor's forces are
     * devoured, the Fremen's are not. */
    assert_int_equal(act(&cancelled, ENGINE_ACTION_KARAMA_CANCEL, 0,
                         ENGINE_ADVANTAGE_FREMEN_ALLY_WORM, 0, 0),
                     ENGINE_ACCEPTED);
    assert_int_equal(cancelled.forces[loc][1], 2);
    assert_int_equal(cancelled.forces[loc][3], 0);
    assert_int_equal(cancelled.seat[3].tanks, 4);
    assert_int_equal(cancelled_of(&cancelled), 0);
    assert_int_equal(cancelled.step, BLOW_STEP_NEXUS);
    assert_int_equal(engine_state_check(&cancelled), 0);
}

/* LR 1.02.02-03: on turn 1 worms are set aside, shuffled back afterwards,
 * and there is no Nexus. */
static void test_phases__turn_one_worms_set_aside(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    st.turn = 1;
    st.storm_sector = 0;
    spice_on_top(&st, spice_card_of(ENGINE_TERRITORY_RED_CHASM));
    spice_on_top(&st, a_worm(&st, 0));
    spice_on_top(&st, a_worm(&st, 1));
    blow(&st);
    assert_false(st.is_nexus_this_phase);
    assert_int_equal(st.n_spice_discard, 1);
    assert_int_equal(st.n_spice_deck, 20); /* both worms back in the deck */
    assert_int_equal(st.phase, ENGINE_PHASE_BIDDING); /* nobody needed charity */
}

/* LR 1.02.06: alliances proposed, refused, accepted, broken; one ally each. */
static void test_phases__nexus_alliances(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    st.storm_sector = 0;
    spice_on_top(&st, spice_card_of(ENGINE_TERRITORY_RED_CHASM));
    spice_on_top(&st, a_worm(&st, 0));
    blow(&st);
    assert_int_equal(st.step, BLOW_STEP_NEXUS);
    expect_reject(&st, ENGINE_ACTION_ALLIANCE_PROPOSE, 0, ENGINE_FACTION_ATREIDES, 0, 0,
                  ENGINE_REJECT_ALLY_SELF);
    expect_reject(&st, ENGINE_ACTION_ALLIANCE_PROPOSE, 0, ENGINE_FACTION_GUILD, 0, 0,
                  ENGINE_REJECT_ARG_OUT_OF_RANGE);
    expect_reject(&st, ENGINE_ACTION_ALLIANCE_ACCEPT, 1, ENGINE_FACTION_ATREIDES, 0, 0,
                  ENGINE_REJECT_NO_PROPOSAL);
    assert_int_equal(act(&st, ENGINE_ACTION_ALLIANCE_PROPOSE, 0, ENGINE_FACTION_FREMEN, 0, 0),
                     ENGINE_ACCEPTED);
    expect_reject(&st, ENGINE_ACTION_ALLIANCE_PROPOSE, 0, ENGINE_FACTION_FREMEN, 0, 0,
                  ENGINE_REJECT_ALREADY_PROPOSED);
    assert_int_equal(act(&st, ENGINE_ACTION_ALLIANCE_REFUSE, 1, ENGINE_FACTION_ATREIDES, 0, 0),
                     ENGINE_ACCEPTED);
    expect_reject(&st, ENGINE_ACTION_ALLIANCE_ACCEPT, 1, ENGINE_FACTION_ATREIDES, 0, 0,
                  ENGINE_REJECT_NO_PROPOSAL);
    assert_int_equal(act(&st, ENGINE_ACTION_ALLIANCE_PROPOSE, 1, ENGINE_FACTION_HARKONNEN, 0, 0),
                     ENGINE_ACCEPTED);
    assert_int_equal(act(&st, ENGINE_ACTION_ALLIANCE_ACCEPT, 2, ENGINE_FACTION_FREMEN, 0, 0),
                     ENGINE_ACCEPTED);
    assert_int_equal(st.ally[1], 2);
    assert_int_equal(st.ally[2], 1);
    expect_reject(&st, ENGINE_ACTION_ALLIANCE_PROPOSE, 0, ENGINE_FACTION_HARKONNEN, 0, 0,
                  ENGINE_REJECT_ALREADY_ALLIED);
    expect_reject(&st, ENGINE_ACTION_ALLIANCE_BREAK, 0, 0, 0, 0, ENGINE_REJECT_NOT_ALLIED);
    assert_int_equal(act(&st, ENGINE_ACTION_ALLIANCE_BREAK, 2, 0, 0, 0), ENGINE_ACCEPTED);
    assert_int_equal(st.ally[1], 0xFF);
    assert_int_equal(st.ally[2], 0xFF);
    /* Re-allied, then no second break by the same seat in this Nexus. */
    assert_int_equal(act(&st, ENGINE_ACTION_ALLIANCE_PROPOSE, 2, ENGINE_FACTION_FREMEN, 0, 0),
                     ENGINE_ACCEPTED);
    assert_int_equal(act(&st, ENGINE_ACTION_ALLIANCE_ACCEPT, 1, ENGINE_FACTION_HARKONNEN, 0, 0),
                     ENGINE_ACCEPTED);
    expect_reject(&st, ENGINE_ACTION_ALLIANCE_BREAK, 2, 0, 0, 0, ENGINE_REJECT_ALREADY_BROKE);
    for (unsigned s = 0; s < 4; s++)
        assert_int_equal(act(&st, ENGINE_ACTION_NEXUS_DONE, s, 0, 0, 0), ENGINE_ACCEPTED);
    assert_int_not_equal(st.phase, ENGINE_PHASE_SPICE_BLOW);
    assert_int_equal(st.ally[1], 2); /* the alliance outlasts the Nexus */
}

/* LR 1.03: 0 or 1 spice may claim up to 2, once; others are not asked. */
static void test_phases__charity(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    const int before[4] = {0, 1, 2, 5};
    for (unsigned s = 0; s < 4; s++) {
        st.spice_burned += st.seat[s].spice;
        st.seat[s].spice = (uint16_t)before[s];
        st.spice_minted += (uint32_t)before[s];
    }
    engine_rng rng;
    engine_rng_init(&rng, SEED, 3);
    engine__charity_begin(&st, &rng);
    assert_int_equal(st.phase, ENGINE_PHASE_CHOAM_CHARITY);
    assert_int_equal(engine_state_awaiting(&st), 0x3);
    expect_reject(&st, ENGINE_ACTION_CHARITY_CLAIM, 2, 0, 0, 0, ENGINE_REJECT_NOT_AWAITED);
    assert_int_equal(act(&st, ENGINE_ACTION_CHARITY_CLAIM, 0, 0, 0, 0), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[0].spice, 2);
    expect_reject(&st, ENGINE_ACTION_CHARITY_CLAIM, 0, 0, 0, 0, ENGINE_REJECT_ALREADY_ANSWERED);
    assert_int_equal(act(&st, ENGINE_ACTION_CHARITY_CLAIM, 1, 0, 0, 0), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[1].spice, 2);
    assert_int_equal(st.phase, ENGINE_PHASE_BIDDING);
    assert_int_equal(engine_state_check(&st), 0);
}

/* Gives `seat` cards from the deck until it holds n; returns the last. */
static unsigned fill_hand(engine_state *st, unsigned seat, unsigned n)
{
    unsigned held = 0, last = 0xFF;
    for (unsigned i = 0; i < st->n_cards; i++)
        held += st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == seat;
    while (held < n) {
        last = st->deck[--st->n_deck];
        st->card[last].place = ENGINE_PLACE_HAND;
        st->card[last].holder = (uint8_t)seat;
        st->card[last].known_by = (uint16_t)(1u << seat);
        held++;
    }
    return last;
}

static void bidding(engine_state *st)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 4);
    engine__bidding_begin(st, &rng);
    assert_int_equal(engine_state_check(st), 0);
    allow_window(st); /* the Atreides' look at the first card (LR 2.01.05) */
}

/* LR 1.04: one card per seat able to bid; storm order; payment to the
 * Emperor; Atreides see the card; everyone passing ends the phase and
 * returns the cards to the top of the deck. */
static void test_phases__auction(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    fill_hand(&st, 0, 4); /* Atreides at the limit: may not bid */
    st.storm_sector = 0;
    bidding(&st);
    assert_int_equal(st.phase, ENGINE_PHASE_BIDDING);
    assert_int_equal(st.n_auction, 3);
    unsigned card = st.auction[0];
    assert_true(st.card[card].known_by & 1u); /* Atreides peeked */
    uint8_t order[ENGINE_MAX_SEATS];
    engine__storm_order(&st, order);
    unsigned first = order[0] == 0 ? order[1] : order[0];
    assert_int_equal(st.bid_turn, first);
    expect_reject(&st, ENGINE_ACTION_BID, first, 0, 0, 0, ENGINE_REJECT_BID_TOO_LOW);
    expect_reject(&st, ENGINE_ACTION_BID, first, 500, 0, 0, ENGINE_REJECT_BID_OVER_LIMIT);
    unsigned emperor_spice = st.seat[3].spice;
    /* Harkonnen (seat 2) buys the first card for 2 whoever opens. */
    while (st.bid_turn != 2)
        assert_int_equal(act(&st, ENGINE_ACTION_BID_PASS, st.bid_turn, 0, 0, 0), ENGINE_ACCEPTED);
    unsigned hark_spice = st.seat[2].spice;
    assert_int_equal(act(&st, ENGINE_ACTION_BID, 2, 2, 0, 0), ENGINE_ACCEPTED);
    while (st.auction_index == 0)
        pass_or_allow(&st);
    assert_int_equal(st.card[card].place, ENGINE_PLACE_HAND);
    assert_int_equal(st.card[card].holder, 2);
    assert_int_equal(st.seat[2].spice, hark_spice - 2);
    assert_int_equal(st.seat[3].spice, emperor_spice + 2); /* paid to the Emperor */
    /* Harkonnen's free extra card (LR 2.05.04): 2 start cards + bought + free. */
    unsigned hand = 0;
    for (unsigned i = 0; i < st.n_cards; i++)
        hand += st.card[i].place == ENGINE_PLACE_HAND && st.card[i].holder == 2;
    assert_int_equal(hand, 4);
    /* Everyone passes on the next card: it and the rest go back on top. */
    unsigned next = st.auction[1], last = st.auction[2];
    unsigned deck_before = st.n_deck;
    while (st.phase == ENGINE_PHASE_BIDDING)
        pass_or_allow(&st);
    assert_int_equal(st.n_deck, deck_before + 2);
    assert_int_equal(st.deck[st.n_deck - 1], next);
    assert_int_equal(st.deck[st.n_deck - 2], last);
    assert_int_equal(engine_state_check(&st), 0);
}

/* LR 2.05.04: Harkonnen at 7 cards buy an 8th and get no free card. */
static void test_phases__harkonnen_bonus_needs_room(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    fill_hand(&st, 2, 7);
    bidding(&st);
    while (st.bid_turn != 2)
        assert_int_equal(act(&st, ENGINE_ACTION_BID_PASS, st.bid_turn, 0, 0, 0), ENGINE_ACCEPTED);
    assert_int_equal(act(&st, ENGINE_ACTION_BID, 2, 1, 0, 0), ENGINE_ACCEPTED);
    while (st.auction_index == 0)
        pass_or_allow(&st);
    unsigned hand = 0;
    for (unsigned i = 0; i < st.n_cards; i++)
        hand += st.card[i].place == ENGINE_PLACE_HAND && st.card[i].holder == 2;
    assert_int_equal(hand, 8);
    /* At the limit Harkonnen is skipped for the rest of the auction. */
    for (int i = 0; i < 10 && st.phase == ENGINE_PHASE_BIDDING; i++) {
        if (offered(&st) == 0)
            assert_int_not_equal(st.bid_turn, 2);
        pass_or_allow(&st);
    }
}

/* LR 2.05.08 and docs/RULINGS.md R129: the Harkonnen's free card is drawn
 * face down, so nobody learns it, but a seat that already knew the deck's
 * top card (here the Atreides, seat 0) still knows it once the Harkonnen
 * hold it; under rules version 7 the draw made them forget it. */
static unsigned free_card_known_by(unsigned rules_version)
{
    engine_state st;
    table(&st, FOUR, 4);
    st.config.rules_version = (uint16_t)rules_version;
    bidding(&st);
    unsigned top = st.deck[st.n_deck - 1];
    st.card[top].known_by |= 1u;
    while (st.bid_turn != 2)
        assert_int_equal(act(&st, ENGINE_ACTION_BID_PASS, st.bid_turn, 0, 0, 0), ENGINE_ACCEPTED);
    assert_int_equal(act(&st, ENGINE_ACTION_BID, 2, 1, 0, 0), ENGINE_ACCEPTED);
    while (st.auction_index == 0)
        pass_or_allow(&st);
    assert_int_equal(st.card[top].place, ENGINE_PLACE_HAND);
    assert_int_equal(st.card[top].holder, 2);
    assert_int_equal(engine_state_check(&st), 0);
    return st.card[top].known_by;
}

static void test_phases__harkonnen_free_card_keeps_knowledge(void **state)
{
    (void)state;
    assert_int_equal(free_card_known_by(8), (1u << 2) | 1u);
    assert_int_equal(free_card_known_by(7), 1u << 2);
}

/* LR 3.01.11: Karama bids past the limit (and pays nothing), or takes the
 * card free; without a Karama both are refused. */
static void test_phases__karama_in_the_auction(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    /* Give the Emperor (seat 3) a Karama. */
    unsigned karama = 0xFF;
    for (unsigned i = 0; i < st.n_deck; i++)
        if (st.card_kind[st.deck[i]] == ENGINE_CARD_KARAMA) {
            karama = st.deck[i];
            st.deck[i] = st.deck[--st.n_deck];
            break;
        }
    assert_int_not_equal(karama, 0xFF);
    st.card[karama].place = ENGINE_PLACE_HAND;
    st.card[karama].holder = 3;
    st.card[karama].known_by = 1u << 3;
    bidding(&st);
    while (st.bid_turn != 3) {
        unsigned s = st.bid_turn;
        expect_reject(&st, ENGINE_ACTION_KARAMA_TAKE, s, 0, 0, 0, ENGINE_REJECT_NO_KARAMA);
        expect_reject(&st, ENGINE_ACTION_BID, s, 900, 1, 0, ENGINE_REJECT_NO_KARAMA);
        assert_int_equal(act(&st, ENGINE_ACTION_BID_PASS, s, 0, 0, 0), ENGINE_ACCEPTED);
    }
    unsigned spice = st.seat[3].spice;
    /* R26: a Karama bid reaches one more than the most any seat could pay. */
    unsigned most = 0;
    for (unsigned s = 0; s < 4; s++)
        most = st.seat[s].spice > most ? st.seat[s].spice : most;
    expect_reject(&st, ENGINE_ACTION_BID, 3, (int)most + 2, 1, 0, ENGINE_REJECT_BID_OVER_LIMIT);
    assert_int_equal(act(&st, ENGINE_ACTION_BID, 3, (int)most + 1, 1, 0), ENGINE_ACCEPTED);
    assert_int_equal(st.card[karama].known_by, ENGINE_KNOWN_PUBLIC | 0xF); /* declared openly */
    unsigned card = st.auction[0];
    while (st.auction_index == 0)
        pass_or_allow(&st);
    assert_int_equal(st.card[card].holder, 3);
    assert_int_equal(st.seat[3].spice, spice);
    assert_int_equal(st.card[karama].place, ENGINE_PLACE_DISCARD);
    assert_int_equal(engine_state_check(&st), 0);
}

/* LR 2.01.05, 3.01.11.02: a Karama prevents the Atreides' look at one card
 * on auction, before it is shown; the next card is shown again. */
static void test_phases__karama_prevents_the_card_peek(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    assert_true(engine_position_give_card(&st, 2, ENGINE_CARD_KARAMA) >= 0);
    st.storm_sector = 0;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 4);
    engine__bidding_begin(&st, &rng);
    assert_int_equal(offered(&st), ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_CARD_PEEK));
    assert_false(engine_state_awaiting(&st) & 1u); /* the Atreides are not asked */
    unsigned card = st.auction[0];
    assert_false(st.card[card].known_by & 1u);
    expect_reject(&st, ENGINE_ACTION_KARAMA_CANCEL, 2, ENGINE_ADVANTAGE_HARKONNEN_FREE_CARD, 0, 0,
                  ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(act(&st, ENGINE_ACTION_KARAMA_CANCEL, 2, ENGINE_ADVANTAGE_ATREIDES_CARD_PEEK,
                         0, 0),
                     ENGINE_ACCEPTED);
    assert_int_equal(offered(&st), 0);
    assert_int_equal(cancelled_of(&st), 0); /* one use: the next card is seen */
    assert_false(st.card[card].known_by & 1u);
    assert_int_equal(st.step, BIDDING_STEP_AUCTION);
    assert_true(engine_state_awaiting(&st) == (1u << st.bid_turn));
    assert_int_equal(act(&st, ENGINE_ACTION_BID, st.bid_turn, 1, 0, 0), ENGINE_ACCEPTED);
    while (st.auction_index == 0)
        pass_or_allow(&st);
    allow_window(&st);
    if (st.phase == ENGINE_PHASE_BIDDING && st.auction_index < st.n_auction)
        assert_true(st.card[st.auction[st.auction_index]].known_by & 1u);
    assert_int_equal(engine_state_check(&st), 0);
}

/* LR 2.01.07, 3.01.11.02: a Karama prevents the Atreides' look at the top
 * spice card as Shipment begins. */
static void test_phases__karama_prevents_the_spice_peek(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    assert_true(engine_position_give_card(&st, 1, ENGINE_CARD_KARAMA) >= 0);
    engine_state allowed = st;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 6);
    engine__shipment_begin(&st, &rng);
    unsigned top = st.spice_deck[st.n_spice_deck - 1];
    assert_int_equal(offered(&st), ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_SPICE_PEEK));
    assert_false(st.spice_card[top].known_by & 1u);
    expect_reject(&st, ENGINE_ACTION_SHIP_PASS, 0, 0, 0, 0, ENGINE_REJECT_WRONG_STEP);
    assert_int_equal(act(&st, ENGINE_ACTION_KARAMA_CANCEL, 1, ENGINE_ADVANTAGE_ATREIDES_SPICE_PEEK,
                         0, 0),
                     ENGINE_ACCEPTED);
    assert_false(st.spice_card[top].known_by & 1u);
    assert_int_equal(st.step, SHIP_STEP_SHIP);
    assert_int_equal(cancelled_of(&st), 0);
    engine_rng_init(&rng, SEED, 6);
    engine__shipment_begin(&allowed, &rng);
    allow_window(&allowed);
    assert_true(allowed.spice_card[top].known_by & 1u);
    assert_int_equal(allowed.step, SHIP_STEP_SHIP);
    assert_int_equal(engine_state_check(&st), 0);
}

/* Rules version 3: an action of the phase under way but of another step is
 * wrong_step, and a refusal of the timing says what the game waits for:
 * the step, the phase, the seats awaited. Version 2 said wrong_phase. */
static void test_phases__refusals_say_what_the_game_waits_for(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 6);
    engine__shipment_begin(&st, &rng);
    allow_window(&st);
    assert_int_equal(st.step, SHIP_STEP_SHIP);
    uint16_t awaited = engine_state_awaiting(&st);
    unsigned in_turn = 0, other = 0;
    while (!((unsigned)awaited >> in_turn & 1u))
        in_turn++;
    while (other == in_turn)
        other++;
    engine_verdict_detail why;
    engine_state before = st;
    engine_action a = {ENGINE_ACTION_SHIP_PASS, (uint8_t)other, {0}};
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_REJECT_NOT_AWAITED);
    assert_int_equal(why.value, awaited);
    a = (engine_action){ENGINE_ACTION_MOVE_PASS, (uint8_t)in_turn, {0}};
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_REJECT_WRONG_STEP);
    assert_int_equal(why.value, SHIP_STEP_SHIP);
    a = (engine_action){ENGINE_ACTION_BID_PASS, (uint8_t)in_turn, {0}};
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_REJECT_WRONG_PHASE);
    assert_int_equal(why.value, ENGINE_PHASE_SHIPMENT_MOVEMENT);
    assert_memory_equal(&before, &st, sizeof st);
    st.config.rules_version = 2;
    a = (engine_action){ENGINE_ACTION_MOVE_PASS, (uint8_t)in_turn, {0}};
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_REJECT_WRONG_PHASE);
    a = (engine_action){ENGINE_ACTION_SHIP_PASS, (uint8_t)other, {0}};
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_REJECT_NOT_AWAITED);
    assert_int_equal(why.value, 0);
}

static void revival(engine_state *st)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 5);
    engine__revival_begin(st, &rng);
    assert_int_equal(engine_state_check(st), 0);
}

/* LR 1.05: at most 3 forces; the first ones free (Atreides 2); 2 spice each
 * after; to the bank. */
static void test_phases__revival_limits_and_costs(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    st.seat[0].reserves = (uint8_t)(st.seat[0].reserves - 6);
    st.seat[0].tanks = 6;
    revival(&st);
    assert_int_equal(st.phase, ENGINE_PHASE_REVIVAL);
    assert_int_equal(engine_state_awaiting(&st), 1);
    expect_reject(&st, ENGINE_ACTION_REVIVE, 0, 4, 0, -1, ENGINE_REJECT_REVIVAL_LIMIT);
    expect_reject(&st, ENGINE_ACTION_REVIVE, 0, 7, 0, -1, ENGINE_REJECT_REVIVAL_TANKS);
    expect_reject(&st, ENGINE_ACTION_REVIVE, 0, 1, 0, 0, ENGINE_REJECT_LEADER_NOT_REVIVABLE);
    unsigned spice = st.seat[0].spice;
    uint32_t burned = st.spice_burned;
    assert_int_equal(act(&st, ENGINE_ACTION_REVIVE, 0, 3, 0, -1), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[0].spice, spice - 2);
    assert_int_equal(st.spice_burned, burned + 2);
    assert_int_equal(st.seat[0].tanks, 3);
    assert_int_equal(st.phase, ENGINE_PHASE_SHIPMENT_MOVEMENT);
}

/* LR 1.05.04: a leader once all the faction's leaders have died, at its
 * strength; LR 2.03.05: the Emperor pays for up to 3 extra ally revivals. */
static void test_phases__leader_revival_and_emperor_ally(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    /* Every Harkonnen leader dead once; Feyd (strength 6) revivable. */
    int feyd = engine_leader_from_slug("feyd_rautha");
    assert_true(feyd >= 0);
    for (unsigned l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine__leaders[l].faction == ENGINE_FACTION_HARKONNEN) {
            st.leader[l].place = ENGINE_PLACE_TANKS;
            st.leader[l].deaths = 1;
        }
    st.seat[2].reserves = (uint8_t)(st.seat[2].reserves - 8);
    st.seat[2].tanks = 8;
    st.ally[2] = 3;
    st.ally[3] = 2;
    revival(&st);
    assert_int_equal(st.step, REVIVAL_STEP_EMPEROR);
    assert_int_equal(engine_state_awaiting(&st), 1u << 3);
    /* The patrons are asked by a window over a step waiting on nobody. */
    assert_int_equal(st.n_frames, 1);
    assert_int_equal(st.frame[0].point, ENGINE_WINDOW_ALLY_REVIVAL);
    assert_int_equal(st.awaiting, 0);
    assert_int_equal(test_state_round_trip(&st), 0);
    expect_reject(&st, ENGINE_ACTION_EMPEROR_REVIVAL, 3, 4, 0, 0, ENGINE_REJECT_ARG_OUT_OF_RANGE);
    unsigned emperor = st.seat[3].spice;
    /* The offer waits on a Karama window (LR 2.03.07, 3.01.11.01): every
     * other seat holding a card is asked, the Emperor is not. */
    engine_state cancelled = st;
    assert_int_equal(act(&st, ENGINE_ACTION_EMPEROR_REVIVAL, 3, 3, 0, 0), ENGINE_ACCEPTED);
    assert_int_equal(offered(&st),
                     ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_EMPEROR_ALLY_REVIVAL));
    assert_int_equal(st.step, REVIVAL_STEP_EMPEROR);
    /* The Karama window nests over the patrons' (a frame each). */
    assert_int_equal(st.n_frames, 2);
    assert_int_equal(st.frame[0].point, ENGINE_WINDOW_ALLY_REVIVAL);
    assert_int_equal(st.frame[1].point, ENGINE_WINDOW_KARAMA);
    assert_int_equal(test_state_round_trip(&st), 0);
    assert_int_equal(st.emperor_ally_revivals, 0);
    assert_false(engine_state_awaiting(&st) & (1u << 3));
    allow_window(&st);
    assert_int_equal(st.step, REVIVAL_STEP_REVIVE);
    assert_int_equal(st.emperor_ally_revivals, 3);
    /* Cancelled instead: no extra revival, the Emperor pays nothing. */
    assert_true(engine_position_give_card(&cancelled, 0, ENGINE_CARD_KARAMA) >= 0);
    assert_int_equal(act(&cancelled, ENGINE_ACTION_EMPEROR_REVIVAL, 3, 3, 0, 0), ENGINE_ACCEPTED);
    assert_int_equal(act(&cancelled, ENGINE_ACTION_KARAMA_CANCEL, 0,
                         ENGINE_ADVANTAGE_EMPEROR_ALLY_REVIVAL, 0, 0),
                     ENGINE_ACCEPTED);
    assert_int_equal(offered(&cancelled), 0);
    assert_int_equal(cancelled.step, REVIVAL_STEP_REVIVE);
    assert_int_equal(cancelled.emperor_ally_revivals, 0);
    assert_int_equal(cancelled_of(&cancelled), 0);
    expect_reject(&cancelled, ENGINE_ACTION_REVIVE, 2, 4, 0, -1, ENGINE_REJECT_REVIVAL_LIMIT);
    assert_int_equal(engine_state_check(&cancelled), 0);
    expect_reject(&st, ENGINE_ACTION_REVIVE, 2, 7, 0, -1, ENGINE_REJECT_REVIVAL_LIMIT);
    unsigned spice = st.seat[2].spice;
    assert_int_equal(act(&st, ENGINE_ACTION_REVIVE, 2, 6, 0, feyd), ENGINE_ACCEPTED);
    /* 3 own (2 free, 1 at 2) + Feyd at 6; 3 extra paid by the Emperor. */
    assert_int_equal(st.seat[2].spice, spice - 2 - 6);
    assert_int_equal(st.seat[3].spice, emperor - 6);
    assert_int_equal(st.leader[feyd].place, ENGINE_PLACE_POOL);
    assert_int_equal(st.seat[2].tanks, 2);
    assert_int_equal(engine_state_check(&st), 0);
}

/* Tleilaxu Ghola: up to 5 forces or a leader, free, besides the revival. */
static void test_phases__ghola(void **state)
{
    (void)state;
    engine_state st;
    table(&st, FOUR, 4);
    unsigned ghola = 0xFF;
    for (unsigned i = 0; i < st.n_deck; i++)
        if (st.card_kind[st.deck[i]] == ENGINE_CARD_TLEILAXU_GHOLA) {
            ghola = st.deck[i];
            st.deck[i] = st.deck[--st.n_deck];
            break;
        }
    if (ghola == 0xFF)
        skip(); /* dealt at setup in this seed */
    st.card[ghola].place = ENGINE_PLACE_HAND;
    st.card[ghola].holder = 1;
    st.card[ghola].known_by = 1u << 1;
    st.seat[1].reserves = (uint8_t)(st.seat[1].reserves - 9);
    st.seat[1].tanks = 9;
    revival(&st);
    expect_reject(&st, ENGINE_ACTION_GHOLA, 1, 6, -1, 0, ENGINE_REJECT_REVIVAL_TANKS);
    expect_reject(&st, ENGINE_ACTION_GHOLA, 0, 1, -1, 0, ENGINE_REJECT_NOT_AWAITED);
    assert_int_equal(act(&st, ENGINE_ACTION_GHOLA, 1, 5, -1, 0), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[1].tanks, 4);
    assert_int_equal(st.card[ghola].place, ENGINE_PLACE_DISCARD);
    /* Still asked for the ordinary revival (Fremen revive 3 free). */
    assert_int_equal(act(&st, ENGINE_ACTION_REVIVE, 1, 3, 0, -1), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[1].tanks, 1);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phases__blow_places_spice),
        cmocka_unit_test(test_phases__blow_in_storm_places_nothing),
        cmocka_unit_test(test_phases__worm_devours_and_brings_a_nexus),
        cmocka_unit_test(test_phases__turn_one_worms_set_aside),
        cmocka_unit_test(test_phases__nexus_alliances),
        cmocka_unit_test(test_phases__charity),
        cmocka_unit_test(test_phases__auction),
        cmocka_unit_test(test_phases__harkonnen_bonus_needs_room),
        cmocka_unit_test(test_phases__harkonnen_free_card_keeps_knowledge),
        cmocka_unit_test(test_phases__karama_in_the_auction),
        cmocka_unit_test(test_phases__karama_prevents_the_card_peek),
        cmocka_unit_test(test_phases__karama_prevents_the_spice_peek),
        cmocka_unit_test(test_phases__refusals_say_what_the_game_waits_for),
        cmocka_unit_test(test_phases__revival_limits_and_costs),
        cmocka_unit_test(test_phases__leader_revival_and_emperor_ally),
        cmocka_unit_test(test_phases__ghola),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
