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
     * byte a seat, 3 seats), the advisor's accompanying send (1), and from
     * version 7 the faction Karama powers used (a u16 seat mask), the Guild's
     * turn and the Fremen's storm losses (2), and from version 8 the
     * Atreides' Karama look at a plan (1), the Karama stops that last (a
     * u32 advantage mask), the Harkonnen's captives (8) and the leader
     * drawn (1) */
    assert_int_equal(advanced - engine_state_encode(NULL, 0, &basic),
                     2u * 3u + 1u + 1u + 1u + 8u + (2u + 3u) + 3u + 1u + 2u + 1u + 2u + 4u + 8u +
                         1u);
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

/* Two worlds look alike to `viewer`: their views encode the same. */
static void views_alike(const engine_state world[2], uint8_t viewer)
{
    engine_state a, b;
    engine_view(&a, &world[0], viewer);
    engine_view(&b, &world[1], viewer);
    static uint8_t x[ENGINE_STATE_ENCODED_MAX], y[ENGINE_STATE_ENCODED_MAX];
    size_t lx = test_state_canonical(x, &a), ly = test_state_canonical(y, &b);
    assert_int_equal(lx, ly);
    assert_memory_equal(x, y, lx);
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
    for (unsigned i = 0; i < sizeof viewers; i++)
        views_alike(world, viewers[i]);
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

/* The shipments from reserves (`ship`, `fremen_send`) of `seat` to its
 * turn are accepted exactly when its legal families hold them: every
 * location, up to 4 plain and 3 elite forces. Returns how many accepted
 * ones ship elite forces. */
static unsigned shipments_exact(const engine_state *st, uint8_t seat, uint32_t version)
{
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n_legal = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, seat);
    assert_true(n_legal < ENGINE_LEGAL_MAX);
    unsigned elite_shipped = 0;
    static const uint8_t kinds[] = {ENGINE_ACTION_SHIP, ENGINE_ACTION_FREMEN_SEND};
    for (size_t k = 0; k < sizeof kinds; k++)
        for (int loc = 0; loc < ENGINE_LOCATION_COUNT - 1; loc++)
            for (int plain = 0; plain <= 4; plain++)
                for (int elite = 0; elite <= 3; elite++) {
                    engine_action ship = {.kind = kinds[k], .seat = seat,
                                          .arg = {(int16_t)loc, (int16_t)plain, (int16_t)elite}};
                    engine_state t = *st;
                    engine_rng rng;
                    engine_rng_init(&rng, SEED, version);
                    int ok = engine_apply(NULL, &t, &ship, &rng) == ENGINE_ACCEPTED;
                    int listed = 0;
                    for (size_t i = 0; i < n_legal && !listed; i++)
                        listed = engine_legal_contains(&legal[i], &ship);
                    assert_int_equal(ok, listed);
                    elite_shipped += (unsigned)(ok && elite);
                }
    return elite_shipped;
}

/* The seat awaited in Shipment and Movement is passed through its
 * shipment; 1 if it is then asked to move. */
static int to_move(engine_state *st, uint8_t seat, uint32_t *version)
{
    engine_rng rng;
    engine_action pass = {.kind = ENGINE_ACTION_SHIP_PASS, .seat = seat};
    engine_rng_init(&rng, SEED, (*version)++);
    if (engine_apply(NULL, st, &pass, &rng) != ENGINE_ACCEPTED)
        return 0;
    return engine_state_awaiting(st) == 1u << seat;
}

/* LR 2.03.08, 2.04.18 (a Sardaukar or a Fedaykin is an ordinary token
 * in shipment and movement): in an Advanced room of version 7 the
 * shipments from reserves (Fremen sends), the moves and Hajr moves
 * of the Emperor (holding the Hajr, 10 spice: a shipment's plain and
 * elite forces capped together) and the Fremen, elite forces alone or
 * with plain ones, are exactly what their legal families hold: every
 * from territory they stand in, every to, every count of each up to 3 and
 * every source, checked both ways. Version 6 rooms keep their families,
 * which offer plain forces only. */
static void test_advanced__elite_shipments_and_moves_legal_exactly(void **state)
{
    (void)state;
    static const uint8_t factions[3] = {ENGINE_FACTION_EMPEROR, ENGINE_FACTION_FREMEN,
                                        ENGINE_FACTION_HARKONNEN};
    static const unsigned versions[] = {7, 6};
    for (size_t vi = 0; vi < sizeof versions / sizeof versions[0]; vi++) {
        engine_state st;
        table(&st, factions, 1, versions[vi]);
        unsigned flat = location_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
        unsigned hagga = location_of(ENGINE_TERRITORY_HAGGA_BASIN);
        unsigned rock = location_of(ENGINE_TERRITORY_ROCK_OUTCROPPINGS);
        assert_int_equal(engine_position_forces(&st, 0, flat, 2, 2), 0);
        assert_int_equal(engine_position_forces(&st, 0, hagga, 0, 1), 0);
        assert_int_equal(engine_position_forces(&st, 1, rock, 0, 1), 0);
        assert_int_equal(engine_position_forces(&st, 1, location_of(ENGINE_TERRITORY_FUNERAL_PLAIN), 1, 1), 0);
        assert_true(engine_position_give_card(&st, 0, ENGINE_CARD_HAJR) >= 0); /* the only one */
        enter(&st, ENGINE_PHASE_SHIPMENT_MOVEMENT);
        uint32_t version = 2;
        unsigned seen = 0, accepted = 0, elite_alone = 0, hajr = 0, shipped = 0;
        while (st.phase == ENGINE_PHASE_SHIPMENT_MOVEMENT && seen < 3) {
            uint8_t seat = 0;
            while (!(engine_state_awaiting(&st) >> seat & 1))
                seat++;
            if (versions[vi] == 7) {
                shipped += shipments_exact(&st, seat, version);
            } else {
                static engine_legal ships[ENGINE_LEGAL_MAX];
                size_t n_ships = engine_legal_actions(ships, ENGINE_LEGAL_MAX, &st, seat);
                for (size_t i = 0; i < n_ships; i++)
                    assert_true((ships[i].kind != ENGINE_ACTION_SHIP &&
                                 ships[i].kind != ENGINE_ACTION_FREMEN_SEND) ||
                                ships[i].hi[2] == 0);
            }
            int moving = to_move(&st, seat, &version);
            seen++;
            static engine_legal legal[ENGINE_LEGAL_MAX];
            size_t n_legal = moving ? engine_legal_actions(legal, ENGINE_LEGAL_MAX, &st, seat) : 0;
            assert_true(n_legal < ENGINE_LEGAL_MAX);
            for (size_t i = 0; i < n_legal && versions[vi] == 6; i++)
                assert_true((legal[i].kind != ENGINE_ACTION_MOVE &&
                             legal[i].kind != ENGINE_ACTION_HAJR_MOVE) ||
                            legal[i].hi[3] == 0);
            for (int from = 0; moving && seat < 2 && versions[vi] == 7 &&
                               from < ENGINE_TERRITORY_HIDDEN_MOBILE_STRONGHOLD;
                 from++) {
                int here = 0;
                for (unsigned l = 0; l < ENGINE_LOCATION_COUNT - 1; l++)
                    here |= engine_location_territory(l) == (unsigned)from &&
                            (st.forces[l][seat] || st.special[l][seat]);
                if (!here)
                    continue;
                for (int to = 0; to < ENGINE_LOCATION_COUNT - 1; to++)
                    for (int plain = 0; plain <= 3; plain++)
                        for (int elite = 0; elite <= 3; elite++)
                            for (int source = 0; source < ENGINE_LOCATION_COUNT - 1; source++) {
                                if (source && engine_location_territory((unsigned)source) !=
                                                  (unsigned)from)
                                    continue;
                                for (int k = 0; k < 2; k++) {
                                    engine_action move = {
                                        .kind = k ? ENGINE_ACTION_HAJR_MOVE : ENGINE_ACTION_MOVE,
                                        .seat = seat,
                                        .arg = {(int16_t)from, (int16_t)to, (int16_t)plain,
                                                (int16_t)elite, (int16_t)source}};
                                    engine_state t = st;
                                    engine_rng rng;
                                    engine_rng_init(&rng, SEED, version);
                                    int ok = engine_apply(NULL, &t, &move, &rng) == ENGINE_ACCEPTED;
                                    int listed = 0;
                                    for (size_t i = 0; i < n_legal && !listed; i++)
                                        listed = engine_legal_contains(&legal[i], &move);
                                    assert_int_equal(ok, listed);
                                    if (!ok)
                                        assert_memory_equal(&t, &st, sizeof st);
                                    accepted += (unsigned)ok;
                                    elite_alone += (unsigned)(ok && !plain);
                                    hajr += (unsigned)(ok && k && elite);
                                }
                            }
            }
            if (st.phase != ENGINE_PHASE_SHIPMENT_MOVEMENT || !moving)
                continue;
            engine_action pass = {.kind = ENGINE_ACTION_MOVE_PASS, .seat = seat};
            engine_rng rng;
            engine_rng_init(&rng, SEED, version++);
            assert_int_equal(engine_apply(NULL, &st, &pass, &rng), ENGINE_ACCEPTED);
        }
        assert_int_equal(seen, 3);
        if (versions[vi] == 7) {
            assert_true(accepted > 0);
            assert_true(elite_alone > 0); /* the Sardaukar of Hagga Basin, the Fedaykin */
            assert_true(hajr > 0);
            assert_true(shipped > 0); /* Sardaukar shipped, Fedaykin sent */
        }
    }
}

/* ------------------------------------------------ prescience of the dial */

/* An Advanced battle in The Great Flat of rules `version`: the Atreides
 * (seat 0, 3 forces) against the Emperor (seat 1: 3 forces and 2
 * Sardaukar, `spice` spice), the Harkonnen (seat 2) looking on; the
 * Atreides asked for prescience. */
static void dial_battle(engine_state *st, unsigned version, unsigned spice)
{
    static const uint8_t factions[3] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_EMPEROR,
                                        ENGINE_FACTION_HARKONNEN};
    table(st, factions, 1, version);
    unsigned flat = location_of(ENGINE_TERRITORY_THE_GREAT_FLAT);
    assert_int_equal(engine_position_forces(st, 0, flat, 3, 0), 0);
    assert_int_equal(engine_position_forces(st, 1, flat, 3, 2), 0);
    assert_int_equal(engine_position_seat_spice(st, 1, spice), 0);
    enter(st, ENGINE_PHASE_BATTLE);
    assert_int_equal(engine_state_awaiting(st), 1u << 0);
}

static int listed(const engine_state *st, uint8_t seat, const engine_action *act)
{
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, seat);
    assert_true(n < ENGINE_LEGAL_MAX);
    for (size_t i = 0; i < n; i++)
        if (engine_legal_contains(&legal[i], act))
            return 1;
    return 0;
}

/* LR 2.01.05, 1.13.04 (docs/RULINGS.md R117): in an Advanced room of
 * version 7 the Atreides may ask the dial; the Emperor's answer, the
 * forces' strength in half points with its spice support, is accepted
 * exactly when a legal family holds it (every value 0..40, support
 * 0..8), and exactly the answers some plan can give are (2 spice: no
 * support above 2; 3 forces and 2 Sardaukar worth 2 each: at most 5
 * tokens, 14 half points). The answer then binds the plan: every forces
 * part is accepted exactly when listed, and exactly when its strength and
 * support are the answer's. Up to version 6 the dial is refused. */
static void test_advanced__dial_prescience_legal_exactly(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    engine_action ask = {.kind = ENGINE_ACTION_PRESCIENCE, .seat = 0, .arg = {ENGINE_PRESCIENCE_DIAL}};
    dial_battle(&st, 6, 2);
    engine_rng_init(&rng, SEED, 2);
    assert_int_equal(engine_apply(NULL, &st, &ask, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_false(listed(&st, 0, &ask));

    dial_battle(&st, 7, 2);
    assert_true(listed(&st, 0, &ask));
    engine_rng_init(&rng, SEED, 2);
    assert_int_equal(engine_apply(NULL, &st, &ask, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_awaiting(&st), 1u << 1);
    unsigned answers = 0, most = 0;
    for (int value = 0; value <= 40; value++)
        for (int support = -1; support <= 8; support++) { /* -1: absent */
            engine_action answer = {.kind = ENGINE_ACTION_PRESCIENCE_ANSWER, .seat = 1,
                                    .arg = {(int16_t)value, (int16_t)(support + 1)}};
            engine_state t = st;
            engine_rng_init(&rng, SEED, 3);
            int ok = engine_apply(NULL, &t, &answer, &rng) == ENGINE_ACCEPTED;
            assert_int_equal(ok, listed(&st, 1, &answer));
            if (!ok)
                assert_memory_equal(&t, &st, sizeof st);
            assert_true(!ok || (support >= 0 && support <= 2));
            answers += (unsigned)ok;
            most = ok && (unsigned)value > most ? (unsigned)value : most;
        }
    /* 2 Sardaukar and 0 plain supported, 3 plain at half: 8 + 3 */
    assert_int_equal(most, 11u);
    assert_true(answers > 20);
    /* 2 plain at full, 1 at half and 1 Sardaukar at half: 4 + 1 + 2 = 7
     * half points, 2 spice */
    engine_action answer = {.kind = ENGINE_ACTION_PRESCIENCE_ANSWER, .seat = 1, .arg = {7, 3}};
    engine_rng_init(&rng, SEED, 3);
    assert_int_equal(engine_apply(NULL, &st, &answer, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_battle_prescience_answer(&st), 7);
    assert_int_equal(engine_battle_prescience_support(&st), 2);
    assert_int_equal(engine_state_check(&st), 0);
    unsigned plans = 0;
    int leader = -1;
    for (int l = 0; l < ENGINE_LEADER_COUNT && leader < 0; l++)
        if (engine_leader_faction((unsigned)l) == ENGINE_FACTION_EMPEROR)
            leader = l;
    for (int dial = 0; dial <= 3; dial++)
        for (int half = 0; half <= 3; half++)
            for (int elite = 0; elite <= 2; elite++)
                for (int elite_half = 0; elite_half <= 2; elite_half++) {
                    engine_action plan = {.kind = ENGINE_ACTION_BATTLE_PLAN, .seat = 1,
                                          .arg = {(int16_t)leader, -1, -1, -1, (int16_t)dial,
                                                  (int16_t)(half + 1), (int16_t)(elite + 1),
                                                  (int16_t)(elite_half + 1)}};
                    engine_state t = st;
                    engine_rng_init(&rng, SEED, 4);
                    int ok = engine_apply(NULL, &t, &plan, &rng) == ENGINE_ACCEPTED;
                    assert_int_equal(ok, listed(&st, 1, &plan));
                    int gives = dial + half <= 3 && elite + elite_half <= 2 &&
                                2 * dial + half + 4 * elite + 2 * elite_half == 7 &&
                                dial + elite == 2;
                    assert_int_equal(ok, gives);
                    plans += (unsigned)ok;
                }
    assert_int_equal(plans, 2u); /* 2 + 1 half + 1 Sardaukar half; 1 + 1 Sardaukar + 1 half */
}

/* The dial's answer, strength and support, is told to the Atreides side
 * and the seat that gave it, and to nobody else (docs/RULINGS.md R117):
 * two worlds answered differently give the Harkonnen and a spectator
 * identical views, the Atreides different ones. */
static void test_advanced__dial_prescience_answer_private(void **state)
{
    (void)state;
    engine_state world[2];
    static const int16_t told[2][2] = {{7, 2}, {5, 1}};
    for (unsigned w = 0; w < 2; w++) {
        dial_battle(&world[w], 7, 2);
        engine_rng rng;
        engine_action ask = {.kind = ENGINE_ACTION_PRESCIENCE, .seat = 0,
                             .arg = {ENGINE_PRESCIENCE_DIAL}};
        engine_action answer = {.kind = ENGINE_ACTION_PRESCIENCE_ANSWER, .seat = 1,
                                .arg = {told[w][0], (int16_t)(told[w][1] + 1)}};
        engine_rng_init(&rng, SEED, 2);
        assert_int_equal(engine_apply(NULL, &world[w], &ask, &rng), ENGINE_ACCEPTED);
        engine_rng_init(&rng, SEED, 3);
        assert_int_equal(engine_apply(NULL, &world[w], &answer, &rng), ENGINE_ACCEPTED);
    }
    static const uint8_t outsiders[] = {2, ENGINE_VIEW_PUBLIC};
    for (unsigned i = 0; i < sizeof outsiders; i++) {
        views_alike(world, outsiders[i]);
        engine_state a;
        engine_view(&a, &world[0], outsiders[i]);
        assert_int_equal(engine_battle_prescience_support(&a), 0);
    }
    for (uint8_t seat = 0; seat < 2; seat++)
        for (unsigned w = 0; w < 2; w++) {
            engine_state v;
            engine_view(&v, &world[w], seat);
            assert_int_equal(engine_battle_prescience_answer(&v), told[w][0]);
            assert_int_equal(engine_battle_prescience_support(&v), told[w][1]);
        }
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
        cmocka_unit_test(test_advanced__elite_shipments_and_moves_legal_exactly),
        cmocka_unit_test(test_advanced__dial_prescience_legal_exactly),
        cmocka_unit_test(test_advanced__dial_prescience_answer_private),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
