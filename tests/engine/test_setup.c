/*
 * test_setup.c - the opening of a game (DUNE_RULES_DIGEST.md 3.2, LR 0.x):
 * configuration checks, starting position, the prediction, traitors, the
 * Fremen and Advanced Bene Gesserit placements, the starting cards. Each
 * rejection also checks that the state is byte-identical afterwards.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "engine/engine.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {7, 1, 2, 3};

static engine_verdict setup(engine_state *st, const uint8_t *factions, unsigned n, int advanced)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = (uint8_t)n;
    for (unsigned i = 0; i < n; i++)
        cfg.faction[i] = factions[i];
    cfg.is_advanced = (uint8_t)advanced;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    return engine_setup(NULL, st, &cfg, &rng);
}

static engine_verdict apply(engine_state *st, unsigned kind, unsigned seat, int a0, int a1)
{
    engine_action act = {0};
    act.kind = (uint8_t)kind;
    act.seat = (uint8_t)seat;
    act.arg[0] = (int16_t)a0;
    act.arg[1] = (int16_t)a1;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    return engine_apply(NULL, st, &act, &rng);
}

/* Applies an action that must be rejected with `want` and leave st as it was. */
static void expect_reject(engine_state *st, const engine_action *act, engine_verdict want)
{
    engine_state before;
    memcpy(&before, st, sizeof before);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    engine_verdict_detail why;
    assert_int_equal(engine_apply(&why, st, act, &rng), want);
    assert_memory_equal(&before, st, sizeof before);
}

static const uint8_t SIX[6] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_BENE_GESSERIT,
                               ENGINE_FACTION_EMPEROR, ENGINE_FACTION_FREMEN,
                               ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_GUILD};

/* LR 0.02: 2 to 6 distinct factions; expansion factions are not built yet. */
static void test_setup__refuses_bad_configurations(void **state)
{
    (void)state;
    engine_state st;
    assert_int_equal(setup(&st, SIX, 1, 0), ENGINE_REJECT_BAD_CONFIG);
    uint8_t dup[3] = {ENGINE_FACTION_FREMEN, ENGINE_FACTION_GUILD, ENGINE_FACTION_FREMEN};
    assert_int_equal(setup(&st, dup, 3, 0), ENGINE_REJECT_BAD_CONFIG);
    uint8_t ix[2] = {ENGINE_FACTION_IXIANS, ENGINE_FACTION_GUILD};
    assert_int_equal(setup(&st, ix, 2, 0), ENGINE_REJECT_RULE_NOT_IMPLEMENTED);
    uint8_t bad[2] = {ENGINE_FACTION_COUNT, ENGINE_FACTION_GUILD};
    assert_int_equal(setup(&st, bad, 2, 0), ENGINE_REJECT_BAD_CONFIG);

    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 2;
    cfg.faction[0] = ENGINE_FACTION_ATREIDES;
    cfg.faction[1] = ENGINE_FACTION_GUILD;
    cfg.modules = 1u << 1; /* tech_tokens: not built */
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_REJECT_RULE_NOT_IMPLEMENTED);
    /* The Nexus Cards need three seats (test_nexus.c has the rest). */
    cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_REJECT_BAD_CONFIG);
    cfg.modules = 0;
    cfg.turn_limit = 21;
    assert_int_equal(engine_setup(NULL, &st, &cfg, &rng), ENGINE_REJECT_BAD_CONFIG);
}

/* DUNE_RULES_DIGEST.md 3.2: starting spice, forces, positions, decks. */
static void test_setup__starting_position(void **state)
{
    (void)state;
    engine_state st;
    assert_int_equal(setup(&st, SIX, 6, 0), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_check(&st), 0);
    const int spice[6] = {10, 5, 10, 3, 10, 5};
    for (int s = 0; s < 6; s++)
        assert_int_equal(st.seat[s].spice, spice[s]);
    int arrakeen = engine_location_find(ENGINE_TERRITORY_ARRAKEEN, 9);
    int carthag = engine_location_find(ENGINE_TERRITORY_CARTHAG, 10);
    int tueks = engine_location_find(ENGINE_TERRITORY_TUEKS_SIETCH, 4);
    int polar = engine_location_find(ENGINE_TERRITORY_POLAR_SINK, ENGINE_NO_SECTOR);
    assert_int_equal(st.forces[arrakeen][0], 10);
    assert_int_equal(st.forces[carthag][4], 10);
    assert_int_equal(st.forces[tueks][5], 5);
    assert_int_equal(st.forces[polar][1], 1);
    assert_int_equal(st.seat[0].reserves, 10);
    assert_int_equal(st.seat[1].reserves, 19);
    assert_int_equal(st.seat[2].reserves, 20);
    assert_int_equal(st.seat[3].reserves, 20); /* Fremen have not placed yet */
    assert_int_equal(st.n_cards, 33);
    assert_int_equal(st.n_deck, 33);
    assert_int_equal(st.n_spice_deck, 21);
    assert_int_equal(st.n_traitor_deck, 30);
    assert_int_equal(st.spice_minted, 43);
    /* The prediction comes first, from the Bene Gesserit alone. */
    assert_int_equal(st.phase, ENGINE_PHASE_SETUP);
    assert_int_equal(engine_state_awaiting(&st), 1u << 1);
    /* Player markers are distinct and spaced around the map edge. */
    for (int s = 1; s < 6; s++)
        assert_true(st.seat[s].position > st.seat[s - 1].position);
}

/* Advanced: 5 of the Emperor's 20 are Sardaukar, 3 of the Fremen's Fedaykin. */
static void test_setup__advanced_elite_forces(void **state)
{
    (void)state;
    engine_state st;
    assert_int_equal(setup(&st, SIX, 6, 1), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[2].reserves, 15);
    assert_int_equal(st.seat[2].special_reserves, 5);
    assert_int_equal(st.seat[3].special_reserves, 3);
    int polar = engine_location_find(ENGINE_TERRITORY_POLAR_SINK, ENGINE_NO_SECTOR);
    assert_int_equal(st.forces[polar][1], 0); /* BG chooses in the Advanced game */
}

/* LR 2.02.01: the prediction names another faction in the game and a turn. */
static void test_setup__prediction(void **state)
{
    (void)state;
    engine_state st;
    uint8_t three[3] = {ENGINE_FACTION_BENE_GESSERIT, ENGINE_FACTION_HARKONNEN,
                        ENGINE_FACTION_ATREIDES};
    assert_int_equal(setup(&st, three, 3, 0), ENGINE_ACCEPTED);
    engine_action act = {ENGINE_ACTION_PREDICT, 0, {ENGINE_FACTION_BENE_GESSERIT, 3}};
    expect_reject(&st, &act, ENGINE_REJECT_PREDICT_OWN_FACTION);
    act.arg[0] = ENGINE_FACTION_FREMEN;
    expect_reject(&st, &act, ENGINE_REJECT_PREDICT_FACTION_ABSENT);
    act.arg[0] = ENGINE_FACTION_HARKONNEN;
    act.arg[1] = 11;
    expect_reject(&st, &act, ENGINE_REJECT_PREDICT_TURN);
    act.arg[1] = 0;
    expect_reject(&st, &act, ENGINE_REJECT_PREDICT_TURN);
    act.seat = 1; /* Harkonnen may not predict */
    act.arg[1] = 4;
    expect_reject(&st, &act, ENGINE_REJECT_NOT_AWAITED);
    act.kind = ENGINE_ACTION_STORM_DIAL;
    act.seat = 0;
    act.arg[0] = 3;
    act.arg[1] = 0;
    expect_reject(&st, &act, ENGINE_REJECT_WRONG_PHASE);
    assert_int_equal(apply(&st, ENGINE_ACTION_PREDICT, 0, ENGINE_FACTION_HARKONNEN, 4),
                     ENGINE_ACCEPTED);
    assert_int_equal(st.prediction_faction, ENGINE_FACTION_HARKONNEN);
    assert_int_equal(st.prediction_turn, 4);
    /* Then the traitors are dealt: Harkonnen keep all four at once. */
    int held = 0;
    for (int l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st.traitor[l].holder == 1) {
            held++;
            assert_int_equal(st.traitor[l].place, ENGINE_PLACE_HAND);
            assert_int_equal(st.traitor[l].known_by, 1u << 1);
        }
    assert_int_equal(held, 4);
    assert_int_equal(engine_state_awaiting(&st), (1u << 0) | (1u << 2));
}

/* LR 0.06: keep one of the four dealt; a card not dealt to you is refused. */
static void test_setup__traitor_pick(void **state)
{
    (void)state;
    engine_state st;
    uint8_t two[2] = {ENGINE_FACTION_ATREIDES, ENGINE_FACTION_GUILD};
    assert_int_equal(setup(&st, two, 2, 0), ENGINE_ACCEPTED);
    int mine = -1, theirs = -1;
    for (int l = 0; l < ENGINE_LEADER_COUNT; l++) {
        if (st.traitor[l].place == ENGINE_PLACE_DEALT && st.traitor[l].holder == 0)
            mine = l;
        if (st.traitor[l].place == ENGINE_PLACE_DEALT && st.traitor[l].holder == 1)
            theirs = l;
    }
    assert_true(mine >= 0 && theirs >= 0);
    engine_action act = {ENGINE_ACTION_TRAITOR_PICK, 0, {(int16_t)theirs}};
    expect_reject(&st, &act, ENGINE_REJECT_TRAITOR_NOT_DEALT);
    act.arg[0] = ENGINE_LEADER_COUNT;
    expect_reject(&st, &act, ENGINE_REJECT_ARG_OUT_OF_RANGE);
    act.arg[0] = (int16_t)mine;
    act.arg[1] = 5; /* an argument the kind does not have */
    expect_reject(&st, &act, ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(apply(&st, ENGINE_ACTION_TRAITOR_PICK, 0, mine, 0), ENGINE_ACCEPTED);
    assert_int_equal(st.traitor[mine].place, ENGINE_PLACE_HAND);
    act.arg[1] = 0;
    expect_reject(&st, &act, ENGINE_REJECT_ALREADY_ANSWERED);
    int discarded = 0;
    for (int l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st.traitor[l].place == ENGINE_PLACE_DISCARD) {
            discarded++;
            assert_int_equal(st.traitor[l].known_by, 1u << 0); /* still known to its viewer */
        }
    assert_int_equal(discarded, 3);
}

/* Drives a game to the given setup step with random legal actions. */
static void play_until(engine_state *st, unsigned phase, unsigned kind, uint64_t seed)
{
    uint64_t prng = seed;
    engine_legal legal[ENGINE_LEGAL_MAX];
    for (int i = 0; i < 100; i++) {
        if (st->phase == phase) {
            size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, ENGINE_SEAT_ENGINE);
            if (n > 0 && legal[0].kind == kind)
                return;
        }
        engine_action act;
        assert_int_equal(test_random_legal(&act, st, &prng), 0);
        engine_rng rng;
        engine_rng_init(&rng, SEED, (uint32_t)i + 1);
        assert_int_equal(engine_apply(NULL, st, &act, &rng), ENGINE_ACCEPTED);
    }
    fail_msg("never reached the step");
}

/* LR 2.04.02: ten forces among Sietch Tabr, False Wall South, False Wall West. */
static void test_setup__fremen_placement(void **state)
{
    (void)state;
    engine_state st;
    uint8_t two[2] = {ENGINE_FACTION_FREMEN, ENGINE_FACTION_HARKONNEN};
    assert_int_equal(setup(&st, two, 2, 0), ENGINE_ACCEPTED);
    play_until(&st, ENGINE_PHASE_SETUP, ENGINE_ACTION_FREMEN_PLACE, 1);
    engine_action act = {ENGINE_ACTION_FREMEN_PLACE, 0, {5, 3, 1}};
    expect_reject(&st, &act, ENGINE_REJECT_FREMEN_PLACEMENT_TOTAL);
    act.arg[2] = 3;
    expect_reject(&st, &act, ENGINE_REJECT_FREMEN_PLACEMENT_TOTAL);
    act.arg[0] = 4;
    act.arg[3] = 0;
    act.arg[5] = 1; /* a Fedaykin in the Basic game */
    act.arg[2] = 1;
    expect_reject(&st, &act, ENGINE_REJECT_ARG_OUT_OF_RANGE);
    act.arg[5] = 0;
    act.arg[2] = 2;
    act.arg[0] = -1;
    expect_reject(&st, &act, ENGINE_REJECT_ARG_OUT_OF_RANGE);
    act.arg[0] = 5;
    act.arg[1] = 3;
    act.arg[2] = 2;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 9);
    assert_int_equal(engine_apply(NULL, &st, &act, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.forces[engine_location_find(ENGINE_TERRITORY_SIETCH_TABR, 13)][0], 5);
    assert_int_equal(st.forces[engine_location_find(ENGINE_TERRITORY_FALSE_WALL_SOUTH, 3)][0], 3);
    assert_int_equal(st.forces[engine_location_find(ENGINE_TERRITORY_FALSE_WALL_WEST, 15)][0], 2);
    assert_int_equal(st.seat[0].reserves, 10);
    /* Placement done: starting cards dealt (Harkonnen 2), then turn 1's storm. */
    assert_int_equal(st.phase, ENGINE_PHASE_STORM);
    assert_int_equal(st.turn, 1);
    int hand[2] = {0, 0};
    for (int c = 0; c < st.n_cards; c++)
        if (st.card[c].place == ENGINE_PLACE_HAND) {
            hand[st.card[c].holder]++;
            assert_int_equal(st.card[c].known_by, 1u << st.card[c].holder);
        }
    assert_int_equal(hand[0], 1);
    assert_int_equal(hand[1], 2);
    assert_int_equal(st.n_deck, 30);
}

/* LR 2.02.08: the Advanced BG force is an advisor where others are, a
 * fighter where it is alone; never the HMS. */
static void test_setup__advanced_bg_placement(void **state)
{
    (void)state;
    engine_state st;
    uint8_t two[2] = {ENGINE_FACTION_BENE_GESSERIT, ENGINE_FACTION_ATREIDES};
    assert_int_equal(setup(&st, two, 2, 1), ENGINE_ACCEPTED);
    play_until(&st, ENGINE_PHASE_SETUP, ENGINE_ACTION_BG_PLACE, 2);
    engine_action act = {ENGINE_ACTION_BG_PLACE, 0, {86}};
    expect_reject(&st, &act, ENGINE_REJECT_BG_PLACEMENT_LOCATION);
    engine_state alone = st;
    int arrakeen = engine_location_find(ENGINE_TERRITORY_ARRAKEEN, 9);
    act.arg[0] = (int16_t)arrakeen;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 9);
    assert_int_equal(engine_apply(NULL, &st, &act, &rng), ENGINE_ACCEPTED);
    assert_int_equal(st.advisors[arrakeen], 1);
    assert_int_equal(st.forces[arrakeen][0], 0);
    int basin = engine_location_find(ENGINE_TERRITORY_BASIN, 8);
    act.arg[0] = (int16_t)basin;
    engine_rng_init(&rng, SEED, 9);
    assert_int_equal(engine_apply(NULL, &alone, &act, &rng), ENGINE_ACCEPTED);
    assert_int_equal(alone.forces[basin][0], 1);
    assert_int_equal(alone.advisors[basin], 0);
}

/* Same seed, same game: the opening position is a function of the seed. */
static void test_setup__deterministic(void **state)
{
    (void)state;
    engine_state a, b;
    assert_int_equal(setup(&a, SIX, 6, 0), ENGINE_ACCEPTED);
    assert_int_equal(setup(&b, SIX, 6, 0), ENGINE_ACCEPTED);
    uint8_t da[32], db[32];
    engine_state_digest(da, &a);
    engine_state_digest(db, &b);
    assert_memory_equal(da, db, 32);
    engine_config cfg = a.config;
    uint8_t other[ENGINE_SEED_BYTES] = {8};
    engine_rng rng;
    engine_rng_init(&rng, other, 0);
    assert_int_equal(engine_setup(NULL, &b, &cfg, &rng), ENGINE_ACCEPTED);
    engine_state_digest(db, &b);
    assert_memory_not_equal(da, db, 32);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup__refuses_bad_configurations),
        cmocka_unit_test(test_setup__starting_position),
        cmocka_unit_test(test_setup__advanced_elite_forces),
        cmocka_unit_test(test_setup__prediction),
        cmocka_unit_test(test_setup__traitor_pick),
        cmocka_unit_test(test_setup__fremen_placement),
        cmocka_unit_test(test_setup__advanced_bg_placement),
        cmocka_unit_test(test_setup__deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
