/*
 * test_rejection.c - how a refusal is told (inspect_rejection_text): the
 * field at fault by its JSON name and its value by slug, as the action's
 * JSON would write it, for every kind of argument; and plain "value N"
 * when the detail names no field.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "inspect/inspect.h"

static void test_rejection__fields_are_named_by_slug(void **state)
{
    (void)state;
    char out[160];
    /* a location: its territory's slug, then the sector */
    int loc = engine_location_find(ENGINE_TERRITORY_FUNERAL_PLAIN, 14);
    assert_true(loc >= 0);
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_NO_PATH, ENGINE_ACTION_MOVE, 1, loc);
    assert_string_equal(out, "no_path (to = funeral_plain sector 14)");
    /* a territory */
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_NO_PATH, ENGINE_ACTION_MOVE, 0,
                           ENGINE_TERRITORY_FUNERAL_PLAIN);
    assert_string_equal(out, "no_path (from = funeral_plain)");
    /* a faction */
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_PREDICT_OWN_FACTION,
                           ENGINE_ACTION_PREDICT, 0, ENGINE_FACTION_ATREIDES);
    assert_string_equal(out, "predict_own_faction (faction = atreides)");
    /* a plain number stays a number */
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_NOT_ENOUGH_FORCES, ENGINE_ACTION_MOVE,
                           2, 7);
    assert_string_equal(out, "not_enough_forces (forces = 7)");
    assert_string_equal(inspect_rejection_arg(ENGINE_ACTION_MOVE, 1), "to");
}

/* The game's timing is said in words: the phase under way, the seats
 * awaited (rules version 3 on; nobody named before). */
/* A value out of its range is told with the range it must lie in. */
static void test_rejection__ranges_are_named(void **state)
{
    (void)state;
    char out[128];
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_STORM_DIAL_RANGE,
                           ENGINE_ACTION_STORM_DIAL, 0, 99);
    assert_string_equal(out, "storm_dial_range (value = 99; a storm dial takes 0..20 on "
                             "turn 1, 1..3 later)");
}

static void test_rejection__timing_is_named(void **state)
{
    (void)state;
    char out[160];
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_WRONG_PHASE, ENGINE_ACTION_MOVE, -1,
                           ENGINE_PHASE_BIDDING);
    assert_string_equal(out, "wrong_phase (the game is in bidding)");
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_WRONG_PHASE, ENGINE_ACTION_MOVE_PASS, 0,
                           ENGINE_PHASE_SETUP);
    assert_string_equal(out, "wrong_phase (the game is in setup)");
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_NOT_AWAITED, ENGINE_ACTION_BID_PASS, -1,
                           1 << 1);
    assert_string_equal(out, "not_awaited (the game waits on seat 2)");
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_NOT_AWAITED, ENGINE_ACTION_REVIVE, -1,
                           (1 << 0) | (1 << 2) | (1 << 5));
    assert_string_equal(out, "not_awaited (the game waits on seats 1, 3, 6)");
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_NOT_AWAITED, ENGINE_ACTION_BID_PASS, -1, 0);
    assert_string_equal(out, "not_awaited (value 0)");
    /* a wrong step names what its own phase is waiting for */
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_WRONG_STEP, ENGINE_ACTION_MOVE, -1, 0);
    assert_string_equal(out, "wrong_step (shipment_movement is at its shipment step)");
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_WRONG_STEP, ENGINE_ACTION_BATTLE_PLAN,
                           -1, ENGINE_BATTLE_STEP_VOICE);
    assert_string_equal(out, "wrong_step (battle is at its voice step)");
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_WRONG_STEP, ENGINE_ACTION_BID, -1, 9);
    assert_string_equal(out, "wrong_step (value 9)");
}

static void test_rejection__no_field_no_name(void **state)
{
    (void)state;
    char out[160];
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_NO_HAJR, ENGINE_ACTION_MOVE, -1, 0);
    assert_string_equal(out, "no_hajr (value 0)");
    /* an argument index past the kind's arguments names nothing */
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_NO_HAJR, ENGINE_ACTION_MOVE_PASS, 0, 3);
    assert_string_equal(out, "no_hajr (value 3)");
    assert_null(inspect_rejection_arg(ENGINE_ACTION_MOVE_PASS, 0));
    /* a value with no slug is shown as the number it is */
    inspect_rejection_text(out, sizeof out, ENGINE_REJECT_NO_PATH, ENGINE_ACTION_MOVE, 1, 30000);
    assert_string_equal(out, "no_path (to = 30000)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejection__fields_are_named_by_slug),
        cmocka_unit_test(test_rejection__ranges_are_named),
        cmocka_unit_test(test_rejection__timing_is_named),
        cmocka_unit_test(test_rejection__no_field_no_name),
    };
    return cmocka_run_group_tests_name("rejection", tests, NULL, NULL);
}
