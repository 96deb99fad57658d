/*
 * test_advanced_karama.c - the Karama in the Advanced game from rules
 * version 7 (LR 1.13.06, 3.01.11; FAQ20 pp. 7-8; docs/RULINGS.md R118)
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

/* A cleared table of three seats, f0..f2 their factions. */
static void table(engine_state *st, uint8_t f0, uint8_t f1, uint8_t f2, int advanced,
                  unsigned version)
{
    engine_config cfg;
    engine_config_init(&cfg);
    cfg.n_seats = 3;
    cfg.faction[0] = f0;
    cfg.faction[1] = f1;
    cfg.faction[2] = f2;
    cfg.is_advanced = (uint8_t)advanced;
    cfg.rules_version = (uint16_t)version;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 0);
    assert_int_equal(engine_position_new(NULL, st, &cfg, &rng), ENGINE_ACCEPTED);
}

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
    table(st, ENGINE_FACTION_ATREIDES, ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_EMPEROR, advanced,
          version);
    engine_rng rng;
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
 * Basic twenty in a Basic room and in any room before version 7, the
 * first 25 in an Advanced room of version 7, all of them from version 8
 * (the Karama stops of engine/karama_stops.c, the Harkonnen's capture). The policy's family and
 * handler follow: ask_21_31 and own_21_31 range over the appended
 * advantages the Advanced room offers, and are refused (0 only)
 * elsewhere, as every argument beyond the fourth was. */
static void test_advanced_karama__policy_names_every_advantage(void **state)
{
    (void)state;
    static const struct {
        int advanced;
        unsigned version;
        int wide;
        uint32_t all;
    } cases[] = {{1, 8, 1, ENGINE_ADVANTAGE_ALL}, {1, 7, 1, ENGINE_ADVANTAGE_V7},
                 {0, 7, 0, ENGINE_ADVANTAGE_BASIC}, {1, 6, 0, ENGINE_ADVANTAGE_BASIC},
                 {0, 6, 0, ENGINE_ADVANTAGE_BASIC}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_state st;
        battle(&st, cases[i].advanced, cases[i].version);
        uint32_t all = cases[i].all;
        assert_int_equal(engine_karama_offered(&st), all);
        for (unsigned s = 0; s < 3; s++) {
            assert_int_equal(st.karama_ask[s], all);
            assert_int_equal(st.karama_ask_own[s], 0);
        }
        const engine_legal *l = policy_family(&st, ATREIDES);
        assert_non_null(l);
        for (unsigned a = 0; a < 4; a++)
            assert_int_equal(l->hi[a], 1023);
        int16_t wide_hi = (int16_t)(all >> ENGINE_ADVANTAGE_BASIC_COUNT);
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

/* The Bene Gesserit, the Harkonnen (holding a Karama) and the Emperor,
 * entering CHOAM Charity with the Bene Gesserit holding `bg_spice`. */
static void charity(engine_state *st, int advanced, unsigned version, unsigned bg_spice)
{
    table(st, ENGINE_FACTION_BENE_GESSERIT, ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_EMPEROR,
          advanced, version);
    engine_rng rng;
    assert_int_equal(engine_position_seat_spice(st, 0, bg_spice), 0);
    assert_int_equal(engine_position_seat_spice(st, 1, 0), 0);
    assert_int_equal(engine_position_seat_spice(st, 2, 9), 0);
    assert_true(engine_position_give_card(st, 1, ENGINE_CARD_KARAMA) >= 0);
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_CHOAM_CHARITY, 3, 0, &rng), 0);
    assert_int_equal(engine_state_check(st), 0);
}

/* The Bene Gesserit's Advanced charity when they hold 2 or more (FAQ20
 * pp. 7-8): the phase's start is held in a Karama window asking the
 * Harkonnen; allowed, they receive 2; cancelled, nothing (they hold 2 or
 * more, so no ordinary charity either), the card is spent, and the phase
 * goes on to the Harkonnen's claim. Holding 1 there is nothing to stop (a
 * Karama would leave them the ordinary top-up): no window. Version 6: no
 * window. */
static void test_advanced_karama__bg_charity(void **state)
{
    (void)state;
    engine_state st;
    charity(&st, 1, 7, 5);
    const engine_frame *f = engine_window_top(&st);
    assert_non_null(f);
    assert_int_equal(f->point, ENGINE_WINDOW_KARAMA);
    assert_int_equal(f->rows, ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_BG_CHARITY));
    assert_int_equal(f->asked, 1u << 1);
    assert_int_equal(f->held.kind, ENGINE_ACTION_NONE);
    assert_int_equal(st.seat[0].spice, 5);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(test_state_round_trip(&st), 0);
    engine_state allowed = st, stopped = st;
    engine_action allow = simple(ENGINE_ACTION_KARAMA_ALLOW, 1, 0);
    assert_int_equal(engine_apply(NULL, &allowed, &allow, NULL), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&allowed));
    assert_int_equal(allowed.seat[0].spice, 7);
    assert_int_equal(engine_state_awaiting(&allowed), 1u << 1); /* the Harkonnen may claim */
    assert_int_equal(engine_state_check(&allowed), 0);
    engine_action cancel = simple(ENGINE_ACTION_KARAMA_CANCEL, 1, ENGINE_ADVANTAGE_BG_CHARITY);
    assert_int_equal(engine_apply(NULL, &stopped, &cancel, NULL), ENGINE_ACCEPTED);
    assert_null(engine_window_top(&stopped));
    assert_int_equal(stopped.seat[0].spice, 5);
    assert_int_equal(engine_effect_sources(&stopped, ENGINE_EFFECT_CANCELLED), 0); /* used up */
    assert_int_equal(engine_state_awaiting(&stopped), 1u << 1);
    assert_int_equal(engine_state_check(&stopped), 0);
    engine_action claim = simple(ENGINE_ACTION_CHARITY_CLAIM, 1, 0);
    assert_int_equal(engine_apply(NULL, &stopped, &claim, NULL), ENGINE_ACCEPTED);
    assert_int_equal(stopped.seat[1].spice, 2);
    assert_int_equal(stopped.phase, ENGINE_PHASE_BIDDING);
    /* Holding 1, or under version 6: no window, the 2 given at once. */
    static const struct {
        unsigned version, spice;
    } none[] = {{7, 1}, {6, 5}};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        charity(&st, 1, none[i].version, none[i].spice);
        assert_null(engine_window_top(&st));
        assert_int_equal(st.seat[0].spice, none[i].spice + 2);
    }
}

/* The Fremen (4 forces in Cielago North, sector 2), the Harkonnen
 * (holding a Karama) and the Atreides, the turn-1 storm dialled to move 2
 * sectors from sector 0 over them. */
static void storm(engine_state *st, unsigned version)
{
    table(st, ENGINE_FACTION_FREMEN, ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_ATREIDES, 1, version);
    engine_rng rng;
    int at = engine_location_find(ENGINE_TERRITORY_CIELAGO_NORTH, 2);
    assert_true(at >= 0);
    assert_int_equal(engine_position_forces(st, 0, (unsigned)at, 4, 0), 0);
    assert_true(engine_position_give_card(st, 1, ENGINE_CARD_KARAMA) >= 0);
    engine_rng_init(&rng, SEED, 1);
    assert_int_equal(engine_position_enter(st, ENGINE_PHASE_STORM, 1, 0, &rng), 0);
    uint16_t dialers = engine_state_awaiting(st);
    for (uint8_t s = 0; s < 3; s++)
        if (dialers & (1u << s)) {
            engine_action d = simple(ENGINE_ACTION_STORM_DIAL, s, 1);
            engine_rng_init(&rng, SEED, 2 + s);
            assert_int_equal(engine_apply(NULL, st, &d, &rng), ENGINE_ACCEPTED);
        }
}

/* The Fremen's half losses in the storm (FAQ20 pp. 7-8: "all die"): a
 * storm about to strike Fremen forces it would spare some of is held in a
 * Karama window before it moves, asking the Harkonnen; allowed, half die
 * (rounded up); cancelled, all of them; either way the storm moves the
 * sectors dialled and the Fremen's next storm card is drawn. Version 6:
 * no window. */
static void test_advanced_karama__fremen_storm_losses(void **state)
{
    (void)state;
    int at = engine_location_find(ENGINE_TERRITORY_CIELAGO_NORTH, 2);
    engine_state st;
    storm(&st, 7);
    const engine_frame *f = engine_window_top(&st);
    assert_non_null(f);
    assert_int_equal(f->rows, ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_FREMEN_STORM_LOSSES));
    assert_int_equal(f->asked, 1u << 1);
    assert_int_equal(st.phase, ENGINE_PHASE_STORM);
    assert_int_equal(st.storm_sector, 0); /* not moved yet */
    assert_int_equal(st.forces[at][0], 4);
    assert_int_equal(engine_state_check(&st), 0);
    assert_int_equal(test_state_round_trip(&st), 0);
    engine_state allowed = st, stopped = st;
    engine_rng rng;
    engine_rng_init(&rng, SEED, 9);
    engine_action allow = simple(ENGINE_ACTION_KARAMA_ALLOW, 1, 0);
    assert_int_equal(engine_apply(NULL, &allowed, &allow, &rng), ENGINE_ACCEPTED);
    assert_int_equal(allowed.storm_sector, 2);
    assert_int_equal(allowed.forces[at][0], 2);
    assert_int_equal(allowed.seat[0].tanks, 2);
    assert_true(allowed.next_storm >= 1);
    assert_int_not_equal(allowed.phase, ENGINE_PHASE_STORM);
    assert_int_equal(engine_state_check(&allowed), 0);
    engine_rng_init(&rng, SEED, 9);
    engine_action cancel = simple(ENGINE_ACTION_KARAMA_CANCEL, 1, ENGINE_ADVANTAGE_FREMEN_STORM_LOSSES);
    assert_int_equal(engine_apply(NULL, &stopped, &cancel, &rng), ENGINE_ACCEPTED);
    assert_int_equal(stopped.storm_sector, 2);
    assert_int_equal(stopped.forces[at][0], 0);
    assert_int_equal(stopped.seat[0].tanks, 4);
    assert_true(stopped.next_storm >= 1);
    assert_int_equal(engine_effect_sources(&stopped, ENGINE_EFFECT_CANCELLED), 0);
    assert_int_equal(engine_state_check(&stopped), 0);
    storm(&st, 6);
    assert_int_equal(st.storm_sector, 2); /* moved at once, half of them spared */
    assert_int_equal(st.forces[at][0], 2);
}

/* One flip to or from advisors (FAQ20 pp. 7-8), WARTIME: in the Revival
 * the Bene Gesserit's 2 advisors in Arrakeen, beside 3 Harkonnen forces,
 * would become fighters; the flip is held in a Karama window asking the
 * Harkonnen (holding a Karama); allowed, they are fighters; cancelled,
 * they stay advisors, the card is spent, and the Bene Gesserit are still
 * asked for their revival. Version 6: no window. */
static void test_advanced_karama__bg_flip(void **state)
{
    (void)state;
    int arrakeen = engine_location_find(ENGINE_TERRITORY_ARRAKEEN, 9);
    assert_true(arrakeen >= 0);
    for (unsigned version = 6; version <= 7; version++) {
        engine_state st;
        table(&st, ENGINE_FACTION_BENE_GESSERIT, ENGINE_FACTION_HARKONNEN, ENGINE_FACTION_EMPEROR, 1,
              version);
        engine_rng rng;
        assert_int_equal(engine_position_forces(&st, 1, (unsigned)arrakeen, 3, 0), 0);
        assert_int_equal(engine_position_advisors(&st, 0, (unsigned)arrakeen, 2), 0);
        assert_int_equal(engine_position_tanks(&st, 0, 2, 0), 0);
        assert_true(engine_position_give_card(&st, 1, ENGINE_CARD_KARAMA) >= 0);
        engine_rng_init(&rng, SEED, 1);
        assert_int_equal(engine_position_enter(&st, ENGINE_PHASE_REVIVAL, 2, 15, &rng), 0);
        engine_action wartime = simple(ENGINE_ACTION_POWER, 0, engine_power_id("bg_wartime"));
        wartime.arg[1] = ENGINE_TERRITORY_ARRAKEEN;
        assert_int_equal(engine_apply(NULL, &st, &wartime, NULL), ENGINE_ACCEPTED);
        if (version == 6) {
            assert_null(engine_window_top(&st));
            assert_int_equal(st.forces[arrakeen][0], 2);
            continue;
        }
        const engine_frame *f = engine_window_top(&st);
        assert_non_null(f);
        assert_int_equal(f->rows, ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_BG_FLIP));
        assert_int_equal(f->asked, 1u << 1);
        assert_int_equal(st.advisors[arrakeen], 2);
        assert_int_equal(engine_state_check(&st), 0);
        assert_int_equal(test_state_round_trip(&st), 0);
        engine_state allowed = st, stopped = st;
        engine_action allow = simple(ENGINE_ACTION_KARAMA_ALLOW, 1, 0);
        assert_int_equal(engine_apply(NULL, &allowed, &allow, NULL), ENGINE_ACCEPTED);
        assert_int_equal(allowed.forces[arrakeen][0], 2);
        assert_int_equal(allowed.advisors[arrakeen], 0);
        assert_int_equal(engine_state_check(&allowed), 0);
        engine_action cancel = simple(ENGINE_ACTION_KARAMA_CANCEL, 1, ENGINE_ADVANTAGE_BG_FLIP);
        assert_int_equal(engine_apply(NULL, &stopped, &cancel, NULL), ENGINE_ACCEPTED);
        assert_null(engine_window_top(&stopped));
        assert_int_equal(stopped.forces[arrakeen][0], 0);
        assert_int_equal(stopped.advisors[arrakeen], 2);
        assert_int_equal(engine_effect_sources(&stopped, ENGINE_EFFECT_CANCELLED), 0);
        assert_int_equal(stopped.phase, ENGINE_PHASE_REVIVAL);
        assert_true(engine_state_awaiting(&stopped) & 1u);
        assert_int_equal(engine_state_check(&stopped), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_advanced_karama__policy_names_every_advantage),
        cmocka_unit_test(test_advanced_karama__policy_wire),
        cmocka_unit_test(test_advanced_karama__bg_charity),
        cmocka_unit_test(test_advanced_karama__fremen_storm_losses),
        cmocka_unit_test(test_advanced_karama__bg_flip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
