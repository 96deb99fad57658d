/*
 * test_points.c - a power added in one file takes effect at its rule
 * point (docs/ARCHITECTURE.md "How to add a power"). This file defines the
 * Harkonnen family itself, so the linker takes it instead of
 * engine/powers_harkonnen.c: in this binary the Harkonnen have one made-up
 * power, "Harkonnen forces move two territories", and none of their real
 * ones. A constructed position then shows the legal writer and the handler
 * both honour it, for the Harkonnen and for no one else.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/phase.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {10};

/* The made-up power: at least two territories a move. */
static int two_territories(const engine_state *st, unsigned owner, unsigned seat, int value)
{
    (void)st;
    (void)owner;
    (void)seat;
    return value < 2 ? 2 : value;
}

static const engine__power_row rows[] = {
    {.point = ENGINE__POINT_MOVE_ALLOWANCE, .faction = ENGINE_FACTION_HARKONNEN,
     .to = ENGINE__TO_OWNER, .fn = two_territories, .source = "(made up)"},
};
const engine__power_family engine__powers_harkonnen = {rows, sizeof rows / sizeof rows[0]};

enum { EMPEROR_SEAT = 0, HARKONNEN_SEAT = 1 };

/* Emperor and Harkonnen each with 3 forces on The Great Flat (sector 14),
 * storm far away, in the Harkonnen's MOVE step or the Emperor's. */
static void position(engine_state *st, unsigned mover)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 2;
    cfg.faction[EMPEROR_SEAT] = ENGINE_FACTION_EMPEROR;
    cfg.faction[HARKONNEN_SEAT] = ENGINE_FACTION_HARKONNEN;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    int flat = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_true(flat >= 0);
    for (uint8_t s = 0; s < 2; s++)
        assert_int_equal(engine_position_forces(st, s, (unsigned)flat, 3, 0), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 5, &rng), 0);
    /* Pass until the mover's MOVE step. */
    for (int guard = 0; guard < 8; guard++) {
        unsigned s = engine_state_awaiting(st) & (1u << EMPEROR_SEAT) ? EMPEROR_SEAT : HARKONNEN_SEAT;
        if (s == mover && st->step == SHIP_STEP_MOVE)
            return;
        engine_action a;
        memset(&a, 0, sizeof a);
        a.kind = st->step == SHIP_STEP_SHIP ? ENGINE_ACTION_SHIP_PASS : ENGINE_ACTION_MOVE_PASS;
        a.seat = (uint8_t)s;
        assert_int_equal(engine_apply(NULL, st, &a, &rng), ENGINE_ACCEPTED);
    }
    fail_msg("the MOVE step of seat %u never came", mover);
}

/* 1 if the legal families of `seat` hold a move of 3 forces from The
 * Great Flat to `to`. */
static int legal_move(const engine_state *st, unsigned seat, int to)
{
    engine_legal legal[512];
    size_t n = engine_legal_actions(legal, 512, st, (uint8_t)seat);
    assert_true(n <= 512);
    engine_action a = {ENGINE_ACTION_MOVE, (uint8_t)seat,
                       {ENGINE_TERRITORY_THE_GREAT_FLAT, (int16_t)to, 3, 0}};
    for (size_t i = 0; i < n; i++)
        if (engine_legal_contains(&legal[i], &a))
            return 1;
    return 0;
}

static engine_verdict move(engine_state *st, unsigned seat, int to)
{
    engine_action a = {ENGINE_ACTION_MOVE, (uint8_t)seat,
                       {ENGINE_TERRITORY_THE_GREAT_FLAT, (int16_t)to, 3, 0}};
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    return engine_apply(NULL, st, &a, &rng);
}

static void test_points__made_up_power_moves_two(void **state)
{
    (void)state;
    /* The Bight of the Cliff is two territories from The Great Flat. */
    int bight = engine_location_find(ENGINE_TERRITORY_BIGHT_OF_THE_CLIFF, 14);
    assert_true(bight >= 0);
    engine_state st;
    position(&st, HARKONNEN_SEAT);
    assert_int_equal(engine__point_value(&st, ENGINE__POINT_MOVE_ALLOWANCE, HARKONNEN_SEAT, 1), 2);
    assert_true(legal_move(&st, HARKONNEN_SEAT, bight));
    assert_int_equal(move(&st, HARKONNEN_SEAT, bight), ENGINE_ACCEPTED);
    assert_int_equal(st.forces[bight][HARKONNEN_SEAT], 3);
    assert_int_equal(engine_state_check(&st), 0);

    /* The Emperor has no such row: the same move is neither offered nor taken. */
    position(&st, EMPEROR_SEAT);
    assert_int_equal(engine__point_value(&st, ENGINE__POINT_MOVE_ALLOWANCE, EMPEROR_SEAT, 1), 1);
    assert_false(legal_move(&st, EMPEROR_SEAT, bight));
    engine_state before = st;
    assert_int_equal(move(&st, EMPEROR_SEAT, bight), ENGINE_REJECT_NO_PATH);
    assert_memory_equal(&before, &st, sizeof st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_points__made_up_power_moves_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
