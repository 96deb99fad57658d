/*
 * test_nexus_advanced_panels.c - the Nexus panels of the Advanced game
 * (rules version 8, engine/nexus_emperor.c; docs/RULINGS.md R144, R145):
 * the Emperor Betrayal's (b), no Sardaukar bonus in a battle while plans
 * are made (row 7b), and the Emperor Cunning, up to five ordinary forces
 * counted as Sardaukar in a battle without any (row 8). Each is offered
 * only to its holder while the plans are made, changes the plan's
 * strength and nothing else, and is refused when the face does not allow
 * it (a Sardaukar in the battle, more than five or more than present, a
 * Basic room), named with its row under version 7. Positions are
 * constructed and folded by engine_apply, as a room would be.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/phase.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {37};
enum { EMPEROR = 0, HARKONNEN = 1, ATREIDES = 2 };

/* Turn 3's battle in The Great Flat: the Emperor (`plain` forces and
 * `sardaukar`, 10 spice) against the Harkonnen (8 forces); the seat
 * `holder` holds the Emperor's card. Advanced unless `basic`. */
static void battle(engine_state *st, engine_rng *rng, unsigned version, int basic,
                   unsigned plain, unsigned sardaukar, unsigned holder)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[EMPEROR] = ENGINE_FACTION_EMPEROR;
    cfg.faction[HARKONNEN] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[ATREIDES] = ENGINE_FACTION_ATREIDES;
    cfg.is_advanced = (uint8_t)!basic;
    cfg.modules = ENGINE_MODULE_NEXUS_CARDS;
    cfg.rules_version = (uint16_t)version;
    engine_rng_init(rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, rng), ENGINE_ACCEPTED);
    int flat = engine_location_find(ENGINE_TERRITORY_THE_GREAT_FLAT, 14);
    assert_true(flat >= 0);
    assert_int_equal(engine_position_forces(st, EMPEROR, (unsigned)flat, plain, sardaukar), 0);
    assert_int_equal(engine_position_forces(st, HARKONNEN, (unsigned)flat, 8, 0), 0);
    assert_int_equal(engine_position_seat_spice(st, EMPEROR, 10), 0);
    assert_true(engine_position_nexus_give(st, (uint8_t)holder, ENGINE_FACTION_EMPEROR) >= 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 3, 0, rng), 0);
    assert_int_equal(st->step, BATTLE_STEP_PLAN);
    /* The Bene Gesserit absent, the holder is first asked whether it
     * borrows their Voice (row 6, R150): it does not. */
    const engine_frame *f = engine_window_top(st);
    if (f != NULL && f->point == ENGINE_WINDOW_GENERIC &&
        f->window == (uint16_t)engine_window_id("nexus_voice")) {
        engine_action pass = {ENGINE_ACTION_ANSWER, (uint8_t)holder, {(int16_t)f->window, 0, 0}};
        assert_int_equal(engine_apply(NULL, st, &pass, rng), ENGINE_ACCEPTED);
    }
    assert_null(engine_window_top(st));
}

/* The families of power `slug` the seat is offered: how many, and the
 * highest first argument. */
static unsigned offered(const engine_state *st, unsigned seat, const char *slug, int *hi)
{
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, (uint8_t)seat);
    unsigned found = 0;
    for (size_t i = 0; i < n; i++)
        if (legal[i].kind == ENGINE_ACTION_POWER && legal[i].lo[0] == engine_power_from_slug(slug)) {
            found++;
            *hi = legal[i].hi[1];
        }
    return found;
}

/* The Emperor's plan: his first leader, `dial` plain forces and `elite`
 * Sardaukar at full strength. */
static void emperor_plan(engine_state *st, engine_rng *rng, unsigned dial, unsigned elite)
{
    engine_action plan = {ENGINE_ACTION_BATTLE_PLAN, EMPEROR, {0, -1, -1, -1, 0, 1, 1, 1}};
    plan.arg[4] = (int16_t)dial;
    plan.arg[6] = (int16_t)(elite + 1);
    for (int l = 0; l < ENGINE_LEADER_COUNT; l++)
        if (engine_leader_faction((unsigned)l) == ENGINE_FACTION_EMPEROR) {
            plan.arg[0] = (int16_t)l;
            break;
        }
    engine_verdict_detail why;
    assert_int_equal(engine_apply(&why, st, &plan, rng), ENGINE_ACCEPTED);
}

static unsigned emperor_side(const engine_state *st)
{
    return st->battle_seat[0] == EMPEROR ? 0u : 1u;
}

/* Row 8: the Emperor, 4 ordinary forces and no Sardaukar, is offered 1..4
 * (five at most, no more than present); 3 played, his plan of 4 at full
 * strength is worth 3 x 2 + 1 = 7, in half points 14, not 8; the forces
 * stay ordinary. Refused with a Sardaukar of his in the battle, beyond
 * his forces, after his plan, and by any other seat. */
static void test_nexus_advanced__emperor_cunning(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    battle(&st, &rng, ENGINE_RULES_VERSION, 0, 4, 0, EMPEROR);
    int hi = 0;
    assert_int_equal(offered(&st, EMPEROR, "nexus_emperor_cunning", &hi), 1);
    assert_int_equal(hi, 4);
    engine_action a = test_power(EMPEROR, "nexus_emperor_cunning", 5);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    a = test_power(HARKONNEN, "nexus_emperor_cunning", 3);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NOT_YOUR_POWER);
    engine_state plain = st;
    a = test_power(EMPEROR, "nexus_emperor_cunning", 3);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_nexus_held(&st, EMPEROR), -1);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(test_state_round_trip(&st), 0);
    emperor_plan(&st, &rng, 4, 0);
    emperor_plan(&plain, &rng, 4, 0);
    assert_int_equal(engine_plan_forces_strength2(&st, emperor_side(&st)), 14);
    assert_int_equal(engine_plan_forces_strength2(&plain, emperor_side(&plain)), 8);
    assert_int_equal(engine_plan_support(&st, emperor_side(&st)), 4);
    /* with a Sardaukar of his in the battle: not offered, refused */
    battle(&st, &rng, ENGINE_RULES_VERSION, 0, 4, 1, EMPEROR);
    assert_int_equal(offered(&st, EMPEROR, "nexus_emperor_cunning", &hi), 0);
    a = test_power(EMPEROR, "nexus_emperor_cunning", 3);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NOT_YOUR_POWER);
    /* after his plan: not offered */
    battle(&st, &rng, ENGINE_RULES_VERSION, 0, 4, 0, EMPEROR);
    emperor_plan(&st, &rng, 4, 0);
    assert_int_equal(offered(&st, EMPEROR, "nexus_emperor_cunning", &hi), 0);
    /* in a Basic room, none; under version 7, refused naming row 8 */
    battle(&st, &rng, ENGINE_RULES_VERSION, 1, 4, 0, EMPEROR);
    assert_int_equal(offered(&st, EMPEROR, "nexus_emperor_cunning", &hi), 0);
    battle(&st, &rng, 7, 0, 4, 0, EMPEROR);
    a = test_power(EMPEROR, "nexus_emperor_cunning", 3);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_RULE_NOT_IMPLEMENTED);
    assert_int_equal(why.value, 8);
}

/* Row 7b: the Harkonnen, fighting the Emperor (2 forces, 2 Sardaukar) and
 * holding his card (a Betrayal), play it while the plans are made: his 2
 * Sardaukar at full strength are worth 2, not 4 (half points 4, not 8).
 * Not offered to the Emperor, nor in a Basic room; played once. */
static void test_nexus_advanced__emperor_betrayal_sardaukar(void **state)
{
    (void)state;
    engine_state st;
    engine_rng rng;
    engine_verdict_detail why;
    battle(&st, &rng, ENGINE_RULES_VERSION, 0, 2, 2, HARKONNEN);
    int hi = 0;
    assert_int_equal(offered(&st, HARKONNEN, "nexus_emperor_betrayal", &hi), 1);
    engine_state plain = st;
    engine_action a = test_power(HARKONNEN, "nexus_emperor_betrayal", 0);
    assert_int_equal(engine_apply(&why, &st, &a, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_nexus_held(&st, HARKONNEN), -1);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(test_state_round_trip(&st), 0);
    assert_int_equal(test_try(&why, &st, &a, &rng), ENGINE_REJECT_NOT_YOUR_POWER); /* spent */
    emperor_plan(&st, &rng, 0, 2);
    emperor_plan(&plain, &rng, 0, 2);
    assert_int_equal(engine_plan_forces_strength2(&st, emperor_side(&st)), 4);
    assert_int_equal(engine_plan_forces_strength2(&plain, emperor_side(&plain)), 8);
    /* the Emperor holding his own card is offered his Cunning, not this */
    battle(&st, &rng, ENGINE_RULES_VERSION, 0, 2, 2, EMPEROR);
    assert_int_equal(offered(&st, EMPEROR, "nexus_emperor_betrayal", &hi), 0);
    battle(&st, &rng, ENGINE_RULES_VERSION, 1, 4, 0, HARKONNEN);
    assert_int_equal(offered(&st, HARKONNEN, "nexus_emperor_betrayal", &hi), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nexus_advanced__emperor_cunning),
        cmocka_unit_test(test_nexus_advanced__emperor_betrayal_sardaukar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
