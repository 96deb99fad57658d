/*
 * test_storm.c - the Storm phase (DUNE_RULES_DIGEST.md 4.1, LR 1.01):
 * who dials, dial ranges, secrecy until both are in, the move, and what
 * the storm destroys (sand sectors passed over or stopped in; rock,
 * strongholds and the Polar Sink are safe; spice there is lost).
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

static const uint8_t SEED[ENGINE_SEED_BYTES] = {9};

/* Two seats, Atreides and Harkonnen: no setup decision but the traitors. */
static void to_first_storm(engine_state *st)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 2;
    cfg.faction[0] = ENGINE_FACTION_ATREIDES;
    cfg.faction[1] = ENGINE_FACTION_HARKONNEN;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_setup(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    for (int l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (st->traitor[l].place == ENGINE_PLACE_DEALT) {
            engine_action pick = {ENGINE_ACTION_TRAITOR_PICK, 0, {(int16_t)l}};
            engine_rng_init(&rng, SEED, 1);
            assert_int_equal(engine_apply(NULL, st, &pick, &rng), ENGINE_ACCEPTED);
            break;
        }
    assert_int_equal(st->phase, ENGINE_PHASE_STORM);
}

static engine_verdict dial(engine_state *st, unsigned seat, int value)
{
    engine_action act = {ENGINE_ACTION_STORM_DIAL, (uint8_t)seat, {(int16_t)value}};
    engine_rng rng;
    engine_rng_init(&rng, SEED, 2);
    return engine_apply(NULL, st, &act, &rng);
}

/* LR 1.01.01: on turn 1 the two players nearest the Storm Start Sector
 * dial 0..20; the storm moves the sum from sector 0. */
static void test_storm__first_storm_dials_and_moves(void **state)
{
    (void)state;
    engine_state st;
    to_first_storm(&st);
    assert_int_equal(engine_state_awaiting(&st), 3);
    engine_state before = st;
    assert_int_equal(dial(&st, 0, 21), ENGINE_REJECT_STORM_DIAL_RANGE);
    assert_int_equal(dial(&st, 0, -1), ENGINE_REJECT_STORM_DIAL_RANGE);
    assert_memory_equal(&before, &st, sizeof st);
    assert_int_equal(dial(&st, 0, 20), ENGINE_ACCEPTED);
    assert_int_equal(st.storm_sector, 0);          /* nothing moves on one dial */
    assert_int_equal(dial(&st, 0, 3), ENGINE_REJECT_ALREADY_ANSWERED);
    assert_int_equal(dial(&st, 1, 19), ENGINE_ACCEPTED);
    assert_int_equal(st.storm_sector, 39 % 18);
    assert_int_equal(st.last_storm_move, 39);
    assert_true(st.phase > ENGINE_PHASE_SPICE_BLOW); /* the blow ran; turn 1 has no Nexus */
    for (int s = 0; s < 2; s++)
        assert_int_equal(st.seat[s].storm_dial, 0xFF); /* revealed and cleared */
}

/* LR 1.01.03: forces in sand sectors the storm passes over or stops in go
 * to the Tanks and the spice there is lost; rock and strongholds are safe;
 * the sector it starts in is not struck again. */
static void test_storm__destroys_sand_sectors_only(void **state)
{
    (void)state;
    engine_state st;
    to_first_storm(&st);
    int ce_east = engine_location_find(ENGINE_TERRITORY_CIELAGO_EAST, 3);   /* sand, s3 */
    int fws_west = engine_location_find(ENGINE_TERRITORY_FALSE_WALL_SOUTH, 3); /* rock, s3 */
    int meridian_w = engine_location_find(ENGINE_TERRITORY_MERIDIAN, 0);   /* sand, s0 */
    int south_mesa = engine_location_find(ENGINE_TERRITORY_SOUTH_MESA, 4); /* sand, s4 */
    assert_true(ce_east >= 0 && fws_west >= 0 && meridian_w >= 0 && south_mesa >= 0);
    /* Move Atreides forces from reserves onto the map by hand. */
    st.forces[ce_east][0] = 3;
    st.forces[fws_west][0] = 2;
    st.forces[meridian_w][0] = 1;
    st.forces[south_mesa][0] = 2;
    st.seat[0].reserves = (uint8_t)(st.seat[0].reserves - 8);
    st.spice[ce_east] = 5;
    st.spice[south_mesa] = 4;
    st.spice_minted += 9;
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(dial(&st, 0, 1), ENGINE_ACCEPTED);
    assert_int_equal(dial(&st, 1, 2), ENGINE_ACCEPTED);
    assert_int_equal(st.storm_sector, 3);
    assert_int_equal(st.forces[ce_east][0], 0);
    assert_int_equal(st.spice[ce_east], 0);
    assert_int_equal(st.forces[fws_west][0], 2);  /* rock */
    assert_int_equal(st.forces[meridian_w][0], 1); /* where it started */
    assert_int_equal(st.forces[south_mesa][0], 2); /* beyond where it stopped */
    assert_int_equal(st.spice[south_mesa], 4);
    assert_int_equal(st.seat[0].tanks, 3);
    assert_int_equal(st.spice_burned, 5);
    assert_int_equal(engine_state_check(&st), 0);
}

/* A storm of 18 or more sectors sweeps the whole map once. */
static void test_storm__full_circle(void **state)
{
    (void)state;
    engine_state st;
    to_first_storm(&st);
    int meridian_w = engine_location_find(ENGINE_TERRITORY_MERIDIAN, 0);
    st.forces[meridian_w][1] = 4;
    st.seat[1].reserves = (uint8_t)(st.seat[1].reserves - 4);
    assert_int_equal(dial(&st, 0, 20), ENGINE_ACCEPTED);
    assert_int_equal(dial(&st, 1, 20), ENGINE_ACCEPTED);
    assert_int_equal(st.forces[meridian_w][1], 0);
    assert_int_equal(st.seat[1].tanks, 4);
    assert_int_equal(engine_state_check(&st), 0);
}

/* Dials stay secret: the state holds each dial only until both are in,
 * and the legal family of a dialer is exactly 0..20 on turn 1 (any other
 * family is a side action, after the dial's: a card it may play at any
 * time, or its standing Karama policy). */
static void test_storm__legal_family(void **state)
{
    (void)state;
    engine_state st;
    to_first_storm(&st);
    engine_legal legal[8];
    size_t n = engine_legal_actions(legal, 8, &st, 0);
    assert_true(n >= 1 && n <= 8);
    assert_int_equal(legal[0].kind, ENGINE_ACTION_STORM_DIAL);
    assert_int_equal(legal[0].lo[0], 0);
    assert_int_equal(legal[0].hi[0], 20);
    for (size_t i = 1; i < n; i++)
        assert_true(legal[i].kind == ENGINE_ACTION_TRUTHTRANCE ||
                    legal[i].kind == ENGINE_ACTION_GHOLA ||
                    legal[i].kind == ENGINE_ACTION_KARAMA_POLICY);
    assert_int_equal(dial(&st, 1, 4), ENGINE_ACCEPTED);
    assert_int_equal(st.seat[1].storm_dial, 4);
    assert_int_equal(engine_legal_actions(legal, 8, &st, 1), 0);
    assert_int_equal(engine_legal_actions(legal, 8, &st, 0), n);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_storm__first_storm_dials_and_moves),
        cmocka_unit_test(test_storm__destroys_sand_sectors_only),
        cmocka_unit_test(test_storm__full_circle),
        cmocka_unit_test(test_storm__legal_family),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
