/*
 * test_fremen_storm_losses.c - the Fremen choose which of their tokens the
 * storm takes (Advanced, rules version 7 on; LR 2.04.16, ADVANCED_RULES.md
 * 6.4 and 9 D5, docs/RULINGS.md R14) through the engine API on a
 * constructed position: half the tokens, rounded up, die in each struck
 * sector, each Fedaykin one token; the Fremen are asked (the storm's step
 * LOSSES, a generic power that is the step's decision) only where the
 * split is a choice, one location at a time, offered exactly the counts
 * of Fedaykin possible; other seats and other counts refused; the state
 * asked encodes and decodes to the same bytes; an Advanced room of
 * version 6 takes plain forces first, unasked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/phase.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {2, 4, 16};

enum { FREMEN = 0, HARKONNEN = 1 };

static int loc(unsigned territory, int sector)
{
    int l = engine_location_find(territory, sector);
    assert_true(l >= 0);
    return l;
}

/* Fremen at Cielago North: sector 1, 1 force and 1 Fedaykin; sector 2, 3
 * forces and 2 Fedaykin; Cielago South, sector 1, 2 forces (no choice:
 * one kind). The turn-1 storm dialled
 * to 2 strikes sectors 1 and 2. */
static void storm(engine_state *st, unsigned version, engine_rng *rng)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[0] = ENGINE_FACTION_FREMEN;
    cfg.faction[1] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[2] = ENGINE_FACTION_ATREIDES;
    cfg.is_advanced = 1;
    cfg.rules_version = (uint16_t)version;
    engine_rng_init(rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_position_forces(st, FREMEN, (unsigned)loc(ENGINE_TERRITORY_CIELAGO_NORTH, 1), 1, 1), 0);
    assert_int_equal(engine_position_forces(st, FREMEN, (unsigned)loc(ENGINE_TERRITORY_CIELAGO_NORTH, 2), 3, 2), 0);
    assert_int_equal(engine_position_forces(st, FREMEN, (unsigned)loc(ENGINE_TERRITORY_CIELAGO_SOUTH, 1), 2, 0), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_STORM, 1, 0, rng), 0);
    uint16_t dialers = engine_state_awaiting(st);
    for (unsigned s = 0; s < 3; s++)
        if (dialers & (1u << s)) {
            engine_action a = {ENGINE_ACTION_STORM_DIAL, (uint8_t)s, {1}};
            assert_int_equal(engine_apply(NULL, st, &a, rng), ENGINE_ACCEPTED);
        }
    assert_int_equal(st->storm_sector, 2);
    assert_int_equal(engine_state_check(st), 0);
}

static engine_action choose(unsigned seat, int fedaykin)
{
    engine_action a = {ENGINE_ACTION_POWER, (uint8_t)seat,
                       {engine_power_id("fremen_storm_losses"), (int16_t)fedaykin}};
    return a;
}

/* The one family offered: Fedaykin lo..hi. */
static void offered(const engine_state *st, int lo, int hi)
{
    engine_legal legal[64];
    size_t n = engine_legal_actions(legal, 64, st, FREMEN);
    int found = 0;
    for (size_t i = 0; i < n; i++)
        if (legal[i].kind == ENGINE_ACTION_POWER) {
            found++;
            assert_int_equal(legal[i].lo[1], lo);
            assert_int_equal(legal[i].hi[1], hi);
        }
    assert_int_equal(found, 1);
    for (int f = 0; f <= 3; f++) {
        engine_action a = choose(FREMEN, f);
        int listed = 0;
        for (size_t i = 0; i < n && !listed; i++)
            listed = engine_legal_contains(&legal[i], &a);
        assert_int_equal(listed, f >= lo && f <= hi);
    }
}

static void round_trip(const engine_state *st)
{
    assert_int_equal(test_state_round_trip(st), 0);
}

static void test_fremen_storm_losses__asked_where_a_choice(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    storm(&st, 7, &rng);
    int north1 = loc(ENGINE_TERRITORY_CIELAGO_NORTH, 1), north2 = loc(ENGINE_TERRITORY_CIELAGO_NORTH, 2);
    int south1 = loc(ENGINE_TERRITORY_CIELAGO_SOUTH, 1);
    /* no choice at Cielago South: 1 of 2 died with the storm */
    assert_int_equal(st.forces[south1][FREMEN], 1);
    /* asked, location by location: first the one of lower index */
    unsigned first = (unsigned)(north1 < north2 ? north1 : north2);
    unsigned second = (unsigned)(north1 < north2 ? north2 : north1);
    assert_int_equal(st.phase, ENGINE_PHASE_STORM);
    assert_int_equal(st.step, ENGINE_STORM_STEP_LOSSES);
    assert_int_equal(engine_state_awaiting(&st), 1u << FREMEN);
    assert_int_equal(st.storm_loss_at, first);
    round_trip(&st);
    /* sector 1: 2 tokens, 1 dies (0 or 1 Fedaykin); sector 2: 5 tokens,
     * 3 die (0, 1 or 2 Fedaykin: at most the 2 there, and at least 0 as
     * 3 plain could die) */
    int one = (unsigned)north1 == first;
    offered(&st, 0, one ? 1 : 2);
    engine_action dial = {ENGINE_ACTION_STORM_DIAL, HARKONNEN, {1}};
    assert_int_not_equal(engine_apply(NULL, &st, &dial, &rng), ENGINE_ACCEPTED);
    engine_action other = choose(HARKONNEN, 0);
    assert_int_not_equal(engine_apply(NULL, &st, &other, &rng), ENGINE_ACCEPTED);
    engine_action too_many = choose(FREMEN, one ? 2 : 3);
    assert_int_equal(engine_apply(NULL, &st, &too_many, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    engine_action all_fedaykin = choose(FREMEN, one ? 1 : 2);
    assert_int_equal(engine_apply(NULL, &st, &all_fedaykin, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(st.storm_loss_at, second);
    offered(&st, 0, one ? 2 : 1);
    engine_action plain_first = choose(FREMEN, 0);
    assert_int_equal(engine_apply(NULL, &st, &plain_first, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_not_equal(st.phase, ENGINE_PHASE_STORM);
    assert_int_equal(st.storm_loss_at, 0);
    /* sector 1: 1 and 1, one dies; sector 2: 3 and 2, three die */
    unsigned n1 = st.forces[north1][FREMEN] + st.special[north1][FREMEN];
    unsigned n2 = st.forces[north2][FREMEN] + st.special[north2][FREMEN];
    assert_int_equal(n1, 1);
    assert_int_equal(n2, 2);
    if (one) {
        assert_int_equal(st.special[north1][FREMEN], 0); /* the Fedaykin died */
        assert_int_equal(st.special[north2][FREMEN], 2); /* plain forces first */
    } else {
        assert_int_equal(st.special[north2][FREMEN], 0);
        assert_int_equal(st.special[north1][FREMEN], 1);
    }
    assert_int_equal(st.seat[FREMEN].tanks + st.seat[FREMEN].special_tanks, 1 + 1 + 3);
}

/* An Advanced room of version 6 (its stored states fold as they were):
 * plain forces first, nobody asked. */
static void test_fremen_storm_losses__version_6_unasked(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    storm(&st, 6, &rng);
    assert_int_not_equal(st.phase, ENGINE_PHASE_STORM);
    int north2 = loc(ENGINE_TERRITORY_CIELAGO_NORTH, 2), north1 = loc(ENGINE_TERRITORY_CIELAGO_NORTH, 1);
    assert_int_equal(st.forces[north2][FREMEN], 0);
    assert_int_equal(st.special[north2][FREMEN], 2);
    assert_int_equal(st.forces[north1][FREMEN], 0);
    assert_int_equal(st.special[north1][FREMEN], 1);
    engine_action a = choose(FREMEN, 0);
    assert_int_not_equal(engine_apply(NULL, &st, &a, &rng), ENGINE_ACCEPTED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fremen_storm_losses__asked_where_a_choice),
        cmocka_unit_test(test_fremen_storm_losses__version_6_unasked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
