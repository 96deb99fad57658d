/*
 * test_advanced_karama.c - the Karama in the Advanced game from rules
 * version 7 (LR 1.13.06, 3.01.11; FAQ20 pp. 7-8; docs/RULINGS.md R113)
 * through the engine API on constructed positions: the standing policy
 * names every advantage the room can offer (a Basic room and every room
 * of versions 3 to 6 keep the Basic twenty, their action and its wire
 * bytes), and each Advanced advantage a Karama may stop is held at the
 * moment of use (tests/engine/test_kwisatz_haderach.c: the Kwisatz
 * Haderach's use). The rules with their sources are the
 * tests/scenarios/advanced_karama_*.json scenarios; advantages are named,
 * never numbered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "schema/schema.h"
#include "tests/support/support.h"

static const uint8_t SEED[ENGINE_SEED_BYTES] = {7, 1, 2, 12};

enum { ATREIDES = 0, HARKONNEN = 1, EMPEROR = 2 };

#define KH_BIT ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_ATREIDES_KH)

static unsigned first_loc(unsigned territory)
{
    for (unsigned l = 0; l < ENGINE_LOCATION_COUNT; l++)
        if (engine_location_territory(l) == territory)
            return l;
    fail();
    return 0;
}

/* Atreides and Harkonnen, 5 forces each in Carthag, 10 spice, the
 * Emperor elsewhere; the Kwisatz Haderach awake where the rules have it;
 * the Harkonnen and the Emperor each hold a Karama; in the Battle. */
static void battle(engine_state *st, int advanced, unsigned version)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[ATREIDES] = ENGINE_FACTION_ATREIDES;
    cfg.faction[HARKONNEN] = ENGINE_FACTION_HARKONNEN;
    cfg.faction[EMPEROR] = ENGINE_FACTION_EMPEROR;
    cfg.is_advanced = (uint8_t)advanced;
    cfg.rules_version = (uint16_t)version;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
    unsigned carthag = first_loc(ENGINE_TERRITORY_CARTHAG);
    unsigned basin = first_loc(ENGINE_TERRITORY_IMPERIAL_BASIN);
    for (uint8_t s = 0; s < 2; s++) {
        assert_int_equal(engine_position_forces(st, s, carthag, 5, 0), 0);
        assert_int_equal(engine_position_seat_spice(st, s, 10), 0);
    }
    assert_int_equal(engine_position_forces(st, EMPEROR, basin, 3, 0), 0);
    assert_true(engine_position_give_card(st, HARKONNEN, ENGINE_CARD_KARAMA) >= 0);
    assert_true(engine_position_give_card(st, EMPEROR, ENGINE_CARD_KARAMA) >= 0);
    if (advanced)
        (void)engine_position_kwisatz_haderach(st, ENGINE_KH_AWAKENING_LOSSES, 0);
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_BATTLE, 3, 0, &rng), 0);
    assert_int_equal(engine_state_check(st), 0);
}

static engine_action simple(uint8_t kind, uint8_t seat, int arg0)
{
    engine_action act = {kind, seat, {0}};
    act.arg[0] = (int16_t)arg0;
    return act;
}

static const engine_legal *policy_family(const engine_state *st, uint8_t seat)
{
    static engine_legal legal[512];
    size_t n = engine_legal_actions(legal, 512, st, seat);
    for (size_t i = 0; i < n && i < 512; i++)
        if (legal[i].kind == ENGINE_ACTION_KARAMA_POLICY)
            return &legal[i];
    return NULL;
}

/* Every seat starts asked about every advantage its room can offer: the
 * Basic twenty in a Basic room and in any room before version 7, all of
 * them in an Advanced room of version 7. The policy's family and handler
 * follow: ask_21_31 and own_21_31 range over the appended advantages in
 * an Advanced room of version 7 only, and are refused (0 only) elsewhere,
 * as every argument beyond the fourth was. */
static void test_advanced_karama__policy_names_every_advantage(void **state)
{
    (void)state;
    static const struct {
        int advanced;
        unsigned version;
        int wide;
    } cases[] = {{1, 7, 1}, {0, 7, 0}, {1, 6, 0}, {0, 6, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_state st;
        battle(&st, cases[i].advanced, cases[i].version);
        uint32_t all = cases[i].wide ? ENGINE_ADVANTAGE_ALL : ENGINE_ADVANTAGE_BASIC;
        assert_int_equal(engine_karama_offered(&st), all);
        for (unsigned s = 0; s < 3; s++) {
            assert_int_equal(st.karama_ask[s], all);
            assert_int_equal(st.karama_ask_own[s], 0);
        }
        const engine_legal *l = policy_family(&st, ATREIDES);
        assert_non_null(l);
        for (unsigned a = 0; a < 4; a++)
            assert_int_equal(l->hi[a], 1023);
        int16_t wide_hi = (int16_t)(ENGINE_ADVANTAGE_ALL >> ENGINE_ADVANTAGE_BASIC_COUNT);
        assert_int_equal(l->hi[4], cases[i].wide ? wide_hi : 0);
        assert_int_equal(l->hi[5], cases[i].wide ? wide_hi : 0);
        /* Asked about the Kwisatz Haderach only, in the seat's own battle. */
        engine_action policy = simple(ENGINE_ACTION_KARAMA_POLICY, ATREIDES, 0);
        engine_karama_policy_set(&policy, 0, KH_BIT);
        uint32_t ask, own;
        engine_karama_policy_masks(&ask, &own, &policy);
        assert_int_equal(ask, 0);
        assert_int_equal(own, KH_BIT);
        assert_int_equal(policy.arg[4], 0);
        assert_int_not_equal(policy.arg[5], 0);
        engine_state before = st;
        engine_verdict_detail why;
        engine_verdict v = engine_apply(&why, &st, &policy, NULL);
        if (!cases[i].wide) {
            assert_int_equal(v, ENGINE_REJECT_ARG_OUT_OF_RANGE);
            assert_int_equal(why.arg, 5);
            assert_memory_equal(&before, &st, sizeof st);
            continue;
        }
        assert_int_equal(v, ENGINE_ACCEPTED);
        assert_int_equal(st.karama_ask[ATREIDES], 0);
        assert_int_equal(st.karama_ask_own[ATREIDES], KH_BIT);
        assert_int_equal(engine_state_check(&st), 0);
        assert_int_equal(test_state_round_trip(&st), 0);
        /* Beyond the advantages there are: refused, naming the argument. */
        engine_action over = simple(ENGINE_ACTION_KARAMA_POLICY, ATREIDES, 0);
        over.arg[4] = (int16_t)(wide_hi + 1);
        assert_int_equal(engine_apply(&why, &before, &over, NULL), ENGINE_REJECT_ARG_OUT_OF_RANGE);
        assert_int_equal(why.arg, 4);
    }
}

/* The wire: the two appended arguments are optional fields, absent when
 * 0, so a policy of the Basic twenty encodes to the bytes it always had
 * and one naming an Advanced advantage decodes to itself. */
static void test_advanced_karama__policy_wire(void **state)
{
    (void)state;
    engine_action basic = simple(ENGINE_ACTION_KARAMA_POLICY, 0, 1);
    basic.arg[2] = 108;
    uint8_t buf[128];
    size_t len;
    assert_int_equal(codec_action_encode(buf, sizeof buf, &len, &basic), 0);
    /* one field per argument given: the Action's tag and length, then
     * ask_1_10 = 1, ask_11_20 = 0, own_1_10 = 108, own_11_20 = 0 */
    engine_action back;
    assert_int_equal(codec_action_decode(&back, buf, len, NULL), 0);
    back.seat = basic.seat;
    assert_memory_equal(&back, &basic, sizeof back);
    size_t basic_len = len;
    engine_action wide = basic;
    engine_karama_policy_set(&wide, ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_BG_VOICE) | KH_BIT, KH_BIT);
    assert_int_equal(codec_action_encode(buf, sizeof buf, &len, &wide), 0);
    assert_true(len > basic_len);
    assert_int_equal(codec_action_decode(&back, buf, len, NULL), 0);
    back.seat = wide.seat;
    assert_memory_equal(&back, &wide, sizeof back);
    assert_int_equal(engine_action_n_given(&basic), 4);
    assert_int_equal(engine_action_n_given(&wide), 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_advanced_karama__policy_names_every_advantage),
        cmocka_unit_test(test_advanced_karama__policy_wire),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
