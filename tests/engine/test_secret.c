/*
 * test_secret.c - engine_action_secret_mask against the rules: the
 * arguments a seat other than the actor may not see when an action is
 * submitted. The expectations are written out by hand from the rules (the
 * storm dial LR 1.01.01, the traitor kept at setup, the Atreides's
 * prescience answer, the battle plan LR 1.07.04 (with the Advanced
 * forces by strength, LR 1.13.04), the Bene Gesserit prediction LR 2.02.01,
 * the Nexus Cards' own-faction policy, docs/RULINGS.md R80); every other kind must be wholly public, no mask
 * may name an argument its kind does not have, and the prediction's mask
 * must be the Bene Gesserit power row's, where the engine keeps it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/internal.h"

static uint8_t expected(unsigned kind)
{
    switch (kind) {
    case ENGINE_ACTION_PREDICT: return 0x03;           /* faction, turn */
    case ENGINE_ACTION_TRAITOR_PICK: return 0x01;      /* the leader kept */
    case ENGINE_ACTION_STORM_DIAL: return 0x01;        /* the dial */
    case ENGINE_ACTION_PRESCIENCE_ANSWER: return 0x03; /* the element's value, the dial's support */
    case ENGINE_ACTION_BATTLE_PLAN: return 0xFF;       /* leader, hero, weapon, defense, dial,
                                                          and the Advanced forces by strength */
    case ENGINE_ACTION_NEXUS_DRAW: return 0x02;        /* the own-faction policy (R80) */
    case ENGINE_ACTION_POWER:                          /* by kind alone: any but the id */
    case ENGINE_ACTION_ANSWER: return 0xFE;            /* (a window's answer, as a power) */
    default: return 0;
    }
}

static void test_secret__masks_are_the_rules(void **state)
{
    (void)state;
    for (unsigned kind = 1; kind < ENGINE_ACTION_KIND_COUNT; kind++) {
        const engine_action_spec *spec = engine_action_spec_of(kind);
        assert_non_null(spec);
        uint8_t mask = engine_action_secret_mask(kind);
        if (mask != expected(kind))
            fail_msg("%s: mask 0x%02x, the rules say 0x%02x", spec->name, mask, expected(kind));
        assert_int_equal(mask >> spec->n_args, 0); /* only arguments the kind has */
    }
    assert_int_equal(engine_action_secret_mask(ENGINE_ACTION_NONE), 0);
    assert_int_equal(engine_action_secret_mask(ENGINE_ACTION_KIND_COUNT), 0xFF);
    assert_int_equal(engine_action_secret_mask(250), 0xFF);
}

static void test_secret__prediction_is_the_power_rows(void **state)
{
    (void)state;
    const engine__power_family *bg = engine__power_families[ENGINE_FACTION_BENE_GESSERIT];
    uint8_t row_mask = 0;
    for (size_t i = 0; i < bg->n; i++)
        if (bg->rows[i].point == ENGINE__POINT_SETUP_PREDICTION)
            row_mask |= bg->rows[i].secret_args;
    assert_int_not_equal(row_mask, 0);
    assert_int_equal(engine_action_secret_mask(ENGINE_ACTION_PREDICT), row_mask);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_secret__masks_are_the_rules),
        cmocka_unit_test(test_secret__prediction_is_the_power_rows),
    };
    return cmocka_run_group_tests_name("engine_secret", tests, NULL, NULL);
}
