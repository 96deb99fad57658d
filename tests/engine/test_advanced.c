/*
 * test_advanced.c - the Advanced game's phase rules and abilities built so
 * far (ADVANCED_RULES.md), through the engine API on constructed
 * positions: each is in force in an Advanced room of the rules version
 * it came with (5 on; the advisors' shipments, 6 on),
 * and in no Basic room nor any Advanced room recorded under an earlier
 * version (whose stored states must re-fold as they were); the position
 * API's advisors keep the one-side-per-territory rule. The rules
 * themselves, with their sources, are the tests/scenarios/advanced_*.json
 * scenarios.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {12, 5, 20, 26};

/* A constructed position of three seats of these factions. */
static void table(engine_state *st, const uint8_t faction[3], int advanced, unsigned version)
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
}

/* Harkonnen, Bene Gesserit and Emperor, every seat holding `spice`. */
static void position(engine_state *st, int advanced, unsigned version, unsigned spice)
{
    static const uint8_t factions[3] = {ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_BENE_GESSERIT,
                                        ENGINE_FACTION_EMPEROR};
    table(st, factions, advanced, version);
    for (uint8_t s = 0; s < 3; s++)
        assert_int_equal(engine_position_seat_spice(st, s, spice), 0);
}

static unsigned location_of(unsigned territory)
{
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine_location_territory(l) == territory)
            return l;
    fail();
    return 0;
}

static void enter(engine_state *st, unsigned phase)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, phase, 3, 0, &rng), 0);
    assert_int_equal(engine_state_check(st), 0);
}

/* LR 1.13.01: Carthag pays its occupant 2 in an Advanced room of version
 * 5; nothing in a Basic room, nor in an Advanced room of version 4. */
static void test_advanced__stronghold_income_only_in_version_5_advanced(void **state)
{
    (void)state;
    static const struct {
        int advanced;
        unsigned version;
        unsigned spice;            /* the Harkonnen's after the collection */
    } cases[] = {{1, 5, 2}, {1, 4, 0}, {0, 5, 0}, {0, 4, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_state st;
        position(&st, cases[i].advanced, cases[i].version, 0);
        assert_int_equal(engine_position_forces(&st, 0, location_of(ENGINE_TERRITORY_CARTHAG),
                                                1, 0), 0);
        uint32_t minted = st.spice_minted;
        enter(&st, ENGINE_PHASE_SPICE_COLLECTION);
        assert_int_equal(st.seat[0].spice, cases[i].spice);
        assert_int_equal(st.spice_minted - minted, cases[i].spice); /* from the bank */
    }
}

/* LR 2.02.09: the Bene Gesserit's 2 spice, whatever they hold, only in an
 * Advanced room of version 5; elsewhere, holding 5, they get nothing. */
static void test_advanced__bene_gesserit_charity_only_in_version_5_advanced(void **state)
{
    (void)state;
    static const struct {
        int advanced;
        unsigned version;
        unsigned spice;            /* the Bene Gesserit's once the phase began */
    } cases[] = {{1, 5, 7}, {1, 4, 5}, {0, 5, 5}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_state st;
        position(&st, cases[i].advanced, cases[i].version, 5);
        enter(&st, ENGINE_PHASE_CHOAM_CHARITY);
        assert_int_equal(st.seat[1].spice, cases[i].spice);
        assert_int_equal(st.phase, ENGINE_PHASE_BIDDING); /* nobody under 2: nobody asked */
    }
}

/* The Fremen's Advanced storm rules, in force in an Advanced room only:
 * the storm's turn-1 move is dialled and the first storm card is drawn
 * right after it, seen by the Fremen alone (LR 2.04.13, 2.04.14); from
 * turn 2 the card moves the storm and nobody dials; the storm kills half
 * the Fremen in a struck sector, rounded up, each Fedaykin counted as one
 * token (LR 2.04.16; D5: [TO]), plain forces first (docs/RULINGS.md R14),
 * and every other faction's forces there. */
static void fremen_position(engine_state *st, int advanced)
{
    static const uint8_t factions[3] = {ENGINE_FACTION_FREMEN, ENGINE_FACTION_HARKONNEN,
                                        ENGINE_FACTION_ATREIDES};
    table(st, factions, advanced, ENGINE_RULES_VERSION);
    int fremen_at = engine_location_find(ENGINE_TERRITORY_CIELAGO_NORTH, 2);
    int harkonnen_at = engine_location_find(ENGINE_TERRITORY_CIELAGO_NORTH, 1);
    assert_true(fremen_at >= 0 && harkonnen_at >= 0);
    assert_int_equal(engine_position_forces(st, 0, (unsigned)fremen_at, 3, advanced ? 2 : 0), 0);
    assert_int_equal(engine_position_forces(st, 1, (unsigned)harkonnen_at, 2, 0), 0);
}

static void dial(engine_state *st, unsigned seat, int value)
{
    engine_action a = {ENGINE_ACTION_STORM_DIAL, (uint8_t)seat, {(int16_t)value}};
    engine_rng rng;
    engine_rng_init(&rng, SEED, 7);
    assert_int_equal(engine_apply(NULL, st, &a, &rng), ENGINE_ACCEPTED);
}

/* The Fremen, asked which of their tokens the storm takes, lose
 * `fedaykin` Fedaykin. */
static void fremen_storm_losses(engine_state *st, int fedaykin)
{
    assert_int_equal(st->phase, ENGINE_PHASE_STORM);
    assert_int_equal(st->step, ENGINE_STORM_STEP_LOSSES);
    assert_int_equal(engine_state_awaiting(st), 1u << 0);
    engine_action a = {ENGINE_ACTION_POWER, 0, {engine_power_id("fremen_storm_losses"),
                                                (int16_t)fedaykin}};
    engine_rng rng;
    engine_rng_init(&rng, SEED, 8);
    assert_int_equal(engine_apply(NULL, st, &a, &rng), ENGINE_ACCEPTED);
}

static void test_advanced__fremen_storm_deck_and_half_losses(void **state)
{
    (void)state;
    for (int advanced = 1; advanced >= 0; advanced--) {
        engine_state st;
        fremen_position(&st, advanced);
        enter(&st, ENGINE_PHASE_STORM);
        /* Turn 1: dialled by the two seats nearest the storm (R10). */
        assert_int_equal(st.phase, ENGINE_PHASE_STORM);
        uint16_t dialers = engine_state_awaiting(&st);
        for (unsigned s = 0; s < 3; s++)
            if (dialers & (1u << s))
                dial(&st, s, 1);
        if (advanced) /* rules version 7: which tokens die is theirs to say (R14) */
            fremen_storm_losses(&st, 0);
        int fremen_at = engine_location_find(ENGINE_TERRITORY_CIELAGO_NORTH, 2);
        int harkonnen_at = engine_location_find(ENGINE_TERRITORY_CIELAGO_NORTH, 1);
        assert_int_equal(st.storm_sector, 2);
        assert_int_equal(st.forces[harkonnen_at][1], 0);
        if (advanced) {
            /* 5 tokens, 3 die: the 3 plain; both Fedaykin live. */
            assert_int_equal(st.forces[fremen_at][0], 0);
            assert_int_equal(st.special[fremen_at][0], 2);
            assert_int_equal(st.seat[0].tanks, 3);
            /* The next card is drawn now, the Fremen's secret. */
            assert_true(st.next_storm >= 1 && st.next_storm <= 6);
            engine_state view;
            engine_view(&view, &st, 0);
            assert_int_equal(view.next_storm, st.next_storm);
            engine_view(&view, &st, 1);
            assert_int_equal(view.next_storm, 0);
        } else {
            assert_int_equal(st.forces[fremen_at][0], 0);
            assert_int_equal(st.seat[0].tanks, 3);
            assert_int_equal(st.next_storm, 0);
        }
        /* Turn 2: the card drawn moves the storm, nobody dials. */
        fremen_position(&st, advanced);
        if (advanced)
            st.next_storm = 4;
        engine_rng rng;
        engine_rng_init(&rng, SEED, 3);
        assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_STORM, 2, 0, &rng), 0);
        if (advanced) {
            fremen_storm_losses(&st, 0);
            assert_int_not_equal(st.phase, ENGINE_PHASE_STORM);
            assert_int_equal(st.storm_sector, 4);
            assert_true(st.next_storm >= 1 && st.next_storm <= 6);
        } else {
            assert_int_equal(st.phase, ENGINE_PHASE_STORM);
            assert_int_equal(st.storm_sector, 0);
        }
    }
}

/* The double blow is built from rules version 6 on: an Advanced room of
 * version 5 (as stored rooms recorded it) still stops at its first Spice
 * Blow, waiting on nobody and refusing every action, and reveals nothing;
 * one of version 6 reveals pile A, and its pile B lies in the encoding
 * that a Basic room's lacks. */
static void test_advanced__double_blow_only_from_version_6(void **state)
{
    (void)state;
    engine_state st;
    position(&st, 1, 5, 0);
    unsigned deck = st.n_spice_deck;
    enter(&st, ENGINE_PHASE_SPICE_BLOW);
    assert_int_equal(st.phase, ENGINE_PHASE_SPICE_BLOW);
    assert_int_equal(engine_state_awaiting(&st), 0);
    assert_int_equal(st.n_spice_deck, deck);
    engine_action done = {ENGINE_ACTION_NEXUS_DONE, 0, {0}};
    engine_rng rng;
    engine_rng_init(&rng, SEED, 2);
    assert_int_equal(engine_apply(NULL, &st, &done, &rng), ENGINE_REJECT_PHASE_NOT_IMPLEMENTED);
    position(&st, 1, ENGINE_RULES_VERSION, 0);
    size_t advanced = engine_state_encode(NULL, 0, &st);
    enter(&st, ENGINE_PHASE_SPICE_BLOW);
    assert_true(st.n_spice_deck < deck);
    assert_true(st.n_spice_discard + st.n_spice_discard_b >= 2); /* a territory card each */
    engine_state basic;
    position(&basic, 0, ENGINE_RULES_VERSION, 0);
    /* the plans' forces by strength (2 x 3), then pile B (its count, empty),
     * the pile, its worms, the territories struck (8 bytes), then the other
     * blocks of an Advanced state of version 6 (docs/FORMAT.md): the Kwisatz
     * Haderach (a byte a plan, 3 for the token), the elite revival turn (a
     * byte a seat, 3 seats) and the advisor's accompanying send (1), and
     * of version 7 the Guild's turn and the Fremen's storm losses (2) */
    assert_int_equal(advanced - engine_state_encode(NULL, 0, &basic),
                     2u * 3u + 1u + 1u + 1u + 8u + (2u + 3u) + 3u + 1u + 2u);
}

/* The position API: advisors are the Advanced Bene Gesserit's, out of
 * their reserves, never in a territory beside their fighters (LR 2.02.20),
 * and a refused edit changes nothing. */
static void test_advanced__position_advisors(void **state)
{
    (void)state;
    engine_state st, before;
    unsigned arrakeen = location_of(ENGINE_TERRITORY_ARRAKEEN);
    unsigned carthag = location_of(ENGINE_TERRITORY_CARTHAG);
    position(&st, 1, ENGINE_RULES_VERSION, 0);
    unsigned reserves = st.seat[1].reserves;
    assert_int_equal(engine_position_advisors(&st, 1, arrakeen, 2), 0);
    assert_int_equal(st.advisors[arrakeen], 2);
    assert_int_equal(st.seat[1].reserves, reserves - 2);
    memcpy(&before, &st, sizeof before);
    assert_int_equal(engine_position_advisors(&st, 0, carthag, 1), -1);  /* not the BG */
    assert_int_equal(engine_position_forces(&st, 1, arrakeen, 1, 0), -1); /* beside advisors */
    assert_int_equal(engine_position_advisors(&st, 1, carthag, 99), -1); /* too few */
    assert_memory_equal(&before, &st, sizeof before);
    assert_int_equal(engine_position_forces(&st, 1, carthag, 1, 0), 0);
    memcpy(&before, &st, sizeof before);
    assert_int_equal(engine_position_advisors(&st, 1, carthag, 1), -1); /* beside fighters */
    assert_memory_equal(&before, &st, sizeof before);
    assert_int_equal(engine_state_check(&st), 0);

    position(&st, 0, ENGINE_RULES_VERSION, 0);
    memcpy(&before, &st, sizeof before);
    assert_int_equal(engine_position_advisors(&st, 1, arrakeen, 1), -1); /* Basic: none */
    assert_memory_equal(&before, &st, sizeof before);
}

/* ------------------------------------------------ battles, random play */

#define BATTLES 300

static const uint8_t classic[] = {
    ENGINE_FACTION_ATREIDES, ENGINE_FACTION_BENE_GESSERIT, ENGINE_FACTION_EMPEROR,
    ENGINE_FACTION_FREMEN,   ENGINE_FACTION_HARKONNEN,     ENGINE_FACTION_GUILD,
};

static int contained(const engine_state *st, const engine_action *act)
{
    int c = test_legal_contains(st, act);
    assert_true(c >= 0);
    return c;
}

/* A battle plan of either side with arbitrary forces by strength. */
static void random_plan(engine_action *act, const engine_state *st, uint64_t *prng)
{
    memset(act, 0, sizeof *act);
    act->kind = ENGINE_ACTION_BATTLE_PLAN;
    act->seat = st->battle_seat[test_prng_below(prng, 2)];
    act->arg[0] = (int16_t)((int)test_prng_below(prng, ENGINE_LEADER_COUNT + 1) - 1);
    act->arg[1] = act->arg[2] = act->arg[3] = -1;
    for (unsigned i = 4; i < 8; i++) /* 5..7 held as n + 1; 0 (absent) is refused */
        act->arg[i] = (int16_t)test_prng_below(prng, i == 4 || i == 5 ? 12 : 5);
}

/* An Advanced battle between two random classic factions, with random
 * forces, elite forces, spice and cards, played to its end by random
 * legal actions: every one accepted and keeping the invariants; arbitrary
 * plans accepted exactly when a legal family holds them (the caps of the
 * spice support included), a rejection leaving the state as it was; the
 * encoding round-trips; every plan's strength is its forces' count. */
static void test_advanced__random_battles_legal_exactly(void **state)
{
    (void)state;
    unsigned plans = 0, capped = 0;
    for (uint64_t g = 0; g < BATTLES; g++) {
        uint64_t prng = g * 2654435761u + 17;
        engine_config cfg;
        engine_config_init(&cfg);
        cfg.n_seats = 2;
        unsigned a = test_prng_below(&prng, 6), b = (a + 1 + test_prng_below(&prng, 5)) % 6;
        cfg.faction[0] = classic[a];
        cfg.faction[1] = classic[b];
        cfg.is_advanced = 1;
        uint8_t seed[ENGINE_SEED_BYTES] = {(uint8_t)g, (uint8_t)(g >> 8), 99};
        engine_rng rng;
        engine_rng_init(&rng, seed, 0);
        engine_state st;
        assert_int_equal(engine_position_new(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
        unsigned loc = location_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
        for (uint8_t s = 0; s < 2; s++) {
            unsigned plain = 1 + test_prng_below(&prng, st.seat[s].reserves < 10 ? st.seat[s].reserves : 10);
            unsigned elite = st.seat[s].special_reserves ? test_prng_below(&prng, st.seat[s].special_reserves + 1u) : 0;
            assert_int_equal(engine_position_forces(&st, s, loc, plain, elite), 0);
            assert_int_equal(engine_position_seat_spice(&st, s, test_prng_below(&prng, 12)), 0);
            static const unsigned kinds[] = {ENGINE_CARD_CRYSKNIFE, ENGINE_CARD_SHIELD,
                                             ENGINE_CARD_CHAUMAS, ENGINE_CARD_SNOOPER,
                                             ENGINE_CARD_CHEAP_HERO, ENGINE_CARD_LASGUN};
            for (unsigned k = test_prng_below(&prng, 3); k-- > 0;)
                (void)engine_position_give_card(&st, s, kinds[test_prng_below(&prng, 6)]);
        }
        engine_rng_init(&rng, seed, 1);
        assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_BATTLE, 3, 0, &rng), 0);
        for (uint32_t version = 2; st.phase == ENGINE_PHASE_BATTLE && version < 200; version++) {
            assert_int_equal(engine_state_check(&st), 0);
            static uint8_t x[ENGINE_STATE_ENCODED_MAX], y[ENGINE_STATE_ENCODED_MAX];
            size_t lx = engine_state_encode(x, sizeof x, &st);
            engine_state back;
            assert_int_equal(engine_state_decode(&back, x, lx), 0);
            assert_int_equal(engine_state_encode(y, sizeof y, &back), lx);
            assert_memory_equal(x, y, lx);
            for (int i = 0; i < 30; i++) {
                engine_action act;
                random_plan(&act, &st, &prng);
                engine_state copy = st;
                int want = contained(&st, &act);
                engine_rng_init(&rng, seed, version);
                engine_verdict v = engine_apply(NULL, &copy, &act, &rng);
                if (want) {
                    assert_int_equal(v, ENGINE_ACCEPTED);
                } else {
                    assert_int_not_equal(v, ENGINE_ACCEPTED);
                    assert_memory_equal(&copy, &st, sizeof st);
                }
            }
            engine_action act;
            if (test_random_legal(&act, &st, &prng) != 0)
                break;
            assert_true(contained(&st, &act));
            engine_rng_init(&rng, seed, version);
            assert_int_equal(engine_apply(NULL, &st, &act, &rng), ENGINE_ACCEPTED);
            if (act.kind == ENGINE_ACTION_BATTLE_PLAN) {
                plans++;
                capped += act.arg[5] + act.arg[7] > 2; /* held as n + 1: some at half */
            }
        }
        assert_int_not_equal(st.phase, ENGINE_PHASE_BATTLE); /* every battle ends */
    }
    assert_true(plans >= BATTLES);
    assert_true(capped > BATTLES / 4); /* forces at half strength were played */
}

/* The forces by strength of a plan committed but not revealed (and so
 * its spice support) are a new hidden fact: two worlds where the
 * Harkonnen committed the same plan but for its forces at half strength
 * give the Emperor and a spectator identical views; the Harkonnen see
 * their own. */
static void test_advanced__support_hidden_until_reveal(void **state)
{
    (void)state;
    engine_state world[2];
    for (unsigned w = 0; w < 2; w++) {
        engine_config cfg;
        engine_config_init(&cfg);
        cfg.n_seats = 2;
        cfg.faction[0] = ENGINE_FACTION_EMPEROR;
        cfg.faction[1] = ENGINE_FACTION_HARKONNEN;
        cfg.is_advanced = 1;
        engine_rng rng;
        engine_rng_init(&rng, SEED, 0);
        engine_state *st = &world[w];
        assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
        unsigned flat = location_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
        assert_int_equal(engine_position_forces(st, 0, flat, 4, 2), 0);
        assert_int_equal(engine_position_forces(st, 1, flat, 8, 0), 0);
        assert_int_equal(engine_position_seat_spice(st, 1, 6), 0);
        assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 3, 0, &rng), 0);
        /* 1 force at full strength, and none or 6 at half: the worlds
         * differ in the new fields alone */
        engine_action plan = {ENGINE_ACTION_BATTLE_PLAN, 1,
                              {0, -1, -1, -1, 1, w ? 7 : 1, 1, 1}};
        plan.arg[0] = -1;
        for (int l = 0; l < ENGINE_LEADER_COUNT; l++)
            if (engine_leader_faction((unsigned)l) == ENGINE_FACTION_HARKONNEN) {
                plan.arg[0] = (int16_t)l;
                break;
            }
        engine_rng_init(&rng, SEED, 2);
        assert_int_equal(engine_apply(NULL, st, &plan, &rng), ENGINE_ACCEPTED);
        assert_int_equal(st->phase, ENGINE_PHASE_BATTLE);
        assert_int_equal(engine_plan_support(st, 1), 1u);
        assert_int_equal(engine_plan_forces_strength2(st, 1), w ? 8u : 2u);
    }
    static const uint8_t viewers[] = {0, ENGINE_VIEW_PUBLIC};
    for (unsigned i = 0; i < sizeof viewers; i++) {
        engine_state a, b;
        engine_view(&a, &world[0], viewers[i]);
        engine_view(&b, &world[1], viewers[i]);
        static uint8_t x[ENGINE_STATE_ENCODED_MAX], y[ENGINE_STATE_ENCODED_MAX];
        size_t lx = test_state_canonical(x, &a), ly = test_state_canonical(y, &b);
        assert_int_equal(lx, ly);
        assert_memory_equal(x, y, lx);
    }
    engine_state own;
    engine_view(&own, &world[1], 1);
    assert_int_equal(own.plan[1].half, 6);
    assert_int_equal(engine_plan_support(&own, 1), 1u);
}

/* LR 2.02.11: after the Harkonnen ship to Habbanya Erg (west), the Bene
 * Gesserit's send is exactly what its legal families hold: nothing, the
 * Polar Sink, and in an Advanced room of version 6 an advisor to the
 * shipment's own location, which the state encodes while it is asked
 * (round trip) and forgets once answered. */
static void test_advanced__accompanying_advisor_legal_exactly(void **state)
{
    (void)state;
    static const struct {
        int advanced;
        unsigned version;
        int accompanies;
    } cases[] = {{1, 6, 1}, {1, 5, 0}, {0, 6, 0}};
    unsigned erg = 75; /* Habbanya Erg, west, sector 15 */
    assert_int_equal(engine_location_territory(erg), ENGINE_TERRITORY_HABBANYA_ERG);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_state st;
        position(&st, cases[i].advanced, cases[i].version, 10);
        enter(&st, ENGINE_PHASE_SHIPMENT_MOVEMENT);
        engine_action ship = {.kind = ENGINE_ACTION_SHIP, .seat = 0, .arg = {(int16_t)erg, 2}};
        engine_rng rng;
        engine_rng_init(&rng, SEED, 2);
        assert_int_equal(engine_apply(NULL, &st, &ship, &rng), ENGINE_ACCEPTED);
        assert_int_equal(engine_state_awaiting(&st), 1u << 1);
        assert_int_equal(st.bg_accompany, cases[i].accompanies ? erg + 1 : 0);
        assert_int_equal(test_state_round_trip(&st), 0);
        unsigned accepted = 0;
        for (int16_t yes = 0; yes <= 1; yes++)
            for (int16_t to = 0; to < ENGINE_LOCATION_COUNT - 1; to++) {
                engine_state t = st;
                engine_action send = {.kind = ENGINE_ACTION_BG_SEND, .seat = 1, .arg = {yes, to}};
                engine_rng_init(&rng, SEED, 3);
                int ok = engine_apply(NULL, &t, &send, &rng) == ENGINE_ACCEPTED;
                assert_int_equal(ok, test_legal_contains(&st, &send));
                if (!ok)
                    continue;
                accepted++;
                assert_int_equal(t.bg_accompany, 0);
                assert_int_equal(t.advisors[erg], yes && to != 0);
                assert_int_equal(t.forces[0][1], yes && to == 0);
            }
        assert_int_equal(accepted, cases[i].accompanies ? 3u : 2u);
    }
}

/* LR 2.02.17-2.02.19: in the Revival, the Bene Gesserit's WARTIME is
 * accepted for exactly the territories its legal families hold: Arrakeen
 * (advisors beside the Harkonnen), not Carthag (a third faction), not
 * Cielago North (under the storm), not a territory without advisors; and
 * not at all in an Advanced room of version 5. */
static void test_advanced__wartime_legal_exactly(void **state)
{
    (void)state;
    static const struct {
        unsigned version;
        unsigned accepted;
    } cases[] = {{6, 1}, {5, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_state st;
        position(&st, 1, cases[i].version, 10);
        unsigned arrakeen = location_of(ENGINE_TERRITORY_ARRAKEEN);
        unsigned carthag = location_of(ENGINE_TERRITORY_CARTHAG);
        assert_int_equal(engine_position_forces(&st, 0, arrakeen, 2, 0), 0);
        assert_int_equal(engine_position_advisors(&st, 1, arrakeen, 2), 0);
        assert_int_equal(engine_position_forces(&st, 0, carthag, 1, 0), 0);
        assert_int_equal(engine_position_forces(&st, 2, carthag, 1, 0), 0);
        assert_int_equal(engine_position_advisors(&st, 1, carthag, 1), 0);
        assert_int_equal(engine_position_advisors(&st, 1, 9, 1), 0); /* Cielago North, sector 0 */
        assert_int_equal(engine_position_tanks(&st, 1, 2, 0), 0);
        enter(&st, ENGINE_PHASE_REVIVAL);
        assert_true(engine_state_awaiting(&st) & (1u << 1));
        unsigned accepted = 0;
        for (int t = 0; t < ENGINE_TERRITORY_COUNT; t++) {
            engine_state w = st;
            engine_action use = {.kind = ENGINE_ACTION_POWER, .seat = 1,
                                 .arg = {engine_power_id("bg_wartime"), (int16_t)t}};
            engine_rng rng;
            engine_rng_init(&rng, SEED, 2);
            int ok = engine_apply(NULL, &w, &use, &rng) == ENGINE_ACCEPTED;
            assert_int_equal(ok, test_legal_contains(&st, &use));
            if (!ok)
                continue;
            accepted++;
            assert_int_equal(t, ENGINE_TERRITORY_ARRAKEEN);
            assert_int_equal(w.advisors[arrakeen], 0);
            assert_int_equal(w.forces[arrakeen][1], 2);
        }
        assert_int_equal(accepted, cases[i].accepted);
    }
}

/* LR 2.02.12-2.02.20: the Bene Gesserit's moves in an Advanced room of
 * version 6, advisors among their groups, are exactly what their legal
 * families hold, `fighters` (TAKE UP ARMS) included: every from, to and
 * count up to 3, source absent, checked both ways. */
static void test_advanced__advisor_moves_legal_exactly(void **state)
{
    (void)state;
    engine_state st;
    position(&st, 1, 6, 10);
    unsigned arrakeen = location_of(ENGINE_TERRITORY_ARRAKEEN);
    unsigned carthag = location_of(ENGINE_TERRITORY_CARTHAG);
    assert_int_equal(engine_position_forces(&st, 0, arrakeen, 2, 0), 0);
    assert_int_equal(engine_position_advisors(&st, 1, arrakeen, 2), 0);
    assert_int_equal(engine_position_forces(&st, 1, carthag, 1, 0), 0);
    assert_int_equal(engine_position_forces(&st, 2, 2, 1, 0), 0); /* Imperial Basin, 9 */
    assert_int_equal(engine_position_advisors(&st, 1, 0, 1), 0);  /* the Polar Sink */
    enter(&st, ENGINE_PHASE_SHIPMENT_MOVEMENT);
    /* the Harkonnen ship first: pass, pass; then the Bene Gesserit */
    engine_rng rng;
    engine_action pass = {.kind = ENGINE_ACTION_SHIP_PASS, .seat = 0};
    engine_rng_init(&rng, SEED, 2);
    assert_int_equal(engine_apply(NULL, &st, &pass, &rng), ENGINE_ACCEPTED);
    pass.kind = ENGINE_ACTION_MOVE_PASS;
    assert_int_equal(engine_apply(NULL, &st, &pass, &rng), ENGINE_ACCEPTED);
    pass.kind = ENGINE_ACTION_SHIP_PASS;
    pass.seat = 1;
    assert_int_equal(engine_apply(NULL, &st, &pass, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_awaiting(&st), 1u << 1);
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n_legal = engine_legal_actions(legal, ENGINE_LEGAL_MAX, &st, 1);
    assert_true(n_legal < ENGINE_LEGAL_MAX);
    unsigned accepted = 0, up_in_arms = 0;
    for (int from = 0; from < ENGINE_TERRITORY_COUNT; from++)
        for (int to = 0; to < ENGINE_LOCATION_COUNT - 1; to++)
            for (int n = 1; n <= 3; n++)
                for (int fighters = 0; fighters <= 2; fighters++) {
                    engine_action move = {.kind = ENGINE_ACTION_MOVE, .seat = 1,
                                          .arg = {(int16_t)from, (int16_t)to, (int16_t)n, 0, 0,
                                                  (int16_t)fighters}};
                    engine_state t = st;
                    engine_rng_init(&rng, SEED, 3);
                    int ok = engine_apply(NULL, &t, &move, &rng) == ENGINE_ACCEPTED;
                    int listed = 0;
                    for (size_t i = 0; i < n_legal && !listed; i++)
                        listed = engine_legal_contains(&legal[i], &move);
                    assert_int_equal(ok, listed);
                    accepted += (unsigned)ok;
                    up_in_arms += (unsigned)(ok && fighters);
                }
    assert_true(accepted > 0);
    /* 1 or 2 advisors of Arrakeen into Imperial Basin's sector 9, beside the
     * Emperor, at least */
    assert_true(up_in_arms >= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_advanced__fremen_storm_deck_and_half_losses),
        cmocka_unit_test(test_advanced__double_blow_only_from_version_6),
        cmocka_unit_test(test_advanced__stronghold_income_only_in_version_5_advanced),
        cmocka_unit_test(test_advanced__bene_gesserit_charity_only_in_version_5_advanced),
        cmocka_unit_test(test_advanced__position_advisors),
        cmocka_unit_test(test_advanced__random_battles_legal_exactly),
        cmocka_unit_test(test_advanced__support_hidden_until_reveal),
        cmocka_unit_test(test_advanced__accompanying_advisor_legal_exactly),
        cmocka_unit_test(test_advanced__wartime_legal_exactly),
        cmocka_unit_test(test_advanced__advisor_moves_legal_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
