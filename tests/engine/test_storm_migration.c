/*
 * test_storm_migration.c - the Fremen's storm migration (Advanced, rules
 * version 7 on; LR 2.04.17, ADVANCED_RULES.md 6.4 and 8 item 22,
 * docs/RULINGS.md R125) through the engine API on constructed positions:
 * the send may land in the storm, half the forces sent, rounded up, die
 * at once (plain forces first, each Fedaykin one token: D5); the legal
 * families offer exactly the sends the handler accepts; nothing of it in
 * a Basic room nor in an Advanced room of version 6. The scenario
 * tests/scenarios/advanced_fremen_storm_migration.json plays it through
 * the scenario runner, moves into and out of the storm refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/phase.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {2, 4, 17};

enum { FREMEN = 0, N_SEATS = 2, STORM = 14 };

/* Fremen and Harkonnen in Shipment and Movement, the storm over The
 * Great Flat (sector 14), the Fremen's SHIP step. */
static void table(engine_state *st, int advanced, unsigned version, engine_rng *rng)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = N_SEATS;
    cfg.faction[0] = ENGINE_FACTION_FREMEN;
    cfg.faction[1] = ENGINE_FACTION_HARKONNEN;
    cfg.is_advanced = (uint8_t)advanced;
    cfg.rules_version = (uint16_t)version;
    engine_rng_init(rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, STORM, rng), 0);
    if (!(engine_state_awaiting(st) & (1u << FREMEN))) {
        engine_action pass = {ENGINE_ACTION_SHIP_PASS, 1, {0}};
        assert_int_equal(engine_apply(NULL, st, &pass, rng), ENGINE_ACCEPTED);
        pass.kind = ENGINE_ACTION_MOVE_PASS;
        assert_int_equal(engine_apply(NULL, st, &pass, rng), ENGINE_ACCEPTED);
    }
    assert_int_equal(engine_state_awaiting(st), 1u << FREMEN);
    assert_int_equal(st->step, SHIP_STEP_SHIP);
}

static unsigned flat(void)
{
    int loc = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, STORM);
    assert_true(loc >= 0);
    return (unsigned)loc;
}

static engine_action send(unsigned plain, unsigned elite)
{
    engine_action a = {ENGINE_ACTION_FREMEN_SEND, FREMEN, {0}};
    a.arg[0] = (int16_t)flat();
    a.arg[1] = (int16_t)plain;
    a.arg[2] = (int16_t)elite;
    return a;
}

/* Half the forces sent, rounded up, die at once: plain forces first. */
static void test_storm_migration__half_the_send_dies(void **state)
{
    (void)state;
    static const struct {
        unsigned plain, elite, left_plain, left_elite;
    } cases[] = {{5, 0, 2, 0}, {4, 0, 2, 0}, {1, 0, 0, 0}, {3, 2, 0, 2}, {1, 3, 0, 2}, {0, 1, 0, 0}};
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_state st;
        engine_rng rng;
        table(&st, 1, 7, &rng);
        unsigned tanks = st.seat[FREMEN].tanks, special_tanks = st.seat[FREMEN].special_tanks;
        engine_action a = send(cases[i].plain, cases[i].elite);
        assert_int_equal(engine_apply(NULL, &st, &a, &rng), ENGINE_ACCEPTED);
        assert_int_equal(engine_state_check(&st), 0);
        assert_int_equal(st.forces[flat()][FREMEN], cases[i].left_plain);
        assert_int_equal(st.special[flat()][FREMEN], cases[i].left_elite);
        unsigned sent = cases[i].plain + cases[i].elite;
        assert_int_equal(st.seat[FREMEN].tanks + st.seat[FREMEN].special_tanks - tanks - special_tanks,
                         (sent + 1) / 2);
        assert_int_equal(st.step, SHIP_STEP_MOVE); /* the send was the shipment */
    }
}

/* The families offer a send into the storm exactly where the handler
 * takes it: from version 7 in an Advanced room, never elsewhere. */
static void test_storm_migration__only_advanced_from_version_7(void **state)
{
    (void)state;
    static const struct {
        int advanced;
        unsigned version;
        int migrates;
    } rooms[] = {{1, 7, 1}, {1, 6, 0}, {0, 7, 0}};
    for (unsigned r = 0; r < sizeof rooms / sizeof rooms[0]; r++) {
        engine_state st;
        engine_rng rng;
        table(&st, rooms[r].advanced, rooms[r].version, &rng);
        engine_legal legal[512];
        size_t n = engine_legal_actions(legal, 512, &st, FREMEN);
        engine_action a = send(2, 0);
        int listed = 0;
        for (size_t i = 0; i < n && !listed; i++)
            listed = engine_legal_contains(&legal[i], &a);
        assert_int_equal(listed, rooms[r].migrates);
        engine_verdict v = engine_apply(NULL, &st, &a, &rng);
        assert_int_equal(v, rooms[r].migrates ? ENGINE_ACCEPTED : ENGINE_REJECT_STORM_BLOCKS);
        assert_int_equal(engine_state_check(&st), 0);
    }
}

/* Every send the families offer is accepted, and no other location is. */
static void test_storm_migration__legal_exactly(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    table(&st, 1, 7, &rng);
    engine_legal legal[512];
    size_t n = engine_legal_actions(legal, 512, &st, FREMEN);
    unsigned accepted = 0;
    for (unsigned loc = 0; loc < ENGINE_LOCATION_HMS; loc++) {
        engine_state t = st;
        engine_rng r2 = rng;
        engine_action a = {ENGINE_ACTION_FREMEN_SEND, FREMEN, {(int16_t)loc, 3, 0}};
        int listed = 0;
        for (size_t i = 0; i < n && !listed; i++)
            listed = engine_legal_contains(&legal[i], &a);
        int ok = engine_apply(NULL, &t, &a, &r2) == ENGINE_ACCEPTED;
        assert_int_equal(ok, listed);
        accepted += (unsigned)ok;
    }
    assert_true(accepted > 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_storm_migration__half_the_send_dies),
        cmocka_unit_test(test_storm_migration__only_advanced_from_version_7),
        cmocka_unit_test(test_storm_migration__legal_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
