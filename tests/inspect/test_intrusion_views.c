/*
 * test_intrusion_views.c - what the layers above the engine show of the
 * Bene Gesserit's Intrusion (Advanced, rules version 8; docs/RULINGS.md
 * R136): a spectator's state JSON lists the open window bg_intrusion with
 * the seat it asks and the entry it holds, and every seat's log line of
 * the answer tells the fighters that became advisors (a stance is
 * public, R112).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/inspect/helpers.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {12, 5, 20, 29};

enum { HARKONNEN, BG, EMPEROR };

static void apply(engine_state *st, const engine_action *act)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 2);
    assert_int_equal(engine_apply(NULL, st, act, &rng), ENGINE_ACCEPTED);
}

static void test_intrusion_views__state_json_and_log(void **state)
{
    (void)state;
    static const uint8_t factions[3] = {ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_BENE_GESSERIT,
                                        ENGINE_FACTION_EMPEROR};
    static engine_state st, before, view, before_view;
    test_position_table(&st, 3, factions, 1, 8, SEED, 10);
    int basin = engine_location_find(ENGINE_TERRITORY_IMPERIAL_BASIN, 9);
    assert_true(basin >= 0);
    assert_int_equal(engine_position_forces(&st, BG, (unsigned)basin, 2, 0), 0);
    engine_rng rng;
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 3, 0, &rng), 0);
    engine_action ship = {.kind = ENGINE_ACTION_SHIP, .seat = HARKONNEN,
                          .arg = {(int16_t)basin, 2}};
    apply(&st, &ship);

    engine_view(&view, &st, ENGINE_VIEW_PUBLIC);
    inspect_state_doc doc = {NULL, 1, 1, &view, NULL, 0, 0};
    char *buf = ifix_state_json(&doc);
    assert_non_null(strstr(buf, "\"windows\":[{\"window\":\"bg_intrusion\",\"owner\":2,"
                                "\"asking\":[2],\"held\":\"ship\",\"held_seat\":1}]"));
    free(buf);

    before = st;
    engine_action flip = {.kind = ENGINE_ACTION_ANSWER, .seat = BG,
                          .arg = {engine_window_id("bg_intrusion"), 1}};
    apply(&st, &flip);
    for (uint8_t viewer = 0; viewer < 3; viewer++) {
        engine_view(&before_view, &before, viewer);
        engine_view(&view, &st, viewer);
        inspect_log_line line;
        inspect_log_describe(&line, &before_view, &view, &flip, 2, viewer);
        assert_non_null(strstr(line.text, "2 fighters became advisors in Imperial Basin."));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intrusion_views__state_json_and_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
