/*
 * test_elite_revival.c - one elite force revived a turn from every source
 * (Advanced, rules version 6; LR 2.03.10, 2.04.20; docs/RULINGS.md R106),
 * through the engine API on constructed positions: from version 6 the
 * Tleilaxu Ghola counts against it, in an Advanced room of version 5 it
 * does not (its stored states must re-fold as they were), and a Basic
 * room has no elite forces to revive. The rule with its source is
 * tests/scenarios/advanced_sardaukar_one_revival_a_turn.json.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {3, 10, 20, 1};

enum { FREMEN = 0, EMPEROR = 1 };

/* The Ghola reviving 3 of the Fremen's 3 Fedaykin in the Revival, then
 * their revival asking for one more: how many Fedaykin came back. */
static unsigned fedaykin_back(unsigned version)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 2;
    cfg.faction[FREMEN] = ENGINE_FACTION_FREMEN;
    cfg.faction[EMPEROR] = ENGINE_FACTION_EMPEROR;
    cfg.is_advanced = 1;
    cfg.rules_version = (uint16_t)version;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    engine_state st;
    assert_int_equal(engine_position_new(NULL, &st, &cfg, &rng), ENGINE_ACCEPTED);
    assert_int_equal(engine_position_tanks(&st, FREMEN, 0, 3), 0);
    assert_true(engine_position_give_card(&st, FREMEN, ENGINE_CARD_TLEILAXU_GHOLA) >= 0);
    assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_REVIVAL, 3, 0, &rng), 0);
    unsigned before = st.seat[FREMEN].special_reserves;
    for (int16_t forces = 3; forces >= 1; forces--) {
        engine_action ghola = {ENGINE_ACTION_GHOLA, FREMEN, {forces, -1}};
        engine_state copy = st;
        int want = test_legal_contains(&st, &ghola);
        engine_verdict v = engine_apply(NULL, &copy, &ghola, &rng);
        assert_int_equal(v == ENGINE_ACCEPTED, want > 0); /* the families agree */
        if (v == ENGINE_ACCEPTED) {
            st = copy;
            break;
        }
        assert_memory_equal(&copy, &st, sizeof st);
    }
    engine_action revive = {ENGINE_ACTION_REVIVE, FREMEN, {0, 1, -1}};
    engine_state copy = st;
    int want = test_legal_contains(&st, &revive);
    engine_verdict v = engine_apply(NULL, &copy, &revive, &rng);
    assert_int_equal(v == ENGINE_ACCEPTED, want > 0);
    assert_int_equal(engine_state_check(&copy), 0);
    assert_int_equal(test_state_round_trip(&copy), 0);
    return copy.seat[FREMEN].special_reserves - before;
}

static void test_elite_revival__every_source_from_version_6(void **state)
{
    (void)state;
    assert_int_equal(fedaykin_back(6), 1); /* the Ghola's one; the revival none */
    assert_int_equal(fedaykin_back(5), 3); /* as version 5 played it: the Ghola's 3 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elite_revival__every_source_from_version_6),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
