/*
 * test_optional_args.c - the optional action arguments of rules version 4
 * (docs/RULINGS.md R72): a move's source sector and the Bene Gesserit
 * send's destination. From version 4 they are legal, offered as families
 * and obeyed; under version 3 they are refused as before (the argument
 * was not there) and never offered, so older rooms fold as they did.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "engine/engine.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {72};

#define HARKONNEN 0u               /* seat 1: first with the storm in sector 0 */

static int loc(unsigned territory, int sector)
{
    int l = engine_location_find(territory, sector);
    assert_true(l >= 0);
    return l;
}

/* Harkonnen (seat 1) and `other`, in Shipment and Movement of turn 2,
 * under `rules`: 3 Harkonnen forces in the Imperial Basin's sector 8, 2
 * in its sector 10. */
static void table(engine_state *st, unsigned other, unsigned rules)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.rules_version = (uint16_t)rules;
    cfg.n_seats = 2;
    cfg.faction[0] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[1] = (uint8_t)other;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_position_forces(st, HARKONNEN,
                                            (unsigned)loc(ENGINE_TERRITORY_IMPERIAL_BASIN, 8), 3, 0), 0);
    assert_int_equal(engine_position_forces(st, HARKONNEN,
                                            (unsigned)loc(ENGINE_TERRITORY_IMPERIAL_BASIN, 10), 2, 0), 0);
    assert_int_equal(engine_position_seat_spice(st, HARKONNEN, 10), 0);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_SHIPMENT_MOVEMENT, 2, 0, &rng), 0);
}

static engine_verdict apply(engine_verdict_detail *why, engine_state *st, const engine_action *a)
{
    engine_rng rng;
    engine_rng_init(&rng, SEED, 9);
    return engine_apply(why, st, a, &rng);
}

static void ship_pass(engine_state *st)
{
    engine_action a = {ENGINE_ACTION_SHIP_PASS, HARKONNEN, {0}};
    assert_int_equal(apply(NULL, st, &a), ENGINE_ACCEPTED);
}

/* The move families of the Harkonnen naming a source: how many, and each
 * one's example accepted (engine/apply.c invariant (2)). */
static unsigned source_families(const engine_state *st)
{
    static engine_legal legal[ENGINE_LEGAL_MAX];
    size_t n = engine_legal_actions(legal, ENGINE_LEGAL_MAX, st, HARKONNEN);
    unsigned with_source = 0;
    for (size_t i = 0; i < n; i++) {
        if (legal[i].kind != ENGINE_ACTION_MOVE || legal[i].hi[4] == 0)
            continue;
        with_source++;
        assert_int_equal(legal[i].lo[4], legal[i].hi[4]);
        assert_int_equal(engine_legal_n_given(&legal[i]), 5);
        engine_action a = {ENGINE_ACTION_MOVE, HARKONNEN,
                           {legal[i].lo[0], legal[i].lo[1], legal[i].hi[2], 0, legal[i].lo[4]}};
        engine_state copy = *st;
        assert_int_equal(apply(NULL, &copy, &a), ENGINE_ACCEPTED);
        assert_int_equal(engine_state_check(&copy), 0);
    }
    return with_source;
}

static void test_optional_args__move_takes_the_group_from_its_source(void **state)
{
    (void)state;
    static engine_state st, before;
    table(&st, ENGINE_FACTION_ATREIDES, 4);
    ship_pass(&st);
    int east = loc(ENGINE_TERRITORY_IMPERIAL_BASIN, 8), west = loc(ENGINE_TERRITORY_IMPERIAL_BASIN, 10);
    int tsimpo = loc(ENGINE_TERRITORY_TSIMPO, 10);
    /* both sectors reach Tsimpo: a family for each, besides the plain one */
    assert_true(source_families(&st) >= 2);
    engine_verdict_detail why;
    before = st;
    engine_action a = {ENGINE_ACTION_MOVE, HARKONNEN,
                       {ENGINE_TERRITORY_IMPERIAL_BASIN, (int16_t)tsimpo, 3, 0, (int16_t)west}};
    assert_int_equal(apply(&why, &st, &a), ENGINE_REJECT_NOT_ENOUGH_FORCES);
    a.arg[4] = (int16_t)loc(ENGINE_TERRITORY_CARTHAG, 10);
    assert_int_equal(apply(&why, &st, &a), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(why.arg, 4);
    assert_memory_equal(&before, &st, sizeof st);
    a.arg[2] = 2;
    a.arg[4] = (int16_t)west;
    assert_int_equal(apply(&why, &st, &a), ENGINE_ACCEPTED);
    assert_int_equal(st.forces[east][HARKONNEN], 3);
    assert_int_equal(st.forces[west][HARKONNEN], 0);
    assert_int_equal(st.forces[tsimpo][HARKONNEN], 2);
    assert_int_equal(engine_action_n_given(&a), 5);
    a.arg[4] = 0;
    assert_int_equal(engine_action_n_given(&a), 4);
}

static void test_optional_args__rules_version_3_knows_no_source(void **state)
{
    (void)state;
    static engine_state st, before;
    table(&st, ENGINE_FACTION_ATREIDES, 3);
    ship_pass(&st);
    assert_int_equal(source_families(&st), 0);
    int east = loc(ENGINE_TERRITORY_IMPERIAL_BASIN, 8), west = loc(ENGINE_TERRITORY_IMPERIAL_BASIN, 10);
    int tsimpo = loc(ENGINE_TERRITORY_TSIMPO, 10);
    engine_verdict_detail why;
    before = st;
    engine_action a = {ENGINE_ACTION_MOVE, HARKONNEN,
                       {ENGINE_TERRITORY_IMPERIAL_BASIN, (int16_t)tsimpo, 2, 0, (int16_t)west}};
    assert_int_equal(apply(&why, &st, &a), ENGINE_REJECT_ARG_OUT_OF_RANGE);
    assert_int_equal(why.arg, 4);
    assert_int_equal(why.value, west);
    assert_memory_equal(&before, &st, sizeof st);
    /* without a source: from the sectors that reach, in location order */
    a.arg[4] = 0;
    assert_int_equal(apply(&why, &st, &a), ENGINE_ACCEPTED);
    assert_int_equal(st.forces[east][HARKONNEN], 1);
    assert_int_equal(st.forces[west][HARKONNEN], 2);
}

/* The Harkonnen ship 2 into Carthag: the Bene Gesserit are asked. */
static void bg_asked(engine_state *st, unsigned rules)
{
    table(st, ENGINE_FACTION_BENE_GESSERIT, rules);
    engine_action ship = {ENGINE_ACTION_SHIP, HARKONNEN,
                          {(int16_t)loc(ENGINE_TERRITORY_CARTHAG, 10), 2, 0, 0}};
    assert_int_equal(apply(NULL, st, &ship), ENGINE_ACCEPTED);
    assert_int_equal(engine_state_awaiting(st), 1u << 1);
}

static void test_optional_args__bg_send_destination(void **state)
{
    (void)state;
    static engine_state st, before;
    int arrakeen = loc(ENGINE_TERRITORY_ARRAKEEN, 9);
    engine_verdict_detail why;
    for (unsigned rules = 3; rules <= 4; rules++) {
        bg_asked(&st, rules);
        before = st;
        engine_action a = {ENGINE_ACTION_BG_SEND, 1, {1, (int16_t)arrakeen}};
        assert_int_equal(apply(&why, &st, &a), rules == 3 ? ENGINE_REJECT_ARG_OUT_OF_RANGE
                                                          : ENGINE_REJECT_SEND_DESTINATION);
        assert_int_equal(why.arg, 1);
        assert_memory_equal(&before, &st, sizeof st);
        a.arg[1] = 0; /* the Polar Sink, named or not */
        assert_int_equal(apply(&why, &st, &a), ENGINE_ACCEPTED);
        assert_int_equal(st.forces[0][1], 1);
    }
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_optional_args__move_takes_the_group_from_its_source),
        cmocka_unit_test(test_optional_args__rules_version_3_knows_no_source),
        cmocka_unit_test(test_optional_args__bg_send_destination),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
