/*
 * test_karama_powers.c - the Karama in the Advanced game (ADVANCED_RULES.md
 * 5; LR 1.14): the Bene Gesserit's worthless cards played as Karama cards
 * (LR 1.14.06, 2.02.22) and the faction Karama powers (the Emperor's free
 * revival, 1.14.02; the Fremen's worm, 1.14.03), through the engine API on constructed positions.
 * Each is in force only in an Advanced room of rules version 7 on, never
 * in a Basic room nor in an Advanced room of version 6 (whose stored
 * states must re-fold as they were); the legal families offer exactly
 * what engine_apply accepts. The rules with their sources are the
 * tests/scenarios/advanced_karama_*.json scenarios.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {14, 6, 2, 22};

#define CARD_NONE 0xFFu

/* Emperor, Guild and Bene Gesserit (seat 2), every seat holding 10 spice. */
enum { EMPEROR = 0, GUILD = 1, BG = 2 };

/* Three seats of these factions, every seat holding 10 spice. */
static void table_of(engine_state *st, const uint8_t faction[3], int advanced, unsigned version)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    memcpy(cfg.faction, faction, 3);
    cfg.is_advanced = (uint8_t)advanced;
    cfg.rules_version = (uint16_t)version;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    for (uint8_t s = 0; s < 3; s++)
        assert_int_equal(engine_position_seat_spice(st, s, 10), 0);
}

static void table(engine_state *st, int advanced, unsigned version)
{
    static const uint8_t faction[3] = {ENGINE_FACTION_EMPEROR, ENGINE_FACTION_GUILD,
                                       ENGINE_FACTION_BENE_GESSERIT};
    table_of(st, faction, advanced, version);
}

static void enter_turn(engine_state *st, unsigned phase, unsigned turn)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, phase, turn, 0, &rng), 0);
    assert_int_equal(engine_state_check(st), 0);
}

static void enter(engine_state *st, unsigned phase)
{
    enter_turn(st, phase, 2);
}

static unsigned hand_of_kind(const engine_state *st, unsigned seat, unsigned kind)
{
    for (unsigned i = 0; i < st->n_cards; i++)
        if (st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == seat &&
            st->card_kind[i] == kind)
            return i;
    return CARD_NONE;
}

/* 1 if a legal family of `seat` has kind `kind`. */
static int offers(const engine_state *st, unsigned seat, unsigned kind)
{
    engine_legal l[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(l, ENGINE_LEGAL_MAX, st, (uint8_t)seat);
    for (size_t i = 0; i < n; i++)
        if (l[i].kind == kind)
            return 1;
    return 0;
}

/* `a` applied to a copy of st: accepted exactly when a legal family
 * holds it, and a refusal leaves the copy as st was. */
static engine_verdict probe(engine_state *copy, const engine_state *st, const engine_action *a,
                           uint32_t stream)
{
    *copy = *st;
    engine_rng rng;
    engine_rng_init(&rng, SEED, stream);
    engine_verdict v = engine_apply(NULL, copy, a, &rng);
    assert_int_equal(v == ENGINE_ACCEPTED, test_legal_contains(st, a) == 1);
    if (v != ENGINE_ACCEPTED)
        assert_memory_equal(copy, st, sizeof *st);
    return v;
}

static const struct {
    int advanced;
    unsigned version;
    int worthless_is_karama;       /* the Bene Gesserit's worthless card serves */
} ROOMS[] = {{1, 7, 1}, {1, 6, 0}, {0, 7, 0}, {0, 6, 0}};

/* Room r of ROOMS in `phase`, the Bene Gesserit holding `card`, and the
 * generator its actions are applied with. */
static void room_in(engine_state *st, engine_rng *rng, size_t r, unsigned card, unsigned phase)
{
    table(st, ROOMS[r].advanced, ROOMS[r].version);
    assert_true(engine_position_give_card(st, BG, card) >= 0);
    enter(st, phase);
    engine_rng_init(rng, SEED, 2 + (uint32_t)phase);
}

/* LR 1.14.06: each worthless card, and only for the Bene Gesserit of an
 * Advanced room of version 7 on; a worthless card is spent before a
 * Karama, which is kept (docs/RULINGS.md R113). */
static void test_karama_powers__worthless_card_is_karama_only_for_advanced_bg(void **state)
{
    (void)state;
    static const unsigned worthless[] = {ENGINE_CARD_BALISET, ENGINE_CARD_JUBBA_CLOAK,
                                         ENGINE_CARD_KULON, ENGINE_CARD_LA_LA_LA,
                                         ENGINE_CARD_TRIP_TO_GAMONT};
    for (size_t r = 0; r < sizeof ROOMS / sizeof ROOMS[0]; r++)
        for (size_t w = 0; w < sizeof worthless / sizeof worthless[0]; w++) {
            engine_state st;
            table(&st, ROOMS[r].advanced, ROOMS[r].version);
            assert_true(engine_position_give_card(&st, BG, worthless[w]) >= 0);
            assert_true(engine_position_give_card(&st, EMPEROR, worthless[(w + 1) % 5]) >= 0);
            unsigned card = hand_of_kind(&st, BG, worthless[w]);
            assert_int_equal(engine_karama_card(&st, BG),
                             ROOMS[r].worthless_is_karama ? card : CARD_NONE);
            assert_int_equal(engine_karama_card(&st, EMPEROR), CARD_NONE);
            /* With a Karama as well: the worthless card goes first. */
            assert_true(engine_position_give_card(&st, BG, ENGINE_CARD_KARAMA) >= 0);
            unsigned karama = hand_of_kind(&st, BG, ENGINE_CARD_KARAMA);
            assert_int_equal(engine_karama_card(&st, BG),
                             ROOMS[r].worthless_is_karama ? card : karama);
        }
    engine_state st;
    table(&st, 1, 7);
    assert_int_equal(engine_karama_card(&st, BG), CARD_NONE);
    assert_int_equal(engine_karama_card(&st, 3), CARD_NONE);
}

/* The auction: a worthless card takes the card up free, or bids beyond
 * the seat's spice, exactly where the families offer it (LR 3.01.11.04). */
static void test_karama_powers__worthless_take_and_bid_legal_exactly(void **state)
{
    (void)state;
    for (size_t r = 0; r < sizeof ROOMS / sizeof ROOMS[0]; r++) {
        engine_state st;
        engine_rng rng;
        room_in(&st, &rng, r, ENGINE_CARD_KULON, ENGINE_PHASE_BIDDING);
        assert_true(engine_position_give_card(&st, EMPEROR, ENGINE_CARD_BALISET) >= 0);
        /* The others pass until the Bene Gesserit are to bid. */
        for (int i = 0; i < 2 && !(engine_state_awaiting(&st) & (1u << BG)); i++) {
            unsigned s = engine_state_awaiting(&st) & (1u << EMPEROR) ? EMPEROR : GUILD;
            if (s == EMPEROR) {
                engine_action take = {ENGINE_ACTION_KARAMA_TAKE, EMPEROR, {0}};
                assert_false(offers(&st, EMPEROR, ENGINE_ACTION_KARAMA_TAKE));
                engine_state copy = st;
                assert_int_equal(engine_apply(NULL, &copy, &take, &rng), ENGINE_REJECT_NO_KARAMA);
            }
            engine_action pass = {ENGINE_ACTION_BID_PASS, (uint8_t)s, {0}};
            assert_int_equal(engine_apply(NULL, &st, &pass, &rng), ENGINE_ACCEPTED);
        }
        assert_true(engine_state_awaiting(&st) & (1u << BG));
        int want = ROOMS[r].worthless_is_karama;
        assert_int_equal(offers(&st, BG, ENGINE_ACTION_KARAMA_TAKE), want);
        engine_action over = {ENGINE_ACTION_BID, BG, {11, 1}}; /* beyond its 10 */
        assert_int_equal(test_legal_contains(&st, &over), want);
        engine_state copy = st;
        assert_int_equal(engine_apply(NULL, &copy, &over, &rng),
                         want ? ENGINE_ACCEPTED : ENGINE_REJECT_NO_KARAMA);
        engine_action take = {ENGINE_ACTION_KARAMA_TAKE, BG, {0}};
        copy = st;
        engine_verdict v = engine_apply(NULL, &copy, &take, &rng);
        assert_int_equal(v, want ? ENGINE_ACCEPTED : ENGINE_REJECT_NO_KARAMA);
        if (!want) {
            assert_memory_equal(&copy, &st, sizeof st);
            continue;
        }
        /* Taken free: the Kulon is discarded face up, no spice moves. */
        assert_int_equal(copy.card[hand_of_kind(&st, BG, ENGINE_CARD_KULON)].place,
                         ENGINE_PLACE_DISCARD);
        assert_int_equal(copy.seat[BG].spice, 10);
        assert_int_equal(copy.seat[EMPEROR].spice, 10);
        assert_int_equal(engine_state_check(&copy), 0);
    }
}

/* A shipment at the Guild's rate bought with a worthless card, for the
 * Bene Gesserit alone, in an Advanced room of version 7 (LR 3.01.11.03). */
static void test_karama_powers__worthless_shipment_legal_exactly(void **state)
{
    (void)state;
    for (size_t r = 0; r < sizeof ROOMS / sizeof ROOMS[0]; r++) {
        engine_state st;
        engine_rng rng;
        room_in(&st, &rng, r, ENGINE_CARD_JUBBA_CLOAK, ENGINE_PHASE_SHIPMENT_MOVEMENT);
        for (int i = 0; i < 8 && !(engine_state_awaiting(&st) & (1u << BG)); i++) {
            unsigned s = engine_state_awaiting(&st) & (1u << EMPEROR) ? EMPEROR : GUILD;
            engine_action pass = {ENGINE_ACTION_SHIP_PASS, (uint8_t)s, {0}};
            /* the Advanced Guild of version 7 is asked when it takes its
             * turn (R124): in storm order */
            engine_action in_order = {ENGINE_ACTION_ANSWER, (uint8_t)s, {0}};
            engine_legal l[64];
            if (engine_legal_actions(l, 64, &st, (uint8_t)s) > 0 && l[0].kind == ENGINE_ACTION_ANSWER) {
                in_order.arg[0] = l[0].lo[0];
                assert_int_equal(engine_apply(NULL, &st, &in_order, &rng), ENGINE_ACCEPTED);
                continue;
            }
            if (engine_apply(NULL, &st, &pass, &rng) != ENGINE_ACCEPTED) {
                pass.kind = ENGINE_ACTION_MOVE_PASS;
                assert_int_equal(engine_apply(NULL, &st, &pass, &rng), ENGINE_ACCEPTED);
            }
        }
        assert_true(engine_state_awaiting(&st) & (1u << BG));
        int want = ROOMS[r].worthless_is_karama;
        /* Every location offered to a Karama shipment is one that would be
         * accepted; none is offered without the card. */
        engine_legal l[ENGINE_LEGAL_MAX];
        size_t n = engine_legal_actions(l, ENGINE_LEGAL_MAX, &st, BG);
        int offered = 0;
        for (size_t i = 0; i < n; i++) {
            if (l[i].kind != ENGINE_ACTION_SHIP || l[i].lo[3] != 1)
                continue;
            offered++;
            engine_action ship = {ENGINE_ACTION_SHIP, BG, {l[i].lo[0], l[i].hi[1], 0, 1}};
            engine_state copy = st;
            assert_int_equal(engine_apply(NULL, &copy, &ship, &rng), ENGINE_ACCEPTED);
            assert_int_equal(copy.card[hand_of_kind(&st, BG, ENGINE_CARD_JUBBA_CLOAK)].place,
                             ENGINE_PLACE_DISCARD);
            assert_int_equal(copy.seat[GUILD].spice, st.seat[GUILD].spice);
        }
        assert_int_equal(offered > 0, want);
        if (!want) {
            engine_action ship = {ENGINE_ACTION_SHIP, BG, {0, 1, 0, 1}};
            engine_state copy = st;
            assert_int_not_equal(engine_apply(NULL, &copy, &ship, &rng), ENGINE_ACCEPTED);
        }
    }
}

/* The Emperor (seat 0) in the Revival of room r, holding `card` (or no
 * card for ENGINE_CARD_KIND_COUNT), 4 forces, 2 Sardaukar and one leader
 * in the Tanks; that leader's number. */
static unsigned emperor_revival(engine_state *st, size_t r, unsigned card)
{
    table(st, ROOMS[r].advanced, ROOMS[r].version);
    if (card < ENGINE_CARD_KIND_COUNT)
        assert_true(engine_position_give_card(st, EMPEROR, card) >= 0);
    assert_int_equal(engine_position_tanks(st, EMPEROR, 4, ROOMS[r].advanced ? 2 : 0), 0);
    unsigned leader = 0;
    while (engine_leader_faction(leader) != ENGINE_FACTION_EMPEROR)
        leader++;
    assert_int_equal(engine_position_leader_dead(st, leader), 0);
    enter(st, ENGINE_PHASE_REVIVAL);
    assert_true(engine_state_awaiting(st) & (1u << EMPEROR));
    return leader;
}

static engine_action karama_revival(int forces, int elite, int leader)
{
    engine_action a = {ENGINE_ACTION_POWER, EMPEROR, {0}};
    a.arg[0] = (int16_t)engine_power_from_slug("emperor_karama_revival");
    a.arg[1] = (int16_t)forces;
    a.arg[2] = (int16_t)elite;
    a.arg[3] = (int16_t)leader;
    return a;
}

/* LR 1.14.02: every argument combination is accepted exactly when a legal
 * family holds it, only in an Advanced room of version 7, only with a
 * card to spend (a worthless card is the Bene Gesserit's alone). */
static void test_karama_powers__emperor_revival_legal_exactly(void **state)
{
    (void)state;
    assert_true(engine_power_from_slug("emperor_karama_revival") > 0);
    static const unsigned cards[] = {ENGINE_CARD_KARAMA, ENGINE_CARD_BALISET,
                                     ENGINE_CARD_KIND_COUNT};
    for (size_t r = 0; r < sizeof ROOMS / sizeof ROOMS[0]; r++)
        for (size_t k = 0; k < sizeof cards / sizeof cards[0]; k++) {
            engine_state st;
            unsigned leader = emperor_revival(&st, r, cards[k]);
            int in_force = ROOMS[r].advanced && ROOMS[r].version >= 7;
            int ready = in_force && cards[k] == ENGINE_CARD_KARAMA;
            unsigned accepted = 0;
            for (int f = 0; f <= 4; f++)
                for (int e = 0; e <= 2; e++)
                    for (int l = -1; l < ENGINE_LEADER_COUNT; l++) {
                        engine_action a = karama_revival(f, e, l);
                        engine_state copy;
                        engine_verdict v = probe(&copy, &st, &a, 9);
                        if (v != ENGINE_ACCEPTED) {
                            if (!in_force)
                                assert_int_equal(v, ENGINE_REJECT_NOT_YOUR_POWER);
                            continue;
                        }
                        accepted++;
                        /* Free, beyond the limit, the card spent face up. */
                        assert_true(f + e <= 3 && e <= 1 && (l < 0) == (f + e > 0));
                        assert_true(l < 0 || (unsigned)l == leader);
                        assert_int_equal(copy.seat[EMPEROR].spice, 10);
                        assert_int_equal(copy.seat[EMPEROR].tanks, 4 - f);
                        assert_int_equal(copy.seat[EMPEROR].special_tanks, 2 - e);
                        assert_int_equal(copy.karama_power_used, 1u << EMPEROR);
                        assert_int_equal(engine_karama_card(&copy, EMPEROR), CARD_NONE);
                        assert_int_equal(engine_state_check(&copy), 0);
                        assert_int_equal(test_state_round_trip(&copy), 0);
                    }
            /* 1..3 plain, 0..2 plain with a Sardaukar, or the leader. */
            assert_int_equal(accepted, ready ? 3 + 3 + 1 : 0);
        }
}

/* Once a game; the Sardaukar revived is the turn's (R106); the normal
 * revival still follows, with its own limit. */
static void test_karama_powers__emperor_revival_once_a_game(void **state)
{
    (void)state;
    engine_state st;
    unsigned leader = emperor_revival(&st, 0, ENGINE_CARD_KARAMA);
    assert_true(engine_position_give_card(&st, EMPEROR, ENGINE_CARD_KARAMA) >= 0);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 10);
    engine_action a = karama_revival(0, 0, (int)leader);
    assert_int_equal(engine_apply(NULL, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.leader[leader].place, ENGINE_PLACE_POOL);
    /* A second Karama in hand: the power is spent for the game. */
    assert_true(engine_karama_card(&st, EMPEROR) != CARD_NONE);
    a = karama_revival(1, 0, -1);
    assert_false(test_legal_contains(&st, &a));
    assert_int_equal(engine_apply(NULL, &st, &a, &rng), ENGINE_REJECT_ALREADY_ANSWERED);
    /* The normal revival: 3 forces, one of them a Sardaukar. */
    engine_action revive = {ENGINE_ACTION_REVIVE, EMPEROR, {2, 1, -1}};
    assert_int_equal(engine_apply(NULL, &st, &revive, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[EMPEROR].special_tanks, 1);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(test_state_round_trip(&st), 0);
}

/* The Fremen (seat 0) as the Spice Blow of `turn` begins in room r,
 * holding `card` (none for ENGINE_CARD_KIND_COUNT), the Atreides' 4
 * forces in Red Chasm. */
enum { FREMEN = 0, ATREIDES = 1 };

static void fremen_blow(engine_state *st, size_t r, unsigned card, unsigned turn)
{
    static const uint8_t faction[3] = {ENGINE_FACTION_FREMEN, ENGINE_FACTION_ATREIDES,
                                       ENGINE_FACTION_HARKONNEN};
    table_of(st, faction, ROOMS[r].advanced, ROOMS[r].version);
    if (card < ENGINE_CARD_KIND_COUNT)
        assert_true(engine_position_give_card(st, FREMEN, card) >= 0);
    unsigned loc = 0;
    while (engine_location_territory(loc) != ENGINE_TERRITORY_RED_CHASM)
        loc++;
    assert_int_equal(engine_position_forces(st, ATREIDES, loc, 4, 0), 0);
    enter_turn(st, ENGINE_PHASE_SPICE_BLOW, turn);
}

/* A worm in `territory`, or, for -1, the pass. */
static engine_action karama_worm(int territory)
{
    engine_action a = {ENGINE_ACTION_POWER, FREMEN, {0}};
    a.arg[0] = (int16_t)engine_power_from_slug(territory < 0 ? "fremen_karama_worm_pass"
                                                             : "fremen_karama_worm");
    a.arg[1] = (int16_t)(territory < 0 ? 0 : territory);
    return a;
}

/* LR 1.14.03: asked as the blow begins from turn 2 when they hold any card
 * (a public fact), only in an Advanced room of version 7; a worm only with
 * a card to spend, in sand; declining always legal; every territory is
 * accepted exactly when a family holds it. */
static void test_karama_powers__fremen_worm_legal_exactly(void **state)
{
    (void)state;
    assert_true(engine_power_from_slug("fremen_karama_worm") > 0);
    assert_true(engine_power_from_slug("fremen_karama_worm_pass") > 0);
    static const unsigned cards[] = {ENGINE_CARD_KARAMA, ENGINE_CARD_BALISET,
                                     ENGINE_CARD_KIND_COUNT};
    for (size_t r = 0; r < sizeof ROOMS / sizeof ROOMS[0]; r++)
        for (size_t k = 0; k < sizeof cards / sizeof cards[0]; k++)
            for (unsigned turn = 1; turn <= 2; turn++) {
                engine_state st;
                fremen_blow(&st, r, cards[k], turn);
                int asked = ROOMS[r].advanced && ROOMS[r].version >= 7 && turn >= 2 &&
                            cards[k] < ENGINE_CARD_KIND_COUNT;
                int ready = asked && cards[k] == ENGINE_CARD_KARAMA;
                assert_int_equal(st.step == ENGINE_BLOW_STEP_KARAMA_WORM && st.phase == ENGINE_PHASE_SPICE_BLOW,
                                 asked);
                if (asked)
                    assert_int_equal(engine_state_awaiting(&st), 1u << FREMEN);
                unsigned accepted = 0;
                for (int t = -1; t < ENGINE_TERRITORY_COUNT; t++) {
                    engine_action a = karama_worm(t);
                    engine_state copy;
                    if (probe(&copy, &st, &a, 11) != ENGINE_ACCEPTED)
                        continue;
                    accepted++;
                    assert_int_equal(engine_state_check(&copy), 0);
                    assert_int_equal(test_state_round_trip(&copy), 0);
                    assert_int_equal(copy.karama_power_used, t < 0 ? 0u : 1u << FREMEN);
                    if (t == ENGINE_TERRITORY_RED_CHASM)
                        assert_int_equal(copy.seat[ATREIDES].tanks, 4);
                }
                /* none, and each sand territory with a Karama */
                assert_int_equal(accepted > 1, ready);
                assert_int_equal(accepted > 0, asked);
            }
}

/* The rooms a version-8 faction Karama power is tried in: it is in force
 * in the first two, with a Karama in the first only. */
static const struct {
    int advanced;
    unsigned version;
    int karama;
} TARGET_ROOMS[] = {{1, 8, 1}, {1, 8, 0}, {1, 7, 1}, {0, 8, 1}};

/* Every target faction of power `take(f)` by `owner` tried on a copy of st
 * (room r of TARGET_ROOMS): accepted exactly when a family holds it, only
 * `target` and only where the power is in force with a Karama (elsewhere
 * not_your_power, or no_karama); the card spent, the state sound. The
 * accepted state is left in *accepted_out. */
static void targets_tried(engine_state *accepted_out, const engine_state *st, size_t r,
                          engine_action (*take)(int), unsigned owner, int target)
{
    int in_force = TARGET_ROOMS[r].advanced && TARGET_ROOMS[r].version >= 8;
    unsigned accepted = 0;
    for (int f = -1; f <= ENGINE_FACTION_COUNT; f++) {
        engine_action a = take(f);
        engine_state copy;
        engine_verdict v = probe(&copy, st, &a, 21);
        if (v != ENGINE_ACCEPTED) {
            if (!in_force)
                assert_int_equal(v, ENGINE_REJECT_NOT_YOUR_POWER);
            else if (!TARGET_ROOMS[r].karama && f >= 0 && f < ENGINE_FACTION_COUNT)
                assert_int_equal(v, ENGINE_REJECT_NO_KARAMA);
            continue;
        }
        accepted++;
        assert_int_equal(f, target);
        assert_int_equal(copy.karama_power_used, 1u << owner);
        assert_int_equal(engine_state_check(&copy), 0);
        assert_int_equal(test_state_round_trip(&copy), 0);
        *accepted_out = copy;
    }
    assert_int_equal(accepted, in_force && TARGET_ROOMS[r].karama ? 1u : 0u);
}

/* ================================================ the Harkonnen's hand */

/* The Harkonnen (seat 0), the Emperor (seat 1, holding `target_cards`
 * cards) and the Bene Gesserit (seat 2, none) in the Bidding of an
 * Advanced room of `version` (Basic for `advanced` 0), the Harkonnen
 * holding `own` plain cards and `karama` Karamas; the others pass
 * until the Harkonnen are to bid. */
enum { HARKONNEN = 0, H_EMPEROR = 1, H_BG = 2 };

static void harkonnen_bidding(engine_state *st, int advanced, unsigned version, unsigned own,
                              int karama, unsigned target_cards)
{
    static const uint8_t faction[3] = {ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_EMPEROR,
                                       ENGINE_FACTION_BENE_GESSERIT};
    static const unsigned kinds[] = {ENGINE_CARD_LASGUN, ENGINE_CARD_SNOOPER,
                                     ENGINE_CARD_CHAUMAS, ENGINE_CARD_BALISET,
                                     ENGINE_CARD_SHIELD, ENGINE_CARD_KULON};
    static const unsigned theirs[] = {ENGINE_CARD_CRYSKNIFE, ENGINE_CARD_STUNNER,
                                      ENGINE_CARD_TRUTHTRANCE, ENGINE_CARD_WEATHER_CONTROL};
    table_of(st, faction, advanced, version);
    for (unsigned i = 0; i < own; i++)
        assert_true(engine_position_give_card(st, HARKONNEN, kinds[i % 6]) >= 0);
    for (int i = 0; i < karama; i++)
        assert_true(engine_position_give_card(st, HARKONNEN, ENGINE_CARD_KARAMA) >= 0);
    for (unsigned i = 0; i < target_cards; i++)
        assert_true(engine_position_give_card(st, H_EMPEROR, theirs[i % 4]) >= 0);
    enter(st, ENGINE_PHASE_BIDDING);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 20);
    for (int i = 0; i < 4 && !(engine_state_awaiting(st) & (1u << HARKONNEN)); i++) {
        unsigned s = 0;
        while (!(engine_state_awaiting(st) & (1u << s)))
            s++;
        engine_action pass = {ENGINE_ACTION_BID_PASS, (uint8_t)s, {0}};
        assert_int_equal(engine_apply(NULL, st, &pass, &rng), ENGINE_ACCEPTED);
    }
    assert_true(engine_state_awaiting(st) & (1u << HARKONNEN));
}

/* A generic power or window answer of `seat` with one argument. */
static engine_action generic1(unsigned kind, unsigned seat, int id, int arg)
{
    engine_action a = {(uint8_t)kind, (uint8_t)seat, {(int16_t)id, (int16_t)arg}};
    return a;
}

static engine_action hand_take(int faction)
{
    return generic1(ENGINE_ACTION_POWER, HARKONNEN, engine_power_from_slug("harkonnen_karama_hand"),
                    faction);
}

static engine_action hand_return(int card)
{
    return generic1(ENGINE_ACTION_ANSWER, HARKONNEN,
                    engine_window_from_slug("harkonnen_karama_return"), card);
}

static unsigned hand_count(const engine_state *st, unsigned seat)
{
    unsigned n = 0;
    for (unsigned i = 0; i < st->n_cards; i++)
        n += st->card[i].place == ENGINE_PLACE_HAND && st->card[i].holder == seat;
    return n;
}

/* LR 1.14.04: every target is accepted exactly when a legal family holds
 * it: another player holding a card, only in an Advanced room of version
 * 8, only with a Karama to spend; never in a Basic room nor under version
 * 7 (not_your_power: no such row there). */
static void test_karama_powers__harkonnen_hand_legal_exactly(void **state)
{
    (void)state;
    assert_true(engine_power_from_slug("harkonnen_karama_hand") > 0);
    assert_true(engine_window_from_slug("harkonnen_karama_return") > 0);
    for (size_t r = 0; r < sizeof TARGET_ROOMS / sizeof TARGET_ROOMS[0]; r++) {
        engine_state st, copy;
        harkonnen_bidding(&st, TARGET_ROOMS[r].advanced, TARGET_ROOMS[r].version, 1,
                          TARGET_ROOMS[r].karama, 3);
        memset(&copy, 0, sizeof copy);
        targets_tried(&copy, &st, r, hand_take, HARKONNEN, ENGINE_FACTION_EMPEROR);
        if (copy.phase != ENGINE_PHASE_BIDDING)
            continue;
        /* The Emperor's whole hand taken, the Harkonnen alone asked. */
        assert_int_equal(hand_count(&copy, H_EMPEROR), 0);
        assert_int_equal(hand_count(&copy, HARKONNEN), 1 + 3);
        assert_int_equal(engine_state_awaiting(&copy), 1u << HARKONNEN);
    }
}

/* The whole swap: the hand taken, then one card given back per answer,
 * from the Harkonnen hand, until as many as were taken; each seat learns
 * only what the rule shows it (the Harkonnen the hand taken, the target
 * what it gets back; the Bene Gesserit nothing); the hand limit is
 * exceeded only while cards are owed; once a game. */
static void test_karama_powers__harkonnen_hand_swap(void **state)
{
    (void)state;
    engine_state st;
    /* 5 cards and two Karamas: 6 + 4 taken is beyond the limit of 8 meanwhile. */
    harkonnen_bidding(&st, 1, 8, 5, 2, 4);
    unsigned step = st.step;
    uint8_t was_emperor[ENGINE_TREACHERY_MAX] = {0}, was_harkonnen[ENGINE_TREACHERY_MAX] = {0};
    for (unsigned i = 0; i < st.n_cards; i++) {
        was_emperor[i] = st.card[i].place == ENGINE_PLACE_HAND && st.card[i].holder == H_EMPEROR;
        was_harkonnen[i] = st.card[i].place == ENGINE_PLACE_HAND && st.card[i].holder == HARKONNEN &&
                           i != engine_karama_card(&st, HARKONNEN);
    }
    engine_rng rng;
    engine_rng_init(&rng, SEED, 22);
    engine_action take = hand_take(ENGINE_FACTION_EMPEROR);
    assert_int_equal(engine_apply(NULL, &st, &take, &rng), ENGINE_ACCEPTED);
    assert_int_equal(hand_count(&st, HARKONNEN), 10);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(test_state_round_trip(&st), 0);
    engine_state view;
    engine_view(&view, &st, HARKONNEN);
    for (unsigned i = 0; i < st.n_cards; i++)
        if (was_emperor[i])
            assert_int_equal(view.card_kind[i], st.card_kind[i]);
    engine_view(&view, &st, H_BG);
    for (unsigned i = 0; i < st.n_cards; i++)
        if (was_emperor[i] || was_harkonnen[i])
            assert_int_equal(view.card_kind[i], ENGINE_CARD_KIND_UNKNOWN);
    /* Only the Harkonnen are asked; nothing else is accepted meanwhile. */
    engine_action pass = {ENGINE_ACTION_BID_PASS, H_EMPEROR, {0}};
    engine_state copy = st;
    assert_int_not_equal(engine_apply(NULL, &copy, &pass, &rng), ENGINE_ACCEPTED);
    /* Give back two of their own and two just taken. */
    unsigned give[4], n_give = 0;
    for (unsigned i = 0; i < st.n_cards && n_give < 2; i++)
        if (was_harkonnen[i])
            give[n_give++] = i;
    for (unsigned i = 0; i < st.n_cards && n_give < 4; i++)
        if (was_emperor[i])
            give[n_give++] = i;
    assert_int_equal(n_give, 4);
    for (unsigned k = 0; k < 4; k++) {
        assert_int_equal(engine_state_awaiting(&st), 1u << HARKONNEN);
        /* A card not in the Harkonnen hand is refused, the state untouched. */
        for (int c = -1; c <= (int)st.n_cards; c++) {
            engine_action a = hand_return(c);
            int held = c >= 0 && c < st.n_cards && st.card[c].place == ENGINE_PLACE_HAND &&
                       st.card[c].holder == HARKONNEN;
            assert_int_equal(test_legal_contains(&st, &a), held);
            if (held)
                continue;
            copy = st;
            assert_int_equal(engine_apply(NULL, &copy, &a, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
            assert_memory_equal(&copy, &st, sizeof st);
        }
        engine_action a = hand_return((int)give[k]);
        assert_int_equal(engine_apply(NULL, &st, &a, &rng), ENGINE_ACCEPTED);
        assert_int_equal(hand_count(&st, H_EMPEROR), k + 1);
        assert_int_equal(engine_state_check(&st), 0);
        assert_int_equal(test_state_round_trip(&st), 0);
    }
    /* Done: the hands are back to their sizes, the bidding goes on. */
    assert_null(engine_window_top(&st));
    assert_int_equal(hand_count(&st, HARKONNEN), 6);
    assert_int_equal(hand_count(&st, H_EMPEROR), 4);
    assert_int_equal(st.phase, ENGINE_PHASE_BIDDING);
    assert_int_equal(st.step, step);
    assert_true(engine_state_awaiting(&st) & (1u << HARKONNEN));
    engine_view(&view, &st, H_EMPEROR);
    for (unsigned k = 0; k < 4; k++)
        assert_int_equal(view.card_kind[give[k]], st.card_kind[give[k]]);
    engine_view(&view, &st, H_BG);
    for (unsigned i = 0; i < st.n_cards; i++)
        if (was_emperor[i] || was_harkonnen[i])
            assert_int_equal(view.card_kind[i], ENGINE_CARD_KIND_UNKNOWN);
    engine_view(&view, &st, HARKONNEN);
    for (unsigned i = 0; i < st.n_cards; i++)
        if (was_emperor[i])
            assert_int_equal(view.card_kind[i], st.card_kind[i]);
    /* Once a game: a second Karama in hand does not bring it back. */
    assert_true(engine_karama_card(&st, HARKONNEN) != CARD_NONE);
    assert_false(test_legal_contains(&st, &take));
    assert_int_equal(engine_apply(NULL, &st, &take, &rng), ENGINE_REJECT_ALREADY_ANSWERED);
}

/* Outside the Bidding phase the row does not apply: not_your_power. */
static void test_karama_powers__harkonnen_hand_only_in_bidding(void **state)
{
    (void)state;
    static const uint8_t faction[3] = {ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_EMPEROR,
                                       ENGINE_FACTION_BENE_GESSERIT};
    engine_state st;
    table_of(&st, faction, 1, 8);
    assert_true(engine_position_give_card(&st, HARKONNEN, ENGINE_CARD_KARAMA) >= 0);
    assert_true(engine_position_give_card(&st, H_EMPEROR, ENGINE_CARD_LASGUN) >= 0);
    enter(&st, ENGINE_PHASE_REVIVAL);
    assert_true(engine_state_awaiting(&st) & (1u << HARKONNEN));
    engine_action take = hand_take(ENGINE_FACTION_EMPEROR);
    assert_false(test_legal_contains(&st, &take));
    engine_rng rng;
    engine_rng_init(&rng, SEED, 23);
    assert_int_equal(engine_apply(NULL, &st, &take, &rng), ENGINE_REJECT_NOT_YOUR_POWER);
}

/* ===================================== the Guild's stop of a shipment */

enum { S_HARKONNEN = 0, S_GUILD = 1, S_FREMEN = 2, S_EMPEROR = 3 };

/* Shipment and Movement of room (advanced, version), the Guild holding
 * `card` (none for ENGINE_CARD_KIND_COUNT): the turns before `seat`'s are
 * passed (the Guild's timing windows answered with their first family)
 * until `seat` is asked to ship. */
static void guild_shipment(engine_state *st, engine_rng *rng, int advanced, unsigned version,
                           unsigned card)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 4;
    static const uint8_t faction[4] = {ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_GUILD,
                                       ENGINE_FACTION_FREMEN, ENGINE_FACTION_EMPEROR};
    memcpy(cfg.faction, faction, 4);
    cfg.is_advanced = (uint8_t)advanced;
    cfg.rules_version = (uint16_t)version;
    engine_rng_init(rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, rng), ENGINE_ACCEPTED);
    for (uint8_t s = 0; s < 4; s++)
        assert_int_equal(engine_position_seat_spice(st, s, 20), 0);
    if (card < ENGINE_CARD_KIND_COUNT)
        assert_true(engine_position_give_card(st, S_GUILD, card) >= 0);
    assert_true(engine_position_give_card(st, S_EMPEROR, ENGINE_CARD_LASGUN) >= 0);
    enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT);
    engine_rng_init(rng, SEED, 30);
}

/* The family of `kind` of `seat` now, or NULL. */
static const engine_legal *family_of(engine_legal *l, size_t cap, const engine_state *st,
                                     unsigned seat, unsigned kind)
{
    size_t n = engine_legal_actions(l, cap, st, (uint8_t)seat);
    for (size_t i = 0; i < n; i++)
        if (l[i].kind == kind)
            return &l[i];
    return NULL;
}

/* Passes turns (answering the Guild's timing windows with their first
 * family) until `seat` may `kind` (ship or send). */
static void until_asked(engine_state *st, engine_rng *rng, unsigned seat, unsigned kind)
{
    engine_legal l[ENGINE_LEGAL_MAX];
    for (int i = 0; i < 40; i++) {
        if ((engine_state_awaiting(st) & (1u << seat)) && family_of(l, ENGINE_LEGAL_MAX, st, seat, kind))
            return;
        unsigned s = 0;
        while (!(engine_state_awaiting(st) & (1u << s)))
            s++;
        size_t n = engine_legal_actions(l, ENGINE_LEGAL_MAX, st, (uint8_t)s);
        assert_true(n > 0);
        engine_action a = {l[0].kind, (uint8_t)s, {0}};
        if (l[0].kind == ENGINE_ACTION_ANSWER) {
            a.arg[0] = l[0].lo[0];
        } else {
            a.kind = family_of(l, ENGINE_LEGAL_MAX, st, s, ENGINE_ACTION_SHIP_PASS) ? ENGINE_ACTION_SHIP_PASS
                                                                                     : ENGINE_ACTION_MOVE_PASS;
        }
        assert_int_equal(engine_apply(NULL, st, &a, rng), ENGINE_ACCEPTED);
    }
    fail_msg("seat %u never asked", seat);
}

/* `seat`'s first shipment family: `n` forces (at most what it offers). */
static engine_action first_shipment(const engine_state *st, unsigned seat, int n)
{
    engine_legal l[ENGINE_LEGAL_MAX];
    const engine_legal *f = family_of(l, ENGINE_LEGAL_MAX, st, seat, ENGINE_ACTION_SHIP);
    assert_non_null(f);
    engine_action a = {ENGINE_ACTION_SHIP, (uint8_t)seat, {f->lo[0], (int16_t)(n < f->hi[1] ? n : f->hi[1]), 0, 0}};
    return a;
}

/* Every seat a Karama window asks allows (the Guild's payment). */
static void allow_karama(engine_state *st, engine_rng *rng)
{
    for (const engine_frame *f = engine_window_top(st); f && f->point == ENGINE_WINDOW_KARAMA;
         f = engine_window_top(st)) {
        unsigned s = 0;
        while (!(engine_state_awaiting(st) & (1u << s)))
            s++;
        engine_action allow = {ENGINE_ACTION_KARAMA_ALLOW, (uint8_t)s, {0}};
        assert_int_equal(engine_apply(NULL, st, &allow, rng), ENGINE_ACCEPTED);
    }
}

static engine_action stop_answer(int cancel)
{
    return generic1(ENGINE_ACTION_ANSWER, S_GUILD, engine_window_from_slug("guild_karama_stop"),
                    cancel);
}

static unsigned on_board(const engine_state *st, unsigned seat)
{
    unsigned n = 0;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_COUNT; loc++)
        n += st->forces[loc][seat] + st->special[loc][seat];
    return n;
}

/* LR 1.14.05: another player's shipment from reserves is held for the
 * Guild, in an Advanced room of version 8, while they hold any card (a
 * public fact) and have not used their power; cancelling needs a Karama
 * (its family, and no_karama otherwise). Cancelled: nothing is shipped
 * nor paid, the card is spent, the shipper goes on to its move; allowed:
 * the shipment is made as it was, paid to the Guild. */
static void test_karama_powers__guild_stop_legal_exactly(void **state)
{
    (void)state;
    assert_true(engine_window_from_slug("guild_karama_stop") > 0);
    static const struct {
        int advanced;
        unsigned version;
        unsigned card;
    } rooms[] = {{1, 8, ENGINE_CARD_KARAMA}, {1, 8, ENGINE_CARD_SHIELD},
                 {1, 8, ENGINE_CARD_KIND_COUNT}, {1, 7, ENGINE_CARD_KARAMA},
                 {0, 8, ENGINE_CARD_KARAMA}};
    for (size_t r = 0; r < sizeof rooms / sizeof rooms[0]; r++) {
        engine_state st;
        engine_rng rng;
        guild_shipment(&st, &rng, rooms[r].advanced, rooms[r].version, rooms[r].card);
        until_asked(&st, &rng, S_HARKONNEN, ENGINE_ACTION_SHIP);
        engine_action ship = first_shipment(&st, S_HARKONNEN, 3);
        engine_state before = st;
        assert_int_equal(engine_apply(NULL, &st, &ship, &rng), ENGINE_ACCEPTED);
        allow_karama(&st, &rng);
        int asked = rooms[r].advanced && rooms[r].version >= 8 &&
                    rooms[r].card < ENGINE_CARD_KIND_COUNT;
        int karama = asked && rooms[r].card == ENGINE_CARD_KARAMA;
        const engine_frame *f = engine_window_top(&st);
        assert_int_equal(f != NULL && f->point == ENGINE_WINDOW_GENERIC &&
                             f->window == engine_window_from_slug("guild_karama_stop"),
                         asked);
        if (!asked) {
            assert_int_equal(on_board(&st, S_HARKONNEN), (unsigned)ship.arg[1]);
            continue;
        }
        /* Nothing is shipped while it is held; the Guild alone are asked. */
        assert_int_equal(engine_state_awaiting(&st), 1u << S_GUILD);
        assert_int_equal(on_board(&st, S_HARKONNEN), 0);
        assert_int_equal(st.seat[S_HARKONNEN].spice, before.seat[S_HARKONNEN].spice);
        assert_int_equal(engine_state_check(&st), 0);
        assert_int_equal(test_state_round_trip(&st), 0);
        engine_state copy;
        for (int c = -1; c <= 2; c++) {
            engine_action a = stop_answer(c);
            engine_verdict v = probe(&copy, &st, &a, 31);
            if (c == 1 && !karama)
                assert_int_equal(v, ENGINE_REJECT_NO_KARAMA);
            if (v != ENGINE_ACCEPTED)
                continue;
            assert_true(c == 0 || (c == 1 && karama));
            assert_null(engine_window_top(&copy));
            assert_int_equal(engine_state_check(&copy), 0);
            assert_int_equal(test_state_round_trip(&copy), 0);
            int paid = before.seat[S_HARKONNEN].spice - copy.seat[S_HARKONNEN].spice;
            if (c == 1) {
                /* Cancelled: as if never made; the Karama spent face up. */
                assert_int_equal(on_board(&copy, S_HARKONNEN), 0);
                assert_int_equal(copy.seat[S_HARKONNEN].reserves, before.seat[S_HARKONNEN].reserves);
                assert_int_equal(paid, 0);
                assert_int_equal(copy.seat[S_GUILD].spice, before.seat[S_GUILD].spice);
                assert_int_equal(copy.karama_power_used, 1u << S_GUILD);
                assert_int_equal(engine_karama_card(&copy, S_GUILD), CARD_NONE);
            } else {
                assert_int_equal(on_board(&copy, S_HARKONNEN), (unsigned)ship.arg[1]);
                assert_true(paid > 0);
                assert_int_equal(copy.seat[S_GUILD].spice - before.seat[S_GUILD].spice, paid);
                assert_int_equal(copy.karama_power_used, 0);
            }
            /* Either way the shipper's shipment is over: it moves next. */
            engine_legal l[ENGINE_LEGAL_MAX];
            assert_true(engine_state_awaiting(&copy) & (1u << S_HARKONNEN));
            assert_non_null(family_of(l, ENGINE_LEGAL_MAX, &copy, S_HARKONNEN, ENGINE_ACTION_MOVE_PASS));
            assert_null(family_of(l, ENGINE_LEGAL_MAX, &copy, S_HARKONNEN, ENGINE_ACTION_SHIP));
        }
    }
}

/* Once a game; the Fremen send is no shipment, nor is the Guild's own
 * shipment theirs to stop. */
static void test_karama_powers__guild_stop_once_and_only_shipments(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    guild_shipment(&st, &rng, 1, 8, ENGINE_CARD_KARAMA);
    assert_true(engine_position_give_card(&st, S_GUILD, ENGINE_CARD_KARAMA) >= 0);
    assert_true(engine_position_give_card(&st, S_GUILD, ENGINE_CARD_SHIELD) >= 0);
    for (unsigned turn = 0; turn < 3; turn++) {
        static const unsigned order[3] = {S_HARKONNEN, S_FREMEN, S_EMPEROR};
        unsigned seat = order[turn];
        unsigned kind = seat == S_FREMEN ? ENGINE_ACTION_FREMEN_SEND : ENGINE_ACTION_SHIP;
        until_asked(&st, &rng, seat, kind);
        engine_action a;
        if (kind == ENGINE_ACTION_SHIP) {
            a = first_shipment(&st, seat, 2);
        } else {
            engine_legal l[ENGINE_LEGAL_MAX];
            const engine_legal *f = family_of(l, ENGINE_LEGAL_MAX, &st, seat, kind);
            a = (engine_action){(uint8_t)kind, (uint8_t)seat, {f->lo[0], f->hi[1] < 2 ? f->hi[1] : 2, 0}};
        }
        assert_int_equal(engine_apply(NULL, &st, &a, &rng), ENGINE_ACCEPTED);
        allow_karama(&st, &rng);
        const engine_frame *f = engine_window_top(&st);
        int held = f != NULL && f->point == ENGINE_WINDOW_GENERIC &&
                   f->window == engine_window_from_slug("guild_karama_stop");
        /* the Harkonnen's, cancelled; never the send; the Emperor's after it: none */
        assert_int_equal(held, seat == S_HARKONNEN);
        if (held) {
            engine_action cancel = stop_answer(1);
            assert_int_equal(engine_apply(NULL, &st, &cancel, &rng), ENGINE_ACCEPTED);
        }
        assert_int_equal(engine_state_check(&st), 0);
    }
    assert_int_equal(st.karama_power_used, 1u << S_GUILD);
    assert_true(engine_karama_card(&st, S_GUILD) != CARD_NONE);
}

/* ============================================ the Atreides' look at a plan */

enum { P_ATREIDES = 0, P_HARKONNEN = 1 };

/* The Atreides (holding `karama` Karamas) and the Harkonnen (a Lasgun), 5
 * forces each on The Great Flat, in the Battle of room (advanced,
 * version), the prescience passed: both are asked for their plans. */
static void plan_battle(engine_state *st, int advanced, unsigned version, int karama)
{
    test_battle_table(st, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN, advanced, version,
                      SEED);
    engine_rng rng;
    for (int i = 0; i < karama; i++)
        assert_true(engine_position_give_card(st, P_ATREIDES, ENGINE_CARD_KARAMA) >= 0);
    assert_true(engine_position_give_card(st, P_HARKONNEN, ENGINE_CARD_LASGUN) >= 0);
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 3, 0, &rng), 0);
    engine_action pass = {ENGINE_ACTION_PRESCIENCE_PASS, P_ATREIDES, {0}};
    assert_int_equal(engine_apply(NULL, st, &pass, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_awaiting(st), (1u << P_ATREIDES) | (1u << P_HARKONNEN));
}

static engine_action plan_look(int faction)
{
    return generic1(ENGINE_ACTION_POWER, P_ATREIDES, engine_power_from_slug("atreides_karama_plan"),
                    faction);
}

/* `seat`'s plan: its first leader, `weapon` (a card or -1), dial 1. */
static engine_action plan_of(const engine_state *st, uint8_t seat, int weapon)
{
    engine_action act = {ENGINE_ACTION_BATTLE_PLAN, seat, {0, -1, -1, -1, 1, 1, 1, 1}};
    while (engine_leader_faction((unsigned)act.arg[0]) != st->seat[seat].faction)
        act.arg[0]++;
    act.arg[2] = (int16_t)weapon;
    return act;
}

/* LR 1.14.01: while the plans are made, the other side is accepted exactly
 * when a legal family holds it, in an Advanced room of version 8 with a
 * Karama; not_your_power elsewhere, no_karama without the card. */
static void test_karama_powers__atreides_plan_legal_exactly(void **state)
{
    (void)state;
    assert_true(engine_power_from_slug("atreides_karama_plan") > 0);
    for (size_t r = 0; r < sizeof TARGET_ROOMS / sizeof TARGET_ROOMS[0]; r++) {
        engine_state st, copy;
        plan_battle(&st, TARGET_ROOMS[r].advanced, TARGET_ROOMS[r].version,
                    TARGET_ROOMS[r].karama);
        memset(&copy, 0, sizeof copy);
        targets_tried(&copy, &st, r, plan_look, P_ATREIDES, ENGINE_FACTION_HARKONNEN);
        if (copy.phase == ENGINE_PHASE_BATTLE)
            assert_int_equal(engine_karama_card(&copy, P_ATREIDES), CARD_NONE);
    }
}

/* The look: nothing shown while the Harkonnen have not committed; their
 * whole plan (leader, dial, the Lasgun's face) shown to the Atreides, and
 * to no one else, once they have, before the reveal; the Atreides then
 * plan. Once a game; outside the Battle phase not_your_power. */
static void test_karama_powers__atreides_plan_seen_by_atreides_alone(void **state)
{
    (void)state;
    engine_state st;
    plan_battle(&st, 1, 8, 2);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 41);
    engine_action look = plan_look(ENGINE_FACTION_HARKONNEN);
    assert_int_equal(engine_apply(NULL, &st, &look, &rng), ENGINE_ACCEPTED);
    engine_state view;
    engine_view(&view, &st, P_ATREIDES);
    assert_int_equal(view.plan[1].leader, -1);
    /* A second look, a Karama still in hand: spent for the game. */
    assert_true(engine_karama_card(&st, P_ATREIDES) != CARD_NONE);
    engine_state copy;
    assert_int_equal(probe(&copy, &st, &look, 42), ENGINE_REJECT_ALREADY_ANSWERED);
    unsigned lasgun = hand_of_kind(&st, P_HARKONNEN, ENGINE_CARD_LASGUN);
    engine_action theirs = plan_of(&st, P_HARKONNEN, (int)lasgun);
    unsigned side = st.battle_seat[0] == P_HARKONNEN ? 0 : 1;
    assert_int_equal(engine_apply(NULL, &st, &theirs, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(test_state_round_trip(&st), 0);
    engine_view(&view, &st, P_ATREIDES);
    assert_int_equal(view.plan[side].leader, theirs.arg[0]);
    assert_int_equal(view.plan[side].weapon, (int)lasgun);
    assert_int_equal(view.plan[side].dial, st.plan[side].dial);
    assert_int_equal(view.card_kind[lasgun], ENGINE_CARD_LASGUN);
    engine_view(&view, &st, ENGINE_VIEW_PUBLIC);
    assert_int_equal(view.plan[side].leader, -1);
    assert_int_equal(view.card_kind[lasgun], ENGINE_CARD_KIND_UNKNOWN);
    /* The Atreides plan after seeing it; the plans are revealed. */
    engine_action ours = plan_of(&st, P_ATREIDES, -1);
    assert_int_equal(engine_apply(NULL, &st, &ours, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_check(&st), 0);
    /* Outside the Battle phase the row does not apply. */
    engine_state rev;
    table_of(&rev, (const uint8_t[3]){ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN,
                                      ENGINE_FACTION_EMPEROR}, 1, 8);
    assert_true(engine_position_give_card(&rev, 0, ENGINE_CARD_KARAMA) >= 0);
    enter(&rev, ENGINE_PHASE_REVIVAL);
    assert_true(engine_state_awaiting(&rev) & 1u);
    assert_int_equal(probe(&copy, &rev, &look, 43), ENGINE_REJECT_NOT_YOUR_POWER);
}

/* Random Advanced games of six, the Bene Gesserit dealt worthless cards:
 * every action drawn from the families is accepted, and the state holds
 * its invariants. */
static void test_karama_powers__random_advanced_games_legal(void **state)
{
    (void)state;
    for (uint64_t g = 0; g < 3; g++) {
        uint64_t prng = 1200 + g;
        engine_config cfg;
        test_random_config(&cfg, 6, 1, &prng);
        engine_state st;
        engine_rng rng;
        engine_rng_init(&rng, SEED, 0);
        assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
        for (uint32_t version = 1; version < 100000; version++) {
            engine_action act;
            if (test_random_legal(&act, &st, &prng) != 0)
                break;
            engine_rng_init(&rng, SEED, version);
            assert_int_equal(engine_apply(NULL, &st, &act, &rng), ENGINE_ACCEPTED);
            assert_int_equal(engine_state_check(&st), 0);
        }
        assert_int_equal(st.phase, ENGINE_PHASE_GAME_OVER);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_karama_powers__worthless_card_is_karama_only_for_advanced_bg),
        cmocka_unit_test(test_karama_powers__worthless_take_and_bid_legal_exactly),
        cmocka_unit_test(test_karama_powers__worthless_shipment_legal_exactly),
        cmocka_unit_test(test_karama_powers__emperor_revival_legal_exactly),
        cmocka_unit_test(test_karama_powers__emperor_revival_once_a_game),
        cmocka_unit_test(test_karama_powers__fremen_worm_legal_exactly),
        cmocka_unit_test(test_karama_powers__harkonnen_hand_legal_exactly),
        cmocka_unit_test(test_karama_powers__harkonnen_hand_swap),
        cmocka_unit_test(test_karama_powers__harkonnen_hand_only_in_bidding),
        cmocka_unit_test(test_karama_powers__guild_stop_legal_exactly),
        cmocka_unit_test(test_karama_powers__guild_stop_once_and_only_shipments),
        cmocka_unit_test(test_karama_powers__atreides_plan_legal_exactly),
        cmocka_unit_test(test_karama_powers__atreides_plan_seen_by_atreides_alone),
        cmocka_unit_test(test_karama_powers__random_advanced_games_legal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
