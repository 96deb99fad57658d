/*
 * test_position.c - constructed positions: edits keep every invariant and
 * refuse what would break one; the position is marked constructed (so its
 * digest differs from a genuine room's); every phase can be entered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "engine/engine.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {31};

static void new_position(engine_state *st)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[0] = ENGINE_FACTION_ATREIDES;
    cfg.faction[1] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[2] = ENGINE_FACTION_FREMEN;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_check(st), 0);
    assert_int_equal(st->config.is_constructed, 1);
}

static void test_position__edits_keep_invariants(void **state)
{
    (void)state;
    engine_state st;
    new_position(&st);
    int arrakeen = engine_location_find(ENGINE_TERRITORY_ARRAKEEN, 9);
    assert_int_equal(engine_position_forces(&st, 0, (unsigned)arrakeen, 7, 0), 0);
    assert_int_equal(engine_position_forces(&st, 0, (unsigned)arrakeen, 14, 0), -1);
    assert_int_equal(engine_position_forces(&st, 0, (unsigned)arrakeen, 0, 1), -1); /* no elite in Basic */
    assert_int_equal(engine_position_tanks(&st, 1, 3, 0), 0);
    assert_int_equal(engine_position_spice(&st, (unsigned)arrakeen, 12), 0);
    assert_int_equal(engine_position_seat_spice(&st, 2, 0), 0);
    assert_true(engine_position_give_card(&st, 0, ENGINE_CARD_LASGUN) >= 0);
    assert_int_equal(engine_position_give_card(&st, 1, ENGINE_CARD_LASGUN), -1); /* only one */
    int feyd = engine_leader_from_slug("feyd_rautha");
    assert_int_equal(engine_position_traitor(&st, 0, (unsigned)feyd), 0);
    assert_int_equal(engine_position_traitor(&st, 2, (unsigned)feyd), -1);
    assert_int_equal(engine_position_leader_dead(&st, (unsigned)feyd), 0);
    assert_int_equal(engine_position_alliance(&st, 1, 2), 0);
    assert_int_equal(engine_position_alliance(&st, 0, 1), -1);
    assert_int_equal(engine_position_spice_top(&st, (unsigned)engine_spice_card_of(ENGINE_TERRITORY_RED_CHASM)), 0);
    assert_int_equal(engine_state_check(&st), 0);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_SPICE_BLOW, 3, 0, &rng), 0);
    /* Red Chasm's 8 spice landed. */
    int chasm = engine_location_find(ENGINE_TERRITORY_RED_CHASM, 6);
    assert_int_equal(st.spice[chasm], 8);
}

static void test_position__every_phase_can_be_entered(void **state)
{
    (void)state;
    for (unsigned phase = ENGINE_PHASE_STORM; phase <= ENGINE_PHASE_MENTAT_PAUSE; phase++) {
        engine_state st;
        new_position(&st);
        engine_rng rng;
        engine_rng_init(&rng, SEED, 2);
        assert_int_equal(engine_position_enter(&st, phase, 2, 5, &rng), 0);
        assert_int_equal(st.turn >= 2, 1);
    }
}

static void test_position__constructed_digest_differs(void **state)
{
    (void)state;
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 2;
    cfg.faction[0] = ENGINE_FACTION_GUILD;
    cfg.faction[1] = ENGINE_FACTION_EMPEROR;
    engine_state a, b;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_setup(NULL, &a, &cfg, &rng), ENGINE_ACCEPTED);
    cfg.is_constructed = 1;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_setup(NULL, &b, &cfg, &rng), ENGINE_ACCEPTED);
    uint8_t da[32], db[32];
    engine_state_digest(da, &a);
    engine_state_digest(db, &b);
    assert_memory_not_equal(da, db, 32);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_position__edits_keep_invariants),
        cmocka_unit_test(test_position__every_phase_can_be_entered),
        cmocka_unit_test(test_position__constructed_digest_differs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
